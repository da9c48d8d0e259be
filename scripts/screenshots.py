"""Screenshots of the running app in Debian's headless Chromium, as a phone sees it.

    python scripts/screenshots.py [BASE_URL] [OUT_DIR]

Fills the form with examples/four-players.json (case 19 with a Forest for a ninth
Elf, the same scores, no deck warning), scores it, and
saves form.png, sheet.png and the print previews (A4, Letter) to OUT_DIR; then
saves the game and takes its read-only page in German (saved-de.png).
Then four phones share a table ("Score together"): table.png is the live
table on a phone while the kingdoms come in. Then the table on a big screen
(``/t/<code>/screen``) while seats fill, on a television (screen.png, 1920 ×
1080; screen-720.png, 1280 × 720), a tablet (screen-tablet.png, 1024 × 768)
and a dark one (screen-dark.png), and after the lock (screen-locked.png,
screen-locked-720.png). Last, a group's standing after 18 games of six friends
(standing.png: run it against an empty database, or the group holds more games).
"""

from __future__ import annotations

import copy
import json
import random
import sys
import time
from datetime import date, timedelta
from pathlib import Path

from playwright.sync_api import sync_playwright

from scorekeeper.engine import Game
from scorekeeper.web.links import encode_game

ROOT = Path(__file__).resolve().parent.parent
#: Debian's Chromium in its classic headless mode (package chromium-headless-shell), else the full one.
CHROMIUM = next(
    (path for path in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium") if Path(path).exists()),
    "/usr/bin/chromium",
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def main() -> None:
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:5000"
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "screenshots")
    out.mkdir(parents=True, exist_ok=True)
    game = json.loads((ROOT / "examples/four-players.json").read_text())  # a game a real deck allows: no warning
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 360, "height": 740}, device_scale_factor=2)
        page.goto(base + "/")
        for _ in range(len(game["players"]) - 2):
            page.click("#add-player")  # the next panel at once (JavaScript)
        for i, player in enumerate(game["players"]):
            page.fill(f"#players-{i}-name", player["name"])
            cells = [card for row in player["kingdom"] for card in row]
            for m, card in enumerate(cells):
                page.fill(f"#players-{i}-cells-{m}", card)
            if player["legends"]:
                page.locator(f"#player-{i} details.legends summary").click()
            for legend in player["legends"]:
                page.check(f"#player-{i} input[value='{legend}']")
        page.screenshot(path=str(out / "form.png"), full_page=False)
        page.screenshot(path=str(out / "form-full.png"), full_page=True)
        page.click("#score")
        page.wait_for_selector("#score-table")
        page.screenshot(path=str(out / "sheet.png"), full_page=False)
        page.screenshot(path=str(out / "sheet-full.png"), full_page=True)
        page.pdf(path=str(out / "sheet-print-a4.pdf"), format="A4")
        page.pdf(path=str(out / "sheet-print-letter.pdf"), format="Letter")
        print(page.url)
        with page.expect_navigation():
            page.click("#save-game button[type=submit]")
        page.goto(page.locator("#share-link").input_value() + "?lang=de")  # saving lands on the read-only page
        page.locator("#saved").scroll_into_view_if_needed()
        page.screenshot(path=str(out / "saved-de.png"), full_page=False)
        print(page.url)
        shared_table(browser, base, game, out)
        big_screen(browser, base, game, out)
        standing(browser, base, game, out)
        browser.close()


def standing(browser, base: str, game: dict, out: Path) -> None:
    """A group's standing (standing.png): 18 games of six friends, a few weeks apart from
    March 2025, saved into the group "Friday club" through their sheet links, without JavaScript."""
    draw = random.Random(7)  # the same standing each time
    page = browser.new_page(viewport={"width": 360, "height": 740}, device_scale_factor=2, java_script_enabled=False)
    day = date(2025, 3, 1)
    for number in range(18):
        played = copy.deepcopy(game)
        for player, name in zip(
            played["players"], draw.sample(["Ada", "Bo", "Cy", "Di", "Eli", "Fay"], 4), strict=True
        ):
            player["name"] = name
        day += timedelta(days=draw.randint(15, 40))
        page.goto(f"{base}/sheet/{encode_game(Game.from_dict(played), day)}?lang=en")
        if number == 0:
            page.fill("#group-name", "Friday club")
        with page.expect_navigation():
            page.click("#save")
    page.goto(f"{base}/groups?lang=en")
    page.locator("#groups a", has_text="Friday club").click()
    for _ in range(100):  # the standing is rated by a job beside the server: the picture once it has caught up
        if page.locator("#standing-catching-up").count() == 0:
            break
        time.sleep(0.2)
        page.reload()
    page.screenshot(path=str(out / "standing.png"), full_page=False)
    print(page.url)
    page.close()


def shared_table(browser, base: str, game: dict, out: Path) -> None:
    """Four phones at one table: two kingdoms done (one checked), one half entered, one not begun."""
    phones = [browser.new_page(viewport={"width": 360, "height": 740}, device_scale_factor=2) for _ in range(4)]
    host = phones[0]
    host.goto(base + "/")
    with host.expect_navigation():
        host.click("#start-table-button")
    link = host.get_attribute("#table-link", "href")
    for page, player in zip(phones, game["players"], strict=True):
        page.goto(link)
        page.fill("#name", player["name"])
        with page.expect_navigation():
            page.click("#take-seat-button")
        page.wait_for_selector("#palette:not([hidden])")
    for n, (page, player) in enumerate(zip(phones[:3], game["players"], strict=False)):
        rows = player["kingdom"] if n < 2 else player["kingdom"][:2] + [["...."]] * 2
        page.click("#player-0 details.paste-field summary")
        page.fill("#seat-paste", "\n".join(" ".join(row) for row in rows))
        page.click(".fill-grid")
        page.wait_for_selector("#save-status:not(:empty)")
        if n < 2:
            with page.expect_navigation():
                page.click("#done")
    with host.expect_navigation():
        host.click("#check-2")
    with host.expect_navigation():
        host.click("#checked")
    viewer = phones[3]
    viewer.goto(link)
    viewer.locator("#seats-title").scroll_into_view_if_needed()
    viewer.wait_for_timeout(1500)
    viewer.screenshot(path=str(out / "table.png"), full_page=False)
    for page in phones:
        page.close()


def big_screen(browser, base: str, game: dict, out: Path) -> None:
    """The table on a big screen: three seats taken (one done, one half entered), one free; then locked."""
    phones = [browser.new_page(viewport={"width": 360, "height": 740}) for _ in range(4)]
    host = phones[0]
    host.goto(base + "/")
    with host.expect_navigation():
        host.click("#start-table-button")
    link = host.get_attribute("#table-link", "href")
    screens = {
        "screen.png": {"viewport": {"width": 1920, "height": 1080}},
        "screen-720.png": {"viewport": {"width": 1280, "height": 720}},
        "screen-tablet.png": {"viewport": {"width": 1024, "height": 768}},
        "screen-dark.png": {"viewport": {"width": 1920, "height": 1080}, "color_scheme": "dark"},
    }
    tvs = {name: browser.new_page(**options) for name, options in screens.items()}
    for tv in tvs.values():
        tv.goto(link + "/screen")
    for n, (page, player) in enumerate(zip(phones, game["players"], strict=True)):
        if n == 3:  # the fourth player comes later
            break
        page.goto(link)
        page.fill("#name", player["name"])
        with page.expect_navigation():
            page.click("#take-seat-button")
        page.wait_for_selector("#palette:not([hidden])")
        if n == 0:
            _enter(page, player["kingdom"][:2] + [["...."]] * 2, [])
        if n == 1:
            _enter(page, player["kingdom"], player["legends"])
            with page.expect_navigation():
                page.click("#done")
    for name, tv in tvs.items():
        tv.wait_for_selector("#screen-seats .screen-seat[data-seat='3']")
        tv.wait_for_timeout(1000)  # every count pushed
        tv.screenshot(path=str(out / name), full_page=False)
    # the fourth player, every kingdom done, checks off, the lock: the screens move to the sheet
    phones[3].goto(link)
    phones[3].fill("#name", game["players"][3]["name"])
    with phones[3].expect_navigation():
        phones[3].click("#take-seat-button")
    for page, player in (
        (phones[0], game["players"][0]),
        (phones[2], game["players"][2]),
        (phones[3], game["players"][3]),
    ):
        page.goto(f"{link}/seat/{phones.index(page) + 1}")
        page.wait_for_selector("#palette:not([hidden])")
        _enter(page, player["kingdom"], player["legends"])
        with page.expect_navigation():
            page.click("#done")
    host.goto(link)
    with host.expect_navigation():
        host.click("#checks")
    with host.expect_navigation():
        host.click("#lock")
    for name, tv in (("screen-locked.png", tvs["screen.png"]), ("screen-locked-720.png", tvs["screen-720.png"])):
        tv.wait_for_selector("#winner")
        tv.screenshot(path=str(out / name), full_page=False)
    tvs["screen-tablet.png"].wait_for_selector("#winner")
    tvs["screen-tablet.png"].screenshot(path=str(out / "screen-locked-tablet.png"), full_page=False)
    for page in [*phones, *tvs.values()]:
        page.close()


def _enter(page, rows: list, legends: list) -> None:
    """A seat page's kingdom pasted as rows of card codes, its Legends ticked, and saved."""
    page.click("#player-0 details.paste-field summary")
    page.fill("#seat-paste", "\n".join(" ".join(row) for row in rows))
    page.click(".fill-grid")
    if legends:
        page.locator("#player-0 details.legends summary").click()
    for legend in legends:
        page.check(f"#player-0 input[value='{legend}']")
    page.wait_for_timeout(800)
    page.wait_for_selector("#save-status:not(:empty)")


if __name__ == "__main__":
    main()

"""Screenshots of the running app in Debian's headless Chromium, as a phone sees it.

    python scripts/screenshots.py [BASE_URL] [OUT_DIR]

Fills the form with tests/data/cases/19-four-players.json, scores it, and
saves form.png, sheet.png and the print previews (A4, Letter) to OUT_DIR; then
saves the game and takes its read-only page in German (saved-de.png).
Then four phones share a table ("Score together"): table.png is the live
table on a phone while the kingdoms come in.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

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
    game = json.loads((ROOT / "tests/data/cases/19-four-players.json").read_text())["game"]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 360, "height": 740}, device_scale_factor=2)
        page.goto(base + "/")
        page.click(f".player-count [data-count='{len(game['players'])}']")  # the panels at once (JavaScript)
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
        browser.close()


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


if __name__ == "__main__":
    main()

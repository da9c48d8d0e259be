"""Screenshots of the running app in Debian's headless Chromium, as a phone sees it.

    python scripts/screenshots.py [BASE_URL] [OUT_DIR]

Fills the form with tests/data/cases/19-four-players.json, scores it, and
saves form.png, sheet.png and the print previews (A4, Letter) to OUT_DIR; then
saves the game and takes its read-only page in German (saved-de.png).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
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
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 360, "height": 740}, device_scale_factor=2)
        page.goto(base + "/")
        for _ in range(len(game["players"]) - 2):
            with page.expect_navigation():
                page.click("#add-player")
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
        browser.close()


if __name__ == "__main__":
    main()

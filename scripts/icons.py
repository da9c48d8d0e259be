"""The home-screen icons (PNG), drawn once from static/icons/favicon.svg by Debian's headless Chromium.

    python scripts/icons.py

Writes static/icons/icon-192.png and icon-512.png (the favicon as it is, its
rounded corners transparent) and icon-maskable-512.png (the same mark on a
full square of its colour, the mark inside the central 80 % circle that every
mask keeps: https://www.w3.org/TR/appmanifest/#icon-masks). The PNGs are
committed; run this again only when favicon.svg changes.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
ICONS = ROOT / "static" / "icons"
#: Debian's Chromium in its classic headless mode (package chromium-headless-shell), else the full one.
CHROMIUM = next(
    (path for path in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium") if Path(path).exists()),
    "/usr/bin/chromium",
)
PAGE = "<!doctype html><style>html,body{{margin:0;background:transparent}}svg{{display:block}}</style>{svg}"


def maskable(svg: str) -> str:
    """*svg* (a 32 × 32 favicon: a rounded square and a mark) as a maskable icon:
    the square's colour to every edge, the mark scaled to 70 % about the centre."""
    fill = re.search(r'<rect[^>]*fill="([^"]+)"', svg)
    mark = re.search(r"(<path.*?/>)", svg)
    assert fill and mark, "favicon.svg: a <rect> then a <path>, as drawn"
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
        f'<rect width="32" height="32" fill="{fill.group(1)}"/>'
        f'<g transform="translate(16 16) scale(0.7) translate(-16 -15)">{mark.group(1)}</g></svg>'
    )


def main() -> None:
    favicon = (ICONS / "favicon.svg").read_text()
    drawings = [
        ("icon-192.png", favicon, 192),
        ("icon-512.png", favicon, 512),
        ("icon-maskable-512.png", maskable(favicon), 512),
    ]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for name, svg, size in drawings:
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(PAGE.format(svg=sized))
            page.screenshot(path=str(ICONS / name), omit_background=True)
            page.close()
            print(ICONS / name)
        browser.close()


if __name__ == "__main__":
    main()

"""Every QR code on a screen keeps the quiet zone the QR standard asks for: at
least 4 modules of light around the code, on a light page and on a dark one.

At 360 × 740 (device pixel ratio 2), in the light and in the dark colour
scheme, each page's QR code is photographed with its surroundings and the
quiet zone measured in the pixels: the light pixels between the code's
outermost dark modules and the first dark pixel of the page around it, on
every row (or column) the code spans, divided by the module's size in pixels
(the top-left finder pattern is 7 modules). A pixel is light when its
luminance is at least halfway between the code's black and white, as a
scanner's binarizer sees it. Each code is decoded too (zxing-cpp).
"""

from __future__ import annotations

import copy
import io
from dataclasses import dataclass
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image, ImageDraw

from scorekeeper.engine import Game
from scorekeeper.web.links import encode_game
from tests.browser.conftest import SCREENSHOTS
from tests.conftest import CASE_FILES, load_case

pytestmark = pytest.mark.browser

GAME = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))["game"]
QUIET_ZONE = 4  # modules, ISO/IEC 18004
LIGHT = 128  # luminance: at least this is light, below it dark
AROUND = 48  # CSS px of the page photographed on each side of the image
SIDES = ("left", "top", "right", "bottom")


@dataclass
class QuietZone:
    module: float  # device pixels per module
    pixels: dict[str, int]  # light pixels on each side, the fewest over the rows or columns the code spans
    open_ended: dict[str, bool]  # the light reached the photo's edge: the zone is at least this wide

    @property
    def modules(self) -> dict[str, float]:
        return {side: self.pixels[side] / self.module for side in SIDES}


def measure(shot: Image.Image, image_box: tuple[int, int, int, int]) -> QuietZone:
    """The quiet zone of the QR code drawn in *image_box* (left, top, right,
    bottom: device pixels of the ``<img>`` in *shot*, right and bottom excluded)."""
    light = shot.convert("L").point(lambda v: 255 if v >= LIGHT else 0)
    # the page's dark pixels (also any showing through the image's rounded corners) touch
    # the photo's frame: painted grey from a dark frame, the code's dark modules stay black
    framed = Image.new("L", (light.width + 2, light.height + 2), 0)
    framed.paste(light, (1, 1))
    ImageDraw.floodfill(framed, (0, 0), 100)
    code = framed.crop((1, 1, light.width + 1, light.height + 1))
    px, lpx = code.load(), light.load()
    x0, y0, x1, y1 = image_box
    dark = [(x, y) for y in range(y0, y1) for x in range(x0, x1) if px[x, y] == 0]
    assert dark, "no code inside the image apart from the page around it: no quiet zone at all"
    left, right = min(x for x, _ in dark), max(x for x, _ in dark)
    top, bottom = min(y for _, y in dark), max(y for _, y in dark)

    def run(x: int, y: int, dx: int, dy: int, want: int) -> tuple[int, bool]:
        """Pixels of luminance class *want* from (x, y) on in the direction (dx, dy); whether the photo ended."""
        n = 0
        while 0 <= x < light.width and 0 <= y < light.height:
            if lpx[x, y] != want:
                return n, False
            n, x, y = n + 1, x + dx, y + dy
        return n, True

    # the finder pattern in the top-left corner is 7 modules wide and high
    finder = (run(left, top + 2, 1, 0, 0)[0] + run(left + 2, top, 0, 1, 0)[0]) / 14
    size = round((right - left + 1) / finder)  # modules across: 21, 25, 29, ... (17 + 4 × version)
    assert (size - 17) % 4 == 0, f"{size} modules across is no QR code (module {finder:.2f} px)"
    module = (right - left + 1) / size
    rows, columns = range(top, bottom + 1), range(left, right + 1)
    runs = {
        "left": [run(left - 1, y, -1, 0, 255) for y in rows],
        "right": [run(right + 1, y, 1, 0, 255) for y in rows],
        "top": [run(x, top - 1, 0, -1, 255) for x in columns],
        "bottom": [run(x, bottom + 1, 0, 1, 255) for x in columns],
    }
    fewest = {side: min(runs[side]) for side in SIDES}
    return QuietZone(module, {s: fewest[s][0] for s in SIDES}, {s: fewest[s][1] for s in SIDES})


def _table(page, base: str, scheme: str) -> tuple[str, str]:
    """The host's table page: the join QR code and the link it holds."""
    page.goto(base + "/?lang=en")
    with page.expect_navigation():
        page.click("#start-table-button")
    return "#table-qr", page.get_attribute("#table-link", "href")


def _sheet(page, base: str, scheme: str) -> tuple[str, str]:
    """A sheet's page, its QR code opened ("Show the QR code")."""
    page.goto(f"{base}/sheet/{encode_game(Game.from_dict(GAME))}?lang=en")
    page.click("#qr-large summary")
    return "#qr-large img", page.input_value("#share-link")


def _group(page, base: str, scheme: str) -> tuple[str, str]:
    """A group's page (the game saved into a new group): the invite QR code."""
    game = copy.deepcopy(GAME)
    game["players"][0]["name"] = f"Quiet {scheme}"  # a game of its own: a saved sheet offers no second save
    page.goto(f"{base}/sheet/{encode_game(Game.from_dict(game))}?lang=en")
    page.fill("#group-name", "Quiet zone")
    with page.expect_navigation():
        page.click("#save")
    page.goto(base + "/groups")
    with page.expect_navigation():
        page.click("#groups a")
    return "#invite img", page.input_value("#invite-link")


PLACES = {"table": _table, "sheet": _sheet, "group": _group}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("place", list(PLACES))
def test_a_qr_code_on_a_phone_keeps_a_quiet_zone_of_four_modules(browser, live_server, tmp_path, place, scheme):
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, color_scheme=scheme)
    page = context.new_page()
    try:
        selector, link = PLACES[place](page, live_server, scheme)
        image = page.locator(selector)
        image.evaluate("img => img.decode()")  # loaded and drawn
        image.evaluate("img => img.scrollIntoView({block: 'center'})")
        box = image.bounding_box()
        viewport = page.viewport_size
        clip_x, clip_y = max(0, box["x"] - AROUND), max(0, box["y"] - AROUND)
        clip_w = min(viewport["width"], box["x"] + box["width"] + AROUND) - clip_x
        clip_h = min(viewport["height"], box["y"] + box["height"] + AROUND) - clip_y
        png = page.screenshot(clip={"x": clip_x, "y": clip_y, "width": clip_w, "height": clip_h})
    finally:
        context.close()
    name = f"qr-quiet-zone-{place}-{scheme}.png"
    (tmp_path / name).write_bytes(png)
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        (Path(SCREENSHOTS) / name).write_bytes(png)
    shot = Image.open(io.BytesIO(png)).convert("RGB")
    scale = shot.width / clip_w  # device pixels per CSS pixel
    left, top = box["x"] - clip_x, box["y"] - clip_y
    image_box = (round(left * scale), round(top * scale), round((left + box["width"]) * scale),
                 round((top + box["height"]) * scale))  # fmt: skip
    zone = measure(shot, image_box)
    measured = ", ".join(f"{side} {zone.modules[side]:.2f}{'+' * zone.open_ended[side]}" for side in SIDES)
    print(f"{place} {scheme}: module {zone.module:.2f} px; quiet zone in modules: {measured}")
    # one device pixel of leeway: each edge of the zone is drawn anti-aliased, rounded to a pixel by the threshold
    short = [side for side in SIDES if zone.pixels[side] + 1 < QUIET_ZONE * zone.module]
    assert not short, f"quiet zone under {QUIET_ZONE} modules ({measured}; module {zone.module:.2f} px)"
    assert [result.text for result in zxingcpp.read_barcodes(shot, formats=zxingcpp.BarcodeFormat.QRCode)] == [link]

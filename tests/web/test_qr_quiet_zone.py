"""Every QR code the app serves (``…/qr.svg``) or inlines (the PDF) carries its
own quiet zone: at least 4 light modules on each side, as the QR standard asks,
painted white in the image itself, so that it holds on a dark page too and no
CSS around the image can take it away (tests/browser/test_qr_quiet_zone.py
measures it on the phone's screen).

The SVG that segno writes is read as drawn: a white rectangle (the light
background) and a black path of 1-module strokes (``h`` runs, each row's
centre line at ``y + 0.5``), both under a ``scale()``."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest
import segno
from bs4 import BeautifulSoup

from scorekeeper.web import sheet_page
from scorekeeper.web.display import QR_QUIET_ZONE
from tests.conftest import CASE_FILES, form_data, load_case

QUIET_ZONE = 4  # modules, ISO/IEC 18004
GAME = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))["game"]
TEMPLATES = Path(__file__).parents[2] / "templates"


def _numbers(text: str) -> list[float]:
    return [float(n) for n in re.findall(r"-?\d*\.?\d+", text)]


def _scale(element: ElementTree.Element) -> float:
    found = re.fullmatch(r"\s*scale\(([\d.]+)\)\s*", element.get("transform", "scale(1)"))
    assert found, f"a transform other than scale(): {element.get('transform')}"
    return float(found[1])


def _path_points(d: str) -> list[tuple[float, float, float, float]]:
    """The straight segments (x1, y1, x2, y2) of an SVG path of moves and horizontal and vertical lines."""
    segments, x, y, start = [], 0.0, 0.0, (0.0, 0.0)
    for command, args in re.findall(r"([MmHhVvZz])([^MmHhVvZz]*)", d):
        values = _numbers(args)
        if command in "Zz":
            segments.append((x, y, *start))
            x, y = start
            continue
        assert values, f"{command} without numbers in {d[:80]}"
        while values:
            if command in "Mm":
                dx, dy, values = values[0], values[1], values[2:]
                x, y = (x + dx, y + dy) if command == "m" else (dx, dy)
                start = (x, y)
            else:
                value, values = values[0], values[1:]
                horizontal = command in "Hh"
                relative = command.islower()
                nx = (x + value if relative else value) if horizontal else x
                ny = y if horizontal else (y + value if relative else value)
                segments.append((x, y, nx, ny))
                x, y = nx, ny
    return segments


def _is_light(colour: str) -> bool:
    named = {"white": "#fff", "black": "#000"}
    colour = named.get(colour.lower(), colour.lower())
    assert re.fullmatch(r"#[0-9a-f]{3}([0-9a-f]{3})?", colour), f"colour {colour!r}"
    digits = colour[1:] if len(colour) == 7 else "".join(c * 2 for c in colour[1:])
    red, green, blue = (int(digits[i : i + 2], 16) for i in (0, 2, 4))
    return 0.299 * red + 0.587 * green + 0.114 * blue >= 128


def quiet_zone(svg: str) -> dict[str, float]:
    """The light margin of the QR code drawn by *svg* (segno's), in modules on
    each side; 0 everywhere unless a light background fills the whole image
    (a transparent one shows the page behind: dark in dark mode)."""
    root = ElementTree.fromstring(svg)
    if root.get("viewBox"):
        _, _, width, height = _numbers(root.get("viewBox"))
    else:
        width, height = float(root.get("width")), float(root.get("height"))
    light_box: tuple[float, float, float, float] | None = None
    dark: list[tuple[float, float, float, float]] = []  # the modules' squares, in image units
    module = None

    def walk(element: ElementTree.Element, scale: float) -> None:
        nonlocal light_box, module
        scale *= _scale(element)
        tag = element.tag.rpartition("}")[2]  # inline in HTML, the SVG has no namespace
        if tag == "path":
            segments = _path_points(element.get("d", ""))
            if element.get("stroke"):  # the dark modules: strokes 1 unit wide along each row's centre line
                assert not _is_light(element.get("stroke")) and element.get("stroke-width", "1") == "1"
                module = scale
                for x1, y1, x2, y2 in segments:
                    assert y1 == y2, "a vertical run of modules: not segno's drawing"
                    dark.append((min(x1, x2) * scale, (y1 - 0.5) * scale, max(x1, x2) * scale, (y1 + 0.5) * scale))
            elif _is_light(element.get("fill", "#000")):  # a light area: its bounding box
                xs = [v for s in segments for v in (s[0], s[2])]
                ys = [v for s in segments for v in (s[1], s[3])]
                light_box = (min(xs) * scale, min(ys) * scale, max(xs) * scale, max(ys) * scale)
        else:
            assert tag in ("svg", "g"), f"unexpected {tag} in the QR code"
        for child in element:
            walk(child, scale)

    walk(root, 1.0)
    assert dark and module, "no dark modules in the SVG"
    if light_box != (0, 0, width, height):
        return dict.fromkeys(("left", "top", "right", "bottom"), 0.0)
    return {
        "left": min(box[0] for box in dark) / module,
        "top": min(box[1] for box in dark) / module,
        "right": (width - max(box[2] for box in dark)) / module,
        "bottom": (height - max(box[3] for box in dark)) / module,
    }


def test_the_svg_reader_reads_segnos_codes_with_and_without_a_light_background():
    code = segno.make("http://localhost/t/ABCDEF", error="m")
    assert quiet_zone(code.svg_inline(scale=3, border=5, light="#fff")) == dict.fromkeys(
        ("left", "top", "right", "bottom"), 5.0
    )
    assert set(quiet_zone(code.svg_inline(scale=2, border=5)).values()) == {0.0}  # transparent


def _start_table(client) -> str:
    answer = client.post("/tables", data={"ruleset": "pocket", "played_on": "2026-11-30"})
    page = BeautifulSoup(client.get(answer.headers["Location"]).data, "lxml")
    return page.select_one("#table-qr")["src"]


def _sheet(client, name: str = "Quiet") -> str:
    """The sheet of case 19 with *name* for its first player: its path."""
    game = copy.deepcopy(GAME)
    game["players"][0]["name"] = name
    answer = client.post("/", data=form_data(game) | {"played_on": "2026-11-30"})
    assert answer.status_code == 303
    return answer.headers["Location"]


def _sheet_qr(client) -> str:
    page = BeautifulSoup(client.get(_sheet(client)).data, "lxml")
    src = page.select_one("#qr-large img")["src"]
    assert page.select_one(".print-footer .qr img")["src"] == src  # printed: the same image, 22 mm wide
    return src


def _saved(client, **choice) -> str:
    token = _sheet(client, "Saved" + choice.get("group_name", "")).removeprefix("/sheet/")
    answer = client.post("/games", data={"token": token, **choice})
    assert answer.status_code == 303
    return answer.headers["Location"]


def _saved_game_qr(client) -> str:
    return BeautifulSoup(client.get(_saved(client)).data, "lxml").select_one("#qr-large img")["src"]


def _group_invite_qr(client) -> str:
    _saved(client, group_name="Quiet")
    groups = BeautifulSoup(client.get("/groups").data, "lxml")
    page = BeautifulSoup(client.get(groups.select_one("#groups a")["href"]).data, "lxml")
    return page.select_one("#invite img")["src"]


SERVED = {
    "table join link": _start_table,
    "sheet": _sheet_qr,
    "saved game": _saved_game_qr,
    "group invite": _group_invite_qr,
}


@pytest.mark.parametrize("place", list(SERVED))
def test_every_served_qr_code_carries_a_light_quiet_zone_of_four_modules(client, place):
    image = client.get(SERVED[place](client))
    assert image.status_code == 200 and image.mimetype == "image/svg+xml"
    zone = quiet_zone(image.get_data(as_text=True))
    assert min(zone.values()) >= QUIET_ZONE, zone


@pytest.mark.pdf
@pytest.mark.parametrize("pdf", ["sheet", "saved game"])
def test_the_pdfs_inline_qr_code_carries_a_light_quiet_zone_of_four_modules(client, monkeypatch, pdf):
    """The HTML that WeasyPrint turns into the PDF, caught on its way: its inline SVG."""
    pages: list[str] = []
    monkeypatch.setattr(sheet_page, "render_pdf", lambda html, paper, base_url, address: pages.append(html) or b"%PDF-")
    sheet_page._token_pdf.cache_clear()  # a sheet's PDF, once made, is kept: made again here
    path = _sheet(client, "Quiet PDF") if pdf == "sheet" else _saved(client)
    assert client.get(path + ".pdf").status_code == 200
    [html] = pages
    [svg] = re.findall(r'<div class="qr">(<svg .*?</svg>)</div>', html, re.DOTALL)
    zone = quiet_zone(svg)
    assert min(zone.values()) >= QUIET_ZONE, zone


def test_every_qr_route_and_inline_code_is_measured(app):
    """A new QR code route, or a template that inlines one, is added to the tests above."""
    routes = {rule.rule for rule in app.url_map.iter_rules() if "qr" in rule.rule}
    assert routes == {"/t/<code>/qr.svg", "/sheet/<token>/qr.svg", "/g/<public_id>/qr.svg",
                      "/groups/<public_id>/invite-qr.svg"}  # fmt: skip
    inline = {str(p.relative_to(TEMPLATES)) for p in TEMPLATES.rglob("*.html") if "qr_svg(" in p.read_text()}
    assert inline == {"sheets/sheet.pdf.html"}
    assert QR_QUIET_ZONE >= QUIET_ZONE

"""The printable sheet as PDF (WeasyPrint): one page, the right paper, names and totals as text."""

from __future__ import annotations

import copy
import io
import subprocess
from datetime import date

import pytest
from pypdf import PdfReader

from scorekeeper.engine import Game
from scorekeeper.web.links import encode_game
from scorekeeper.web.pdf import choose_paper
from tests.conftest import CASE_FILES, load_case

pytestmark = pytest.mark.pdf  # WeasyPrint with Pango

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))
PAPER_POINTS = {"a4": (595, 842), "letter": (612, 792)}


def long_names(game: dict) -> dict:
    """The game with every name 40 characters long, the most R8 allows."""
    game = copy.deepcopy(game)
    for i, player in enumerate(game["players"]):
        player["name"] = (f"{player['name']} Wanderer of the Endless Marches {i}" + "x" * 40)[:40]
    return game


def worst_case(players: int) -> dict:
    """Identical busy kingdoms: 40-character names, a shared place, deck warnings."""
    kingdom = [
        ["dragon", "elves", "dwarves", "goblins"],
        ["portal", "humans", "goblins", "dragon"],
        ["elves", "dwarves", "humans", "portal"],
        ["dragon", "goblins", "portal", "elves"],
    ]
    return long_names(
        {
            "ruleset": "pocket",
            "players": [{"name": f"P{i}", "kingdom": kingdom, "legends": []} for i in range(players)],
        }
    )


def pdf_of(client, game: dict, query: str = "", **headers) -> bytes:
    token = encode_game(Game.from_dict(game), date(2026, 11, 30))
    response = client.get(f"/sheet/{token}.pdf{query}", headers=headers)
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    return response.data


def squeeze(text: str) -> str:
    return "".join(text.split())


def one_page_text(data: bytes, paper: str) -> str:
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == PAPER_POINTS[paper]
    return squeeze(reader.pages[0].extract_text())


GAMES = {
    "2-players": lambda: long_names({**FOUR["game"], "players": FOUR["game"]["players"][:2]}),
    "3-players": lambda: long_names({**FOUR["game"], "players": FOUR["game"]["players"][:3]}),
    "4-players": lambda: long_names(FOUR["game"]),
    "4-players-worst-case": lambda: worst_case(4),
    "3-players-worst-case": lambda: worst_case(3),
}


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("make_game", GAMES.values(), ids=GAMES.keys())
def test_pdf_is_one_page_with_names_and_totals(client, make_game, paper):
    game = make_game()
    text = one_page_text(pdf_of(client, game, f"?paper={paper}"), paper)
    body = client.post("/api/score", json=game).get_json()
    for player in body["players"]:
        assert squeeze(player["name"]) in text
        assert f"{player['total']}HarmonyPoints" in text
    assert "30November2026" in text


def test_worst_case_has_its_warnings_and_shared_place_on_the_page(client):
    game = worst_case(4)
    warnings = client.post("/api/score", json=game).get_json()["warnings"]
    assert len(warnings) == 4
    for paper in ("a4", "letter"):
        text = one_page_text(pdf_of(client, game, f"?paper={paper}"), paper)
        for warning in warnings:
            assert squeeze(warning[1:]) in text
        assert "shareplace1:equaltotalsandequalsortedrows(R7.4)" in text


@pytest.mark.parametrize(
    "language,paper",
    [
        ("en-US,en;q=0.8", "letter"),
        ("de-DE,de;q=0.9", "a4"),
        ("en-GB", "a4"),
        ("fr-CA", "letter"),
        ("", "a4"),
    ],
)
def test_paper_follows_the_browser_language(client, language, paper):
    headers = {"Accept-Language": language} if language else {}
    one_page_text(pdf_of(client, FOUR["game"], **headers), paper)


def test_paper_asked_for_wins_over_language(client):
    one_page_text(pdf_of(client, FOUR["game"], "?paper=a4", **{"Accept-Language": "en-US"}), "a4")


def test_choose_paper_ignores_unknown_values():
    from werkzeug.datastructures import LanguageAccept

    assert choose_paper("tabloid", LanguageAccept([("en-US", 1)])) == "letter"
    assert choose_paper(None, LanguageAccept([("en", 1), ("en-US", 0.5)])) == "letter"
    assert choose_paper(None, LanguageAccept([])) == "a4"


def test_rendering_loads_nothing_but_static_files(app, tmp_path):
    from scorekeeper.web.weasy import StaticFilesOnly

    fetcher = StaticFilesOnly(tmp_path, "http://localhost/static/")
    (tmp_path / "a.css").write_text("p{}")
    assert fetcher.fetch("http://localhost/static/a.css").read() == b"p{}"
    for url in ("https://example.com/x.css", "http://localhost/static/../secret", "file:///etc/passwd"):
        with pytest.raises(ValueError):
            fetcher.fetch(url)


def test_pdf_page_renders_to_a_non_blank_image(client, tmp_path):
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(pdf_of(client, long_names(FOUR["game"]), "?paper=a4"))
    subprocess.run(["pdftoppm", "-gray", "-r", "40", str(pdf), str(tmp_path / "page")], check=True)
    (image,) = tmp_path.glob("page*.pgm")
    header, pixels = _read_pgm(image.read_bytes())
    dark = sum(1 for value in pixels if value < 128)
    assert header == (331, 468) and dark > 0.02 * len(pixels)


def _read_pgm(data: bytes) -> tuple[tuple[int, int], bytes]:
    """Width, height and pixels of a binary (P5) greyscale image."""
    fields = data.split(maxsplit=4)
    assert fields[0] == b"P5"
    return (int(fields[1]), int(fields[2])), fields[4]


def test_damaged_pdf_link_is_a_404(client):
    assert client.get("/sheet/1nope.pdf").status_code == 404


def test_paper_follows_the_language_chosen_on_the_page():
    """Issue: German pages on an en-US phone gave Letter. A language chosen on the
    page decides; without a choice, the browser's language and region."""
    from werkzeug.datastructures import LanguageAccept

    us_phone = LanguageAccept([("en-US", 1), ("en", 0.9)])
    assert choose_paper(None, us_phone, chosen="de") == "a4"
    assert choose_paper(None, us_phone, chosen="en") == "letter"
    assert choose_paper(None, us_phone) == "letter"
    assert choose_paper(None, LanguageAccept([("de-DE", 1), ("en-CA", 0.5)]), chosen="en") == "letter"
    assert choose_paper("letter", us_phone, chosen="de") == "letter"  # asked for by name


@pytest.mark.parametrize(
    ("query", "cookie", "size"), [("?lang=de", None, "A4"), ("", "de", "A4"), ("", None, "Letter")]
)
def test_a_german_page_on_an_en_us_phone_prints_on_a4(client, query, cookie, size):
    if cookie:
        client.set_cookie("lang", cookie)
    token = encode_game(Game.from_dict(FOUR["game"]), date(2026, 11, 30))
    pdf = client.get(f"/sheet/{token}.pdf{query}", headers={"Accept-Language": "en-US,en;q=0.9"})
    width, height = (float(x) for x in PdfReader(io.BytesIO(pdf.data)).pages[0].mediabox[2:])
    assert (round(width), round(height)) == {"A4": (595, 842), "Letter": (612, 792)}[size]


def drawn_glyphs(data: bytes) -> list[tuple[str, bytes]]:
    """(font name, 2-byte glyph id) of every glyph drawn on the PDF's pages.
    WeasyPrint writes text as Identity-H codes, so each code is the glyph id
    in its font; glyph 0 is the font's .notdef, the empty box of a missing glyph."""
    from pypdf.generic import ContentStream

    reader = PdfReader(io.BytesIO(data))
    drawn = []
    for page in reader.pages:
        fonts = {name: font.get_object() for name, font in page["/Resources"]["/Font"].items()}
        font = ""
        for operands, operator in ContentStream(page.get_contents(), reader).operations:
            if operator == b"Tf":
                font = str(fonts[operands[0]]["/BaseFont"])
            elif operator in (b"Tj", b"TJ"):
                for text in operands[0] if operator == b"TJ" else [operands[0]]:
                    raw = getattr(text, "original_bytes", None)
                    if raw is not None:
                        drawn += [(font, raw[i : i + 2]) for i in range(0, len(raw), 2)]
    return drawn


def test_names_in_every_script_print_legibly(client):
    """Issue: names in Chinese, Thai or with emoji printed as empty boxes. With
    the fonts the README installs (Debian's Noto), each is drawn by a font of
    its script and no glyph is the .notdef box."""
    game = copy.deepcopy(FOUR["game"])
    names = {"张伟 Zhang": "CJK", "สมชาย": "Thai", "Ana 😀🐉": "Emoji", "سارة": "DejaVu"}
    for player, name in zip(game["players"], names, strict=True):
        player["name"] = name
    drawn = drawn_glyphs(pdf_of(client, game))
    assert drawn and not [font for font, glyph in drawn if glyph == b"\x00\x00"]
    fonts = {font for font, _ in drawn}
    for script in names.values():
        assert any(script in font for font in fonts), (script, fonts)

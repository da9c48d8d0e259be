"""The result's picture (issue 26, item 1): a PNG beside every sheet and saved
game, the page's ``og:image``, decoded here with Pillow."""

from __future__ import annotations

import copy
import io
from datetime import date

import pytest
from bs4 import BeautifulSoup
from PIL import Image, ImageChops, ImageDraw, ImageFont, features

from scorekeeper.engine import Game, score_game
from scorekeeper.web.links import encode_game
from scorekeeper.web.picture import (
    FontFile,
    Line,
    available_fonts,
    draw_line,
    fit,
    has_glyph,
    is_right_to_left,
    lay_out,
    name_box,
    panel_text,
    runs,
    script_font,
    winner_line,
)
from scorekeeper.words import words_in
from tests.conftest import CASE_FILES, form_data, load_case, saved_links

FOUR = load_case(next(path for path in CASE_FILES if path.name.startswith("19-")))  # Ada 33 … in input order
#: Four long names in Chinese, Japanese, Korean and Chinese again: the most glyphs a picture draws.
LONG_CJK = [
    "王大锤和他的朋友们一起玩",
    "やまだ たろう と はなこ さん",
    "김철수와 친구들이 함께 놀아요",
    "龍飛鳳舞的書法家張三丰",
]


def og(page: BeautifulSoup) -> dict[str, str]:
    """The page's Open Graph tags, property → content."""
    return {tag["property"]: tag["content"] for tag in page.select("meta[property^='og:']")}


def picture_of(client, tags: dict[str, str]) -> Image.Image:
    """The page's og:image fetched (absolute, on this server) and decoded: a PNG of the declared size, ≤ 100 KB."""
    assert tags["og:image"].startswith("http://localhost/")
    response = client.get(tags["og:image"].removeprefix("http://localhost"))
    assert response.status_code == 200 and response.mimetype == "image/png" == tags["og:image:type"]
    assert len(response.data) <= 100 * 1024
    image = Image.open(io.BytesIO(response.data))
    assert image.format == "PNG"
    assert image.size == (int(tags["og:image:width"]), int(tags["og:image:height"])) == (1200, 630)
    return image


def named(game: dict, names: list[str]) -> dict:
    game = copy.deepcopy(game)
    for player, name in zip(game["players"], names, strict=True):
        player["name"] = name
    return game


def test_a_sheets_picture_is_its_og_image_of_the_declared_size(client):
    token = encode_game(Game.from_dict(FOUR["game"]), date(2026, 11, 30))
    page = BeautifulSoup(client.get(f"/sheet/{token}?lang=en").data, "lxml")
    tags = og(page)
    assert tags["og:image"] == f"http://localhost/sheet/{token}/picture-en.png"
    assert tags["og:image:alt"] == page.select_one("#share-text").get_text().splitlines()[0]  # the result's line
    assert page.select_one("meta[name='twitter:card']")["content"] == "summary_large_image"
    english = picture_of(client, tags)
    german = picture_of(client, og(BeautifulSoup(client.get(f"/sheet/{token}?lang=de").data, "lxml")))
    assert english.convert("RGB").tobytes() != german.convert("RGB").tobytes()  # "1st", "1."


def test_a_sheets_picture_is_cached_for_a_year_and_answers_its_etag_with_304(client):
    path = "/sheet/" + encode_game(Game.from_dict(FOUR["game"]), date(2026, 11, 30)) + "/picture-fr.png"
    first = client.get(path)
    assert first.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert first.headers["ETag"] and "Set-Cookie" not in first.headers
    assert {"Accept-Language", "Cookie"}.isdisjoint(first.vary)  # the language is in the address
    again = client.get(path, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and not again.data


def test_four_long_cjk_names_still_make_a_picture_under_100_kb(client):
    token = encode_game(Game.from_dict(named(FOUR["game"], LONG_CJK)), date(2026, 11, 30))
    response = client.get(f"/sheet/{token}/picture-de.png")
    assert response.status_code == 200 and len(response.data) <= 100 * 1024
    assert Image.open(io.BytesIO(response.data)).size == (1200, 630)


@pytest.mark.parametrize("path", ["/sheet/2nope/picture-en.png", "/g/nope/picture-en.png"])
def test_a_damaged_link_or_unknown_game_gets_no_picture(client, path):
    assert client.get(path).status_code == 404


def test_a_picture_in_a_language_not_offered_is_not_found(client):
    token = encode_game(Game.from_dict(FOUR["game"]), date(2026, 11, 30))
    assert client.get(f"/sheet/{token}/picture-xx.png").status_code == 404


def test_a_saved_games_picture_is_its_og_image_and_changes_its_etag_when_corrected(db_client):
    token = encode_game(Game.from_dict(FOUR["game"]), date(2026, 11, 30))
    public, private = saved_links(db_client, db_client.post("/games", data={"token": token}))
    page = BeautifulSoup(db_client.get(public + "?lang=en").data, "lxml")  # the owner's page: it knows the secret
    tags = og(page)
    assert tags["og:image"] == f"http://localhost{public}/picture-en.png"
    secret = private.rsplit("/", 1)[1]
    assert secret not in tags["og:image"]
    before = picture_of(db_client, tags)
    path = tags["og:image"].removeprefix("http://localhost")
    first = db_client.get(path)
    assert first.headers["Cache-Control"] == "public, no-cache" and "Set-Cookie" not in first.headers
    assert secret.encode() not in first.data and secret not in first.headers["ETag"]
    assert db_client.get(path, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    corrected = named(FOUR["game"], ["Zed", "Bo", "Cy", "Di"])
    response = db_client.post(private + "/edit", data=form_data(corrected) | {"based_on": 1})
    assert response.status_code == 303
    after = db_client.get(path, headers={"If-None-Match": first.headers["ETag"]})
    assert after.status_code == 200 and after.headers["ETag"] != first.headers["ETag"]
    assert Image.open(io.BytesIO(after.data)).convert("RGB").tobytes() != before.convert("RGB").tobytes()


def test_the_share_area_offers_the_picture_to_save_without_javascript(client):
    token = encode_game(Game.from_dict(FOUR["game"]), date(2026, 11, 30))
    page = BeautifulSoup(client.get(f"/sheet/{token}?lang=de").data, "lxml")
    link = page.select_one("#download-picture")
    assert link.get_text() == "Bild speichern" and link["download"] == "drako-result-2026-11-30.png"
    assert link["href"] == f"http://localhost/sheet/{token}/picture-de.png" and not link.has_attr("hidden")
    assert page.select_one("#share-picture").has_attr("hidden")  # shown by picture.js where the phone shares files


#: Case 10 (R5): Bo wins with 13, Ada has -3; here the winner is given a name in another script.
ONE_DRAGON = load_case(next(path for path in CASE_FILES if path.name.startswith("10-")))

#: A name per script the picture must draw (issues 26 and 33): the scripts the PDF draws.
NAMES = {
    "Latin": "Zoë Ångström",
    "Greek": "Ελένη",
    "Cyrillic": "Наталья",
    "Armenian": "Անի",
    "Georgian": "ნინო",
    "Hebrew": "שרה",
    "Arabic": "سارة",
    "Devanagari": "अनुष्का",
    "Bengali": "ইমন",
    "Gurmukhi": "ਗੁਰਪ੍ਰੀਤ",
    "Gujarati": "ધ્રુવ",
    "Tamil": "தமிழ்",
    "Telugu": "శ్రీనివాస్",
    "Kannada": "ಕನ್ನಡ",
    "Malayalam": "മലയാളം",
    "Sinhala": "සිංහල",
    "Thai": "สมชาย",
    "Lao": "ສົມພອນ",
    "Khmer": "សុខា",
    "Myanmar": "မြန်မာ",
    "Ethiopic": "አበበ",
    "Hangul": "김철수",
    "Japanese": "やまだ たろう",
    "Chinese": "王小明",
    "emoji": "Zoë 🐉👩‍👩‍👧",
}

#: A character no font maps (plane 16's last private-use one): every font draws it as its .notdef glyph.
UNMAPPED = "\U0010fffd"


def drawn_alone(text: str, font: FontFile | None, size: int = 32) -> bytes:
    """*text* drawn alone in bold with *font* as the picture draws a run of it (a colour
    bitmap font at its one size; ``None``: Pillow's own font, as the picture does): its pixels."""
    if font is None:
        pillow = ImageFont.load_default(size)
    else:
        pillow = ImageFont.truetype(font.bold, font.bitmap_size or size, index=font.face)
    image = Image.new("RGBA", (4 * (font.bitmap_size if font and font.bitmap_size else size),) * 2)
    ImageDraw.Draw(image).text((size, size), text, font=pillow, fill="black", embedded_color=True)
    return image.tobytes()


@pytest.mark.parametrize("script", NAMES)
def test_a_name_in_any_script_is_drawn(script):
    name = NAMES[script]
    drawn, blank = name_box(name), name_box("")
    assert drawn.size == blank.size and drawn.tobytes() != blank.tobytes()


@pytest.mark.parametrize("script", NAMES)
def test_no_character_of_a_name_is_drawn_as_a_missing_glyph_box(script):
    """Issue 33: each character of the name as the picture draws it (its run's font, bold,
    alone) is not that font's .notdef glyph drawn the same way (the box a font draws for a
    character it lacks), and the run's font has a glyph for it in its ``cmap``; but the
    joiners and variation selectors an emoji sequence sticks together, which draw nothing."""
    assert_no_missing_glyph(lay_out(NAMES[script], 32, bold=True))


def assert_no_missing_glyph(line: Line) -> None:
    """No character of *line* is drawn as its font's .notdef (:func:`drawn_alone`), each is in its font's ``cmap``."""
    for run in line.runs:
        for character in run.text:
            if character in "\u200d\ufe0f":
                continue
            font = run.font.name if run.font else "Pillow's own font"
            missing = drawn_alone(character, run.font) == drawn_alone(UNMAPPED, run.font)
            assert not missing, f"{character!r} is drawn as the missing-glyph box of {font}"
            assert run.font is not None and has_glyph(run.font, character), (font, character)


@pytest.mark.parametrize("script", ["Devanagari", "Bengali", "Tamil"])
def test_the_headline_and_panels_draw_the_names_the_pdf_draws(script):
    """Issue 33's names: अनुष्का, ইমন and தமிழ் were boxes in the winner's headline and the panels."""
    sheet = score_game(Game.from_dict(named(ONE_DRAGON["game"], ["Ada", NAMES[script]])))
    assert_no_missing_glyph(winner_line(sheet, words_in("en", isolate_names=True)))
    for result in sheet.ranked:
        assert_no_missing_glyph(fit(panel_text(result, words_in("en")).name, 30, 233, True, 18))


#: The fonts names in these scripts are drawn with: their script's own Noto font, as the PDF's fontconfig finds it.
SCRIPT_FONTS = {
    "Devanagari": "Noto Sans Devanagari",
    "Bengali": "Noto Sans Bengali",
    "Tamil": "Noto Sans Tamil",
    "Ethiopic": "Noto Sans Ethiopic",
    "Arabic": "Noto Sans Arabic",
    "Thai": "Noto Sans Thai",
    "Chinese": "Noto Sans CJK SC",
    "Cyrillic": "Noto Sans",
}


@pytest.mark.parametrize("script", SCRIPT_FONTS)
def test_a_name_is_drawn_with_its_scripts_font(script):
    assert [run.font.name for run in runs(NAMES[script]) if run.font] == [SCRIPT_FONTS[script]]


def test_a_sign_shared_by_scripts_stays_with_the_name_it_ends():
    """The danda (।, in Devanagari, Bengali and more) after a Devanagari word is drawn by Noto Sans Devanagari."""
    assert [run.font.name for run in runs("अनु।") if run.font] == ["Noto Sans Devanagari"]


def test_a_missing_glyph_box_would_be_seen():
    """The checks above can fail: Noto Sans alone has no Chinese nor Devanagari, and draws
    its .notdef box instead (pixel for pixel, whatever the character), as does Pillow's own font."""
    latin = available_fonts()[0]
    assert latin.name == "Noto Sans" and not any(has_glyph(latin, character) for character in NAMES["Chinese"])
    for character in "王अ":
        assert drawn_alone(character, latin) == drawn_alone(UNMAPPED, latin)
        assert drawn_alone(character, None) == drawn_alone(UNMAPPED, None)
    assert drawn_alone("a", latin) != drawn_alone(UNMAPPED, latin)


@pytest.mark.parametrize("emoji", ["🐉", "😀", "⭐", "❤️", "🇩🇪"])
def test_emoji_are_drawn_in_colour(emoji):
    """Also those a text font has in black and white (DejaVu Sans: 😀 and ❤, Noto Sans Symbols 2: ⭐)."""
    assert [run.font.name for run in runs(emoji) if run.font] == ["Noto Color Emoji"]
    pixels = name_box(emoji).convert("RGB").getcolors(1 << 16) or []
    assert any(max(colour) - min(colour) > 100 for _count, colour in pixels)  # coloured, not grey text


def test_arabic_is_shaped_and_right_to_left():
    """Pillow's raqm layout (HarfBuzz and FriBiDi) is there: Arabic letters join
    (their shapes differ from the letters drawn one by one, as the basic layout does)."""
    assert features.check("raqm")
    arabic = script_font("Arab")
    assert arabic is not None and arabic.name == "Noto Sans Arabic"
    drawn = []
    for layout in (ImageFont.Layout.RAQM, ImageFont.Layout.BASIC):
        image = Image.new("L", (200, 60))
        ImageDraw.Draw(image).text(
            (10, 10), NAMES["Arabic"], font=ImageFont.truetype(arabic.bold, 32, layout_engine=layout), fill=255
        )
        drawn.append(image.tobytes())
    assert drawn[0] != drawn[1]
    assert is_right_to_left(NAMES["Arabic"]) and not is_right_to_left(NAMES["Chinese"])
    line = lay_out("سارة 🐉", 32)  # a name alone: right to left, as its first letter
    assert [run.font.name for run in line.runs if run.font] == ["Noto Color Emoji", "Noto Sans", "Noto Sans Arabic"]
    sentence = lay_out("سارة بنت أحمد wins with 33", 32, right_to_left=False)  # the page's sentence: left to right
    assert [run.text for run in sentence.runs] == ["سارة بنت أحمد", " wins with 33"]  # its spaces where they stand


def test_a_symbol_asked_for_as_an_emoji_is_drawn_in_colour():
    assert [run.font.name for run in runs("Bo ❤️") if run.font] == ["Noto Sans", "Noto Color Emoji"]
    assert [run.font.name for run in runs("Bo ❤") if run.font] == ["Noto Sans", "DejaVu Sans"]  # as text


def test_shared_places_are_drawn_as_on_the_sheet():
    """Case 18: Ada and Bo share place 1 (R7.4), Cy is 3rd; in German 1., 1., 3."""
    shared = load_case(next(path for path in CASE_FILES if path.name.startswith("18-")))
    sheet = score_game(Game.from_dict(shared["game"]))
    assert [panel_text(r, words_in("en")) for r in sheet.ranked] == [
        ("1st ★", "Ada", "2 Harmony Points"),
        ("1st ★", "Bo", "2 Harmony Points"),
        ("3rd", "Cy", "0 Harmony Points"),
    ]
    assert [panel_text(r, words_in("de")).place for r in sheet.ranked] == ["1. ★", "1. ★", "3."]


def test_a_name_too_long_for_its_panel_is_drawn_smaller_then_cut():
    name = "Wanderer of the Endless Marches and Beyond"
    line = fit(name, 30, 233, bold=True, smallest=18)
    assert line.width <= 233 and line.size == 18
    assert "".join(run.text for run in line.runs).endswith("…")
    assert fit("Quin", 30, 233, bold=True, smallest=18).size == 30  # a short name stays at its size


RIGHT_TO_LEFT = {"Hebrew": "שרה", "Arabic": "سارة"}


def ink(parts: list[tuple[str, bool | None]], size: int, x: float = 10) -> list[Image.Image]:
    """Each part laid out alone (in its own direction: ``None`` its first strong letter's)
    and drawn white on black after the one before, as the page orders them: one image per part."""
    drawn = []
    for text, right_to_left in parts:
        image = Image.new("L", (1200, 80))
        line = lay_out(text, size, bold=True, right_to_left=right_to_left)
        draw_line(image, line, x, 60, "white")
        drawn.append(image)
        x += line.width
    return drawn


def columns(image: Image.Image) -> tuple[int, int]:
    """The leftmost and rightmost pixel columns *image* has ink in."""
    box = image.getbbox()
    assert box is not None
    return box[0], box[2]


@pytest.mark.parametrize("script", RIGHT_TO_LEFT)
def test_the_headline_keeps_its_star_left_of_a_right_to_left_winner_as_the_page_does(script):
    """The page writes "★ <bdi>שרה</bdi> wins with 13": the sentence left to right, the
    name isolated. The picture's headline has each pixel where the parts drawn one after
    the other in that order put it: the star left of the name (it was drawn on its right)."""
    name = RIGHT_TO_LEFT[script]
    sheet = score_game(Game.from_dict(named(ONE_DRAGON["game"], ["Ada", name])))
    line = winner_line(sheet, words_in("en", isolate_names=True))
    headline = Image.new("L", (1200, 80))
    draw_line(headline, line, 10, 60, "white")
    star, space, drawn_name, rest = ink([("★", False), (" ", False), (name, None), (" wins with 13", False)], line.size)
    assert columns(star)[1] < columns(drawn_name)[0] and columns(drawn_name)[1] < columns(rest)[0]
    expected = ImageChops.lighter(ImageChops.lighter(star, space), ImageChops.lighter(drawn_name, rest))
    assert ImageChops.difference(headline, expected).getbbox() is None
    name_first = ImageChops.lighter(*ink([(name, None), (" ★", False)], line.size))  # what it drew before
    assert ImageChops.difference(
        headline.crop((0, 0, columns(rest)[0], 80)), name_first.crop((0, 0, columns(rest)[0], 80))
    ).getbbox()


def test_a_right_to_left_name_inside_a_name_keeps_its_own_order():
    """An isolated name is laid out in its first strong letter's direction, its runs
    together: "שרה Bo" (right to left) has Bo on the left, as a browser draws it."""
    line = lay_out("★ \u2068שרה Bo\u2069 wins", 32, right_to_left=False)
    assert [run.text.strip() for run in line.runs if run.text.strip()] == ["★", "Bo", "שרה", "wins"]
    sentence = lay_out("\u2068שרה\u2069 wins", 32)  # a sentence's direction is not its name's (UBA P2)
    assert [run.text for run in sentence.runs] == ["שרה", " wins"]


@pytest.mark.parametrize("script", RIGHT_TO_LEFT)
def test_the_served_picture_shows_the_star_left_of_a_right_to_left_winner(client, script):
    """GET /sheet/<token>/picture-en.png: its headline band as the parts drawn in the page's order
    (a picture of 256 colours: a few anti-aliased edge pixels may round the other way)."""
    name = RIGHT_TO_LEFT[script]
    token = encode_game(Game.from_dict(named(ONE_DRAGON["game"], ["Ada", name])), date(2026, 11, 30))
    served = Image.open(io.BytesIO(client.get(f"/sheet/{token}/picture-en.png").data)).convert("L")
    band = served.crop((0, 72, 1200, 152)).point(
        lambda value: 255 if value < 138 else 0
    )  # darker than halfway from paper to ink
    line = winner_line(score_game(Game.from_dict(named(ONE_DRAGON["game"], ["Ada", name]))), words_in("en"))
    parts = ink([("★", False), (" ", False), (name, None), (" wins with 13", False)], line.size, x=40)
    expected = parts[0]
    for part in parts[1:]:
        expected = ImageChops.lighter(expected, part)
    expected = expected.point(lambda value: 255 if value > 127 else 0)  # more than half ink
    differing = ImageChops.difference(band, expected).histogram()[255]
    assert differing < 0.03 * expected.histogram()[255], differing

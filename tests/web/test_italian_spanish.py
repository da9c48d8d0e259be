"""Italian and Spanish pages (issue 34): the game's words in each (Foresta,
Palude, … Portale Magico, Punti Armonia; Bosque, Pantano, … Portal Mágico,
Puntos de Armonía), the codes typed for them scoring a kingdom, the cells of
the explanations, places, dates, plural forms, the language switch and the PDF."""

from __future__ import annotations

import io

import pytest
from bs4 import BeautifulSoup

from scorekeeper.engine import Card, Game, score_game
from scorekeeper.web.forms import card_of_word, parse_kingdom_text
from scorekeeper.words import words_in
from tests.conftest import form_data
from tests.web.test_games import FOUR

ITALIAN = words_in("it")
SPANISH = words_in("es")
#: Ada's kingdom in the four-player case scores 11 (R3–R5: the sheet's total
#: row; the same total the English, German and French sheets show).
ADA = FOUR["game"]["players"][0]
#: The cards in Card's order, as each edition names them and as the codes chosen for typing.
NAMES = {
    "it": ["Foresta", "Palude", "Montagna", "Pianura", "Elfi", "Nani", "Umani", "Goblin", "Drago", "Portale Magico"],
    "es": ["Bosque", "Pantano", "Montaña", "Llanura", "Elfos", "Enanos", "Humanos", "Goblins", "Dragón",
           "Portal Mágico"],
}  # fmt: skip
CODES = {
    "it": ["Fo", "Pa", "Mo", "Pi", "El", "Na", "Um", "Go", "Dr", "Po"],
    "es": ["Bo", "Pa", "Mo", "Ll", "El", "En", "Hu", "Go", "Dr", "Po"],
}


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "lxml")


def test_the_cards_have_italian_and_spanish_names_and_their_own_codes():
    for language, words in (("it", ITALIAN), ("es", SPANISH)):
        assert [words.card(card) for card in Card] == NAMES[language]
        assert [words.code(card) for card in Card] == CODES[language]
    assert (ITALIAN.cell(6), ITALIAN.place(1), ITALIAN.place(2)) == ("r2c3", "1°", "2°")
    assert (SPANISH.cell(6), SPANISH.place(1), SPANISH.place(2)) == ("f2c3", "1.º", "2.º")


def test_italian_and_spanish_words_and_codes_are_typed_on_any_page():
    typed = {
        "Pa": Card.SWAMP, "pi": Card.PLAIN, "Um": Card.HUMANS, "Na": Card.DWARVES, "nano": Card.DWARVES,
        "Paludi": Card.SWAMP, "portali magici": Card.PORTAL, "Bo": Card.FOREST, "Ll": Card.PLAIN,
        "En": Card.DWARVES, "enano": Card.DWARVES, "montana": Card.MOUNTAIN, "Montañas": Card.MOUNTAIN,
        "dragon": Card.DRAGON, "dragones": Card.DRAGON, "Portal Mágico": Card.PORTAL, "humano": Card.HUMANS,
        "Wa": Card.FOREST, "Ma": Card.SWAMP, "Sw": Card.SWAMP,
    }  # fmt: skip
    for word, card in typed.items():
        assert card_of_word(word) is card, word
    text = "Bo Pa Pi Um\nbosques, paludi, llanuras, umani\nEn Na Ll Go\nDr Po Mo El"
    assert parse_kingdom_text(text)[:12] == ["forest", "swamp", "plain", "humans"] * 2 + [
        "dwarves", "dwarves", "plain", "goblins",
    ]  # fmt: skip


@pytest.mark.parametrize("language", ["it", "es"])
def test_a_kingdom_pasted_as_the_language_s_codes_or_names_scores_as_typed_in_english(client, language):
    position = {card: index for index, card in enumerate(Card)}
    cards = [Card(card) for row in ADA["kingdom"] for card in row]
    for written in (CODES[language], NAMES[language]):
        data = form_data(FOUR["game"])
        for m in range(16):
            data[f"players-0-cells-{m}"] = ""
        lines = [cards[row * 4 : row * 4 + 4] for row in range(4)]
        data["players-0-paste"] = "\n".join(", ".join(written[position[card]] for card in line) for line in lines)
        response = client.post("/", data=data, headers={"Accept-Language": language})
        assert response.status_code == 303, response.data[:2000]
        sheet = soup_of(client.get(response.headers["Location"]))
        assert sheet.select_one("#row-total td")["data-value"] == "11"


def test_an_italian_sheet_reads_in_italian(client):
    sheet = client.post("/", data=form_data(FOUR["game"]) | {"played_on": "2026-11-30"}).headers["Location"]
    soup = soup_of(client.get(sheet, headers={"Accept-Language": "it-IT,it;q=0.9,en;q=0.5"}))
    assert soup.html["lang"] == "it"
    text = soup.get_text(" ")
    assert "Punti Armonia" in text and "Segnapunti" in text and "30 novembre 2026" in text
    key = soup.select_one(".grid-key").get_text()
    assert key.startswith("Simboli:") and "Legenda" not in key  # not to be read as the game's Leggende
    assert "Pa Palude" in key and "Um Umani" in key and "r2c3 è la riga 2, colonna 3" in key
    summary = ITALIAN.result_summary(score_game(Game.from_dict(FOUR["game"])), None)
    assert summary == "DRAKO Pocket: Di vince con 33 · Cy 30 · Bo 13 · Ada 11"


def test_a_spanish_sheet_reads_in_spanish(client):
    sheet = client.post("/", data=form_data(FOUR["game"]) | {"played_on": "2026-11-30"}).headers["Location"]
    soup = soup_of(client.get(sheet, headers={"Accept-Language": "es-ES,es;q=0.9,en;q=0.5"}))
    assert soup.html["lang"] == "es"
    text = soup.get_text(" ")
    assert "Puntos de Armonía" in text and "Hoja de puntuación" in text and "30 de noviembre de 2026" in text
    key = soup.select_one(".grid-key").get_text()
    assert key.startswith("Símbolos:") and "Leyenda:" not in key  # "Leyenda" is a Legend card
    assert "Ll Llanura" in key and "En Enanos" in key and "f2c3 es la fila 2, columna 3" in key
    conflicts = [li.get_text() for li in soup.select("[id$=-conflicts] li")]
    assert conflicts and all("f" in line and "r1c" not in line for line in conflicts)
    summary = SPANISH.result_summary(score_game(Game.from_dict(FOUR["game"])), None)
    assert summary == "DRAKO Pocket: Di gana con 33 · Cy 30 · Bo 13 · Ada 11"


def test_italian_and_spanish_count_zero_as_plural_unlike_french():
    for words, one, other in ((ITALIAN, "partita", "partite"), (SPANISH, "partida", "partidas")):
        assert [words.ngettext("%(num)d game.", "%(num)d games.", n) for n in (0, 1, 2)] == [
            f"0 {other}.", f"1 {one}.", f"2 {other}.",
        ]  # fmt: skip


def test_the_language_switch_offers_all_five_folded_behind_the_current_code(client):
    soup = soup_of(client.get("/", headers={"Accept-Language": "es"}))
    switch = soup.select_one("nav.languages")
    assert switch.select_one("summary abbr").get_text() == "ES"  # the header keeps one short control
    names = ["English", "Deutsch", "Français", "Italiano", "Español"]
    assert [node.get_text() for node in switch.select("li [lang]")] == names
    assert switch.select_one("[aria-current]")["lang"] == "es"
    assert soup.select_one("#lang-it")["title"] == "Italiano"
    italian = soup_of(client.get("/?lang=it"))
    assert italian.html["lang"] == "it" and italian.select_one("#lang-es")["title"] == "Español"


@pytest.mark.pdf
@pytest.mark.parametrize(
    ("language", "known"),
    [("it", ["Segnapunti", "Punti Armonia", "Nani", "Palude", "1°"]),
     ("es", ["Hoja de puntuación", "Puntos de Armonía", "Enanos", "Llanura", "1.º"])],
)  # fmt: skip
def test_the_pdf_speaks_italian_and_spanish(client, language, known):
    from pypdf import PdfReader

    sheet = client.post("/", data=form_data(FOUR["game"]) | {"played_on": "2026-11-30"}).headers["Location"]
    response = client.get(sheet + ".pdf", headers={"Accept-Language": language})
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(response.data)).pages)
    for word in known:
        assert word in text, word

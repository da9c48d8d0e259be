"""French pages (issue 25): the game's French words (Forêt, Marais, … Portail
magique, Points d’Harmonie), the codes typed for them, the cells of the
explanations, dates, plural forms and the CSV separator."""

from __future__ import annotations

from bs4 import BeautifulSoup

from scorekeeper.engine import Card, Game, score_game
from scorekeeper.web.forms import card_of_word, parse_kingdom_text
from scorekeeper.words import words_in
from tests.conftest import form_data
from tests.web.test_games import FOUR, save

FRENCH = words_in("fr")


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "lxml")


def test_the_cards_have_the_french_edition_s_names_and_their_own_codes():
    names = [FRENCH.card(card) for card in Card]
    assert names == ["Forêt", "Marais", "Montagne", "Plaine", "Elfes", "Nains", "Humains", "Gobelins", "Dragon",
                     "Portail magique"]  # fmt: skip
    assert [FRENCH.code(card) for card in Card] == ["Fo", "Ma", "Mo", "Pl", "El", "Na", "Hu", "Go", "Dr", "Po"]
    assert FRENCH.cell(6) == "L2C3" and FRENCH.place(1) == "1er" and FRENCH.place(2) == "2e"


def test_french_words_and_codes_are_typed_on_any_page_and_the_others_still_are():
    typed = {
        "Ma": Card.SWAMP, "na": Card.DWARVES, "Forêt": Card.FOREST, "foret": Card.FOREST, "Nain": Card.DWARVES,
        "gobelins": Card.GOBLINS, "Portail": Card.PORTAL, "Wa": Card.FOREST, "Zw": Card.DWARVES, "Sw": Card.SWAMP,
        "Dw": Card.DWARVES,
    }  # fmt: skip
    for word, card in typed.items():
        assert card_of_word(word) is card, word
    text = "Portail magique Ma Na Fo\nportails magiques, Marais, Nains, Forêts\nMo Pl El Hu\nGo Dr Po ."
    assert parse_kingdom_text(text)[:8] == ["portal", "swamp", "dwarves", "forest"] * 2


def test_a_french_sheet_reads_in_french(client):
    sheet = client.post("/", data=form_data(FOUR["game"]) | {"played_on": "2026-11-30"}).headers["Location"]
    soup = soup_of(client.get(sheet, headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}))
    assert soup.html["lang"] == "fr"
    assert "Points d’Harmonie" in soup.get_text()
    assert "30 novembre 2026" in soup.get_text(" ")
    key = soup.select_one(".grid-key").get_text()
    assert key.startswith("Repères\u00a0:") and "Ma Marais" in key and "Na Nains" in key
    assert "Dans les explications, L2C3 désigne la ligne 2, colonne 3." in key
    conflicts = [li.get_text() for li in soup.select("[id$=-conflicts] li")]
    assert conflicts and all(" – " in line and "L" in line and "r1c" not in line for line in conflicts)
    summary = FRENCH.result_summary(score_game(Game.from_dict(FOUR["game"])), None)
    assert summary == "DRAKO Pocket\u00a0: Di gagne avec 33 · Cy 30 · Bo 13 · Ada 11"


def test_french_plurals_count_zero_and_one_alike():
    assert FRENCH.ngettext("%(num)d game.", "%(num)d games.", 0) == "0 partie."
    assert FRENCH.ngettext("%(num)d game.", "%(num)d games.", 1) == "1 partie."
    assert FRENCH.ngettext("%(num)d game.", "%(num)d games.", 2) == "2 parties."
    assert FRENCH.number(99950) == "99\u202f950"


def test_french_history_exports_split_on_semicolons(client):
    public, _private = save(client)
    assert soup_of(client.get("/games?lang=fr")).select_one("#export-csv")["href"] == "/games.csv?sep=semicolon"
    assert soup_of(client.get(f"{public}?lang=fr")).select_one("#export-csv")["href"].endswith("sep=semicolon")

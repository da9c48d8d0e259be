"""The entry form's server side as a phone meets it (issue 11): implicit
submission, natural words, the date played, no-JS cells after a round trip."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from scorekeeper.web.forms import card_id_of
from scorekeeper.words import LANGUAGES
from tests.conftest import form_data
from tests.web.test_games import FOUR, save, sheet_token


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "lxml")


def default_buttons(soup: BeautifulSoup) -> dict[str, object]:
    """Each form's default button: its first submit button in tree order
    (what Enter in one of its text boxes presses, HTML "implicit submission")."""
    first: dict[str, object] = {}
    for form in soup.find_all("form"):
        first[form.get("id") or form.get("action")] = None
    for button in soup.find_all(["button", "input"]):
        if button.name == "input" and button.get("type") != "submit":
            continue
        if button.name == "button" and button.get("type", "submit") != "submit":
            continue
        owner = button.get("form")
        form = soup.find("form", id=owner) if owner else button.find_parent("form")
        key = form.get("id") or form.get("action")
        if first.get(key) is None:
            first[key] = button
    return first


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_form_presses_its_main_action_on_enter(db_client, lang):
    """R: Enter does the form's main action (or nothing), never a language switch."""
    public, private = save(db_client)
    token = sheet_token(db_client, FOUR["game"], "2026-11-29")  # not saved: its sheet offers to save it
    pages = ["/", f"/sheet/{token}", f"/sheet/{token}/edit", private + "/edit", "/games", "/games/import", public]
    seen = set()
    for path in pages:
        response = db_client.get(f"{path}?lang={lang}")
        assert response.status_code == 200, path
        for form, button in default_buttons(soup_of(response)).items():
            seen.add(form)
            if button is None:
                continue  # no submit button: Enter submits nothing
            assert button.get("value") != "language", (path, form)
            assert button.get("formaction") is None, (path, form)
            if form == "game-form":
                assert button.get("value") == "score", path
    assert {"game-form", "save-game", "import-form", "delete-game"} <= seen


# 7. Natural words: singular and plural, English and German, end punctuation; the nearest card.

NATURAL = {
    "Plains": "plain", "forests": "forest", "elf": "elves", "human": "humans", "El.": "elves",
    "Zwerg": "dwarves", "Wälder": "forest", "Drachen": "dragon", "Dwarf,": "dwarves", "magic portal": "portal",
    "Sümpfe": "swamp", "Berge": "mountain", "goblin!": "goblins", "Mensch": "humans",
}  # fmt: skip


@pytest.mark.parametrize(("word", "card"), NATURAL.items())
def test_a_cell_reads_natural_words(client, word, card):
    data = form_data(FOUR["game"]) | {"players-0-cells-0": word}
    response = client.post("/", data=data)
    assert response.status_code == 303, word
    assert card_id_of(word) == card


def test_the_text_box_reads_natural_words(client):
    text = "Plains forests elf human\nEl. Dwarf Drachen Wälder\nfo fo fo fo\nFo, Fo, Fo, Fo."
    answer = client.post("/api/preview", json={"ruleset": "pocket", "text": text}).get_json()
    assert answer["cells"][:8] == ["plain", "forest", "elves", "humans", "elves", "dwarves", "dragon", "forest"]
    assert answer["cells"][12:] == ["forest"] * 4


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "row 1, column 1: “Forrest” is not a card; did you mean Forest?"),
        ("de", "Zeile 1, Spalte 1: „Forrest“ ist keine Karte; meinst du Wald?"),
    ],
)
def test_a_word_that_is_no_card_gets_the_nearest_card_without_ids(client, lang, expected):
    data = form_data(FOUR["game"]) | {"players-0-cells-0": "Forrest"}
    soup = soup_of(client.post(f"/?lang={lang}", data=data))
    errors = soup.select_one("#players-0-cells-errors").get_text()
    assert expected in errors
    assert "id" not in errors.replace("did", "").split()
    assert soup.select_one("#players-0-cells-0")["value"] == "Forrest"  # kept as typed


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "Line 1: “Forrest” is not a card; did you mean Forest? Line 4: “Troll” is not a card."),
        ("de", "Zeile 1: „Forrest“ ist keine Karte; meinst du Wald? Zeile 4: „Troll“ ist keine Karte."),
    ],
)
def test_the_text_box_names_the_nearest_card(client, lang, expected):
    text = "Forrest Fo Fo Fo\nFo Fo Fo Fo\nFo Fo Fo Fo\nFo Fo Fo Troll"
    data = form_data(FOUR["game"]) | {"players-0-paste": text}
    soup = soup_of(client.post(f"/?lang={lang}", data=data))
    assert soup.select_one("#players-0-paste-errors").get_text().strip() == expected


def test_a_text_box_that_cannot_be_read_is_the_only_error_of_its_empty_grid(client):
    """Found by a fresh tester: the grid left empty by an unreadable text box was
    reported too, as "16 cells have no card chosen yet", above the real problem."""
    data = form_data(FOUR["game"]) | {"players-0-paste": "Fo Xyz Fo Fo\nFo Fo Fo Fo\nFo Fo Fo Fo\nFo Fo Fo Fo"}
    for cell in range(16):
        data[f"players-0-cells-{cell}"] = ""
    soup = soup_of(client.post("/", data=data))
    assert soup.select_one("#players-0-paste-errors").get_text(strip=True) == "Line 1: “Xyz” is not a card."
    assert soup.select_one("#players-0-cells-errors") is None and not soup.select("#player-0 .has-error")
    summary = soup.select_one("#form-errors").get_text(" ", strip=True)
    assert summary.endswith("Line 1: “Xyz” is not a card.") and "cells" not in summary


def test_cells_and_text_box_are_not_corrected_by_the_phone(client):
    soup = soup_of(client.get("/"))
    for field in [soup.select_one("#players-0-cells-0"), soup.select_one("#players-0-paste")]:
        assert field["autocapitalize"] == "off" and field["autocorrect"] == "off" and field["spellcheck"] == "false"


# 4. The date played: the server's day without JavaScript, for the browser to replace.


def test_a_new_form_offers_the_servers_day_for_the_browser_to_replace(client):
    from datetime import date

    field = soup_of(client.get("/")).select_one("#played_on")
    assert field["value"] == field["data-today"] == date.today().isoformat()
    data = form_data(FOUR["game"], action="add") | {"played_on": "2026-12-01"}
    again = soup_of(client.post("/", data=data, follow_redirects=True)).select_one("#played_on")
    assert again["value"] == "2026-12-01" and not again.has_attr("data-today")  # the phone's day, kept


def test_saved_times_without_javascript_are_marked_utc(db_client):
    public, private = save(db_client)
    data = form_data(FOUR["game"]) | {"played_on": "2026-11-28", "location": "Garten", "based_on": "1"}
    assert db_client.post(private + "/edit", data=data).status_code == 303
    time = soup_of(db_client.get(public)).select_one("#revisions summary time.local-time")
    assert time.get_text().endswith(" UTC") and time["datetime"].endswith("Z")


# 8. Without JavaScript: cells come back whole (the card's code), the Legends claimed counted.


@pytest.mark.parametrize("action", ["add", "score", "language", "remove-3"])
def test_cells_come_back_as_whole_codes_and_legends_are_counted(client, action):
    data = form_data(FOUR["game"], action=action)
    data["players-0-name"] = ""  # a refusal, for "score"
    soup = soup_of(client.post("/", data=data, follow_redirects=action != "score"))
    shown = [box["value"] for box in soup.select("#player-1 .cell-input input")]
    expected = [card_code for row in FOUR["game"]["players"][1]["kingdom"] for card_code in row]
    assert [card_id_of(code) for code in shown] == expected
    assert all(len(code) == 2 for code in shown)  # "Dr", never "dragon" cut to "dra…"
    assert soup.select_one("#players-1-cells-0")["class"] == [f"card-{expected[0]}"]  # its tint
    counts = [c.get_text() for c in soup.select("fieldset.player:not([disabled]) details.legends .count")]
    players = FOUR["game"]["players"][: 3 if action.startswith("remove") else 4]
    assert counts == [f"({len(p['legends'])})" for p in players]


def test_the_error_summary_has_no_doubled_punctuation(client):
    """Found by fresh testers: "Line 1 has 5 cards, not 4.; 16 cells marked in red", "did you mean Forest?."."""
    data = form_data(FOUR["game"])
    data["players-0-paste"] = "Fo Fo Fo Fo Fo\nFo Fo Fo Fo\nFo Fo Fo Fo\nFo Fo Fo Fo"
    for cell in range(16):
        data[f"players-0-cells-{cell}"] = "nothing"
    line = soup_of(client.post("/", data=data)).select_one("#form-errors li").get_text()
    assert line.endswith(": Line 1 has 5 cards, not 4. 16 cells marked in red."), line
    data["players-0-paste"] = "forrest Fo Fo Fo\nFo Fo Fo Fo\nFo Fo Fo Fo\nFo Fo Fo Fo"  # a question ends its sentence
    line = soup_of(client.post("/", data=data)).select_one("#form-errors li").get_text()
    assert line.endswith(": Line 1: “forrest” is not a card; did you mean Forest? 16 cells marked in red."), line


def test_a_name_of_zero_width_spaces_is_called_by_its_number_in_the_summary(client):
    """Found by a fresh tester: the summary line read ": the name is empty"."""
    data = form_data(FOUR["game"])
    data["players-0-name"] = "\u200b\u200b"
    summary = soup_of(client.post("/", data=data)).select_one("#form-errors")
    assert summary.select_one("a[href='#player-0']").get_text(strip=True) == "Player 1"

"""The new-game form: entries are never lost, R8 errors sit beside their fields, CSRF is on."""

from __future__ import annotations

import copy

import pytest
from bs4 import BeautifulSoup

from scorekeeper.web.forms import card_id_of
from tests.conftest import CASE_FILES, form_data, load_case, make_test_app

GAME = load_case(CASE_FILES[18])["game"]  # 19-four-players: four players, legends


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "lxml")


def assert_entries_kept(soup: BeautifulSoup, data: dict) -> None:
    """Every value posted comes back in the form exactly as entered."""
    for key, value in data.items():
        if key == "action":
            continue
        if key == "ruleset":
            assert soup.select_one("input[name=ruleset][checked]")["value"] == value
        elif key.endswith("-name"):
            assert soup.select_one(f"input[name='{key}']").get("value", "") == value, key
        elif "-cells-" in key:  # a card comes back as its code ("Fo"), anything else as typed
            assert card_id_of(soup.select_one(f"input[name='{key}']").get("value", "")) == card_id_of(value), key
        elif key.endswith("-legends"):
            checked = {box["value"] for box in soup.select(f"input[name='{key}'][checked]")}
            assert checked == set(value) & {box["value"] for box in soup.select(f"input[name='{key}']")}, key


def test_new_form_has_two_empty_player_panels(client):
    soup = soup_of(client.get("/"))
    assert len(soup.select("fieldset.player:not([disabled])")) == 2
    assert len(soup.select("input[name^='players-0-cells-'][list=cards]")) == 16
    assert soup.select_one("input[name='players-1-cells-15']")
    assert [o["value"] for o in soup.select("datalist#cards option")] == [
        "Fo",
        "Sw",
        "Mo",
        "Pl",
        "El",
        "Dw",
        "Hu",
        "Go",
        "Dr",
        "Po",
    ]
    assert len(soup.select("input[name='players-0-legends'][type=checkbox]")) == 15
    assert soup.select_one("input[name=ruleset][value=pocket][checked]")
    assert soup.select_one("input[name=csrf_token]") is None  # CSRF off in this fixture


def test_legend_checkboxes_show_their_values(client):
    soup = soup_of(client.get("/"))
    values = [span.get_text() for span in soup.select("#player-0 .legend-value")]
    assert values == ["+2"] * 6 + ["+3"] * 4 + ["+4"] * 5


def test_adding_a_player_keeps_every_entry(client):
    two = copy.deepcopy(GAME)
    two["players"] = two["players"][:3]
    data = form_data(two, action="add")
    soup = soup_of(client.post("/", data=data, follow_redirects=True))
    assert len(soup.select("fieldset.player:not([disabled])")) == 4
    assert_entries_kept(soup, data)
    assert soup.select_one("#add-player").has_attr("hidden")  # four is the most, and the page says so
    assert not soup.select_one("#player-limit").has_attr("hidden")
    assert soup.select_one("#player-limit").get_text() == "A game has 2 to 4 players."


def test_removing_a_player_keeps_the_others(client):
    data = form_data(GAME, action="remove-1")
    soup = soup_of(client.post("/", data=data, follow_redirects=True))
    names = [i.get("value") for i in soup.select("fieldset.player:not([disabled]) input[name$='-name']")]
    assert names == ["Ada", "Cy", "Di"]
    kept = form_data({"ruleset": GAME["ruleset"], "players": [GAME["players"][i] for i in (0, 2, 3)]})
    assert_entries_kept(soup, kept)


def test_score_redirects_with_303_so_reload_never_resubmits(client):
    response = client.post("/", data=form_data(GAME))
    assert response.status_code == 303


def _bad(mutate):
    game = copy.deepcopy(GAME)
    mutate(game)
    return game


R8_FORM_CASES = {
    "R8-empty-name": (_bad(lambda g: g["players"][1].update(name="   ")), "#players-1-name-errors", "empty"),
    "R8-long-name": (
        _bad(lambda g: g["players"][2].update(name="X" * 41)),
        "#players-2-name-errors",
        "41 characters",
    ),
    "R8-duplicate-name": (
        _bad(lambda g: g["players"][3].update(name=" ada ")),
        "#players-3-name-errors",
        "already used by \u2068Ada\u2069",  # the name isolated (issue 11, item 18)
    ),
    "R8-look-alike-name": (  # issue 33: "Аda" with the Cyrillic А is drawn as "Ada"
        _bad(lambda g: g["players"][3].update(name="\u0410da")),
        "#players-3-name-errors",
        "looks just like \u2068Ada\u2069 but is typed with a letter from another alphabet",
    ),
    "R8-apostrophe-name": (  # issue 33: a phone's curly apostrophe is the keyboard's
        _bad(lambda g: [g["players"][0].update(name="D'Arcy"), g["players"][3].update(name="D\u2019Arcy")]),
        "#players-3-name-errors",
        "already used by \u2068D'Arcy\u2069",
    ),
    "R8-unknown-card": (
        _bad(lambda g: g["players"][0]["kingdom"][1].__setitem__(2, "unicorn")),
        "#players-0-cells-errors",
        "row 2, column 3",
    ),
    "R8-empty-cell": (
        _bad(lambda g: g["players"][2]["kingdom"][3].__setitem__(0, "")),
        "#players-2-cells-errors",
        "\u2068Cy\u2069, row 4, column 1: no card chosen",
    ),
    "R8-unknown-legend": (
        _bad(lambda g: g["players"][0]["legends"].append("lands-ocean")),
        "#players-0-legends-errors",
        "lands-ocean",
    ),
    "R6.1-legend-claimed-twice": (
        _bad(lambda g: g["players"][2]["legends"].append("tribes-humans")),
        "#players-2-legends-errors",
        "already claimed by \u2068Ada\u2069",
    ),
}


@pytest.mark.parametrize("game,where,text", R8_FORM_CASES.values(), ids=R8_FORM_CASES.keys())
def test_R8_errors_beside_the_field_and_entries_kept(client, game, where, text):
    data = form_data(game)
    response = client.post("/", data=data)
    assert response.status_code == 422
    soup = soup_of(response)
    assert soup.select_one("#form-errors")
    errors = soup.select_one(where)
    assert errors is not None, soup.select(".field-errors")
    assert text in errors.get_text()
    assert_entries_kept(soup, data)
    assert "Location" not in response.headers


def test_R8_unknown_cell_is_marked_invalid(client):
    data = form_data(_bad(lambda g: g["players"][0]["kingdom"][1].__setitem__(2, "unicorn")))
    soup = soup_of(client.post("/", data=data))
    assert soup.select_one("#players-0-cells-6")["aria-invalid"] == "true"


@pytest.mark.parametrize("players", [1, 5])
def test_R8_player_count_refused_with_a_message(client, players):
    game = copy.deepcopy(GAME)
    extra = copy.deepcopy(GAME["players"][0]) | {"name": "Eve", "legends": []}
    game["players"] = (game["players"] + [extra])[:players]
    data = form_data(game)
    response = client.post("/", data=data)
    assert response.status_code == 422
    soup = soup_of(response)
    assert f"2 to 4 players, not {players}" in soup.select_one("#form-errors").get_text()
    assert len(soup.select("fieldset.player:not([disabled])")) == players
    assert_entries_kept(soup, data)


def test_R9_unknown_ruleset_refused(client):
    data = form_data(GAME) | {"ruleset": "speed"}
    response = client.post("/", data=data)
    assert response.status_code == 422
    assert "Unknown ruleset 'speed'" in soup_of(response).select_one("#form-errors").get_text()


def test_R9_classic_ruleset_through_the_form(client):
    case = load_case(CASE_FILES[19])
    page = client.get(client.post("/", data=form_data(case["game"])).headers["Location"])
    assert soup_of(page).select_one("#ruleset").get_text() == "Classic"


def test_several_problems_are_all_shown_at_once(client):
    def mutate(g):
        g["players"][0]["name"] = ""
        g["players"][1]["kingdom"][0][0] = "x"
        g["players"][2]["kingdom"][3][3] = "y"

    soup = soup_of(client.post("/", data=form_data(_bad(mutate))))
    assert soup.select_one("#players-0-name-errors")
    assert soup.select_one("#players-1-cells-errors")
    assert soup.select_one("#players-2-cells-errors")


@pytest.fixture
def csrf_client(tmp_path):
    return make_test_app(tmp_path, SECRET_KEY="test").test_client()


def test_csrf_token_rendered_and_required(csrf_client):
    soup = soup_of(csrf_client.get("/"))
    token = soup.select_one("input[name=csrf_token]")["value"]
    data = form_data(GAME)
    refused = csrf_client.post("/", data=data)
    assert refused.status_code == 400
    refused_soup = soup_of(refused)
    assert "expired" in refused_soup.select_one("#form-errors").get_text()
    assert_entries_kept(refused_soup, data)
    accepted = csrf_client.post("/", data=data | {"csrf_token": token})
    assert accepted.status_code == 303


def test_api_is_stateless_and_needs_no_csrf_token(csrf_client):
    assert csrf_client.post("/api/score", json=GAME).status_code == 200


def test_unknown_page_is_a_friendly_404(client):
    response = client.get("/nowhere")
    assert response.status_code == 404
    assert soup_of(response).select_one("#error h1").get_text() == "Not found"


def test_oversized_body_refused(client):
    response = client.post("/", data={"players-0-name": "x" * (300 * 1024)})
    assert response.status_code == 413
    assert b"Traceback" not in response.data


def test_adding_a_player_works_even_with_an_expired_csrf_token(csrf_client):
    data = form_data({**GAME, "players": GAME["players"][:2]}, action="add")
    response = csrf_client.post("/", data=data | {"csrf_token": "stale"}, follow_redirects=True)
    assert response.status_code == 200
    soup = soup_of(response)
    assert len(soup.select("fieldset.player:not([disabled])")) == 3
    assert_entries_kept(soup, data)


def test_add_and_remove_buttons_return_to_the_panel_concerned(client):
    data = form_data({**GAME, "players": GAME["players"][:2]}, action="add")
    soup = soup_of(client.post("/", data=data, follow_redirects=True))
    # the new panel's name field takes the focus (a URL fragment would stop autofocus)
    assert soup.select_one("#add-player")["formaction"] == "/"
    assert soup.select_one("#players-2-name").has_attr("autofocus")
    assert soup.select_one("#player-2 .remove-player")["formaction"] == "/#player-1"


def test_error_summary_links_to_each_player_with_a_problem(client):
    def mutate(g):
        g["players"][1]["name"] = ""
        g["players"][3]["kingdom"][0][0] = "x"

    soup = soup_of(client.post("/", data=form_data(_bad(mutate))))
    links = [(a["href"], a.get_text()) for a in soup.select("#form-errors .error-players a")]
    assert links == [("#player-1", "Player 2"), ("#player-3", "Di")]


def test_cells_accept_names_and_codes_and_keep_what_is_not_a_card(client):
    data = form_data(GAME)
    data["players-0-cells-0"] = " Forest "  # English name
    data["players-0-cells-1"] = "El"  # two-letter code
    data["players-0-cells-2"] = "Drache"  # German name
    response = client.post("/", data=data)
    assert response.status_code == 303  # Ada's row 1 now reads forest, elves, dragon
    data["players-0-cells-3"] = "unicorn"
    soup = soup_of(client.post("/", data=data))
    assert soup.select_one("#players-0-cells-3")["value"] == "unicorn"
    assert soup.select_one("#players-0-cells-0")["value"] == "Fo"
    errors = soup.select_one("#players-0-cells-errors").get_text()
    assert "row 1, column 4: “unicorn” is not a card." in errors


def test_a_tampered_ruleset_is_refused_in_the_page_language(client):
    data = form_data(load_case(CASE_FILES[0])["game"]) | {"ruleset": "deluxe"}
    response = client.post("/?lang=de", data=data)
    assert response.status_code == 422
    text = BeautifulSoup(response.data, "lxml").get_text(" ", strip=True)
    assert "Unbekannte Regeln 'deluxe' (bekannt: pocket, classic)" in text


def test_error_summary_says_what_is_wrong_for_each_player(client):
    game = copy.deepcopy(load_case(CASE_FILES[0])["game"])
    game["players"][1]["name"] = game["players"][0]["name"].upper()
    data = form_data(game) | {"players-0-cells-3": "", "players-0-cells-4": "xyz"}
    soup = BeautifulSoup(client.post("/", data=data).data, "lxml")
    first, second = (li.get_text("", strip=True) for li in soup.select("#form-errors .error-players li"))
    name = game["players"][0]["name"]
    assert first == f"{name}: 2 cells marked in red."
    assert second == f"{name.upper()}: The name is already used by \u2068{name}\u2069."
    german = BeautifulSoup(client.post("/?lang=de", data=data).data, "lxml")
    summary = german.select_one("#form-errors .error-players li").get_text("", strip=True)
    assert summary == f"{name}: 2 rot markierte Felder."


def test_messages_beside_fields_are_sentences(client):
    """Found by fresh testers: "the name is already used by Ada" stood beside the
    name in lower case, without a full stop; the summary's line then read "ada:
    the name is already used by Ada; Four lines of four cards are needed": each
    message is a sentence there too."""
    game = copy.deepcopy(load_case(CASE_FILES[0])["game"])
    game["players"][1]["name"] = game["players"][0]["name"]
    for lang, expected in [("en", "The name is already used by"), ("de", "Der Name wird schon von")]:
        soup = BeautifulSoup(client.post(f"/?lang={lang}", data=form_data(game)).data, "lxml")
        beside = soup.select_one("#players-1-name-errors li").get_text()
        assert beside.startswith(expected) and beside.endswith(".")
        summary = soup.select_one("#form-errors .error-players li").get_text()
        assert f": {expected}" in summary


def test_switching_language_on_the_form_keeps_every_entry(client):
    game = load_case(CASE_FILES[0])["game"]
    form = BeautifulSoup(client.get("/").data, "lxml")
    button = form.select_one(".languages button#lang-de")
    assert button["form"] == "game-form" and button["formaction"] == "/?lang=de" and button["value"] == "language"
    response = client.post("/?lang=de", data=form_data(game) | {"action": "language"})
    # Post/Redirect/Get: the form comes back from its own address, which Back and a reload ask again (issue 24)
    assert response.status_code == 303 and response.headers["Location"].startswith("/?entries=")
    assert response.headers["Location"].endswith("&lang=de") and len(response.headers["Location"]) < 1000
    response = client.get(response.headers["Location"])
    assert response.status_code == 200
    soup = BeautifulSoup(response.data, "lxml")
    assert soup.html["lang"] == "de" and soup.select_one("#score").get_text() == "Partie werten"
    assert soup.select_one("#players-0-name")["value"] == game["players"][0]["name"]
    assert card_id_of(soup.select_one("#players-1-cells-15")["value"]) == game["players"][1]["kingdom"][3][3]
    assert soup.select_one("#form-errors") is None  # nothing was scored, nothing refused


def test_an_entries_address_no_post_made_fills_nothing(client):
    """?entries= is signed: a link from elsewhere cannot fill someone's form (issue 24)."""
    game = load_case(CASE_FILES[0])["game"]
    kept = client.post("/?lang=de", data=form_data(game) | {"action": "language"}).headers["Location"]
    packed = kept.split("entries=")[1].split("&")[0]
    for address in (f"/?entries={packed[:-2]}xy", "/?entries=eJzLSM3JyVcozy_KSQEAGgQEXQ", "/?entries="):
        response = client.get(address)
        assert response.status_code == 200
        assert BeautifulSoup(response.data, "lxml").select_one("#players-0-name").get("value", "") == ""


@pytest.mark.parametrize("action", ["add", "language", "remove-2"])
def test_unfinished_text_box_survives_adding_removing_and_switching_language(client, action):
    game = load_case(CASE_FILES[0])["game"]
    half = "Mo Dw Mo Dr\nDw Po Dw El"  # two lines typed, two to go
    data = form_data(game) | {"action": action, "players-1-paste": half}
    if action == "remove-2":
        data |= {"players-2-name": "Cy"}
    soup = BeautifulSoup(client.post("/?lang=de", data=data, follow_redirects=True).data, "lxml")
    assert soup.select_one("#players-1-paste").get_text().strip() == half


def test_the_empty_form_is_kept_but_each_visitor_gets_a_token_of_their_own(csrf_client):
    """The empty form is rendered once and kept (issue "Fast for every new game"):
    two visitors get the same page but for their CSRF tokens, and each token
    works only with its own visitor's cookie."""
    other = csrf_client.application.test_client()
    first, second = csrf_client.get("/"), other.get("/")
    token_1 = soup_of(first).select_one("input[name=csrf_token]")["value"]
    token_2 = soup_of(second).select_one("input[name=csrf_token]")["value"]
    assert token_1 != token_2 and "csrf-slot" not in first.get_data(as_text=True)
    assert first.get_data(as_text=True).replace(token_1, "") == second.get_data(as_text=True).replace(token_2, "")
    data = form_data(GAME)
    assert other.post("/", data=data | {"csrf_token": token_1}).status_code == 400
    assert csrf_client.post("/", data=data | {"csrf_token": token_1}).status_code == 303
    assert other.post("/", data=data | {"csrf_token": token_2}).status_code == 303

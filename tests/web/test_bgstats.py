"""Send to BG Stats (issue 34, part 1): every score sheet, saved game and locked table links to
BG Stats' import of the game as one play (scorekeeper/web/bgstats.py). The link is decoded
here and every field checked against the scored game."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest
from bs4 import BeautifulSoup

from scorekeeper.engine import Game, score_game
from scorekeeper.web import bgstats
from scorekeeper.web.i18n import LANGUAGES
from tests.conftest import form_data, make_test_app
from tests.web.test_groups import game_of, group_paths, phones, save  # noqa: F401 (phones: a fixture)
from tests.web.test_share import FOUR, SHARED
from tests.web.test_table_pages import CASE19, seat_fields, start_table

RULESET_NAMES = {"en": "Pocket", "de": "Pocket", "fr": "Pocket", "it": "Pocket", "es": "Pocket"}


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "lxml")


def play_on(page) -> dict:
    """The play the page's "Send to BG Stats" link carries."""
    link = soup_of(page).select_one("a#send-bgstats")["href"]
    parts = urlsplit(link)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == "https://app.bgstatsapp.com/createPlay.html"
    assert len(link) <= bgstats.MAX_LENGTH
    [data] = parse_qs(parts.query, strict_parsing=True)["data"]
    return json.loads(data)


def expected_players(game: dict) -> list[dict]:
    sheet = score_game(Game.from_dict(game))
    return [{"name": r.player.name, "score": r.total, "rank": r.place, "winner": r.place == 1} for r in sheet.results]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_sheet_sends_every_player_with_total_place_and_a_shared_win(client, lang):
    """Case 18: Ada and Bo share place 1 with 2 (R7.4), Cy 0: both winners, both rank 1."""
    sheet = client.post("/", data=form_data(SHARED["game"]) | {"played_on": "2026-11-30"}).headers["Location"]
    page = client.get(f"{sheet}?lang={lang}")
    link = soup_of(page).select_one("a#send-bgstats")
    assert link.get_text() == {
        "en": "Send to BG Stats", "de": "An BG Stats senden", "fr": "Envoyer à BG Stats",
        "it": "Invia a BG Stats", "es": "Enviar a BG Stats",
    }[lang]  # fmt: skip
    data = play_on(page)
    assert data["players"] == expected_players(SHARED["game"])
    assert [(p["rank"], p["winner"]) for p in data["players"]] == [(1, True), (1, True), (3, False)]
    assert data["game"] == {
        "name": "DRAKO: Aetherya Pocket",
        "sourceGameId": "drako-aetherya-pocket",
        "highestWins": True,
        "noPoints": False,
    }  # no bggId: none set, BG Stats matches by name
    assert data["playDate"] == "2026-11-30 00:00:00"
    assert data["sourceName"] == "scorekeeper" and data["sourcePlayId"].startswith("sheet-")
    assert data["board"] == RULESET_NAMES[lang]
    assert "location" not in data
    again = client.get(sheet)  # the same sheet sent twice: one play
    assert play_on(again)["sourcePlayId"] == data["sourcePlayId"]


def test_the_boardgamegeek_id_is_a_setting(tmp_path):
    client = make_test_app(tmp_path, SECRET_KEY="test", WTF_CSRF_ENABLED=False, BGG_ID=123456).test_client()
    sheet = client.post("/", data=form_data(FOUR["game"]) | {"played_on": "2026-11-30"}).headers["Location"]
    assert play_on(client.get(sheet))["game"]["bggId"] == 123456


def test_a_saved_game_is_one_play_by_its_id_its_players_by_their_roster_entry(phones):  # noqa: F811
    ana, other, _ = phones
    first = save(ana, game_of("Ada", "Bo", "Cy", "Di"), group_name="Thursdays", location="Café Lüders")
    [group] = group_paths(ana)
    second = save(ana, game_of("Bo", "Ada", "Eve", "Di"), group=group.removeprefix("/groups/"))
    one, two = play_on(ana.get(first)), play_on(other.get(second))  # the read-only page sends it too
    assert one["sourcePlayId"] == first.removeprefix("/g/") and two["sourcePlayId"] == second.removeprefix("/g/")
    assert one["location"] == "Café Lüders" and one["playDate"] == "2026-11-28 00:00:00"
    assert [p["score"] for p in one["players"]] == [p["total"] for p in FOUR["expected"]["players"]]
    ids_one = {p["name"]: p["sourcePlayerId"] for p in one["players"]}
    ids_two = {p["name"]: p["sourcePlayerId"] for p in two["players"]}
    assert len(set(ids_one.values())) == 4  # one per person
    assert all(ids_two[name] == ids_one[name] for name in ("Ada", "Bo", "Di"))  # the same roster entry
    assert ids_two["Eve"] not in ids_one.values()
    assert group.removeprefix("/groups/") not in json.dumps(one)  # nothing of the group leaves


def test_a_corrected_game_sends_its_corrected_totals_as_the_same_play(db_client):
    from tests.web.test_games import save as save_alone
    from tests.web.test_games import totals

    public, private = save_alone(db_client)
    before = play_on(db_client.get(public))
    corrected = game_of("Ada", "Bo", "Cy", "Di")
    corrected["players"][0]["legends"] = []  # Ada's Legends taken back
    assert db_client.post(private + "/edit", data=form_data(corrected) | {"based_on": 1}).status_code == 303
    page = db_client.get(public)
    after = play_on(page)
    assert after["sourcePlayId"] == before["sourcePlayId"]
    assert [p["score"] for p in after["players"]] == totals(page)
    assert [p["score"] for p in after["players"]] != [p["score"] for p in before["players"]]
    assert [{k: v for k, v in p.items() if k != "sourcePlayerId"} for p in after["players"]] == expected_players(
        corrected
    )
    assert [p["sourcePlayerId"] for p in after["players"]] == [p["sourcePlayerId"] for p in before["players"]]


def test_a_locked_tables_game_is_sent_from_its_page(app, client):
    players = CASE19["game"]["players"][:2]
    code = start_table(client)
    seated = [client, app.test_client()]
    for n, (phone, player) in enumerate(zip(seated, players, strict=True), start=1):
        phone.post(f"/t/{code}/seats", data={"name": player["name"]})
        phone.post(f"/t/{code}/seat/{n}", data=seat_fields(player))
    client.post(f"/t/{code}/host", data={"action": "checks-off"})
    assert client.post(f"/t/{code}/host", data={"action": "lock"}).status_code == 303
    for phone in (*seated, app.test_client()):  # the seated phones and anyone watching
        data = play_on(phone.get(f"/t/{code}"))
        assert [p["name"] for p in data["players"]] == [p["name"] for p in players]
        assert not data["sourcePlayId"].startswith("sheet-")  # the saved game's id


@pytest.mark.parametrize(
    "letters",
    [
        "😀🐉🌲⛰",  # four bytes each in UTF-8: the longest a character is sent
        "अनुष्का",
        "தமிழ்",
        "Ελληνικά",
        "日本語の名前",
        'D’Arcy & Ada "Bo" % + #',  # what a URL would misread unencoded
    ],
)
def test_four_names_of_40_characters_in_any_script_fit_the_link(client, letters):
    names = [(letters * 40)[n : n + 40 - 1] + str(n) for n in range(4)]
    sheet = client.post("/", data=form_data(game_of(*names)) | {"played_on": "2026-11-30"}).headers["Location"]
    data = play_on(client.get(sheet))  # its length checked there: at most bgstats.MAX_LENGTH
    assert [p["name"] for p in data["players"]] == names


def test_the_longest_play_stays_under_the_limit():
    """Four names and a location of 100 characters, all four bytes in UTF-8: 4,070 characters."""
    sheet = score_game(Game.from_dict(game_of(*[f"{'😀' * 39}{n}" for n in range(4)])))
    data = bgstats.play(
        sheet, None, play_id="x" * 32, board="Classique", player_ids=["f" * 16] * 4, location="😀" * 100
    )
    assert len(bgstats.play_link(data)) < bgstats.MAX_LENGTH

"""The shared table's pages without JavaScript (issue #10): start, join by
code, take seats, enter kingdoms, check, report a wrong cell, lock, play again,
each as a browser without JavaScript posts the forms (cookies kept per client)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from scorekeeper.table.model import CODE_ALPHABET
from scorekeeper.words import LANGUAGES
from tests.conftest import form_data

CASE19 = json.loads((Path(__file__).parents[1] / "data" / "cases" / "19-four-players.json").read_text())


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "lxml")


def words_of(element) -> str:
    """An element's text as it reads: spaces collapsed, without the invisible isolates around names."""
    return " ".join(element.get_text().replace("\u2068", "").replace("\u2069", "").split())


def start_table(client, ruleset: str = "pocket") -> str:
    answer = client.post("/tables", data={"ruleset": ruleset, "played_on": "2026-11-30"})
    assert answer.status_code == 303
    code = answer.headers["Location"].rsplit("/", 1)[1]
    assert len(code) == 6 and set(code) <= set(CODE_ALPHABET)
    return code


def seat_fields(player: dict, action: str = "done") -> dict:
    cells = [card for row in player["kingdom"] for card in row]
    data = {f"seat-cells-{m}": card for m, card in enumerate(cells)}
    data["seat-legends"] = list(player.get("legends", []))
    data["action"] = action
    return data


def check_page(phone, code: str, number: int, action: str = "checked", cell: str | None = None, seen=None):
    """Post seat *number*'s check page as a browser does: with the kingdom it showed (``seen``)."""
    page = soup(phone.get(f"/t/{code}/check/{number}"))
    data = {"action": action, "seen": seen or page.find("input", attrs={"name": "seen"})["value"]}
    if cell is not None:
        data["cell"] = cell
    return phone.post(f"/t/{code}/check/{number}", data=data)


def secret_of(phone, code: str, number: int) -> dict:
    """The Authorization header the seat page's script sends its drafts to the API with."""
    form = soup(phone.get(f"/t/{code}/seat/{number}")).find(id="seat-form")
    assert form["data-api"] == f"/api/tables/{code}/seats/{number}"
    return {"Authorization": f"Bearer {form['data-secret']}"}


def test_the_home_page_starts_a_table_in_one_tap(client):
    page = soup(client.get("/"))
    start = page.find("form", id="start-table")
    assert start["action"] == "/tables" and start.find("button", id="start-table-button")
    assert start.find("input", attrs={"name": "played_on"})["data-today"]  # the phone's date, by app.js


def test_the_host_sees_code_link_and_qr_and_others_join_by_typed_code(app, client):
    code = start_table(client)
    page = soup(client.get(f"/t/{code}"))
    assert page.find(id="join-code").get_text() == code
    assert page.find(id="table-link")["href"].endswith(f"/t/{code}")
    qr = client.get(page.find("img", id="table-qr")["src"])
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    other = app.test_client()
    typed = f" {code[:3].lower()}-{code[3:]} "
    assert other.post("/join", data={"code": typed}).headers["Location"] == f"/t/{code}"
    wrong = other.post("/join", data={"code": "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY"})
    assert wrong.status_code == 404 and soup(wrong).find(id="code-errors")
    blank = other.post("/join", data={"code": "  "})  # found by a fresh tester: no word at all
    assert blank.status_code == 422 and "six letters and digits" in soup(blank).find(id="code-errors").get_text()
    assert soup(other.get(f"/t/{code}")).find(id="invite") is None  # only the host sees the invitation


def test_a_name_is_checked_at_once_by_r8_and_the_form_comes_back(app, client):
    code = start_table(client)
    assert client.post(f"/t/{code}/seats", data={"name": "Ada"}).status_code == 303
    other = app.test_client()
    taken = other.post(f"/t/{code}/seats", data={"name": " ada "})
    assert taken.status_code == 409
    assert soup(taken).find(id="name")["value"] == " ada "
    assert "Ada" in soup(taken).find(id="name-errors").get_text()
    too_long = other.post(f"/t/{code}/seats", data={"name": "x" * 41})
    assert too_long.status_code == 422 and soup(too_long).find(id="name-errors")


def test_a_name_box_stops_at_the_40_characters_a_name_may_have(client):
    """Found by two fresh testers: the boxes took 60 characters, the engine refused 41."""
    from scorekeeper.engine import MAX_NAME_LENGTH

    code = start_table(client)
    form = soup(client.get("/"))
    boxes = [form.find(id=f"players-{i}-name") for i in range(2)] + [soup(client.get(f"/t/{code}")).find(id="name")]
    assert [box["maxlength"] for box in boxes] == [str(MAX_NAME_LENGTH)] * 3 == ["40"] * 3


def test_four_phones_enter_check_and_lock_into_case_19s_sheet(app, client):
    players = CASE19["game"]["players"]
    code = start_table(client)
    phones = [client] + [app.test_client() for _ in players[1:]]
    for phone, player in zip(phones, players, strict=True):
        answer = phone.post(f"/t/{code}/seats", data={"name": player["name"]})
        assert answer.status_code == 303
    numbers = {p["name"]: n for n, p in enumerate(players, start=1)}
    # a draft ("Save") comes back when the seat is opened again
    half = seat_fields(players[0], "save")
    half.update({f"seat-cells-{m}": "" for m in range(8, 16)})
    assert phones[0].post(f"/t/{code}/seat/1", data=half).status_code == 303
    page = soup(phones[0].get(f"/t/{code}/seat/1"))
    assert page.find(id="seat-cells-0")["value"] == "Fo" and page.find(id="seat-cells-15")["value"] == ""
    assert "8/16" in soup(phones[1].get(f"/t/{code}")).find(id="seat-1").get_text()
    # another seat's phone cannot change it; told so in the page's language, with the way back to the table
    refused = phones[1].post(f"/t/{code}/seat/1", data=seat_fields(players[0]))
    assert refused.status_code == 403
    assert soup(refused).find(id="back")["href"] == f"/t/{code}"
    german = soup(phones[1].post(f"/t/{code}/seat/1?lang=de", data=seat_fields(players[0])))
    assert german.h1.get_text() == "Nicht erlaubt" and german.find(id="back").get_text() == "Zum Tisch"
    # opened, the table says where that seat is (a seat moved away is opened so: its page reloads)
    opened = phones[1].get(f"/t/{code}/seat/1?lang=de")
    assert opened.status_code == 303 and opened.headers["Location"].endswith(f"/t/{code}")
    alert = soup(phones[1].get(f"/t/{code}?lang=de")).find(attrs={"role": "alert"})
    assert "Der Platz von Ada ist auf einem anderen Handy." in words_of(alert)
    assert "Forbidden" not in german.get_text()
    for phone, player in zip(phones, players, strict=True):
        answer = phone.post(f"/t/{code}/seat/{numbers[player['name']]}", data=seat_fields(player))
        assert answer.status_code == 303, answer.get_data(as_text=True)
    refused = client.post(f"/t/{code}/host", data={"action": "lock"})
    assert refused.status_code == 409 and soup(refused).find(id="table-errors")
    # seat 2 finds a wrong cell in seat 1; seat 1's phone sees it
    assert check_page(phones[1], code, 1, "wrong", "5").status_code == 303
    note = words_of(soup(phones[0].get(f"/t/{code}")).find(id="table-notes"))
    assert "Bo says the card in row 2, column 2 of your kingdom is wrong." in note  # Ada's own phone
    assert "something is wrong" in soup(phones[0].get(f"/t/{code}/seat/1")).find(id="seats").get_text()
    assert phones[0].post(f"/t/{code}/seat/1", data=seat_fields(players[0])).status_code == 303
    for n in range(4):
        checker = phones[(n + 1) % 4]
        assert check_page(checker, code, n + 1).status_code == 303
    assert client.post(f"/t/{code}/host", data={"action": "lock"}).status_code == 303
    expected = {"Ada": 31, "Bo": 34, "Cy": 18, "Di": 34}
    for phone in phones:
        page = soup(phone.get(f"/t/{code}"))
        assert page.find(id="table-done")
        text = page.get_text(" ")
        for name in expected:
            assert name in text
        assert bool(page.find(id="private-link")) == (phone is client)  # only the host
        assert bool(page.find(id="saved-group")) == (phone is client)  # with the group it went to
    # the game went to a new group on the host's phone (a save's default): in its History
    history = soup(client.get("/games"))
    assert not history.find(id="no-group") and "Ada" in history.get_text()
    # the sheet's first look at the live part says locked, no new table yet
    before = soup(phones[2].get(f"/t/{code}/live")).find(id="live")
    assert before.has_attr("data-locked") and not before.has_attr("data-next")
    # play again: same seats; each phone takes its seat back in one tap
    again = client.post(f"/t/{code}/host", data={"action": "again", "played_on": "2026-12-01"})
    assert again.status_code == 303
    # a sheet opened before "Play again" learns of it however late it first asks
    new_code = re.search(r"/t/(\w+)", again.headers["Location"]).group(1)
    assert soup(phones[3].get(f"/t/{code}/live")).find(id="live")["data-next"] == new_code
    link = soup(phones[2].get(f"/t/{code}")).find(id="again")["href"]
    back = phones[2].get(link)
    assert back.status_code == 303 and back.headers["Location"] == f"/t/{new_code}/seat/3"  # straight to the seat
    assert phones[2].get(f"/t/{new_code}/seat/3").status_code == 200
    page = soup(phones[2].get(f"/t/{new_code}"))
    assert page.find(id="enter-3") and not page.find(id="take-seat")
    # a phone that never sat at the table sees the sheet, but no seat is offered to it
    stranger = soup(app.test_client().get(f"/t/{code}"))
    assert stranger.find(id="table-done") and not stranger.find(id="again") and not stranger.find(id="live")


@pytest.mark.parametrize("path", ["/t/ABCDEF", "/t/ABCDEF/seat/1", "/t/ABCDEF/check/1"])
def test_a_table_that_does_not_exist_is_a_404_page(client, path):
    assert client.get(path).status_code == 404


#: What a phone's browser accepts (Safari's; Chromium adds zstd): the app answers Brotli. gzip
#: alone too (an older browser, a proxy), whichever is the heavier.
ENCODINGS = ("gzip, deflate, br", "gzip")


def _weight(client, path: str) -> int:
    """The page at *path* and every stylesheet, script and image of the app it links, in bytes as
    sent to a phone: compressed as the app compresses them (the heavier of Brotli and gzip)."""
    page = client.get(path)
    assert page.status_code == 200, path
    assert client.get(path, headers={"Accept-Encoding": ENCODINGS[0]}).headers["Content-Encoding"] == "br"
    assets = set(re.findall(rb'(?:href|src)="(/static/[^"]+|/t/[^"]+\.svg)"', page.get_data()))
    weights = []
    for encoding in ENCODINGS:
        total = 0
        for url in [path.encode(), *assets]:  # (a file too small to gain from it is sent as it is)
            with client.get(url.decode(), headers={"Accept-Encoding": encoding}) as answer:
                assert answer.status_code == 200, url
                total += len(answer.get_data())
        weights.append(total)
    return max(weights)


#: The most a table's page may weigh with its assets, as sent (compressed). The scripts and
#: stylesheets are cached once loaded (versioned URLs), so a page after the first costs less.
BUDGET = 24 * 1024


def test_every_table_page_weighs_at_most_24_kb_sent_with_its_assets_in_every_language(app, client):
    players = CASE19["game"]["players"]
    code = start_table(client)
    phones = [client, app.test_client()]
    for phone, player in zip(phones, players, strict=False):
        phone.post(f"/t/{code}/seats", data={"name": player["name"]})
        phone.post(f"/t/{code}/seat/{players.index(player) + 1}", data=seat_fields(player))
    client.post(f"/t/{code}/host", data={"action": "checks-off"})
    pages = ["/join", f"/t/{code}", f"/t/{code}/seat/1", f"/t/{code}/check/2", f"/t/{code}/screen"]
    heaviest = {}
    for lang in LANGUAGES:
        for path in pages:
            heaviest[f"{path} {lang}"] = _weight(client, f"{path}?lang={lang}")
    assert client.post(f"/t/{code}/host", data={"action": "lock"}).status_code == 303
    for lang in LANGUAGES:
        heaviest[f"locked {lang}"] = _weight(client, f"/t/{code}?lang={lang}")
        heaviest[f"locked screen {lang}"] = _weight(client, f"/t/{code}/screen?lang={lang}")
    assert max(heaviest.values()) <= BUDGET, heaviest


def test_every_page_that_watches_a_table_loads_the_one_stream_file(app, client):
    """The seat page, the table's page, the check page, the locked table and the big screen
    speak to the table's stream through static/js/stream.js, before their own script."""
    players = CASE19["game"]["players"]
    code = start_table(client)
    phones = [client, app.test_client()]
    for phone, player in zip(phones, players, strict=False):
        phone.post(f"/t/{code}/seats", data={"name": player["name"]})
        phone.post(f"/t/{code}/seat/{players.index(player) + 1}", data=seat_fields(player))
    client.post(f"/t/{code}/host", data={"action": "checks-off"})

    def scripts(path: str) -> list[str]:
        tags = soup(client.get(path)).find_all("script", src=True)
        return [tag["src"].split("?")[0].removeprefix("/static/") for tag in tags]

    watching = {
        f"/t/{code}/seat/1": "js/table.js",
        f"/t/{code}": "js/table.js",
        f"/t/{code}/check/2": "js/table.js",
        f"/t/{code}/screen": "js/screen.js",
    }
    for path, own in watching.items():
        loaded = scripts(path)
        assert loaded.count("js/stream.js") == 1 and loaded.index("js/stream.js") < loaded.index(own), path
    assert client.post(f"/t/{code}/host", data={"action": "lock"}).status_code == 303
    assert "js/stream.js" in scripts(f"/t/{code}") and "js/stream.js" in scripts(f"/t/{code}/screen")
    # written once: neither page script speaks the protocol itself
    static = Path(__file__).parents[2] / "static" / "js"
    for own in ("table.js", "screen.js"):
        text = (static / own).read_text(encoding="utf-8")
        assert "new WebSocket" not in text and '"40"' not in text, own
    assert "new WebSocket" in (static / "stream.js").read_text(encoding="utf-8")


def test_the_seat_secret_is_an_httponly_lax_cookie_secure_over_https(app):
    client = app.test_client()
    answer = client.post("/tables", data={"played_on": "2026-11-30"}, base_url="https://localhost")
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" in cookie
    plain = app.test_client().post("/tables", data={"played_on": "2026-11-30"}).headers["Set-Cookie"]
    assert "HttpOnly" in plain and "Secure" not in plain


def test_the_live_part_answers_304_until_the_table_changes(app, client):
    code = start_table(client)
    first = client.get(f"/t/{code}/live")
    assert first.status_code == 200 and first.headers["ETag"] and first.headers["Cache-Control"] == "no-store"
    same = client.get(f"/t/{code}/live", headers={"If-None-Match": first.headers["ETag"]})
    assert same.status_code == 304 and same.get_data() == b""
    app.test_client().post(f"/t/{code}/seats", data={"name": "<b>Bo</b>"})
    changed = client.get(f"/t/{code}/live", headers={"If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200
    assert "&lt;b&gt;Bo&lt;/b&gt;" in changed.get_data(as_text=True)  # names escaped
    # found by Schemathesis on the API's twin: an empty tag among those sent was a 500
    for sent in ('""', f'"x", "", W/"", {first.headers["ETag"]}'):
        assert client.get(f"/t/{code}/live", headers={"If-None-Match": sent}).status_code in (200, 304)


def test_a_locked_table_takes_no_seats_and_shows_the_sheet(app, client):
    players = CASE19["game"]["players"][:2]
    code = start_table(client)
    phones = [client, app.test_client()]
    for n, (phone, player) in enumerate(zip(phones, players, strict=True), start=1):
        phone.post(f"/t/{code}/seats", data={"name": player["name"]})
        phone.post(f"/t/{code}/seat/{n}", data=seat_fields(player))
    bo_secret = secret_of(phones[1], code, 2)
    client.post(f"/t/{code}/host", data={"action": "checks-off"})
    assert client.post(f"/t/{code}/host", data={"action": "lock"}).status_code == 303
    assert client.post(f"/t/{code}/host", data={"action": "lock"}).status_code == 303  # twice: the same game
    late = app.test_client().post(f"/t/{code}/seats", data={"name": "Cy"})
    assert late.status_code == 303 and late.headers["Location"] == f"/t/{code}"  # the sheet, no seat
    page = soup(app.test_client().get(f"/t/{code}"))
    assert page.find(id="score-table") and not page.find(id="take-seat")
    assert phones[1].post(f"/t/{code}/seat/2", data=seat_fields(players[1])).status_code == 303
    # a draft table.js kept and sends after the lock: refused, so that it drops it
    draft = phones[1].put(f"/api/tables/{code}/seats/2", json={"kingdom": [None] * 16}, headers=bo_secret)
    assert draft.status_code == 409 and draft.json["problems"][0]["id"] == "table-locked"


def test_the_seat_page_says_what_the_server_holds_even_beside_a_refused_entry(client):
    """table.js compares the draft it kept in the tab with data-stored, the seat as stored, with its version."""
    code = start_table(client)
    client.post(f"/t/{code}/seats", data={"name": "Ada"})
    cells = ["forest", None, None, None, None, "dragon", *[None] * 10]
    drafted = client.put(
        f"/api/tables/{code}/seats/1",
        json={"kingdom": cells, "legends": ["tribes-humans"]},
        headers=secret_of(client, code, 1),
    )
    assert drafted.status_code == 200
    stored = {"kingdom": cells, "legends": ["tribes-humans"], "done": False, "version": drafted.json["version"]}
    page = soup(client.get(f"/t/{code}/seat/1"))
    assert json.loads(page.find(id="seat-form")["data-stored"]) == stored
    assert page.find(id="live")["data-version"] == str(stored["version"])  # everything shown carries the version
    first = {f"seat-cells-{m}": cell or "" for m, cell in enumerate(cells)} | {"seat-legends": ["tribes-humans"]}
    refused = client.post(f"/t/{code}/seat/1", data=first | {"seat-cells-0": "elves", "seat-cells-1": "Xyz"})
    assert refused.status_code == 422
    page = soup(refused)
    assert page.find(id="seat-cells-0")["value"] == "El"  # what was typed stays on the page …
    assert json.loads(page.find(id="seat-form")["data-stored"]) == stored  # … the server still holds the first
    # "Done" on a kingdom of 2 cards: the cards are kept, only "done" is refused (found by a fresh tester:
    # the page said "Not saved yet" beside a draft the table already counted)
    short = client.post(f"/t/{code}/seat/1", data=first | {"seat-cells-0": "elves", "action": "done"})
    assert short.status_code == 422
    page = soup(short)
    assert page.find(id="form-errors").get_text().startswith("Saved, not done yet.")
    assert "2 of 16 cards" in page.find(id="form-errors").get_text()
    held = json.loads(page.find(id="seat-form")["data-stored"])
    assert held["kingdom"] == ["elves", *cells[1:]] and held["version"] == stored["version"] + 1


def test_a_post_without_its_csrf_token_changes_nothing_and_says_so(tmp_path):
    from tests.conftest import make_test_app

    app = make_test_app(tmp_path, RATELIMIT_ENABLED=False)
    client = app.test_client()
    answer = client.post("/tables", data={"played_on": "2026-11-30"})
    assert answer.status_code == 400


def test_dots_in_the_text_box_leave_cells_empty_spaced_or_not(app):
    """The card codes help says "A dot (.) leaves a cell empty": a seat half entered by text."""
    from scorekeeper.web.forms import parse_kingdom_text

    with app.test_request_context():
        cells = parse_kingdom_text("f e o f\n. . . .\n....\nf . e .")
    assert cells == ["forest", "elves", "portal", "forest", *[""] * 8, "forest", "", "elves", ""]


def test_a_legend_claimed_by_two_seats_is_shown_on_both_phones_r6_1(app, client):
    code = start_table(client)
    other = app.test_client()
    client.post(f"/t/{code}/seats", data={"name": "Ada"})
    other.post(f"/t/{code}/seats", data={"name": "Bo"})
    for n, phone in enumerate((client, other), start=1):
        answer = phone.post(f"/t/{code}/seat/{n}", data={"seat-legends": ["tribes-humans"], "action": "save"})
        assert answer.status_code == 303
    for phone in (client, other):
        notes = soup(phone.get(f"/t/{code}/seat/1" if phone is client else f"/t/{code}/seat/2")).find(id="table-notes")
        assert "Ada" in notes.get_text() and "Bo" in notes.get_text() and "R6.1" in notes.get_text()


def test_more_cards_than_the_deck_holds_are_said_on_every_phone_before_the_lock_r1(app, client):
    """Found by a fresh tester: the deck warning came only on the locked sheet,
    too late to correct the entry. Once every kingdom is done, every phone sees it."""
    code = start_table(client)
    other = app.test_client()
    client.post(f"/t/{code}/seats", data={"name": "Ada"})
    other.post(f"/t/{code}/seats", data={"name": "Bo"})
    dragons = {"kingdom": [["dragon"] * 4, ["forest"] * 4, ["forest"] * 4, ["forest"] * 4]}  # 4 Dragons
    fine = {"kingdom": [["plain"] * 4, ["swamp"] * 4, ["mountain"] * 4, ["elves"] * 4]}
    assert client.post(f"/t/{code}/seat/1", data=seat_fields(dragons)).status_code == 303
    assert soup(client.get(f"/t/{code}/live")).find(id="table-notes") is None  # Bo is still entering
    fine["kingdom"][3] = ["dragon"] * 4  # 8 Dragons in all
    assert other.post(f"/t/{code}/seat/2", data=seat_fields(fine)).status_code == 303
    for phone in (client, other):
        notes = " ".join(soup(phone.get(f"/t/{code}/live")).find(id="table-notes").get_text().split())
        assert "More Dragons than a 2-player deck holds (8 entered, 4 in the deck)" in notes
        assert "More Forests than a 2-player deck holds (12 entered, 4 in the deck)" in notes
    german = " ".join(soup(other.get(f"/t/{code}/live?lang=de")).find(id="table-notes").get_text().split())
    assert "Mehr Drachen als ein Deck für 2 Spieler enthält (8 eingegeben, 4 im Deck) — bitte prüfen." in german


def test_the_address_a_refused_seat_or_lock_leaves_opens_the_table_again(app, client):
    """Found by a fresh tester: after a refused name or lock the address bar read
    /t/<code>/seats or /host, which answered 405 when opened again."""
    code = start_table(client)
    assert client.post(f"/t/{code}/seats", data={"name": "Ada"}).status_code == 303
    assert app.test_client().post(f"/t/{code}/seats", data={"name": "ada"}).status_code == 409  # name taken
    for path in ("seats", "host"):
        again = client.get(f"/t/{code}/{path}")
        assert again.status_code == 303 and again.headers["Location"] == f"/t/{code}"


def test_a_kingdom_not_done_cannot_be_opened_for_checking(app, client):
    """Found by a fresh tester: a phone could open /check/2 of a 0/16 kingdom and
    see "Checked" and "Something is wrong"; the table's page now says why not."""
    code = start_table(client)
    bo, stranger = app.test_client(), app.test_client()
    client.post(f"/t/{code}/seats", data={"name": "Ada"})
    bo.post(f"/t/{code}/seats", data={"name": "Bo"})
    for phone, number, why in [
        (client, 2, "Bo’s kingdom is not marked done, so it cannot be checked now."),
        (client, 1, "A kingdom is checked by another player, not by its owner."),
        (stranger, 1, "Only a player seated at the table can check a kingdom."),
    ]:
        answer = phone.get(f"/t/{code}/check/{number}")
        assert answer.status_code == 303 and answer.headers["Location"] == f"/t/{code}"
        said = soup(phone.get(f"/t/{code}")).find(id="flash")
        assert words_of(said) == why
        # found by a tester: a check page left for this (a card said wrong meanwhile) said it in green
        assert said["class"] == ["alert"] and said["role"] == "alert"
    assert bo.post(f"/t/{code}/seat/2", data=seat_fields(CASE19["game"]["players"][1])).status_code == 303
    assert soup(client.get(f"/t/{code}/check/2")).find(id="check-grid")  # done: Ada may check it


def test_a_full_tables_host_page_no_longer_asks_the_others_to_join(app, client):
    """Found by a fresh tester: with all four seats taken, the join code and a large
    QR code still pushed the seats and the lock button two screens down."""
    code = start_table(client)
    for n, name in enumerate(["Ada", "Bo", "Cy", "Di"]):
        phone = client if n == 0 else app.test_client()
        assert phone.post(f"/t/{code}/seats", data={"name": name}).status_code == 303
        page = soup(client.get(f"/t/{code}"))
        assert (page.find(id="invite") is None) == (n == 3), name


def test_a_wrong_card_is_told_to_its_owner_as_theirs_and_to_the_host_by_name(app, client):
    """Found by a fresh tester: Bo's own phone read "… of Bo's kingdom is wrong"."""
    players = CASE19["game"]["players"]
    code = start_table(client)
    bo, cy = app.test_client(), app.test_client()
    for phone, name in [(client, "Ada"), (bo, "Bo"), (cy, "Cy")]:
        assert phone.post(f"/t/{code}/seats", data={"name": name}).status_code == 303
    assert bo.post(f"/t/{code}/seat/2", data=seat_fields(players[1])).status_code == 303
    assert check_page(cy, code, 2, "wrong", "4").status_code == 303
    for phone, expected in [
        (bo, "Cy says the card in row 2, column 1 of your kingdom is wrong."),
        (client, "Cy says the card in row 2, column 1 of Bo’s kingdom is wrong."),  # the host
    ]:
        assert expected in words_of(soup(phone.get(f"/t/{code}/live")).find(id="table-notes"))
    german = words_of(soup(bo.get(f"/t/{code}/live?lang=de")).find(id="table-notes"))
    assert "Cy sagt: Die Karte in Reihe 2, Spalte 1 in deinem Königreich stimmt nicht." in german
    # the note beside the cell in the same words (a tester read "R2c1" under "row 2, column 1")
    seat = words_of(soup(bo.get(f"/t/{code}/seat/2?lang=en")).find(id="seat-cells-errors"))
    assert seat == "Row 2, column 1: another player says this card is wrong."


def test_the_host_adds_and_fills_a_seat_for_a_player_without_a_phone(app, client):
    code = start_table(client)
    client.post(f"/t/{code}/seats", data={"name": "Ada"})
    added = client.post(f"/t/{code}/seats", data={"name": "Cy", "for": "other"})
    assert added.headers["Location"] == f"/t/{code}/seat/2"
    player = CASE19["game"]["players"][2]
    assert client.post(f"/t/{code}/seat/2", data=seat_fields(player)).status_code == 303
    live = soup(client.get(f"/t/{code}/live"))
    assert all("mine" in live.find(id=f"seat-{n}")["class"] for n in (1, 2))  # one phone, two seats
    assert "16/16" in live.find(id="seat-2").get_text() and live.find(id="enter-2")
    # found by a tester: two "Your kingdom" buttons, and "Waiting for you to finish entering" twice
    assert [words_of(live.find(id=f"enter-{n}")) for n in (1, 2)] == ["Enter for Ada", "Enter for Cy"]
    assert "Waiting for Ada to finish entering (0/16 cards)." in words_of(live.find(id="waiting"))
    assert "for you" not in words_of(live.find(id="waiting"))
    alone = app.test_client()
    code = start_table(alone)
    alone.post(f"/t/{code}/seats", data={"name": "Di"})
    live = soup(alone.get(f"/t/{code}/live"))
    assert words_of(live.find(id="enter-1")) == "Your kingdom"
    assert "Waiting for you to finish entering" in words_of(live.find(id="waiting"))


def test_wrong_codes_from_one_address_never_lock_a_seated_phone_out_of_its_table(tmp_path):
    """Found by a fresh tester: wrong codes typed on one home network (one address
    for every phone) gave the host's own new table a 429 "unexpected problem" page."""
    from tests.conftest import make_test_app

    app = make_test_app(tmp_path, WTF_CSRF_ENABLED=False, WRONG_CODE_RATE_LIMIT="3 per hour")
    host, stranger = app.test_client(), app.test_client()
    code = start_table(host)
    assert [stranger.get("/t/AAAAAA").status_code for _ in range(4)] == [404, 404, 404, 429]
    refused = soup(stranger.get(f"/t/{code}"))  # the phone that guessed: refused a while, the right code too
    assert refused.find("h1").get_text() == "Please wait a moment"
    assert "Too many tries" in refused.get_text()
    assert host.get(f"/t/{code}").status_code == 200  # the host's phone, same address: its table
    assert host.post(f"/t/{code}/seats", data={"name": "Ana"}).status_code == 303
    assert host.get(f"/t/{code}/seat/1").status_code == 200


def test_one_phones_wrong_codes_never_lock_the_other_phones_of_its_address_out(tmp_path):
    """Found by a fresh tester: ten codes mistyped on one phone (a child's) gave every phone
    on the same Wi-Fi "Too many tries" on the table's link, /join and the big screen for a
    minute (an hour after 30). Wrong codes are counted per phone (the ``sk_phone`` cookie's
    id) and, more loosely, per address: a guesser dropping its cookies meets the second."""
    from tests.conftest import make_test_app

    app = make_test_app(
        tmp_path, WTF_CSRF_ENABLED=False, WRONG_CODE_RATE_LIMIT="3 per hour", WRONG_CODE_ADDRESS_RATE_LIMIT="8 per hour"
    )
    host, child, friend, screen = (app.test_client() for _ in range(4))
    code = start_table(host)
    assert [child.post("/join", data={"code": "AAAAAA"}).status_code for _ in range(4)] == [404, 404, 404, 429]
    assert child.get(f"/t/{code}").status_code == 429  # the phone that mistyped waits
    assert friend.get("/join").status_code == 200  # the others of the address do not
    assert friend.post("/join", data={"code": code.lower()}).status_code == 303
    assert friend.post(f"/t/{code}/seats", data={"name": "Bo"}).status_code == 303
    assert screen.get(f"/t/{code}/screen").status_code == 200
    assert screen.get(f"/api/tables/{code}").status_code == 200
    # a guesser that keeps no cookie is a new phone each time: the address's own limit holds it
    guesses = [app.test_client().get(f"/t/ZZZZZ{n}").status_code for n in range(2, 8)]
    assert guesses == [404, 404, 404, 404, 404, 429]  # 3 of the child's and 5 of its own: 8 an hour
    assert app.test_client().get(f"/t/{code}").status_code == 429


def test_a_refused_lock_keeps_no_new_group_and_a_lock_goes_to_the_group_chosen(app, client):
    """Locking saves into a group like the save form (issue #12): the host's choice."""
    from scorekeeper.store.groups import all_groups

    players = CASE19["game"]["players"][:2]
    code = start_table(client)
    other = app.test_client()
    for phone, player in zip([client, other], players, strict=True):
        assert phone.post(f"/t/{code}/seats", data={"name": player["name"]}).status_code == 303
    refused = client.post(f"/t/{code}/host", data={"action": "lock", "group": "new", "group_name": "Thursdays"})
    assert refused.status_code == 409  # nobody is done
    assert "groups=" not in refused.headers.get("Set-Cookie", "")  # no group on the phone either
    assert soup(refused).find(id="group-name")["value"] == "Thursdays"  # the choice comes back
    with app.app_context():
        assert all_groups() == []
    assert soup(client.get("/groups")).find(id="no-groups")
    for n, (phone, player) in enumerate(zip([client, other], players, strict=True), start=1):
        assert phone.post(f"/t/{code}/seat/{n}", data=seat_fields(player)).status_code == 303
    assert client.post(f"/t/{code}/host", data={"action": "checks-off"}).status_code == 303
    locked = client.post(f"/t/{code}/host", data={"action": "lock", "group": "new", "group_name": "Thursdays"})
    assert locked.status_code == 303
    with app.app_context():
        assert [(row.group.name, row.games) for row in all_groups()] == [("Thursdays", 1)]
    assert "Thursdays" in soup(client.get(f"/t/{code}")).find(id="saved-group").get_text()
    assert players[0]["name"] in soup(client.get("/games")).get_text()


def test_a_host_whose_lock_answer_was_lost_gets_the_new_group_on_the_locked_page(app, client):
    """Found by a fresh tester: the host reloaded while the lock's answer (which
    adds the new group to the phone) was on its way; the game was then in no
    phone's History. Opening the locked table adds the group again, to the host only."""
    players = CASE19["game"]["players"][:2]
    code = start_table(client)
    other = app.test_client()
    for n, (phone, player) in enumerate(zip([client, other], players, strict=True), start=1):
        assert phone.post(f"/t/{code}/seats", data={"name": player["name"]}).status_code == 303
        assert phone.post(f"/t/{code}/seat/{n}", data=seat_fields(player)).status_code == 303
    assert client.post(f"/t/{code}/host", data={"action": "checks-off"}).status_code == 303
    locked = client.post(f"/t/{code}/host", data={"action": "lock", "group": "new", "group_name": "Thursday club"})
    assert locked.status_code == 303 and "groups=" in locked.headers["Set-Cookie"]
    client.delete_cookie("groups")  # the answer never arrived: the phone holds no group
    assert soup(client.get("/games")).find(id="no-groups") or players[0]["name"] not in client.get("/games").text
    page = client.get(f"/t/{code}")
    assert "Thursday club" in soup(page).find(id="saved-group").get_text()
    assert "groups=" in page.headers.get("Set-Cookie", "")
    assert players[0]["name"] in soup(client.get("/games")).get_text()  # in the host's History again
    assert not soup(other.get(f"/t/{code}")).find(id="saved-group")  # a player's phone is not added
    assert "groups=" not in other.get(f"/t/{code}").headers.get("Set-Cookie", "")


def test_a_seated_host_keeps_the_join_code_and_qr_code_while_seats_are_free(app, client):
    """Found by a fresh tester: once seated, the host's page had no code, link or QR code."""
    code = start_table(client)
    assert client.post(f"/t/{code}/seats", data={"name": "Ana"}).status_code == 303
    invite = soup(client.get(f"/t/{code}/seat/1")).find(id="invite")
    assert invite.find(id="join-code").get_text() == code
    qr_page = soup(client.get(invite.find(id="show-qr")["href"].split("#")[0]))  # the table's page, QR code large
    assert client.get(qr_page.find(id="table-qr")["src"]).mimetype == "image/svg+xml"
    assert invite.find(id="table-link")["href"].endswith(f"/t/{code}")
    other = app.test_client()
    assert other.post(f"/t/{code}/seats", data={"name": "Ben"}).status_code == 303
    assert not soup(other.get(f"/t/{code}/seat/2")).find(id="invite")  # only the host's phone
    summaries = {
        lang: soup(client.get(f"/t/{code}/seat/1?lang={lang}")).find(id="invite").summary.get_text()
        for lang in ("en", "de", "fr")
    }  # a fresh tester's finding: the colon was the template's, so French had no space before it
    assert summaries == {
        "en": f"Ask the others to join: {code}",
        "de": f"Lade die anderen ein: {code}",
        "fr": f"Invitez les autres\u00a0: {code}",
    }


def test_a_draft_with_its_base_writes_only_its_own_changes(app, client):
    """Two pages on one seat (Bo's phone and the host's "Enter for Bo"): each draft
    says what its page started from, and only the cells and Legends it changed are
    written; the answer is what the seat holds now, which table.js shows. The pages'
    drafts are the API's (one shape, one merge): their scripts send them there."""
    code = start_table(client)
    bo = app.test_client()
    assert bo.post(f"/t/{code}/seats", data={"name": "Bo"}).status_code == 303
    empty = {"kingdom": [None] * 16, "legends": []}
    host, own = secret_of(client, code, 1), secret_of(bo, code, 1)

    def draft(secret: dict, cells: dict[int, str], legends: list[str], base: dict) -> dict:
        body = {"kingdom": [cells.get(m) for m in range(16)], "legends": legends, "base": base}
        answer = client.put(f"/api/tables/{code}/seats/1", json=body, headers=secret)
        assert answer.status_code == 200, answer.data
        return {"kingdom": answer.json["kingdom"], "legends": answer.json["legends"], "version": answer.json["version"]}

    held = draft(host, {0: "forest"}, ["tribes-elves"], empty)  # the host's page, from an empty seat
    assert held["kingdom"][0] == "forest" and held["legends"] == ["tribes-elves"]
    held = draft(own, {15: "plain"}, [], empty)  # Bo's page had not seen the Forest nor the Legend
    assert held["kingdom"] == ["forest"] + [None] * 14 + ["plain"] and held["legends"] == ["tribes-elves"]
    held = draft(host, {0: "swamp", 15: "plain"}, [], held)  # the host drops the Legend, changes a card
    assert held["kingdom"] == ["swamp"] + [None] * 14 + ["plain"] and held["legends"] == []
    # the page's own buttons ("Save", "Done" without JavaScript) send its base too, a hidden field
    page = soup(bo.get(f"/t/{code}/seat/1"))
    assert json.loads(page.find("input", attrs={"name": "base"})["value"])["kingdom"] == held["kingdom"]
    stale = {f"seat-cells-{m}": "" for m in range(16)} | {"seat-cells-15": "plain", "seat-cells-7": "elves"}
    stale |= {"action": "save", "base": json.dumps(empty | {"kingdom": [None] * 15 + ["plain"]})}
    assert bo.post(f"/t/{code}/seat/1", data=stale).status_code == 303  # found by a fresh tester: "Done" wiped
    now = client.get(f"/api/tables/{code}").json["seats"][0]["kingdom"]
    assert now == ["swamp"] + [None] * 6 + ["elves"] + [None] * 7 + ["plain"]
    # a page of another phone has no secret of the seat
    stranger = app.test_client()
    assert stranger.get(f"/t/{code}/seat/1").status_code == 403


def test_a_check_page_left_open_while_the_kingdom_changed_cannot_check_it_unseen(app, client):
    """Found by a fresh tester: Ada's check page still showed Mountain when Bo put a
    Dragon there, and "Checked" was taken for a kingdom she never saw. The page says
    what it showed; a kingdom changed since is refused and shown as it is now."""
    players = CASE19["game"]["players"][:2]
    code = start_table(client)
    bo = app.test_client()
    for n, (phone, player) in enumerate(zip([client, bo], players, strict=True), start=1):
        assert phone.post(f"/t/{code}/seats", data={"name": player["name"]}).status_code == 303
        assert phone.post(f"/t/{code}/seat/{n}", data=seat_fields(player)).status_code == 303
    page = soup(client.get(f"/t/{code}/check/2"))
    seen = page.find("input", attrs={"name": "seen"})["value"]
    first = page.select_one("#check-grid td, #check-grid label").get_text(" ", strip=True)
    changed = seat_fields(players[1], "save") | {"seat-cells-0": "dragon" if "Dr" not in first else "forest"}
    assert bo.post(f"/t/{code}/seat/2", data=changed).status_code == 303  # still done, its check cleared
    card = "Dragon" if "Dr" not in first else "Forest"
    said = f"Bo’s kingdom changed while you were looking at it (r1c1: {card}): look at it again."
    for action in ({"action": "checked"}, {"action": "wrong", "cell": "3"}):
        refused = client.post(f"/t/{code}/check/2", data=action | {"seen": seen})
        assert refused.status_code == 409
        assert words_of(soup(refused).find(id="check-errors")) == said  # which card, and what it is now
        assert soup(refused).find("input", attrs={"name": "seen"})["value"] != seen  # the kingdom as it is now
        marked = [label for label in soup(refused).select("#check-grid label") if "changed" in label["class"]]
        assert [label.find("input")["value"] for label in marked] == ["0"]
    # the page open meanwhile comes anew by itself (table.js) with what it showed: the same words
    again = soup(client.get(f"/t/{code}/check/2", query_string={"before": seen}))
    assert words_of(again.find(id="check-errors")) == said
    german = soup(client.get(f"/t/{code}/check/2", query_string={"before": seen, "lang": "de"}))
    assert words_of(german.find(id="check-errors")).startswith("Das Königreich von Bo hat sich geändert")
    for before in ("", "{", "[1]", '{"kingdom": 3}'):  # nothing to compare: the page as always
        assert soup(client.get(f"/t/{code}/check/2", query_string={"before": before})).find(id="check-errors") is None
    now = soup(client.get(f"/t/{code}/check/2")).find("input", attrs={"name": "seen"})["value"]
    assert client.post(f"/t/{code}/check/2", data={"action": "checked", "seen": now}).status_code == 303
    assert "Ada" in soup(client.get(f"/t/{code}")).find(id="seat-2").get_text()  # checked by Ada


def test_a_phone_holding_two_seats_checks_neither(app, client):
    """Found by a fresh tester: the host's phone, holding its own seat and one for a
    player without a phone, checked each with the other: nobody else had looked."""
    players = CASE19["game"]["players"][:2]
    code = start_table(client)
    assert client.post(f"/t/{code}/seats", data={"name": players[0]["name"]}).status_code == 303
    assert client.post(f"/t/{code}/seats", data={"name": players[1]["name"], "for": "other"}).status_code == 303
    for n, player in enumerate(players, start=1):
        assert client.post(f"/t/{code}/seat/{n}", data=seat_fields(player)).status_code == 303
    for n in (1, 2):
        opened = client.get(f"/t/{code}/check/{n}")
        assert opened.status_code == 303 and opened.headers["Location"] == f"/t/{code}"
        refused = client.post(f"/t/{code}/check/{n}", data={"action": "checked"})
        assert refused.status_code == 409 and "not by its owner" in soup(refused).get_text()


def test_every_phone_seated_at_a_locked_table_adds_its_group_in_one_tap(app, client):
    """The game reaches every seated phone's History, not only the host's: one tap on the
    locked page adds the game's group (a table pass, signed, never the invite secret; not
    chosen for the phone's next save). A stranger cannot; a replaced invite link ends it."""
    from scorekeeper.store.groups import find_group, new_invite

    players = CASE19["game"]["players"][:2]
    code = start_table(client)
    bo = app.test_client()
    for n, (phone, player) in enumerate(zip([client, bo], players, strict=True), start=1):
        assert phone.post(f"/t/{code}/seats", data={"name": player["name"]}).status_code == 303
        assert phone.post(f"/t/{code}/seat/{n}", data=seat_fields(player)).status_code == 303
    client.post(f"/t/{code}/host", data={"action": "checks-off"})
    assert (
        client.post(f"/t/{code}/host", data={"action": "lock", "group": "new", "group_name": "Tuesdays"}).status_code
        == 303
    )
    assert not soup(client.get(f"/t/{code}")).find(id="add-group")  # the host's phone has it already
    assert "Ada" not in soup(bo.get("/games")).get_text()  # not yet in Bo's History
    page = soup(bo.get(f"/t/{code}"))
    assert "Tuesdays" in page.find(id="group-form").get_text()
    stranger = app.test_client()
    assert not soup(stranger.get(f"/t/{code}")).find(id="add-group")
    assert stranger.post(f"/t/{code}/group").status_code == 403
    added = bo.post(f"/t/{code}/group")
    assert added.status_code == 303
    assert "now in the group “Tuesdays”" in soup(bo.get(f"/t/{code}")).find(id="flash").get_text()
    assert not soup(bo.get(f"/t/{code}")).find(id="add-group")
    history = soup(bo.get("/games"))
    assert "Ada" in history.get_text() and "Bo" in history.get_text()
    cookie = bo.get_cookie("groups").value
    assert "t." in __import__("itsdangerous").URLSafeSerializer("test", salt="scorekeeper-groups").loads(cookie)[0][1]
    # Bo's only group is offered for Bo's next save, never "A new group" (issue #33)
    sheet = bo.post("/", data=form_data({"ruleset": "pocket", "players": players}) | {"played_on": "2026-12-01"})
    form = soup(bo.get(sheet.headers["Location"]))
    assert form.select_one("#group-choice input[name=group]:checked")["value"] != "new"
    # a replaced invite link ends the pass, as it ends every member's old link
    with app.app_context():
        group = find_group(soup(client.get("/groups")).select_one("a[href^='/groups/']")["href"].split("/")[2])
        new_invite(group)
    assert "Ada" not in soup(bo.get("/games")).get_text()


def test_every_table_page_is_sent_no_store(app, client):
    """No table page is kept by a browser or a proxy: each holds what a phone holds at the
    table (a seat's secret for the drafts; the host's locked page, its private link)."""
    players = CASE19["game"]["players"][:2]
    code = start_table(client)
    bo = app.test_client()
    for n, (phone, player) in enumerate(zip([client, bo], players, strict=True), start=1):
        phone.post(f"/t/{code}/seats", data={"name": player["name"]})
        phone.post(f"/t/{code}/seat/{n}", data=seat_fields(player))
    answers = {
        path: phone.get(path)
        for phone, path in [
            (client, "/join"),
            (client, f"/t/{code}"),
            (client, f"/t/{code}/live"),
            (client, f"/t/{code}/live?compact=1"),
            (client, f"/t/{code}/seat/1"),
            (client, f"/t/{code}/check/2"),
            (bo, f"/t/{code}/seat/1"),  # refused: not Bo's
            (client, "/t/ZZZZZZ"),  # no such table
        ]
    }
    answers["take a seat (refused)"] = bo.post(f"/t/{code}/seats", data={"name": "Bo"})
    answers["host (refused)"] = bo.post(f"/t/{code}/host", data={"action": "lock"})
    client.post(f"/t/{code}/host", data={"action": "checks-off"})
    assert client.post(f"/t/{code}/host", data={"action": "lock"}).status_code == 303
    answers["locked, the host's"] = client.get(f"/t/{code}")
    assert soup(answers["locked, the host's"]).find(id="private-link")
    answers["locked, Bo's"] = bo.get(f"/t/{code}")
    for name, answer in answers.items():
        assert answer.headers["Cache-Control"] == "no-store", (name, answer.status_code)
    assert "no-store" not in client.get(f"/t/{code}/qr.svg").headers["Cache-Control"]  # the public link's image


def test_a_phone_holding_a_seat_takes_no_second_to_check_its_own_kingdom(app, client):
    """Found under attack: a player took a second seat and checked their own kingdom with
    it through the API. One secret a phone: a second seat is refused to a player's phone,
    and the host's phone holds the seats it adds with its own secret, so none checks another."""
    code = start_table(client)
    bo = app.test_client()
    assert bo.post(f"/t/{code}/seats", data={"name": "Bo"}).status_code == 303
    again = bo.post(f"/t/{code}/seats", data={"name": "Bob"})
    assert again.status_code == 409 and "already has seat 1" in soup(again).get_text()
    secret = secret_of(bo, code, 1)
    through_api = bo.post(f"/api/tables/{code}/seats", json={"name": "Bob"}, headers=secret)
    assert through_api.status_code == 409 and through_api.json["problems"][0]["id"] == "seat-already-held"
    assert [s["name"] for s in client.get(f"/api/tables/{code}").json["seats"]] == ["Bo"]


def test_the_group_a_table_was_locked_in_is_offered_first_on_the_hosts_next_save(app, client):
    """README: the save form offers first the group this phone itself chose last (saved a
    game in, or locked a table in)."""
    from scorekeeper.store.groups import all_groups

    game = {"ruleset": "pocket", "players": CASE19["game"]["players"][:2]}
    sheet = client.post("/", data=form_data(game) | {"played_on": "2026-11-29"}).headers["Location"]
    assert client.post("/games", data={"token": sheet.removeprefix("/sheet/"), "group_name": "Home"}).status_code == 303
    code = start_table(client)
    bo = app.test_client()
    for n, (phone, player) in enumerate(zip([client, bo], game["players"], strict=True), start=1):
        assert phone.post(f"/t/{code}/seats", data={"name": player["name"]}).status_code == 303
        assert phone.post(f"/t/{code}/seat/{n}", data=seat_fields(player)).status_code == 303
    client.post(f"/t/{code}/host", data={"action": "checks-off"})
    locked = client.post(f"/t/{code}/host", data={"action": "lock", "group": "new", "group_name": "Club night"})
    assert locked.status_code == 303
    with app.app_context():
        club = next(row.group.public_id for row in all_groups() if row.group.name == "Club night")
    sheet = client.post("/", data=form_data(game) | {"played_on": "2026-12-01"}).headers["Location"]
    offered = soup(client.get(sheet)).select("#group-choice input[name=group]")
    assert [(i["value"], i.has_attr("checked")) for i in offered][0] == (club, True)
    assert len(offered) == 3  # Club night, Home, a new group


def test_a_seat_page_names_cells_and_the_locked_page_has_the_words_for_a_change_not_sent(app, client):
    """table.js (with kingdom.js) says on the locked page which change the lock overtook: the
    seat page gives the cell's words (Words.cell: r4c4, Z4S4, L4C4), the locked page the sentence."""
    players = CASE19["game"]["players"][:2]
    code = start_table(client)
    bo = app.test_client()
    for n, (phone, player) in enumerate(zip([client, bo], players, strict=True), start=1):
        phone.post(f"/t/{code}/seats", data={"name": player["name"]})
        phone.post(f"/t/{code}/seat/{n}", data=seat_fields(player, action="save"))
    cells = {"en": "r8c9", "de": "Z8S9", "fr": "L8C9"}
    for lang, cell in cells.items():
        assert soup(bo.get(f"/t/{code}/seat/2?lang={lang}")).find(id="palette")["data-cell"] == cell
    for n, phone in enumerate([client, bo], start=1):
        phone.post(f"/t/{code}/seat/{n}", data=seat_fields(players[n - 1]))
    client.post(f"/t/{code}/host", data={"action": "checks-off"})
    assert client.post(f"/t/{code}/host", data={"action": "lock"}).status_code == 303
    starts = {"en": "Your last change ({change}) was not sent", "de": "Deine letzte Änderung ({change})"}
    starts["fr"] = "Votre dernière modification ({change}) n’a pas été envoyée"
    for lang, start in starts.items():
        note = soup(bo.get(f"/t/{code}?lang={lang}")).find(id="not-sent")
        assert note.has_attr("hidden") and note["data-text"].startswith(start)
    assert soup(app.test_client().get(f"/t/{code}")).find(id="not-sent") is None  # a phone never seated here


def test_a_request_to_take_a_seat_names_the_seated_phone_that_asks(app, client):
    """Found by a tester: when Bo's phone asked for Ada's seat (hers gone), Cy read "Another
    phone asks…", with nothing to tell whether to allow it. A phone holding seats is named."""
    code = start_table(client)
    bo, cy, new = app.test_client(), app.test_client(), app.test_client()
    for phone, name in [(client, "Ada"), (bo, "Bo"), (cy, "Cy")]:
        assert phone.post(f"/t/{code}/seats", data={"name": name}).status_code == 303
    assert bo.post(f"/t/{code}/move", data={"seat": "1"}).status_code == 303
    request = words_of(soup(cy.get(f"/t/{code}")).find(id="move-request"))
    assert request.startswith("Bo’s phone asks to take Ada’s seat too.")
    assert soup(client.get(f"/t/{code}")).find(id="live").find(id="move-allow")  # Ada's phone, there, answers
    assert not soup(cy.get(f"/t/{code}")).find(id="live").find(id="move-allow")  # not Cy's while Ada's is there
    german = words_of(soup(cy.get(f"/t/{code}?lang=de")).find(id="move-request"))
    assert german.startswith("Das Handy von Bo möchte auch den Platz von Ada übernehmen.")
    assert words_of(soup(bo.get(f"/t/{code}")).find(id="move-request")).startswith(
        "This phone asks to take Ada’s seat."
    )
    assert client.post(f"/t/{code}/move", data={"answer": "refuse"}).status_code == 303  # Ada's phone says no
    assert new.post(f"/t/{code}/move", data={"seat": "1"}).status_code == 303  # a phone holding nothing here
    request = words_of(soup(cy.get(f"/t/{code}?lang=en")).find(id="move-request"))
    assert request.startswith("A phone with no seat at this table asks to take Ada’s seat.")


def test_a_phone_whose_seat_moved_away_is_told_so_on_the_table_not_shown_an_error(app, client):
    """Found by a tester: Bo's seat moved to a borrowed phone; his old phone's seat page reloaded
    into "Not allowed: only the seat's own phone or the host can change this seat", as if he had
    done something wrong. A phone of the table lands on the table, told where the seat went."""
    code = start_table(client)
    bo, borrowed, stranger = app.test_client(), app.test_client(), app.test_client()
    for phone, name in [(client, "Ada"), (bo, "Bo")]:
        assert phone.post(f"/t/{code}/seats", data={"name": name}).status_code == 303
    assert bo.get(f"/t/{code}/seat/2").status_code == 200
    assert borrowed.post(f"/t/{code}/move", data={"seat": "2"}).status_code == 303
    assert bo.post(f"/t/{code}/move", data={"answer": "allow"}).status_code == 303  # Bo's old phone allows it
    assert borrowed.get(f"/t/{code}/seat/2").status_code == 200  # the seat is the borrowed phone's now
    moved = bo.get(f"/t/{code}/seat/2?lang=de")
    assert moved.status_code == 303 and moved.headers["Location"].endswith(f"/t/{code}")
    alert = soup(bo.get(f"/t/{code}?lang=de")).find(attrs={"role": "alert"})
    assert "Der Platz von Bo ist auf einem anderen Handy." in words_of(alert)  # (words_of: no isolates)
    assert stranger.get(f"/t/{code}/seat/2").status_code == 403  # a phone never seated here: refused

"""The table on a big screen (issue 26, item 4): ``/t/<code>/screen``, read-only, the
same page for whoever opens it, with no secret and nothing that changes the table."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from scorekeeper.words import LANGUAGES
from tests.conftest import CASE_FILES, load_case
from tests.web.test_table_pages import CASE19, _weight, check_page, seat_fields, soup, start_table, words_of

PLAYERS = CASE19["game"]["players"]


def _secrets(phones, code: str) -> list[str]:
    """Every secret the phones keep for table *code* (the host's and the seats')."""
    kept = [phone.get_cookie(f"sk_table_{code}") for phone in phones]
    return [secret for cookie in kept if cookie for secret in cookie.value.split(".")]


def _nothing_to_change(page: BeautifulSoup) -> None:
    """No form, no button, no field: the screen offers nothing that changes anything."""
    assert page.find_all(["form", "button", "input", "select", "textarea"]) == []
    assert not page.find(attrs={"formaction": True}) and not page.find(attrs={"contenteditable": True})


def _seated(app, client) -> tuple[str, list]:
    """A table of case 19's four players, each on their own phone (the host's first)."""
    code = start_table(client)
    phones = [client] + [app.test_client() for _ in PLAYERS[1:]]
    for phone, player in zip(phones, PLAYERS, strict=True):
        assert phone.post(f"/t/{code}/seats", data={"name": player["name"]}).status_code == 303
    return code, phones


def test_the_screen_shows_code_qr_and_every_seats_progress_with_no_secret_and_no_form(app, client):
    code, phones = _seated(app, client)
    half = seat_fields(PLAYERS[0], "save")
    half.update({f"seat-cells-{m}": "" for m in range(9, 16)})
    assert phones[0].post(f"/t/{code}/seat/1", data=half).status_code == 303  # Ada: 9 of 16
    assert phones[1].post(f"/t/{code}/seat/2", data=seat_fields(PLAYERS[1])).status_code == 303  # Bo: done
    assert check_page(phones[2], code, 2).status_code == 303  # Cy checks Bo

    answers = [phone.get(f"/t/{code}/screen") for phone in (*phones, app.test_client())]
    html = {answer.get_data(as_text=True) for answer in answers}
    assert len(html) == 1  # the same page for the host, each seat and a stranger: it asks nobody who they are
    assert all(answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store" for answer in answers)
    page = soup(answers[0])
    _nothing_to_change(page)
    text = page.get_text(" ")
    for secret in _secrets(phones, code):
        assert secret not in text and secret not in next(iter(html))
    assert "csrf" not in next(iter(html)).lower()

    # while seats are free: the join code large, the QR code of the join link, where to type the code
    assert page.find(id="join-code").get_text() == code
    assert page.find(id="screen-qr")["src"] == f"/t/{code}/qr.svg"
    assert "http://localhost/join" in page.find(id="screen-join").get_text()
    seats = page.select("#screen-seats .screen-seat")
    assert [s.find(class_="screen-seat-name").get_text() for s in seats] == ["Ada", "Bo", "Cy", "Di"]
    assert [s.find(class_="screen-seat-cards").get_text() for s in seats] == [
        "9/16 cards",
        "16/16 cards",
        "0/16 cards",
        "0/16 cards",
    ]
    assert [s.find("progress")["value"] for s in seats] == ["9", "16", "0", "0"]
    assert seats[1].find(class_="screen-seat-state").get_text() == "✓ checked by Cy"
    assert seats[0].find(class_="screen-seat-state").get_text() == "entering"
    # the four seats are taken: nobody else joins, so the join panel is hidden
    assert page.find(id="screen-join").has_attr("hidden")
    # without JavaScript it shows the table again every few seconds (only then: in <noscript>)
    assert page.head.find("noscript").find("meta", attrs={"http-equiv": "refresh"})["content"] == "10"
    # the stream's ticket, and the one catch-up asks the API's state as anyone sees it
    screen = page.find(id="screen")
    assert screen["data-state"] == f"/api/tables/{code}" and screen["data-ticket"]
    assert client.get(screen["data-state"], headers={"If-None-Match": screen["data-etag"]}).status_code == 304


def test_a_table_with_free_seats_shows_its_join_panel_and_nobody_seated(client):
    code = start_table(client)
    page = soup(client.get(f"/t/{code}/screen"))
    assert not page.find(id="screen-join").has_attr("hidden")
    assert not page.find(id="screen-empty").has_attr("hidden") and not page.select("#screen-seats li")
    # the template screen.js fills for a seat taken later is no seat, and no form either
    _nothing_to_change(page)


def test_once_locked_the_screen_shows_the_winner_and_the_sheet_but_never_the_edit_link(app, client):
    code, phones = _seated(app, client)
    for number, (phone, player) in enumerate(zip(phones, PLAYERS, strict=True), start=1):
        assert phone.post(f"/t/{code}/seat/{number}", data=seat_fields(player)).status_code == 303
    for n in range(4):
        assert check_page(phones[(n + 1) % 4], code, n + 1).status_code == 303
    assert client.post(f"/t/{code}/host", data={"action": "lock"}).status_code == 303
    private = soup(client.get(f"/t/{code}")).find(id="private-link")["href"]  # the host's edit link
    secret = private.rstrip("/").rsplit("/", 1)[1]

    answer = client.get(f"/t/{code}/screen")  # opened on the host's own phone: still no edit link
    html = answer.get_data(as_text=True)
    page = soup(answer)
    _nothing_to_change(page)
    assert private not in html and secret not in html and "/manage" not in html
    for kept in _secrets(phones, code):
        assert kept not in html
    assert not page.find("noscript")  # locked: nothing more to show, no reload
    assert not page.find(id="screen-join") and not page.find(id="join-code")
    # case 19's sheet: Di first with 33
    winner = " ".join(page.find(id="winner").get_text().split())
    assert winner == "★ Di wins with 33 Harmony Points."
    totals = [int(td["data-value"]) for td in page.select("#row-total td")]
    assert totals == [e["total"] for e in CASE19["expected"]["players"]] == [11, 13, 30, 33]
    places = [int(td["data-value"]) for td in page.select("#row-place td")]
    assert places == [e["place"] for e in CASE19["expected"]["players"]]
    assert [th.get_text() for th in page.select("#score-table thead th.is-winner")] == ["Di"]
    # "Play again": the locked screen links to the next table's screen
    again = client.post(f"/t/{code}/host", data={"action": "again", "played_on": "2026-12-01"})
    new_code = re.search(r"/t/(\w+)", again.headers["Location"]).group(1)
    link = soup(app.test_client().get(f"/t/{code}/screen")).find(id="screen-next")["href"]
    assert link == f"/t/{new_code}/screen"


def test_every_seated_phone_is_offered_the_big_screen_and_a_stranger_is_not(app, client):
    code, phones = _seated(app, client)
    for phone in phones:
        link = soup(phone.get(f"/t/{code}")).find(id="big-screen-link")
        assert link["href"] == f"/t/{code}/screen"
        assert f"http://localhost/t/{code}/screen" in soup(phone.get(f"/t/{code}")).find(id="big-screen").get_text()
    assert not soup(app.test_client().get(f"/t/{code}")).find(id="big-screen")


@pytest.mark.parametrize("path", ["/t/ABCDEF/screen", "/t/abc/screen"])
def test_a_screen_of_no_table_is_a_404_page(client, path):
    assert client.get(path).status_code == 404


def test_a_code_typed_otherwise_goes_to_the_one_address(client):
    code = start_table(client)
    answer = client.get(f"/t/{code.lower()[:3]}-{code[3:].lower()}/screen")
    assert answer.status_code == 302 and answer.headers["Location"] == f"/t/{code}/screen"


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_screen_speaks_every_language_and_weighs_at_most_60_kb(app, client, lang):
    code, phones = _seated(app, client)
    assert phones[1].post(f"/t/{code}/seat/2", data=seat_fields(PLAYERS[1])).status_code == 303
    page = soup(client.get(f"/t/{code}/screen?lang={lang}"))
    assert page.html["lang"] == lang
    english = soup(client.get(f"/t/{code}/screen?lang=en"))
    for id_ in ("screen-seats-title",):
        assert (page.find(id=id_).get_text() == english.find(id=id_).get_text()) == (lang == "en")
    assert (page.find(id="screen")["data-entering"] == "entering") == (lang == "en")
    assert _weight(client, f"/t/{code}/screen?lang={lang}") <= 60 * 1024


#: Case 17 (R7.3): equal totals, 6 each; the higher best row wins. Named as in issue 33.
TIED = load_case(next(path for path in CASE_FILES if path.name.startswith("17-")))
#: Case 18 (R7.4): Ada and Bo share place 1 with 2 each, Cy is 3rd.
SHARED = load_case(next(path for path in CASE_FILES if path.name.startswith("18-")))


def _locked(app, client, players: list[dict]) -> str:
    """A table of *players*, each on their own phone (the host's first), entered, checked and locked."""
    code = start_table(client)
    phones = [client] + [app.test_client() for _ in players[1:]]
    for number, (phone, player) in enumerate(zip(phones, players, strict=True), start=1):
        assert phone.post(f"/t/{code}/seats", data={"name": player["name"]}).status_code == 303
        assert phone.post(f"/t/{code}/seat/{number}", data=seat_fields(player)).status_code == 303
    for number in range(1, len(players) + 1):
        assert check_page(phones[number % len(players)], code, number).status_code == 303
    assert client.post(f"/t/{code}/host", data={"action": "lock"}).status_code == 303
    return code


def _notes(page: BeautifulSoup) -> list[str]:
    return [words_of(li) for li in page.select("#tiebreaks li")]


@pytest.mark.parametrize(
    ("case", "names", "winner", "notes"),
    [
        (
            TIED,
            ["Yara", "Noor"],
            "★ Yara wins with 6 Harmony Points.",
            [
                "Yara ahead of Noor: both have 6 Harmony Points; with their rows sorted from highest"
                " to lowest, the highest row decides, 6 vs 4."
            ],
        ),
        (
            SHARED,
            ["Ada", "Bo", "Cy"],
            "★ Ada and Bo share the win with 2 Harmony Points.",
            ["Ada and Bo share place 1: equal totals and equal sorted rows (R7.4)."],
        ),
    ],
    ids=["tiebreak", "shared"],
)
def test_the_screen_shows_the_tiebreak_line_as_the_phones_do(app, client, case, names, winner, notes):
    """Issue 33: the screen said "Yara wins with 11" with Noor also on 11, and no tiebreak line;
    the phones' locked page shows it (R7.3, R7.4). Now the screen shows the same notes."""
    players = [dict(player, name=name) for player, name in zip(case["game"]["players"], names, strict=True)]
    code = _locked(app, client, players)
    screen = soup(client.get(f"/t/{code}/screen?lang=en"))
    phone = soup(client.get(f"/t/{code}?lang=en"))
    assert words_of(screen.find(id="winner")) == winner
    assert _notes(screen) == _notes(phone) == notes
    french = soup(client.get(f"/t/{code}/screen?lang=fr"))
    assert _notes(french) == _notes(soup(client.get(f"/t/{code}?lang=fr"))) and _notes(french) != notes

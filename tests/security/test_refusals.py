"""Posts refused before their view runs (an expired CSRF token, a rate limit):
each form comes back with what was typed, or the error page says what happened;
nothing is stored or deleted either way."""

from __future__ import annotations

import io

import pytest
from bs4 import BeautifulSoup

from scorekeeper import create_app
from tests.conftest import CASE_FILES, form_data, load_case

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))


def make_app(tmp_path, **config):
    base = {"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/r.db"}
    return create_app(base | config)


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "lxml")


def csrf(client, path: str) -> str:
    return soup_of(client.get(path)).select_one("input[name=csrf_token]")["value"]


def names(soup: BeautifulSoup) -> list[str]:
    return [box.get("value", "") for box in soup.select("fieldset.player:not([disabled]) input[name$='-name']")]


def saved_game(client) -> tuple[str, str]:
    """A saved game of four players: its sheet-link token and its private path."""
    sheet = client.post("/", data=form_data(FOUR["game"]) | {"csrf_token": csrf(client, "/")}).headers["Location"]
    private = client.post("/games", data={"csrf_token": csrf(client, sheet), "token": sheet.split("/")[-1]})
    return sheet.split("/")[-1], private.headers["Location"]


def test_removing_a_player_with_an_expired_token_keeps_the_other_entries(tmp_path):
    client = make_app(tmp_path).test_client()
    data = form_data(FOUR["game"], action="remove-1") | {"csrf_token": "stale"}
    response = client.post("/", data=data, follow_redirects=True)
    assert response.status_code == 200
    soup = soup_of(response)
    expected = [player["name"] for i, player in enumerate(FOUR["game"]["players"]) if i != 1]
    assert names(soup) == expected
    assert soup.select_one("#form-errors") is None


def test_switching_language_with_an_expired_token_keeps_every_entry(tmp_path):
    """It stores nothing, so it needs no token (issue 24: the form comes back from a GET, in German)."""
    client = make_app(tmp_path).test_client()
    data = form_data(FOUR["game"], action="language") | {"csrf_token": "stale"}
    response = client.post("/?lang=de", data=data, follow_redirects=True)
    assert response.status_code == 200 and response.request.method == "GET"
    soup = soup_of(response)
    assert soup.html["lang"] == "de" and soup.select_one("#form-errors") is None
    assert names(soup) == [player["name"] for player in FOUR["game"]["players"]]


def test_expired_correction_keeps_every_entry_and_its_heading(tmp_path):
    client = make_app(tmp_path).test_client()
    _, private = saved_game(client)
    data = form_data(FOUR["game"]) | {"based_on": 1, "players-0-name": "Adele", "csrf_token": "stale"}
    response = client.post(private + "/edit", data=data)
    assert response.status_code == 400
    soup = soup_of(response)
    assert soup.select_one("h1").get_text() == "Correct a saved game"
    assert "expired" in soup.select_one("#form-errors").get_text()
    assert names(soup)[0] == "Adele"
    assert soup.select_one("form#game-form")["action"] == private + "/edit"
    removed = soup_of(client.post(private + "/edit", data=data | {"action": "remove-3"}, follow_redirects=True))
    assert len(names(removed)) == 3 and removed.select_one("h1").get_text() == "Correct a saved game"
    assert "Adele" not in client.get(private).get_data(as_text=True)  # nothing was corrected


def test_expired_delete_import_and_save_forms_get_the_error_page(tmp_path):
    client = make_app(tmp_path).test_client()
    _, private = saved_game(client)
    refusals = [
        client.post(private + "/delete", data={"confirm": "yes", "csrf_token": "stale"}),
        client.post(
            "/games/import",
            data={"csrf_token": "stale", "file": (io.BytesIO(b"{}"), "g.json")},
            content_type="multipart/form-data",
        ),
        client.post("/games", data={"csrf_token": "stale"}),  # no sheet link to show again
    ]
    for response in refusals:
        assert response.status_code == 400
        assert "did not send its cookie" in soup_of(response).select_one("#error").get_text()
    assert client.get(private).status_code == 200  # not deleted


@pytest.mark.pdf
def test_saved_game_pdfs_share_the_pdf_limit_and_say_so(tmp_path):
    client = make_app(tmp_path, PDF_RATE_LIMIT="2 per hour").test_client()
    token, private = saved_game(client)
    public = "/g/" + private.split("/")[2]
    assert [client.get(path).status_code for path in (f"/sheet/{token}.pdf", f"{public}.pdf")] == [200, 200]
    for path in (f"{public}/r/1.pdf", f"{public}.pdf", f"/sheet/{token}.pdf"):
        response = client.get(path)
        assert response.status_code == 429
        assert "Too many PDF downloads" in soup_of(response).select_one("#error").get_text()
        assert "Retry-After" in response.headers


def test_rate_limited_delete_and_bare_save_get_the_wait_page(tmp_path):
    client = make_app(tmp_path, SAVE_RATE_LIMIT="1 per hour").test_client()
    _, private = saved_game(client)  # the one save a minute
    refusals = [
        client.post(private + "/delete", data={"confirm": "yes", "csrf_token": csrf(client, private)}),
        client.post("/games", data={"csrf_token": csrf(client, "/games/import")}),  # no sheet link
    ]
    for response in refusals:
        assert response.status_code == 429
        page = soup_of(response).select_one("#error")
        assert page.select_one("h1").get_text() == "Please wait a moment"
        assert "Too many changes" in page.get_text()
    assert client.get(private).status_code == 200  # not deleted

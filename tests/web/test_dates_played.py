"""The date played: from 1 January 2000 to 6 June 2179, the dates a sheet link holds
(two bytes of days since 2000-01-01, ``web.links``), and on the forms no later than
tomorrow (a game is scored once played; a phone may be a day ahead of the server). A
date outside is refused beside its field, in the page's language, every entry kept;
never the 400 of a value the database cannot hold ("… such as a NUL character")."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from bs4 import BeautifulSoup

from scorekeeper.store.games import EARLIEST_PLAYED_ON, LATEST_PLAYED_ON
from tests.conftest import CASE_FILES, form_data, load_case, saved_links

GAME = load_case(next(path for path in CASE_FILES if path.name.startswith("10-")))["game"]  # Ada, Bo
OUTSIDE = ["1999-12-31", "0001-01-01", "2200-01-01", "2179-06-07"]
NUL_MESSAGE = "NUL character"


def test_the_range_is_what_a_sheet_link_holds():
    assert (EARLIEST_PLAYED_ON.isoformat(), LATEST_PLAYED_ON.isoformat()) == ("2000-01-01", "2179-06-06")


@pytest.mark.parametrize("day", OUTSIDE)
def test_a_date_outside_the_range_is_refused_beside_its_field_with_every_entry_kept(client, day):
    response = client.post("/?lang=en", data=form_data(GAME) | {"played_on": day})
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert NUL_MESSAGE not in text
    page = BeautifulSoup(text, "lxml")
    assert page.select_one("#played_on-errors").get_text(strip=True) == ("Choose a date from 1 January 2000 to today.")
    field = page.select_one("#played_on")
    assert field["value"] == day and field["aria-invalid"] == "true"
    assert field["aria-describedby"] == "played_on-errors"
    assert [page.select_one(f"#players-{i}-name")["value"] for i in range(2)] == ["Ada", "Bo"]
    assert page.select_one("#players-0-cells-5")["value"] == "Dr"  # the card, as the form writes it


def test_the_dates_refusal_is_in_the_pages_language(client):
    response = client.post("/?lang=de", data=form_data(GAME) | {"played_on": "1999-12-31"})
    page = BeautifulSoup(response.data, "lxml")
    assert page.select_one("#played_on-errors").get_text(strip=True) == (
        "Wähle ein Datum vom 1. Januar 2000 bis heute."
    )


@pytest.mark.parametrize("day", [date(2000, 1, 1), date.today(), date.today() + timedelta(days=1)])
def test_the_first_and_last_dates_are_scored(client, day):
    response = client.post("/", data=form_data(GAME) | {"played_on": day.isoformat()})
    assert response.status_code == 303
    sheet = BeautifulSoup(client.get(response.headers["Location"]).data, "lxml")
    assert sheet.select_one("#played-on")["datetime"] == day.isoformat()


@pytest.mark.parametrize("later", [2, 365, 45_000])
def test_a_date_after_tomorrow_is_refused_on_the_form(client, later):
    """Found by a fresh tester: 1 June 2150 was scored and saved (a slip for 2015, say)."""
    day = (date.today() + timedelta(days=later)).isoformat()
    response = client.post("/?lang=en", data=form_data(GAME) | {"played_on": day})
    assert response.status_code == 422
    page = BeautifulSoup(response.data, "lxml")
    assert page.select_one("#played_on-errors").get_text(strip=True) == "Choose a date from 1 January 2000 to today."
    assert page.select_one("#played_on")["value"] == day


def test_the_date_input_says_its_first_and_last_dates(client):
    field = BeautifulSoup(client.get("/").data, "lxml").select_one("#played_on")
    tomorrow = (date.today() + timedelta(days=1)).isoformat()
    assert (field["type"], field["min"], field["max"]) == ("date", "2000-01-01", tomorrow)


def test_a_correction_to_a_date_outside_the_range_is_refused_beside_its_field(db_client):
    public, private = saved_links(db_client, db_client.post("/games", data={"token": _token(db_client)}))
    response = db_client.post(
        private + "/edit?lang=en", data=form_data(GAME) | {"based_on": 1, "played_on": "1999-12-31"}
    )
    assert response.status_code == 422 and NUL_MESSAGE not in response.get_data(as_text=True)
    page = BeautifulSoup(response.data, "lxml")
    assert page.select_one("#played_on-errors").get_text(strip=True).startswith("Choose a date from 1 January 2000")
    assert page.select_one("#played_on")["value"] == "1999-12-31"
    assert BeautifulSoup(db_client.get(public).data, "lxml").select_one("#played-on")["datetime"] == "2026-11-30"


def _token(client) -> str:
    response = client.post("/", data=form_data(GAME) | {"played_on": "2026-11-30"})
    return response.headers["Location"].removeprefix("/sheet/")


@pytest.mark.parametrize("day", OUTSIDE)
def test_a_shared_table_refuses_a_date_outside_the_range_in_the_apis_one_shape(db_client, day):
    response = db_client.post("/api/tables", json={"played_on": day})
    assert response.status_code == 400
    assert response.json == {
        "errors": [f"the date played {day} is outside the dates a game can be played on, 2000-01-01 to 2179-06-06"],
        "problems": [{"id": "date-out-of-range", "seat": None, "cell": None}],
    }


def test_the_score_api_takes_no_date_and_is_not_refused_for_one(client):
    """``/api/score`` scores a game file, which has no date: one given is left aside, not
    turned into the database's refusal."""
    response = client.post("/api/score", json=GAME | {"played_on": "1999-12-31"})
    assert response.status_code == 200 and NUL_MESSAGE not in response.get_data(as_text=True)
    assert [player["total"] for player in response.json["players"]] == [-3, 13]

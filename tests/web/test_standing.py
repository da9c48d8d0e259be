"""A group's standing on its page (issue 26, item 2): English and German, the season filter
without JavaScript, the rating's line with its table for screen readers, and a correction or
deletion over HTTP showing on the next view. SQLite and PostgreSQL.

The ratings are OpenSkill's (tests/store/test_standing.py works them by hand): three new
players, Ada and Bo sharing place 1 and Cy third: Ada and Bo 4.3, Cy −3.6 (mu − 3·sigma).
"""

from __future__ import annotations

import copy

from bs4 import BeautifulSoup
from flask import render_template_string

from tests.conftest import CASE_FILES, form_data, load_case, saved_links

TWO = load_case(next(p for p in CASE_FILES if p.name.startswith("02-")))  # seat 1 wins 21 to 0
SHARED = load_case(next(p for p in CASE_FILES if p.name.startswith("18-")))  # seats 1 and 2 share place 1


def game_of(case: dict, *names: str) -> dict:
    game = copy.deepcopy(case["game"])
    for player, name in zip(game["players"], names, strict=True):
        player["name"] = name
    return game


def save(phone, game: dict, played_on: str, **choice) -> tuple[str, str]:
    token = phone.post("/", data=form_data(game) | {"played_on": played_on}).headers["Location"].removeprefix("/sheet/")
    return saved_links(phone, phone.post("/games", data={"token": token, **choice}))


def soup_of(response) -> BeautifulSoup:
    assert response.status_code == 200
    return BeautifulSoup(response.data, "lxml")


def rows(soup: BeautifulSoup) -> list[list[str]]:
    return [
        [cell.get_text(strip=True) for cell in tr.select("th, td")[:5]]
        for tr in soup.select("#standing-table tbody tr")
    ]


def test_the_standing_in_english_and_german_with_its_seasons(db_client):
    phone = db_client
    save(phone, game_of(SHARED, "Ada", "Bo", "Cy"), "2025-12-31", group_name="Friday")
    save(phone, game_of(TWO, "Cy", "Ada"), "2026-01-01")
    group = BeautifulSoup(phone.get("/groups").data, "lxml").select_one("#groups a")["href"]

    english = soup_of(phone.get(group))
    assert english.select_one("#standing-heading").get_text() == "Standing of all time"
    assert [th.get_text() for th in english.select("#standing-table thead th")] == [
        "Player", "Rating", "Games", "Wins", "Avg.", "Last games",
    ]  # fmt: skip
    # short headings for a small phone, each spelled out in its title
    assert [abbr["title"] for abbr in english.select("#standing-table thead abbr")] == [
        "Rating", "Games", "Wins", "Average total", "Last games",
    ]  # fmt: skip
    # all time (tests/store/test_standing.py): Bo 4.3 (one shared place 1), Ada 1.7 (shared
    # place 1, then lost to Cy), Cy 0.2 (third on 31 Dec, then beat Ada)
    assert rows(english) == [
        ["Bo", "4.3", "1", "0", "2.0"],
        ["Ada", "1.7", "2", "0", "1.0"],
        ["Cy", "0.2", "2", "1", "10.5"],
    ]
    # the line of each player, and its numbers in a table for screen readers
    assert len(english.select("#standing-table svg.sparkline polyline")) == 3
    assert all(svg["aria-hidden"] == "true" for svg in english.select("svg.sparkline"))
    paths = english.select_one("#rating-paths")
    assert "visually-hidden" in paths.parent["class"]
    assert [th.get_text() for th in paths.select("thead th")] == ["Player", "Game 1", "Game 2"]
    assert [[c.get_text() for c in tr.select("th, td")] for tr in paths.select("tbody tr")] == [
        ["Bo", "4.3", ""],
        ["Ada", "4.3", "1.7"],
        ["Cy", "-3.6", "0.2"],
    ]
    pairs = [[th.get_text() for th in tr.select("th")] for tr in english.select("#rivalries tr.rivalry")]
    assert pairs == [["Bo", "Ada"], ["Bo", "Cy"], ["Ada", "Cy"]]
    # the season filter: plain links, the current one marked
    seasons = english.select(".seasons a")
    assert [a.get_text() for a in seasons] == ["All time", "2026", "2025"]
    assert seasons[0]["aria-current"] == "page" and seasons[1]["href"].endswith("?season=2026#standing")

    german = soup_of(phone.get(seasons[1]["href"].split("#")[0] + "&lang=de"))
    assert german.select_one("#standing-heading").get_text() == "Tabelle 2026"
    assert [th.get_text() for th in german.select("#standing-table thead th")] == [
        "Spieler", "Wert.", "Part.", "Siege", "Ø", "Letzte Partien",
    ]  # fmt: skip
    # 2026 alone: Cy won the season's one game: 3.4 and −1.8, in German decimals
    assert rows(german) == [["Cy", "3,4", "1", "1", "21,0"], ["Ada", "-1,8", "1", "0", "0,0"]]
    assert german.select_one(".seasons a[aria-current]").get_text() == "2026"
    assert [a.get_text() for a in german.select(".seasons a")][0] == "Gesamt"
    assert german.select_one("#rivalries-heading").get_text() == "Direkter Vergleich"

    french = soup_of(phone.get(group + "?season=2025&lang=fr"))
    assert french.select_one("#standing-heading").get_text() == "Classement 2025"
    assert rows(french) == [
        ["Ada", "4,3", "1", "0", "2,0"],
        ["Bo", "4,3", "1", "0", "2,0"],
        ["Cy", "-3,6", "1", "0", "0,0"],
    ]

    for wrong in ("2027", "soon", "-3", "0001", "1999", "2180", "02026"):  # said plainly, nothing lost
        page = soup_of(phone.get(group, query_string={"season": wrong}))
        assert page.select_one("#roster") is not None
    # a season is the year the games were played in (found by a tester: "No games saved in 2027")
    assert "No games played in 2027." in soup_of(phone.get(group + "?season=2027&lang=en")).get_text()
    assert "Keine Partien 2027 gespielt." in soup_of(phone.get(group + "?season=2027&lang=de")).get_text()
    assert "Aucune partie jouée en 2027." in soup_of(phone.get(group + "?season=2027&lang=fr")).get_text()
    # only the years a game may be played in (2000..2179) are seasons: others are all time
    for outside in ("0001", "1999", "2180", "9999", "02026"):
        heading = soup_of(phone.get(group + f"?season={outside}&lang=en")).select_one("#standing-heading")
        assert heading.get_text() == "Standing of all time", outside
    for edge in ("2000", "2179"):
        assert soup_of(phone.get(group + f"?season={edge}&lang=en")).select_one("#standing-heading").get_text() == (
            f"Standing {edge}"
        )
    assert (
        soup_of(phone.get(group + "?season=soon&lang=en")).select_one("#standing-heading").get_text()
        == "Standing of all time"
    )


def test_a_correction_and_a_deletion_show_on_the_next_view(db_client):
    phone = db_client
    save(phone, game_of(SHARED, "Ada", "Bo", "Cy"), "2025-12-31", group_name="Friday")
    _, private = save(phone, game_of(TWO, "Cy", "Ada"), "2026-01-01")
    group = BeautifulSoup(phone.get("/groups").data, "lxml").select_one("#groups a")["href"]
    assert [row[0] for row in rows(soup_of(phone.get(group)))] == ["Bo", "Ada", "Cy"]

    corrected = form_data(game_of(TWO, "Ada", "Cy")) | {"based_on": 1, "played_on": "2026-01-01"}
    assert phone.post(private + "/edit", data=corrected).status_code == 303
    # Ada won on 1 January after all: 6.6, Cy −4.7
    assert rows(soup_of(phone.get(group))) == [
        ["Ada", "6.6", "2", "1", "11.5"],
        ["Bo", "4.3", "1", "0", "2.0"],
        ["Cy", "-4.7", "2", "0", "0.0"],
    ]
    assert phone.post(private + "/delete", data={"confirm": "yes"}).status_code == 303
    assert rows(soup_of(phone.get(group))) == [
        ["Ada", "4.3", "1", "0", "2.0"],
        ["Bo", "4.3", "1", "0", "2.0"],
        ["Cy", "-3.6", "1", "0", "0.0"],
    ]
    assert [a.get_text() for a in soup_of(phone.get(group)).select(".seasons a")] == ["All time", "2025"]


def test_the_standing_of_one_game_says_its_line_in_the_singular(db_client):
    """Found by a fresh tester: "the rating after each of the last 1 games", in every language."""
    save(db_client, game_of(TWO, "Ada", "Bo"), "2026-01-01", group_name="Once")
    group = BeautifulSoup(db_client.get("/groups").data, "lxml").select_one("#groups a")["href"]
    for language, said in (
        ("en", "The line: the rating after the last game;"),
        ("de", "Die Linie: die Wertung nach der letzten Partie;"),
        ("fr", "La ligne : la cote après la dernière partie ;"),
    ):
        hint = " ".join(
            soup_of(db_client.get(f"{group}?lang={language}")).select_one("#standing .hint").get_text().split()
        )
        assert said in hint and "last 1" not in hint and "1 dernières" not in hint, hint
    save(db_client, game_of(TWO, "Ada", "Bo"), "2026-01-02", group_name="Once")
    hint = soup_of(db_client.get(f"{group}?lang=en")).select_one("#standing .hint").get_text()
    assert "the rating after each of the last 2 games" in " ".join(hint.split())


def test_a_rating_that_rounds_to_zero_shows_no_minus_sign(db_client):
    """Issue 33: a rating shown as "-0.0" (French "-0,0"). Ada 1st, Bo 2nd, Cy 3rd (a wild
    dragon, −3), then Cy beats Bo: Cy's rating is −0.018 (mu 22.907, sigma 7.642), shown 0.0."""
    phone = db_client
    three = game_of(SHARED, "Ada", "Bo", "Cy")
    three["players"][1]["kingdom"][0][1] = "plain"  # Bo's dwarves without their mountain: 0
    three["players"][2]["kingdom"][0][0] = "dragon"  # Cy's wild dragon: −3
    save(phone, three, "2026-03-01", group_name="Friday")
    save(phone, game_of(TWO, "Cy", "Bo"), "2026-03-02")
    group = BeautifulSoup(phone.get("/groups").data, "lxml").select_one("#groups a")["href"]
    for language, zero in (("en", "0.0"), ("fr", "0,0")):
        page = soup_of(phone.get(f"{group}?lang={language}"))
        cy = next(row for row in rows(page) if row[0] == "Cy")
        assert cy[1] == zero, language
        path = next(tr for tr in page.select("#rating-paths tbody tr") if tr.th.get_text() == "Cy")
        assert [td.get_text() for td in path.select("td")][:2] == ["-3.6" if language == "en" else "-3,6", zero]
        assert "-0.0" not in page.get_text() and "-0,0" not in page.get_text()


def test_the_pages_numbers_never_show_a_negative_zero(app):
    """The one formatting point of every page's numbers (the ``format_decimal`` of the templates)."""
    for language, shown in (("en", ["0.0", "0.0", "-0.1", "0"]), ("fr", ["0,0", "0,0", "-0,1", "0"])):
        with app.test_request_context(f"/?lang={language}"):
            page = render_template_string(
                "{{ format_decimal(-0.04, '0.0') }}|{{ format_decimal(-0.0, '0.0') }}"
                "|{{ format_decimal(-0.06, '0.0') }}|{{ format_decimal(-0.0) }}"
            )
        assert page.split("|") == shown, language

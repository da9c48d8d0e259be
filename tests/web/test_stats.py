"""Player stats computed by the database, History paged by key, exports streamed
(issue 12 items 7 and 8, issue 14 item 3), on SQLite and PostgreSQL.

Times are never asserted (bench/history.py measures them); what is asserted is
the shape that keeps them flat: no OFFSET, an index read in order, a bounded
number of statements and of chart points, a streamed export whose memory does
not grow with the number of games.
"""

from __future__ import annotations

import copy
import csv
import io
import tracemalloc

import pytest
from sqlalchemy import event

from scorekeeper.store import db
from scorekeeper.store import games as store
from scorekeeper.store.stats import CHART_POINTS, player_stats
from tests.bulk import add_games, make_group
from tests.conftest import CASE_FILES, load_case
from tests.web.test_games import FOUR, TIE, save, soup_of

TWO = load_case(next(p for p in CASE_FILES if p.name.startswith("02-")))


def named(game: dict, *names: str) -> dict:
    """*game* with its seats renamed, in seat order (the kingdoms, and so the places, stay)."""
    game = copy.deepcopy(game)
    for player, name in zip(game["players"], names, strict=True):
        player["name"] = name
    return game


def four_evenings(client) -> dict[str, str]:
    """Four games of Ada, Bo, Cy and Di; returns the read-only path of each.

    Seat totals and places (tests/data/cases): 19 = 11, 13, 30, 33 → places
    4, 3, 2, 1; 18 = 2, 2, 0 → 1, 1, 3 (a shared place 1); 02 = 21, 0 → 1, 2.
    """
    paths = {}
    paths["g1"], _ = save(client, named(FOUR["game"], "Ada", "Bo", "Cy", "Di"), played_on="2026-11-01")
    paths["g2"], _ = save(client, named(FOUR["game"], "Di", "Cy", "Bo", "Ada"), played_on="2026-11-02")
    paths["g3"], _ = save(client, named(TIE["game"], "Ada", "Cy", "Bo"), played_on="2026-11-03")
    paths["g4"], _ = save(client, named(TWO["game"], "Ada", "Di"), played_on="2026-11-04")
    return paths


def test_player_stats_worked_out_by_hand(db_client):
    paths = four_evenings(db_client)
    soup = soup_of(db_client.get("/player?name=ada&lang=en"))
    value = {tr["id"]: tr.find("td").get_text() for tr in soup.select("#stats tr")}
    # Ada: g1 place 4 (11), g2 place 1 (33), g3 place 1 shared with Cy (2), g4 place 1 (21)
    assert value["stat-games"] == "4"
    assert value["stat-wins"] == "2"  # g2, g4
    assert value["stat-shared-wins"] == "1"  # g3 (R7.4)
    assert value["stat-streak"] == "3"  # g2, g3, g4: a shared win keeps the streak
    assert value["stat-average"] == "16.8"  # 67 / 4 = 16.75
    assert soup.select_one("#best-game")["href"] == paths["g2"] and value["stat-best"] == "33"
    sizes = {tr["id"]: [td.get_text() for td in tr.select("td")] for tr in soup.select("#table-sizes tbody tr")}
    assert sizes == {"players-2": ["1", "1", "100%"], "players-3": ["1", "1", "100%"], "players-4": ["2", "1", "50%"]}
    h2h = {
        tr.th.get_text(): [td.get_text() for td in tr.select("td")] for tr in soup.select("#head-to-head tr.opponent")
    }
    # vs Bo: g1 lost (4 v 3), g2 won (1 v 2), g3 won (1 v 3); vs Cy: g1 lost, g2 won, g3 shared (neither);
    # vs Di: g1 lost (4 v 1), g2 won (1 v 4), g4 won (1 v 2)
    assert h2h == {"Bo": ["3", "2", "1"], "Cy": ["3", "1", "1"], "Di": ["3", "2", "1"]}
    assert len(soup.select("#chart svg circle")) == 4
    assert [li["data-id"] for li in soup.select("#history li.game")] == [
        paths[g].removeprefix("/g/") for g in ("g4", "g3", "g2", "g1")
    ]
    di = soup_of(db_client.get("/player?name=DI"))
    assert di.select_one("#stat-streak td").get_text() == "0"  # g4: place 2
    german = soup_of(db_client.get("/player?name=ada&lang=de"))
    assert german.select_one("#players-4 td:last-child").get_text().replace("\xa0", " ") == "50 %"
    assert german.select_one("#head-to-head-heading").get_text() == "Direkter Vergleich"


def test_stats_history_and_exports_read_only_their_scope(db_app):
    """A group's scope: its games only, a player as its roster entry (a "Bo" of
    another group is another person)."""
    with db_app.app_context():
        ours, theirs = make_group("Ours"), make_group("Theirs")
        add_games(30, group=ours, seed=1)
        add_games(12, group=theirs, seed=2)
        add_games(5, seed=3)  # outside any group: only the server-wide scope sees them
        mine, everyone = store.Scope((ours.id,)), store.EVERY_GAME
        assert store.history(scope=mine).total == 30 and store.history(scope=everyone).total == 47
        assert len(list(store.all_games(mine))) == 30
        ada = player_stats("ada", mine)
        assert ada is not None and ada.games == 30  # the first seat of every game
        assert player_stats("ADA", everyone).games == 47
        assert all(other.games <= 30 for other in ada.head_to_head)
        assert store.history("ada", scope=store.Scope((theirs.id,))).total == 12
        assert player_stats("Nobody", mine) is None


def test_history_and_player_pages_read_an_index_from_the_key(db_app):
    """No OFFSET anywhere; the oldest page of a player's games is read off the
    index in order as the newest is (SQLite's plan: no sort of all the rows)."""
    db_app.config["OPEN_HISTORY"] = True  # games outside any group: the server-wide history
    with db_app.app_context():
        add_games(150, seed=4)
    client = db_app.test_client()
    statements: list[tuple[str, object]] = []
    with db_app.app_context():
        engine = db.engine

    def remember(conn, cursor, statement, parameters, context, executemany):
        statements.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", remember)
    try:
        oldest = soup_of(client.get("/games?oldest=1"))
        older = soup_of(client.get(soup_of(client.get("/games?player=Bo")).select_one("#older")["href"]))
        player = soup_of(client.get("/player?name=Ada&oldest=1"))
    finally:
        event.remove(engine, "before_cursor_execute", remember)
    assert oldest.select_one("#shown").get_text() == "131–150 of 150"
    assert older.select_one("#shown").get_text().startswith("21–")  # Bo plays about a third of them
    assert player.select_one("#shown").get_text() == "141–150 of 150"  # ten a page
    # (SQLite's dialect writes every LIMIT as "LIMIT ? OFFSET ?" with an offset of 0)
    offsets = [params[-1] for sql, params in statements if "OFFSET" in sql.upper()]  # type: ignore[index]
    assert statements and all(offset == 0 for offset in offsets)
    stats_page = player.select_one("#chart svg")
    assert len(stats_page.select("circle")) <= CHART_POINTS  # 150 games: averages of runs
    with db_app.app_context():
        if db.engine.dialect.name == "sqlite":
            connection = db.session.connection()
            for sql, parameters in statements:
                if "ORDER BY" in sql and "LIMIT" in sql:
                    rows = connection.exec_driver_sql("EXPLAIN QUERY PLAN " + sql, parameters).all()
                    plan = " ".join(str(row[-1]) for row in rows)
                    assert "TEMP B-TREE FOR ORDER BY" not in plan, (sql, plan)


def test_exports_start_with_a_bom_split_on_semicolons_for_german_and_neutralise_full_width_formulas(db_client):
    save(db_client, location="＝1+2", notes="＠SUM(A1)")
    response = db_client.get("/games.csv")
    assert response.is_streamed
    text = response.get_data(as_text=True)
    assert text.startswith("\ufeffgame,date,")
    rows = list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))
    assert rows[0]["location"] == "'＝1+2" and rows[0]["notes"] == "'＠SUM(A1)"
    semicolons = db_client.get("/games.csv?sep=semicolon").get_data(as_text=True)
    assert semicolons.startswith("\ufeffgame;date;ruleset;")
    rows = list(csv.DictReader(io.StringIO(semicolons.removeprefix("\ufeff")), delimiter=";"))
    assert [int(r["total"]) for r in rows] == [p["total"] for p in FOUR["expected"]["players"]]
    history_de = soup_of(db_client.get("/games?lang=de"))
    assert history_de.select_one("#export-csv")["href"] == "/games.csv?sep=semicolon"
    assert soup_of(db_client.get("/games?lang=en")).select_one("#export-csv")["href"] == "/games.csv"
    public = rows[0]["game"]
    assert soup_of(db_client.get(f"/g/{public}?lang=de")).select_one("#export-csv")["href"].endswith("sep=semicolon")
    one = db_client.get(f"/g/{public}.csv?sep=semicolon").get_data(as_text=True)
    assert one.startswith("\ufeffgame;")
    whole = db_client.get("/games.json")
    assert whole.is_streamed and [g["location"] for g in whole.get_json()["games"]] == ["＝1+2"]


def _export_peak(app, path: str) -> int:
    """Peak Python memory (bytes, tracemalloc) while the export at *path* is read chunk by chunk."""
    client = app.test_client()
    tracemalloc.start()
    try:
        response = client.get(path, buffered=False)
        for _ in response.response:
            pass
        response.close()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("path", ["/games.csv", "/games.json"])
def test_export_memory_stays_flat_however_many_games(db_app, path):
    """The games are read 200 at a time (store.all_games): past a few batches,
    more games cost no more memory (read all at once, it would grow with them)."""
    db_app.config["OPEN_HISTORY"] = True  # games outside any group: the server-wide export
    with db_app.app_context():
        add_games(400, seed=5)
    small = _export_peak(db_app, path)
    with db_app.app_context():
        add_games(800, seed=6)
    large = _export_peak(db_app, path)  # three times the games
    assert large < small * 1.5, (small, large)


def test_kept_stats_follow_a_correction_a_deletion_and_a_new_game(db_client):
    """The figures are kept between views (store.stats); any change to the player's games shows at once."""
    from tests.conftest import form_data

    def streak_and_wins() -> tuple[str, str]:
        soup = soup_of(db_client.get("/player?name=Ada"))
        return soup.select_one("#stat-streak td").get_text(), soup.select_one("#stat-wins td").get_text()

    save(db_client, named(TWO["game"], "Ada", "Di"), played_on="2026-11-01")
    public, private = save(db_client, named(TWO["game"], "Ada", "Di"), played_on="2026-11-02")
    assert streak_and_wins() == ("2", "2")
    swapped = form_data(named(TWO["game"], "Di", "Ada")) | {"based_on": 1, "played_on": "2026-11-02"}
    assert db_client.post(private + "/edit", data=swapped).status_code == 303  # now Di won
    assert streak_and_wins() == ("0", "1")
    assert db_client.post(private + "/delete", data={"confirm": "yes"}).status_code == 303
    assert streak_and_wins() == ("1", "1")
    save(db_client, named(TWO["game"], "Ada", "Di"), played_on="2026-11-03")
    assert streak_and_wins() == ("2", "2")

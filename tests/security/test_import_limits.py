"""One import must not tie up a worker or slip past the save limit (issue 14, item 1).

Found: 100,000 bad Legend ids in one file took 5.6 s and a 4.9 MB page; a
7.6 MB file ran until gunicorn killed the worker; 15,000 games went in through
15 requests, each counted as one save.
"""

from __future__ import annotations

import copy
import io
import json
import logging

from bs4 import BeautifulSoup
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from scorekeeper.engine import GameErrors
from scorekeeper.store.exchange import read_games
from tests.conftest import CASE_FILES, load_case, make_test_app

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))["game"]


def hundred_thousand_bad_legends() -> dict:
    game = copy.deepcopy(FOUR)
    game["players"][0]["legends"] = [f"no-such-legend-{i}" for i in range(100_000)]
    return game


def post_import(client, document: object, query: str = ""):
    # encoded here, in memory: the test client would spool a large body to a file it never closes
    boundary, body = encode_multipart({"file": FileStorage(io.BytesIO(json.dumps(document).encode()), "games.json")})
    return client.post("/games/import" + query, data=body, content_type=f"multipart/form-data; boundary={boundary}")


def posted_unread(client, document: object) -> tuple[object, int]:
    """Post *document* as an import whose body the test can see being read: ``(the answer,
    how many of its bytes the app read)``."""
    boundary, body = encode_multipart({"file": FileStorage(io.BytesIO(json.dumps(document).encode()), "games.json")})
    stream = io.BytesIO(body)
    response = client.post(
        "/games/import",
        input_stream=stream,
        content_length=len(body),
        content_type=f"multipart/form-data; boundary={boundary}",
    )
    return response, stream.tell()


def listed_errors(response) -> list[str]:
    return [li.get_text() for li in BeautifulSoup(response.data, "lxml").select("#form-errors li")]


def test_an_import_lists_50_problems_and_counts_the_rest_in_the_pages_language(tmp_path):
    client = make_test_app(tmp_path, WTF_CSRF_ENABLED=False).test_client()
    english = post_import(client, hundred_thousand_bad_legends())
    assert english.status_code == 422
    errors = listed_errors(english)
    assert len(errors) == 51
    assert "'no-such-legend-0' is not a Legend id" in errors[0]
    assert "'no-such-legend-49' is not a Legend id" in errors[49]
    assert errors[50] == "… and 99,950 more problems"
    assert len(english.data) < 20_000  # not 4.9 MB of errors
    german = post_import(client, hundred_thousand_bad_legends(), "?lang=de")
    assert listed_errors(german)[50] == "… und 99.950 weitere Probleme"
    assert client.get("/games.json").get_json() == {"games": []}


def test_problems_past_the_list_are_counted_not_built():
    """What keeps the check quick: of 100,000 problems, 50 become error
    objects (each is then written as a sentence); the rest are a count."""
    try:
        read_games(hundred_thousand_bad_legends())
    except GameErrors as problems:
        assert (len(problems.errors), problems.more, problems.count) == (50, 99_950, 100_000)
    else:
        raise AssertionError("100,000 unknown Legend ids were accepted")
    history = {"games": [hundred_thousand_bad_legends(), FOUR, {"players": []}]}
    try:
        read_games(history)
    except GameErrors as problems:  # game 3's problem is counted too, after the 50 kept of game 1
        assert (len(problems.errors), problems.count) == (50, 100_001)
        assert {problem.game for problem in problems.errors} == {1}


def test_15000_games_in_15_imports_are_refused_under_the_default_limit(tmp_path):
    """The default limit is 30 saves a minute and 300 an hour: each imported game is one of them."""
    client = make_test_app(tmp_path, WTF_CSRF_ENABLED=False).test_client()
    history = {"games": [FOUR | {"date": "2026-11-01"}] * 1000}
    for _ in range(15):
        response = post_import(client, history)
        assert response.status_code == 429
        (message,) = listed_errors(response)
        assert message == (
            "The file holds 1,000 games, more than your address may still save just now "
            "(at most 30 in 1 minute). Wait, or split the file into smaller ones."
        )
    german = post_import(client, history, "?lang=de")
    assert "Die Datei enthält 1.000 Partien" in listed_errors(german)[0]
    assert "(höchstens 30 in 1 Minute)" in listed_errors(german)[0]
    assert client.get("/games.json").get_json() == {"games": []}


def test_each_imported_game_counts_as_one_save(tmp_path):
    client = make_test_app(tmp_path, WTF_CSRF_ENABLED=False, SAVE_RATE_LIMIT="25 per hour").test_client()
    ten = {"games": [FOUR | {"date": "2026-11-01"}] * 10}
    assert [post_import(client, ten).status_code for _ in range(3)] == [200, 200, 429]  # 10, 20, not 30
    assert len(client.get("/games.json").get_json()["games"]) == 20
    # the refused import cost one save (every import counts, refused ones too): 4 of 5 are left
    assert [post_import(client, FOUR).status_code for _ in range(5)] == [200] * 4 + [429]
    assert len(client.get("/games.json").get_json()["games"]) == 24


def test_import_size_and_game_count_are_settings(tmp_path):
    client = make_test_app(
        tmp_path, WTF_CSRF_ENABLED=False, IMPORT_MAX_GAMES=5, IMPORT_MAX_BYTES=1024 * 1024
    ).test_client()
    six = post_import(client, {"games": [FOUR] * 6})
    assert six.status_code == 422
    assert listed_errors(six) == ["At most 5 games can be imported at once, not 6"]
    assert post_import(client, {"games": [FOUR] * 5}).status_code == 200
    large = post_import(client, FOUR | {"notes": "n" * (1024 * 1024)})
    assert large.status_code == 413
    assert "may be up to 1 MB" in large.get_data(as_text=True)


def test_an_import_over_the_save_limit_is_refused_before_its_body_is_read(tmp_path):
    """Issue 32, item 6: an 8 MiB history was read and parsed (about a second of CPU under
    load) before the save limit refused it. The limit counts one save as the request comes in,
    before its body is read: an address with no save left is refused with nothing read."""
    client = make_test_app(tmp_path, WTF_CSRF_ENABLED=False, SAVE_RATE_LIMIT="3 per minute").test_client()
    history = {"games": [FOUR | {"date": "2026-11-01"}] * 3}
    assert post_import(client, history).status_code == 200  # the address's 3 saves
    refused, read = posted_unread(client, {"games": [FOUR | {"date": "2026-11-02"}] * 200})
    assert refused.status_code == 429
    assert read == 0
    assert listed_errors(refused) == [
        "Your address may save at most 3 games in 1 minute and has no save left just now; "
        "the file was not read. Wait, then import it again."
    ]
    assert len(client.get("/games.json").get_json()["games"]) == 3


def test_files_too_large_for_the_limit_are_read_only_while_the_address_has_saves(tmp_path):
    """A refused import counts (one save): a file that can never fit, posted again and again, is
    read as many times as the address has saves, then refused unread (it was read every time)."""
    client = make_test_app(tmp_path, WTF_CSRF_ENABLED=False, SAVE_RATE_LIMIT="4 per minute").test_client()
    hundred = {"games": [FOUR | {"date": "2026-11-01"}] * 100}
    answers = [posted_unread(client, hundred) for _ in range(8)]
    assert [response.status_code for response, _ in answers] == [429] * 8
    assert [read > 0 for _, read in answers] == [True] * 4 + [False] * 4
    assert listed_errors(answers[0][0])[0].startswith("The file holds 100 games, more than your address may")
    assert listed_errors(answers[-1][0])[0].startswith("Your address may save at most 4 games")


def test_a_file_over_the_size_is_refused_unread_and_the_limits_keep_their_store(tmp_path, caplog):
    """The save limit read the file to count its games: a file over ``IMPORT_MAX_BYTES`` raised
    its 413 inside the limit's count, which Flask-Limiter took for its store failing: the
    process went on counting alone, in memory (with Redis, each process its own limits)."""
    client = make_test_app(tmp_path, WTF_CSRF_ENABLED=False, IMPORT_MAX_BYTES=4096).test_client()
    with caplog.at_level(logging.WARNING, logger="flask-limiter"):
        refused, read = posted_unread(client, FOUR | {"notes": "n" * 5000})
    assert refused.status_code == 413
    assert read == 0
    assert not [record.getMessage() for record in caplog.records if record.name == "flask-limiter"]

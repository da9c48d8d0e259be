"""Fuzzing every entry point with hypothesis: random and malformed form data, JSON
bodies, game files, links and paths. Never a 5xx, never a traceback, always a
message; a stored game is never changed by input that is refused."""

from __future__ import annotations

import json
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import CASE_FILES, examples, form_data, load_case, make_test_app, run_cli

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))
CARDS = ["forest", "swamp", "mountain", "plain", "elves", "dwarves", "humans", "goblins", "dragon", "portal"]
FUZZ = settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

text = st.text(alphabet=st.characters(codec="utf-8"), max_size=60) | st.sampled_from(
    ["", " ", "<script>alert(1)</script>", "=1+1", "\u202e", "\x00", "9" * 400, "☠" * 41, "Ada", "forest"]
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(10**30), max_value=10**30) | st.floats() | text,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(text, children, max_size=5),
    max_leaves=30,
)


def kingdom(rows: int = 4, columns: int = 4):
    row = st.lists(st.sampled_from(CARDS) | text, min_size=columns, max_size=columns)
    return st.lists(row, min_size=rows, max_size=rows)


games = st.fixed_dictionaries(
    {
        "ruleset": st.sampled_from(["pocket", "classic", "speed", None, 3]),
        "players": st.lists(
            st.fixed_dictionaries(
                {
                    "name": text | st.integers() | st.none(),
                    "kingdom": kingdom() | kingdom(3, 5) | kingdom(5, 4) | json_values,
                    "legends": st.lists(st.sampled_from(["tribes-elves", "four-tribes", "nope"]) | text, max_size=4)
                    | json_values,
                }
            ),
            max_size=6,
        )
        | st.sampled_from([[], None, "x"]),
    }
)


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory):
    return make_test_app(
        tmp_path_factory.mktemp("fuzz"), SECRET_KEY="fuzz", WTF_CSRF_ENABLED=False, RATELIMIT_ENABLED=False
    )


@pytest.fixture(scope="module")
def fuzz_client(fuzz_app):
    return fuzz_app.test_client()


@pytest.fixture(scope="module")
def saved_game(fuzz_client):
    """A saved game that no refused input may change: (public path, private path, its JSON)."""
    token = fuzz_client.post("/", data=form_data(FOUR["game"])).headers["Location"].removeprefix("/sheet/")
    private = fuzz_client.post("/games", data={"token": token}).headers["Location"]
    public = "/g/" + private.split("/")[2]
    return public, private, fuzz_client.get(public + ".json").get_json()


def assert_handled(response) -> None:
    assert response.status_code < 500, response.data[:500]
    assert b"Traceback" not in response.data


@FUZZ
@given(games)
def test_api_answers_every_game_object(fuzz_client, game):
    response = fuzz_client.post("/api/score", json=game)
    assert_handled(response)
    body = response.get_json()
    assert (response.status_code == 200 and "players" in body) or (response.status_code == 400 and body["errors"])


@FUZZ
@given(st.binary(max_size=300) | json_values.map(lambda v: json.dumps(v).encode()))
def test_api_answers_every_body(fuzz_client, body):
    response = fuzz_client.post("/api/score", data=body, content_type="application/json")
    assert_handled(response)
    assert response.status_code in (200, 400)


field_names = st.sampled_from(
    ["ruleset", "played_on", "action", "players-0-name", "players-1-name", "players-4-name", "players-0-legends"]
    + [f"players-{p}-cells-{c}" for p in (0, 1, 2, 7) for c in (0, 5, 15, 16)]
    + ["players--1-name", "players-x-cells-1", "players-99999-name", "based_on", "location", "notes", "token"]
)
form_bodies = st.dictionaries(field_names | text, text | st.sampled_from(CARDS), max_size=25)


@FUZZ
@given(form_bodies, st.sampled_from(["score", "add", "remove-0", "remove-9", "remove-x", "", "☠"]))
def test_new_game_form_answers_every_post(fuzz_client, fields, action):
    response = fuzz_client.post("/", data={**fields, "action": action})
    assert_handled(response)
    assert response.status_code in (200, 303, 400, 422)


@FUZZ
@given(form_bodies)
def test_refused_corrections_never_change_the_saved_game(fuzz_client, saved_game, fields):
    public, private, before = saved_game
    response = fuzz_client.post(private + "/edit", data=fields)
    assert_handled(response)
    if response.status_code != 303:
        assert fuzz_client.get(public + ".json").get_json() == before


@FUZZ
@given(st.text(alphabet=string.ascii_letters + string.digits + "-_.%~", max_size=80), form_bodies)
def test_guessed_links_find_nothing_and_change_nothing(fuzz_client, saved_game, guess, fields):
    public, _, before = saved_game
    for method, path in [
        ("get", f"/sheet/{guess}"),
        ("get", f"/sheet/{guess}/edit"),
        ("get", f"/g/{guess}"),
        ("get", f"{public}/{guess}"),
        ("post", f"{public}/{guess}/delete"),
        ("post", f"{public}/{guess}/edit"),
        ("post", "/games"),
    ]:
        response = getattr(fuzz_client, method)(path, data=fields | {"token": guess} if method == "post" else None)
        assert_handled(response)
    assert fuzz_client.get(public + ".json").get_json() == before


@pytest.mark.parametrize("players", [0, 1, 5, 100])
def test_player_counts_refused_everywhere(fuzz_client, players):
    game = {"players": [dict(FOUR["game"]["players"][0], name=f"P{i}", legends=[]) for i in range(players)]}
    response = fuzz_client.post("/api/score", json=game)
    assert response.status_code == 400 and "2 to 4 players" in response.get_json()["errors"][0]
    result = run_cli(["score", "-"], input=json.dumps(game))
    assert result.exit_code == 2 and "2 to 4 players" in result.output


@FUZZ
@given(games | json_values)
def test_cli_answers_every_game_file(game):
    try:
        raw = json.dumps(game)
    except (ValueError, TypeError):
        return
    result = run_cli(["score", "-", "--format", "json"], input=raw)  # any other exception is raised here
    assert result.exit_code in (0, 2), result.output
    if result.exit_code == 2:
        assert result.output.startswith("error: ") or "error: " in result.output


@FUZZ
@given(st.binary(max_size=200))
def test_cli_answers_every_byte_string(data):
    result = run_cli(["score", "-"], input=data)  # any other exception is raised here
    assert result.exit_code in (0, 2)

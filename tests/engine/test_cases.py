"""The 20 worked games of tests/data/cases, replayed through the engine.

Each file names the rule it illustrates ("rule"), the game as entered
("game") and the score sheet a person computed by hand from RULES.md
("expected": ruleset, and per player name, the seven categories, total, place).
"""

import json
import os
from pathlib import Path

import pytest

from scorekeeper.engine import Game, Row, score_game
from scorekeeper.words import ENGLISH
from tests.conftest import CASE_FILES, DATA
from tests.conftest import load_case as load

CASES_DIR = DATA / "cases"


def case_id(path: Path) -> str:
    """``R5.3-13-four-dragons.json``: the rule, then the file name."""
    return f"{load(path)['rule']}-{path.name}"


def test_all_twenty_worked_games_are_collected():
    assert len(CASE_FILES) == 20
    assert [p.name[:2] for p in CASE_FILES] == [f"{n:02d}" for n in range(1, 21)]


@pytest.mark.parametrize("path", CASE_FILES, ids=case_id)
def test_worked_game_matches_expected_sheet(path):
    case = load(path)
    expected = case["expected"]

    sheet = score_game(Game.from_dict(case["game"]))

    assert sheet.game.ruleset.id == expected["ruleset"]
    assert [r.player.name for r in sheet.results] == [p["name"] for p in expected["players"]]
    for result, want in zip(sheet.results, expected["players"], strict=True):
        assert {row.value: value for row, value in result.rows.items()} == want["categories"], want["name"]
        assert result.total == want["total"], want["name"]
        assert result.place == want["place"], want["name"]


@pytest.mark.parametrize("path", CASE_FILES, ids=case_id)
def test_worked_game_sheet_dict_matches_expected(path):
    """The JSON shape the CLI and the web API serve carries the same figures."""
    case = load(path)
    expected = case["expected"]

    sheet = ENGLISH.sheet(score_game(Game.from_dict(case["game"])))

    assert sheet["ruleset"] == expected["ruleset"]
    got = [{key: p[key] for key in ("name", "categories", "total", "place")} for p in sheet["players"]]
    assert got == expected["players"]
    assert all(list(p["categories"]) == [row.value for row in Row] for p in sheet["players"])


#: The shared folder beside the checkout that the cases are copied from.
SHARED_CASES = Path(
    os.environ.get("SCOREKEEPER_SHARED_CASES") or Path(__file__).resolve().parents[2].parent / "shared" / "cases"
)


def test_every_shared_case_is_copied_under_its_own_name():
    manifest = json.loads((CASES_DIR.parent / "cases-manifest.json").read_text(encoding="utf-8"))
    assert manifest["cases"] == sorted(path.name for path in CASES_DIR.glob("*.json"))


def test_the_copied_cases_are_the_shared_cases_unchanged():
    """Byte for byte, every file of ../shared/cases (or ``SCOREKEEPER_SHARED_CASES``),
    and no other: skipped without that folder, a failure in CI (``SCOREKEEPER_REQUIRE_SHARED_CASES=1``)."""
    if not SHARED_CASES.is_dir():
        reason = f"no shared cases folder at {SHARED_CASES} (set SCOREKEEPER_SHARED_CASES)"
        if os.environ.get("SCOREKEEPER_REQUIRE_SHARED_CASES") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    manifest = json.loads((CASES_DIR.parent / "cases-manifest.json").read_text(encoding="utf-8"))
    shared = sorted(path.name for path in SHARED_CASES.glob("*.json"))
    assert shared == manifest["cases"]
    changed = [name for name in shared if (SHARED_CASES / name).read_bytes() != (CASES_DIR / name).read_bytes()]
    assert changed == []

"""The repository's example games are games a real deck allows (R1): whoever tries one first
sees no deck warning (issue 35)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.engine import Game, score_game

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.json"))


def test_there_are_examples():
    assert EXAMPLES


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.name)
def test_an_example_game_carries_no_deck_warning(path):
    sheet = score_game(Game.from_dict(json.loads(path.read_text(encoding="utf-8"))))
    assert sheet.warnings == ()

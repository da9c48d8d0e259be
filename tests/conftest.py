"""Fixtures shared by every test folder: the app factory, a client, the worked games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper import create_app

DATA = Path(__file__).parent / "data"
CASE_FILES = sorted((DATA / "cases").glob("*.json"))


def load_case(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False})


@pytest.fixture
def client(app):
    return app.test_client()


def form_data(game: dict, action: str = "score") -> dict:
    """The fields a browser posts for *game* (a game file object), WTForms naming."""
    data: dict = {"ruleset": game.get("ruleset", "pocket"), "action": action}
    for i, player in enumerate(game["players"]):
        data[f"players-{i}-name"] = player["name"]
        cells = [card for row in player["kingdom"] for card in row]
        for m, card in enumerate(cells):
            data[f"players-{i}-cells-{m}"] = card
        data[f"players-{i}-legends"] = list(player.get("legends", []))
    return data

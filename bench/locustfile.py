"""Locust users for bench/load.py: enter, score, save and view games through the HTML forms.

Every saved game is recorded (public id and the game as sent) to the JSON
lines file named by LOAD_RECORD, so that load.py can check afterwards that
each one reads back equal to what was sent.
"""

from __future__ import annotations

import json
import os
import random
import re
import threading

from locust import HttpUser, between, events, task

CARDS = ["forest", "swamp", "mountain", "plain", "elves", "dwarves", "humans", "goblins", "dragon", "portal"]
LEGENDS = [
    "tribes-elves", "tribes-dwarves", "tribes-humans", "tribes-goblins", "alliance-humans-elves",
    "alliance-humans-dwarves", "battle-goblins-humans", "battle-goblins-elves", "battle-goblins-dwarves",
    "battle-elves-dwarves", "lands-plain", "lands-swamp", "lands-mountain", "lands-forest", "four-tribes",
]  # fmt: skip
CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
_record_lock = threading.Lock()
_counter = iter(range(10**9))


def random_game() -> dict:
    players = random.randint(2, 4)
    legends = random.sample(LEGENDS, k=random.randint(0, 6))
    serial = next(_counter)
    return {
        "ruleset": random.choice(["pocket", "classic"]),
        "players": [
            {
                "name": f"Load {serial} P{i}",
                "kingdom": [[random.choice(CARDS) for _ in range(4)] for _ in range(4)],
                "legends": legends[i::players],
            }
            for i in range(players)
        ],
        "date": f"2026-11-{random.randint(1, 28):02d}",
        "location": random.choice(["", "Club", "Café <b>Drako</b>"]),
        "notes": random.choice(["", "=1+1", "good game"]),
    }


def form_fields(game: dict, csrf: str) -> dict:
    fields = {"csrf_token": csrf, "ruleset": game["ruleset"], "played_on": game["date"], "action": "score"}
    for i, player in enumerate(game["players"]):
        fields[f"players-{i}-name"] = player["name"]
        for m, card in enumerate(card for row in player["kingdom"] for card in row):
            fields[f"players-{i}-cells-{m}"] = card
        fields[f"players-{i}-legends"] = player["legends"]
    return fields


class TablePlayer(HttpUser):
    """Someone at a table: scores a game, saves it, opens it again."""

    wait_time = between(0.2, 1.0)

    @task(3)
    def score_save_and_view(self) -> None:
        form = self.client.get("/", name="GET /")
        game = random_game()
        sheet = self.client.post("/", data=form_fields(game, CSRF.search(form.text)[1]), name="POST / (score)")
        if "/sheet/" not in sheet.url:
            return
        token = sheet.url.rsplit("/", 1)[1]
        csrf = CSRF.search(sheet.text)[1]
        saved = self.client.post(
            "/games",
            data={"csrf_token": csrf, "token": token, "location": game["location"], "notes": game["notes"]},
            name="POST /games (save)",
        )
        match = re.search(r"/g/([\w-]+)", saved.url)  # saving lands on the read-only page
        if not match:
            return
        public_id = match[1]
        with _record_lock, open(os.environ["LOAD_RECORD"], "a", encoding="utf-8") as record:
            record.write(json.dumps({"id": public_id, "game": game}) + "\n")
        self.client.get(f"/g/{public_id}", name="GET /g/<id>")

    @task(2)
    def view_history(self) -> None:
        self.client.get("/games", name="GET /games")

    @task(1)
    def score_by_api(self) -> None:
        game = random_game()
        body = {"ruleset": game["ruleset"], "players": game["players"]}
        self.client.post("/api/score", json=body, name="POST /api/score")


@events.request.add_listener
def _fail_on_5xx(response=None, exception=None, **_kwargs) -> None:
    if response is not None and response.status_code >= 500:
        raise AssertionError("server error")  # counted by locust as a failure

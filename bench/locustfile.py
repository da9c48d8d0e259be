"""Locust users for bench/load.py: enter, score, save, correct and view games through the
HTML forms, download PDFs, look at the history, score through the API.

Every saved game is recorded (public id and the game as sent) to the JSON
lines file named by LOAD_RECORD, and again after each correction, so that
load.py can check afterwards that each one reads back equal to what was last
sent. LOAD_HOSTS (base URLs split by spaces) spreads every request over
several app instances at random: a game is saved through one, read and
corrected through another. A PDF refused with 503 and ``Retry-After`` (the
per-process PDF gate shedding load) is counted into the file LOAD_SHED, not
as an error.
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
BASED_ON = re.compile(r'name="based_on" type="hidden" value="(\d+)"')
PRIVATE = re.compile(r'id="private-link" type="url" readonly value="[^"]*/g/([\w-]+)/([\w-]+)"')
HOSTS = os.environ.get("LOAD_HOSTS", "").split()
_record_lock = threading.Lock()
_counter = iter(range(10**9))
_shed = {"pdf": 0}


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


def record(public_id: str, game: dict | None, pending: bool = False) -> None:
    """Note *game* as what *public_id* now holds; *pending*: sent, answer not yet seen
    (a user stopped at the end of the run may never see it); None: the pending one was refused."""
    line = {"id": public_id, "game": game} | ({"pending": True} if pending else {})
    with _record_lock, open(os.environ["LOAD_RECORD"], "a", encoding="utf-8") as file:
        file.write(json.dumps(line) + "\n")


class TablePlayer(HttpUser):
    """Someone at a table: scores a game, saves it, opens it again, corrects it,
    downloads its PDF, looks at the history."""

    wait_time = between(0.2, 1.0)

    def on_start(self) -> None:
        self.mine: list[tuple[str, str]] = []  # (public id, secret) of the games this user saved

    def url(self, path: str) -> str:
        """*path* on one of LOAD_HOSTS at random (else on --host)."""
        return random.choice(HOSTS) + path if HOSTS else path

    @task(3)
    def score_save_and_view(self) -> None:
        form = self.client.get(self.url("/"), name="GET /")
        game = random_game()
        fields = form_fields(game, CSRF.search(form.text)[1])
        sheet = self.client.post(self.url("/"), data=fields, name="POST / (score)")
        if "/sheet/" not in sheet.url:
            return
        token = sheet.url.rsplit("/", 1)[1]
        csrf = CSRF.search(sheet.text)[1]
        saved = self.client.post(
            self.url("/games"),
            data={"csrf_token": csrf, "token": token, "location": game["location"], "notes": game["notes"]},
            name="POST /games (save)",
        )
        match = PRIVATE.search(saved.text)  # saving lands on the read-only page, the private link shown once
        if not match:
            return
        public_id, secret = match[1], match[2]
        record(public_id, game)
        self.mine.append((public_id, secret))
        self.client.get(self.url(f"/g/{public_id}"), name="GET /g/<id>")

    @task(1)
    def correct(self) -> None:
        """Open one of this user's games for correcting, and save another game over it."""
        if not self.mine:
            return
        public_id, secret = random.choice(self.mine)
        form = self.client.get(self.url(f"/g/{public_id}/{secret}/edit"), name="GET /g/<id>/<secret>/edit")
        game = random_game()
        fields = form_fields(game, CSRF.search(form.text)[1]) | {
            "based_on": BASED_ON.search(form.text)[1],
            "location": game["location"],
            "notes": game["notes"],
        }
        record(public_id, game, pending=True)
        done = self.client.post(
            self.url(f"/g/{public_id}/{secret}/edit"), data=fields, name="POST /g/<id>/<secret>/edit (correct)"
        )
        # back on the game's page: saved; else refused (the form again, at .../edit), nothing changed
        record(public_id, game if done.status_code == 200 and not done.url.endswith("/edit") else None)

    @task(1)
    def pdf(self) -> None:
        """The PDF of one of this user's games (a shed PDF, 503 with Retry-After, is no error)."""
        if not self.mine:
            return
        public_id, _secret = random.choice(self.mine)
        with self.client.get(self.url(f"/g/{public_id}.pdf"), name="GET /g/<id>.pdf", catch_response=True) as got:
            if got.status_code == 503 and got.headers.get("Retry-After"):
                _shed["pdf"] += 1
                got.success()
            elif got.status_code != 200 or not got.content.startswith(b"%PDF"):
                got.failure(f"PDF: {got.status_code}")

    @task(2)
    def view_history(self) -> None:
        self.client.get(self.url("/games"), name="GET /games")

    @task(1)
    def score_by_api(self) -> None:
        game = random_game()
        body = {"ruleset": game["ruleset"], "players": game["players"]}
        self.client.post(self.url("/api/score"), json=body, name="POST /api/score")


@events.request.add_listener
def _fail_on_5xx(response=None, exception=None, **_kwargs) -> None:
    shed = response is not None and response.status_code == 503 and response.headers.get("Retry-After")
    if response is not None and response.status_code >= 500 and not shed:
        raise AssertionError("server error")  # counted by locust as a failure


@events.quitting.add_listener
def _write_shed(**_kwargs) -> None:
    if os.environ.get("LOAD_SHED"):
        with open(os.environ["LOAD_SHED"], "w", encoding="utf-8") as file:
            file.write(str(_shed["pdf"]))

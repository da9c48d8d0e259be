"""How long an import full of errors takes, and how large its answer is.

Run from the repository root::

    .venv/bin/python bench/import_errors.py

Each case is one ``POST /games/import`` through the Flask test client (rate
limits off, so the file is read whatever it holds), built from the 4-player
game of tests/data/cases/19-four-players.json:

- one game with 100,000 unknown Legend ids (1.3 MB, 100,000 problems);
- a history of 1,000 such games with 600 unknown ids each (7.5 MB, 600,000 problems);
- a history of 30 valid games, the most one address may import at once
  under the default save limit (stored).

Prints the status, the time and the size of the page for each.
"""

from __future__ import annotations

import copy
import io
import json
import tempfile
import time
from pathlib import Path

from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from scorekeeper import create_app

GAME = json.loads(next(Path("tests/data/cases").glob("19-*.json")).read_text(encoding="utf-8"))["game"]


def with_bad_legends(count: int) -> dict:
    game = copy.deepcopy(GAME)
    game["players"][0]["legends"] = [f"bad-{i}" for i in range(count)]
    return game


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "bench",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3",
                "WTF_CSRF_ENABLED": False,
                "RATELIMIT_ENABLED": False,
            }
        )
        client = app.test_client()
        cases = [
            ("1 game, 100,000 unknown Legend ids", with_bad_legends(100_000)),
            ("1,000 games, 600 unknown ids each", {"games": [with_bad_legends(600)] * 1000}),
            ("30 valid games", {"games": [GAME | {"date": "2026-11-30"}] * 30}),
        ]
        for label, document in cases:
            upload = FileStorage(io.BytesIO(json.dumps(document).encode()), "games.json")
            boundary, body = encode_multipart({"file": upload})
            started = time.perf_counter()
            answer = client.post("/games/import", data=body, content_type=f"multipart/form-data; boundary={boundary}")
            took = time.perf_counter() - started
            print(
                f"{label:38} {len(body) / 1e6:4.1f} MB  {answer.status_code}  {took:6.2f} s  "
                f"page {len(answer.data) / 1e3:6.0f} kB"
            )


if __name__ == "__main__":
    main()

"""Bytes each page type sends, uncompressed: its HTML plus the CSS and JS it links.

    .venv/bin/python bench/page_weight.py

Through the Flask test client (CSRF on, a throw-away SQLite database): the
empty form, the 4-player form filled for correction (the largest form), the
sheet, a saved game's read-only and private pages, the history and a
player's stats, each in English and German. Target: every page under 60 KB
(61,440 bytes); no page links anything on another host.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper import create_app  # noqa: E402
from tests.conftest import form_data  # noqa: E402

LIMIT = 60 * 1024
CASE = ROOT / "tests" / "data" / "cases" / "19-four-players.json"
LINKED = re.compile(r'<(?:link[^>]+href|script[^>]+src)="([^"]+)"')


def weigh(client, path: str, headers: dict) -> tuple[int, int]:
    html = client.get(path, headers=headers).data
    assets = 0
    for url in LINKED.findall(html.decode()):
        if "://" in url and not url.startswith("http://localhost"):
            raise SystemExit(f"{path} links another host: {url}")
        if url.endswith((".css", ".js")):
            assets += len(client.get(url).data)
    return len(html), assets


def pages(client) -> dict[str, str]:
    game = json.loads(CASE.read_text(encoding="utf-8"))["game"]
    sheet = client.post("/", data=form_data(game)).headers["Location"]
    token = sheet.rsplit("/", 1)[1]
    private = client.post("/games", data={"token": token}).headers["Location"]
    public = private.rsplit("/", 1)[0]
    return {
        "form (2 players, empty)": "/",
        "form (4 players, filled)": sheet + "/edit",
        "sheet (4 players)": sheet,
        "saved game, read-only": public,
        "saved game, private": private,
        "history": "/games",
        "player stats": "/players/Ada",
    }


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "bench",
                "WTF_CSRF_ENABLED": False,
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3",
            }
        )
        client = app.test_client()
        worst = 0
        print(f"{'page':<28} {'lang':<4} {'HTML':>7} {'CSS+JS':>7} {'total':>7}")
        for name, path in pages(client).items():
            for lang in ("en", "de"):
                html, assets = weigh(client, path, {"Accept-Language": lang})
                worst = max(worst, html + assets)
                flag = "" if html + assets < LIMIT else "  over 60 KB"
                print(f"{name:<28} {lang:<4} {html:>7} {assets:>7} {html + assets:>7}{flag}")
        print(f"largest page: {worst} bytes ({worst / 1024:.1f} KB) of {LIMIT} allowed")
        sys.exit(0 if worst < LIMIT else 1)


if __name__ == "__main__":
    main()

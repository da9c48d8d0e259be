"""Requests per second of what users meet, against a plain hello-world Flask app under the same gunicorn.

Run from the repository root (needs Debian's ``wrk``)::

    .venv/bin/python bench/http_throughput.py                # 3 rounds, 10 s per URL, 4 workers
    .venv/bin/python bench/http_throughput.py --rounds 1 --seconds 5
    .venv/bin/python bench/http_throughput.py --saved 100000     # the app's database holding 100,000 games

Starts ``gunicorn -w N`` twice with the same settings: ``bench/hello.py`` (the
three-line Flask app, the baseline) and ``scorekeeper:create_app()``. Then wrk
(from a Lua script of this file's own) hammers, one after the other, in each
round: the hello world, ``/healthz``, one sheet link over and over (cache
hit), a **new game on every request** (each sheet link used once), the
empty form, the form ``POST /`` of a new game (→ 303 to its sheet),
``POST /api/score`` with a new game each time, and the PDF of a new game.
Every real table scores a game nobody has scored before, so the new-game
lines are the ones users feel.

The PDF line runs three times as long (each PDF takes up to seconds under
load). Prints each line's median over the rounds: requests per second, its ratio to
the hello world, the median latency; then, with ``--cpu``, the CPU time per
request of each line in one process (Flask's test client, no server).

Targets (issue "Fast for every new game"): new-game sheet ≥ 0.2, empty form
≥ 0.5, form POST ≥ 0.3 of the hello world.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from datetime import date
from pathlib import Path
from urllib.parse import urlencode

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.engine import Card, Game  # noqa: E402
from scorekeeper.web.links import encode_game  # noqa: E402
from tests.serving.server import gunicorn  # noqa: E402

#: wrk's Lua side: requests read from a file, one per line (method, path, body, tab-separated),
#: each thread taking its own lines in turn so that no request repeats within a run.
LUA = r"""
local lines, id, count, n = {}, 0, 0, 0
local counter = 0
function setup(thread) thread:set("id", counter); counter = counter + 1 end
function init(args)
  for line in io.lines(args[1]) do
    local method, path, body = line:match("([^\t]*)\t([^\t]*)\t?(.*)")
    lines[#lines + 1] = {method, path, body}
  end
  count = #lines
  for i = 2, #args, 2 do wrk.headers[args[i]] = args[i + 1] end
end
function request()
  n = n + 1
  local item = lines[((n - 1) * 2 + id) % count + 1]
  local body = item[3] ~= "" and item[3] or nil
  return wrk.format(item[1], item[2], nil, body)
end
"""


def random_game(rng: random.Random, n: int) -> Game:
    cards = [card.value for card in Card]
    names = ["Quin", "Mads", "Rin", "Yara"]
    return Game.from_dict(
        {
            "ruleset": "pocket",
            "players": [
                {"name": f"{name} {n}", "kingdom": [[rng.choice(cards) for _ in range(4)] for _ in range(4)]}
                for name in names
            ],
        }
    )


def form_body(game: Game, csrf: str) -> str:
    fields: list[tuple[str, str]] = [("csrf_token", csrf), ("ruleset", "pocket"), ("action", "score")]
    for i, player in enumerate(game.players):
        fields.append((f"players-{i}-name", player.name))
        fields += [(f"players-{i}-cells-{m}", card.value) for m, card in enumerate(player.kingdom.cards)]
    return urlencode(fields)


def wrk(base: str, lines: list[tuple[str, str, str]], seconds: int, connections: int, headers: dict) -> tuple:
    """Requests per second and median latency (ms) wrk reaches on *lines*; any answer but 2xx/3xx fails."""
    with tempfile.TemporaryDirectory() as folder:
        script, requests_file = Path(folder) / "bench.lua", Path(folder) / "requests.tsv"
        script.write_text(LUA)
        requests_file.write_text("".join(f"{m}\t{p}\t{b}\n" for m, p, b in lines))
        extra = [str(requests_file)] + [x for pair in headers.items() for x in pair]
        out = subprocess.run(
            ["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "--timeout", "60s", "--latency",
             "-s", str(script), base, "--", *extra],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
    if "Non-2xx" in out:
        raise SystemExit(f"errors from {lines[0][1]}:\n{out}")
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])
    p50 = re.search(r"50%\s+([\d.]+)(us|ms|s)", out)
    scale = {"us": 0.001, "ms": 1, "s": 1000}[p50[2]]
    return rate, float(p50[1]) * scale


#: Packs games into sheet links with the served checkout's own code (its links may be of another version).
ENCODE = """
import json, sys
from datetime import date
from scorekeeper.engine import Game
from scorekeeper.web.links import encode_game
games = json.load(sys.stdin)
print(json.dumps([encode_game(Game.from_dict(game), date(2026, 11, 30)) for game in games]))
"""


def sheet_tokens(games: list[Game], checkout: Path | None) -> list[str]:
    """The sheet-link tokens of *games* as the app of *checkout* (default: this one) writes them."""
    if checkout is None:
        return [encode_game(game, date(2026, 11, 30)) for game in games]
    python = checkout / ".venv" / "bin" / "python"
    data = json.dumps([game.to_dict() for game in games])
    out = subprocess.run(
        [str(python), "-c", ENCODE], input=data, capture_output=True, text=True, check=True, cwd=checkout
    )
    return json.loads(out.stdout)


def scenarios(
    base: str, count: int, rng: random.Random, checkout: Path | None = None, floors: bool = False
) -> dict[str, tuple[list, dict]]:
    """Each line's requests (enough for a run, none repeated) and headers;
    *floors*: also the floor pages of ``bench/floors.py`` (served by its app)."""
    session = requests.Session()
    form = session.get(f"{base}/", timeout=10).text
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form)[1]
    cookie = "; ".join(f"{c.name}={c.value}" for c in session.cookies)
    games = [random_game(rng, n) for n in range(count)]
    tokens = sheet_tokens(games, checkout)
    same = tokens[0]
    posted = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
    lines = {
        "/healthz": ([("GET", "/healthz", "")], {}),
        "sheet, a link already rendered": ([("GET", f"/sheet/{same}", "")], {}),
        "sheet, a new game each request": ([("GET", f"/sheet/{t}", "") for t in tokens[1:]], {}),
        "empty form GET /": ([("GET", "/", "")], {}),
        "form POST / (303 to the sheet)": ([("POST", "/", form_body(game, csrf)) for game in games], posted),
        "POST /api/score, a new game each": (
            [("POST", "/api/score", json.dumps(game.to_dict(), separators=(",", ":"))) for game in games],
            {"Content-Type": "application/json"},
        ),
        "PDF, a new game each request": ([("GET", f"/sheet/{t}.pdf", "") for t in reversed(tokens)], {}),
    }
    if floors:
        lines |= {
            "floor: new visitor's CSRF token": ([("GET", "/floor/csrf", "")], {}),
            "floor: form post read (WTForms)": (
                [("POST", "/floor/form", form_body(game, csrf)) for game in games],
                posted,
            ),
            "floor: new game scored, explained": ([("GET", f"/floor/score/{t}", "") for t in tokens[1:]], {}),
        }
    # the PDF line last: its queued PDFs keep the workers busy for a while after its run
    return {name: lines[name] for name in sorted(lines, key=lambda name: name.startswith("PDF"))}


def cpu_per_request(count: int, rounds: int = 3, warm_up: int = 100) -> dict[str, float]:
    """CPU milliseconds per request of each line in this process (test client, no server):
    the median of *rounds* rounds of *count* requests, after *warm_up* requests
    (a server's process has served games before; each new-game request is still
    a game never seen)."""
    from scorekeeper import create_app

    folder = tempfile.mkdtemp()
    app = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/cpu.sqlite3",
                      "PDF_RATE_LIMIT": "1000000 per minute"})  # fmt: skip
    # As wrk asks: no cookie on a GET (each a new visitor), the form posted with
    # one visitor's cookie and CSRF token; CSRF and rate limits on, as served.
    client = app.test_client(use_cookies=False)
    first = client.get("/")
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', first.get_data(as_text=True))[1]
    cookie = first.headers["Set-Cookie"].split(";")[0]
    from bench.hello import app as hello_app

    hello = hello_app.test_client(use_cookies=False)
    rng = random.Random(2)
    total = warm_up + rounds * count
    games = [random_game(rng, n) for n in range(total + 1)]
    tokens = [encode_game(game, date(2026, 11, 30)) for game in games]
    lines = {
        "hello world (3-line Flask app)": lambda i: hello.get("/"),
        "/healthz": lambda i: client.get("/healthz"),
        "sheet, a link already rendered": lambda i: client.get(f"/sheet/{tokens[0]}"),
        "sheet, a new game each request": lambda i: client.get(f"/sheet/{tokens[i + 1]}"),
        "empty form GET /": lambda i: client.get("/"),
        "form POST / (303 to the sheet)": lambda i: client.post(
            "/",
            data=form_body(games[i], csrf),
            content_type="application/x-www-form-urlencoded",
            headers={"Cookie": cookie},
        ),
        "POST /api/score, a new game each": lambda i: client.post("/api/score", json=games[i].to_dict()),
        "PDF, a new game each request": lambda i: client.get(f"/sheet/{tokens[-1 - i]}.pdf"),
    }
    out = {}
    for name, call in lines.items():
        n, first = (min(count, 10), 3) if "PDF" in name else (count, warm_up)
        for i in range(first):
            call(i)
        spent = []
        for r in range(rounds):
            start = time.process_time()
            for i in range(first + r * n, first + (r + 1) * n):
                assert call(i).status_code in (200, 303), name
            spent.append((time.process_time() - start) * 1000 / n)
        out[name] = statistics.median(spent)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=30000, help="new games prepared per line and round")
    parser.add_argument("--cpu", action="store_true", help="also CPU time per request in one process")
    parser.add_argument("--cpu-only", action="store_true", help="only CPU time per request in one process (no servers)")
    parser.add_argument(
        "--saved", type=int, default=0, metavar="N", help="serve a database holding N saved games (bench/history.py's)"
    )
    parser.add_argument(
        "--checkout",
        type=Path,
        help="serve the app of another checkout (its .venv), e.g. an older commit, for a before/after in one session",
    )
    parser.add_argument(
        "--floors",
        action="store_true",
        help="serve bench/floors.py's app and add its floor pages: the least each line's libraries cost",
    )
    args = parser.parse_args()
    if args.floors and args.checkout:
        parser.error("--floors serves this checkout's app; leave out --checkout")
    if args.cpu_only:
        for name, spent in cpu_per_request(200).items():
            print(f"  {name:34} {spent:8.2f} ms CPU per request")
        return
    if not shutil.which("wrk"):
        raise SystemExit("wrk not found: apt-get install wrk")
    folder = Path(tempfile.mkdtemp())
    if args.saved:  # what every sheet view asks ("saved already?") and a save meet in a database in use
        from bench.history import fill

        fill(f"sqlite:///{folder / 'http.sqlite3'}", args.saved)
    results: dict[str, list[tuple[float, float]]] = {}
    with ExitStack() as stack:
        hello = stack.enter_context(gunicorn("sqlite://", workers=args.workers, app="bench.hello:app", cwd=str(ROOT)))
        other = {"command": args.checkout / ".venv" / "bin" / "gunicorn", "cwd": args.checkout} if args.checkout else {}
        if args.floors:
            other = {"app": "bench.floors:create_app()", "cwd": str(ROOT)}
        base = stack.enter_context(
            gunicorn(f"sqlite:///{folder / 'http.sqlite3'}", workers=args.workers, **other,
                     SCOREKEEPER_PDF_RATE_LIMIT="1000000 per minute", SCOREKEEPER_SAVE_RATE_LIMIT="1000000 per minute")
        )  # fmt: skip
        for round_number in range(args.rounds):
            rng = random.Random(round_number)
            lines = {"hello world (3-line Flask app)": (hello, [("GET", "/", "")], {})}
            for name, (requests_, headers) in scenarios(base, args.games, rng, args.checkout, args.floors).items():
                lines[name] = (base, requests_, headers)
            for name, (url, requests_, headers) in lines.items():
                seconds = args.seconds * 3 if "PDF" in name else args.seconds  # a PDF takes a second or more
                results.setdefault(name, []).append(wrk(url, requests_, seconds, args.connections, headers))
    cpu = cpu_per_request(200) if args.cpu else {}
    baseline = statistics.median(rate for rate, _ in results["hello world (3-line Flask app)"])
    if args.checkout:
        print(f"the app of {args.checkout}")
    print(f"gunicorn, {args.workers} sync workers; wrk 2 threads, {args.connections} connections, "
          f"{args.seconds} s per line; medians of {args.rounds} rounds")  # fmt: skip
    print(f"  {'what':34} {'req/s':>8} {'ratio':>6} {'p50 ms':>8} {'CPU ms/req':>11}")
    for name, runs in results.items():
        rate = statistics.median(r for r, _ in runs)
        p50 = statistics.median(p for _, p in runs)
        spent = f"{cpu[name]:11.2f}" if name in cpu else ""
        print(f"  {name:34} {rate:8.1f} {rate / baseline:6.3f} {p50:8.1f} {spent}")


if __name__ == "__main__":
    main()

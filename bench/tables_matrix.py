"""Shared tables, two checkouts compared in one sitting: bench/tables.py over a matrix of runs.

    .venv/bin/python bench/tables_matrix.py \\
        --checkout old ../old-checkout polling --checkout new . stream \\
        --database-url postgresql://scorekeeper:scorekeeper@127.0.0.1:5432/scorekeeper_test

    # a quick try of the whole matrix
    .venv/bin/python bench/tables_matrix.py --checkout old ../old-checkout polling \\
        --database-url postgresql://… --tables 5 --big 5 --idle 10

Each ``--checkout NAME PATH PHONES`` is served from PATH (its own ``.venv``) and played
by PHONES (``polling``: today's pages; ``stream``: the streamed ones). The blocks, in
this order, each printed as a markdown table once its runs are done (and all again at
the end):

1. each checkout × SQLite and PostgreSQL × ``--tables`` (50, 100, 200, 400), one instance;
2. each checkout, ``--big`` tables (200) on PostgreSQL with two instances (nginx and
   Redis; ``--direct``: half of each table's phones on each instance's port);
3. each checkout, ``--big`` tables on PostgreSQL seated and watching for ``--idle``
   seconds (60), nobody entering anything: the servers' CPU.

Each run is a process of its own (``bench/tables.py … --json``) on a fresh database;
its own report goes to the terminal as it ends. ``--json FILE`` keeps every run's figures.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def run(options: list[str]) -> dict[str, Any] | None:
    """One bench/tables.py run; its figures, or None if it wrote none."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "figures.json"
        done = subprocess.run([sys.executable, str(HERE / "tables.py"), *options, "--json", str(out)])
        if not out.exists():
            print(f"(run {' '.join(options)} failed: exit {done.returncode})", flush=True)
            return None
        return json.loads(out.read_text(encoding="utf-8"))


def cpu(f: dict[str, Any]) -> str:
    database = f.get("database_cpu_percent")
    return f"{f['server_cpu_percent']:.0f} %" + (f" (+ database {database:.0f} %)" if database is not None else "")


def kind(f: dict[str, Any], name: str) -> str:
    count, p50, p95 = f["kinds"].get(name, (0, float("nan"), float("nan")))
    return f"{p50 * 1000:.0f} / {p95 * 1000:.0f} ms"


PLAY = (
    ["checkout", "database", "tables", "change→sight p50", "p95", "requests/s", "errors", "locked games right"]
    + ["enter a card p50 / p95", "server CPU (one core)", "client CPU"],
    lambda f: [
        f"{f['delay_p50']:.2f} s",
        f"{f['delay_p95']:.2f} s",
        f"{f['rps']:.0f}",
        str(len(f["errors"])),
        f"{f['games_right']}/{f['tables']}",
        kind(f, "enter a card"),
        cpu(f),
        f"{f['client_cpu_percent']:.0f} %",
    ],
)
IDLE = (
    ["checkout", "database", "tables", "seconds", "requests/s", "errors", "server CPU (one core)"],
    lambda f: [f"{f['seconds']:.0f}", f"{f['rps']:.0f}", str(len(f["errors"])), cpu(f)],
)


def table(title: str, rows: list[tuple[list[str], dict[str, Any] | None]], columns: tuple) -> str:
    heads, cells = columns
    lines = [f"### {title}", "", "| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
    for key, figures in rows:
        rest = cells(figures) if figures else ["run failed"] + [""] * (len(heads) - len(key) - 1)
        lines.append("| " + " | ".join(key + rest) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--checkout", nargs=3, action="append", required=True, metavar=("NAME", "PATH", "PHONES"))
    parser.add_argument("--database-url", required=True, help="PostgreSQL server and role (fresh databases beside it)")
    parser.add_argument("--tables", default="50,100,200,400", help="block 1's table counts")
    parser.add_argument("--big", type=int, default=200, help="tables in blocks 2 and 3")
    parser.add_argument("--idle", type=float, default=60, help="seconds watched in block 3")
    parser.add_argument("--think", type=float, default=1.5)
    parser.add_argument("--workers", type=int, default=0, help="gunicorn workers per instance (0: each one's default)")
    parser.add_argument("--timeout", type=float, default=240, help="seconds of play before tables count as stuck")
    parser.add_argument("--direct", action="store_true", help="block 2 without nginx: phones split by port")
    parser.add_argument("--json", type=Path, help="write every run's figures to this file")
    args = parser.parse_args()
    common = ["--think", str(args.think), "--workers", str(args.workers), "--timeout", str(args.timeout)]
    postgres = ["--database-url", args.database_url]
    blocks: list[str] = []
    every: list[dict[str, Any]] = []

    def block(title: str, runs: list[tuple[list[str], list[str]]], columns: tuple) -> None:
        rows = []
        for key, options in runs:
            figures = run(options + common)
            rows.append((key, figures))
            if figures:
                every.append(figures | {"name": key[0]})
        blocks.append(table(title, rows, columns))
        print("\n" + blocks[-1], flush=True)

    checkouts = [(name, ["--checkout", path, "--phones", phones]) for name, path, phones in args.checkout]
    counts = [int(n) for n in args.tables.split(",")]
    block(
        "One instance",
        [
            ([name, database, str(n)], chosen + ["--tables", str(n)] + (postgres if database == "PostgreSQL" else []))
            for name, chosen in checkouts
            for database in ("SQLite", "PostgreSQL")
            for n in counts
        ],
        PLAY,
    )
    via = ["--direct"] if args.direct else []
    big = ["--tables", str(args.big), *postgres]
    block(
        f"Two instances ({'phones split by port' if args.direct else 'nginx'}, Redis)",
        [
            ([name, "PostgreSQL", str(args.big)], [*chosen, *big, "--instances", "2", *via])
            for name, chosen in checkouts
        ],
        PLAY,
    )
    block(
        f"Seated and watching, nobody entering ({args.idle:g} s)",
        [
            ([name, "PostgreSQL", str(args.big)], [*chosen, *big, "--idle", str(args.idle)])
            for name, chosen in checkouts
        ],
        IDLE,
    )
    print("\n" + "\n".join(blocks))
    if args.json:
        args.json.write_text(json.dumps(every, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()

"""Shared tables, two checkouts compared in one sitting: bench/tables.py over a matrix of runs.

    .venv/bin/python bench/tables_matrix.py \\
        --checkout today ../today-checkout stream --checkout new . stream \\
        --database-url postgresql://scorekeeper:scorekeeper@127.0.0.1:5432/scorekeeper_test

    # a quick try of the whole matrix (2 and 4 tables, short games, a minute or two a checkout)
    .venv/bin/python bench/tables_matrix.py --quick --checkout today . stream --database-url postgresql://…

Each ``--checkout NAME PATH PHONES`` is served from PATH (its own ``.venv``) and played
by PHONES (``stream``: the streamed pages; ``polling``: the pages of a checkout from before
the table went live). The blocks, in this order, each printed as a markdown table once its
runs are done (and all again at the end, with each checkout against issue 31's targets):

1. each checkout × SQLite and PostgreSQL × ``--tables`` (50, 100, 200, 400), one instance;
2. each checkout × SQLite and PostgreSQL, ``--big`` tables (200) on two instances (nginx
   and Redis; ``--direct``: half of each table's phones on each instance's port);
3. each checkout, ``--big`` tables on PostgreSQL seated and watching for ``--idle``
   seconds (60; ``--idle 0``: no block 3), nobody entering anything: the servers' CPU.

The checkouts take turns run by run (the machine's drift shared between them). Each run
is a process of its own (``bench/tables.py … --json``) on a fresh database; its own
report goes to the terminal as it ends. A played run's row: change→sight p50, p95 and
max, errors, locked games right, requests, the servers' CPU (% of one core, every
process), and the CPU a card in all and by kind of process (tables.py's), in ms, with
the client's beside it (not in "in all"). ``--cards N``: shorter games at the same pace
(see tables.py). ``--json FILE`` keeps every run's figures.
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


#: bench/tables.py's kinds of process, as the columns of CPU a card name them
KINDS = {
    "nginx": "nginx",
    "app workers": "app",
    "stream workers": "stream",
    "redis-server": "Redis",
    "PostgreSQL": "PostgreSQL",
    "gunicorn masters": "masters",
    "other": "other",
}


def cpu(f: dict[str, Any]) -> str:
    """The servers' CPU, every process, as % of one core."""
    database = f.get("database_cpu_percent") or 0
    return f"{f['server_cpu_percent'] + database:.0f} %"


def ms(value: float) -> str:
    return f"{value:.2f}" if value == value else "–"  # (NaN: no card entered)


def kind(f: dict[str, Any], name: str) -> str:
    count, p50, p95 = f["kinds"].get(name, (0, float("nan"), float("nan")))
    return f"{p50 * 1000:.0f} / {p95 * 1000:.0f} ms"


PLAY = (
    ["checkout", "database", "tables", "change→sight p50", "p95", "max", "errors", "locked games right"]
    + ["requests/s", "enter a card p50 / p95", "server CPU (one core)", "CPU ms a card: in all"]
    + list(KINDS.values())
    + ["client"],
    lambda f: [
        f"{f['delay_p50']:.2f} s",
        f"{f['delay_p95']:.2f} s",
        f"{f['delay_max']:.2f} s",
        str(len(f["errors"])),
        f"{f['games_right']}/{f['tables']}",
        f"{f['rps']:.0f}",
        kind(f, "enter a card"),
        cpu(f),
        f"**{ms(f['cpu_ms_per_card']['total'])}**",
        *(ms(f["cpu_ms_per_card"][name]) for name in KINDS),
        ms(f["cpu_ms_per_card"]["client"]),
    ],
)
IDLE = (
    ["checkout", "database", "tables", "seconds", "requests/s", "errors", "server CPU (one core)"]
    + [f"{name} (one core)" for name in KINDS.values()],
    lambda f: (
        [f"{f['seconds']:.0f}", f"{f['rps']:.0f}", str(len(f["errors"])), cpu(f)]
        + [f"{100 * f['cpu_seconds'][name] / f['seconds']:.1f} %" for name in KINDS]
    ),
)


def table(title: str, rows: list[tuple[list[str], dict[str, Any] | None]], columns: tuple) -> str:
    heads, cells = columns
    lines = [f"### {title}", "", "| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
    for key, figures in rows:
        rest = cells(figures) if figures else ["run failed"] + [""] * (len(heads) - len(key) - 1)
        lines.append("| " + " | ".join(key + rest) + " |")
    return "\n".join(lines) + "\n"


def verdicts(rows: list[tuple[list[str], dict[str, Any] | None]], big: int, cards: int) -> str:
    """Each checkout against issue 31's targets: p95 change→sight ≤ 250 ms at *big* tables with
    0 errors on each database; a card ≤ 2 ms of the servers' CPU (every process); two
    instances no worse than one (p95 and errors at *big* tables). With games of fewer than
    16 *cards* a phone, the CPU a card carries more of a game's pages than a full game's."""
    found = {tuple(key): figures for key, figures in rows if figures}
    games = f" (games of {cards} cards a phone)" if cards < 16 else ""
    lines = [f"### Against the targets{games}", ""]
    for name in dict.fromkeys(key[0] for key, _ in rows):
        said = []
        for database in ("SQLite", "PostgreSQL"):
            one = found.get((name, database, str(big)))
            two = found.get((name, database, str(big), "2"))
            if one:
                met = one["delay_p95"] <= 0.25 and not one["errors"]
                said.append(
                    f"{database} {big} tables: p95 {one['delay_p95'] * 1000:.0f} ms, {len(one['errors'])} errors "
                    f"({'met' if met else 'not met'}); {one['cpu_ms_per_card']['total']:.2f} ms a card "
                    f"({'met' if one['cpu_ms_per_card']['total'] <= 2 else 'not met'})"
                )
            if one and two:
                worse = two["delay_p95"] > max(one["delay_p95"], 0.25) or bool(two["errors"]) > bool(one["errors"])
                said.append(
                    f"two instances: p95 {two['delay_p95'] * 1000:.0f} ms, {len(two['errors'])} errors, "
                    f"{two['cpu_ms_per_card']['total']:.2f} ms a card ({'worse' if worse else 'no worse'})"
                )
        lines.append(f"- **{name}**: " + "; ".join(said or ["no run"]) + ".")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--checkout", nargs=3, action="append", required=True, metavar=("NAME", "PATH", "PHONES"))
    parser.add_argument("--database-url", required=True, help="PostgreSQL server and role (fresh databases beside it)")
    parser.add_argument("--tables", default="50,100,200,400", help="block 1's table counts")
    parser.add_argument("--big", type=int, default=200, help="tables in blocks 2 and 3")
    parser.add_argument("--idle", type=float, default=60, help="seconds watched in block 3 (0: no block 3)")
    parser.add_argument("--think", type=float, default=1.5)
    parser.add_argument("--cards", type=int, default=16, help="cards a phone enters one at a time (tables.py's)")
    parser.add_argument("--workers", type=int, default=0, help="gunicorn workers per instance (0: each one's default)")
    parser.add_argument("--timeout", type=float, default=240, help="seconds of play before tables count as stuck")
    parser.add_argument("--direct", action="store_true", help="block 2 without nginx: phones split by port")
    parser.add_argument("--quick", action="store_true", help="a try of the whole matrix: 2 and 4 tables, short")
    parser.add_argument("--json", type=Path, help="write every run's figures to this file")
    args = parser.parse_args()
    if args.quick:
        args.tables, args.big, args.idle, args.think, args.cards = "2,4", 4, min(args.idle, 5), 0.3, min(args.cards, 4)
        args.timeout = min(args.timeout, 60)
    common = ["--think", str(args.think), "--cards", str(args.cards)]
    common += ["--workers", str(args.workers), "--timeout", str(args.timeout)]
    postgres = ["--database-url", args.database_url]
    checkouts = [(name, ["--checkout", path, "--phones", phones]) for name, path, phones in args.checkout]
    counts = [int(n) for n in args.tables.split(",")]
    via = ["--direct"] if args.direct else []
    where = {"SQLite": [], "PostgreSQL": postgres}
    # every block's runs, the checkouts taking turns run by run (the machine's drift shared), then
    # printed checkout by checkout
    blocks: list[tuple[str, list[tuple[list[str], list[str]]], tuple]] = [
        (
            "One instance",
            [
                ([name, database, str(n)], [*chosen, "--tables", str(n), *where[database]])
                for database in where
                for n in counts
                for name, chosen in checkouts
            ],
            PLAY,
        ),
        (
            f"Two instances ({'phones split by port' if args.direct else 'nginx'}, Redis)",
            [
                (
                    [name, database, str(args.big), "2"],
                    [*chosen, "--tables", str(args.big), *where[database], "--instances", "2", *via],
                )
                for database in where
                for name, chosen in checkouts
            ],
            PLAY,
        ),
    ]
    if args.idle:
        blocks.append(
            (
                f"Seated and watching, nobody entering ({args.idle:g} s)",
                [
                    (
                        [name, "PostgreSQL", str(args.big)],
                        [*chosen, "--tables", str(args.big), *postgres, "--idle", str(args.idle)],
                    )
                    for name, chosen in checkouts
                ],
                IDLE,
            )
        )
    printed: list[str] = []
    every: list[dict[str, Any]] = []
    played: list[tuple[list[str], dict[str, Any] | None]] = []
    for title, runs, columns in blocks:
        rows = []
        for key, options in runs:
            figures = run(options + common)
            rows.append((key, figures))
            if figures:
                every.append(figures | {"name": key[0]})
        if columns is PLAY:
            played += rows
        order = [name for name, _ in checkouts]
        rows.sort(key=lambda row: order.index(row[0][0]))  # (stable: each checkout's in the order run)
        printed.append(table(title, [(key[:3], figures) for key, figures in rows], columns))
        print("\n" + printed[-1], flush=True)
    printed.append(verdicts(played, args.big, args.cards))
    print("\n" + "\n".join(printed))
    if args.json:
        args.json.write_text(json.dumps(every, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()

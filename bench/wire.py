"""What the table's JSON costs to build: the push (built on every card, for every
table's announcement), against the same dict written out member by member, as
``table_dict`` in scorekeeper/table/model.py did before the wire
(scorekeeper/web/tables/wire.py) took its place (its kingdom then 4 rows of 4, no
``state``); and what pydantic would cost for the same values, on the way out
(validated, dumped) and on the way in (a draft).

    .venv/bin/python bench/wire.py             # best of 7 rounds of 2000 calls of each
    .venv/bin/python bench/wire.py --number 10000

The table is case 19 (tests/data/cases/19-four-players.json): four seats, each
kingdom entered, done and checked, the Legends claimed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import timeit
from datetime import UTC, date, datetime
from pathlib import Path

from pydantic import TypeAdapter

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.engine import rows_of  # noqa: E402
from scorekeeper.table import model  # noqa: E402
from scorekeeper.web.tables import wire  # noqa: E402

CASE = Path(__file__).resolve().parent.parent / "tests" / "data" / "cases" / "19-four-players.json"
SECRETS = ("host", "bo", "cy", "di")


def case_19() -> model.Table:
    """Case 19's four seats, entered, done and each checked by the next."""
    players = json.loads(CASE.read_text(encoding="utf-8"))["game"]["players"]
    table = model.Table(
        "ABC234", "pocket", date(2026, 11, 30), True, 1, model.secret_hash("host"),
        datetime(2026, 11, 30, 19, tzinfo=UTC), False, None, None, None, (),
    )  # fmt: skip
    for player, secret in zip(players, SECRETS, strict=True):
        phone = model.identify(table, [secret])
        table, _ = model.take_seat(table, player["name"], model.secret_hash(secret), phone)
    for number, (player, secret) in enumerate(zip(players, SECRETS, strict=True), start=1):
        cells = tuple(card for row in player["kingdom"] for card in row)
        draft = model.Draft(cells=cells, legends=tuple(player["legends"]), done=True)
        table = model.save_draft(table, number, model.identify(table, [secret]), draft)
    for number in range(1, 5):
        checker = SECRETS[number % 4]
        table = model.check(table, number, model.identify(table, [checker]), table.seat(number).shown)
    return table


def written_out(table: model.Table) -> dict[str, object]:
    """The push as ``table_dict`` wrote it before the wire (its kingdom then 4 rows of 4)."""
    return {
        "code": table.code,
        "version": table.version,
        "look": model.look(table),
        "ruleset": table.ruleset,
        "played_on": table.played_on.isoformat(),
        "checks_required": table.checks_required,
        "locked": table.locked,
        "next_code": table.next_code,
        "expires_at": None if table.locked else table.expires_at.isoformat(timespec="seconds"),
        "seats": [
            {
                "seat": seat.number,
                "name": seat.name,
                "cards_entered": seat.cards_entered,
                "done": seat.done,
                "checked_by": seat.checked_by,
                "wrong_cell": seat.wrong_cell,
                "wrong_by": seat.wrong_by,
                "kingdom": rows_of(seat.cells),
                "legends": list(seat.legends),
                "legend_clashes": [
                    {"legend": legend, "seats": list(seats)} for legend, seats in table.legend_clashes(seat).items()
                ],
            }
            for seat in table.seats
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--number", type=int, default=2000, help="calls per round (default 2000)")
    parser.add_argument("--rounds", type=int, default=7, help="rounds, the best kept (default 7)")
    options = parser.parse_args()
    table = case_19()
    pushed = TypeAdapter(wire.Push)
    built = wire.push(table)
    draft = {
        "kingdom": [seat_cell for seat_cell in table.seats[0].cells],
        "legends": list(table.seats[0].legends),
        "base": {"kingdom": list(table.seats[0].cells), "legends": list(table.seats[0].legends)},
    }
    drafts = TypeAdapter(wire.Draft)
    who = table.seat(1).who()
    runs = {
        "the same dict written out (as table_dict did)": lambda: written_out(table),
        "wire.push (the push now)": lambda: wire.push(table),
        "json.dumps of the push (as Socket.IO sends it)": lambda: json.dumps(built),
        "model.look alone (in both)": lambda: model.look(table),
        "pydantic: the push validated on its way out": lambda: pushed.validate_python(built),
        "pydantic: the push dumped to JSON by pydantic": lambda: pushed.dump_json(built),
        "a draft read by the model (read_draft)": lambda: model.read_draft(draft, who),
        "a draft validated by pydantic (wire.Draft)": lambda: drafts.validate_python(draft),
    }
    # each round times every run in turn, so that a busy moment of the machine meets them all;
    # the process's CPU time, not the clock's (the machine is shared: waiting for a core is not work)
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(options.rounds):
        for name, run in runs.items():
            best[name] = min(
                best[name], timeit.timeit(run, timer=time.process_time, number=options.number) / options.number
            )
    print(f"case 19, 4 seats; best of {options.rounds} rounds of {options.number:,} calls; CPU µs a call")
    for name, seconds in best.items():
        print(f"  {name:<52} {seconds * 1e6:8.1f}")


if __name__ == "__main__":
    main()

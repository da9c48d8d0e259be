"""Many saved games at once, straight through the store's tables (for tests of
bulk behaviour and for bench/history.py): no HTTP, no ORM unit of work.

Each game is one of three worked games (tests/data/cases: two, three and four
players) scored once by the engine; the names are drawn from a roster, with
the first seat always the frequent player, so that player is in every game.
What is stored is what ``store.save_game`` stores (the entry, revision 1, a
result per player), with the same scores, so every page reads it as real games.
"""

from __future__ import annotations

import copy
import random
import secrets
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import func, insert, select, text

from scorekeeper.engine import RULES_VERSION, Game, name_key, score_game
from scorekeeper.store import db
from scorekeeper.store.models import GameRevision, Group, Player, PlayerResult, SavedGame
from tests.conftest import CASE_FILES, load_case

ROSTER = ("Ada", "Bo", "Cy", "Di", "Eli", "Fay", "Gus", "Hal")
_BASES = ("02-", "18-", "19-")


def _bases() -> list[tuple[dict, list]]:
    """(entry, scored results in seat order) of each base game."""
    bases = []
    for prefix in _BASES:
        entry = load_case(next(p for p in CASE_FILES if p.name.startswith(prefix)))["game"]
        sheet = score_game(Game.from_dict(entry))
        bases.append((Game.from_dict(entry).to_dict(), sorted(sheet.results, key=lambda r: r.index)))
    return bases


def make_group(name: str = "Bench") -> Group:
    """A new group (no invite link), committed."""
    group = Group(public_id=secrets.token_hex(8), name=name, invite_hash="", created_at=datetime.now(UTC))
    db.session.add(group)
    db.session.commit()
    return group


def add_games(
    count: int,
    *,
    group: Group | None = None,
    first: date = date(2020, 1, 1),
    days: int = 1500,
    seed: int = 12,
    batch: int = 2000,
) -> None:
    """Store *count* games played between *first* and *first* + *days*, oldest
    first, in *group* (its roster grows to :data:`ROSTER`) or in none.
    Call inside an app context."""
    rng = random.Random(seed)
    bases = _bases()
    roster: dict[str, int] = {}
    if group is not None:
        for name in ROSTER:
            key = name_key(name)
            found = db.session.scalar(select(Player.id).where(Player.group_id == group.id, Player.name_key == key))
            if found is None:
                player = Player(group_id=group.id, name=name, name_key=key)
                db.session.add(player)
                db.session.flush()
                found = player.id
            roster[name] = found
        db.session.commit()
    next_id = (db.session.scalar(select(func.max(SavedGame.id))) or 0) + 1
    now = datetime.now(UTC)
    games, revisions, results = [], [], []

    def flush() -> None:
        if games:
            db.session.execute(insert(SavedGame), games)
            db.session.execute(insert(GameRevision), revisions)
            db.session.execute(insert(PlayerResult), results)
            db.session.commit()
        games.clear(), revisions.clear(), results.clear()

    for number in range(count):
        game_id = next_id + number
        entry, scored = bases[rng.randrange(len(bases))]
        names = ["Ada", *rng.sample(ROSTER[1:], len(scored) - 1)]
        entry = copy.deepcopy(entry)
        for player, name in zip(entry["players"], names, strict=True):
            player["name"] = name
        played_on = first + timedelta(days=number * days // max(1, count))
        winners = [r for r in scored if r.place == 1]
        games.append(
            {
                "id": game_id,
                "public_id": f"b{game_id:011d}{secrets.token_hex(2)}",
                "edit_token_hash": f"{game_id:064x}",  # unique, as every game's is (no secret opens it)
                "created_at": now,
                "updated_at": now,
                "revision": 1,
                "played_on": played_on,
                "location": "",
                "notes": "",
                "ruleset": entry.get("ruleset", "pocket"),
                "rules_version": RULES_VERSION,
                "entry": entry,
                "winners": ", ".join(names[r.index] for r in winners),
                "group_id": group.id if group is not None else None,
            }
        )
        revisions.append(
            {
                "game_id": game_id,
                "number": 1,
                "saved_at": now,
                "played_on": played_on,
                "location": "",
                "notes": "",
                "rules_version": RULES_VERSION,
                "entry": entry,
            }
        )
        for result in scored:
            name = names[result.index]
            results.append(
                {
                    "game_id": game_id,
                    "seat": result.index,
                    "name": name,
                    "name_key": name_key(name),
                    "player_id": roster.get(name),
                    "played_on": played_on,
                    "ruleset": entry.get("ruleset", "pocket"),
                    "players": len(scored),
                    "place": result.place,
                    "shared_win": result.place == 1 and len(winners) > 1,
                    "total": result.total,
                    **{row.value: value for row, value in result.rows.items()},
                }
            )
        if len(games) >= batch:
            flush()
    flush()
    if db.engine.dialect.name == "postgresql":  # the ids were given: move the sequence past them
        db.session.execute(
            text("SELECT setval(pg_get_serial_sequence('saved_games', 'id'), (SELECT max(id) FROM saved_games))")
        )
        db.session.commit()

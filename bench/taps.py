"""Taps needed to enter a game with the palette on a phone (names typed apart).

    .venv/bin/python bench/taps.py [GAME_FILE]     # default: case 19, four players

A tap on a card type selects it in the palette and stays selected; a tap on
a cell paints it. Two orders are counted:

- by type: for each card type, one palette tap, then every cell of that type
  in every kingdom (the fewest taps);
- by player: each kingdom finished before the next, its cells grouped by type;
  the palette keeps the last type, so a kingdom that starts with it saves a tap.

Besides the kingdoms: "Add a player" for each player past two, opening
"Legends claimed" and ticking each Legend, and "Score the game".

Score together (a shared table, each player on their own phone): the taps
each player makes for their own kingdom on their seat page — one palette tap
per card type, one per cell, opening "Legends claimed" and ticking each
Legend, and "Done" — besides typing their name once. Target: at most 30 per
player (issue #10). tests/browser/test_table.py makes exactly these taps.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASE = ROOT / "tests" / "data" / "cases" / "19-four-players.json"
ORDER = ["forest", "swamp", "mountain", "plain", "elves", "dwarves", "humans", "goblins", "dragon", "portal"]


def cells_of(game: dict) -> list[list[str]]:
    return [[card for row in player["kingdom"] for card in row] for player in game["players"]]


def by_type(game: dict) -> list[tuple[str, str | int, int]]:
    """The taps in order: ``("palette", card, -)`` or ``("cell", player, cell index)``."""
    taps = []
    kingdoms = cells_of(game)
    for card in ORDER:
        cells = [(p, m) for p, kingdom in enumerate(kingdoms) for m, c in enumerate(kingdom) if c == card]
        if cells:
            taps.append(("palette", card, -1))
            taps.extend(("cell", p, m) for p, m in cells)
    return taps


def by_player(game: dict) -> list[tuple[str, str | int, int]]:
    taps, selected = [], None
    for p, kingdom in enumerate(cells_of(game)):
        present = [card for card in ORDER if card in kingdom]
        if selected in present:  # start with the type still selected
            present.remove(selected)
            present.insert(0, selected)
        for card in present:
            if card != selected:
                taps.append(("palette", card, -1))
                selected = card
            taps.extend(("cell", p, m) for m, c in enumerate(kingdom) if c == card)
    return taps


def other_taps(game: dict) -> int:
    """Add players, open each Legends list that has claims and tick them, score."""
    players = game["players"]
    legends = sum(1 + len(p.get("legends", [])) for p in players if p.get("legends"))
    return max(0, len(players) - 2) + legends + 1


def own_kingdom(player: dict) -> int:
    """Taps for one player entering their own kingdom on a shared table's seat page."""
    cells = [card for row in player["kingdom"] for card in row]
    palette = sum(1 for card in ORDER if card in cells)
    legends = 1 + len(player["legends"]) if player.get("legends") else 0
    return palette + len(cells) + legends + 1  # + "Done"


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else CASE
    data = json.loads(path.read_text(encoding="utf-8"))
    game = data.get("game", data)
    other = other_taps(game)
    print(f"{path.name}: {len(game['players'])} players, {sum(map(len, cells_of(game)))} cells")
    for name, plan in (("by type", by_type(game)), ("by player", by_player(game))):
        palette = sum(1 for kind, *_ in plan if kind == "palette")
        kingdoms = len(plan)
        print(
            f"{name:>9}: {kingdoms} taps for the kingdoms ({palette} palette + {kingdoms - palette} cells), "
            f"{other} for players, Legends and scoring: {kingdoms + other} taps plus the names"
        )
    per_player = {player["name"]: own_kingdom(player) for player in game["players"]}
    shown = ", ".join(f"{name} {taps}" for name, taps in per_player.items())
    verdict = "within" if max(per_player.values()) <= 30 else "OVER"
    print(f" together: each player on their own phone: {shown} taps plus the name ({verdict} the 30 per player)")


if __name__ == "__main__":
    main()

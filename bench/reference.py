"""A straightforward reference scorer for one kingdom, written from RULES.md alone.

Plain loops over the grid and no precomputation: every connection question
walks the grid again. It exists to be compared with the engine
(bench/engine_vs_reference.py), for speed and for agreement; it is not used
by the app. Rows only, no explanations.
"""

from __future__ import annotations

POINTS = {
    "elves": {"forest": 2, "swamp": -1},
    "dwarves": {"mountain": 2},
    "humans": {"forest": 1, "swamp": -1, "mountain": 1, "plain": 2},
    "goblins": {"swamp": 3},
}
TRIBES = ("elves", "dwarves", "humans", "goblins")
LANDS = ("forest", "swamp", "mountain", "plain")


def neighbours(r, c):
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < 4 and 0 <= c + dc < 4:
            out.append((r + dr, c + dc))
    return out


def network(grid, start):
    """All portals joined edge to edge with the portal at *start*."""
    seen, todo = [start], [start]
    while todo:
        r, c = todo.pop()
        for n in neighbours(r, c):
            if grid[n[0]][n[1]] == "portal" and n not in seen:
                seen.append(n)
                todo.append(n)
    return seen


def connected(grid, a, b, portals_for_goblins=False):
    if a == b or grid[a[0]][a[1]] == "portal" or grid[b[0]][b[1]] == "portal":
        return False
    if b in neighbours(*a):
        return True
    if not portals_for_goblins and "goblins" in (grid[a[0]][a[1]], grid[b[0]][b[1]]):
        return False
    for p in neighbours(*a):
        if grid[p[0]][p[1]] == "portal":
            for q in network(grid, p):
                if b in neighbours(*q):
                    return True
    return False


def score(grid, ruleset="pocket"):
    """The seven rows of one 4 × 4 kingdom (lists of card ids), legends excluded."""
    rows = {name: 0 for name in (*TRIBES, "dragons", "conflicts")}
    cells = [(r, c) for r in range(4) for c in range(4)]
    for a in cells:
        card = grid[a[0]][a[1]]
        if card in TRIBES:
            for b in cells:
                if grid[b[0]][b[1]] in LANDS and connected(grid, a, b):
                    rows[card] += POINTS[card].get(grid[b[0]][b[1]], 0)
    for i, a in enumerate(cells):
        for b in cells[i + 1 :]:
            x, y = grid[a[0]][a[1]], grid[b[0]][b[1]]
            if x not in TRIBES or y not in TRIBES:
                continue
            goblin = "goblins" in (x, y)
            hated = goblin or {x, y} == {"elves", "dwarves"}
            if ruleset == "classic" and x == y == "goblins":
                hated = False
            if hated and connected(grid, a, b, portals_for_goblins=(ruleset == "classic")):
                rows["conflicts"] -= 2
    dragons = [a for a in cells if grid[a[0]][a[1]] == "dragon"]
    values = (3, 4, 5) if ruleset == "pocket" else (3, 5, 6)
    value = values[min(len(dragons), 3) - 1] if dragons else 0
    tamed = 0
    for d in dragons:
        counts = {}
        for b in cells:
            card = grid[b[0]][b[1]]
            if card in ("elves", "dwarves", "humans") and connected(grid, d, b):
                counts[card] = counts.get(card, 0) + 1
        if any(n >= 2 for n in counts.values()):
            tamed += 1
    positive = min(tamed, 3)
    rows["dragons"] = value * positive - value * (len(dragons) - positive)
    return rows


def main(argv: list[str]) -> None:
    """``python bench/reference.py GAME.json``: each player's rows and their sum, one line each.

    The whole-process baseline of bench/cli_vs_reference.py: read the file,
    score every kingdom, print. No Legends, no places, no checks."""
    import json

    with open(argv[1], encoding="utf-8") as f:
        game = json.load(f)
    for player in game["players"]:
        rows = score(player["kingdom"], game.get("ruleset", "pocket"))
        print(player["name"], *(f"{name} {value}" for name, value in rows.items()), "total", sum(rows.values()))


if __name__ == "__main__":
    import sys

    main(sys.argv)

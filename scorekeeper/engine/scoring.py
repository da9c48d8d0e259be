"""Scoring one kingdom: tribe rows, conflicts, dragons, legends (RULES.md R3–R6).

Every number comes with the cards that produced it, so the sheet can explain
it: :class:`TribeScore` lists the lands a tribe card scored, :class:`Conflict`
names both cells, :class:`DragonScore` says who domesticated a Dragon. These
per-card records are named tuples: immutable, and cheap to build.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from .cards import LANDS, TAMING_TRIBES, TRIBE_LAND_POINTS, Card
from .kingdom import _CELL_NAMES, Kingdom, PortalNetwork, cell_name, describe_connection
from .legends import LEGENDS_BY_ID, Legend
from .rulesets import Ruleset


class Row(enum.Enum):
    """The seven category rows of the score sheet, in printed order (R3.3, R7.1).

    The value is the key used in game files and JSON output.
    """

    ELVES = "elves"
    DWARVES = "dwarves"
    HUMANS = "humans"
    GOBLINS = "goblins"
    DRAGONS = "dragons"
    LEGENDS = "legends"
    CONFLICTS = "conflicts"

    __hash__ = object.__hash__  # singletons: identity hash (see Card)

    @property
    def label(self) -> str:
        return self.value.capitalize()


_TRIBE_ROW = {
    Card.ELVES: Row.ELVES,
    Card.DWARVES: Row.DWARVES,
    Card.HUMANS: Row.HUMANS,
    Card.GOBLINS: Row.GOBLINS,
}
# Plain names for members used in the hot loops (an Enum attribute lookup is a descriptor call).
_ROWS = tuple(Row)
_TRIBE_ROWS = frozenset(_TRIBE_ROW.values())
_DRAGONS, _LEGENDS, _CONFLICTS = Row.DRAGONS, Row.LEGENDS, Row.CONFLICTS
_GOBLINS = Card.GOBLINS


class LandPoints(NamedTuple):
    """One land scored by one tribe card (R3).

    :ivar cell: the land's cell index 0..15.
    :ivar land: which land it is.
    :ivar points: Harmony Points it gives that tribe card (may be 0 or negative).
    :ivar adjacent: it shares an edge with the tribe card.
    :ivar networks: the portal networks through which it is also reached.
    """

    cell: int
    land: Card
    points: int
    adjacent: bool
    networks: tuple[PortalNetwork, ...] = ()

    @property
    def via(self) -> str:
        """How they are connected: ``"adjacent"``, ``"through portal r3c3"``."""
        return describe_connection(self.adjacent, self.networks)


class TribeScore(NamedTuple):
    """What one tribe card scored from its connected lands (R3, R3.1).

    :ivar cell: the tribe card's cell index 0..15.
    :ivar tribe: Elves, Dwarves, Humans or Goblins.
    :ivar lands: every connected land, by cell order.
    :ivar points: their sum, in Harmony Points.
    """

    cell: int
    tribe: Card
    lands: tuple[LandPoints, ...]
    points: int

    def describe(self) -> str:
        """``"Elves at r1c2: Forest r1c1 +2 (adjacent), … → +4"``."""
        if not self.lands:
            parts = "no connected land"
        else:
            parts = ", ".join([_land_part(lp) for lp in self.lands])
        return f"{self.tribe.label} at {cell_name(self.cell)}: {parts} → {self.points:+d}"


def _land_part(lp: LandPoints) -> str:
    """``"Forest r1c1 +2 (adjacent)"``; the common, portal-free ones come from a table."""
    if lp.networks:
        return f"{lp.land.label} {_CELL_NAMES[lp.cell]} {lp.points:+d} ({lp.via})"
    key = (lp.land, lp.cell, lp.points)
    part = _ADJACENT_PARTS.get(key)
    if part is None:
        part = _ADJACENT_PARTS[key] = f"{lp.land.label} {_CELL_NAMES[lp.cell]} {lp.points:+d} (adjacent)"
    return part


_ADJACENT_PARTS: dict[tuple[Card, int, int], str] = {}  # at most 4 lands × 16 cells × 4 values


class Conflict(NamedTuple):
    """One connected pair of hated tribe cards (R4.2).

    :ivar cells: the two cell indices, lower first.
    :ivar tribes: their tribes, in the same order.
    :ivar points: Harmony Points it costs (−2).
    :ivar adjacent: the two share an edge.
    :ivar networks: the portal networks through which they (also) conflict.
    """

    cells: tuple[int, int]
    tribes: tuple[Card, Card]
    points: int
    adjacent: bool
    networks: tuple[PortalNetwork, ...] = ()

    @property
    def via(self) -> str:
        """How they are connected: ``"adjacent"``, ``"through portal r1c2"``."""
        return describe_connection(self.adjacent, self.networks)

    def describe(self) -> str:
        """``"Elves r1c1 – Dwarves r1c2 (adjacent) → −2"``."""
        (a, b), (ta, tb) = self.cells, self.tribes
        return f"{ta.label} {cell_name(a)} – {tb.label} {cell_name(b)} ({self.via}) → {self.points:+d}"


class DragonScore(NamedTuple):
    """One Dragon: domesticated or wild, and what it is worth (R5).

    :ivar cell: the Dragon's cell index 0..15.
    :ivar tamers: for each tribe type with at least two cards connected to the
        Dragon, ``(tribe, their cells)``; empty for a wild Dragon (R5.1).
    :ivar points: Harmony Points it counts for (R5.2, R5.3).
    :ivar beyond_limit: domesticated, yet counted negative because more
        Dragons are domesticated than count positive (R5.3).
    """

    cell: int
    tamers: tuple[tuple[Card, tuple[int, ...]], ...]
    points: int
    beyond_limit: bool = False

    @property
    def is_domesticated(self) -> bool:
        return bool(self.tamers)

    def describe(self) -> str:
        """``"Dragon at r2c3: domesticated by 2 Humans (r1c3, r2c4) → +4"``."""
        where = f"Dragon at {cell_name(self.cell)}"
        if not self.tamers:
            return f"{where}: wild, no two Elves, Dwarves or Humans connected → {self.points:+d}"
        by = " and ".join(
            f"{len(cells)} {tribe.label} ({', '.join(cell_name(c) for c in cells)})" for tribe, cells in self.tamers
        )
        note = "; only three domesticated Dragons count positive (R5.3)" if self.beyond_limit else ""
        return f"{where}: domesticated by {by}{note} → {self.points:+d}"


@dataclass(frozen=True)
class KingdomScore:
    """One player's score: the seven rows and every reason behind them.

    :ivar kingdom: the scored 4 × 4 kingdom.
    :ivar ruleset: the ruleset it was scored under (R9).
    :ivar tribes: one :class:`TribeScore` per tribe card, by cell order.
    :ivar conflicts: every conflict, by cell order.
    :ivar dragons: one :class:`DragonScore` per Dragon, by cell order.
    :ivar legends: the claimed Legends (R6).
    :ivar rows: Harmony Points per :class:`Row`, in sheet order.
    """

    kingdom: Kingdom
    ruleset: Ruleset
    tribes: tuple[TribeScore, ...]
    conflicts: tuple[Conflict, ...]
    dragons: tuple[DragonScore, ...]
    legends: tuple[Legend, ...]
    rows: dict[Row, int]

    @property
    def total(self) -> int:
        """The sum of the seven rows, in Harmony Points (R7.1)."""
        return sum(self.rows.values())

    def cell_points(self, cell: int) -> int | None:
        """What the card at *cell* scored on its own (tribe or Dragon), or
        ``None`` for lands and portals, which score nothing themselves."""
        for item in (*self.tribes, *self.dragons):
            if item.cell == cell:
                return item.points
        return None

    def explain(self, row: Row) -> list[str]:
        """One sentence per card or claim behind *row*, for the sheet (R7.5 spirit)."""
        if row in _TRIBE_ROWS:
            return [t.describe() for t in self.tribes if _TRIBE_ROW[t.tribe] is row]
        if row is _DRAGONS:
            return [d.describe() for d in self.dragons]
        if row is _CONFLICTS:
            return [c.describe() for c in self.conflicts]
        return [f"{legend.name}: {legend.requirement} → {legend.value:+d}" for legend in self.legends]

    def cells_for(self, row: Row) -> set[int]:
        """The cells that produced *row*, to highlight on the grid."""
        if row in _TRIBE_ROW.values():
            return {t.cell for t in self.tribes if _TRIBE_ROW[t.tribe] is row} | {
                lp.cell for t in self.tribes if _TRIBE_ROW[t.tribe] is row for lp in t.lands
            }
        if row is Row.DRAGONS:
            return {d.cell for d in self.dragons}
        if row is Row.CONFLICTS:
            return {cell for c in self.conflicts for cell in c.cells}
        return set()


def score_kingdom(kingdom: Kingdom, ruleset: Ruleset, legends: Iterable[str] = ()) -> KingdomScore:
    """Score one 4 × 4 kingdom and its claimed Legends under *ruleset*.

    :param legends: claimed Legend ids; they must be valid (the game checks
        them, R6.1, R8).
    :raises KeyError: for an unknown Legend id (validate the game first).
    :returns: the seven rows with their explanations (R3–R6).
    """
    tribes = _tribe_scores(kingdom)
    conflicts = _conflicts(kingdom, ruleset)
    dragons = _dragons(kingdom, ruleset)
    claimed = tuple([LEGENDS_BY_ID[legend_id] for legend_id in legends])
    rows = dict.fromkeys(_ROWS, 0)
    for tribe in tribes:
        rows[_TRIBE_ROW[tribe.tribe]] += tribe.points
    rows[_DRAGONS] = sum([d.points for d in dragons])
    rows[_LEGENDS] = sum([legend.value for legend in claimed])
    rows[_CONFLICTS] = ruleset.conflict_points * len(conflicts)
    return KingdomScore(kingdom, ruleset, tribes, conflicts, dragons, claimed, rows)


# Building the records with tuple.__new__ skips the named tuples' Python-level
# __new__ (all fields are given): scoring builds some 40 of them per kingdom.
_new = tuple.__new__


def _tribe_scores(kingdom: Kingdom) -> tuple[TribeScore, ...]:
    cards, reach = kingdom.cards, kingdom.reach
    adjacent_masks, through_masks, borders = reach.adjacent, reach.through, reach.borders
    land_mask = 0
    for cell, card in enumerate(cards):
        if card in _LAND_SET:
            land_mask |= 1 << cell
    scores = []
    for cell, tribe in enumerate(cards):
        table = TRIBE_LAND_POINTS.get(tribe)
        if table is None:
            continue
        portals = tribe is not _GOBLINS  # R2.1
        adjacent = adjacent_masks[cell]
        reached = (adjacent | through_masks[cell] if portals else adjacent) & land_mask
        lands, points = [], 0
        while reached:  # each connected land, lowest cell first
            low = reached & -reached
            reached ^= low
            other = low.bit_length() - 1
            land = cards[other]
            value = table[land]
            networks = reach.networks_between(cell, other) if portals and borders[cell] & borders[other] else ()
            lands.append(_new(LandPoints, (other, land, value, bool(adjacent & low), networks)))
            points += value
        scores.append(_new(TribeScore, (cell, tribe, tuple(lands), points)))
    return tuple(scores)


_LAND_SET = frozenset(LANDS)
_TAMERS = frozenset(TAMING_TRIBES)


def _conflicts(kingdom: Kingdom, ruleset: Ruleset) -> tuple[Conflict, ...]:
    cards, reach = kingdom.cards, kingdom.reach
    adjacent, through, borders = reach.adjacent, reach.through, reach.borders
    hated = ruleset.hated_ordered
    goblins_use_portals = ruleset.goblin_conflicts_through_portals  # R4.3, R9
    tribe_mask = 0
    for cell, card in enumerate(cards):
        if card in TRIBE_LAND_POINTS:
            tribe_mask |= 1 << cell
    found = []
    for a, ta in enumerate(cards):
        if not tribe_mask >> a & 1:
            continue
        # only the tribe cards after this one that it reaches at all
        reached = (adjacent[a] | through[a]) & tribe_mask & ~((2 << a) - 1)
        while reached:
            low = reached & -reached
            reached ^= low
            b = low.bit_length() - 1
            tb = cards[b]
            if (ta, tb) not in hated:
                continue
            by_edge = bool(adjacent[a] & low)
            portals = goblins_use_portals or (ta is not _GOBLINS and tb is not _GOBLINS)
            if not (by_edge or portals):
                continue
            networks = reach.networks_between(a, b) if portals and borders[a] & borders[b] else ()
            found.append(_new(Conflict, ((a, b), (ta, tb), ruleset.conflict_points, by_edge, networks)))
    return tuple(found)


def _dragons(kingdom: Kingdom, ruleset: Ruleset) -> tuple[DragonScore, ...]:
    cards, reach = kingdom.cards, kingdom.reach
    dragon_cells = [cell for cell, card in enumerate(cards) if card is Card.DRAGON]
    if not dragon_cells:
        return ()
    value = ruleset.dragon_value(len(dragon_cells))
    positive_left = ruleset.max_positive_dragons
    tamer_mask = 0
    for other, card in enumerate(cards):
        if card in _TAMERS:
            tamer_mask |= 1 << other
    scores = []
    for cell in dragon_cells:
        by_tribe: dict[Card, list[int]] = {}
        reached = (reach.adjacent[cell] | reach.through[cell]) & tamer_mask  # Dragons use portals (R5.1)
        while reached:
            low = reached & -reached
            reached ^= low
            other = low.bit_length() - 1
            by_tribe.setdefault(cards[other], []).append(other)
        tamers = tuple((tribe, tuple(by_tribe[tribe])) for tribe in TAMING_TRIBES if len(by_tribe.get(tribe, ())) >= 2)
        # R5.3: which domesticated Dragons are "the first three" is unknowable;
        # the row only depends on how many, so the sheet credits them by cell order.
        if tamers and positive_left > 0:
            positive_left -= 1
            scores.append(DragonScore(cell, tamers, value))
        else:
            scores.append(DragonScore(cell, tamers, -value, beyond_limit=bool(tamers)))
    return tuple(scores)

"""Scoring one kingdom: tribe rows, conflicts, dragons, legends (RULES.md R3–R6).

Every number comes with the cards that produced it, so the sheet can explain
it: :class:`TribeScore` lists the lands a tribe card scored, :class:`Conflict`
names both cells, :class:`DragonScore` says who domesticated a Dragon.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from .cards import TAMING_TRIBES, TRIBE_LAND_POINTS, Card
from .kingdom import Kingdom, cell_name
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

    @property
    def label(self) -> str:
        return self.value.capitalize()


_TRIBE_ROW = {
    Card.ELVES: Row.ELVES,
    Card.DWARVES: Row.DWARVES,
    Card.HUMANS: Row.HUMANS,
    Card.GOBLINS: Row.GOBLINS,
}


@dataclass(frozen=True)
class LandPoints:
    """One land scored by one tribe card (R3).

    :ivar cell: the land's cell index 0..15.
    :ivar land: which land it is.
    :ivar points: Harmony Points it gives that tribe card (may be 0 or negative).
    :ivar via: how they are connected (``"adjacent"``, ``"through portal r3c3"``).
    """

    cell: int
    land: Card
    points: int
    via: str


@dataclass(frozen=True)
class TribeScore:
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
            parts = ", ".join(
                f"{lp.land.label} {cell_name(lp.cell)} {lp.points:+d} ({lp.via})" for lp in self.lands
            )
        return f"{self.tribe.label} at {cell_name(self.cell)}: {parts} → {self.points:+d}"


@dataclass(frozen=True)
class Conflict:
    """One connected pair of hated tribe cards (R4.2).

    :ivar cells: the two cell indices, lower first.
    :ivar tribes: their tribes, in the same order.
    :ivar via: how they are connected.
    :ivar points: Harmony Points it costs (−2).
    """

    cells: tuple[int, int]
    tribes: tuple[Card, Card]
    via: str
    points: int

    def describe(self) -> str:
        """``"Elves r1c1 – Dwarves r1c2 (adjacent) → −2"``."""
        (a, b), (ta, tb) = self.cells, self.tribes
        return f"{ta.label} {cell_name(a)} – {tb.label} {cell_name(b)} ({self.via}) → {self.points:+d}"


@dataclass(frozen=True)
class DragonScore:
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
            f"{len(cells)} {tribe.label} ({', '.join(cell_name(c) for c in cells)})"
            for tribe, cells in self.tamers
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
        if row in _TRIBE_ROW.values():
            return [t.describe() for t in self.tribes if _TRIBE_ROW[t.tribe] is row]
        if row is Row.DRAGONS:
            return [d.describe() for d in self.dragons]
        if row is Row.CONFLICTS:
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


def score_kingdom(
    kingdom: Kingdom, ruleset: Ruleset, legends: Iterable[str] = ()
) -> KingdomScore:
    """Score one 4 × 4 kingdom and its claimed Legends under *ruleset*.

    :param legends: claimed Legend ids; they must be valid (the game checks
        them, R6.1, R8).
    :raises KeyError: for an unknown Legend id (validate the game first).
    :returns: the seven rows with their explanations (R3–R6).
    """
    tribes = _tribe_scores(kingdom)
    conflicts = _conflicts(kingdom, ruleset)
    dragons = _dragons(kingdom, ruleset)
    claimed = tuple(LEGENDS_BY_ID[legend_id] for legend_id in legends)
    rows = {row: 0 for row in Row}
    for tribe in tribes:
        rows[_TRIBE_ROW[tribe.tribe]] += tribe.points
    rows[Row.DRAGONS] = sum(d.points for d in dragons)
    rows[Row.LEGENDS] = sum(legend.value for legend in claimed)
    rows[Row.CONFLICTS] = sum(c.points for c in conflicts)
    return KingdomScore(kingdom, ruleset, tribes, conflicts, dragons, claimed, rows)


def _uses_portals(card: Card) -> bool:
    return card is not Card.GOBLINS  # R2.1


def _tribe_scores(kingdom: Kingdom) -> tuple[TribeScore, ...]:
    cards = kingdom.cards
    scores = []
    for cell, tribe in enumerate(cards):
        if tribe is None or not tribe.is_tribe:
            continue
        table = TRIBE_LAND_POINTS[tribe]
        through = _uses_portals(tribe)
        lands = tuple(
            LandPoints(other, cards[other], table[cards[other]], link.describe(through))
            for other, link in kingdom.linked_to(cell)
            if cards[other].is_land and link.connects(through)
        )
        scores.append(TribeScore(cell, tribe, lands, sum(lp.points for lp in lands)))
    return tuple(scores)


def _conflicts(kingdom: Kingdom, ruleset: Ruleset) -> tuple[Conflict, ...]:
    cards = kingdom.cards
    found = []
    for (a, b), link in kingdom.links.items():
        ta, tb = cards[a], cards[b]
        if not (ta.is_tribe and tb.is_tribe and ruleset.hates(ta, tb)):
            continue
        goblin = Card.GOBLINS in (ta, tb)
        through = not goblin or ruleset.goblin_conflicts_through_portals  # R4.3, R9
        if link.connects(through):
            found.append(Conflict((a, b), (ta, tb), link.describe(through), ruleset.conflict_points))
    return tuple(found)


def _dragons(kingdom: Kingdom, ruleset: Ruleset) -> tuple[DragonScore, ...]:
    cards = kingdom.cards
    dragon_cells = [cell for cell, card in enumerate(cards) if card is Card.DRAGON]
    if not dragon_cells:
        return ()
    value = ruleset.dragon_value(len(dragon_cells))
    positive_left = ruleset.max_positive_dragons
    scores = []
    for cell in dragon_cells:
        by_tribe: dict[Card, list[int]] = {}
        for other, link in kingdom.linked_to(cell):
            if cards[other] in TAMING_TRIBES and link.connects(True):
                by_tribe.setdefault(cards[other], []).append(other)
        tamers = tuple(
            (tribe, tuple(by_tribe[tribe])) for tribe in TAMING_TRIBES if len(by_tribe.get(tribe, ())) >= 2
        )
        # R5.3: which domesticated Dragons are "the first three" is unknowable;
        # the row only depends on how many, so the sheet credits them by cell order.
        if tamers and positive_left > 0:
            positive_left -= 1
            scores.append(DragonScore(cell, tamers, value))
        else:
            scores.append(DragonScore(cell, tamers, -value, beyond_limit=bool(tamers)))
    return tuple(scores)

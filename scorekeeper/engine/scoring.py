"""Scoring one kingdom: tribe rows, conflicts, dragons, legends (RULES.md R3–R6).

Every number comes with the cards that produced it, so the sheet can explain
it: :class:`TribeScore` lists the lands a tribe card scored, :class:`Conflict`
names both cells, :class:`DragonScore` says who domesticated a Dragon. These
per-card records are named tuples: immutable, and cheap to build. They have
no words: each names its sentence (``message_id``) and carries what it says;
``scorekeeper.words`` writes it in a language.
"""

# Annotations are not postponed (no `from __future__ import annotations`): typing.NamedTuple
# compiles every field annotation given as a string (in all, most of a millisecond on import).

import enum
from collections.abc import Iterable
from typing import NamedTuple, cast

from .cards import LANDS, TAMING_TRIBES, TRIBE_LAND_POINTS, TRIBES, Card
from .kingdom import Kingdom, PortalNetwork, cells_of
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


_TRIBE_ROW = {
    Card.ELVES: Row.ELVES,
    Card.DWARVES: Row.DWARVES,
    Card.HUMANS: Row.HUMANS,
    Card.GOBLINS: Row.GOBLINS,
}
# Plain names for members used in the hot loops (an Enum attribute lookup is a descriptor call).
_ROWS = tuple(Row)
_TRIBE_ROWS = frozenset(_TRIBE_ROW.values())
_legend_of_id = LEGENDS_BY_ID.__getitem__
_NO_POINTS = dict.fromkeys(_ROWS, 0)  # copied: quicker than building it again
_ELVES_ROW, _DWARVES_ROW, _HUMANS_ROW, _GOBLINS_ROW, _DRAGONS, _LEGENDS, _CONFLICTS = _ROWS
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


class TribeScore(NamedTuple):
    """What one tribe card scored from its connected lands (R3, R3.1).

    :ivar cell: the tribe card's cell index 0..15.
    :ivar tribe: Elves, Dwarves, Humans or Goblins.
    :ivar points: what its connected lands add up to, in Harmony Points.
    :ivar reached: bitmask of its connected land cells (bit *n* = cell *n*);
        :attr:`lands` spells them out.
    :ivar kingdom: the kingdom it stands in.
    """

    cell: int
    tribe: Card
    points: int
    reached: int
    kingdom: Kingdom

    @property
    def lands(self) -> tuple[LandPoints, ...]:
        """Every connected land, by cell order, with what it gives and how it is reached."""
        cell, cards, reach = self.cell, _placed(self.kingdom), self.kingdom.reach
        table, adjacent, borders = TRIBE_LAND_POINTS[self.tribe], reach.adjacent[cell], reach.borders
        shared = borders[cell] if self.tribe is not _GOBLINS else 0  # R2.1: Goblins use no portal
        found = []
        for other in cells_of(self.reached):
            land = cards[other]
            networks = reach.networks_between(cell, other) if shared & borders[other] else ()
            found.append(LandPoints(other, land, table[land], bool(adjacent >> other & 1), networks))
        return tuple(found)

    @property
    def message_id(self) -> str:
        """Its sentence: ``"tribe-lands"`` ("Elves at r1c2: Forest r1c1 +2
        (adjacent), … → +4"), or ``"tribe-no-land"`` when it reaches none."""
        return "tribe-lands" if self.reached else "tribe-no-land"


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
    def message_id(self) -> str:
        """Its sentence: ``"conflict"`` ("Elves r1c1 – Dwarves r1c2 (adjacent) → -2")."""
        return "conflict"


class DragonScore(NamedTuple):
    """One Dragon: domesticated or wild, and what it is worth (R5).

    :ivar cell: the Dragon's cell index 0..15.
    :ivar tamers: for each tribe type with at least two cards connected to the
        Dragon, ``(tribe, their cells)``; empty for a wild Dragon (R5.1).
    :ivar points: Harmony Points it counts for (R5.2, R5.3).
    :ivar beyond_limit: domesticated, yet counted negative because more
        Dragons are domesticated than count positive (R5.3).
    :ivar kingdom: the kingdom it stands in.
    """

    cell: int
    tamers: tuple[tuple[Card, tuple[int, ...]], ...]
    points: int
    beyond_limit: bool
    kingdom: Kingdom

    @property
    def is_domesticated(self) -> bool:
        return bool(self.tamers)

    @property
    def message_id(self) -> str:
        """Its sentence: ``"dragon-wild"``, ``"dragon-tamed"`` ("Dragon at r2c3:
        domesticated by 2 Humans (r1c3, r3c3 through portal r2c2) → +4"), or
        ``"dragon-beyond-limit"`` (domesticated, yet negative: R5.3)."""
        if not self.tamers:
            return "dragon-wild"
        return "dragon-beyond-limit" if self.beyond_limit else "dragon-tamed"

    def way_from(self, cell: int) -> tuple[PortalNetwork, ...]:
        """The portal networks through which the card at *cell* reaches this
        Dragon when not beside it; ``()`` when they share an edge (R2)."""
        reach = self.kingdom.reach
        if reach.adjacent[self.cell] >> cell & 1:
            return ()
        return reach.networks_between(self.cell, cell)


class KingdomScore(NamedTuple):
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
        records: tuple[TribeScore | DragonScore, ...] = (*self.tribes, *self.dragons)
        for item in records:
            if item.cell == cell:
                return item.points
        return None

    def explain(self, row: Row) -> "list[Reason]":
        """The records behind *row*, one per card or claim, for the sheet's
        "why these points" (R7.5 spirit): :class:`TribeScore` for a tribe row,
        :class:`DragonScore`, :class:`Conflict`, or the claimed
        :class:`Legend`. Each names its sentence (``message_id``) and carries
        what it says; ``scorekeeper.words`` writes it."""
        if row in _TRIBE_ROWS:
            return [t for t in self.tribes if _TRIBE_ROW[t.tribe] is row]
        if row is _DRAGONS:
            return list(self.dragons)
        if row is _CONFLICTS:
            return list(self.conflicts)
        return self.legend_claims()

    def legend_claims(self) -> "list[Reason]":
        """One :class:`LegendClaim` per claimed Legend, saying whether the
        final kingdom still shows its requirement (R6: counted either way)."""
        return [LegendClaim(legend, is_legend_shown(legend, self.kingdom)) for legend in self.legends]

    def explanations(self) -> "dict[Row, list[Reason]]":
        """Every row's records at once, keyed by :class:`Row` in sheet
        order: what :meth:`explain` gives row by row, in one pass."""
        found: dict[Row, list[Reason]] = {_ELVES_ROW: [], _DWARVES_ROW: [], _HUMANS_ROW: [], _GOBLINS_ROW: []}
        for tribe in self.tribes:
            found[_TRIBE_ROW[tribe.tribe]].append(tribe)
        found[_DRAGONS] = list(self.dragons)
        found[_LEGENDS] = self.legend_claims()
        found[_CONFLICTS] = list(self.conflicts)
        return found

    def cells_for(self, row: Row) -> set[int]:
        """The cells that produced *row*, to highlight on the grid: the
        scoring cards, what they scored from, and the portals between."""
        found: set[int] = set()
        if row in _TRIBE_ROWS:
            for t in self.tribes:
                if _TRIBE_ROW[t.tribe] is row:
                    found.add(t.cell)
                    for land in t.lands:
                        found.add(land.cell)
                        found.update(portal for network in land.networks for portal in network.portals)
        elif row is _DRAGONS:
            reach = self.kingdom.reach
            for d in self.dragons:
                found.add(d.cell)
                for _tribe, cells in d.tamers:
                    found.update(cells)
                    for cell in cells:
                        if d.way_from(cell):
                            found.update(_portals(reach.networks_between(d.cell, cell)))
        elif row is _CONFLICTS:
            for c in self.conflicts:
                found.update(c.cells)
                found.update(_portals(c.networks))
        return found


class LegendClaim(NamedTuple):
    """A claimed Legend as a line of "why these points" (R6).

    :ivar legend: the claimed Legend; its value counts whatever the kingdom shows.
    :ivar is_shown: whether the final kingdom still shows the Legend's
        requirement (:func:`is_legend_shown`). Not a rule: a claim is never
        re-checked (R6); a claim the kingdom no longer shows is worth a second
        look (a Legend ticked for the wrong player), so its line says so
        (message id ``"legend-not-shown"``, else ``"legend"``).
    """

    legend: Legend
    is_shown: bool

    @property
    def message_id(self) -> str:
        return "legend" if self.is_shown else "legend-not-shown"


def is_legend_shown(legend: Legend, kingdom: Kingdom) -> bool:
    """Whether *kingdom* shows the requirement of *legend* (the R6 table), with
    connections as in R2 (Goblins never through portals, R2.1):

    - ``tribes-X``: two X connected; ``alliance-humans-X``: Humans connected to X;
    - ``battle-A-B``: two A connected to one B, or two B to one A;
    - ``lands-X``: three X connected (one of them connected to the other two);
    - ``four-tribes``: all four tribe types present.

    Informative only: scoring never calls it (R6).
    """
    if legend.id == "four-tribes":
        return all(kingdom.card_masks[tribe] for tribe in TRIBES)
    kind, *names = legend.id.split("-")
    cards = [Card(name) for name in names]
    if kind == "tribes":
        return any(_connected(kingdom, cell, cards[0]) for cell in cells_of(kingdom.card_masks[cards[0]]))
    if kind == "lands":
        return any(_connected(kingdom, cell, cards[0]) >= 2 for cell in cells_of(kingdom.card_masks[cards[0]]))
    if kind == "alliance":
        return any(_connected(kingdom, cell, cards[1]) for cell in cells_of(kingdom.card_masks[cards[0]]))
    first, second = cards  # a battle
    return any(_connected(kingdom, cell, first) >= 2 for cell in cells_of(kingdom.card_masks[second])) or any(
        _connected(kingdom, cell, second) >= 2 for cell in cells_of(kingdom.card_masks[first])
    )


def _connected(kingdom: Kingdom, cell: int, card: Card) -> int:
    """How many cards of type *card* are connected to the card at *cell* (R2, R2.1)."""
    reach = kingdom.reach
    through = kingdom.cards[cell] is not _GOBLINS and card is not _GOBLINS
    mask = reach.adjacent[cell] | (reach.through[cell] if through else 0)
    return (mask & kingdom.card_masks[card]).bit_count()


#: One record of "why these points" (see :meth:`KingdomScore.explain`).
Reason = TribeScore | Conflict | DragonScore | LegendClaim | Legend


def _portals(networks: Iterable[PortalNetwork]) -> set[int]:
    return {portal for network in networks for portal in network.portals}


def score_kingdom(kingdom: Kingdom, ruleset: Ruleset, legends: Iterable[str] = ()) -> KingdomScore:
    """Score one 4 × 4 kingdom and its claimed Legends under *ruleset*.

    :param legends: claimed Legend ids; they must be valid (the game checks
        them, R6.1, R8).
    :raises KeyError: for an unknown Legend id (validate the game first).
    :returns: the seven rows, in Harmony Points, with their explanations (R3–R6).
    """
    rows = _NO_POINTS.copy()
    tribes = _tribe_scores(kingdom, rows)
    conflicts = _conflicts(kingdom, ruleset)
    dragons = _dragons(kingdom, ruleset)
    claimed = tuple(map(_legend_of_id, legends)) if legends else ()
    for dragon in dragons:
        rows[_DRAGONS] += dragon.points
    for legend in claimed:
        rows[_LEGENDS] += legend.value
    rows[_CONFLICTS] = ruleset.conflict_points * len(conflicts)
    return KingdomScore(kingdom, ruleset, tribes, conflicts, dragons, claimed, rows)


# Per tribe, the lands worth something to it and their value (R3): a tribe
# card's points are value × how many of its connected lands are of that kind.
_WORTH = {
    tribe: tuple((land, points) for land, points in table.items() if points)
    for tribe, table in TRIBE_LAND_POINTS.items()
}
_FOREST, _SWAMP, _MOUNTAIN, _PLAIN = LANDS
_DRAGON = Card.DRAGON


def _placed(kingdom: Kingdom) -> tuple[Card, ...]:
    """The kingdom's cards, for code that reads only cells taken from a card
    type's mask: those are never blank (``None``, see :meth:`Kingdom.partial`)."""
    return cast("tuple[Card, ...]", kingdom.cards)


def _tribe_scores(kingdom: Kingdom, rows: dict[Row, int]) -> tuple[TribeScore, ...]:
    """One record per tribe card, by cell order; adds their points to *rows* (R3)."""
    cards, masks, reach = _placed(kingdom), kingdom.card_masks, kingdom.reach
    adjacent, through = reach.adjacent, reach.through
    land_mask = masks[_FOREST] | masks[_SWAMP] | masks[_MOUNTAIN] | masks[_PLAIN]
    tribe_mask = masks[_ELVES] | masks[_DWARVES] | masks[_HUMANS] | masks[_GOBLINS]
    scores = []
    for cell in cells_of(tribe_mask):
        tribe = cards[cell]
        # R2.1: Goblins reach only what shares an edge with them
        reached = (adjacent[cell] if tribe is _GOBLINS else adjacent[cell] | through[cell]) & land_mask
        points = 0
        for land, value in _WORTH[tribe]:
            points += value * (reached & masks[land]).bit_count()
        rows[_TRIBE_ROW[tribe]] += points
        scores.append(TribeScore(cell, tribe, points, reached, kingdom))
    return tuple(scores)


_ELVES, _DWARVES, _HUMANS = Card.ELVES, Card.DWARVES, Card.HUMANS


def _conflicts(kingdom: Kingdom, ruleset: Ruleset) -> tuple[Conflict, ...]:
    cards, masks, reach = _placed(kingdom), kingdom.card_masks, kingdom.reach
    adjacent, through, borders = reach.adjacent, reach.through, reach.borders
    points = ruleset.conflict_points
    goblins_use_portals = ruleset.goblin_conflicts_through_portals  # R4.3, R9
    goblin_mask = masks[_GOBLINS]
    hated = {}  # per tribe, the cells of the tribe cards it hates (R4.1)
    for tribe, others in ruleset.hated_by.items():
        cells = 0
        for other in others:
            cells |= masks[other]
        hated[tribe] = cells
    found = []
    for a in cells_of(masks[_ELVES] | masks[_DWARVES] | masks[_HUMANS] | goblin_mask):
        ta = cards[a]
        later = hated[ta] >> (a + 1) << (a + 1)  # each pair once: only cards after this one
        if not later:
            continue
        if goblins_use_portals:
            reached = (adjacent[a] | through[a]) & later
        elif ta is _GOBLINS:
            reached = adjacent[a] & later
        else:
            reached = (adjacent[a] | through[a] & ~goblin_mask) & later
        for b in cells_of(reached):
            tb = cards[b]
            portals = goblins_use_portals or (ta is not _GOBLINS and tb is not _GOBLINS)
            networks = reach.networks_between(a, b) if portals and borders[a] & borders[b] else ()
            found.append(Conflict((a, b), (ta, tb), points, bool(adjacent[a] >> b & 1), networks))
    return tuple(found)


def _dragons(kingdom: Kingdom, ruleset: Ruleset) -> tuple[DragonScore, ...]:
    masks = kingdom.card_masks
    dragon_mask = masks[_DRAGON]
    if not dragon_mask:
        return ()
    dragon_cells = cells_of(dragon_mask)
    reach = kingdom.reach
    adjacent, through = reach.adjacent, reach.through
    value = ruleset.dragon_value(len(dragon_cells))
    positive_left = ruleset.max_positive_dragons
    scores = []
    for cell in dragon_cells:
        reached = adjacent[cell] | through[cell]  # Dragons use portals (R5.1)
        found = []
        for tribe in TAMING_TRIBES:
            near = reached & masks[tribe]
            if near.bit_count() >= 2:
                found.append((tribe, cells_of(near)))
        tamers = tuple(found)
        # R5.3: which domesticated Dragons are "the first three" is unknowable;
        # the row only depends on how many, so the sheet credits them by cell order.
        if tamers and positive_left > 0:
            positive_left -= 1
            scores.append(DragonScore(cell, tamers, value, False, kingdom))
        else:
            scores.append(DragonScore(cell, tamers, -value, bool(tamers), kingdom))
    return tuple(scores)

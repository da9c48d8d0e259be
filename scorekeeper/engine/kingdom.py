"""The 4 × 4 kingdom, its portal networks and connections (RULES.md R1, R2).

Cells are addressed by a row-major index 0..15 (``row * 4 + column``, both
0-based); :func:`cell_name` gives the ``r2c3`` form players read (1-based).
"""

# Annotations are not postponed (no `from __future__ import annotations`): typing.NamedTuple
# compiles every field annotation given as a string (in all, most of a millisecond on import).

from collections.abc import Sequence
from functools import cached_property
from typing import Final, NamedTuple, TypedDict, TypeVar

from .cards import CARD_IDS, Card
from .errors import InvalidKingdom, UnknownCard

SIZE = 4
CELLS = range(SIZE * SIZE)

_T = TypeVar("_T")


def position(cell: int) -> tuple[int, int]:
    """The 0-based (row, column) of a cell index 0..15 (cell 6: row 1, column 2)."""
    return divmod(cell, SIZE)


def rows_of(cells: Sequence[_T]) -> list[list[_T]]:
    """16 values of the cells, row by row, as 4 rows of 4 (the game file's shape).

    :raises ValueError: not 16 values.
    """
    if len(cells) != SIZE * SIZE:
        raise ValueError(f"a kingdom has {SIZE * SIZE} cells, not {len(cells)}")
    return [list(cells[row * SIZE : (row + 1) * SIZE]) for row in range(SIZE)]


def cell_name(cell: int) -> str:
    """``"r2c3"`` for cell 6: 1-based row and column of a cell index 0..15."""
    return _CELL_NAMES[cell]


_CELL_NAMES = tuple(f"r{row + 1}c{column + 1}" for row in range(SIZE) for column in range(SIZE))


def neighbours(cell: int) -> tuple[int, ...]:
    """The cells sharing an edge with *cell* (R2.1: diagonals never count)."""
    row, column = divmod(cell, SIZE)
    found = []
    if row > 0:
        found.append(cell - SIZE)
    if column > 0:
        found.append(cell - 1)
    if column < SIZE - 1:
        found.append(cell + 1)
    if row < SIZE - 1:
        found.append(cell + SIZE)
    return tuple(found)


_NEIGHBOURS = tuple(neighbours(cell) for cell in CELLS)
_CARD_BY_ID = {card.value: card for card in Card}
_card_of_id = _CARD_BY_ID.__getitem__
_PORTAL = Card.PORTAL
_BIT = tuple(1 << cell for cell in CELLS)
_NO_CELLS = dict.fromkeys((*Card, None), 0)  # copied: quicker than building it again
_FULL = (1 << (SIZE * SIZE)) - 1
_NOTHING = (0,) * (SIZE * SIZE)
_NOT_FIRST_COLUMN = sum(_BIT[cell] for cell in CELLS if cell % SIZE)
_NOT_LAST_COLUMN = sum(_BIT[cell] for cell in CELLS if cell % SIZE != SIZE - 1)


def _spread(mask: int) -> int:
    """The cells sharing an edge with any cell of *mask* (bit shifts on the 4 × 4 grid)."""
    return (
        ((mask & _NOT_LAST_COLUMN) << 1) | ((mask & _NOT_FIRST_COLUMN) >> 1) | ((mask << SIZE) & _FULL) | (mask >> SIZE)
    )


def cells_of(mask: int) -> tuple[int, ...]:
    """The cells of a bitmask, ascending (two table look-ups, one per byte)."""
    return _LOW_CELLS[mask & 0xFF] + _HIGH_CELLS[mask >> 8]


_LOW_CELLS = tuple(tuple(cell for cell in range(8) if byte >> cell & 1) for byte in range(256))
_HIGH_CELLS = tuple(tuple(cell + 8 for cell in cells) for cells in _LOW_CELLS)
_NEIGHBOUR_MASKS = tuple(sum(_BIT[n] for n in _NEIGHBOURS[cell]) for cell in CELLS)
_NEIGHBOURS_AND_BITS = tuple(zip(_NEIGHBOUR_MASKS, _BIT, strict=True))


class PortalNetwork(NamedTuple):
    """A maximal group of Portal cards joined edge to edge (R2).

    :ivar portals: the portals' cell indices, ascending.
    :ivar members: the non-portal cells sharing an edge with any of them,
        ascending; every two of these are linked through the network.
    """

    portals: tuple[int, ...]
    members: tuple[int, ...]


class Link(NamedTuple):
    """How two distinct non-portal cards reach each other (R2, R2.3).

    One ``Link`` per pair, however many ways they are linked.

    :ivar cells: the two cell indices, lower first.
    :ivar adjacent: they share an edge.
    :ivar networks: the portal networks both border (possibly several).
    """

    cells: tuple[int, int]
    adjacent: bool
    networks: tuple[PortalNetwork, ...]

    def connects(self, through_portals: bool) -> bool:
        """Whether this is a connection, for cards that may or may not use
        portals (R2.1: a Goblin only ever uses edges)."""
        return self.adjacent or (through_portals and bool(self.networks))


class Reach(NamedTuple):
    """Who reaches whom in a kingdom, as bitmasks over the 16 cells (bit *n* = cell *n*).

    :ivar adjacent: per cell, the cards sharing an edge with it (portals and
        blank cells left out); for a portal, the cards around it.
    :ivar through: per cell, the non-portal cards linked to it through a
        portal network (R2), itself excluded; empty for portal cells.
    :ivar borders: per cell, which portal networks it borders (bit *k* =
        ``networks[k]``).
    :ivar networks: the kingdom's portal networks.
    """

    adjacent: tuple[int, ...]
    through: tuple[int, ...]
    borders: tuple[int, ...]
    networks: tuple[PortalNetwork, ...]

    def connects(self, a: int, b: int, through_portals: bool) -> bool:
        """Whether the cards at cells *a* and *b* (neither a portal) are
        connected, for cards that may or may not use portals (R2.1)."""
        return bool((self.adjacent[a] | (self.through[a] if through_portals else 0)) >> b & 1)

    def networks_between(self, a: int, b: int) -> tuple[PortalNetwork, ...]:
        """The portal networks that both *a* and *b* border."""
        common = self.borders[a] & self.borders[b]
        if not common & (common - 1):  # none or one: the usual case
            return (self.networks[common.bit_length() - 1],) if common else ()
        return tuple([network for k, network in enumerate(self.networks) if common >> k & 1])


_NEIGHBOURS_ONLY = Reach(_NEIGHBOUR_MASKS, _NOTHING, _NOTHING, ())


class Kingdom:
    """One player's final 4 × 4 grid of face-up Kingdom cards (R1).

    :ivar cards: 16 cards, row by row (index 0..15). Only a kingdom still
        being entered (see :meth:`partial`) holds ``None`` for a blank cell.
    :ivar card_masks: per card type, a bitmask of the cells holding it (bit
        *n* = cell *n*); every type is a key, ``None`` holds the blank cells.
        Worked out from *cards* in one pass; what scoring reads.

    Two kingdoms are equal when their cards are.
    """

    def __init__(self, cards: tuple[Card | None, ...]) -> None:
        if len(cards) != SIZE * SIZE:
            raise InvalidKingdom("kingdom-size", count=len(cards))
        masks = _NO_CELLS.copy()
        for card, bit in zip(cards, _BIT, strict=True):
            masks[card] |= bit
        self.cards: Final = cards
        self.card_masks: Final = masks

    def __eq__(self, other: object) -> bool:
        return self.cards == other.cards if isinstance(other, Kingdom) else NotImplemented

    def __hash__(self) -> int:
        return hash(self.cards)

    def __repr__(self) -> str:
        return f"Kingdom(cards={self.cards!r})"

    @classmethod
    def from_rows(
        cls,
        rows: Sequence[Sequence[str]],
        *,
        player: int | None = None,
        player_name: str | None = None,
    ) -> "Kingdom":
        """Build a kingdom from 4 rows of 4 canonical card ids (R1).

        :raises InvalidKingdom: if *rows* is not exactly 4 × 4.
        :raises UnknownCard: for the first cell that is not a card id; use
            :func:`kingdom_errors` to get every bad cell at once.
        """
        try:  # the common case, fast: 4 lists of 4 valid ids
            first, second, third, fourth = rows
            if len(first) == len(second) == len(third) == len(fourth) == SIZE:
                return cls(tuple(map(_card_of_id, (*first, *second, *third, *fourth))))
        except (KeyError, TypeError, ValueError):
            pass
        errors = kingdom_errors(rows, player=player, player_name=player_name)
        if errors:
            raise errors[0]
        return cls(tuple(Card(card) for row in rows for card in row))

    @classmethod
    def from_cells(cls, cells: Sequence[str]) -> "Kingdom":
        """Build a kingdom from 16 canonical card ids, row by row.

        :raises InvalidKingdom: if there are not 16.
        :raises UnknownCard: if one is not a card id.
        """
        if len(cells) != SIZE * SIZE:
            raise InvalidKingdom("kingdom-size", count=len(cells))
        return cls.from_rows([cells[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)])

    @classmethod
    def partial(cls, cells: Sequence[Card | None]) -> "Kingdom":
        """A kingdom still being entered: 16 cells, row by row, ``None`` where
        no card is entered yet.

        A blank cell is connected to nothing (R2 needs a card there): it is no
        land, tribe or Dragon, never joins a portal network and links no two
        cards. Scoring it gives the rows of the cards entered so far; a
        complete kingdom scores exactly as :class:`Kingdom` does. Game files
        and final sheets never hold blanks (R1, R8).

        :raises InvalidKingdom: if there are not 16 cells.
        """
        return cls(tuple(cells))

    @property
    def is_complete(self) -> bool:
        """Every cell holds a card (R1)."""
        return None not in self.cards

    @property
    def rows(self) -> tuple[tuple[Card | None, ...], ...]:
        """The 4 rows of 4 cards, top to bottom (``None`` for a blank cell, see :meth:`partial`)."""
        return tuple(self.cards[r * SIZE : (r + 1) * SIZE] for r in range(SIZE))

    @property
    def portal_networks(self) -> tuple[PortalNetwork, ...]:
        """Every portal network, ordered by its first portal cell (R2)."""
        return self.reach.networks

    @cached_property
    def links(self) -> dict[tuple[int, int], Link]:
        """Every pair of non-portal cards that is adjacent or shares a portal
        network, keyed by ``(lower cell, higher cell)`` (R2, R2.2, R2.3).

        Whether a link is a *connection* depends on the cards (Goblins ignore
        portals, R2.1): see :meth:`Link.connects`.
        """
        reach = self.reach  # the one reading of R2: links are that reach, pair by pair
        masks = self.card_masks
        links = {}
        for a in cells_of(_FULL ^ masks[_PORTAL] ^ masks[None]):  # portals link, they are not linked
            later = (reach.adjacent[a] | reach.through[a]) >> (a + 1)
            b = a
            while later:
                b += 1
                if later & 1:
                    links[(a, b)] = Link((a, b), bool(reach.adjacent[a] >> b & 1), reach.networks_between(a, b))
                later >>= 1
        return links

    @cached_property
    def _links_by_cell(self) -> tuple[tuple[tuple[int, Link], ...], ...]:
        by_cell: list[list[tuple[int, Link]]] = [[] for _ in CELLS]
        for (a, b), link in self.links.items():
            by_cell[a].append((b, link))
            by_cell[b].append((a, link))
        # Already by cell order: ``links`` is sorted by pair, so each cell first
        # meets the lower cells it pairs with, then the higher ones.
        return tuple(tuple(found) for found in by_cell)

    def linked_to(self, cell: int) -> tuple[tuple[int, Link], ...]:
        """``(other cell, link)`` for every card linked to *cell*, by cell order."""
        return self._links_by_cell[cell]

    @cached_property
    def reach(self) -> Reach:
        """Bitmasks of who reaches whom, cell by cell; what scoring reads (R2)."""
        masks = self.card_masks
        empty = masks[_PORTAL] | masks[None]  # cells that connect nothing themselves
        if not empty:  # sixteen cards, no portal: each card reaches its neighbours
            return _NEIGHBOURS_ONLY
        cards_mask = _FULL ^ empty
        adjacent = tuple([mask & cards_mask for mask in _NEIGHBOUR_MASKS])
        remaining = masks[_PORTAL]
        if not remaining:
            return Reach(adjacent, _NOTHING, _NOTHING, ())
        borders = [0] * (SIZE * SIZE)
        through = [0] * (SIZE * SIZE)
        networks = []
        index = 1
        while remaining:  # one portal network per turn, by its first portal
            # A flood fill over bitmasks: grow the lowest portal left by the
            # portals beside it until none is left beside it (R2: joined edge to edge).
            portals = remaining & -remaining
            border = _spread(portals)
            while border & remaining & ~portals:
                portals |= border & remaining
                border = _spread(portals)
            remaining ^= portals
            members = border & cards_mask  # blank cells connect nothing
            member_cells = cells_of(members)
            networks.append(PortalNetwork(cells_of(portals), member_cells))
            for cell in member_cells:
                borders[cell] |= index
                through[cell] |= members ^ _BIT[cell]  # the other members, not itself
            index <<= 1
        return Reach(adjacent, tuple(through), tuple(borders), tuple(networks))

    def count(self, card: Card) -> int:
        """How many cells hold *card*."""
        return self.cards.count(card)


class Who(TypedDict):
    """Whom a refusal concerns: the ``player`` and ``player_name`` keywords of a
    :class:`~.errors.GameError`, passed on together as ``**who``."""

    player: int | None
    player_name: str | None


def kingdom_errors(
    rows: object, *, player: int | None = None, player_name: str | None = None
) -> list[InvalidKingdom | UnknownCard]:
    """Every problem that keeps *rows* from being a kingdom (R8): shape first,
    then each cell that is not one of the ten card ids, row by row.

    Returns an empty list for a valid 4 × 4 grid of card ids.
    """
    who: Who = {"player": player, "player_name": player_name}
    if not isinstance(rows, (list, tuple)):
        return [InvalidKingdom("kingdom-not-list", **who)]
    if len(rows) != SIZE:
        return [InvalidKingdom("kingdom-rows", count=len(rows), **who)]
    errors: list[InvalidKingdom | UnknownCard] = []
    for r, row in enumerate(rows, start=1):
        if not isinstance(row, (list, tuple)):
            errors.append(InvalidKingdom("row-not-list", row=r, **who))
        elif len(row) != SIZE:
            errors.append(InvalidKingdom("row-length", count=len(row), row=r, **who))
    if errors:
        return errors
    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row, start=1):
            if isinstance(value, str) and value in CARD_IDS:
                continue
            if value in ("", None):
                errors.append(UnknownCard("card-missing", row=r, column=c, **who))
            else:
                errors.append(UnknownCard("card-unknown", value=str(value)[:40], row=r, column=c, **who))
    return errors

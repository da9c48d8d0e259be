"""The ten Kingdom card types and their groups (RULES.md R1)."""

from __future__ import annotations

import enum
from functools import cached_property


class Card(enum.Enum):
    """One Kingdom card type; the value is its canonical id (R1)."""

    FOREST = "forest"
    SWAMP = "swamp"
    MOUNTAIN = "mountain"
    PLAIN = "plain"
    ELVES = "elves"
    DWARVES = "dwarves"
    HUMANS = "humans"
    GOBLINS = "goblins"
    DRAGON = "dragon"
    PORTAL = "portal"

    # Members are singletons compared by identity: hash them as objects (C
    # speed) rather than by name, which made scoring spend a quarter of its time hashing.
    __hash__ = object.__hash__

    @property
    def is_land(self) -> bool:
        return self in LANDS

    @property
    def is_tribe(self) -> bool:
        return self in TRIBES

    @cached_property
    def label(self) -> str:
        """The card's printed English name: ``Magical Portal`` for ``portal``."""
        return _LABELS[self]

    @cached_property
    def code(self) -> str:
        """A two-letter abbreviation for grids and typed entry: ``Fo``, ``Dr``, …"""
        return _CODES[self]


LANDS: tuple[Card, ...] = (Card.FOREST, Card.SWAMP, Card.MOUNTAIN, Card.PLAIN)
TRIBES: tuple[Card, ...] = (Card.ELVES, Card.DWARVES, Card.HUMANS, Card.GOBLINS)

#: The ten canonical ids, as in game files (R1).
CARD_IDS: frozenset[str] = frozenset(card.value for card in Card)

_LABELS = {
    Card.FOREST: "Forest",
    Card.SWAMP: "Swamp",
    Card.MOUNTAIN: "Mountain",
    Card.PLAIN: "Plain",
    Card.ELVES: "Elves",
    Card.DWARVES: "Dwarves",
    Card.HUMANS: "Humans",
    Card.GOBLINS: "Goblins",
    Card.DRAGON: "Dragon",
    Card.PORTAL: "Magical Portal",
}

_CODES = {
    Card.FOREST: "Fo",
    Card.SWAMP: "Sw",
    Card.MOUNTAIN: "Mo",
    Card.PLAIN: "Pl",
    Card.ELVES: "El",
    Card.DWARVES: "Dw",
    Card.HUMANS: "Hu",
    Card.GOBLINS: "Go",
    Card.DRAGON: "Dr",
    Card.PORTAL: "Po",
}

#: Harmony Points a tribe card scores for one connected land card (R3).
TRIBE_LAND_POINTS: dict[Card, dict[Card, int]] = {
    Card.ELVES: {Card.FOREST: 2, Card.SWAMP: -1, Card.MOUNTAIN: 0, Card.PLAIN: 0},
    Card.DWARVES: {Card.FOREST: 0, Card.SWAMP: 0, Card.MOUNTAIN: 2, Card.PLAIN: 0},
    Card.HUMANS: {Card.FOREST: 1, Card.SWAMP: -1, Card.MOUNTAIN: 1, Card.PLAIN: 2},
    Card.GOBLINS: {Card.FOREST: 0, Card.SWAMP: 3, Card.MOUNTAIN: 0, Card.PLAIN: 0},
}

#: Tribes that can domesticate a Dragon (R5.1): Goblins never tame.
TAMING_TRIBES: tuple[Card, ...] = (Card.ELVES, Card.DWARVES, Card.HUMANS)


def parse_card(text: str) -> Card:
    """The card whose canonical id, English name or two-letter code is *text*.

    Case and surrounding spaces are ignored; ``"Dr"``, ``"dragon"`` and
    ``" Dragon "`` all give ``Card.DRAGON``.

    :raises ValueError: if *text* names no card.
    """
    key = text.strip().lower()
    try:
        return _BY_NAME[key]
    except KeyError:
        raise ValueError(f"{text!r} is not a card") from None


_BY_NAME: dict[str, Card] = {}
for _card in Card:
    _BY_NAME[_card.value] = _card
    _BY_NAME[_card.label.lower()] = _card
    _BY_NAME[_card.code.lower()] = _card
_BY_NAME["portal"] = Card.PORTAL

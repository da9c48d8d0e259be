"""Rulesets: the values that differ between ``pocket`` and ``classic`` (RULES.md R9).

A ruleset is data. Scoring code reads these fields and never asks which
ruleset it is running.
"""

from __future__ import annotations

from functools import cached_property
from typing import Final

from .cards import TRIBES, Card
from .errors import UnknownRuleset

#: Changes whenever a rule is implemented differently; saved games record it.
RULES_VERSION = "2026.11"


class Ruleset:
    """Everything that varies between rulesets.

    :ivar id: ``"pocket"`` or ``"classic"``, as in game files.
    :ivar name: how the sheet names it.
    :ivar dragon_values: Harmony Points a domesticated Dragon is worth (and a
        wild one costs) by the number N of Dragons in the kingdom: entry
        ``N - 1``; the last entry holds for every larger N (R5.2, R9).
    :ivar max_positive_dragons: at most this many domesticated Dragons count
        positive; the others count negative (R5.3).
    :ivar hated_pairs: unordered tribe pairs that conflict (R4.1).
    :ivar goblin_conflicts_through_portals: a Goblin conflict also reaches
        through portal networks (classic, R9); Goblins still never *score* or
        tame through portals.
    :ivar conflict_points: Harmony Points per conflict (R4.2).

    There are two, :data:`POCKET` and :data:`CLASSIC`, compared by identity.
    """

    def __init__(
        self,
        id: str,
        name: str,
        dragon_values: tuple[int, ...],
        max_positive_dragons: int,
        hated_pairs: frozenset[frozenset[Card]],
        goblin_conflicts_through_portals: bool,
        conflict_points: int = -2,
    ) -> None:
        self.id: Final = id
        self.name: Final = name
        self.dragon_values: Final = dragon_values
        self.max_positive_dragons: Final = max_positive_dragons
        self.hated_pairs: Final = hated_pairs
        self.goblin_conflicts_through_portals: Final = goblin_conflicts_through_portals
        self.conflict_points: Final = conflict_points

    def __repr__(self) -> str:
        return f"Ruleset(id={self.id!r})"

    def dragon_value(self, dragons: int) -> int:
        """What each Dragon is worth, in Harmony Points, with *dragons* in the kingdom."""
        return self.dragon_values[min(dragons, len(self.dragon_values)) - 1]

    def hates(self, a: Card, b: Card) -> bool:
        """Whether tribe cards *a* and *b* conflict when connected (R4.1)."""
        return (a, b) in self.hated_ordered

    @cached_property
    def hated_by(self) -> dict[Card, tuple[Card, ...]]:
        """For each tribe, the tribes it conflicts with (R4.1)."""
        return {tribe: tuple(other for other in TRIBES if (tribe, other) in self.hated_ordered) for tribe in TRIBES}

    @cached_property
    def hated_ordered(self) -> frozenset[tuple[Card, Card]]:
        """Every hated pair in both orders, for quick lookups."""
        return frozenset(
            (a, b) for pair in self.hated_pairs for a in pair for b in pair if a is not b or len(pair) == 1
        )


def _pairs(*pairs: tuple[Card, Card]) -> frozenset[frozenset[Card]]:
    return frozenset(frozenset(pair) for pair in pairs)


_GOBLINS_HATE_OTHERS = [(Card.GOBLINS, tribe) for tribe in TRIBES if tribe is not Card.GOBLINS]

POCKET = Ruleset(
    id="pocket",
    name="Pocket",
    dragon_values=(3, 4, 5),
    max_positive_dragons=3,
    hated_pairs=_pairs(*_GOBLINS_HATE_OTHERS, (Card.GOBLINS, Card.GOBLINS), (Card.ELVES, Card.DWARVES)),
    goblin_conflicts_through_portals=False,
)

CLASSIC = Ruleset(
    id="classic",
    name="Classic",
    dragon_values=(3, 5, 6),
    max_positive_dragons=3,
    hated_pairs=_pairs(*_GOBLINS_HATE_OTHERS, (Card.ELVES, Card.DWARVES)),
    goblin_conflicts_through_portals=True,
)

RULESETS: dict[str, Ruleset] = {ruleset.id: ruleset for ruleset in (POCKET, CLASSIC)}
DEFAULT_RULESET = POCKET


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset with id *ruleset_id* (R9).

    :raises UnknownRuleset: if there is none.
    """
    try:
        return RULESETS[ruleset_id]
    except (KeyError, TypeError):
        raise UnknownRuleset("ruleset-unknown", value=str(ruleset_id)[:40], known=tuple(RULESETS)) from None

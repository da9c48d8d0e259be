"""The fifteen Legend cards and their printed values (RULES.md R6)."""

# Annotations are not postponed (no `from __future__ import annotations`): typing.NamedTuple
# compiles every field annotation given as a string (in all, most of a millisecond on import).

from typing import NamedTuple


class Legend(NamedTuple):
    """A Legend card a player may claim once per game (R6).

    :ivar id: canonical id, as in game files (``"lands-forest"``).
    :ivar name: short printed title.
    :ivar requirement: what was checked at the table when it was claimed; the
        scorer never re-checks it (R6).
    :ivar value: Harmony Points it adds to the Legends row (R6.2).

    *name* and *requirement* are the printed English, the message ids of
    their translations. A claimed Legend is its own line of "why these
    points" (message id ``"legend"``: "Four Tribes: all four tribe types
    present → +4").
    """

    id: str
    name: str
    requirement: str
    value: int

    @property
    def message_id(self) -> str:
        return "legend"


LEGENDS: tuple[Legend, ...] = (
    Legend("tribes-elves", "Tribe of Elves", "2 connected Elves", 2),
    Legend("tribes-dwarves", "Tribe of Dwarves", "2 connected Dwarves", 2),
    Legend("tribes-humans", "Tribe of Humans", "2 connected Humans", 2),
    Legend("tribes-goblins", "Tribe of Goblins", "2 connected Goblins", 2),
    Legend("alliance-humans-elves", "Alliance of Humans and Elves", "Humans connected to Elves", 2),
    Legend("alliance-humans-dwarves", "Alliance of Humans and Dwarves", "Humans connected to Dwarves", 2),
    Legend(
        "battle-goblins-humans",
        "Battle of Goblins and Humans",
        "2 Goblins connected to one Humans card, or 2 Humans to one Goblin",
        3,
    ),
    Legend(
        "battle-goblins-elves",
        "Battle of Goblins and Elves",
        "2 Goblins connected to one Elves card, or 2 Elves to one Goblin",
        3,
    ),
    Legend(
        "battle-goblins-dwarves",
        "Battle of Goblins and Dwarves",
        "2 Goblins connected to one Dwarves card, or 2 Dwarves to one Goblin",
        3,
    ),
    Legend(
        "battle-elves-dwarves",
        "Battle of Elves and Dwarves",
        "2 Elves connected to one Dwarves card, or 2 Dwarves to one Elves card",
        3,
    ),
    Legend("lands-plain", "Land of Plains", "3 connected Plains", 4),
    Legend("lands-swamp", "Land of Swamps", "3 connected Swamps", 4),
    Legend("lands-mountain", "Land of Mountains", "3 connected Mountains", 4),
    Legend("lands-forest", "Land of Forests", "3 connected Forests", 4),
    Legend("four-tribes", "Four Tribes", "all four tribe types present", 4),
)

LEGENDS_BY_ID: dict[str, Legend] = {legend.id: legend for legend in LEGENDS}

"""What a correction changed, for a saved game's list of revisions (issue 11, item 15).

Two stored entries (game files, :meth:`Game.to_dict`) are compared seat by
seat; totals come from the engine (each entry scored again), the words from
the page's sentence writer.
"""

from __future__ import annotations

from ...engine import LEGENDS_BY_ID, Card, Game, score_game
from ..i18n import card_name, gettext, legend_name, ruleset_name, words


def revision_changes(before: dict, after: dict) -> list[str]:
    """One short line per change from *before* to *after*, in the page's language:
    ``"Yara, row 3, column 2: Swamp → Forest"``, ``"Yara: + Land of Forests"``,
    then each changed total, ``"Yara 9 → 12"``. Empty if nothing about the game changed.
    """
    changes: list[str] = []
    if before.get("ruleset", "pocket") != after.get("ruleset", "pocket"):
        changes.append(
            gettext("Rules: %(before)s → %(after)s", before=ruleset_name(before.get("ruleset", "pocket")),
                    after=ruleset_name(after.get("ruleset", "pocket")))
        )  # fmt: skip
    old_players, new_players = before["players"], after["players"]
    for seat, (old, new) in enumerate(zip(old_players, new_players, strict=False)):
        name = words().name(new["name"])
        if old["name"] != new["name"]:
            changes.append(gettext("Player %(number)d: %(before)s → %(after)s", number=seat + 1,
                                   before=words().name(old["name"]), after=name))  # fmt: skip
        old_cells = [card for row in old["kingdom"] for card in row]
        new_cells = [card for row in new["kingdom"] for card in row]
        for cell, (was, now) in enumerate(zip(old_cells, new_cells, strict=True)):
            if was != now:
                changes.append(
                    gettext("%(name)s, row %(row)d, column %(column)d: %(before)s → %(after)s", name=name,
                            row=cell // 4 + 1, column=cell % 4 + 1, before=card_name(Card(was)),
                            after=card_name(Card(now)))
                )  # fmt: skip
        old_legends, new_legends = set(old.get("legends", [])), set(new.get("legends", []))
        for legend in sorted(new_legends - old_legends):
            changes.append(f"{name}: + {legend_name(LEGENDS_BY_ID[legend])}")
        for legend in sorted(old_legends - new_legends):
            changes.append(f"{name}: − {legend_name(LEGENDS_BY_ID[legend])}")
    for old in old_players[len(new_players) :]:
        changes.append(gettext("%(name)s removed", name=words().name(old["name"])))
    for new in new_players[len(old_players) :]:
        changes.append(gettext("%(name)s added", name=words().name(new["name"])))
    old_totals = {r.player.name: r.total for r in score_game(Game.from_dict(before)).results}
    for result in score_game(Game.from_dict(after)).results:
        was = old_totals.get(result.player.name)
        if was is not None and was != result.total:
            changes.append(f"{words().name(result.player.name)} {was} → {result.total}")
    return changes

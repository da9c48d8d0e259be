"""Languages (Flask-Babel): English and German, and the engine's words and
sentences in the page's language.

The engine speaks English and stays free of Flask. Its names (cards, rows,
Legends, rulesets) are gettext message ids here; its sentences are rebuilt
from the engine's structured results (:class:`TribeScore`, :class:`Conflict`,
:class:`DragonScore`, :class:`Tiebreak`, …) with translatable patterns whose
English is exactly the engine's own. Refusals (R8) are matched by pattern.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

from flask import Flask, request
from flask_babel import Babel, format_date, format_decimal, get_locale, pgettext
from flask_babel import gettext as gettext
from flask_babel import ngettext as ngettext
from markupsafe import Markup

from ..engine import (
    LEGENDS,
    RULESETS,
    Card,
    Conflict,
    DeckWarning,
    DragonScore,
    GameError,
    KingdomScore,
    Legend,
    Row,
    ScoreSheet,
    Tiebreak,
    TribeScore,
    cell_name,
)
from .forms import KEYS

#: The languages offered, by their own name.
LANGUAGES = {"en": "English", "de": "Deutsch"}
COOKIE = "lang"


def N_(message: str) -> str:
    """Mark *message* for extraction; it is translated where it is shown."""
    return message


def choose_locale() -> str:
    """``?lang=`` when given, else the remembered choice (cookie), else the
    browser's Accept-Language, else English."""
    for asked in (request.args.get("lang"), request.cookies.get(COOKIE)):
        if asked in LANGUAGES:
            return asked
    return request.accept_languages.best_match(LANGUAGES) or "en"


def init_app(app: Flask) -> None:
    """Flask-Babel with the catalogues in ``scorekeeper/translations``; a
    ``?lang=`` choice is remembered for a year."""
    Babel(app, locale_selector=choose_locale)

    @app.after_request
    def remember_language(response):
        asked = request.args.get("lang")
        if asked in LANGUAGES and request.cookies.get(COOKIE) != asked:
            response.set_cookie(COOKIE, asked, max_age=365 * 24 * 3600, samesite="Lax", httponly=True)
        return response

    app.jinja_env.globals.update(
        LANGUAGES=LANGUAGES,
        format_date=format_date,
        format_decimal=format_decimal,
        cell_name=cell_name,
        Markup=Markup,
        language_url=language_url,
        current_language=lambda: str(get_locale() or "en"),
        card_name=card_name,
        card_short=card_short,
        CARDS=tuple(Card),
        KEY_OF={card: key for key, card in KEYS.items()},
        Row=Row,
        row_name=row_name,
        legend_name=legend_name,
        legend_requirement=legend_requirement,
        ruleset_name=ruleset_name,
        explain=explain,
        describe_tiebreak=describe_tiebreak,
        describe_shared=describe_shared,
        warning_message=warning_message,
    )


def language_url(language: str) -> str:
    """This page (GET) in *language*: the same path and query, ``lang`` replaced."""
    args = [(k, v) for k, v in request.args.items(multi=True) if k != "lang"]
    return request.path + "?" + urlencode([*args, ("lang", language)])


_CARD_NAMES = {
    Card.FOREST: N_("Forest"), Card.SWAMP: N_("Swamp"), Card.MOUNTAIN: N_("Mountain"),
    Card.PLAIN: N_("Plain"), Card.ELVES: N_("Elves"), Card.DWARVES: N_("Dwarves"),
    Card.HUMANS: N_("Humans"), Card.GOBLINS: N_("Goblins"), Card.DRAGON: N_("Dragon"),
    Card.PORTAL: N_("Magical Portal"),
}  # fmt: skip
_CARD_PLURALS = {
    Card.FOREST: N_("Forests"), Card.SWAMP: N_("Swamps"), Card.MOUNTAIN: N_("Mountains"),
    Card.PLAIN: N_("Plains"), Card.ELVES: N_("Elves"), Card.DWARVES: N_("Dwarves"),
    Card.HUMANS: N_("Humans"), Card.GOBLINS: N_("Goblins"), Card.DRAGON: N_("Dragons"),
    Card.PORTAL: N_("Magical Portals"),
}  # fmt: skip
_ROW_NAMES = {
    Row.ELVES: N_("Elves"), Row.DWARVES: N_("Dwarves"), Row.HUMANS: N_("Humans"), Row.GOBLINS: N_("Goblins"),
    Row.DRAGONS: N_("Dragons"), Row.LEGENDS: N_("Legends"), Row.CONFLICTS: N_("Conflicts"),
}  # fmt: skip
_LEGEND_WORDS = [
    N_("Tribe of Elves"), N_("Tribe of Dwarves"), N_("Tribe of Humans"), N_("Tribe of Goblins"),
    N_("Alliance of Humans and Elves"), N_("Alliance of Humans and Dwarves"),
    N_("Battle of Goblins and Humans"), N_("Battle of Goblins and Elves"),
    N_("Battle of Goblins and Dwarves"), N_("Battle of Elves and Dwarves"),
    N_("Land of Plains"), N_("Land of Swamps"), N_("Land of Mountains"), N_("Land of Forests"), N_("Four Tribes"),
    N_("2 connected Elves"), N_("2 connected Dwarves"), N_("2 connected Humans"), N_("2 connected Goblins"),
    N_("Humans connected to Elves"), N_("Humans connected to Dwarves"),
    N_("2 Goblins connected to one Humans card, or 2 Humans to one Goblin"),
    N_("2 Goblins connected to one Elves card, or 2 Elves to one Goblin"),
    N_("2 Goblins connected to one Dwarves card, or 2 Dwarves to one Goblin"),
    N_("2 Elves connected to one Dwarves card, or 2 Dwarves to one Elves card"),
    N_("3 connected Plains"), N_("3 connected Swamps"), N_("3 connected Mountains"), N_("3 connected Forests"),
    N_("all four tribe types present"),
]  # fmt: skip
_RULESET_NAMES = [N_("Pocket"), N_("Classic")]
assert len(_LEGEND_WORDS) == 2 * len(LEGENDS) and {r.name for r in RULESETS.values()} == set(_RULESET_NAMES)


def card_name(card: Card) -> str:
    """The card's name in the page's language (``Magische Portale`` edition terms)."""
    return gettext(_CARD_NAMES[card])


def row_name(row: Row) -> str:
    """A score-sheet row's name in the page's language."""
    return gettext(_ROW_NAMES[row])


def legend_name(legend: Legend) -> str:
    return gettext(legend.name)


def legend_requirement(legend: Legend) -> str:
    return gettext(legend.requirement)


def card_short(card: Card) -> str:
    """The name on a card picker or palette button (``Portal``)."""
    return gettext("Portal") if card is Card.PORTAL else card_name(card)


def ruleset_name(ruleset) -> str:
    """A ruleset's name in the page's language; *ruleset* is a :class:`Ruleset` or its id."""
    if isinstance(ruleset, str):
        if ruleset not in RULESETS:  # not one of ours: shown as stored
            return ruleset
        ruleset = RULESETS[ruleset]
    return gettext(ruleset.name)


_WAY = re.compile(r"through (portals?) (\S+)")


def _via(text: str) -> str:
    """``"adjacent and through portal r3c3"`` in the page's language."""
    ways = []
    for way in text.split(" and "):
        found = _WAY.fullmatch(way)
        if found is None:
            ways.append(gettext("adjacent"))
        elif found[1] == "portal":
            ways.append(gettext("through portal %(cells)s", cells=found[2]))
        else:
            ways.append(gettext("through portals %(cells)s", cells=found[2]))
    return gettext(" and ").join(ways)


def _tribe_line(tribe: TribeScore) -> str:
    if not tribe.lands:
        lands = gettext("no connected land")
    else:
        lands = ", ".join(
            f"{card_name(lp.land)} {cell_name(lp.cell)} {lp.points:+d} ({_via(lp.via)})" for lp in tribe.lands
        )
    return gettext(
        "%(tribe)s at %(cell)s: %(lands)s → %(points)s",
        tribe=card_name(tribe.tribe),
        cell=cell_name(tribe.cell),
        lands=lands,
        points=f"{tribe.points:+d}",
    )


def _conflict_line(conflict: Conflict) -> str:
    (a, b), (ta, tb) = conflict.cells, conflict.tribes
    via, points = _via(conflict.via), f"{conflict.points:+d}"
    return f"{card_name(ta)} {cell_name(a)} – {card_name(tb)} {cell_name(b)} ({via}) → {points}"


def _tamers(tribe: Card, count: int) -> str:
    """``"2 Dwarves"`` after "domesticated by": German needs the dative there ("von 2 Zwergen")."""
    if tribe is Card.ELVES:
        return pgettext("domesticated by", "%(count)d Elves", count=count)
    if tribe is Card.DWARVES:
        return pgettext("domesticated by", "%(count)d Dwarves", count=count)
    return pgettext("domesticated by", "%(count)d Humans", count=count)


def _dragon_line(dragon: DragonScore) -> str:
    points, cell = f"{dragon.points:+d}", cell_name(dragon.cell)
    if not dragon.tamers:
        return gettext(
            "Dragon at %(cell)s: wild, no two Elves, Dwarves or Humans connected → %(points)s",
            cell=cell,
            points=points,
        )

    def tamer(cell: int) -> str:
        way = dragon.way_from(cell)
        return f"{cell_name(cell)} {_via(way)}" if way else cell_name(cell)

    by = gettext(" and ").join(
        f"{_tamers(tribe, len(cells))} ({', '.join(tamer(c) for c in cells)})" for tribe, cells in dragon.tamers
    )
    if dragon.beyond_limit:
        return gettext(
            "Dragon at %(cell)s: domesticated by %(by)s; only three domesticated Dragons count positive (R5.3) "
            "→ %(points)s",
            cell=cell,
            by=by,
            points=points,
        )
    return gettext("Dragon at %(cell)s: domesticated by %(by)s → %(points)s", cell=cell, by=by, points=points)


def explain(score: KingdomScore, row: Row) -> list[str]:
    """The engine's :meth:`KingdomScore.explain` in the page's language."""
    if row is Row.DRAGONS:
        return [_dragon_line(d) for d in score.dragons]
    if row is Row.CONFLICTS:
        return [_conflict_line(c) for c in score.conflicts]
    if row is Row.LEGENDS:
        return [f"{legend_name(x)}: {legend_requirement(x)} → {x.value:+d}" for x in score.legends]
    return [_tribe_line(t) for t in score.tribes if t.tribe.value == row.value]


def describe_tiebreak(sheet: ScoreSheet, tiebreak: Tiebreak) -> str:
    """:meth:`ScoreSheet.describe_tiebreak` in the page's language (R7.5)."""
    a, b = tiebreak.values
    which = gettext(_SORTED_POSITIONS[tiebreak.position - 1])
    return gettext(
        "%(ahead)s ahead of %(behind)s: both have %(total)d Harmony Points; with their rows sorted from highest "
        "to lowest, %(which)s decides, %(a)d vs %(b)d.",
        ahead=sheet.results[tiebreak.ahead].player.name,
        behind=sheet.results[tiebreak.behind].player.name,
        total=tiebreak.total,
        which=which,
        a=a,
        b=b,
    )


# The engine's SORTED_POSITIONS, marked for translation.
_SORTED_POSITIONS = (
    N_("the highest row"),
    N_("the second-highest row"),
    N_("the third-highest row"),
    N_("the fourth-highest row"),
    N_("the fifth-highest row"),
    N_("the sixth-highest row"),
    N_("the seventh-highest row"),
)


def describe_shared(sheet: ScoreSheet, group: tuple[int, ...]) -> str:
    """:meth:`ScoreSheet.describe_shared` in the page's language (R7.4)."""
    names = [sheet.results[i].player.name for i in group]
    return gettext(
        "%(names)s and %(last)s share place %(place)d: equal totals and equal sorted rows (R7.4).",
        names=", ".join(names[:-1]),
        last=names[-1],
        place=sheet.results[group[0]].place,
    )


def warning_message(warning: DeckWarning) -> str:
    """:attr:`DeckWarning.message` in the page's language (R1)."""
    return gettext(
        "more %(cards)s than a %(players)d-player deck holds (%(count)d entered, %(deck)d in the deck) "
        "— check your entry",
        cards=gettext(_CARD_PLURALS[warning.card]),
        players=warning.players,
        count=warning.count,
        deck=warning.deck,
    )


#: The engine's refusals (R8) whose words are fixed, with what varies in groups.
_ERRORS = [
    (re.compile(r"no card chosen"), N_("no card chosen")),
    (re.compile(r"(?P<value>'.*') is not one of the ten card ids"), N_("%(value)s is not one of the ten card ids")),
    (re.compile(r"the name is empty"), N_("the name is empty")),
    (re.compile(r"the name must be text"), N_("the name must be text")),
    (re.compile(r"the name is already used by (?P<name>.*)"), N_("the name is already used by %(name)s")),
    (
        re.compile(r"the name is (?P<length>\d+) characters long; at most (?P<most>\d+) are allowed"),
        N_("the name is %(length)s characters long; at most %(most)s are allowed"),
    ),
    (
        re.compile(r"the name contains control or direction characters; use letters, digits and punctuation"),
        N_("the name contains control or direction characters; use letters, digits and punctuation"),
    ),
    (re.compile(r"the Legend “(?P<legend>.*)” is listed twice"), N_("the Legend “%(legend)s” is listed twice")),
    (
        re.compile(r"the Legend “(?P<legend>.*)” is already claimed by (?P<name>.*); a Legend belongs to one player"),
        N_("the Legend “%(legend)s” is already claimed by %(name)s; a Legend belongs to one player"),
    ),
    (re.compile(r"a game has 2 to 4 players, not (?P<count>\d+)"), N_("a game has 2 to 4 players, not %(count)s")),
    (re.compile(r"(?P<value>'.*') is not a Legend id"), N_("%(value)s is not a Legend id")),
    (re.compile(r'a Legend id must be text, like "lands-forest"'), N_('a Legend id must be text, like "lands-forest"')),
    (
        re.compile(r"unknown ruleset (?P<value>'.*') \(known: (?P<known>.*)\)"),
        N_("unknown ruleset %(value)s (known: %(known)s)"),
    ),
    (
        re.compile(r"the kingdom must be a list of 4 rows of 4 cards"),
        N_("the kingdom must be a list of 4 rows of 4 cards"),
    ),
    (
        re.compile(r"the kingdom must be 4 rows of 4 cards, not (?P<count>\d+) rows"),
        N_("the kingdom must be 4 rows of 4 cards, not %(count)s rows"),
    ),
    (re.compile(r"the row must be a list of 4 cards"), N_("the row must be a list of 4 cards")),
    (re.compile(r"the row must have 4 cards, not (?P<count>\d+)"), N_("the row must have 4 cards, not %(count)s")),
    # game files and histories being imported (store.exchange)
    (
        re.compile(r'a game needs a "players" list at the top; this file has it under "game"'),
        N_('a game needs a "players" list at the top; this file has it under "game"'),
    ),
    (re.compile(r'a game needs a "players" list'), N_('a game needs a "players" list')),
    (
        re.compile(r"date (?P<value>'.*') is not a date like 2026-11-30"),
        N_("date %(value)s is not a date like 2026-11-30"),
    ),
    (re.compile(r"location and notes must be text"), N_("location and notes must be text")),
    (
        re.compile(r"the (?P<field>location|notes) is longer than (?P<most>\d+) characters"),
        N_("the %(field)s is longer than %(most)s characters"),
    ),
    (
        re.compile(r"the (?P<field>location|notes) has control or text-direction characters"),
        N_("the %(field)s has control or text-direction characters"),
    ),
    (
        re.compile(r'"games" must be a non-empty list of game files'),
        N_('"games" must be a non-empty list of game files'),
    ),
]


_DETAIL_FIELDS = {"location": N_("location"), "notes": N_("notes")}


def error_text(error: GameError) -> str:
    """``error.message`` (without player and cell) in the page's language."""
    message = error.message
    for pattern, msgid in _ERRORS:
        found = pattern.fullmatch(error.message)
        if found:
            values = found.groupdict()
            if "legend" in values:
                legend = next((x for x in LEGENDS if x.name == values["legend"]), None)
                values["legend"] = legend_name(legend) if legend else values["legend"]
            if "field" in values:
                values["field"] = gettext(_DETAIL_FIELDS[values["field"]])
            message = gettext(msgid, **values)
            break
    return message


def error_message(error: GameError) -> str:
    """``str(error)`` (player, cell, message) in the page's language."""
    message = error_text(error)
    parts = []
    if error.player_name:
        parts.append(error.player_name)
    elif error.player is not None:
        parts.append(gettext("Player %(number)d", number=error.player + 1))
    if error.row is not None:
        parts.append(gettext("row %(row)d", row=error.row))
    if error.column is not None:
        parts.append(gettext("column %(column)d", column=error.column))
    return f"{', '.join(parts)}: {message}" if parts else message

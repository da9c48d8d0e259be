"""The words of the game, in one place: every sentence scorekeeper shows about
a game, written in one language from what the engine says.

The engine has no words. A refusal (R8) is a :class:`GameError` with a
message id (``"player-count"``) and its parameters (``count=1``); a line of
"why these points" is one of the engine's records (:class:`TribeScore`,
:class:`Conflict`, :class:`DragonScore`, a claimed :class:`Legend`), a
tiebreak note a :class:`Tiebreak`, a deck warning a :class:`DeckWarning`,
each naming its sentence in ``message_id``. :class:`Words` writes them:
through gettext (the English below is each sentence's message id in
``scorekeeper/translations``), with Babel for lists (``format_list``),
plural forms (``ngettext``) and signed numbers.

No Flask here: the command line and the JSON API use :data:`ENGLISH`; the
pages build a :class:`Words` from Flask-Babel's translations and locale
(``web/i18n.py``).

A language is an entry of :data:`LANGUAGES` and its catalogue, a folder of
``scorekeeper/translations`` (``docs/languages.md``); everything else a
language brings (the words typed for a card, lists, numbers, dates, plural
forms, the CSV separator) comes from that catalogue and from Babel's locale.
"""

from __future__ import annotations

import functools
import gettext as _gettext
import math
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .engine import (
    LEGENDS,
    LEGENDS_BY_ID,
    RULESETS,
    Card,
    Conflict,
    DeckWarning,
    DragonScore,
    GameError,
    GameErrors,
    KingdomScore,
    Legend,
    LegendClaim,
    PlayerResult,
    PortalNetwork,
    Reason,
    Row,
    Ruleset,
    ScoreSheet,
    Tiebreak,
    TribeScore,
    position,
)

__all__ = [
    "ENGLISH",
    "ERROR_IDS",
    "LANGUAGES",
    "REASON_IDS",
    "TRANSLATIONS",
    "N_",
    "Words",
    "sentence",
    "sentence_case",
    "words_in",
]

#: The languages offered, each by its own name. English is the message ids
#: themselves; every other language has its catalogue in a folder of
#: :data:`TRANSLATIONS` named by its code (``fr/LC_MESSAGES/messages.po``).
LANGUAGES = {"en": "English", "de": "Deutsch", "fr": "Français", "it": "Italiano", "es": "Español"}
#: The catalogues' folder (Flask-Babel's translation directory).
TRANSLATIONS = Path(__file__).resolve().parent / "translations"


def sentence_case(text: str) -> str:
    """*text* with its first letter upper case, the rest as it is (``"r1c2 …"`` → ``"R1c2 …"``)."""
    return text[:1].upper() + text[1:]


def sentence(text: str) -> str:
    """A message standing on its own (beside a field) as a sentence: its first
    letter upper case and an end mark (the engine's messages are also parts of
    longer lines, so they have neither): ``"the name is empty"`` → ``"The name is empty."``."""
    text = sentence_case(text)
    return text if text.rstrip().endswith((".", "?", "!", "…")) else f"{text}."


def N_(message: str) -> str:
    """Mark *message* for extraction; it is translated where it is shown."""
    return message


#: The four places of R7, as the score sheet writes them.
_PLACES = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"))


#: Each card's name and its plural (for "2 Forests"), as the catalogue's message ids.
_CARD_WORDS = {
    Card.FOREST: (N_("Forest"), N_("Forests")),
    Card.SWAMP: (N_("Swamp"), N_("Swamps")),
    Card.MOUNTAIN: (N_("Mountain"), N_("Mountains")),
    Card.PLAIN: (N_("Plain"), N_("Plains")),
    Card.ELVES: (N_("Elves"), N_("Elves")),
    Card.DWARVES: (N_("Dwarves"), N_("Dwarves")),
    Card.HUMANS: (N_("Humans"), N_("Humans")),
    Card.GOBLINS: (N_("Goblins"), N_("Goblins")),
    Card.DRAGON: (N_("Dragon"), N_("Dragons")),
    Card.PORTAL: (N_("Magical Portal"), N_("Magical Portals")),
}
_ROW_NAMES = {
    Row.ELVES: N_("Elves"), Row.DWARVES: N_("Dwarves"), Row.HUMANS: N_("Humans"), Row.GOBLINS: N_("Goblins"),
    Row.DRAGONS: N_("Dragons"), Row.LEGENDS: N_("Legends"), Row.CONFLICTS: N_("Conflicts"),
}  # fmt: skip
# The Legends' printed names and requirements (engine/legends.py) are their message ids.
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
assert {word for legend in LEGENDS for word in (legend.name, legend.requirement)} == set(_LEGEND_WORDS)
assert {ruleset.name for ruleset in RULESETS.values()} == set(_RULESET_NAMES)

#: How a tiebreak note names position 1..7 of the rows sorted from highest to
#: lowest (R7.5): "the second-highest row", not "row 2", which reads as the
#: sheet's second row (Dwarves).
_SORTED_POSITIONS = (
    N_("the highest row"),
    N_("the second-highest row"),
    N_("the third-highest row"),
    N_("the fourth-highest row"),
    N_("the fifth-highest row"),
    N_("the sixth-highest row"),
    N_("the seventh-highest row"),
)

if TYPE_CHECKING:
    from datetime import date

    from babel import Locale
    from babel.numbers import NumberPattern

# Babel is imported when a list or a signed number is first written, not with
# this module: `scorekeeper score` without explanations writes neither.


@functools.cache
def _signed_pattern() -> NumberPattern:
    """Harmony Points with their sign, as every explanation ends: "+4", "-2", "+0"."""
    from babel.numbers import parse_pattern

    return parse_pattern("+#,##0;-#,##0")


@functools.cache
def _narrow_list(locale: Locale) -> dict[str, str]:
    """CLDR's "standard-narrow" list patterns of *locale*, each part it leaves
    out taken from "standard-short", then "standard", as CLDR inherits them:
    French gives only the narrow "end" and "2", and Babel's ``format_list``
    then fails on a list of three (it reads a style whole)."""
    styles = locale.list_patterns
    return {**styles["standard"], **styles.get("standard-short", {}), **styles.get("standard-narrow", {})}


#: How many ways of reaching a card one :class:`Words` keeps written.
_KEPT_WAYS = 1024


@functools.cache
def _locale(name: str) -> Locale:
    """*name* as a :class:`babel.Locale`; the project's plain English is
    British: lists without a serial comma ("Ada, Bo and Cy")."""
    from babel import Locale

    parsed = Locale.parse(name)
    return Locale("en", "GB") if parsed.language == "en" and not parsed.territory else parsed


def _without_accents(word: str) -> str:
    """*word* without its accents and umlauts: ``"forêt"`` → ``"foret"``."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch))


class Words:
    """Sentences about a game in one language.

    :param translations: a gettext catalogue (``gettext.NullTranslations``,
        ``babel.support.Translations``, Flask-Babel's ``get_translations()``);
        ``None`` writes the English message ids themselves.
    :param locale: the language for lists and numbers (``"de"``, a
        :class:`babel.Locale`); plain ``"en"`` is written the British way.
    :param isolate_names: wrap each player's name in Unicode's first-strong
        isolate (U+2068 … U+2069), as pages need: an Arabic or Hebrew name
        then keeps its place in an English or German sentence ("سارة ahead of
        Bo"), its neighbours' numbers and stars too. Off for the command line
        and JSON, where the characters would be noise.
    """

    def __init__(
        self,
        translations: _gettext.NullTranslations | None = None,
        locale: Locale | str = "en",
        *,
        isolate_names: bool = False,
    ) -> None:
        self.isolate_names = isolate_names
        catalogue = translations if translations is not None else _gettext.NullTranslations()
        self._gettext = catalogue.gettext
        self._ngettext = catalogue.ngettext
        self._pgettext = catalogue.pgettext
        self._locale_name = str(locale)
        # A page or a sheet says the same few words many times: each is looked up once.
        self._signed: dict[int, str] = {}
        self._ways: dict[tuple[bool, tuple[tuple[int, ...], ...]], str] = {}  # by the portals' cells
        self._cards = {card: self._(name) for card, (name, _plural) in _CARD_WORDS.items()}
        self._codes = {  # the codes are the first letters of the names (German: Wald → Wa)
            Card.FOREST: self.pgettext("card code", "Fo"), Card.SWAMP: self.pgettext("card code", "Sw"),
            Card.MOUNTAIN: self.pgettext("card code", "Mo"), Card.PLAIN: self.pgettext("card code", "Pl"),
            Card.ELVES: self.pgettext("card code", "El"), Card.DWARVES: self.pgettext("card code", "Dw"),
            Card.HUMANS: self.pgettext("card code", "Hu"), Card.GOBLINS: self.pgettext("card code", "Go"),
            Card.DRAGON: self.pgettext("card code", "Dr"), Card.PORTAL: self.pgettext("card code", "Po"),
        }  # fmt: skip
        self._cells = tuple(
            self.pgettext("cell", "r%(row)dc%(column)d", row=row + 1, column=column + 1)
            for row, column in map(position, range(16))
        )

    @functools.cached_property
    def locale(self) -> Locale:
        """The :class:`babel.Locale` of lists and numbers (read when first needed)."""
        return _locale(self._locale_name)

    # -- gettext, as Flask-Babel calls it: the message, then its %(name)s parameters

    def _(self, message: str, **params: Any) -> str:
        text = self._gettext(message)
        return text % params if params else text

    def labelled(self, label: str, text: str) -> str:
        """*text* after its *label* and a colon as the language writes it (French: a space before)."""
        return self._("%(label)s: %(text)s", label=label, text=text)

    def ngettext(self, singular: str, plural: str, num: int, **params: Any) -> str:
        """The plural form for *num* (also ``%(num)d``) of the language."""
        return self._ngettext(singular, plural, num) % {"num": num, **params}

    def pgettext(self, context: str, message: str, **params: Any) -> str:
        text = self._pgettext(context, message)
        return text % params if params else text

    # -- names and numbers

    def name(self, name: str) -> str:
        """A player's name inside a sentence: isolated from its neighbours when
        :attr:`isolate_names` (names never hold direction characters, R8)."""
        return f"\u2068{name}\u2069" if self.isolate_names else name

    def card(self, card: Card) -> str:
        """The card's name (``Magisches Portal``: the German edition's words)."""
        return self._cards[card]

    def code(self, card: Card) -> str:
        """The card's two-letter code, from its name in this language (``Fo``, German ``Wa``)."""
        return self._codes[card]

    def typed(self, card: Card) -> frozenset[str]:
        """The words a table types for *card* in this language, lower case: its
        name and plural, its code and the catalogue's list of words typed for it
        (a tribe's singular, a shorter name: German ``zwerg``), each also without
        accents (``wälder`` → ``walder``) for keyboards that have none."""
        listed = self._typed_lists()[card]
        words = {self.card(card), self.cards(card), self.code(card), *listed.split(",")}
        words = {" ".join(word.split()).lower() for word in words} - {""}
        return frozenset(words | {_without_accents(word) for word in words})

    def _typed_lists(self) -> dict[Card, str]:
        # Comma-separated; the card's name, plural and code count without being listed. A translation lists
        # its own language's words: every language's are read on every page (web/forms.py).
        return {
            Card.FOREST: self.pgettext("words typed for a card", "forest, forests"),
            Card.SWAMP: self.pgettext("words typed for a card", "swamp, swamps"),
            Card.MOUNTAIN: self.pgettext("words typed for a card", "mountain, mountains"),
            Card.PLAIN: self.pgettext("words typed for a card", "plain, plains"),
            Card.ELVES: self.pgettext("words typed for a card", "elf, elfs, elves"),
            Card.DWARVES: self.pgettext("words typed for a card", "dwarf, dwarfs, dwarves"),
            Card.HUMANS: self.pgettext("words typed for a card", "human, humans"),
            Card.GOBLINS: self.pgettext("words typed for a card", "goblin, goblins"),
            Card.DRAGON: self.pgettext("words typed for a card", "dragon, dragons"),
            Card.PORTAL: self.pgettext(
                "words typed for a card",
                "portal, portals, magic portal, magic portals, magical portal, magical portals",
            ),
        }

    def cell(self, cell: int) -> str:
        """A cell (index 0..15) as explanations name it: ``r2c3`` (German ``Z2S3``) for cell 6."""
        return self._cells[cell]

    def cards(self, card: Card) -> str:
        """The card's name for several of them (``Forests``)."""
        return self._(_CARD_WORDS[card][1])

    def row(self, row: Row) -> str:
        """A score-sheet row's name."""
        return self._(_ROW_NAMES[row])

    def legend_name(self, legend: Legend) -> str:
        return self._(legend.name)

    def legend_requirement(self, legend: Legend) -> str:
        return self._(legend.requirement)

    def legend_claimed_twice(self, names: Sequence[str], legend: Legend) -> str:
        """A Legend the players *names* (two or more, by seat) all claim at a shared
        table: only one may (R6.1)."""
        return self._(
            "%(name)s and %(others)s both claim %(legend)s; only one may (R6.1).",
            name=self.name(names[0]),
            others=", ".join(self.name(other) for other in names[1:]),
            legend=self.legend_name(legend),
        )

    def ruleset(self, ruleset: Ruleset) -> str:
        return self._(ruleset.name)

    def place(self, place: int) -> str:
        """A place of R7 as the score sheet writes it: ``"1st"`` … ``"4th"``
        (German ``"1."`` … ``"4."``); a game has at most four places."""
        if 1 <= place <= len(_PLACES):
            return self._(_PLACES[place - 1])
        return str(place)

    def points(self, points: int) -> str:
        """Harmony Points with their sign: ``"+4"``, ``"-2"``."""
        found = self._signed.get(points)
        if found is None:
            found = self._signed[points] = _signed_pattern().apply(points, self.locale)
        return found

    def harmony_points(self, total: int) -> str:
        """A total in words, the plural form the language gives it: ``"1 Harmony Point"``,
        ``"2 Harmony Points"`` (French ``"0 Point d'Harmonie"``: 0 and 1 are singular)."""
        return self.ngettext("%(num)d Harmony Point", "%(num)d Harmony Points", total)

    def listing(self, items: Sequence[str]) -> str:
        """A list in a sentence: ``"Ada, Bo and Cy"``."""
        from babel.lists import format_list

        return format_list(list(items), locale=self.locale)

    def enumeration(self, items: Sequence[str]) -> str:
        """A list in brackets or after a colon, as short as the language has
        it: ``"r1c2, r2c1, r3c2"`` (German: ``"r1c2, r2c1 und r3c2"``, French
        ``"L1C2, L2C1, L3C2"``): CLDR's "standard-narrow" list."""
        patterns = _narrow_list(self.locale)
        if len(items) < 2:
            return "".join(items)
        if len(items) == 2:
            return patterns["2"].format(*items)
        text = patterns["start"].format(items[0], items[1])
        for item in items[2:-1]:
            text = patterns["middle"].format(text, item)
        return patterns["end"].format(text, items[-1])

    # -- why these points (R2–R7)

    def way(self, adjacent: bool, networks: tuple[PortalNetwork, ...]) -> str:
        """How one card reaches another (R2): ``"adjacent and through portal r3c3"``."""
        key = (adjacent, tuple([network.portals for network in networks]))
        found = self._ways.get(key)
        if found is None:
            ways = [self._("adjacent")] if adjacent else []
            for portals in key[1]:
                cells, count = "+".join([self.cell(cell) for cell in portals]), len(portals)
                ways.append(self.ngettext("through portal %(cells)s", "through portals %(cells)s", count, cells=cells))
            if len(self._ways) >= _KEPT_WAYS:  # the words of a long-running process stay small
                self._ways.clear()
            found = self._ways[key] = self.listing(ways)
        return found

    def reason(self, reason: Reason) -> str:
        """One line of "why these points", by its ``message_id`` (:data:`REASON_IDS`)."""
        return _REASONS[reason.message_id](self, reason)

    def explain(self, score: KingdomScore, row: Row) -> list[str]:
        """One sentence per card or claim behind *row* of one player's column."""
        return [self.reason(reason) for reason in score.explain(row)]

    def _tribe(self, tribe: TribeScore) -> str:
        if not tribe.reached:
            return self._(
                "%(tribe)s at %(cell)s: no connected land → %(points)s",
                tribe=self.card(tribe.tribe),
                cell=self.cell(tribe.cell),
                points=self.points(tribe.points),
            )
        lands = [
            f"{self.card(land.land)} {self.cell(land.cell)} {self.points(land.points)} "
            f"({self.way(land.adjacent, land.networks)})"
            for land in tribe.lands
        ]
        return self._(
            "%(tribe)s at %(cell)s: %(lands)s → %(points)s",
            tribe=self.card(tribe.tribe),
            cell=self.cell(tribe.cell),
            lands=self.enumeration(lands),
            points=self.points(tribe.points),
        )

    def _conflict(self, conflict: Conflict) -> str:
        (a, b), (first, second) = conflict.cells, conflict.tribes
        way = self.way(conflict.adjacent, conflict.networks)
        return (
            f"{self.card(first)} {self.cell(a)} – {self.card(second)} {self.cell(b)} ({way}) "
            f"→ {self.points(conflict.points)}"
        )

    def _dragon(self, dragon: DragonScore) -> str:
        cell, points = self.cell(dragon.cell), self.points(dragon.points)
        # what a Dragon is worth depends on how many the kingdom holds (R5.2): the sentence says how many
        count = dragon.kingdom.cards.count(Card.DRAGON)
        dragons = self.ngettext(
            "the only Dragon in the kingdom (R5.2)", "one of %(num)d Dragons in the kingdom (R5.2)", count
        )
        if not dragon.tamers:
            return self._(
                "Dragon at %(cell)s: wild, no two Elves, Dwarves or Humans connected; %(dragons)s → %(points)s",
                cell=cell,
                dragons=dragons,
                points=points,
            )
        by = self.listing(
            [
                f"{self._tamers(tribe, len(cells))} ({self.enumeration([self._tamer(dragon, c) for c in cells])})"
                for tribe, cells in dragon.tamers
            ]
        )
        if dragon.beyond_limit:
            return self._(
                "Dragon at %(cell)s: domesticated by %(by)s; only three domesticated Dragons count positive (R5.3) "
                "→ %(points)s",
                cell=cell,
                by=by,
                points=points,
            )
        return self._(
            "Dragon at %(cell)s: domesticated by %(by)s; %(dragons)s → %(points)s",
            cell=cell,
            by=by,
            dragons=dragons,
            points=points,
        )

    def _tamer(self, dragon: DragonScore, cell: int) -> str:
        """``"r1c3"``, or ``"r1c3 through portal r1c2"`` when not beside the Dragon."""
        networks = dragon.way_from(cell)
        return f"{self.cell(cell)} {self.way(False, networks)}" if networks else self.cell(cell)

    def _tamers(self, tribe: Card, count: int) -> str:
        """``"2 Dwarves"`` after "domesticated by": German needs the dative there ("von 2 Zwergen")."""
        if tribe is Card.ELVES:
            return self.pgettext("domesticated by", "%(count)d Elves", count=count)
        if tribe is Card.DWARVES:
            return self.pgettext("domesticated by", "%(count)d Dwarves", count=count)
        return self.pgettext("domesticated by", "%(count)d Humans", count=count)

    def _legend(self, claim: LegendClaim | Legend) -> str:
        legend = claim.legend if isinstance(claim, LegendClaim) else claim
        line = self.labelled(
            self.legend_name(legend), f"{self.legend_requirement(legend)} → {self.points(legend.value)}"
        )
        if isinstance(claim, LegendClaim) and not claim.is_shown:  # counted all the same (R6)
            return self._(
                "%(line)s. Claimed at the table, so it counts (R6), but the final kingdom no longer shows it: "
                "is it ticked for the right player?",
                line=line,
            )
        return line

    # -- places and warnings (R7, R1)

    def tiebreak(self, sheet: ScoreSheet, tiebreak: Tiebreak) -> str:
        """How R7.3 decided (R7.5): "Ada ahead of Bo: both have 6 Harmony Points;
        with their rows sorted from highest to lowest, the highest row decides, 6 vs 4." """
        a, b = tiebreak.values
        return self.ngettext(
            "%(ahead)s ahead of %(behind)s: both have %(num)d Harmony Point; with their rows sorted from highest "
            "to lowest, %(which)s decides, %(a)d vs %(b)d.",
            "%(ahead)s ahead of %(behind)s: both have %(num)d Harmony Points; with their rows sorted from highest "
            "to lowest, %(which)s decides, %(a)d vs %(b)d.",
            tiebreak.total,
            ahead=self.name(sheet.results[tiebreak.ahead].player.name),
            behind=self.name(sheet.results[tiebreak.behind].player.name),
            which=self._(_SORTED_POSITIONS[tiebreak.position - 1]),
            a=a,
            b=b,
        )

    def shared(self, sheet: ScoreSheet, group: tuple[int, ...]) -> str:
        """Players still equal after R7.3 (R7.4): "Ada, Bo and Cy share place 1: …" (``"shared-place"``)."""
        return self._(
            "%(names)s share place %(place)d: equal totals and equal sorted rows (R7.4).",
            names=self.listing([self.name(sheet.results[i].player.name) for i in group]),
            place=sheet.results[group[0]].place,
        )

    def result_title(self, sheet: ScoreSheet, played_on: date | None) -> str:
        """The game and who won, for a chat or a link preview: "DRAKO Pocket,
        30 Nov 2026: Quin wins with 18" ("… : Quin and Mads share the win with
        18" when several share place 1, R7.4); no date when the sheet has none."""
        from babel.dates import format_date

        game = self._("DRAKO %(ruleset)s", ruleset=self.ruleset(sheet.game.ruleset))
        if played_on is not None:
            game = self._(
                "%(game)s, %(date)s", game=game, date=format_date(played_on, self._("d MMM y"), locale=self.locale)
            )
        return self._("%(game)s: %(result)s", game=game, result=self.result_winner(sheet))

    def result_winner(self, sheet: ScoreSheet) -> str:
        """Who won and with how many Harmony Points: "Quin wins with 18", or
        "Quin and Mads share the win with 18" when several share place 1 (R7.4)."""
        winners = sheet.winners
        if len(winners) == 1:
            return self._(
                "%(name)s wins with %(total)d", name=self.name(winners[0].player.name), total=winners[0].total
            )
        return self._(
            "%(names)s share the win with %(total)d",
            names=self.listing([self.name(r.player.name) for r in winners]),
            total=winners[0].total,
        )

    def result_heading(self, sheet: ScoreSheet, played_on: date | None) -> str:
        """The game, its ruleset and its date, as the sheet's heading line says them:
        "DRAKO: Aetherya Pocket · Pocket ruleset · 30 November 2026" (no date when
        the sheet has none)."""
        from babel.dates import format_date

        parts = ["DRAKO: Aetherya Pocket", self._("%(ruleset)s ruleset", ruleset=self.ruleset(sheet.game.ruleset))]
        if played_on is not None:
            parts.append(format_date(played_on, self._("d MMMM y"), locale=self.locale))
        return " · ".join(parts)

    def result_scores(self, results: Sequence[PlayerResult]) -> str:
        """Players and their totals, by place: "Mads 12 · Rin 10 · Yara 2"."""
        return " · ".join(self._("%(name)s %(total)d", name=self.name(r.player.name), total=r.total) for r in results)

    def result_summary(self, sheet: ScoreSheet, played_on: date | None) -> str:
        """One line to share a result: :meth:`result_title`, then everyone else by
        place: "DRAKO Pocket, 30 Nov 2026: Quin wins with 18 · Mads 12 · Rin 10 · Yara 2"."""
        others = [r for r in sheet.ranked if r.place != 1]
        title = self.result_title(sheet, played_on)
        return f"{title} · {self.result_scores(others)}" if others else title

    def warning(self, warning: DeckWarning) -> str:
        """More copies of a card than the deck holds (R1)."""
        return self._(
            "more %(cards)s than a %(players)d-player deck holds (%(count)d entered, %(deck)d in the deck) "
            "— check your entry",
            cards=self.cards(warning.card),
            players=warning.players,
            count=warning.count,
            deck=warning.deck,
        )

    def sheet(self, sheet: ScoreSheet) -> dict[str, Any]:
        """The score sheet in the CLI/API JSON shape: :meth:`ScoreSheet.to_dict`
        with each player's ``explanations`` (row → sentences), then the
        ``tiebreaks`` (tiebreak notes, then shared places) and ``warnings``."""
        shape = sheet.to_dict()
        for player, result in zip(shape["players"], sheet.results, strict=True):
            player["explanations"] = {
                row.value: [self.reason(reason) for reason in reasons]
                for row, reasons in result.score.explanations().items()
            }
        shape["tiebreaks"] = [self.tiebreak(sheet, t) for t in sheet.tiebreaks] + [
            self.shared(sheet, group) for group in sheet.shared
        ]
        shape["warnings"] = [self.warning(w) for w in sheet.warnings]
        return shape

    # -- refusals (R8)

    def error_text(self, error: GameError) -> str:
        """What is wrong, without who or where: ``"the name is empty"``."""
        write = _ERRORS.get(error.message_id)
        return write(self, error.params) if write else str(error)

    def where(self, error: GameError) -> str:
        """``"Ada, row 2, column 3"``: whose entry and which cell, or ``""``."""
        parts = []
        if error.player_name:
            parts.append(self.name(error.player_name))
        elif error.player is not None:
            parts.append(self._("Player %(number)d", number=error.player + 1))
        if error.row is not None:
            parts.append(self._("row %(row)d", row=error.row))
        if error.column is not None:
            parts.append(self._("column %(column)d", column=error.column))
        return ", ".join(parts)

    def error(self, error: GameError) -> str:
        """The whole refusal: ``"game 2: Ada, row 2, column 3: no card chosen"``."""
        where, text = self.where(error), self.error_text(error)
        problem = self.labelled(where, text) if where else text
        if error.game is None:
            return problem
        return self._("game %(number)d: %(problem)s", number=error.game, problem=problem)

    def errors(self, errors: GameErrors, limit: int = 50) -> list[str]:
        """One sentence per problem, at most *limit*, then how many more there
        were, those only counted included (``"… and 99,950 more problems"``,
        German ``"… und 99.950 weitere Probleme"``)."""
        shown = [self.error(error) for error in errors.errors[:limit]]
        more = errors.count - len(shown)
        if more > 0:
            shown.append(
                self.ngettext(
                    "… and %(count)s more problem", "… and %(count)s more problems", more, count=self.number(more)
                )
            )
        return shown

    def revision_changes(
        self,
        before: Mapping[str, Any],
        after: Mapping[str, Any],
        totals_before: Mapping[str, int],
        totals_after: Sequence[tuple[str, int]],
    ) -> list[str]:
        """One short line per change from the game file *before* to *after* (a saved
        game's revisions): ``"Yara, row 3, column 2: Swamp → Forest"``, ``"Yara: + Land of
        Forests"``, then each changed total, ``"Yara 9 → 12"``, from *totals_before* (by
        name) and *totals_after* ((name, total) in seat order). Empty if nothing about the
        game changed."""

        def ruleset(game: Mapping[str, Any]) -> str:
            ruleset_id = game.get("ruleset") or "pocket"
            return self.ruleset(RULESETS[ruleset_id]) if ruleset_id in RULESETS else str(ruleset_id)

        changes: list[str] = []
        if ruleset(before) != ruleset(after):
            changes.append(self._("Rules: %(before)s → %(after)s", before=ruleset(before), after=ruleset(after)))
        old_players, new_players = before["players"], after["players"]
        for seat, (old, new) in enumerate(zip(old_players, new_players, strict=False)):
            name = self.name(new["name"])
            if old["name"] != new["name"]:
                changes.append(self._("Player %(number)d: %(before)s → %(after)s", number=seat + 1,
                                      before=self.name(old["name"]), after=name))  # fmt: skip
            old_cells = [card for row in old["kingdom"] for card in row]
            new_cells = [card for row in new["kingdom"] for card in row]
            for cell, (was, now) in enumerate(zip(old_cells, new_cells, strict=True)):
                if was != now:
                    row, column = position(cell)
                    changes.append(
                        self._("%(name)s, row %(row)d, column %(column)d: %(before)s → %(after)s", name=name,
                               row=row + 1, column=column + 1, before=self.card(Card(was)), after=self.card(Card(now)))
                    )  # fmt: skip
            old_legends, new_legends = set(old.get("legends", [])), set(new.get("legends", []))
            added, removed = sorted(new_legends - old_legends), sorted(old_legends - new_legends)
            changes += [f"{name}: + {self.legend_name(LEGENDS_BY_ID[legend])}" for legend in added]
            changes += [f"{name}: − {self.legend_name(LEGENDS_BY_ID[legend])}" for legend in removed]
        for old in old_players[len(new_players) :]:
            changes.append(self._("%(name)s removed", name=self.name(old["name"])))
        for new in new_players[len(old_players) :]:
            changes.append(self._("%(name)s added", name=self.name(new["name"])))
        for player, total in totals_after:
            was = totals_before.get(player)
            if was is not None and was != total:
                changes.append(f"{self.name(player)} {was} → {total}")
        return changes

    def chart_labels(self, points: Sequence[Any]) -> list[str]:
        """What each point of a player's chart says: ``"1 Nov 2026: 33"``, or for a run of
        games ``"1 Nov 2026 to 3 Dec 2026: 14.2 on average over 1,667 games"``. *points*
        have ``first`` and ``last`` (dates), ``games`` and ``total`` (the run's average)."""
        from babel.dates import format_date

        pattern = self._("d MMM y")
        labels = []
        for point in points:
            first = format_date(point.first, pattern, locale=self.locale)
            if point.games == 1:
                labels.append(f"{first}: {point.total:g}")
                continue
            labels.append(
                self._("%(first)s to %(last)s: %(average)s on average over %(games)s games", first=first,
                       last=format_date(point.last, pattern, locale=self.locale),
                       average=self.decimal(point.total, "0.0"), games=self.number(point.games))
            )  # fmt: skip
        return labels

    def number(self, number: int) -> str:
        """A whole number with the language's digit grouping: ``99,950`` (German ``99.950``)."""
        return self.decimal(number)

    def decimal(self, number: float, pattern: str | None = None) -> str:
        """A number the language's way (Babel: its decimal sign and digit grouping), to
        *pattern*'s decimals (``"0.0"``: one; ``None``: the locale's own), and never a
        negative zero: a rating of −0.04 is ``0.0`` (French ``0,0``), not ``-0.0``, for a
        value that rounds to nothing has no sign worth showing."""
        from babel.numbers import format_decimal

        shown = format_decimal(number, pattern, locale=self.locale)
        if number < 0 or (number == 0 and math.copysign(1.0, number) < 0):
            zero = format_decimal(0, pattern, locale=self.locale)
            if format_decimal(-number, pattern, locale=self.locale) == zero:
                return zero
        return shown


def _legend_named(words: Words, legend_id: object) -> str:
    legend = next((x for x in LEGENDS if x.id == legend_id), None)
    return words.legend_name(legend) if legend else str(legend_id)


def _claimed_by(words: Words, p: dict[str, Any]) -> str:
    return words.name(p["by_name"]) if p["by_name"] else words._("Player %(number)d", number=p["by_player"] + 1)


def _too_long(words: Words, p: dict[str, Any]) -> str:
    if p["field"] == "location":
        return words._("the location is longer than %(most)d characters", most=p["most"])
    return words._("the notes are longer than %(most)d characters", most=p["most"])


def _hidden_characters(words: Words, p: dict[str, Any]) -> str:
    if p["field"] == "location":
        return words._("the location has control or text-direction characters")
    return words._("the notes have control or text-direction characters")


#: Every refusal's sentence, by message id: the engine's (R8, R6.1, R9), then
#: those of game files being imported (store.exchange) and of saved details.
_ERRORS: dict[str, Callable[[Words, dict[str, Any]], str]] = {
    "game-not-object": lambda w, p: w._('a game must be a JSON object with a "players" list'),
    "players-under-game": lambda w, p: w._('a game needs a "players" list at the top; this file has it under "game"'),
    "players-missing": lambda w, p: w._('a game needs a "players" list'),
    "player-count": lambda w, p: w._("a game has %(least)d to %(most)d players, not %(count)d", **p),
    "player-not-object": lambda w, p: w._("a player must be an object with name, kingdom and legends"),
    "name-not-text": lambda w, p: w._("the name must be text"),
    "name-hidden-characters": lambda w, p: w._(
        "the name contains control or direction characters; use letters, digits and punctuation"
    ),
    "name-empty": lambda w, p: w._("the name is empty"),
    "name-too-long": lambda w, p: w._("the name is %(length)d characters long; at most %(most)d are allowed", **p),
    "name-taken": lambda w, p: w._("the name is already used by %(other)s", other=w.name(p["other"])),
    "name-looks-alike": lambda w, p: w._(
        "the name looks just like %(other)s but is typed with a letter from another alphabet, so both would be "
        "read as one player: choose another name",
        other=w.name(p["other"]),
    ),
    "kingdom-not-list": lambda w, p: w._("the kingdom must be a list of 4 rows of 4 cards"),
    "kingdom-rows": lambda w, p: w.ngettext(
        "the kingdom must be 4 rows of 4 cards, not %(num)d row",
        "the kingdom must be 4 rows of 4 cards, not %(num)d rows",
        p["count"],
    ),
    "kingdom-size": lambda w, p: w._("a kingdom has 16 cards, not %(count)d", **p),
    "row-not-list": lambda w, p: w._("the row must be a list of 4 cards"),
    "row-length": lambda w, p: w._("the row must have 4 cards, not %(count)d", **p),
    "card-missing": lambda w, p: w._("no card chosen"),
    "card-unknown": lambda w, p: w._("%(value)s is not one of the ten card ids", value=repr(p["value"])),
    "legends-not-list": lambda w, p: w._("legends must be a list of Legend ids"),
    "legend-not-text": lambda w, p: w._('a Legend id must be text, like "lands-forest"'),
    "legend-unknown": lambda w, p: w._("%(value)s is not a Legend id", value=repr(p["value"])),
    "legend-listed-twice": lambda w, p: w._(
        "the Legend “%(legend)s” is listed twice", legend=_legend_named(w, p["legend"])
    ),
    "legend-claimed": lambda w, p: w._(
        "the Legend “%(legend)s” is already claimed by %(name)s; a Legend belongs to one player",
        legend=_legend_named(w, p["legend"]),
        name=_claimed_by(w, p),
    ),
    "ruleset-unknown": lambda w, p: w._(
        "unknown ruleset %(value)s (known: %(known)s)", value=repr(p["value"]), known=", ".join(p["known"])
    ),
    "games-not-list": lambda w, p: w._('"games" must be a non-empty list of game files'),
    "too-many-games": lambda w, p: w._("at most %(most)d games can be imported at once, not %(count)d", **p),
    "date-invalid": lambda w, p: w._("date %(value)s is not a date like 2026-11-30", value=repr(p["value"])),
    "date-out-of-range": lambda w, p: w._(
        "the date played %(value)s is outside the dates a game can be played on, %(earliest)s to %(latest)s", **p
    ),
    "details-not-text": lambda w, p: w._("location and notes must be text"),
    "details-too-long": _too_long,
    "details-hidden-characters": _hidden_characters,
    # shared tables ("Score together", table.model)
    "table-not-found": lambda w, p: w._("no open table has this code; check it with the host"),
    "seat-not-found": lambda w, p: w._("the table has no seat %(seat)d", **p),
    "table-locked": lambda w, p: w._("the table is locked: it takes no more seats or changes"),
    "table-not-locked": lambda w, p: w._("the table is not locked yet"),
    "table-full": lambda w, p: w._("the table is full: a game has at most %(most)d players", **p),
    "seat-not-yours": lambda w, p: w._("only the seat's own phone or the host can change seat %(seat)d", **p),
    "host-only": lambda w, p: w._("only the host can do this"),
    "check-needs-seat": lambda w, p: w._("only a player seated at the table can check a kingdom"),
    "group-offer-needs-seat": lambda w, p: w._("only a phone seated at the table can offer its group for the game"),
    "check-own-seat": lambda w, p: w._("a kingdom is checked by another player, not by its owner"),
    "check-entered": lambda w, p: w._(
        "this phone entered cards of this kingdom: another player, on another phone, checks it"
    ),
    "seat-already-held": lambda w, p: w._(
        "this phone already has seat %(seat)d; the host adds seats for players without a phone", **p
    ),
    "shown-not-object": lambda w, p: w._("the kingdom as the page showed it is missing; reload the page"),
    "move-already-yours": lambda w, p: w._("this phone already holds it"),
    "move-none": lambda w, p: w._("no phone is waiting to take a seat (any more)"),
    "move-not-yours": lambda w, p: w._(
        "only the phone that holds it can answer this request while it is at the table; once it has not been "
        "seen for 2 minutes, another phone at the table can"
    ),
    "seat-remove-own": lambda w, p: w._("the host's own seat cannot be removed"),
    "seat-remove-entered": lambda w, p: w._("something is entered in this seat: only an empty seat can be removed"),
    "check-not-done": lambda w, p: w._("the kingdom is not marked done yet"),
    "check-kingdom-changed": lambda w, p: w._("the kingdom changed since this page showed it: look at it again"),
    "kingdom-not-complete": lambda w, p: w._(
        "the kingdom has %(count)d of 16 cards; it can be marked done when all 16 are entered", **p
    ),
    "cell-invalid": lambda w, p: w._("a cell is a number from 0 to %(most)d, row by row", **p),
    "body-not-object": lambda w, p: w._("the body must be a JSON object (Content-Type: application/json)"),
    "checks-not-boolean": lambda w, p: w._("checks must be true or false"),
    "done-not-boolean": lambda w, p: w._("done must be true or false"),
    "lock-not-done": lambda w, p: w._("the kingdom is not marked done yet"),
    "lock-not-checked": lambda w, p: w._("the kingdom has not been checked by another player yet"),
    "lock-wrong-cell": lambda w, p: w._(
        "another player reported %(cell)s as wrong; it needs a look and to be marked done again",
        cell=w.cell(p["cell"]),
    ),
    # groups and their rosters (store.groups)
    "group-name-empty": lambda w, p: w._("the group needs a name"),
    "group-name-too-long": lambda w, p: w._("the group name is longer than %(most)d characters", **p),
    "group-name-hidden-characters": lambda w, p: w._("the group name has control or text-direction characters"),
    "group-unknown": lambda w, p: w._(
        "this phone is not in that group (any more); choose another group or start a new one"
    ),
    "game-gone": lambda w, p: w._("the game has just been deleted"),
    "game-in-group": lambda w, p: w._("that group holds this game already"),
    "roster-name-empty": lambda w, p: w._("the new name is empty"),
    "roster-name-too-long": lambda w, p: w._("the new name is longer than %(most)d characters", **p),
    "roster-name-hidden-characters": lambda w, p: w._("the new name has control or text-direction characters"),
    "roster-rename-gone": lambda w, p: w._("the player has just been merged into another"),
    "roster-name-taken": lambda w, p: w._(
        "%(other)s is already on the roster with that name: merge the two instead", other=w.name(p["other"])
    ),
    "roster-merge-same": lambda w, p: w._("choose two different players to merge"),
    "roster-merge-other-group": lambda w, p: w._("only players of the same group can be merged"),
    "roster-merge-gone": lambda w, p: w._("one of the two has just been merged into another player"),
    "roster-merge-played-together": lambda w, p: w._(
        "the two played in the same game, so they are two people: they cannot be merged"
    ),
}

#: The message ids of every refusal :class:`Words` can write.
ERROR_IDS = frozenset(_ERRORS)

_REASONS: dict[str, Callable[[Words, Any], str]] = {
    "tribe-lands": Words._tribe,
    "tribe-no-land": Words._tribe,
    "conflict": Words._conflict,
    "dragon-wild": Words._dragon,
    "dragon-tamed": Words._dragon,
    "dragon-beyond-limit": Words._dragon,
    "legend": Words._legend,
    "legend-not-shown": Words._legend,
}

#: The message ids of every line of "why these points" (:meth:`Words.reason`);
#: tiebreak notes, shared places and deck warnings have their own methods.
REASON_IDS = frozenset(_REASONS)

#: The command line's and the JSON API's words.
ENGLISH = Words()


@functools.cache
def words_in(language: str, *, isolate_names: bool = False) -> Words:
    """The sentence writer of *language* (a key of :data:`LANGUAGES`) with its
    catalogue, read once per process: for words needed outside a page, as
    every language's words typed for the cards; with *isolate_names* as a page
    writes names (the result's picture, which lays them out as the page does)."""
    if language == "en":
        return Words(isolate_names=True) if isolate_names else ENGLISH
    from babel.support import Translations

    return Words(Translations.load(str(TRANSLATIONS), [language]), language, isolate_names=isolate_names)

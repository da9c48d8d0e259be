"""Languages (Flask-Babel): those of :data:`scorekeeper.words.LANGUAGES`, and
the glue between the pages and the sentence writer.

Every sentence about a game (names, explanations, tiebreak notes, warnings,
refusals) is written by :class:`scorekeeper.words.Words`, which needs no
Flask; here it is given Flask-Babel's translations and the page's locale,
once per request, and its methods are offered to the templates and views
under the names they use.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlencode

from flask import Flask, current_app, g, request
from flask_babel import format_date, get_locale, get_translations
from flask_babel import gettext as gettext
from flask_babel import ngettext as ngettext
from markupsafe import Markup

from ..engine import (
    RULESETS,
    Card,
    DeckWarning,
    GameError,
    KingdomScore,
    Legend,
    Row,
    ScoreSheet,
    Tiebreak,
)
from ..words import LANGUAGES as LANGUAGES
from ..words import N_ as N_
from ..words import Words
from ..words import sentence as sentence
from ..words import sentence_case as sentence_case
from .extensions import babel
from .forms import KEYS

COOKIE = "lang"


def chosen_language() -> str | None:
    """The language chosen on the page (``?lang=``, else the cookie), or ``None``."""
    for asked in (request.args.get("lang"), request.cookies.get(COOKIE)):
        if asked in LANGUAGES:
            return asked
    return None


def choose_locale() -> str:
    """``?lang=`` when given, else the remembered choice (cookie), else the
    browser's Accept-Language, else English.

    The response then depends on the language: :func:`init_app` adds
    ``Vary: Accept-Language, Cookie`` to it.
    """
    g.language_chosen = True
    for asked in (request.args.get("lang"), request.cookies.get(COOKIE)):
        if asked in LANGUAGES:
            return asked
    return browser_language(request.accept_languages) or "en"


def browser_language(accepted: Iterable[tuple[str, float]]) -> str | None:
    """The first of :data:`LANGUAGES` the browser accepts, in the browser's order
    (best quality first), a region falling back to its language right where it
    stands: ``de-CH,en;q=0.5`` gives ``de``, not the lower-ranked ``en``.
    ``None`` when nothing offered is accepted (``*`` included)."""
    for tag, quality in accepted:
        language = tag.replace("_", "-").split("-")[0].lower()
        if quality > 0 and language in LANGUAGES:
            return language
    return None


def init_app(app: Flask) -> None:
    """Flask-Babel with the catalogues in ``scorekeeper/translations``; a
    ``?lang=`` choice is remembered for a year."""
    babel.init_app(app, locale_selector=choose_locale)
    # The templates' _() and ngettext(): Flask-Babel's look the catalogue up
    # again on every call (hundreds per sheet); these look it up once per request.
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]  # added by jinja2.ext.i18n
        gettext=lambda message: _catalogue().ugettext(message),
        ngettext=lambda singular, plural, n: _catalogue().ungettext(singular, plural, n),
        newstyle=True,
        pgettext=lambda context, message: _catalogue().upgettext(context, message),
        npgettext=lambda context, singular, plural, n: _catalogue().unpgettext(context, singular, plural, n),
    )
    # jinja2.ext's _() looks gettext up again in each call's context, and its "newstyle" gettext takes the
    # context only to call the catalogue through it and to ask whether the page escapes (all of ours do:
    # .html and .svg). A sheet makes about 60 of these calls: _() and gettext() are one plain call each.
    app.jinja_env.globals["_"] = app.jinja_env.globals["gettext"] = page_gettext
    app.jinja_env.filters["bdi"] = bdi
    app.jinja_env.filters["sentence_case"] = sentence_case
    app.jinja_env.filters["sentence"] = sentence

    @app.after_request
    def remember_language(response):
        if g.get("language_chosen"):  # the page was written in a chosen language
            response.vary.update(("Accept-Language", "Cookie"))
        asked = request.args.get("lang")
        if asked in LANGUAGES and request.cookies.get(COOKIE) != asked:
            secure = bool(current_app.config.get("HTTPS")) or request.is_secure
            response.set_cookie(COOKIE, asked, max_age=365 * 24 * 3600, samesite="Lax", httponly=True, secure=secure)
        return response

    app.jinja_env.globals.update(
        LANGUAGES=LANGUAGES,
        format_date=format_date,
        bold_names=bold_names,
        isolated=isolated,
        format_decimal=format_decimal,
        language_url=language_url,
        current_language=lambda: str(get_locale() or "en"),
        card_name=card_name,
        card_short=card_short,
        card_code=card_code,
        place=place,
        harmony_points=harmony_points,
        CARDS=tuple(Card),
        KEY_OF={card: key for key, card in KEYS.items()},
        Row=Row,
        row_name=row_name,
        legend_name=legend_name,
        legend_requirement=legend_requirement,
        ruleset_name=ruleset_name,
    )


def language_url(language: str) -> str:
    """This page (GET) in *language*: the same query with ``lang`` replaced, as
    a link relative to this page (``?lang=de``). The path is never repeated in
    it: a path such as ``/%5Cevil.example`` would make it a link to another
    site (``/\\evil.example?lang=de`` reads as ``//evil.example``). A page
    rendered once and kept for everyone sets ``g.language_link_query`` (empty):
    one visitor's query must not end up in the page of the next."""
    query = g.get("language_link_query", request.args)
    args = [(k, v) for k, v in query.items(multi=True) if k != "lang"]
    return "?" + urlencode([*args, ("lang", language)])


def page_gettext(message: str, **variables: Any) -> Markup:
    """A template's ``_()``: *message* in the page's language, its ``%(name)s``
    parameters escaped (what jinja2's "newstyle" gettext does for an escaping
    template, its ``%%`` included)."""
    return Markup(_catalogue().ugettext(message)) % variables


def _catalogue() -> Any:
    """Flask-Babel's translations for this request's language, looked up once per request."""
    try:
        return g._catalogue
    except AttributeError:
        g._catalogue = get_translations()
        return g._catalogue


def words() -> Words:
    """The sentence writer in the page's language (one per language and process)."""
    try:
        return g._words
    except AttributeError:
        g._words = _writer(_catalogue(), str(get_locale() or "en"), isolate_names=True)
        return g._words


def plain_words() -> Words:
    """The sentence writer for text that leaves the page (the line to share, the
    link previews' tags, a title): names as typed, without Unicode's isolates,
    which a chat, a clipboard or a bookmark would carry as invisible characters."""
    try:
        return g._plain_words
    except AttributeError:
        g._plain_words = _writer(_catalogue(), str(get_locale() or "en"), isolate_names=False)
        return g._plain_words


@functools.lru_cache(maxsize=32)
def _writer(catalogue: Any, language: str, *, isolate_names: bool) -> Words:
    """A sentence writer for a catalogue (Flask-Babel keeps one per language) and language,
    made once: it reads its words from the catalogue as it is made (0.1 ms) and keeps
    the words it has looked up, the same for every request."""
    return Words(catalogue, language, isolate_names=isolate_names)


def bdi(name: str) -> Markup:
    """A player's name (or other text a player typed) isolated for the page:
    ``<bdi>سارة</bdi>``, so right-to-left names keep their neighbours in place."""
    return Markup("<bdi>%s</bdi>") % name


def bold_names(names: Iterable[str]) -> Markup:
    """Player names in a sentence, each bold and isolated, listed the page
    language's way (Babel): ``<strong><bdi>Ada</bdi></strong> and …``."""
    escaped = [str(Markup("<strong>%s</strong>") % bdi(name)) for name in names]
    return Markup(words().listing(escaped))  # the names are escaped; the list's words are Babel's


def isolated(name: str) -> str:
    """*name* between Unicode's isolates, for text without markup read on the page
    (an ``aria-label``); never for text that leaves it (:func:`plain_words`)."""
    return words().name(name)


def card_name(card: Card) -> str:
    """The card's name in the page's language (``Magische Portale`` edition terms)."""
    return words().card(card)


def row_name(row: Row) -> str:
    """A score-sheet row's name in the page's language."""
    return words().row(row)


def legend_name(legend: Legend) -> str:
    return words().legend_name(legend)


def legend_requirement(legend: Legend) -> str:
    return words().legend_requirement(legend)


def card_code(card: Card) -> str:
    """The card's two-letter code in the page's language (``Fo``, German ``Wa``)."""
    return words().code(card)


def place(place: int) -> str:
    """A place of R7 in the page's language (``"2nd"``, German ``"2."``)."""
    return words().place(place)


def format_decimal(number: float, format: str | None = None) -> str:
    """A number in the page's language (Babel's *format*, ``"0.0"``: one decimal), never a
    negative zero (:meth:`~scorekeeper.words.Words.decimal`): every number a page shows
    goes through here, in place of Flask-Babel's function of the same name."""
    return words().decimal(number, format)


def harmony_points(total: int) -> str:
    """A total in the page's language with its plural form (``"1 Harmony Point"``, ``"2 Harmony Points"``)."""
    return words().harmony_points(total)


def cell_label(cell: int) -> str:
    """A cell (index 0..15) as the page's explanations name it (``r2c3``, German ``Z2S3``)."""
    return words().cell(cell)


def card_short(card: Card) -> str:
    """The name on a card picker or palette button (``Portal``)."""
    return gettext("Portal") if card is Card.PORTAL else card_name(card)


def ruleset_name(ruleset) -> str:
    """A ruleset's name in the page's language; *ruleset* is a :class:`Ruleset` or its id."""
    if isinstance(ruleset, str):
        if ruleset not in RULESETS:  # not one of ours: shown as stored
            return ruleset
        ruleset = RULESETS[ruleset]
    return words().ruleset(ruleset)


def explain(score: KingdomScore, row: Row) -> list[str]:
    """The reasons behind *row* of one player (:meth:`KingdomScore.explain`), in the page's language."""
    return words().explain(score, row)


def describe_tiebreak(sheet: ScoreSheet, tiebreak: Tiebreak) -> str:
    """How R7.3 decided, in the page's language (R7.5)."""
    return words().tiebreak(sheet, tiebreak)


def describe_shared(sheet: ScoreSheet, group: tuple[int, ...]) -> str:
    """Players sharing a place, in the page's language (R7.4)."""
    return words().shared(sheet, group)


def warning_message(warning: DeckWarning) -> str:
    """A deck warning in the page's language (R1)."""
    return words().warning(warning)


def error_text(error: GameError) -> str:
    """What is wrong (without player and cell) in the page's language."""
    return words().error_text(error)


def error_message(error: GameError) -> str:
    """The whole refusal (game, player, cell, what is wrong) in the page's language."""
    return words().error(error)

"""The game form (a new game, or the correction of a saved one): reading a post,
adding and removing player panels, checking the entries with the engine (R8)
and showing the form again with every entry and each error beside its field.

Used by the blueprints that enter a whole game (``sheets`` and ``games``); each
hands over its own form class, action URL and page words.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from datetime import date
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlencode

from flask import Response, current_app, redirect, render_template, request, session
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf
from itsdangerous import BadData, URLSafeSerializer
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response as Answer

from ..engine import (
    LEGENDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Card,
    DuplicateLegend,
    Game,
    GameError,
    GameErrors,
    InvalidPlayerName,
    UnknownCard,
    UnknownLegend,
    shows_a_name,
)
from ..lookalikes import refused_lookalikes
from .forms import GameForm, StartTableForm, not_a_card
from .i18n import LANGUAGES, N_, error_message, error_text, gettext, ngettext, sentence, words
from .phone_parts import CSRF_TOKEN
from .preview import kingdom_preview

EXPIRED = N_("The form had expired or came from elsewhere; check your entries and press “Score the game” again.")
SAVE_CORRECTION = N_("Save the correction")


def process_game_form(form: GameForm, action_url: str, on_valid: Callable[[Game, GameForm], Response], **page):
    """The POST of a game form: add or remove a player panel, show it in another
    language (``?lang=``), or check the
    entries with the engine (R8) and hand a valid game to *on_valid*. Every
    refusal shows the form again with all entries and the errors beside them.

    Adding, removing and the language answer with the form's own address
    (Post/Redirect/Get, see :func:`kept_entries_url`): the history then holds
    no posted page, which Back and a reload would ask to send again."""
    action = request.form.get("action", "score")
    # "language": the header's language buttons post the form (without JavaScript); every entry kept
    if _changes_panels(action):
        kept = kept_entries_url(action_url)
        if kept is not None:
            return redirect(kept, code=303)
    pasted = all([player.form.apply_paste() for player in form.players])
    if _changes_panels(action):  # too much for an address: shown in answer to the post, as before
        return render_game_form(_changed_players(form, action), action_url, **page)
    shape_ok = form.validate() and pasted
    if "csrf_token" in form.errors:
        return render_game_form(form, action_url, [gettext(EXPIRED)], status=400, **page)
    try:
        game = Game.from_dict(form.game_data())
        lookalikes = refused_lookalikes([player.name for player in game.players])
        if lookalikes:
            raise GameErrors(lookalikes)
    except GameErrors as problems:
        return render_game_form(form, action_url, _attach_errors(form, problems.errors), status=422, **page)
    if not shape_ok:
        return render_game_form(form, action_url, status=422, **page)
    return _to_the_game(on_valid(game, form))


#: The id of a draft kept in the browser, posted with it by static/js/entry.js (``draft``).
DRAFT_ID = re.compile(r"[0-9a-z]{1,32}")


def _to_the_game(answer):
    """*answer* (a valid game's) with ``#draft-<id>`` on its redirect when the post
    carried its draft's id: the game's page (static/js/scored.js) deletes that draft, which
    the form keeps until then (a post that fails loses nothing)."""
    draft = request.form.get("draft", "")
    if isinstance(answer, Answer) and answer.status_code == 303 and DRAFT_ID.fullmatch(draft):
        answer.headers["Location"] = f"{answer.headers['Location'].partition('#')[0]}#draft-{draft}"
    return answer


def expired_game_form(form_class: type[GameForm], action_url: str, **page):
    """The answer to a game form posted without a valid CSRF token (expired, or
    the cookie was not sent), for the blueprint's ``errorhandler(CSRFError)``:
    nothing is scored or stored and every entry comes back with :data:`EXPIRED`
    (400). Adding or removing a player panel and the language still work: they store nothing."""
    form = form_class(meta={"csrf": True})
    action = request.form.get("action", "score")
    if _changes_panels(action):
        kept = kept_entries_url(action_url)
        if kept is not None:
            return redirect(kept, code=303)
        return render_game_form(_changed_players(form, action), action_url, **page)  # changes nothing
    return render_game_form(form, action_url, [gettext(EXPIRED)], status=400, **page)


def _changes_panels(action: str) -> bool:
    """Whether a post's *action* only shows the form again (a panel added or removed, another language)."""
    return action in ("add", "language") or action.startswith("remove-")


#: The longest packed entries an address carries (nginx reads request lines of up to 8 KB).
MAX_KEPT_ADDRESS = 6000


def _packer() -> URLSafeSerializer:
    """Signs, compresses (zlib) and packs (base64url) the kept entries; a link no post made is refused."""
    key = current_app.secret_key
    assert key is not None  # create_app always sets one
    return URLSafeSerializer(key, salt="scorekeeper.kept-entries")


def kept_entries_url(action_url: str) -> str | None:
    """The form's address (GET) as this post leaves it: every posted field but
    the CSRF token, the button's ``action`` included, packed and signed in
    ``?entries=`` (some 700 characters for a four-player game), with the
    language asked for (``?lang=``). Signed, so that only a post of the form
    makes one: a link from elsewhere cannot fill someone's correction form.
    ``None`` when longer than :data:`MAX_KEPT_ADDRESS` (long notes or pasted text)."""
    fields = [[name, value] for name, value in request.form.items(multi=True) if name != "csrf_token"]
    packed = _packer().dumps(fields)
    if len(packed) > MAX_KEPT_ADDRESS:
        return None
    query = [("entries", packed)]
    if request.args.get("lang") in LANGUAGES:
        query.append(("lang", request.args["lang"]))
    return f"{action_url}?{urlencode(query)}"


def kept_entries(args) -> MultiDict | None:
    """The fields packed in ``?entries=`` by :func:`kept_entries_url`, or ``None``
    when there are none or they are not a post's (damaged, made up)."""
    packed = args.get("entries")
    if not packed or len(packed) > MAX_KEPT_ADDRESS:
        return None
    try:
        fields = _packer().loads(packed)
    except BadData:
        return None
    if not isinstance(fields, list) or not all(
        isinstance(f, list) and len(f) == 2 and all(isinstance(x, str) for x in f) for f in fields
    ):
        return None
    return MultiDict([(name, value) for name, value in fields])


def kept_game_form(form_class: type[GameForm], entries: MultiDict, action_url: str, **page):
    """The GET of a form's address made by :func:`kept_entries_url`: the form as
    the post left it (a panel added or removed, every entry kept), nothing
    checked or stored; a fresh CSRF token."""
    form = form_class(formdata=entries, meta={"csrf": False})
    for player in form.players:
        player.form.apply_paste()
    action = entries.get("action", "language")
    if not _changes_panels(action):
        action = "language"
    return render_game_form(_changed_players(form, action), action_url, added_by=action, **page)


def empty_game_form(action_url: str) -> str | bytes:
    """The empty form (two player panels, today's date) for this request.

    It is the same page for everyone but for its CSRF token, so it is rendered
    once per language, address and day and kept (LRU); each visitor gets it
    with a fresh CSRF token in the slot."""
    if session.get("_flashes"):  # a message for this visitor only: render, don't cache
        form = GameForm()
        form.fill_to_minimum()
        return render_game_form(form, action_url, date_from_browser=True)[0]
    app = current_app._get_current_object()  # type: ignore[attr-defined]  # tests make many apps
    language = str(get_locale() or "en")
    # this phone's CSRF token goes in as the answer leaves (web.phone_parts)
    return _empty_form_page(app, action_url, request.url_root, request.full_path, language, date.today())


@functools.lru_cache(maxsize=64)
def _empty_form_page(app: object, action_url: str, url_root: str, full_path: str, language: str, day: date) -> bytes:
    """The empty new-game form for one app, address, language and day, its CSRF
    token in the slot, as UTF-8 (sent as it is kept)."""
    form = GameForm()
    form.fill_to_minimum()
    page = render_game_form(form, action_url, date_from_browser=True)[0]  # the phone's day, with JS
    return page.replace(generate_csrf(), CSRF_TOKEN).encode()


def render_game_form(
    form: GameForm,
    action_url: str,
    messages: list[str] | None = None,
    status: int = 200,
    heading: str = N_("Score a game"),
    submit_label: str = N_("Score the game"),
    date_from_browser: bool = False,
    added_by: str | None = None,
):
    """The game form page (new game or correction) with *messages* for the whole form.
    *date_from_browser*: the date played is the server's day, for the browser to
    replace with its own local date (a new game, as first opened). *added_by*:
    the action that made the form (else the post's), ``"add"`` focusing the new name field."""
    correcting = submit_label == SAVE_CORRECTION
    # Every panel up to the most is in the page; those past the players chosen are
    # hidden and disabled (not sent), for static/js/entry.js to show at once.
    player_count = len(form.players)
    added = player_count - 1 if (added_by or request.form.get("action")) == "add" else None  # its name: focused
    while len(form.players) < MAX_PLAYERS:
        form.players.append_entry()
    if date_from_browser:
        form.played_on.render_kw = {"data-today": date.today().isoformat()}
    start_form = None if correcting else StartTableForm(formdata=None)  # "Score together" on a new game
    return (
        render_template(
            "sheets/form.html",
            form=form,
            nothing_done=gettext("Nothing was saved yet.") if correcting else gettext("Nothing was scored yet."),
            action_url=action_url,
            game_form_action=action_url,  # the header's language buttons post the form (entries kept)
            messages=messages or [],
            **kingdom_context(),
            previews=[  # each panel's points so far, shown without JavaScript too
                kingdom_preview(form.ruleset.data, player.form.cells.data, player.form.legends.data)
                for player in form.players
            ],
            max_players=MAX_PLAYERS,
            min_players=MIN_PLAYERS,
            player_count=player_count,
            added=added,
            entry_errors=any(_has_errors(player.form) for player in form.players),
            player_has_errors=_has_errors,
            player_problems=_problems,
            player_name=_panel_name,
            heading=gettext(heading),
            submit_label=gettext(submit_label),
            start_form=start_form,
            # a form shown in answer to a post (a refusal): entry.js puts this GET of it in the history instead
            kept_address=kept_entries_url(action_url) if request.method == "POST" else None,
            posted=request.method == "POST",  # entry.js: these entries are the draft, never offered over
        ),
        status,
    )


def kingdom_context() -> dict[str, Any]:
    """What the shared kingdom entry (``templates/_kingdom.html``) needs from
    the page's view besides the form: the Legends, and how a cell box shows its card."""
    return {"legends": LEGENDS, "cell_code": _cell_code, "CARD_IDS": _CODES}


#: What a cell box shows for each card: its two-letter code, whole in the narrow box.
_CODES = {card.value: card.code for card in Card}
_CARDS_BY_ID = {card.value: card for card in Card}


def _cell_code(card_id: str | None) -> str:
    """The text a cell box shows: the code, in the page's language, of the card
    *card_id* names, or what was typed when it names none (kept as typed, for its error)."""
    card = _CARDS_BY_ID.get(card_id or "")
    return words().code(card) if card is not None else card_id or ""


def _problems(panel) -> list[str]:
    """What is wrong in one player's panel, for the summary above the form
    (each message also stands beside its field), each a sentence of its own:
    ``["The name is empty.", "Line 1: “Xyz” is not a card, did you mean Forest?",
    "16 cells marked in red."]``."""
    problems = [*panel.name.errors, *panel.paste.errors, *panel.legends.errors]
    bad_cells = sum(1 for cell in panel.cells if cell.errors)
    if bad_cells:
        problems.append(ngettext("%(num)d cell marked in red", "%(num)d cells marked in red", bad_cells))
    return [sentence(str(problem)) for problem in problems]


def _panel_name(panel: Any, number: int) -> str:
    """What the summary calls a player: the name typed, or "Player 2" while it
    shows nothing (empty, or only zero-width spaces)."""
    name = (panel.name.data or "").strip()
    return name if shows_a_name(name) else gettext("Player %(number)d", number=number)


def _has_errors(panel) -> bool:
    return bool(
        panel.name.errors or panel.legends.errors or panel.paste.errors or any(cell.errors for cell in panel.cells)
    )


def form_from_data(form_class: type[GameForm], data: dict, played_on: date | None = None, **extra) -> GameForm:
    """A *form_class* form showing a game file object (entries kept exactly as
    given); *extra* fills the form's other fields (location, notes, …)."""
    players = [
        {
            "name": p["name"],
            "cells": [card for row in p["kingdom"] for card in row],
            "legends": p["legends"],
        }
        for p in data["players"]
    ]
    # FormField reads sub-form data as attributes, hence the namespaces.
    return form_class(
        formdata=None,
        data={
            "ruleset": data["ruleset"],
            "played_on": played_on,
            "players": [SimpleNamespace(**p) for p in players],
            **extra,
        },
    )


def _changed_players(form: GameForm, action: str) -> GameForm:
    """The same entries (and other fields) with one player panel added or removed (or none, for "language")."""
    data = form.game_data()
    players = data["players"]
    pastes = [player.form.paste.data or "" for player in form.players][: len(players)]  # text not read yet
    if action == "add" and len(players) < MAX_PLAYERS:
        players.append({"name": "", "kingdom": [[""] * 4 for _ in range(4)], "legends": []})
        pastes.append("")
    elif action.startswith("remove-"):
        index = action.removeprefix("remove-")
        if index.isascii() and index.isdecimal() and int(index) < len(players):
            del players[int(index)]
            del pastes[int(index)]
    extra = {name: field.data for name, field in form._fields.items() if name not in GAME_FIELDS}
    changed = form_from_data(type(form), data, form.played_on.data, **extra)
    for player, paste in zip(changed.players, pastes, strict=False):
        player.form.paste.data = paste
    changed.fill_to_minimum()
    return changed


GAME_FIELDS = {"ruleset", "played_on", "players", "csrf_token"}


def _attach_errors(form: GameForm, errors: tuple[GameError, ...]) -> list[str]:
    """Put each engine error beside its field; return those that belong to the whole form."""
    general = []
    for error in errors:
        panel = form.players[error.player].form if error.player is not None else None
        if panel is None:
            general.append(error_message(error))
        elif isinstance(error, InvalidPlayerName):
            panel.name.errors = [*panel.name.errors, error_text(error)]
        elif isinstance(error, UnknownCard) and error.cell is not None:
            if panel.paste.errors and not panel.cells[error.cell].data:
                continue  # left empty because the text box could not be read: its error says why, once
            message = error_message(error)
            if error.message_id == "card-unknown":  # the card nearest to what was typed, not "card ids"
                message = words().labelled(words().where(error), not_a_card(str(error.params["value"])))
            panel.cells[error.cell].errors = [*panel.cells[error.cell].errors, message]
        elif isinstance(error, (UnknownLegend, DuplicateLegend)):
            panel.legends.errors = [*panel.legends.errors, error_text(error)]
        else:
            panel.name.errors = [*panel.name.errors, error_text(error)]
    return general

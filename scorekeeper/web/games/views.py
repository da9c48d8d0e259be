"""Saved games: save from a sheet, read-only and private links, corrections,
history, player stats, export and import.

A saved game has two links: ``/g/<public id>`` (read-only, for the table) and
``/g/<public id>/<secret>`` (private: correct or delete). A wrong secret is a
404, exactly like a game that does not exist.

Saving lands on the read-only page, which shows the private link once, in a
box to copy; the phone that saved (or opened the private link) remembers the
secret in a cookie (``web.ownership``) and so keeps "Correct" and "Delete" on
the read-only page (``/g/<id>/edit``, ``/g/<id>/delete``) without the secret in
its address bar. A sheet is saved once (``store.games.save_once``). Pages and
answers that hold a secret are sent ``Cache-Control: no-store``; no page sends
a Referer (``Referrer-Policy: no-referrer``, ``web.security``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from typing import NamedTuple

from babel.numbers import get_decimal_symbol
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
    session,
    stream_with_context,
    url_for,
)
from flask_babel import (
    format_datetime,
    format_number,
    format_percent,
    format_timedelta,
    get_locale,
)
from flask_wtf import FlaskForm
from flask_wtf.csrf import CSRFError
from markupsafe import Markup
from werkzeug.exceptions import ServiceUnavailable

from ...engine import Game, GameError, GameErrors, Row, score_game
from ...store import games as store
from ...store.exchange import (
    SEPARATORS,
    csv_chunks,
    game_file,
    games_csv,
    games_in,
    history_json_chunks,
    import_games,
)
from ...store.groups import find_group
from ...store.models import SavedGame
from ...store.stats import player_stats
from ...words import LANGUAGES, words_in
from ..display import qr_fits, totals_chart
from ..extensions import limiter
from ..forms import CorrectionForm, SaveGameForm
from ..game_form import (
    SAVE_CORRECTION,
    expired_game_form,
    form_from_data,
    kept_entries,
    kept_game_form,
    process_game_form,
    render_game_form,
)
from ..i18n import N_, error_text, gettext, ngettext, words
from ..links import DamagedLink, decode_game
from ..membership import GroupChoice, group_for_save, phone_groups, sees_group, visible_group_ids
from ..outage import DATABASE_ERRORS, NOTHING_SAVED, UNREACHABLE, after_database_failure, outage_page, unavailable
from ..ownership import derived_secret, forget, remember, remembered_secret
from ..picture import result_picture
from ..security import count_more, expired_form_page, requests_left, save_rate_limit
from ..sheet_page import (
    SheetLinks,
    pdf_limit,
    pdf_response,
    picture_limit,
    picture_response,
    qr_response,
    render_sheet_with_save_form,
    sheet_context,
)

bp = Blueprint("games", __name__)

#: Largest import upload, in bytes (``IMPORT_MAX_BYTES``; 8 MiB is about 2,500 four-player games).
IMPORT_LIMIT = 8 * 1024 * 1024

CORRECTING = N_("Correct a saved game")
SAVE_EXPIRED = N_("The save form had expired; your entries are below: press “Save this game” again.")


@bp.errorhandler(CSRFError)
def form_expired(error: CSRFError):
    """A post without a valid CSRF token: nothing is stored. The save form and
    the correction come back with what was typed; deleting and importing give
    the error page."""
    if request.endpoint == "games.save" and request.form.get("token"):
        return render_sheet_with_save_form(request.form["token"], SaveGameForm(), [gettext(SAVE_EXPIRED)], 400)
    if request.endpoint in ("games.correct", "games.correct_own"):
        action_url = url_for(request.endpoint, **(request.view_args or {}))
        return expired_game_form(CorrectionForm, action_url, heading=CORRECTING, submit_label=SAVE_CORRECTION)
    return expired_form_page(error)


def _database_failed(error: Exception):
    """The database cannot be reached or written: nothing was stored (503,
    ``Retry-After``). The save form comes back on its sheet and the correction
    form with every entry; an import, its page; anything else, the error page."""
    corrections = ("games.correct", "games.correct_own")
    if request.method != "POST" or request.endpoint not in ("games.save", *corrections, "games.import_page"):
        return outage_page(error)
    after_database_failure(error)
    message = gettext(NOTHING_SAVED)
    if request.endpoint == "games.save" and request.form.get("token"):
        return unavailable(render_sheet_with_save_form(request.form["token"], SaveGameForm(), [message], 503))
    if request.endpoint in corrections:
        form, action_url = CorrectionForm(meta={"csrf": True}), url_for(request.endpoint, **(request.view_args or {}))
        return unavailable(
            render_game_form(form, action_url, [message], status=503, heading=CORRECTING, submit_label=SAVE_CORRECTION)
        )
    if request.endpoint == "games.import_page":
        return unavailable(render_template("games/import.html", form=FlaskForm(), errors=[gettext(UNREACHABLE)]))
    return unavailable(render_template("errors/error.html", error=ServiceUnavailable(), message=gettext(UNREACHABLE)))


for _failure in DATABASE_ERRORS:
    bp.register_error_handler(_failure, _database_failed)


def _too_many_saves() -> str:
    return gettext("Too many saves from your address just now; wait a minute, then press the button again.")


@bp.app_template_filter("when")
def when(moment: datetime) -> str:
    """``"30 Nov 2026, 14:05 UTC"`` (German ``"30. Nov. 2026, 14:05 UTC"``):
    a saved time in the page's language, in UTC, as text (the PDF; pages use
    :func:`local_time`, which JavaScript shows in the viewer's time zone)."""
    if moment.tzinfo is None:  # SQLite hands back naive UTC
        moment = moment.replace(tzinfo=UTC)
    return format_datetime(moment.astimezone(UTC), gettext("d MMM y, HH:mm 'UTC'"), rebase=False)


bp.add_app_template_global(store.key_text, "key_text")
bp.add_app_template_global(format_percent, "format_percent")


@bp.app_template_global()
def csv_separator() -> str | None:
    """The ``sep`` of the page's CSV links: ``"semicolon"`` where the page's
    language writes decimals with a comma (Babel's number symbols: German and
    French ``1,5``; spreadsheets set to such a language split on ``;``), else none."""
    return "semicolon" if get_decimal_symbol(words().locale) == "," else None


@bp.app_template_filter("local_time")
def local_time(moment: datetime, show: str = "datetime") -> Markup:
    """A saved time for the page: ``<time datetime="…Z">30 Nov 2026, 17:35 UTC</time>``
    (*show* ``"time"``: ``17:35 UTC``). static/js/times.js writes it again in the
    viewer's time zone; without JavaScript it stays in UTC, and says so."""
    if moment.tzinfo is None:  # SQLite hands back naive UTC
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    text = when(moment) if show == "datetime" else format_datetime(moment, "HH:mm 'UTC'", rebase=False)
    stamp = moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    return Markup('<time class="local-time" datetime="%s" data-show="%s">%s</time>') % (stamp, show, text)


@bp.app_template_filter("same_evening")
def same_evening(moment: datetime, played_on: date) -> bool:
    """Whether a game saved at *moment* (UTC) was saved on the day it was played,
    in some time zone (within a day of it): its time then tells the games of one
    evening apart in History."""
    return abs((moment.date() - played_on).days) <= 1


def _save_refused(limit) -> Response | None:
    """Over the save limit: the sheet again, its save form showing what was typed
    (without a sheet link, ``None``: the error page)."""
    token = request.form.get("token")
    if not token:
        return None
    return make_response(render_sheet_with_save_form(token, SaveGameForm(), [_too_many_saves()], 429))


@bp.post("/games")
@limiter.shared_limit(save_rate_limit, scope="saves", on_breach=_save_refused)
def save():
    """Save the game of a sheet link, once: land on its read-only page, which
    shows the private link this once; this phone remembers it (a cookie).

    The same sheet saved again into a group (a double tap, a retry, Back and
    save, or another phone of the group with the link) gives the game saved
    first: the same form sent again still gets its private link; any other
    form, "Already saved". A phone of another group saves its own copy into
    its own group, and is never sent to the first (issue 33)."""
    form = SaveGameForm()
    if not form.validate():
        if not form.token.data:
            abort(400, description=gettext("The save form was incomplete; open the sheet and save again."))
        return render_sheet_with_save_form(form.token.data, form, [], 422)  # what is wrong, beside each field
    assert form.token.data is not None  # DataRequired: a valid form has its token
    try:
        data, played_on = decode_game(form.token.data)
        game = store.game_of(data)
    except (DamagedLink, GameErrors):
        abort(400, description=gettext("That sheet link is damaged; nothing was saved."))
    key = store.sheet_key(game, played_on)
    if form.save_key.data and form.save_key.data != key:
        abort(400, description=gettext("That save form does not belong to this sheet; nothing was saved."))
    try:
        details = store.Details.checked(played_on or date.today(), form.location.data, form.notes.data)
    except GameError as problem:
        abort(400, description=gettext("Nothing was saved: %(problem)s.", problem=error_text(problem)))
    secret = derived_secret(key, form.attempt.data)
    saved, stored_now = _saved_before(key, secret), False
    if saved is None:  # (an existing game: no group chosen or made for nothing)
        try:
            group = group_for_save()
        except GameError as problem:
            g.group_error = error_text(problem)
            return render_sheet_with_save_form(form.token.data, form, [g.group_error], 422)
        saved, stored_now = store.save_once(game, details, key, secret, group=group)
    response = redirect(url_for(".show", public_id=saved.public_id), code=303)
    if stored_now or store.may_edit(saved, secret):  # this very form again: its phone gets its private link
        remember(response, saved.public_id, secret)
        session["new_private_link"] = saved.public_id
        g.holds_secret = True
        flash(gettext("Saved. Share the read-only link below; keep the private link to correct the game later."))
    else:
        flash(
            gettext(
                "Already saved: this sheet was saved before, so here is that game; nothing new was stored. "
                "The phone that saved it can correct it."
            )
        )
    return response


def _saved_before(key: str, secret: str) -> SavedGame | None:
    """The game saved from the sheet *key* that a save of it gives again: the one in a
    group this phone belongs to, or the one this very form saved (*secret*: a double tap
    or a retry of a phone that keeps no cookie). A game of another group only is never
    given: the phone saves its own copy into its own group (issue 33)."""
    games = store.saved_from(key)
    visible = visible_group_ids()
    return next(
        (saved for saved in games if visible is None or saved.group_id in visible),
        next((saved for saved in games if store.may_edit(saved, secret)), None),
    )


@bp.get("/g/<public_id>")
def show(public_id: str):
    """The read-only sheet of a saved game, recomputed from its stored entry;
    for the phone that remembers its secret, also "Correct" and "Delete" (and,
    right after saving, the private link once)."""
    saved = _find(public_id)
    secret = _remembered(saved)
    new_private_link = secret is not None and session.get("new_private_link") == saved.public_id
    if new_private_link:
        session.pop("new_private_link")
    return _render_saved(saved, saved.entry, viewing=None, secret=secret, show_private_link=new_private_link)


def _remembered(saved: SavedGame) -> str | None:
    """The edit secret of *saved* that this phone remembers, if it is the right one."""
    secret = remembered_secret(saved.public_id)
    if secret is None or not store.may_edit(saved, secret):
        return None
    g.holds_secret = True
    return secret


@bp.after_request
def private_pages(response: Response) -> Response:
    """Nothing that holds an edit secret is kept by a cache or the browser's history."""
    if g.get("holds_secret"):
        response.cache_control.no_store = True
        response.vary.add("Cookie")
    return response


@bp.get("/g/<public_id>/qr.svg")
def qr(public_id: str):
    """The QR code of the saved game's read-only link (an image, cached by browsers)."""
    saved = _find(public_id)
    return qr_response(url_for("games.show", public_id=saved.public_id, _external=True))


@bp.get(f"/g/<public_id>/picture-<any({', '.join(LANGUAGES)}):language>.png")
@picture_limit
def picture(public_id: str, language: str):
    """The saved game's result as a PNG in *language* (the page's ``og:image``):
    names, totals, places, date, ruleset and kingdoms, nothing private. Its
    ETag names the game's revision: asked again each time, a 304 until corrected."""
    saved = _find(public_id)
    entry, played_on = saved.entry, saved.played_on
    return picture_response(
        f"game:{saved.public_id}:{saved.revision}:{language}",
        lambda: result_picture(store.sheet_of(entry), played_on, words_in(language, isolate_names=True)),
        immutable=False,
    )


@bp.get("/g/<public_id>/r/<int:number>")
def revision(public_id: str, number: int):
    """The sheet as it was in an earlier revision (corrections keep them all)."""
    saved = _find(public_id)
    viewed = next((r for r in saved.revisions if r.number == number), None)
    if viewed is None:
        abort(404)
    return _render_saved(saved, viewed.entry, viewing=viewed)


@bp.get("/g/<public_id>/r/<int:number>.pdf")
@pdf_limit
def revision_pdf(public_id: str, number: int):
    """An earlier revision's sheet as a one-page PDF."""
    saved = _find(public_id)
    viewed = next((r for r in saved.revisions if r.number == number), None)
    if viewed is None:
        abort(404)
    links = _links(saved, revision=number)
    return pdf_response(
        sheet_context(store.sheet_of(viewed.entry), viewed.played_on, links, saved=saved, viewing=viewed)
    )


@bp.get("/g/<public_id>.pdf")
@pdf_limit
def pdf(public_id: str):
    """The saved game's sheet as a one-page PDF (paper as for any sheet)."""
    saved = _find(public_id)
    return pdf_response(
        sheet_context(store.sheet_of(saved.entry), saved.played_on, _links(saved), saved=saved, owner=False)
    )


@bp.get("/g/<public_id>.<any(json, csv):fmt>")
def export_one(public_id: str, fmt: str):
    """One saved game as a JSON game file or as CSV."""
    saved = _find(public_id)
    if fmt == "json":
        return _download(json.dumps(game_file(saved), indent=2, ensure_ascii=False), "json", f"drako-{public_id}")
    return _download(games_csv([saved], _separator()), "csv", f"drako-{public_id}")


@bp.get("/g/<public_id>/<secret>")
def manage(public_id: str, secret: str):
    """The private link: this phone remembers the secret (a cookie) and goes to
    the read-only address, where it can correct and delete; the secret leaves
    the address bar."""
    saved = _find_editable(public_id, secret)
    response = redirect(url_for(".show", public_id=saved.public_id), code=303)
    remember(response, saved.public_id, secret)
    g.holds_secret = True
    return response


def _correction_refused(limit) -> Response:
    """Over the save limit: the correction form again with every entry."""
    assert request.endpoint is not None  # a view's limit
    form, action_url = CorrectionForm(meta={"csrf": True}), url_for(request.endpoint, **(request.view_args or {}))
    page = render_game_form(
        form, action_url, [_too_many_saves()], status=429, heading=CORRECTING, submit_label=SAVE_CORRECTION
    )
    return make_response(page)


@bp.route("/g/<public_id>/edit", methods=["GET", "POST"])
@limiter.shared_limit(save_rate_limit, scope="saves", methods=["POST"], on_breach=_correction_refused)
def correct_own(public_id: str):
    """Correct a saved game from the phone that remembers its secret (no secret in the address)."""
    saved = _find_owned(public_id)
    return _correct(saved, url_for(".correct_own", public_id=public_id))


@bp.route("/g/<public_id>/<secret>/edit", methods=["GET", "POST"])
@limiter.shared_limit(save_rate_limit, scope="saves", methods=["POST"], on_breach=_correction_refused)
def correct(public_id: str, secret: str):
    """Correct a saved game by its private link (older links; kept working)."""
    saved = _find_editable(public_id, secret)
    g.holds_secret = True
    return _correct(saved, url_for(".correct", public_id=public_id, secret=secret))


def _correct(saved: SavedGame, action_url: str):
    """Correct a saved game: the filled form; saving keeps the earlier revision."""
    if request.method == "GET":
        entries = kept_entries(request.args)
        if entries is not None:  # the form as a post of it left it (a language, a player added or removed)
            return kept_game_form(CorrectionForm, entries, action_url, heading=CORRECTING, submit_label=SAVE_CORRECTION)
        form = form_from_data(
            CorrectionForm,
            saved.entry,
            saved.played_on,
            location=saved.location,
            notes=saved.notes,
            based_on=saved.revision,
        )
        return render_game_form(form, action_url, heading=CORRECTING, submit_label=SAVE_CORRECTION)

    public_id = saved.public_id

    def store_correction(game, form: CorrectionForm):
        try:
            details = store.Details.checked(form.played_on.data or saved.played_on, form.location.data, form.notes.data)
        except GameError as problem:
            return render_game_form(
                form, action_url, [error_text(problem)], status=422, heading=CORRECTING, submit_label=SAVE_CORRECTION
            )
        # where it goes once saved, read before: a deletion from another phone may follow the
        # correction's commit at once, and the game is gone when its rows would be read again
        owner_page = _owner_page(saved)
        try:
            assert form.based_on.data is not None  # InputRequired: a valid form has it
            store.correct_game(saved, game, details, based_on=form.based_on.data)
        except store.GameChanged:
            if store.find_game(public_id) is None:  # deleted meanwhile, not corrected
                abort(404, description=gettext("There is no saved game at this link (it may have been deleted)."))
            # the next press saves over the current revision, knowingly
            form.based_on.data, form.based_on.raw_data = saved.revision, [str(saved.revision)]
            message = gettext(
                "This game was corrected by someone else since you opened it. Your entries are below; open the "
                "game's page in another tab to compare, then press “Save the correction” to save yours over it."
            )
            return render_game_form(
                form, action_url, [message], status=409, heading=CORRECTING, submit_label=SAVE_CORRECTION
            )
        flash(gettext("Correction saved; the earlier result is kept under “Corrected on …”."))
        return redirect(owner_page, code=303)

    return process_game_form(
        CorrectionForm(), action_url, store_correction, heading=CORRECTING, submit_label=SAVE_CORRECTION
    )


def _owner_page(saved: SavedGame) -> str:
    """Where the owner goes after a change: the read-only page if this phone
    remembers the secret (it shows "Correct" and "Delete" there), else the private link."""
    secret = remembered_secret(saved.public_id)
    if secret is not None and store.may_edit(saved, secret):
        return url_for(".show", public_id=saved.public_id)
    return request.path.removesuffix("/edit").removesuffix("/delete")


@bp.post("/g/<public_id>/delete")
@limiter.shared_limit(save_rate_limit, scope="saves")
def delete_own(public_id: str):
    """Delete a saved game from the phone that remembers its secret (CSRF token needed)."""
    return _delete(_find_owned(public_id))


@bp.post("/g/<public_id>/<secret>/delete")
@limiter.shared_limit(save_rate_limit, scope="saves")
def delete(public_id: str, secret: str):
    """Delete a saved game for good (private link and CSRF token needed)."""
    g.holds_secret = True
    return _delete(_find_editable(public_id, secret))


def _delete(saved: SavedGame):
    if not FlaskForm().validate():
        abort(400, description=gettext("The delete form had expired; open the private link and try again."))
    if request.form.get("confirm") != "yes":
        flash(gettext("Nothing was deleted: tick “Yes, delete this game” first."), "error")
        return redirect(_owner_page(saved), code=303)
    public_id = saved.public_id
    store.delete_game(saved)
    flash(gettext("The game was deleted."))
    response = redirect(url_for(".history_page"), code=303)
    forget(response, public_id)
    return response


def _scope() -> store.Scope:
    """The saved games this request may read: those of the phone's groups (none
    without a group), or every game with an open history (``OPEN_HISTORY``)."""
    group_ids = visible_group_ids()
    return store.EVERY_GAME if group_ids is None else store.Scope(tuple(group_ids))


def _history_page(player: str, per_page: int, scope: store.Scope) -> store.Page:
    """The page of History the query string asks for (``before=`` / ``after=``
    a game's key, ``oldest=1``; anything else: the newest page)."""
    return store.history(
        player,
        before=store.parse_key(request.args.get("before")),
        after=store.parse_key(request.args.get("after")),
        oldest=request.args.get("oldest") == "1",
        per_page=per_page,
        scope=scope,
    )


@bp.get("/games")
def history_page():
    """Saved games, newest first, 20 a page by key, optionally only one player's."""
    player = store.visible_text(request.args.get("player", ""))[:100]
    scope = _scope()
    page = _history_page(player, 20, scope)
    return render_template(
        "games/history.html", page=page, player=player, in_no_group=scope.group_ids == (), groups=phone_groups()
    )


@bp.get("/games.<any(json, csv):fmt>")
def export_all(fmt: str):
    """The whole history (of this phone's groups) as ``{"games": [...]}`` JSON or as CSV (``?sep=semicolon``
    for ``;``), streamed: the first bytes leave at once, and the games are read
    from the database a batch at a time while they are sent."""
    games = store.all_games(_scope())
    if fmt == "json":
        return _download(stream_with_context(history_json_chunks(games)), "json", "drako-history")
    return _download(stream_with_context(csv_chunks(games, _separator())), "csv", "drako-history")


def _separator() -> str:
    return SEPARATORS.get(request.args.get("sep", ""), ",")


def _import_upload() -> tuple[object, str | None]:
    """The uploaded game file read as JSON: ``(data, None)``, or ``(None, why it
    cannot be read)``. At most ``IMPORT_MAX_BYTES`` are read (else a 413, before any)."""
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return None, gettext("Choose a JSON game file to import.")
    try:
        try:
            raw = upload.read()
        finally:
            upload.close()  # large uploads are temporary files: close them now
        return json.loads(raw.decode("utf-8-sig")), None
    except RecursionError:
        return None, gettext("The file %(name)s is nested too deeply to be a game file.", name=upload.filename)
    except ValueError:  # not UTF-8, not JSON, or a number too long to read
        return None, gettext("The file %(name)s is not a JSON game file.", name=upload.filename)


def _period(limit) -> str:
    """The window of a breached or tightest save limit (Flask-Limiter's), in words: ``1 minute``."""
    return format_timedelta(timedelta(seconds=limit.limit.get_expiry()), threshold=1)


def _import_refused_unread(limit) -> Response:
    """Over the save limit before the file is read (this import's one save did not fit):
    the import page again, saying so; nothing of the body was read."""
    message = ngettext(
        "Your address may save at most %(most)s game in %(period)s and has no save left just now; "
        "the file was not read. Wait, then import it again.",
        "Your address may save at most %(most)s games in %(period)s and has no save left just now; "
        "the file was not read. Wait, then import it again.",
        limit.limit.amount,
        most=format_number(limit.limit.amount),
        period=_period(limit),
    )
    form = FlaskForm(formdata=None)  # (by default it would read the posted form: the whole body)
    return make_response(render_template("games/import.html", form=form, errors=[message]), 429)


def _too_many_games(games: int, limit) -> Response:
    """A file of more games than the address may still save: the import page again,
    saying how many the file holds and how many one address may save; nothing imported."""
    message = ngettext(
        "The file holds %(count)s game, more than your address may still save just now (at most %(most)s "
        "in %(period)s). Wait, or split the file into smaller ones.",
        "The file holds %(count)s games, more than your address may still save just now (at most %(most)s "
        "in %(period)s). Wait, or split the file into smaller ones.",
        games,
        count=format_number(games),
        most=format_number(limit.limit.amount),
        period=_period(limit),
    )
    return make_response(render_template("games/import.html", form=FlaskForm(), errors=[message]), 429)


@bp.route("/games/import", methods=["GET", "POST"])
@limiter.shared_limit(save_rate_limit, scope="saves", methods=["POST"], on_breach=_import_refused_unread)
def import_page():
    """Upload a JSON game file (or a whole history) to store it as saved games.

    Each game in the file counts as one save against ``SAVE_RATE_LIMIT``: one
    when the request comes in, before anything of its body is read (an address
    with no save left is refused unread, and every refusal counts), the rest
    once the file is read and they fit (a file of more games than the address
    may still save is refused, costing that one). A file over
    ``IMPORT_MAX_BYTES`` (8 MiB) is a 413, one of more than
    ``IMPORT_MAX_GAMES`` (1,000) games is refused unread; of a file's
    problems the first 50 are listed and the rest counted."""
    form = FlaskForm()  # (larger bodies are allowed here: see larger_imports in web/__init__)
    if request.method == "GET":
        return render_template("games/import.html", form=form, errors=[])
    errors: list[str] = []
    if not form.validate():
        errors.append(gettext("The form had expired; choose the file again."))
    else:
        data, problem = _import_upload()
        if problem:
            errors.append(problem)
        else:
            games = games_in(data)
            left = requests_left()
            if left is not None and games - 1 > left[0]:
                return _too_many_games(games, left[1])
            count_more(games - 1)  # counted whether they are then stored or refused: each was read
            try:
                stored = import_games(data, group=group_for_save(), most_games=current_app.config["IMPORT_MAX_GAMES"])
                return render_template("games/imported.html", stored=stored)
            except GameErrors as problems:
                errors.extend(words().errors(problems))
    return render_template("games/import.html", form=form, errors=errors), 422


@bp.get("/player")
def player():
    """One player's stats over their saved games (``?name=``, in any case) in
    this phone's groups, or in one of them (``?group=`` its public id), and
    their games 10 a page (by key, as in History)."""
    name = store.visible_text(request.args.get("name", ""))[:100]
    scope = _scope()
    group = find_group(request.args.get("group", ""))
    if group is not None and (scope.group_ids is None or group.id in scope.group_ids):
        scope = store.Scope((group.id,))
    else:
        group = None
    stats = player_stats(name, scope)
    if stats is None:
        abort(404, description=gettext("No saved game has a player of that name."))
    chart = totals_chart([point.total for point in stats.chart], words().chart_labels(stats.chart))
    page = _history_page(name, 10, scope)
    links = {"name": name, "group": group.public_id if group else None}  # the pager's and the players'
    return render_template("games/player.html", stats=stats, chart=chart, Row=Row, page=page, links=links)


def _find(public_id: str) -> SavedGame:
    saved = store.find_game(public_id)
    if saved is None:
        abort(404, description=gettext("There is no saved game at this link (it may have been deleted)."))
    return saved


def _find_editable(public_id: str, secret: str) -> SavedGame:
    saved = store.find_game(public_id)
    if saved is None or not store.may_edit(saved, secret):
        abort(404, description=gettext("There is no saved game at this link (it may have been deleted)."))
    return saved


def _find_owned(public_id: str) -> SavedGame:
    """The saved game if this phone remembers its secret; else 403 (the game exists: its page is public)."""
    saved = _find(public_id)
    if _remembered(saved) is None:
        abort(
            403,
            description=gettext(
                "Only the phone that saved this game, or one that opened its private link, can correct or delete it."
            ),
        )
    return saved


def _links(saved: SavedGame, owner: bool = False, revision: int | None = None) -> SheetLinks:
    if revision is not None and revision != saved.revision:
        pdf = url_for("games.revision_pdf", public_id=saved.public_id, number=revision)
    else:
        pdf = url_for("games.pdf", public_id=saved.public_id)
    share = url_for("games.show", public_id=saved.public_id, _external=True)
    return SheetLinks(
        share=share,
        pdf=pdf,
        qr=url_for("games.qr", public_id=saved.public_id) if qr_fits(share) else None,
        edit=url_for("games.correct_own", public_id=saved.public_id) if owner else None,
        picture=url_for("games.picture", public_id=saved.public_id, language=str(get_locale() or "en"), _external=True)
        if revision is None or revision == saved.revision
        else None,
    )


def _render_saved(saved: SavedGame, entry: dict, viewing, secret: str | None = None, show_private_link: bool = False):
    """A saved game's page; with the *secret* of the phone that owns it, its
    "Correct" and "Delete", and with *show_private_link* the private link (once)."""
    played_on = viewing.played_on if viewing else saved.played_on
    context = sheet_context(
        store.sheet_of(entry),
        played_on,
        _links(saved, owner=secret is not None, revision=viewing.number if viewing else None),
        saved=saved,
        viewing=viewing,
        owner=secret is not None,
        revisions=_revisions(saved),
        player_links=_player_links(saved),
        move_groups=_move_groups(saved),
    )
    if secret is not None:
        context.update(
            delete_url=url_for(".delete_own", public_id=saved.public_id),
            delete_form=FlaskForm(),
            private_url=url_for(".manage", public_id=saved.public_id, secret=secret, _external=True)
            if show_private_link
            else None,
        )
    return render_template("sheets/sheet.html", **context)


class RevisionShown(NamedTuple):
    """A revision as the saved game's page lists it: *changes* from the one before,
    ``None`` for the first."""

    number: int
    saved_at: datetime
    changes: list[str] | None


def _revisions(saved: SavedGame) -> list[RevisionShown]:
    """A corrected game's revisions, newest first, each with what it changed (the
    template only shows them); none for a game never corrected."""
    if not saved.is_corrected:
        return []
    revisions = sorted(saved.revisions, key=lambda revision: revision.number)
    totals = [
        [(result.player.name, result.total) for result in score_game(Game.from_dict(revision.entry)).results]
        for revision in revisions
    ]
    return [
        RevisionShown(
            revision.number,
            revision.saved_at,
            words().revision_changes(revisions[index - 1].entry, revision.entry, dict(totals[index - 1]), totals[index])
            if index
            else None,
        )
        for index, revision in reversed(list(enumerate(revisions)))
    ]


def _move_groups(saved: SavedGame) -> list[GroupChoice]:
    """The groups a phone in the game's group may move the game to: its other groups
    (none for a phone outside the game's group, even with an open history)."""
    groups = phone_groups()
    if len(groups) < 2 or all(group.id != saved.group_id for group in groups):
        return []
    return [GroupChoice(group.public_id, group.name) for group in groups if group.id != saved.group_id]


@bp.post("/g/<public_id>/group")
@limiter.shared_limit(save_rate_limit, scope="saves")
def move(public_id: str):
    """Move a saved game to another group (``group``: its public id), from a phone that
    belongs to both: its results join that group's roster, and both standings catch up
    (issue 33)."""
    saved = _find(public_id)
    if not FlaskForm().validate():
        abort(400, description=gettext("The form had expired; open the game and try again."))
    groups = phone_groups()
    target = next((group for group in groups if group.public_id == request.form.get("group")), None)
    if target is None or all(group.id != saved.group_id for group in groups):
        abort(403)
    try:
        store.move_game(saved, target)
    except GameError as problem:
        flash(gettext("The game was not moved: %(problem)s.", problem=error_text(problem)), "error")
        return redirect(url_for(".show", public_id=public_id), code=303)
    flash(gettext("The game is now in the group %(name)s.", name=target.name))
    return redirect(url_for(".show", public_id=public_id), code=303)


def _player_links(saved: SavedGame) -> list[tuple[str, str]] | None:
    """Each player's name and stats page, for a phone that sees the game's group; else ``None``."""
    if not sees_group(saved.group_id):
        return None
    group = saved.group.public_id if saved.group else None
    return [(result.name, url_for(".player", name=result.name, group=group)) for result in saved.results]


def _download(body: str | Iterator[str], fmt: str, name: str) -> Response:
    mimetype = {"json": "application/json", "csv": "text/csv"}[fmt]
    return Response(
        body,
        mimetype=mimetype,
        headers={"Content-Disposition": f'attachment; filename="{name}.{fmt}"'},
    )

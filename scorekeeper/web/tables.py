"""Shared tables' pages ("Score together"): start a table, join it by code or
link, enter one's own kingdom on one's own phone, watch the table live, check
another player's kingdom, lock the table into one saved game, play again.

The rules and the state are the store's (:mod:`scorekeeper.store.tables`);
here: the pages, the cookie that keeps a phone's seat secrets, and the
live part of the table page (polled with ETag and 304 by static/js/table.js;
a "Refresh" button without JavaScript).

A phone's secrets for one table live in the cookie ``sk_table_<CODE>``
(HttpOnly, SameSite=Lax, Secure over HTTPS): the host's and every seat taken
on that phone, so reopening the link returns to the seats.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from types import SimpleNamespace
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import get_locale
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import Forbidden, TooManyRequests
from werkzeug.wrappers import Response as WerkzeugResponse

from ..engine import (
    LEGENDS_BY_ID,
    MAX_PLAYERS,
    GameError,
    GameErrors,
    Row,
    UnknownCard,
    cards_over_deck,
    get_ruleset,
)
from ..engine.kingdom import Kingdom
from ..store import games as saved_games
from ..store import tables
from ..store.db import db
from ..store.groups import opens
from ..store.models import Group, ScoreTable
from .display import qr_fits
from .forms import JoinCodeForm, SeatForm, SeatNameForm, StartTableForm
from .game_form import kingdom_context
from .i18n import N_, error_message, error_text, gettext, legend_name, sentence, words
from .membership import group_for_save, leave, phone_groups
from .membership import join as join_group
from .preview import score_partial
from .security import (
    count_wrong_code,
    expired_form_page,
    join_rate_limit,
    limiter,
    table_rate_limit,
    too_many_tries,
    was_wrong_code,
    wrong_code_rate_limit,
)
from .sheet_page import SheetLinks, qr_response, sheet_context

bp = Blueprint("tables", __name__)

COOKIE_PREFIX = "sk_table_"
#: How long a phone keeps its secrets for a table: past the 24 hours an open
#: table lives, for "Play again" and the host's edit link after the lock.
COOKIE_DAYS = 7
CELLS = 16


def _too_many(limit: Any = None) -> Response:
    message = too_many_tries(limit)
    return make_response(render_template("errors/error.html", error=TooManyRequests(), message=message), 429)


def _seated_here() -> bool:
    """This phone holds a secret of the table in the address (host or seat): no
    code guesser, so wrong codes typed from the same address (a home network,
    where every phone shares one) never lock it out of its own table."""
    code = tables.normalise_code((request.view_args or {}).get("code", "")) or ""
    tokens = _tokens(code) if code else []
    table = tables.find(code) if tokens else None
    return table is not None and any(tables.viewer(table, token).is_anyone for token in tokens)


#: Codes that name no table cost like failed logins, counted with the API's (per client address).
wrong_code_limit = limiter.shared_limit(
    wrong_code_rate_limit,
    scope="wrong-codes",
    deduct_when=was_wrong_code,
    on_breach=_too_many,
    exempt_when=_seated_here,
)


# -- the phone's secrets


def _tokens(code: str) -> list[str]:
    """The secrets this phone keeps for table *code* (cookie), at most 8."""
    raw = request.cookies.get(COOKIE_PREFIX + code, "")
    return [token for token in raw.split(".") if 0 < len(token) <= 64][:8]


def _keep_token(response: WerkzeugResponse, code: str, token: str, kept: list[str] | None = None) -> WerkzeugResponse:
    """*response* setting the cookie of table *code* to *kept* (default: what the phone has) plus *token*."""
    kept = list(_tokens(code) if kept is None else kept)
    if token not in kept:
        kept.append(token)
    response.set_cookie(
        COOKIE_PREFIX + code,
        ".".join(kept[-8:]),
        max_age=int(timedelta(days=COOKIE_DAYS).total_seconds()),
        path="/",
        secure=request.is_secure,
        httponly=True,
        samesite="Lax",
    )
    return response


@dataclass(frozen=True)
class Phone:
    """Who this phone is at a table: host or not, its seats, and a secret for each."""

    host_token: str | None
    seat_tokens: dict[int, str]

    @property
    def is_host(self) -> bool:
        return self.host_token is not None

    @property
    def seats(self) -> frozenset[int]:
        return frozenset(self.seat_tokens)

    def token_for(self, seat: int) -> str | None:
        """The secret that may change *seat*: its own, or the host's."""
        return self.seat_tokens.get(seat) or self.host_token

    def check_token(self, seat: int) -> str | None:
        """The secret to check *seat* with: another seat's on this phone, but
        *seat*'s own when this phone holds it too (entered on this phone, it is
        not checked here: the store refuses its owner)."""
        own = self.seat_tokens.get(seat)
        return own or next((token for number, token in sorted(self.seat_tokens.items()) if number != seat), None)


def _phone(table: ScoreTable) -> Phone:
    host: str | None = None
    seats: dict[int, str] = {}
    for token in _tokens(table.code):
        who = tables.viewer(table, token)
        if who.host:
            host = token
        for number in who.seats:
            seats.setdefault(number, token)
    return Phone(host, seats)


def _table(code: str) -> ScoreTable:
    table = tables.find(code)
    if table is None:
        count_wrong_code()
        abort(404, description=gettext("No open table has this code; check it with the host."))
    if table.code != code:  # typed in another case or with dashes: the one address
        abort(redirect(url_for(request.endpoint or ".table", **{**(request.view_args or {}), "code": table.code})))
    return table


# -- start and join


@bp.post("/tables")
@limiter.shared_limit(table_rate_limit, scope="table-create", on_breach=_too_many)
def start():
    """Start a table (ruleset, the host phone's date): the host's secret goes in
    this phone's cookie, and the table page shows the code, link and QR code."""
    form = StartTableForm()
    if not form.validate():
        flash(gettext("The table could not be started; try again."))
        return redirect(url_for("sheets.new_game"), code=303)
    try:
        new = tables.create_table(form.ruleset.data or "pocket", form.played_on.data or date.today())
    except GameErrors as problems:
        flash(" ".join(error_message(error) for error in problems.errors))
        return redirect(url_for("sheets.new_game"), code=303)
    response = redirect(url_for(".table", code=new.code), code=303)
    return _keep_token(response, new.code, new.host_token, kept=[])


@bp.route("/join", methods=["GET", "POST"])
@wrong_code_limit
def join():
    """Type a join code (case, spaces and dashes ignored) to open its table."""
    form = JoinCodeForm() if request.method == "POST" else JoinCodeForm(formdata=request.args or None)
    typed = form.code.data or ""
    if typed.strip(" -"):
        table = tables.find(typed)
        if table is not None:
            return redirect(url_for(".table", code=table.code), code=303)
        count_wrong_code()
        form.code.errors = [gettext("No open table has this code; check it with the host.")]
        return render_template("tables/join.html", form=form), 404
    if request.method == "POST":  # "Open" with the box empty
        form.code.errors = [gettext("Type the code the host’s phone shows (six letters and digits).")]
        return render_template("tables/join.html", form=form), 422
    return render_template("tables/join.html", form=form)


# -- the table page


@bp.get("/t/<code>")
@wrong_code_limit
def table(code: str):
    """The table: join it (a name), the seats live, the host's code, link and QR
    code; once locked, the sheet. ``?from=<code>``: "Play again" from that table,
    the phone takes its seats back with its secrets for it."""
    table = _table(code)
    came_from = request.args.get("from", "")
    if came_from and not _tokens(table.code):
        kept = [token for token in _tokens(came_from[:10].upper()) if tables.viewer(table, token).is_anyone]
        if kept:
            who = tables.viewer(table, kept[0])
            # a player lands in their seat; the host on the table's page, with its code and QR code
            back = url_for(".seat", code=table.code, number=min(who.seats)) if who.seats and not who.host else None
            response = redirect(back or url_for(".table", code=table.code), code=303)
            return _keep_token(response, table.code, kept[0], kept=kept)
    if table.locked_at is not None:
        return _locked_page(table)
    return _table_page(table, SeatNameForm(formdata=None))


def _table_page(table: ScoreTable, name_form: SeatNameForm, messages: list[str] | None = None, status: int = 200):
    state = tables.state(table)
    phone = _phone(table)
    invite = _invite(state)
    return (
        render_template(
            "tables/table.html",
            state=state,
            phone=phone,
            link=invite.link,
            qr=invite.qr if phone.is_host else None,
            name_form=name_form,
            messages=messages or [],
            full=len(state.seats) >= MAX_PLAYERS,
            live=_live_context(state, phone),
        ),
        status,
    )


def _locked_page(table: ScoreTable):
    state = tables.state(table)
    phone = _phone(table)
    saved = saved_games.find_game(state.game_id) if state.game_id else None
    if saved is None:
        abort(404, description=gettext("No open table has this code; check it with the host."))
    share = url_for("games.show", public_id=saved.public_id, _external=True)
    links = SheetLinks(
        share=share,
        pdf=url_for("games.pdf", public_id=saved.public_id),
        qr=url_for("games.qr", public_id=saved.public_id) if qr_fits(share) else None,
    )
    secret = tables.may_see_edit_link(table, phone.host_token)
    private = url_for("games.manage", public_id=saved.public_id, secret=secret) if secret else None
    context = sheet_context(
        saved_games.sheet_of(saved.entry), saved.played_on, links, saved=saved, viewing=None, owner=False
    )
    group = _host_group(table, phone, saved.group_id) if phone.is_host else None
    return render_template(
        "tables/locked.html", **context, state=state, phone=phone, private_link=private, saved_group=group
    )


def _host_group(table: ScoreTable, phone: Phone, group_id: int | None) -> Group | None:
    """The locked game's group, for its host's phone. A group the lock made is
    added to the phone again if it is missing (the lock's answer, which added
    it, never arrived: a reload while it was on its way)."""
    group = next((grp for grp in phone_groups() if grp.id == group_id), None)
    if group is None and group_id is not None:
        made = db.session.get(Group, group_id)
        secret = tables.new_group_secret(table, phone.host_token)
        if made is not None and secret and opens(made, secret):
            join_group(made, secret)
            group = made
    return group


@bp.get("/t/<code>/seats")
@bp.get("/t/<code>/host")
def back_to_table(code: str):
    """The addresses a refused seat or lock leaves in the address bar (the
    form came back there with its message): opened again, the table."""
    return redirect(url_for(".table", code=code), code=303)


@bp.get("/t/<code>/qr.svg")
@wrong_code_limit
def qr(code: str):
    """The QR code of the table's join link, for the host's screen."""
    table = _table(code)
    return qr_response(url_for(".table", code=table.code, _external=True))


@bp.get("/t/<code>/live")
@wrong_code_limit
def live(code: str):
    """The live part of the table page (seats, cards n/16, done, checked, what
    this phone's seats need to know), for table.js to poll. Its ETag is the
    table's version with who is asking; ``If-None-Match`` gives 304. Read in
    one query per secret the phone keeps (:func:`store.tables.look`)."""
    normal = tables.normalise_code(code) or ""
    tokens: list[str | None] = [*_tokens(normal)] or [None]
    host: str | None = None
    seats: dict[int, str] = {}
    state: tables.TableState | None = None
    for token in tokens:  # one query per secret this phone keeps (mostly one)
        looked = tables.look(normal, token)
        if looked is None:
            count_wrong_code()
            abort(404)
        state, viewer = looked
        if token is not None:
            host = token if viewer.host else host
            seats.update({number: token for number in viewer.seats if number not in seats})
    assert state is not None
    phone = Phone(host, seats)
    compact = request.args.get("compact") == "1"
    who = f"{state.version}-{int(phone.is_host)}-{sorted(phone.seats)}-{get_locale()}-{compact}"
    etag = hashlib.sha256(who.encode()).hexdigest()[:20]
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        response = make_response(render_template("tables/_live.html", live=_live_context(state, phone, compact)))
        response.headers["X-Table-Locked"] = "1" if state.locked else "0"
        response.headers["X-Table-Next"] = "1" if state.next_code else "0"  # "Play again" pressed
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache, private"
    return response


def _live_context(state: tables.TableState, phone: Phone, compact: bool = False) -> SimpleNamespace:
    """What the live part shows: each seat, and the notes for this phone's seats;
    *compact*: the seats on one line (above a seat's kingdom entry)."""
    seats = []
    names = {seat.number: seat.name for seat in state.seats}
    notes = []
    for seat in state.seats:
        cards = sum(1 for cell in seat.cells if cell)
        mine = seat.number in phone.seats
        seats.append(
            SimpleNamespace(
                seat=seat,
                cards=cards,
                mine=mine,
                may_enter=mine or phone.is_host,
                may_check=bool(phone.seats - {seat.number}) and seat.done and not mine and not state.locked,
                checked_by=names.get(seat.checked_by) if seat.checked_by else None,
            )
        )
        if mine or phone.is_host:
            if seat.wrong_cell is not None:
                where = {
                    "checker": names.get(seat.wrong_by or 0, "?"),
                    "row": seat.wrong_cell // 4 + 1,
                    "column": seat.wrong_cell % 4 + 1,
                }
                if mine:  # its own phone is told of "your kingdom" (the host, of another seat's, by name)
                    note = gettext(
                        "%(checker)s says the card in row %(row)s, column %(column)s of your kingdom is wrong.", **where
                    )
                else:
                    note = gettext(
                        "%(checker)s says the card in row %(row)s, column %(column)s of %(name)s’s kingdom is wrong.",
                        name=seat.name,
                        **where,
                    )
                notes.append(note)
            for legend, others in seat.legend_clashes.items():
                claimants = sorted({seat.number, *others})  # one note per Legend, the same on every phone
                notes.append(
                    gettext(
                        "%(name)s and %(others)s both claim %(legend)s; only one may (R6.1).",
                        name=names.get(claimants[0], "?"),
                        others=", ".join(names.get(other, "?") for other in claimants[1:]),
                        legend=legend_name(LEGENDS_BY_ID[legend]),
                    )
                )
    if len(state.seats) > 1 and all(seat.done for seat in state.seats) and not state.locked:
        # every kingdom entered: more copies of a card than the deck holds is an entry to check, on every phone (R1)
        warnings = cards_over_deck([seat.cards for seat in state.seats])
        notes += [sentence(words().warning(warning)) for warning in warnings]
    return SimpleNamespace(
        code=state.code,
        seats=seats,
        notes=list(dict.fromkeys(notes)),
        locked=state.locked,
        checks_required=state.checks_required,
        compact=compact,
        url=url_for(".live", code=state.code, compact=1) if compact else url_for(".live", code=state.code),
    )


@bp.post("/t/<code>/seats")
@limiter.shared_limit(join_rate_limit, scope="table-join", on_breach=_too_many)
def take_seat(code: str):
    """Take a seat under a name (R8, checked at once against the seated names);
    the host's "for a player without a phone" adds a seat held by the host's phone."""
    table = _table(code)
    if table.locked_at is not None:  # takes no more seats: its sheet
        return redirect(url_for(".table", code=table.code), code=303)
    form = SeatNameForm()
    phone = _phone(table)
    for_other = request.form.get("for") == "other" and phone.is_host
    if not form.validate():
        return _table_page(table, form, [gettext(EXPIRED)], 400)
    try:
        if for_other:
            seat = tables.add_seat(table, phone.host_token or "", form.name.data or "")
        else:
            seat = tables.join(table, form.name.data or "")
    except GameErrors as problems:
        form.name.errors = [error_text(error) for error in problems.errors]
        return _table_page(table, form, status=422)
    except GameError as error:
        form.name.errors = [error_text(error)]
        return _table_page(table, form, status=409)
    response = redirect(url_for(".seat", code=table.code, number=seat.number), code=303)
    return _keep_token(response, table.code, seat.token)


EXPIRED = N_("The page had expired; nothing was changed. Try again.")


# -- a seat's kingdom


@bp.route("/t/<code>/seat/<int:number>", methods=["GET", "POST"])
@wrong_code_limit
def seat(code: str, number: int):
    """Enter seat *number*'s kingdom (its own phone or the host's): the game
    form's kingdom entry, stored as a draft at every change (table.js posts the
    form; without JavaScript "Save"), and "Done" when all 16 cards are there."""
    table = _table(code)
    state = tables.state(table)
    seat_state = next((seat for seat in state.seats if seat.number == number), None)
    if seat_state is None:
        abort(404)
    phone = _phone(table)
    token = phone.token_for(number)
    if token is None:
        refused = Forbidden(gettext("Only the seat’s own phone or the host can change this seat."))
        back = {"url": url_for(".table", code=table.code), "label": gettext("Open the table")}
        return make_response(render_template("errors/error.html", error=refused, back=back), 403)
    if state.locked:
        if request.headers.get("X-Draft") == "1":  # table.js drops the draft it kept; the poll moves on
            return Response(status=409, headers={"X-Table-Locked": "1"})
        return redirect(url_for(".table", code=table.code), code=303)
    if request.method == "GET":
        if request.headers.get("X-Draft") == "1":  # table.js: what the server holds now, to show it
            return jsonify(_stored(seat_state))
        form = _seat_form(seat_state)
        if seat_state.wrong_cell is not None:  # marked in red, with what the checker said
            cell = form.seat.form.cells[seat_state.wrong_cell]
            cell.errors = [
                gettext("%(cell)s: another player says this card is wrong.", cell=words().cell(seat_state.wrong_cell))
            ]
        return _seat_page(state, seat_state, phone, form)
    form = SeatForm()
    panel = form.seat.form
    action = request.form.get("action", "save")
    pasted = panel.apply_paste()
    if not form.validate() and "csrf_token" in form.errors:
        return _seat_page(state, seat_state, phone, form, [gettext(EXPIRED)], 400)
    if not pasted:
        return _seat_page(state, seat_state, phone, form, status=422)
    cells = [cell.data or None for cell in panel.cells]
    done = {"done": True, "undone": False}.get(action)
    based_on = _shown(request.form.get("base"))
    kept = False  # the cards stored, only "done" refused
    try:
        legends = list(panel.legends.data or [])
        if done:  # the cards first: a kingdom too short to be done is still kept
            tables.update_seat(table, number, token, cells=cells, legends=legends, based_on=based_on)
            kept = True
            stored = tables.update_seat(table, number, token, done=True)
        else:
            stored = tables.update_seat(
                table, number, token, cells=cells, legends=legends, done=done, based_on=based_on
            )
    except GameErrors as problems:
        messages = _attach_seat_errors(panel, problems.errors)
        if kept:  # what the seat holds now (table.js compares its draft with it)
            seat_state = tables.state(table).seat(number) or seat_state
        return _seat_page(state, seat_state, phone, form, messages, 422, kept=kept)
    except GameError as error:
        return _seat_page(state, seat_state, phone, form, [error_message(error)], 409)
    if request.headers.get("X-Draft") == "1":  # table.js: stored; what the seat holds now, merged
        return jsonify(_stored(stored)) if based_on is not None else Response(status=204)
    if action == "done":
        return redirect(url_for(".table", code=table.code), code=303)
    flash(gettext("Saved."))
    return redirect(url_for(".seat", code=table.code, number=number), code=303)


def _stored(seat_state: tables.SeatState) -> dict[str, Any]:
    """What the server holds for a seat, as table.js compares it: 16 card ids
    (``""`` for none), the claimed Legend ids, and whether it is done (the
    page's buttons say which)."""
    return {
        "cells": [cell or "" for cell in seat_state.cells],
        "legends": list(seat_state.legends),
        "done": seat_state.done,
    }


def _shown(posted: str | None) -> tables.Shown | None:
    """A kingdom as a page showed it, posted shaped as :func:`_stored`: the
    seat page's ``base`` (what its changes started from) or the check page's
    ``seen``; ``None`` when not sent (a page from before it was) or not of that shape."""
    try:
        shown = json.loads(posted or "null")
    except ValueError:
        return None
    if not (
        isinstance(shown, dict) and isinstance(shown.get("cells"), list) and isinstance(shown.get("legends"), list)
    ):
        return None
    return shown["cells"], shown["legends"]


def _seat_form(seat_state: tables.SeatState) -> SeatForm:
    panel = SimpleNamespace(name=seat_state.name, cells=[c or "" for c in seat_state.cells], legends=seat_state.legends)
    return SeatForm(formdata=None, data={"seat": panel})


def _attach_seat_errors(panel: Any, errors: tuple[GameError, ...]) -> list[str]:
    """Each cell's error beside its cell; the others for the whole page."""
    general = []
    for error in errors:
        if isinstance(error, UnknownCard) and error.cell is not None and 0 <= error.cell < CELLS:
            panel.cells[error.cell].errors = [*panel.cells[error.cell].errors, error_text(error)]
        else:
            general.append(error_message(error))
    return general


def _seat_page(state, seat_state, phone: Phone, form: SeatForm, messages=None, status: int = 200, kept=False):
    return (
        render_template(
            "tables/seat.html",
            state=state,
            seat=seat_state,
            # what the server holds, whatever the form shows: table.js compares the draft it kept
            stored=_stored(seat_state),
            phone=phone,
            form=form,
            p=form.seat.form,
            messages=messages or [],
            kept=kept,
            live=_live_context(state, phone, compact=True),
            invite=_invite(state) if phone.is_host and len(state.seats) < MAX_PLAYERS else None,
            **kingdom_context(),
        ),
        status,
    )


def _invite(state: tables.TableState) -> SimpleNamespace:
    """The join link and its QR code, for the host's seat page while seats are free
    (a seated host still shows the code to players who come later)."""
    link = url_for(".table", code=state.code, _external=True)
    return SimpleNamespace(link=link, qr=url_for(".qr", code=state.code) if qr_fits(link) else None)


# -- checking another seat


@bp.route("/t/<code>/check/<int:number>", methods=["GET", "POST"])
@wrong_code_limit
def check(code: str, number: int):
    """Seat *number*'s kingdom read-only for another seat's phone: "Checked",
    or a cell tapped and "Something is wrong" (its owner's phone shows it)."""
    table = _table(code)
    state = tables.state(table)
    seat_state = next((seat for seat in state.seats if seat.number == number), None)
    if seat_state is None:
        abort(404)
    if state.locked:
        return redirect(url_for(".table", code=table.code), code=303)
    phone = _phone(table)
    if request.method == "GET":
        try:  # a seat this phone holds (a player without a phone, say) is its own: refused as the owner's
            tables.may_check(table, number, phone.check_token(number))
        except GameError as refusal:
            # the table's page says why (found by a fresh tester: a 0/16 kingdom offered "Checked")
            flash(sentence(error_text(refusal)))
            return redirect(url_for(".table", code=table.code), code=303)
    messages: list[str] = []
    status = 200
    if request.method == "POST":
        form = SeatNameForm()  # CSRF only
        if not form.validate() and "csrf_token" in form.errors:
            messages, status = [gettext(EXPIRED)], 400
        else:
            token = phone.check_token(number)
            cell = request.form.get("cell", "")
            seen = _shown(request.form.get("seen"))
            try:
                if request.form.get("action") == "wrong":
                    if not (cell.isascii() and cell.isdecimal()):
                        raise _NoCell
                    tables.report_wrong(table, number, token, int(cell), seen)
                else:
                    tables.check(table, number, token, seen)
            except _NoCell:
                messages, status = [gettext("First tap the cell that is wrong, then “Something is wrong”.")], 422
            except GameErrors as problems:
                messages, status = [error_message(error) for error in problems.errors], 422
            except GameError as error:
                messages, status = [error_message(error)], 409
                if error.message_id == "check-kingdom-changed":  # the kingdom as it is now, to look at again
                    seat_state = tables.state(table).seat(number) or seat_state
            else:
                return redirect(url_for(".table", code=table.code), code=303)
    return _check_page(state, seat_state, messages, status)


class _NoCell(Exception):
    """ "Something is wrong" without a cell tapped."""


def _check_page(state, seat_state, messages: list[str], status: int):
    cells = list(seat_state.cards)
    preview = score_partial(Kingdom.partial(cells), get_ruleset(state.ruleset), list(seat_state.legends))
    return (
        render_template(
            "tables/check.html",
            state=state,
            seat=seat_state,
            seen=_stored(seat_state),
            cards=cells,
            preview=preview,
            legends=[LEGENDS_BY_ID[legend] for legend in seat_state.legends],
            messages=messages,
            Row=Row,
        ),
        status,
    )


# -- the host


@bp.post("/t/<code>/host")
@wrong_code_limit
def host(code: str):
    """The host's buttons: checks on or off, lock, and "Play again" after the lock."""
    table = _table(code)
    phone = _phone(table)
    form = SeatNameForm()  # CSRF only
    if not form.validate() and "csrf_token" in form.errors:
        return _table_page(table, SeatNameForm(formdata=None), [gettext(EXPIRED)], 400)
    action = request.form.get("action", "")
    actions: dict[str, Callable[[], Any]] = {
        "checks-on": lambda: tables.set_checks(table, phone.host_token or "", True),
        "checks-off": lambda: tables.set_checks(table, phone.host_token or "", False),
        "lock": lambda: _lock(table, phone),
    }
    try:
        if action == "again":
            played_on = StartTableForm().played_on.data or date.today()
            following = tables.play_again(table, phone.host_token, played_on)
            return redirect(url_for(".table", code=following.code) + "?from=" + table.code, code=303)
        if action not in actions:
            abort(400)
        actions[action]()
    except GameErrors as problems:
        if table.locked_at is not None:
            return redirect(url_for(".table", code=table.code), code=303)
        messages = [gettext("The table cannot be locked yet:")] if action == "lock" else []
        messages += [error_message(error) for error in problems.errors]
        return _table_page(table, SeatNameForm(formdata=None), messages, 409)
    except GameError as error:
        if table.locked_at is not None:
            return redirect(url_for(".table", code=table.code), code=303)
        return _table_page(table, SeatNameForm(formdata=None), [error_message(error)], 409)
    return redirect(url_for(".table", code=table.code), code=303)


def _lock(table: ScoreTable, phone: Phone) -> None:
    """Lock *table* into a group, as a save goes to one (issue #12): the host's
    choice on the form, by default the group this phone used last, or a new
    one ("Our games" unless named), added to the host's phone. A refused lock
    keeps no new group, here or on the phone.

    :raises GameError: the group choice's refusals, and :func:`tables.lock`'s.
    """
    if not phone.is_host:
        raise tables.NotAllowed("host-only")
    known = {group.public_id for group in phone_groups()}
    group = group_for_save(tables.new_group_secret(table, phone.host_token))
    try:
        saved, _ = tables.lock(table, phone.host_token, group)
    except BaseException:
        db.session.rollback()
        if group.public_id not in known:
            leave(group)
        raise
    if saved.group_id != group.id and group.public_id not in known:  # locked before, elsewhere: its group stands
        leave(group)


@bp.errorhandler(CSRFError)
def form_expired(error: CSRFError):
    """A post without a valid CSRF token: nothing changes."""
    return expired_form_page(error)

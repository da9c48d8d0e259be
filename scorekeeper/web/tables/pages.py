"""Shared tables' pages ("Score together"): start a table, join it by code or
link, enter one's own kingdom on one's own phone, watch the table live, check
another player's kingdom, move a seat to another phone when its own is gone,
lock the table into one saved game, play again.

Thin over :mod:`scorekeeper.table.service` (every change) and
:mod:`scorekeeper.table.model` (what a phone may do, what the table waits
for). The live part of a table's pages is rendered here (``/t/<code>/live``)
and kept up to date by static/js/table.js: each change is pushed to the page
over its stream (:mod:`.stream`) with all the page draws of
it, and the page draws it as ``_live.html`` renders it, asking nothing (the
live part alone is asked without a stream). The seat page's script sends
its drafts on its stream as acknowledged events (the JSON API's
``PUT /api/tables/<code>/seats/<n>`` without one: one shape and one merge for pages and
programs). Without JavaScript: "Refresh" and "Save".

Every page here is sent ``Cache-Control: no-store``: it holds what a phone
holds at the table (the host's locked page, a private link).
"""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import Forbidden, NotFound

from ...engine import (
    LEGENDS_BY_ID,
    MAX_PLAYERS,
    GameError,
    GameErrors,
    Row,
    ScoreSheet,
    UnknownCard,
    get_ruleset,
    position,
)
from ...engine.kingdom import Kingdom
from ...store import games as saved_games
from ...store.db import db
from ...store.groups import opens, table_pass
from ...store.models import Group
from ...store.offers import Offer
from ...table import model, service
from ...table.model import Phone, Seat, Table
from ..display import qr_fits
from ..extensions import csrf, limiter
from ..forms import JoinCodeForm, SeatForm, SeatNameForm, StartTableForm
from ..game_form import kingdom_context
from ..i18n import (
    N_,
    card_name,
    cell_label,
    error_message,
    error_text,
    gettext,
    isolated,
    row_name,
    sentence,
    words,
)
from ..membership import chosen_for_save, invite_secret, joined_after_save, offer_groups, phone_groups
from ..membership import join as join_group
from ..ownership import remember
from ..preview import kingdom_preview, score_partial
from ..security import expired_form_page, join_rate_limit, table_rate_limit
from ..sheet_page import SHEET_HELPERS, SheetLinks, qr_response, sheet_context
from . import stream as streams
from .access import (
    cookie_secrets,
    count_wrong_codes,
    etag,
    find_table,
    keep_secret,
    matching_etag,
    this_phone,
    too_many,
)
from .presenters import GroupOffer, Invite, Live, LiveSeat, OwnGroup, Screen, SeatPanel, screen_seats

bp = Blueprint("tables", __name__)
count_wrong_codes(bp)

EXPIRED = N_("The page had expired; nothing was changed. Try again.")
NOT_FOUND = N_("No open table has this code; check it with the host.")


@bp.after_request
def _never_stored(response: Response) -> Response:
    """No table page is kept by the browser or a proxy: each holds what a phone
    holds at the table (a seat's secret, the host's private link)."""
    if response.mimetype != "image/svg+xml":  # the join QR code names only the public link
        response.headers["Cache-Control"] = "no-store"
    return response


@bp.errorhandler(model.NoSuchTable)
def _not_found(error: model.NoSuchTable):
    """No open table has the code (or no such seat): the 404 page."""
    return render_template("errors/error.html", error=NotFound(gettext(NOT_FOUND))), 404


@bp.errorhandler(CSRFError)
def form_expired(error: CSRFError):
    """A post without a valid CSRF token: nothing changes."""
    return expired_form_page(error)


def _table(code: str) -> Table:
    """The table of *code* (404 page, counted as a wrong code, if none); typed in
    another case or with dashes: redirected to the one address."""
    table = find_table(code)
    if table.code != code:
        abort(redirect(url_for(request.endpoint or ".table", **{**(request.view_args or {}), "code": table.code})))
    return table


# -- start and join


@bp.post("/tables")
@limiter.shared_limit(table_rate_limit, scope="table-create", on_breach=too_many, override_defaults=False)
def start():
    """Start a table (ruleset, the host phone's date): the host's secret goes in
    this phone's cookie, and the table page shows the code, link and QR code."""
    form = StartTableForm()
    if not form.validate():
        flash(gettext("The table could not be started; try again."), "error")
        return redirect(url_for("sheets.new_game"), code=303)
    try:
        table, secret = service.start(form.ruleset.data or "pocket", form.played_on.data or date.today())
    except GameErrors as problems:
        flash(" ".join(error_message(error) for error in problems.errors), "error")
        return redirect(url_for("sheets.new_game"), code=303)
    return keep_secret(redirect(url_for(".table", code=table.code), code=303), table.code, secret)


@bp.route("/join", methods=["GET", "POST"])
def join():
    """Type a join code (case, spaces and dashes ignored) to open its table."""
    form = JoinCodeForm() if request.method == "POST" else JoinCodeForm(formdata=request.args or None)
    typed = form.code.data or ""
    if typed.strip(" -"):
        try:
            return redirect(url_for(".table", code=find_table(typed).code), code=303)
        except model.NoSuchTable:
            form.code.errors = [gettext(NOT_FOUND)]
            return render_template("tables/join.html", form=form), 404
    if request.method == "POST":  # "Open" with the box empty
        form.code.errors = [gettext("Type the code the host’s phone shows (six letters and digits).")]
        return render_template("tables/join.html", form=form), 422
    return render_template("tables/join.html", form=form)


# -- the table page


@bp.get("/t/<code>")
def table(code: str):
    """The table: join it (a name), the seats live, the host's code, link and QR
    code; once locked, the sheet. ``?from=<code>``: "Play again" from that table,
    the phone takes its seats back with its secret for it."""
    table = _table(code)
    came_from = model.normalise_code(request.args.get("from", ""))
    if came_from and not cookie_secrets(table.code):
        phone = model.identify(table, cookie_secrets(came_from))
        if phone.secret is not None:
            # a player lands in their seat; the host on the table's page, with its code and QR code
            back = (
                url_for(".seat", code=table.code, number=min(phone.seats)) if phone.seats and not phone.host else None
            )
            response = redirect(back or url_for(".table", code=table.code), code=303)
            return keep_secret(response, table.code, phone.secret)
    if table.locked:
        return _locked_page(table)
    table = service.here(table, cookie_secrets(table.code))
    return _table_page(table, SeatNameForm(formdata=None))


@bp.post("/t/<code>/here")
@csrf.exempt  # it changes nothing but when this cookie's phone was seen; a cross-site post carries no Lax cookie
def here(code: str):
    """The phone is at the table: its page is open (table.js says so every 30 s while shown,
    :data:`~scorekeeper.table.model.HERE_EVERY`). ``204``; a request to move that nobody is
    left to answer is carried out (:func:`service.here`)."""
    service.here(find_table(code), cookie_secrets(model.normalise_code(code) or code))
    return Response(status=204)


def _table_page(table: Table, name_form: SeatNameForm, messages: list[str] | None = None, status: int = 200):
    phone = this_phone(table)
    invite = _invite(table)
    # the groups offered, read for the host's lock and a seated phone's own offers only
    asks = model.can_offer_group(table, phone) and (phone.host or bool(phone.seats and phone_groups()))
    offers = service.offered_groups(table) if asks else []
    if phone.host:  # the host's lock may go to any group a seated phone offers; no other phone sees them
        offer_groups([(offer.group, _holder_names(table, offer.holder)) for offer in offers])
    return (
        render_template(
            "tables/table.html",
            state=table,
            phone=phone,
            link=invite.link,
            qr=invite.qr if phone.host else None,
            name_form=name_form,
            messages=messages or [],
            full=table.is_full,
            may_take_seat=model.can_take_seat(table, phone),
            may_move=[
                (seat, seen_words(model.seen_ago(table, seat, service.now())))
                for seat in model.movable_seats(table, phone)
            ],
            host_seen=seen_words(_ago(model.last_seen(table, table.host))),
            live=_live(table, phone),
            screen_link=url_for(".screen", code=table.code, _external=True),
            offer=_group_offer(table, phone, offers),
            table_group=_started_from(table) if phone.host else None,
        ),
        status,
    )


def _group_offer(table: Table, phone: Phone, offers: list[Offer]) -> GroupOffer | None:
    """What a seated phone (not the host's: its groups are its lock's choice) may offer
    for the table's game: its own groups, each with whether it offers it now."""
    if phone.host or not phone.seats or table.group_id is not None or not model.can_offer_group(table, phone):
        return None  # (a table started from a group's page locks into it: nothing to offer)
    groups = phone_groups()
    if not groups:
        return None
    mine = model.secret_hash(phone.secret or "")
    offered = {offer.group.id for offer in offers if offer.holder == mine}
    return GroupOffer(groups=[OwnGroup(group.public_id, group.name, group.id in offered) for group in groups])


def _holder_names(table: Table, holder: str) -> str:
    """The names of the seats the phone whose secret's hash is *holder* holds ("Bo", "Bo, Cy")."""
    return ", ".join(isolated(seat.name) for seat in table.seats if seat.holder == holder)


@bp.post("/t/<code>/offer")
def offer(code: str):
    """A seated phone offers one of its groups (``group``: its public id) for the table's
    game, or takes its offer back (``withdraw``: its public id): the host may then lock the
    table into it, though the host's phone is not in the group (issue 33). Only the host's
    page is shown what is offered."""
    table = _table(code)
    if table.locked:  # its game is in a group already: the locked page adds it to others
        return redirect(url_for(".table", code=table.code), code=303)
    form = SeatNameForm()  # CSRF only
    if not form.validate() and "csrf_token" in form.errors:
        return _table_page(table, SeatNameForm(formdata=None), [gettext(EXPIRED)], 400)
    withdraw = "withdraw" in request.form
    chosen = request.form.get("withdraw" if withdraw else "group")
    group = next((grp for grp in phone_groups() if grp.public_id == chosen), None)
    if group is None:
        abort(403)
    try:
        service.offer_group(table.code, cookie_secrets(table.code), group, offered=not withdraw)
    except GameError as error:
        table = service.find(table.code) or table
        if table.locked:  # locked meanwhile
            return redirect(url_for(".table", code=table.code), code=303)
        return _table_page(table, SeatNameForm(formdata=None), [error_message(error)], 409)
    if withdraw:
        flash(gettext("“%(name)s” is no longer offered for this game.", name=group.name))
    else:
        flash(gettext("“%(name)s” is offered: the host may lock the table into it.", name=group.name))
    return redirect(url_for(".table", code=table.code), code=303)


def _started_from(table: Table) -> str | None:
    """The name of the group *table* was started from (its game goes there at the lock), if any."""
    group = db.session.get(Group, table.group_id) if table.group_id is not None else None
    return group.name if group is not None else None


def _locked_page(table: Table):
    phone = this_phone(table)
    saved = saved_games.find_game(table.game_id) if table.game_id else None
    if saved is None:
        abort(404, description=gettext(NOT_FOUND))
    share = url_for("games.show", public_id=saved.public_id, _external=True)
    links = SheetLinks(
        share=share,
        pdf=url_for("games.pdf", public_id=saved.public_id),
        qr=url_for("games.qr", public_id=saved.public_id) if qr_fits(share) else None,
    )
    secret = service.edit_link_secret(table, phone)
    private = url_for("games.manage", public_id=saved.public_id, secret=secret) if secret else None
    context = sheet_context(
        saved_games.sheet_of(saved.entry), saved.played_on, links, saved=saved, viewing=None, owner=False
    )
    group = _host_group(table, phone, saved.group_id) if phone.host else None
    game_group = db.session.get(Group, saved.group_id) if saved.group_id is not None else None
    joinable = (
        game_group is not None
        and model.can_add_game_group(table, phone)
        and all(grp.id != game_group.id for grp in phone_groups())
    )
    return render_template(
        "tables/locked.html",
        **context,
        state=table,
        phone=phone,
        private_link=private,
        saved_group=group,
        joinable_group=game_group if joinable else None,
        own_groups=_groups_without(saved) if model.can_add_game_group(table, phone) else [],
        live=_live(table, phone, with_words=False),
    )


def _groups_without(saved) -> list[Group]:
    """This phone's groups that do not hold the locked game *saved* (nor a copy of it)."""
    groups = phone_groups()
    if not groups:
        return []
    key = saved_games.sheet_key(saved_games.game_of(saved.entry), saved.played_on)
    holding = {saved.group_id, *(other.group_id for other in saved_games.saved_from(key))}
    return [group for group in groups if group.id not in holding]


@bp.post("/t/<code>/add")
def add_to_group(code: str):
    """A phone seated at the locked table adds the game to one of its own groups
    (``group``: its public id) in one tap: a copy of the game there, with its own
    private link kept by this phone (issue 33)."""
    table = _table(code)
    form = SeatNameForm()  # CSRF only
    if not form.validate() and "csrf_token" in form.errors:
        flash(gettext(EXPIRED), "error")
        return redirect(url_for(".table", code=table.code), code=303)
    group = next((grp for grp in phone_groups() if grp.public_id == request.form.get("group")), None)
    if group is None:
        abort(403)
    try:
        copy, secret = service.add_to_group(table.code, cookie_secrets(table.code), group)
    except (model.NotAllowed, model.TableConflict):
        abort(403)
    response = redirect(url_for(".table", code=table.code), code=303)
    if secret is not None:
        remember(response, copy.public_id, secret)
    join_group(group, invite_secret(group) or "")  # used last: offered first on its next save
    flash(gettext("The game is in your group %(name)s too.", name=group.name))
    return response


@bp.post("/t/<code>/group")
def add_group(code: str):
    """A phone seated at the locked table adds the game's group to itself in one tap:
    the game, and the group's others, in its History (no invite link passed around).
    It gets a table pass (:func:`store.groups.table_pass`), never the group's invite
    secret, and the group is not chosen for its next save (a group someone else made)."""
    table = _table(code)
    form = SeatNameForm()  # CSRF only
    if not form.validate() and "csrf_token" in form.errors:
        flash(gettext(EXPIRED), "error")
        return redirect(url_for(".table", code=table.code), code=303)
    phone = this_phone(table)
    saved = saved_games.find_game(table.game_id) if table.locked and table.game_id else None
    group = db.session.get(Group, saved.group_id) if saved is not None and saved.group_id is not None else None
    if group is None or not model.can_add_game_group(table, phone):
        abort(403)
    if all(grp.id != group.id for grp in phone_groups()):
        join_group(group, table_pass(group, table.code, current_app.secret_key or ""), chosen=False)
    flash(gettext("This phone is now in the group “%(name)s”: its games are in your history.", name=group.name))
    return redirect(url_for(".table", code=table.code), code=303)


def _host_group(table: Table, phone: Phone, group_id: int | None) -> Group | None:
    """The locked game's group, for its host's phone. A group the lock made is
    added to the phone again if it is missing (the lock's answer, which added
    it, never arrived: a reload while it was on its way)."""
    group = next((grp for grp in phone_groups() if grp.id == group_id), None)
    if group is None and group_id is not None:
        made = db.session.get(Group, group_id)
        secret = service.new_group_secret(table, phone)
        if made is not None and secret and opens(made, secret):
            join_group(made, secret)
            group = made
    return group


@bp.get("/t/<code>/seats")
@bp.get("/t/<code>/host")
@bp.get("/t/<code>/move")
def back_to_table(code: str):
    """The addresses a refused seat, lock or move leaves in the address bar (the
    form came back there with its message): opened again, the table."""
    return redirect(url_for(".table", code=_table(code).code), code=303)


@bp.get("/t/<code>/qr.svg")
def qr(code: str):
    """The QR code of the table's join link, for the host's screen."""
    table = _table(code)
    return qr_response(url_for(".table", code=table.code, _external=True))


@bp.get("/t/<code>/screen")
def screen(code: str):
    """The table on a big screen (a television, a tablet), read-only, the same for
    whoever opens it: the join code and its QR code while seats are free, each seat's
    progress, then the locked game's sheet with its winner and its tiebreak notes (the
    sheet's own partial, as the phones show them). Anyone with the code may
    open it, as anyone may open the table's page; it shows what every phone at the
    table sees, and no secret (it never reads the phone's cookie), no form, no
    button. static/js/screen.js keeps it up to date from the table's announcements
    alone; without JavaScript it reloads itself every :data:`SCREEN_RELOAD` seconds."""
    table = _table(code)
    notes = {name: SHEET_HELPERS[name] for name in ("describe_tiebreak", "describe_shared")}  # sheets/_tiebreaks.html
    return render_template("tables/screen.html", screen=_screen(table), **notes)


#: How often the big screen reloads without JavaScript (seconds): a seat's progress, not a draft's every card.
SCREEN_RELOAD = 10


def _screen(table: Table) -> Screen:
    """What the big screen shows of *table*: the same for everyone (no phone is asked who it is)."""
    invite = _invite(table)
    sheet = _locked_sheet(table)
    return Screen(
        code=table.code,
        version=table.version,
        ticket=streams.ticket(table.code),
        # asked every 10 s without a stream: the API's state as anyone sees it, mostly a 304
        state_url=url_for("table_api.show", code=table.code),
        etag=etag(table, model.NOBODY),
        open=model.can_take_seat(table, model.NOBODY),
        link=invite.link,
        qr=invite.qr,
        join_url=url_for(".join", _external=True),
        seats=screen_seats(table.seats),
        most=MAX_PLAYERS,
        checks_required=table.checks_required,
        locked=table.locked,
        sheet=sheet,
        rows=[(row_name(row), [result.rows[row] for result in sheet.results]) for row in Row] if sheet else [],
        next_url=url_for(".screen", code=table.next_code) if table.next_code else None,
        reload=SCREEN_RELOAD,
    )


def _locked_sheet(table: Table) -> ScoreSheet | None:
    """The sheet of the game *table* was locked into (``None``: not locked, or the game deleted since)."""
    saved = saved_games.find_game(table.game_id) if table.locked and table.game_id else None
    return saved_games.sheet_of(saved.entry) if saved is not None else None


@bp.get("/t/<code>/live")
def live(code: str):
    """The live part of the table's pages for this phone (seats, cards n/16, done,
    checked, what the table waits for, what this phone's seats need to know),
    for table.js: asked every few seconds without a stream, when a page is shown
    again, and by a locked page a change reaches (it has not the words to draw it).
    Its ETag is the table's version with who asks; ``If-None-Match`` gives 304."""
    table = service.here(find_table(code), cookie_secrets(model.normalise_code(code) or code))
    phone = this_phone(table)
    compact = request.args.get("compact") == "1"
    tag = etag(table, phone, str(get_locale()), compact)
    if matching_etag(tag) is not None:
        response = Response(status=304)
    else:
        response = Response(render_template("tables/_live.html", live=_live(table, phone, compact, with_words=False)))
    response.set_etag(tag)
    response.headers["X-Table-Version"] = str(table.version)
    return response


def _live(table: Table, phone: Phone, compact: bool = False, with_words: bool = True) -> Live:
    """What the live part shows this phone: each seat and what the phone may do
    with it, the notes for its seats, what the table waits for, a waiting move;
    *compact*: the seats on one line (above a seat's kingdom entry); *with_words*: with
    the words table.js draws it with (not for ``/t/<code>/live``, the part alone, nor
    the locked page, which a change only leaves).

    table.js draws the same from a pushed change, knowing this phone by its tags
    (:func:`~scorekeeper.table.model.phone_tag` of every secret its cookie keeps for
    the table, one that holds nothing yet too: the asker of a move)."""
    names = {seat.number: seat.name for seat in table.seats}
    now = service.now()
    move = model.waiting_move(table, now)
    kept = [model.secret_hash(secret) for secret in cookie_secrets(table.code)]
    host_seat = table.host_seat
    return Live(
        code=table.code,
        version=table.version,
        look=model.look(table, now),
        etag=etag(table, phone, str(get_locale()), compact),  # as /live would send it: its first ask gets a 304
        ticket=streams.ticket(table.code),
        seats=[_live_seat(table, phone, seat, names, now) for seat in table.seats],
        names=names,
        by_number={seat.number: seat for seat in table.seats},
        my_seats=phone.seats,
        host_name=host_seat.name if host_seat else None,
        notes=list(dict.fromkeys(_notes(table, phone))),
        waiting=_waiting(table, now, compact),
        move=move,
        move_by_me=model.is_move_asked_by(table, kept, now),
        move_by=_asker_names(table, move),
        move_by_host=move is not None and move.asker == table.host,
        may_answer_move=model.can_answer_move(table, phone, now, kept),
        is_host=phone.host,
        phone=_holding(phone),
        locked=table.locked,
        next_code=table.next_code,
        checks_required=table.checks_required,
        compact=compact,
        with_words=with_words,
        tags=" ".join(model.phone_tag(table.code, hashed) for hashed in kept),
        lang=str(get_locale() or "en"),
        url=url_for(".live", code=table.code, compact=1) if compact else url_for(".live", code=table.code),
        now=int(now.timestamp() * 1000),
        gone_after=int(model.GONE_AFTER.total_seconds()),
    )


def _waiting(table: Table, now: datetime, compact: bool) -> list[model.Waiting]:
    """What the table waits for, as the live part says it: above a seat's kingdom entry
    (*compact*), the seats line shows who is entering, and the rest is said."""
    return [w for w in model.waiting_for(table, now) if not (compact and w.what == "entering")]


def _holding(phone: Phone) -> str:
    """What *phone* holds at the table, as table.js keys the live part: ``"host:1,3"``, ``":2"``, ``":"``."""
    return f"{'host' if phone.host else ''}:{','.join(map(str, sorted(phone.seats)))}"


def _live_seat(table: Table, phone: Phone, seat: Seat, names: dict[int, str], now: datetime) -> LiveSeat:
    """*seat* in *phone*'s live part, with what the phone may do with it now."""
    return LiveSeat(
        seat=seat,
        mine=phone.holds(seat.number),
        may_enter=model.can_enter(table, phone, seat.number),
        may_check=model.can_check(table, phone, seat.number),
        checked_by=names.get(seat.checked_by) if seat.checked_by else None,
        seen_at=None if (seen := model.last_seen(table, seat.holder)) is None else seen.isoformat(timespec="seconds"),
        seen=seen_words(model.seen_ago(table, seat, now)),
        gone=model.is_gone(table, seat.holder, now),
        may_remove=model.can_remove_seat(table, phone, seat.number),
    )


def _ago(seen: datetime | None) -> int | None:
    """Seconds since *seen* (``None``: never)."""
    return None if seen is None else max(0, int((service.now() - seen).total_seconds()))


def seen_words(ago: int | None) -> str:
    """When a seat's phone was last seen, *ago* seconds before (``None``: never), as its
    seat says it ("seen 3 min ago"); table.js says it alike from the words of ``_live_words.html``."""
    if ago is None:
        return gettext("not seen yet")
    if ago < 60:
        return gettext("seen just now")
    return gettext("seen %(count)d min ago", count=ago // 60)


def _asker_names(table: Table, move: model.MoveRequest | None) -> str:
    """The seats the phone asking *move* holds already, named: "Bo’s phone asks…" (``""``: "Another phone")."""
    if move is None:
        return ""
    return ", ".join(isolated(seat.name) for seat in table.seats if seat.holder == move.asker)


def _notes(table: Table, phone: Phone) -> list[str]:
    """What this phone's seats need to know (a card reported wrong: to its owner as
    "your kingdom", to the host by name), then what every phone does
    (:func:`.stream.notes`: a Legend two seats claim, R6.1; more
    copies of a card than the deck holds once all are done, R1). table.js writes
    the same from an announcement: the first from the words of ``_live_words.html``,
    the others as the announcement carries them in the page's language."""
    names = {seat.number: isolated(seat.name) for seat in table.seats}  # read on the page, in a sentence
    notes = []
    for seat in table.seats:
        mine = phone.holds(seat.number)
        if (mine or phone.host) and seat.wrong_cell is not None:
            row, column = position(seat.wrong_cell)
            where = {"checker": names.get(seat.wrong_by or 0, "?"), "row": row + 1, "column": column + 1}
            if mine:
                note = gettext(
                    "%(checker)s says the card in row %(row)s, column %(column)s of your kingdom is wrong.", **where
                )
            else:
                note = gettext(
                    "%(checker)s says the card in row %(row)s, column %(column)s of %(name)s’s kingdom is wrong.",
                    name=isolated(seat.name),
                    **where,
                )
            notes.append(note)
    return notes + streams.notes(table, words())


@bp.post("/t/<code>/seats")
@limiter.shared_limit(join_rate_limit, scope="table-join", on_breach=too_many, override_defaults=False)
def take_seat(code: str):
    """Take a seat under a name (R8, checked at once against the seated names);
    the host's "for a player without a phone" adds a seat held by the host's phone."""
    table = _table(code)
    if table.locked:  # takes no more seats: its sheet
        return redirect(url_for(".table", code=table.code), code=303)
    form = SeatNameForm()
    if not form.validate():
        return _table_page(table, form, [gettext(EXPIRED)], 400)
    try:
        after, seat, secret = service.take_seat(table.code, form.name.data or "", cookie_secrets(table.code))
    except GameErrors as problems:
        form.name.errors = [error_text(error) for error in problems.errors]
        return _table_page(table, form, status=422)
    except GameError as error:
        form.name.errors = [error_text(error)]
        table = service.find(table.code) or table
        phone = this_phone(table)
        shown = not phone.seats or phone.host  # the name box is shown: its message stands beside it
        return _table_page(table, form, [] if shown else [error_message(error)], status=409)
    response = redirect(url_for(".seat", code=after.code, number=seat.number), code=303)
    return keep_secret(response, after.code, secret)


# -- a seat's kingdom


@bp.route("/t/<code>/seat/<int:number>", methods=["GET", "POST"])
def seat(code: str, number: int):
    """Enter seat *number*'s kingdom (its own phone or the host's): the game
    form's kingdom entry. With JavaScript every change goes to the API as a
    draft; without, "Save", and "Done" when all 16 cards are there (a post here)."""
    table = _table(code)
    if request.method == "GET":
        table = service.here(table, cookie_secrets(table.code))
    seat = table.seat(number)
    phone = this_phone(table)
    if not phone.may_enter(number):
        if request.method == "GET" and cookie_secrets(table.code):
            # a phone of the table opening a seat it does not hold (one moved away: its page reloads): the table,
            # saying why, never an error page it did nothing to cause
            flash(gettext("%(name)s’s seat is on another phone.", name=isolated(seat.name)), "error")
            return redirect(url_for(".table", code=table.code), code=303)
        refused = Forbidden(gettext("Only the seat’s own phone or the host can change this seat."))
        back = {"url": url_for(".table", code=table.code), "label": gettext("Open the table")}
        return render_template("errors/error.html", error=refused, back=back), 403
    if table.locked:
        return redirect(url_for(".table", code=table.code), code=303)
    if request.method == "GET":
        form = _seat_form(seat)
        if seat.wrong_cell is not None:  # marked in red, with what the checker said
            cell = form.seat.form.cells[seat.wrong_cell]
            row, column = divmod(seat.wrong_cell, 4)  # in the words of the banner above ("row 4, column 3")
            cell.errors = [
                gettext(
                    "Row %(row)d, column %(column)d: another player says this card is wrong.",
                    row=row + 1,
                    column=column + 1,
                )
            ]
        return _seat_page(table, seat, phone, form)
    form = SeatForm()
    panel = form.seat.form
    action = request.form.get("action", "save")
    pasted = panel.apply_paste()
    if not form.validate() and "csrf_token" in form.errors:
        return _seat_page(table, seat, phone, form, [gettext(EXPIRED)], 400)
    if not pasted:
        return _seat_page(table, seat, phone, form, status=422)
    done = {"done": True, "undone": False}.get(action)
    secrets = cookie_secrets(table.code)
    kept = False  # the cards stored, only "done" refused
    try:
        draft = {
            "kingdom": [cell.data or None for cell in panel.cells],
            "legends": list(panel.legends.data or []),
            "base": _posted_json("base"),
        }
        table = service.save_draft(table.code, number, secrets, draft)  # the cards first: kept if done is refused
        kept = True
        if done is not None:
            table = service.save_draft(table.code, number, secrets, model.Draft(done=done))
    except GameErrors as problems:
        messages = _attach_seat_errors(panel, problems.errors)
        return _seat_page(table, table.seat(number), phone, form, messages, 422, kept=kept)
    except GameError as error:
        return _seat_page(table, table.seat(number), phone, form, [error_message(error)], 409)
    if action == "done":
        return redirect(url_for(".table", code=table.code), code=303)
    flash(gettext("Saved."))
    return redirect(url_for(".seat", code=table.code, number=number), code=303)


def _posted_json(field: str) -> object:
    """A form field holding JSON (a page's ``base``, ``seen``): ``None`` if missing or not JSON."""
    return _json(request.form.get(field))


def _json(text: str | None) -> object:
    """*text* read as JSON: ``None`` if missing or not JSON."""
    try:
        return json.loads(text or "null")
    except (ValueError, RecursionError):
        return None


def _stored(table: Table, seat: Seat) -> dict[str, Any]:
    """What the server holds for a seat, as the API's drafts take it (``base``) and
    as table.js compares it: 16 card ids (``null`` for none) row by row, the
    claimed Legend ids, whether it is done, and the table's version."""
    return {"kingdom": list(seat.cells), "legends": list(seat.legends), "done": seat.done, "version": table.version}


def _seat_form(seat: Seat) -> SeatForm:
    """The seat form as *seat*'s page shows it first: what the server holds."""
    panel = SeatPanel(name=seat.name, cells=[c or "" for c in seat.cells], legends=seat.legends)
    return SeatForm(formdata=None, data={"seat": panel})


def _attach_seat_errors(panel: Any, errors: tuple[GameError, ...]) -> list[str]:
    """Each cell's error beside its cell; the others for the whole page."""
    general = []
    for error in errors:
        if isinstance(error, UnknownCard) and error.cell is not None and 0 <= error.cell < model.CELLS:
            panel.cells[error.cell].errors = [*panel.cells[error.cell].errors, error_text(error)]
        else:
            general.append(error_message(error))
    return general


def _seat_page(table: Table, seat: Seat, phone: Phone, form: SeatForm, messages=None, status: int = 200, kept=False):
    return (
        render_template(
            "tables/seat.html",
            state=table,
            seat=seat,
            # what the server holds, whatever the form shows: the base of the page's drafts
            stored=_stored(table, seat),
            secret=phone.secret_for(seat.number),
            phone=phone,
            form=form,
            p=form.seat.form,
            messages=messages or [],
            kept=kept,
            live=_live(table, phone, compact=True),
            invite=_invite(table) if phone.host and not table.is_full else None,
            **kingdom_context(),
            preview=kingdom_preview(table.ruleset, form.seat.form.cells.data, form.seat.form.legends.data),
        ),
        status,
    )


def _invite(table: Table) -> Invite:
    """The join link and its QR code (a seated host still shows the code to players who come later)."""
    link = url_for(".table", code=table.code, _external=True)
    return Invite(link=link, qr=url_for(".qr", code=table.code) if qr_fits(link) else None)


# -- checking another seat


@bp.route("/t/<code>/check/<int:number>", methods=["GET", "POST"])
def check(code: str, number: int):
    """Seat *number*'s kingdom read-only for another seat's phone: "Checked",
    or a cell tapped and "Something is wrong" (its owner's phone shows it)."""
    table = _table(code)
    seat = table.seat(number)
    if table.locked:
        return redirect(url_for(".table", code=table.code), code=303)
    if request.method == "GET":
        table = service.here(table, cookie_secrets(table.code))
        return _first_look(table, table.seat(number), this_phone(table))
    phone = this_phone(table)
    form = SeatNameForm()  # CSRF only
    if not form.validate() and "csrf_token" in form.errors:
        return _check_page(table, seat, [gettext(EXPIRED)], 400)
    try:
        refused = _check_posted(table, seat, phone)
    except GameErrors as problems:
        return _check_page(table, seat, [error_message(error) for error in problems.errors], 422)
    except GameError as error:
        return _check_refused(table, seat, error)
    return refused or redirect(url_for(".table", code=table.code), code=303)


def _first_look(table: Table, seat: Seat, phone: Phone):
    """The check page of *seat* as a phone opens it; the table's page, saying why,
    if the phone may not check it now (a 0/16 kingdom never offers "Checked")."""
    refusal = model.check_refusal(table, seat.number, phone, None)
    if refusal is None:
        return _check_page(table, seat, [], 200, _shown_before(seat, _json(request.args.get("before"))))
    if refusal.message_id == "check-not-done":  # never done, or no longer (a card said wrong, changed)
        why = gettext("%(name)s’s kingdom is not marked done, so it cannot be checked now.", name=isolated(seat.name))
    else:
        why = sentence(error_text(refusal))
    flash(why, "error")
    return redirect(url_for(".table", code=table.code), code=303)


def _check_posted(table: Table, seat: Seat, phone: Phone):
    """What the check page posted, stored: "Checked", or "Something is wrong" at the cell
    tapped, of the kingdom as it showed it (``seen``); ``None`` once stored, else the
    page again asking for a cell.

    :raises GameError, GameErrors: who asks may not check it, what it sent is refused
        (:func:`service.check`, :func:`service.report_wrong`).
    """
    seen = _posted_json("seen")
    if request.form.get("action") != "wrong":
        service.check(table.code, seat.number, cookie_secrets(table.code), seen)
        return None
    cell = request.form.get("cell", "")
    if not (cell.isascii() and cell.isdecimal() and len(cell) < 3):
        model.read_seen(table, seat.number, phone, seen)  # who asks, and what it sent, before the cell
        return _check_page(table, seat, [gettext("First tap the cell that is wrong, then “Something is wrong”.")], 422)
    service.report_wrong(table.code, seat.number, cookie_secrets(table.code), int(cell), seen)
    return None


def _check_refused(table: Table, seat: Seat, error: GameError):
    """The check page again with why *error* refused the check (409); a kingdom changed
    since the page showed it: as it is now, its changes marked, to look at again."""
    if error.message_id != "check-kingdom-changed":
        return _check_page(table, seat, [error_message(error)], 409)
    table = service.find(table.code) or table
    seat = table.seat(seat.number)
    return _check_page(table, seat, [], 409, _shown_before(seat, _posted_json("seen")))


def _shown_before(seat: Seat, sent: object) -> model.Shown | None:
    """What a check page of *seat* showed, as it sent it (``seen``), or ``None`` if unreadable."""
    try:
        return None if sent is None else model.read_shown(sent, seat.who())
    except GameErrors:
        return None


def _changes_since(seat: Seat, before: model.Shown | None) -> tuple[frozenset[int], str | None]:
    """The cells (0..15) of *seat*'s kingdom that differ from what the check page showed
    (*before*), and the sentence that says what they hold now (``None``: nothing changed)."""
    if before is None:
        return frozenset(), None
    cells = frozenset(m for m in range(16) if before.cells[m] != seat.cells[m])
    changes = [
        words().labelled(cell_label(m), card_name(card) if card else gettext("empty"))
        for m, card in enumerate(seat.cards)
        if m in cells
    ]
    if before.legends != frozenset(seat.legends):
        changes.append(gettext("the Legends claimed"))
    if not changes:
        return cells, None
    return cells, gettext(
        "%(name)s’s kingdom changed while you were looking at it (%(changes)s): look at it again.",
        name=isolated(seat.name),
        changes=", ".join(changes),
    )


def _check_page(table: Table, seat: Seat, messages: list[str], status: int, before: model.Shown | None = None):
    """The check page of *seat*; with *before* (what the page showed before its kingdom changed),
    the changed cells are marked and said (a page reloaded by table.js, a "Checked" refused)."""
    changed, said = _changes_since(seat, before)
    if said:
        messages = [said, *messages]
    phone = this_phone(table)
    cells = list(seat.cards)
    preview = score_partial(Kingdom.partial(cells), get_ruleset(table.ruleset), list(seat.legends))
    return (
        render_template(
            "tables/check.html",
            state=table,
            seat=seat,
            seen=_stored(table, seat),
            cards=cells,
            changed=changed,
            preview=preview,
            legends=[LEGENDS_BY_ID[legend] for legend in seat.legends],
            messages=messages,
            Row=Row,
            live=_live(table, phone, compact=True),  # the table, live: a lock, a move, this kingdom changed
        ),
        status,
    )


# -- a seat (or the host's role) moved to another phone


@bp.post("/t/<code>/move")
def move(code: str):
    """Ask to take a seat whose phone is gone (``seat``: its number, or ``host``
    for the host's role), or answer the waiting request (``answer``: ``allow``
    or ``refuse``), from a phone seated at the table or the host's."""
    table = _table(code)
    form = SeatNameForm()  # CSRF only
    if not form.validate() and "csrf_token" in form.errors:
        return _table_page(table, SeatNameForm(formdata=None), [gettext(EXPIRED)], 400)
    answer = request.form.get("answer")
    asked = request.form.get("seat", "")
    try:
        if answer in ("allow", "refuse"):
            service.answer_move(table.code, cookie_secrets(table.code), answer == "allow")
        elif asked == "host" or (asked.isascii() and asked.isdecimal() and len(asked) < 3):
            after, secret = service.ask_to_move(
                table.code, None if asked == "host" else int(asked), cookie_secrets(table.code)
            )
            return keep_secret(redirect(url_for(".table", code=after.code), code=303), after.code, secret)
        else:
            abort(400)
    except GameError as error:
        return _table_page(service.find(table.code) or table, SeatNameForm(formdata=None), [error_message(error)], 409)
    return redirect(url_for(".table", code=table.code), code=303)


@bp.post("/t/<code>/seats/<int:number>/remove")
def remove_seat(code: str, number: int):
    """The host removes seat *number*, with nothing entered (a stranger who took a seat)."""
    table = _table(code)
    form = SeatNameForm()  # CSRF only
    if not form.validate() and "csrf_token" in form.errors:
        return _table_page(table, SeatNameForm(formdata=None), [gettext(EXPIRED)], 400)
    try:
        service.remove_seat(table.code, number, cookie_secrets(table.code))
    except GameError as error:
        return _table_page(service.find(table.code) or table, SeatNameForm(formdata=None), [error_message(error)], 409)
    return redirect(url_for(".table", code=table.code), code=303)


# -- the host


@bp.post("/t/<code>/host")
def host(code: str):
    """The host's buttons: checks on or off, lock, and "Play again" after the lock."""
    table = _table(code)
    form = SeatNameForm()  # CSRF only
    if not form.validate() and "csrf_token" in form.errors:
        return _table_page(table, SeatNameForm(formdata=None), [gettext(EXPIRED)], 400)
    action = request.form.get("action", "")
    secrets = cookie_secrets(table.code)
    try:
        if action == "again":
            played_on = StartTableForm().played_on.data or date.today()
            following = service.play_again(table.code, secrets, played_on)
            return redirect(url_for(".table", code=following.code) + "?from=" + table.code, code=303)
        if action in ("checks-on", "checks-off"):
            service.set_checks(table.code, secrets, action == "checks-on")
        elif action == "lock":
            _lock(table, this_phone(table))
        else:
            abort(400)
    except GameErrors as problems:
        table = service.find(table.code) or table
        if table.locked:
            return redirect(url_for(".table", code=table.code), code=303)
        messages = [gettext("The table cannot be locked yet:")] if action == "lock" else []
        messages += [error_message(error) for error in problems.errors]
        return _table_page(table, SeatNameForm(formdata=None), messages, 409)
    except GameError as error:
        table = service.find(table.code) or table
        if table.locked:
            return redirect(url_for(".table", code=table.code), code=303)
        return _table_page(table, SeatNameForm(formdata=None), [error_message(error)], 409)
    return redirect(url_for(".table", code=table.code), code=303)


def _lock(table: Table, phone: Phone) -> None:
    """Lock *table* into a group, as a save goes to one: the group it was started
    from, without asking; else the host's choice on the form (one of its phone's
    groups, one a seated phone offered, or a new one: "Our games" unless named,
    which :func:`service.lock` makes in its transaction), by default the group this
    phone used last, else the first offered. A group of its own or a new one is
    added to the host's phone once the lock is saved: a refused lock keeps no new
    group, in the database or on the phone.

    :raises GameError: the group choice's refusals, and :func:`service.lock`'s.
    """
    if not phone.host:
        raise model.NotAllowed("host-only")
    if _started_from(table) is not None:  # started from its group's page: the game goes there, nothing asked
        service.lock(table.code, phone.secrets)
        return
    offered = [offer.group for offer in service.offered_groups(table)]
    choice = chosen_for_save(service.new_group_secret(table, phone), offered)
    locked = service.lock(table.code, phone.secrets, choice)
    joined_after_save(choice, locked.group)

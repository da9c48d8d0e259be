"""Groups: the page of each group this phone belongs to (invite link and QR code, roster),
joining by the invite link, leaving, renaming and merging roster players; the
group's evening ("tonight"): tables started from its page, and a page for a television
in the room that shows them all live (:func:`tonight_page`).

A group's page answers only to its members; to anyone else it is a 404, like
a group that does not exist. The invite link ``/join/<group id>/<secret>``
adds the group to the phone that opens it and moves on to the group's page,
so the secret does not stay in the address bar; pages that hold the secret
are sent ``Cache-Control: no-store`` and ``Referrer-Policy: no-referrer``.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response as BaseResponse

from ...engine import GameError, GameErrors
from ...store import groups as store_groups
from ...store import standing as store_standing
from ...store import tonight as store_tonight
from ...store.games import EARLIEST_PLAYED_ON, LATEST_PLAYED_ON
from ...store.models import Group
from ...table import model, service
from ...table.model import Table
from ..display import qr_fits, qr_svg_file, sparklines
from ..extensions import limiter
from ..forms import StartTableForm
from ..i18n import error_message, error_text, gettext
from ..membership import invite_secret, is_open_history, join, leave, phone_groups
from ..security import save_rate_limit, table_rate_limit
from ..tables import stream as streams
from ..tables import tonight
from ..tables.access import keep_secret, too_many
from ..tables.presenters import BLANK_SEAT, TonightPage, TonightTable, screen_seats

bp = Blueprint("groups", __name__)


def _private(response: BaseResponse) -> BaseResponse:
    """No copy kept by any cache, no address sent on as a Referer: the answer holds a secret."""
    response.headers["Cache-Control"] = "no-store"  # (Referrer-Policy: no-referrer is every page's, web.security)
    return response


@bp.get("/groups")
def groups_page():
    """This phone's groups, and how to join one."""
    return render_template("groups/groups.html", groups=phone_groups(), open_history=is_open_history())


@bp.get("/join/<public_id>/<secret>")
def join_group(public_id: str, secret: str):
    """Open an invite link: the group is added to this phone (then its page)."""
    group = store_groups.find_group(public_id)
    if group is None or not store_groups.opens(group, secret, current_app.secret_key or ""):
        abort(404, description=gettext("This invite link does not open a group (it may have been replaced)."))
    if invite_secret(group) != secret:  # already in it: nothing changes
        join(group, secret, chosen=False)
    flash(gettext("This phone is now in the group “%(name)s”: its games are in your history.", name=group.name))
    return _private(redirect(url_for(".group_page", public_id=group.public_id), code=303))


def _member_group(public_id: str) -> tuple[Group, str]:
    """The group of this page, if this phone is in it (else 404), and its invite secret."""
    group = next((g for g in phone_groups() if g.public_id == public_id), None)
    secret = invite_secret(group) if group is not None else None
    if group is None or secret is None:
        abort(404, description=gettext("There is no group at this address, or this phone is not in it."))
    return group, secret


#: The years a season may be: those a game may be played in (store.games, EARLIEST_PLAYED_ON..LATEST_PLAYED_ON).
SEASONS = range(EARLIEST_PLAYED_ON.year, LATEST_PLAYED_ON.year + 1)


def _season(text: str | None) -> int:
    """The season asked for by ``?season=``: a year of :data:`SEASONS` written as one
    (``2026``; not ``0001`` nor ``02026``), else all time (``all``, nothing, anything else)."""
    text = (text or "").strip()
    if text.isascii() and text.isdigit() and len(text) == 4 and int(text) in SEASONS:
        return int(text)
    return store_standing.ALL_TIME


@bp.get("/groups/<public_id>")
def group_page(public_id: str, screen_link: str | None = None):
    """A group's page: its standing (``?season=`` a year, or all time), its
    invite link and QR code, its roster (rename, merge), leaving it; starting a
    table for tonight, the tonight page, the screen link (*screen_link*: just made,
    shown this once)."""
    group, secret = _member_group(public_id)
    invite = url_for(".join_group", public_id=group.public_id, secret=secret, _external=True)
    standing = store_standing.standing(group, _season(request.args.get("season")))
    page = render_template(
        "groups/group.html",
        group=group,
        invite=invite,
        qr=qr_fits(invite),
        roster=store_groups.roster_entries(group),
        standing=standing,
        lines=sparklines([player.path for player in standing.players]),
        path_games=max((len(player.path) for player in standing.players), default=0),
        form=FlaskForm(),
        start_form=StartTableForm(formdata=None),
        screen_link=screen_link,
    )
    return _private(Response(page, mimetype="text/html"))


@bp.get("/groups/<public_id>/invite-qr.svg")
def invite_qr(public_id: str):
    """The QR code of the group's invite link, for members only, never cached."""
    group, secret = _member_group(public_id)
    invite = url_for(".join_group", public_id=group.public_id, secret=secret, _external=True)
    if not qr_fits(invite):
        abort(404)
    return _private(Response(qr_svg_file(invite), mimetype="image/svg+xml"))


def _checked_form() -> None:
    if not FlaskForm().validate():
        abort(400, description=gettext("The form had expired; open the group’s page and try again."))


@bp.post("/groups/<public_id>/rename")
@limiter.shared_limit(save_rate_limit, scope="saves")
def rename_group(public_id: str):
    """Give the group another name (for all its members)."""
    group, _ = _member_group(public_id)
    _checked_form()
    try:
        store_groups.rename_group(group, request.form.get("name", "")[:200])
    except GameError as problem:
        flash(gettext("The group was not renamed: %(problem)s.", problem=error_text(problem)), "error")
    return redirect(url_for(".group_page", public_id=public_id), code=303)


@bp.post("/groups/<public_id>/players/<int:player_id>/rename")
@limiter.shared_limit(save_rate_limit, scope="saves")
def rename_player(public_id: str, player_id: int):
    """Give a roster player another name; their games and stats follow."""
    group, _ = _member_group(public_id)
    _checked_form()
    player = store_groups.find_player(group, player_id)
    if player is None:
        abort(404, description=gettext("That player is not on this group’s roster (any more)."))
    old = player.name  # for a refusal: the player may be gone by then
    try:
        # the names as the rename read them under the group's lock: after its commit a merge
        # waiting for the lock may delete the player at once (its row read again: a 500)
        renamed = store_groups.rename_player(player, request.form.get("name", "")[:200])
    except GameError as problem:
        flash(gettext("“%(name)s” was not renamed: %(problem)s.", name=old, problem=error_text(problem)), "error")
    else:
        flash(gettext("“%(old)s” is now “%(new)s” in history and stats.", old=renamed.old, new=renamed.new))
    return redirect(url_for(".group_page", public_id=public_id, _anchor="roster"), code=303)


@bp.post("/groups/<public_id>/players/merge")
@limiter.shared_limit(save_rate_limit, scope="saves")
def merge_players(public_id: str):
    """Merge one roster player into another ("Ana" into "Anna"): one person, one history."""
    group, _ = _member_group(public_id)
    _checked_form()
    source = store_groups.find_player(group, request.form.get("source", type=int) or 0)
    target = store_groups.find_player(group, request.form.get("target", type=int) or 0)
    if source is None or target is None:
        flash(gettext("Nothing was merged: choose two players of the roster."), "error")
        return redirect(url_for(".group_page", public_id=public_id, _anchor="merge"), code=303)
    try:
        merged = store_groups.merge_players(source, target)  # the names as it read them under the lock
    except GameError as problem:
        flash(gettext("Nothing was merged: %(problem)s.", problem=error_text(problem)), "error")
    else:
        flash(
            gettext(
                "“%(source)s” is merged into “%(target)s”: one player in history and stats.",
                source=merged.old,
                target=merged.new,
            )
        )
    return redirect(url_for(".group_page", public_id=public_id, _anchor="roster"), code=303)


@bp.post("/groups/<public_id>/leave")
def leave_group(public_id: str):
    """Take the group off this phone (the group and its games stay, for its other members)."""
    group, _ = _member_group(public_id)
    _checked_form()
    leave(group)
    flash(gettext("This phone has left “%(name)s”. Its invite link brings it back.", name=group.name))
    return redirect(url_for(".groups_page"), code=303)


# -- tonight: the group's evening on one screen


@bp.post("/groups/<public_id>/tables")
@limiter.shared_limit(table_rate_limit, scope="table-create", on_breach=too_many, override_defaults=False)
def start_table(public_id: str):
    """A member starts a table from the group's page: it belongs to the group (its game is
    saved there at the lock, nothing asked) and to the evening (the tonight page shows it).
    Then the table's page, as for any table started."""
    group, _ = _member_group(public_id)
    form = StartTableForm()
    if not form.validate():
        flash(gettext("The table could not be started; try again."), "error")
        return redirect(url_for(".group_page", public_id=public_id), code=303)
    try:
        table, secret = service.start(form.ruleset.data or "pocket", form.played_on.data or date.today(), group=group)
    except GameErrors as problems:
        flash(" ".join(error_message(error) for error in problems.errors), "error")
        return redirect(url_for(".group_page", public_id=public_id), code=303)
    return keep_secret(redirect(url_for("tables.table", code=table.code), code=303), table.code, secret)


@bp.get("/groups/<public_id>/tonight")
def tonight_page(public_id: str):
    """The group's evening on one screen, for a member's phone or a television it is opened on
    (:func:`_tonight`)."""
    group, _ = _member_group(public_id)
    return _tonight(group, screen=False)


@bp.get("/groups/<public_id>/screen/<secret>")
def screen_page(public_id: str, secret: str):
    """The tonight page by the group's screen link (no membership: a television in the room);
    404 once the link is revoked or made anew, like a group that does not exist."""
    group = _screen_group(public_id, secret)
    return _tonight(group, screen=True)


def _screen_group(public_id: str, secret: str) -> Group:
    """The group whose current screen link has *secret*, else 404."""
    group = store_groups.find_group(public_id)
    if group is None or not store_tonight.screen_opens(group, secret):
        abort(404, description=gettext("This screen link does not open a group’s evening (it may have been revoked)."))
    return group


#: How often the tonight page reloads without JavaScript (seconds): a television, not a phone's every card.
TONIGHT_RELOAD = 30


def _tonight(group: Group, screen: bool):
    """The tonight page: every table started from the group this evening (join code and QR
    code while seats are free, each seat's progress, a locked table's winners), the evening's
    results with the season's ratings beside them. Read-only and secret-free, the same for
    whoever opens it: no invite link, no screen link, no seat secret (it never reads the
    phone's table cookies). static/js/tonight.js keeps it up to date from the group's room
    on the tables' stream (:mod:`..tables.tonight`), asking nothing; without JavaScript it
    reloads every :data:`TONIGHT_RELOAD` seconds."""
    now = datetime.now(UTC)
    evening = tonight.evening_frame(group.id, now)
    tables = [_tonight_table(table, evening["winners"]) for table in tonight.tonight_tables(group.id, now)]
    page = render_template(
        "groups/tonight.html",
        tonight=TonightPage(
            group_name=group.name,
            ticket=streams.tonight_ticket(group, screen),
            tables=tables,
            evening=evening,
            join_url=url_for("tables.join", _external=True),
            reload=TONIGHT_RELOAD,
            hours=int(store_tonight.EVENING.total_seconds() // 3600),
        ),
        blank_table=TonightTable("", 0, True, None, [], False, False, []),
        blank_seat=BLANK_SEAT,
    )
    response = Response(page, mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"
    return response


def _tonight_table(table: Table, winners: dict[str, list[str]]) -> TonightTable:
    return TonightTable(
        code=table.code,
        version=table.version,
        open=model.can_take_seat(table, model.NOBODY),
        qr=url_for("tables.qr", code=table.code)
        if qr_fits(url_for("tables.table", code=table.code, _external=True))
        else None,
        seats=screen_seats(table.seats),
        checks_required=table.checks_required,
        locked=table.locked,
        winners=winners.get(table.code, []),
    )


@bp.post("/groups/<public_id>/screen-link")
@limiter.shared_limit(save_rate_limit, scope="saves")
def make_screen_link(public_id: str):
    """A member makes the group's screen link anew (the one before stops opening the page),
    shown this once on the group's page: only its hash is kept."""
    group, _ = _member_group(public_id)
    _checked_form()
    secret = store_tonight.new_screen_link(group)
    link = url_for(".screen_page", public_id=group.public_id, secret=secret, _external=True)
    return group_page(public_id, screen_link=link)


@bp.post("/groups/<public_id>/screen-link/revoke")
def revoke_screen_link(public_id: str):
    """A member revokes the group's screen link: pages opened by it are refused at their next
    load or reconnection."""
    group, _ = _member_group(public_id)
    _checked_form()
    store_tonight.revoke_screen_link(group)
    flash(gettext("The screen link is revoked: it no longer opens this group’s evening."))
    return redirect(url_for(".group_page", public_id=public_id, _anchor="tonight"), code=303)

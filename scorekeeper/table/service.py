"""The only code that changes a shared table.

Every change claims the table's row first (its version + 1: the changes of one
table wait for each other, in every database and process), reads the table
(the store's rows, made the model's :class:`~.model.Table` here: :func:`_table`),
asks :mod:`.model` for the table after the change (a refusal writes nothing),
writes what changed, commits, and then publishes the table once
(:func:`.events.publish`). The pages and the JSON API change tables through
these functions only.

The phone asking is given by the secrets it keeps for the table (*secrets*:
the pages' cookie, the API's bearer token), identified at the table as it is
when the change is made (:func:`.model.identify`), and seen at the table then
(:func:`.model.seen_by`: each change it makes, each page of the table it opens and
:func:`here`, which its open pages send, keep it from looking gone).
"""

from __future__ import annotations

import secrets as random_secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime
from typing import NamedTuple

from sqlalchemy.exc import IntegrityError

from ..engine import GameError, GameErrors, get_ruleset
from ..store import offers as group_offers
from ..store import tables as rows
from ..store.db import db
from ..store.games import Details, check_played_on, copy_into, save_game
from ..store.groups import NewGroup, create_group
from ..store.models import Group, SavedGame
from . import events, model
from .model import CODE_ALPHABET, CODE_LENGTH, EXPIRES_AFTER, Draft, MoveRequest, Phone, Seat, Shown, Table

Secrets = Sequence[str | None]


def now() -> datetime:
    """The time of a change (UTC)."""
    return datetime.now(UTC)


def find(code: object) -> Table | None:
    """The table with join code *code* (case, spaces and dashes ignored),
    locked or not; ``None`` if there is none, or it was left unlocked for
    longer than :data:`~.model.EXPIRES_AFTER` (it is removed then)."""
    normal = model.normalise_code(code)
    if normal is None:
        return None
    table = _read(normal)
    if table is not None and table.is_expired(now()):
        expire()
        return None
    return table


def expire() -> int:
    """Remove every table left unlocked for longer than :data:`~.model.EXPIRES_AFTER`,
    with its drafts (on access and at start-up: no scheduled job is needed).

    :returns: how many tables were removed."""
    return rows.expire_tables(now() - EXPIRES_AFTER)


def read(code: str) -> Table | None:
    """Table *code* as stored (*code* as :func:`~.model.normalise_code` gives it), locked,
    open or expired (nothing is removed here); ``None`` if there is none. One query."""
    return _read(code)


def _read(code: str) -> Table | None:
    """Table *code* (as stored: :func:`.model.normalise_code`) from its rows; ``None`` if there is none."""
    row = rows.read(code)
    return None if row is None else _table(row)


def _table(row: rows.TableRow) -> Table:
    """The model's table of the store's *row*: the same fields in the same order (the store
    names two by their columns, ``token_hash`` and ``host_token_hash``; tests/table/test_service.py
    holds the two shapes together)."""
    move = None if row.move is None else MoveRequest._make(row.move)
    seats = tuple(Seat._make(seat) for seat in row.seats)
    return Table._make((*row[:-4], move, seats, row.host_seen_at, row.group_id))


def _row(table: Table) -> rows.TableRow:
    """The store's row of the model's *table* (what :func:`.store.tables.write` compares and writes)."""
    move = None if table.move is None else rows.MoveRow._make(table.move)
    seats = tuple(rows.SeatRow._make(seat) for seat in table.seats)
    return rows.TableRow._make((*table[:-4], move, seats, table.host_seen, table.group_id))


def _change(code: str, step: Callable[[Table], Table]) -> Table:
    """Run *step* on table *code* as one change and publish the table after it: the
    table claimed and read in one go (:func:`.store.tables.claim`), *step* given it
    with its new version.

    :raises NoSuchTable: ``"table-not-found"`` (none, or left open too long: removed
        then). :raises TableConflict: ``"table-locked"``.
    :raises GameError, GameErrors: whatever *step* refuses (nothing is written then).
    """
    when = now()
    try:
        claimed = rows.claim(code, when)
        if claimed is None:
            db.session.rollback()
            raise model.TableConflict("table-locked") if _read(code) else model.NoSuchTable("table-not-found")
        before = _table(claimed)
        if before.is_expired(when):
            db.session.rollback()
            expire()
            raise model.NoSuchTable("table-not-found")
        after = step(before)
        rows.write(claimed, _row(after), when)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    events.publish(after)
    return after


def start(
    ruleset: str, played_on: date, *, checks_required: bool = True, group: Group | None = None
) -> tuple[Table, str]:
    """Start a table for a game under *ruleset* (``"pocket"``, ``"classic"``,
    R9) played on *played_on* (the host phone's local date); started from *group*'s
    page, it belongs to that group (:func:`lock` saves its game there without asking).

    :returns: the table and the host's secret (only its hash is stored).
    :raises GameErrors: ``"ruleset-unknown"`` (R9), ``"date-out-of-range"``
        (:func:`~scorekeeper.store.games.check_played_on`).
    """
    try:
        ruleset_id = get_ruleset(ruleset).id
        check_played_on(played_on)
    except GameError as error:
        raise GameErrors([error]) from None
    expire()
    secret = _new_secret()
    when = now()
    hashed = model.secret_hash(secret)
    table = _insert(
        Table(
            "",
            ruleset_id,
            played_on,
            checks_required,
            1,
            hashed,
            when,
            False,
            None,
            None,
            None,
            (),
            when,
            None if group is None else group.id,
        )
    )
    if group is not None:  # the group's "tonight" screens show it at once (a table elsewhere has no watcher yet)
        events.publish(table)
    return table, secret


def _insert(table: Table) -> Table:
    """Store *table* under a fresh code (drawn again on the rare collision) and commit."""
    when = now()
    for _ in range(20):
        fresh = table._replace(code="".join(random_secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH)))
        try:
            rows.insert_table(_row(fresh), when)
            db.session.commit()
        except IntegrityError:
            db.session.rollback()
            continue
        return fresh
    raise RuntimeError("no free table code after 20 draws")  # 31**6 codes: never in practice


def take_seat(code: str, name: object, secrets: Secrets) -> tuple[Table, Seat, str]:
    """The phone keeping *secrets* takes the next seat under *name*
    (:func:`.model.take_seat`): held by the phone's own secret if it has one
    here (the host's, adding a seat for a player without a phone), else by a new one.

    :returns: the table, the seat, and the secret the phone keeps for it.
    """
    fresh = _new_secret()
    kept: list[str] = []

    def step(table: Table) -> Table:
        phone = model.identify(table, secrets)
        kept.append(phone.secret or fresh)
        holder = model.secret_hash(kept[0])
        after, _ = model.take_seat(table, name, holder, phone)
        return model.seen_by(after, (holder,), now())

    table = _change(code, step)
    return table, table.seats[-1], kept[0]


def save_draft(code: str, number: int, secrets: Secrets, draft: Draft | Mapping[str, object]) -> Table:
    """Store seat *number*'s draft (:func:`.model.save_draft`): a :class:`~.model.Draft`, or
    the body pages and API clients send (read by :func:`.model.read_draft` in the change,
    its refusals named after the seat).

    :raises GameErrors: what R8 refuses in the body. :raises NoSuchTable, NotAllowed,
        TableConflict: as :func:`.model.save_draft` and :func:`_change` say.
    """

    def step(table: Table) -> Table:
        read = draft if isinstance(draft, Draft) else model.read_draft(draft, table.seat(number).who())
        phone = model.identify(table, secrets)
        return _seen(model.save_draft(table, number, phone, read), phone)

    return _change(code, step)


def check(code: str, number: int, secrets: Secrets, seen: Shown | object) -> Table:
    """The phone's seat checked seat *number*'s kingdom as its page showed it (:func:`.model.check`):
    *seen* a :class:`~.model.Shown`, or as the page or API client sent it (read by
    :func:`.model.read_seen`: who asks is refused before what it sent)."""

    def step(table: Table) -> Table:
        phone = model.identify(table, secrets)
        return _seen(model.check(table, number, phone, _shown(table, number, phone, seen)), phone)

    return _change(code, step)


def report_wrong(code: str, number: int, secrets: Secrets, cell: object, seen: Shown | object) -> Table:
    """The phone's seat reports a wrong card at *cell* of seat *number* (:func:`.model.report_wrong`),
    *seen* as :func:`check` takes it."""

    def step(table: Table) -> Table:
        phone = model.identify(table, secrets)
        return _seen(model.report_wrong(table, number, phone, cell, _shown(table, number, phone, seen)), phone)

    return _change(code, step)


def _seen(table: Table, phone: Phone) -> Table:
    """*table* with *phone* seen at it now (:func:`.model.seen_by`), after the change it made."""
    return model.seen_by(table, phone.hashes, now())


def here(table: Table, secrets: Secrets) -> Table:
    """The phone keeping *secrets* is at *table* now (a page of the table opened, or open
    on it: it says so every :data:`~.model.HERE_EVERY`): its time seen is written when it
    is older than :data:`~.model.SEEN_EVERY`, and a request to move that has come due
    (:func:`.model.is_move_due`: nobody left who could answer it) is carried out. A change
    (announced) only when one of them changes the table: mostly nothing is written.

    :returns: the table as it is now (*table* itself when nothing changed).
    """
    if table.locked:
        return table
    when = now()

    def step(table: Table) -> Table:
        return model.settled(model.seen_by(table, model.identify(table, secrets).hashes, when), when)

    if step(table) == table:  # the common case: seen a moment ago, no move due: nothing to write
        return table
    try:
        return _change(table.code, step)
    except (model.NoSuchTable, model.TableConflict):  # locked or gone meanwhile: nothing to be seen at
        return table


def remove_seat(code: str, number: int, secrets: Secrets) -> Table:
    """The host removes seat *number*, with nothing entered (:func:`.model.remove_seat`)."""

    def step(table: Table) -> Table:
        phone = model.identify(table, secrets)
        return _seen(model.remove_seat(table, number, phone), phone)

    return _change(code, step)


def _shown(table: Table, number: int, phone: Phone, seen: Shown | object) -> Shown:
    return seen if isinstance(seen, Shown) else model.read_seen(table, number, phone, seen)


def set_checks(code: str, secrets: Secrets, required: bool) -> Table:
    """The host switches checks by another player on or off (:func:`.model.set_checks`)."""

    def step(table: Table) -> Table:
        phone = model.identify(table, secrets)
        return _seen(model.set_checks(table, phone, required), phone)

    return _change(code, step)


def ask_to_move(code: str, seat: int | None, secrets: Secrets) -> tuple[Table, str]:
    """The phone keeping *secrets* asks to take seat *seat* (``None``: the host's
    role) from a phone that is gone (:func:`.model.ask_to_move`).

    :returns: the table and the secret the phone keeps (its own, or a new one).
    """
    fresh = _new_secret()
    kept: list[str] = []

    def step(table: Table) -> Table:
        phone = model.identify(table, secrets)
        kept.append(phone.secret or fresh)
        return model.ask_to_move(_seen(table, phone), seat, model.secret_hash(kept[0]), now())

    return _change(code, step), kept[0]


def answer_move(code: str, secrets: Secrets, allow: bool) -> Table:
    """Someone at the table allows or refuses the waiting move (:func:`.model.answer_move`)."""

    def step(table: Table) -> Table:
        phone = model.identify(table, secrets)
        return model.answer_move(_seen(table, phone), phone, allow, now())

    return _change(code, step)


def offer_group(code: str, secrets: Secrets, group: Group, offered: bool = True) -> Table:
    """The phone keeping *secrets*, seated at the open table (or its host), offers its
    *group* for the table's game (*offered* ``False``: takes its offer back), so that the
    host may lock the table into it (:func:`lock`; issue 33). The caller checks that the
    phone belongs to *group*. A change of the table: the pages that show it are told.

    :raises NotAllowed: ``"group-offer-needs-seat"``. :raises TableConflict: ``"table-locked"``.
    """

    def step(table: Table) -> Table:
        phone = model.identify(table, secrets)
        if not model.can_offer_group(table, phone):
            raise model.NotAllowed("group-offer-needs-seat")
        holder = model.secret_hash(phone.secret or "")
        if offered:
            group_offers.offer(table.code, group, holder, now())
        else:
            group_offers.withdraw(table.code, group, holder)
        return table

    return _change(code, step)


def offered_groups(table: Table) -> list[group_offers.Offer]:
    """The groups the phones at *table* offer for its game (:func:`offer_group`), each with
    the hash of the offering phone's secret, the first offered first."""
    return group_offers.offers(table.code)


class Locked(NamedTuple):
    """What locking a table gives: its saved game, the secret of the game's private
    edit link (:func:`edit_link_secret`), and the group the game is in (``None``: none)."""

    game: SavedGame
    edit_secret: str
    group: Group | None


def lock(code: str, secrets: Secrets, group: Group | NewGroup | None = None) -> Locked:
    """Make the table one saved game (revision 1, correctable later), by the
    host (:func:`.model.game_to_lock`). Locking a locked table gives its game
    again: twice, or from two processes at once, there is exactly one game.

    :param group: the group the game goes to, as the host chose it (its players
        join the group's roster): one of the host phone's, one a seated phone offered
        (:func:`offer_group`; the caller checks which), or a :class:`~.store.groups.NewGroup`
        made here, in the lock's transaction (a refused lock makes none);
        ``None``: outside every group. The first lock decides: a table locked
        before keeps its game's group, and no group is made. A table started from
        a group (``group_id``) goes to that group whatever is given, while it exists.
    :returns: the game, the secret of its private edit link (derived from the
        host's secret, so each lock by the host gives the same link), and its group.
    :raises NotAllowed: ``"host-only"``. :raises NotReady: why it cannot be locked yet.
    :raises NoSuchTable: ``"table-not-found"`` (gone, or its game deleted since).
    """
    locked: list[Locked] = []

    def step(table: Table) -> Table:
        phone = model.identify(table, secrets)
        game = model.game_to_lock(table, phone)
        edit = _edit_secret(phone, table.code) or ""
        into = db.session.get(Group, table.group_id) if table.group_id is not None else None
        if into is None:  # not started from a group (or its group deleted since): the host's choice
            into = (
                create_group(group.name, commit=False, secret=group.secret)[0] if isinstance(group, NewGroup) else group
            )
        made, _ = save_game(game, Details(table.played_on), group=into, commit=False, secret=edit)
        db.session.flush()
        rows.mark_locked(table.code, made.id, now())
        locked.append(Locked(made, edit, into))
        return table._replace(locked=True, game_id=made.public_id)

    try:
        _change(code, step)
    except model.TableConflict as error:
        if error.message_id != "table-locked":
            raise
        table = _read(code)
        phone = model.identify(table, secrets) if table else model.NOBODY
        if not phone.host:
            raise model.NotAllowed("host-only") from None
        found = rows.locked_game(code)
        if found is None:  # locked, and its game deleted since
            raise model.NoSuchTable("table-not-found") from None
        return Locked(found, _edit_secret(phone, code) or "", found.group)
    return locked[0]


def add_to_group(code: str, secrets: Secrets, group: Group) -> tuple[SavedGame, str | None]:
    """The phone keeping *secrets*, seated at the locked table (or its host), adds the
    table's game to *group*, one of its own (the caller checks that): a copy of the game
    in *group*, once (:func:`~scorekeeper.store.games.copy_into`; issue 33).

    :returns: the game in *group* and the secret of its edit link if made now.
    :raises NotAllowed: ``"group-offer-needs-seat"``. :raises TableConflict: ``"table-not-locked"``.
    :raises NoSuchTable: ``"table-not-found"`` (none, or its game deleted since).
    """
    table = _read(code)
    if table is None:
        raise model.NoSuchTable("table-not-found")
    if not table.locked:
        raise model.TableConflict("table-not-locked")
    if not model.can_add_game_group(table, model.identify(table, secrets)):
        raise model.NotAllowed("group-offer-needs-seat")
    found = rows.locked_game(code)
    if found is None:
        raise model.NoSuchTable("table-not-found")
    return copy_into(found, group)


def play_again(code: str, secrets: Secrets, played_on: date | None = None) -> Table:
    """A new table after a locked one (:func:`.model.play_again_seats`): same
    ruleset, seats, names and secrets, on *played_on* (default: the same date).
    Asked twice, or from two processes at once, it gives the same new table.

    :raises NotAllowed: ``"host-only"``. :raises TableConflict: ``"table-not-locked"``.
    :raises NoSuchTable: ``"table-not-found"``. :raises GameErrors: ``"date-out-of-range"``.
    """
    if played_on is not None:
        try:
            check_played_on(played_on)
        except GameError as error:
            raise GameErrors([error]) from None
    table = find(code)
    if table is None:
        raise model.NoSuchTable("table-not-found")
    seats = model.play_again_seats(table, model.identify(table, secrets))
    if table.next_code is None:
        following = _insert(
            table._replace(
                version=1,
                played_on=played_on or table.played_on,
                created_at=now(),
                locked=False,
                game_id=None,
                next_code=None,
                move=None,
                seats=seats,
            )
        )
        if rows.set_next_code(table.code, following.code, now()):
            db.session.commit()
            after = _read(table.code)
            if after is not None:
                events.publish(after)
        else:  # another request opened one first: drop ours
            db.session.rollback()
            rows.delete_table(following.code)
            db.session.commit()
        table = _read(table.code) or table
    following_table = _read(table.next_code) if table.next_code else None
    if following_table is None or following_table.is_expired(now()):  # it expired unused: open another
        rows.set_next_code(table.code, None, now())
        db.session.commit()
        return play_again(code, secrets, played_on)
    return following_table


def edit_link_secret(table: Table, phone: Phone) -> str | None:
    """The secret of the locked game's edit link for the host's phone, else ``None``."""
    return _edit_secret(phone, table.code) if table.locked else None


def _edit_secret(phone: Phone, code: str) -> str | None:
    return model.derived_secret(phone.host_secret, f"edit-link:{code}") if phone.host_secret else None


def new_group_secret(table: Table, phone: Phone) -> str | None:
    """The invite secret of a group made by locking *table* (the host chose a
    new group), for the host's phone, else ``None``: derived from the host's
    secret like the edit link's, so the host's phone can be given it again
    when the lock's answer (which carries it) never arrived."""
    if phone.host_secret is None:
        return None
    return model.derived_secret(phone.host_secret, f"group-invite:{table.code}")


def _new_secret() -> str:
    return random_secrets.token_urlsafe(24)

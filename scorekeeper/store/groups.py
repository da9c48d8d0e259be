"""Groups and their rosters: who sees which saved games, and which results are one person's.

A group is the people who play together. Every game saved from the web
belongs to one; a phone sees a group's games once it holds the group's
invite secret (the web layer keeps it in a signed cookie). Only the SHA-256
of the secret is stored, compared in constant time.

A group's roster has one :class:`~.models.Player` per person; each saved
result points to one. Renaming a player or merging two carries their
history and stats, because those read the roster name through the results;
each game's entry and revisions keep the names as typed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import NamedTuple

from sqlalchemy import func, select, update

from ..engine import GameError, display_name, name_key, shows_a_name
from ..lookalikes import lookalikes_among, mixes_lookalike_scripts
from .db import db, lock_group
from .games import has_hidden_controls
from .models import Group, Player, PlayerResult, SavedGame
from .standing import keep_from_now, players_merged

MAX_GROUP_NAME = 60
MAX_PLAYER_NAME = 40


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _public_id() -> str:
    while not (candidate := secrets.token_urlsafe(12))[0].isalnum():
        pass
    return candidate


def checked_group_name(raw: str | None) -> str:
    """A group name from user input: one form (:func:`display_name`), 1–60 characters.

    :raises GameError: ``"group-name-empty"``, ``"group-name-too-long"`` (``most``),
        ``"group-name-hidden-characters"``.
    """
    return _checked_name(raw or "", "group", MAX_GROUP_NAME)


def _checked_name(raw: str, kind: str, most: int) -> str:
    """*raw* in its one form (:func:`display_name`), refused as a ``kind``
    name (``"group"``, ``"roster"``): hidden characters, nothing to show, or
    more than *most* characters.

    :raises GameError: ``"<kind>-name-hidden-characters"``, ``"<kind>-name-empty"``,
        ``"<kind>-name-too-long"`` (``most``).
    """
    if has_hidden_controls(raw):
        raise GameError(f"{kind}-name-hidden-characters")
    name = display_name(raw)
    if not shows_a_name(name):
        raise GameError(f"{kind}-name-empty")
    if len(name) > most:
        raise GameError(f"{kind}-name-too-long", most=most)
    return name


class NewGroup(NamedTuple):
    """A group still to be made by the save that chose it (a lock makes it in its own
    transaction: a refused lock makes none).

    :ivar name: its name, already checked (:func:`checked_group_name`).
    :ivar secret: its invite secret (one derived from another secret, such as the
        host's: :func:`scorekeeper.table.service.new_group_secret`); ``None``: a random one.
    """

    name: str
    secret: str | None = None


def create_group(
    name: str, *, commit: bool = True, invite: bool = True, secret: str | None = None
) -> tuple[Group, str]:
    """A new group called *name* (already checked) and the secret of its invite link.

    :param invite: ``False`` issues no invite link yet (a group made by the
        command line: ``scorekeeper groups`` issues it); the secret is ``""``.
    :param secret: the invite secret to use (one derived from another secret,
        :func:`scorekeeper.table.service.new_group_secret`); by default a random one.
    :returns: the group and the secret; only its hash is stored.
    """
    secret = (secret or secrets.token_urlsafe(24)) if invite else ""
    group = Group(
        public_id=_public_id(), name=name, invite_hash=_hash(secret) if invite else "", created_at=datetime.now(UTC)
    )
    db.session.add(group)
    db.session.flush()
    keep_from_now(group)  # no games yet: its standing is kept from the first
    if commit:
        db.session.commit()
    else:
        db.session.flush()
    return group, secret


def rename_group(group: Group, new_name: str) -> Group:
    """Call *group* *new_name* (checked as :func:`checked_group_name`).

    :raises GameError: the refusals of :func:`checked_group_name`.
    """
    group.name = checked_group_name(new_name)
    db.session.commit()
    return group


def new_invite(group: Group) -> str:
    """Replace *group*'s invite secret: the old link, and every phone that joined
    with it, no longer reach the group. :returns: the new secret."""
    secret = secrets.token_urlsafe(24)
    group.invite_hash = _hash(secret)
    db.session.commit()
    return secret


def opens(group: Group, secret: str, key: str | bytes = "") -> bool:
    """Whether *secret* opens *group*: its current invite secret, or, with the
    app's *key*, a table pass for it (:func:`table_pass`); compared in constant time."""
    if not group.invite_hash or not isinstance(secret, str):
        return False
    if key and secret.startswith(TABLE_PASS) and len(secret) < 64:
        return hmac.compare_digest(secret, table_pass(group, secret[len(TABLE_PASS) :].partition(".")[0], key))
    return hmac.compare_digest(group.invite_hash, _hash(secret or ""))


TABLE_PASS = "t."


def table_pass(group: Group, code: str, key: str | bytes) -> str:
    """What opens *group* for a phone seated at the shared table *code* that was
    locked into it (``t.<code>.<HMAC>``): signed with the app's *key* over the
    group's current invite, so it is never stored, cannot be made without the
    key, and stops opening the group when its invite link is replaced, as the
    invite secret of a phone that joined by the link does."""
    raw = key.encode() if isinstance(key, str) else key
    message = f"table-pass:{group.public_id}:{group.invite_hash}:{code}".encode()
    digest = hmac.new(raw, message, hashlib.sha256).digest()[:18]
    return f"{TABLE_PASS}{code}.{base64.urlsafe_b64encode(digest).decode()}"


def find_group(public_id: str) -> Group | None:
    """The group with this public id, or ``None``."""
    if not public_id or len(public_id) > 32:
        return None
    return db.session.scalar(select(Group).where(Group.public_id == public_id))


def groups_opened_by(keys: Iterable[tuple[str, str]], key: str | bytes = "") -> list[Group]:
    """The groups whose ``(public id, invite secret or table pass)`` pairs in
    *keys* open them (:func:`opens`, with the app's *key*), in the order of *keys* (one query)."""
    keys = [(public_id, secret) for public_id, secret in keys if public_id and len(public_id) <= 32]
    if not keys:
        return []
    found = {g.public_id: g for g in db.session.scalars(select(Group).where(Group.public_id.in_([k for k, _ in keys])))}
    return [
        found[public_id] for public_id, secret in keys if public_id in found and opens(found[public_id], secret, key)
    ]


@dataclass(frozen=True)
class GroupSummary:
    """A group as the command line lists it."""

    group: Group
    games: int
    players: int


def all_groups() -> list[GroupSummary]:
    """Every group, oldest first, with its number of games and roster players."""
    games = select(func.count()).where(SavedGame.group_id == Group.id).scalar_subquery()
    players = select(func.count()).where(Player.group_id == Group.id).scalar_subquery()
    rows = db.session.execute(select(Group, games, players).order_by(Group.created_at, Group.id)).all()
    return [GroupSummary(group, game_count, player_count) for group, game_count, player_count in rows]


def roster(groups: Sequence[Group], limit: int = 100) -> list[str]:
    """The roster names of *groups* for the form's suggestions, by name, each
    name once (two groups may both have an "Ana"), at most *limit*.

    One indexed query on the roster, never on the results: the form asks on
    every load, however many games the groups have.
    """
    if not groups:
        return []
    names = db.session.scalars(
        select(Player.name)
        .where(Player.group_id.in_([g.id for g in groups]))
        .order_by(Player.name_key)
        .limit(limit * len(groups))
    ).all()
    unique: dict[str, str] = {}
    for name in names:
        unique.setdefault(name_key(name), name)
    return list(unique.values())[:limit]


@dataclass(frozen=True)
class RosterEntry:
    """A roster player with how many saved games they have in the group, flagged
    when the name is drawn like another's with letters of another script
    (:mod:`scorekeeper.lookalikes`: perhaps one person, to be merged).

    :ivar looks_like: the roster name this one looks just like ("Ada" for "Аda"), or ``None``.
    :ivar mixes_scripts: the name has a letter of another script that looks like one of its own.
    """

    player: Player
    games: int
    looks_like: str | None = None
    mixes_scripts: bool = False


def roster_entries(group: Group) -> list[RosterEntry]:
    """*group*'s roster, by name, with each player's number of games and look-alike flags."""
    games = select(func.count()).where(PlayerResult.player_id == Player.id).scalar_subquery()
    rows = db.session.execute(select(Player, games).where(Player.group_id == group.id).order_by(Player.name_key)).all()
    alike = lookalikes_among((player.name, player.name_key) for player, _ in rows)
    return [
        RosterEntry(player, count, alike.get(player.name), mixes_lookalike_scripts(player.name))
        for player, count in rows
    ]


def find_player(group: Group, player_id: int) -> Player | None:
    """*group*'s roster player with this id, or ``None`` (another group's is ``None`` too)."""
    return db.session.scalar(select(Player).where(Player.id == player_id, Player.group_id == group.id))


class NameChange(NamedTuple):
    """What a roster change did to the name of a player's history, as the change read it
    under the group's lock (:func:`rename_player`, :func:`merge_players`): the answer tells
    it from these, never from the roster rows after the commit. The change waiting for the
    lock goes on the moment it is released, and may delete the very player (a merge after
    a rename): read again then, the row is gone.

    :ivar old: the roster name before (a merge's source).
    :ivar new: the roster name now (a merge's target).
    """

    old: str
    new: str


def rename_player(player: Player, new_name: str) -> NameChange:
    """Call *player* *new_name* in history and stats from now on (their results
    follow; the games' entries keep what was typed).

    :returns: the name before (as the lock found it: another rename may have come
        first) and the name now.
    :raises GameError: ``"roster-name-empty"``, ``"roster-name-too-long"``
        (``most``), ``"roster-name-hidden-characters"``,
        ``"roster-name-taken"`` (``other``: the roster name that is the same
        name; merge the two instead), or ``"roster-rename-gone"`` (*player*
        was merged into another meanwhile).
    """
    name = _checked_name(new_name, "roster", MAX_PLAYER_NAME)
    key = name_key(name)
    lock_group(player.group_id)  # first: then the roster is read again, as the change before left it
    if db.session.get(Player, player.id, populate_existing=True) is None:
        raise GameError("roster-rename-gone")
    other = db.session.scalar(
        select(Player).where(Player.group_id == player.group_id, Player.name_key == key, Player.id != player.id)
    )
    if other is not None:
        raise GameError("roster-name-taken", other=other.name)
    change = NameChange(player.name, name)
    player.name, player.name_key = name, key
    db.session.execute(update(PlayerResult).where(PlayerResult.player_id == player.id).values(name=name, name_key=key))
    db.session.commit()
    return change


def merge_players(source: Player, target: Player) -> NameChange:
    """Make *source* one with *target* (``"Ana"`` into ``"Anna"``): every result
    of *source* becomes *target*'s, and *source* leaves the roster.

    :returns: *source*'s name and *target*'s, as the lock found them (either may
        have been renamed a moment before).
    :raises GameError: ``"roster-merge-same"`` (one player twice),
        ``"roster-merge-other-group"``, ``"roster-merge-gone"`` (one of the two
        was merged into another meanwhile), or ``"roster-merge-played-together"``
        (``together``: a game's public id in which both played: one person
        cannot have two seats).
    """
    if source.id == target.id:
        raise GameError("roster-merge-same")
    if source.group_id != target.group_id:
        raise GameError("roster-merge-other-group")
    lock_group(source.group_id)  # first: then both are read again, as the change before left them
    found = db.session.scalars(
        select(Player).where(Player.id.in_((source.id, target.id))).execution_options(populate_existing=True)
    ).all()
    if len(found) < 2:
        raise GameError("roster-merge-gone")
    source_games = select(PlayerResult.game_id).where(PlayerResult.player_id == source.id)
    together = db.session.scalar(
        select(SavedGame.public_id)
        .join(PlayerResult, PlayerResult.game_id == SavedGame.id)
        .where(PlayerResult.player_id == target.id, SavedGame.id.in_(source_games))
        .limit(1)
    )
    if together is not None:
        raise GameError("roster-merge-played-together", together=together)
    change = NameChange(source.name, target.name)
    players_merged(source.group_id, source.id, target.id)  # ratings and head to head follow the person
    db.session.execute(
        update(PlayerResult)
        .where(PlayerResult.player_id == source.id)
        .values(player_id=target.id, name=target.name, name_key=target.name_key)
    )
    db.session.delete(source)
    db.session.commit()
    return change

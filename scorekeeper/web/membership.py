"""Which groups this phone belongs to: a signed cookie of invite secrets, and what it lets the phone see.

The cookie ``groups`` holds, signed with the app's secret key (itsdangerous),
up to :data:`MAX_GROUPS` entries ``[group public id, invite secret, chosen]``,
the group used last first. ``chosen`` (1) marks a group this phone itself chose
for a game (a save, a lock, a new group); a group added by opening a link
(an invite, a table pass) is not, and goes last: the save form offers first
the group this phone chose last, and a link's group only to a phone that
never chose one (never "A new group" to a phone in a group: a tap without
reading would start another); entries of two items, from before the mark,
count as not chosen. An
entry counts while its secret is the group's current one
(``store.groups.opens``), so a replaced invite link locks out the phones that
joined with the old one. The cookie is ``HttpOnly`` and ``SameSite=Lax``,
``Secure`` when the app is served over HTTPS, and kept for 400 days (the most
browsers allow).

``OPEN_HISTORY`` (``SCOREKEEPER_OPEN_HISTORY=true``) makes history, stats and
exports show every game to everyone, as before groups: a private family server.

Pages rendered once and kept for everyone (the empty form, a sheet link's
page) get this phone's parts, :func:`group_choice` and :func:`roster_suggestions`,
from ``web.phone_parts``, as each response leaves.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from flask import Response, after_this_request, current_app, g, render_template, request
from flask_babel import get_locale, gettext
from itsdangerous import BadSignature, URLSafeSerializer

from ..engine import GameError, display_name
from ..store import groups as store_groups
from ..store.groups import NewGroup
from ..store.models import Group

COOKIE = "groups"
MAX_GROUPS = 20
COOKIE_MAX_AGE = 400 * 24 * 3600


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key or "", salt="scorekeeper-groups")


class GroupKey(NamedTuple):
    """One group of the cookie: its public id, its invite secret (or a table pass),
    and whether this phone chose it for a game itself."""

    public_id: str
    secret: str
    chosen: bool


def _cookie_keys() -> list[GroupKey]:
    """The groups of the cookie; none if missing, damaged or forged."""
    if "group_keys" not in g:
        keys: list[GroupKey] = []
        raw = request.cookies.get(COOKIE, "")
        if raw and len(raw) < 4096:
            try:
                loaded = _serializer().loads(raw)
            except BadSignature:
                loaded = []
            if isinstance(loaded, list):
                keys = [
                    GroupKey(entry[0], entry[1], entry[2:] == [1])
                    for entry in loaded[:MAX_GROUPS]
                    if isinstance(entry, list)
                    and len(entry) in (2, 3)
                    and isinstance(entry[0], str)
                    and isinstance(entry[1], str)
                ]
        g.group_keys = keys
    return g.group_keys


@dataclass(frozen=True)
class GroupChoice:
    """A group as the save form offers it: read once, so that the form can be
    shown again after a failed save without reaching for the database.
    *offered_by*: the seat names of the phone that offered it at a shared table
    (the host's lock, :func:`offer_groups`); ``""``: one of this phone's groups."""

    public_id: str
    name: str
    offered_by: str = ""


def phone_groups() -> list[Group]:
    """The groups this phone belongs to, the one used last first."""
    if "phone_groups" not in g:
        pairs = [(key.public_id, key.secret) for key in _cookie_keys()]
        _set_phone_groups(store_groups.groups_opened_by(pairs, current_app.secret_key or ""))
    return g.phone_groups


def _set_phone_groups(groups: list[Group]) -> None:
    g.phone_groups = groups
    g.group_choices = [GroupChoice(group.public_id, group.name) for group in groups]


def is_open_history() -> bool:
    """Whether history, stats and exports show every game (``OPEN_HISTORY``)."""
    value = current_app.config.get("OPEN_HISTORY", False)
    if isinstance(value, str):
        return value.strip().lower() in {"1", "true", "yes", "on"}
    return bool(value)


def visible_group_ids() -> list[int] | None:
    """The groups whose games this phone sees in history, stats and exports;
    ``None`` for every game (an open history)."""
    if is_open_history():
        return None
    return [group.id for group in phone_groups()]


def sees_group(group_id: int | None) -> bool:
    """Whether this phone sees the history and stats of the group with this id."""
    ids = visible_group_ids()
    return ids is None or group_id in ids


def invite_secret(group: Group) -> str | None:
    """This phone's secret of *group*'s invite link (``None`` if not a member)."""
    return next((key.secret for key in _cookie_keys() if key.public_id == group.public_id), None)


def chosen_group() -> Group | None:
    """The group the save form offers first: the one this phone chose for a
    game last (a save, a lock, a new group), else the one it joined last (a
    table's "Add it to my History", an invite link); ``None`` ("A new group")
    only for a phone in no group, so that a tap without reading never starts
    another group."""
    groups = phone_groups()
    chosen = {key.public_id for key in _cookie_keys() if key.chosen}
    return next((group for group in groups if group.public_id in chosen), groups[-1] if groups else None)


def join(group: Group, secret: str, *, chosen: bool = True) -> None:
    """Add *group* (with its invite *secret*) to this phone; the cookie is
    written on the response.

    :param chosen: this phone chose the group for a game (a save in it): it
        goes first, and the save form offers it next time. A link (an invite,
        a table pass) adds a new group last and unchosen instead: a link
        someone else made this phone open must not choose where its next game
        goes. A group already chosen stays chosen.
    """
    keys = _cookie_keys()
    before = next((key for key in keys if key.public_id == group.public_id), None)
    others = [key for key in keys if key.public_id != group.public_id]
    if chosen:
        keys = [GroupKey(group.public_id, secret, True), *others][:MAX_GROUPS]
    else:
        was_chosen = before is not None and before.chosen
        keys = [*others[: MAX_GROUPS - 1], GroupKey(group.public_id, secret, was_chosen)]
    _store_keys(keys)
    _known_groups(group, keys)


def _known_groups(joined: Group | None, keys: list[GroupKey]) -> None:
    """This phone's groups in the order of *keys*, from those already read
    (no query: the page after a failed save must not reach for the database)."""
    known = {grp.public_id: grp for grp in g.get("phone_groups", [])}
    if joined is not None:
        known[joined.public_id] = joined
    _set_phone_groups([known[key.public_id] for key in keys if key.public_id in known])


def leave(group: Group) -> None:
    """Take *group* off this phone (its games leave this phone's history)."""
    keys = [key for key in _cookie_keys() if key.public_id != group.public_id]
    _store_keys(keys)
    _known_groups(None, keys)


def _store_keys(keys: list[GroupKey]) -> None:
    first = "group_keys_changed" not in g
    g.group_keys = keys
    g.group_keys_changed = True
    if not first:
        return

    @after_this_request
    def write_cookie(response: Response) -> Response:
        response.set_cookie(
            COOKIE,
            _serializer().dumps([[key.public_id, key.secret, *([1] if key.chosen else [])] for key in g.group_keys]),
            max_age=COOKIE_MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=bool(current_app.config.get("HTTPS")),
        )
        return response


def offer_groups(offers: Sequence[tuple[Group, str]]) -> None:
    """Have this request's group choice (the host's lock of a shared table) offer the
    groups that seated phones offered for the table's game, each ``(group, who
    offered it)``, after this phone's own (issue 33). Only the host's page is given them."""
    own = {group.public_id for group in phone_groups()}
    g.offered_choices = [
        GroupChoice(group.public_id, group.name, who) for group, who in offers if group.public_id not in own
    ]


def group_choice(error: str | None = None) -> str:
    """The save form's part that chooses the group: this phone's groups (and, at a
    table's lock, those offered: :func:`offer_groups`), or a new one (named); the
    first offered is :func:`chosen_group`, else the first offered at the table."""
    phone_groups()
    offered: list[GroupChoice] = g.get("offered_choices", [])
    groups: list[GroupChoice] = [*g.group_choices, *offered]
    if not groups and request.method != "POST" and error is None and g.get("group_error") is None:
        return _first_group_choice(str(get_locale() or "en"))
    chosen = request.form.get("group") if request.method == "POST" else None
    if chosen is None or (chosen != "new" and chosen not in {grp.public_id for grp in groups}):
        own = chosen_group()
        chosen = own.public_id if own is not None else offered[0].public_id if offered else "new"
    return render_template(
        "groups/_group_choice.html",
        groups=groups,
        chosen=chosen,
        group_name=request.form.get("group_name", "") if request.method == "POST" else "",
        group_error=error if error is not None else g.get("group_error"),
    )


@functools.lru_cache(maxsize=8)
def _first_group_choice(language: str) -> str:
    """The group choice of a phone in no group yet (most phones at a new
    table), the same for all of them: written once per language (the
    request's, whose words it reads)."""
    return render_template("groups/_group_choice.html", groups=[], chosen="new", group_name="", group_error=None)


def roster_suggestions() -> str:
    """A ``<datalist id="roster">`` of this phone's groups' players, for the name fields."""
    names = store_groups.roster(phone_groups())
    return render_template("groups/_roster.html", names=names) if names else ""


def chosen_for_save(new_secret: str | None = None, offered: Sequence[Group] = ()) -> Group | NewGroup:
    """The group a game being saved goes to, as the save form chose it, nothing made
    or joined yet: one of this phone's groups (``group``: its public id), one of the
    groups *offered* at a shared table (the host's lock), or a new one (``"new"``,
    named ``group_name``, empty: "Our games") with *new_secret* as its invite secret
    if given (else a random one); without a choice, the group this phone chose last
    (:func:`chosen_group`), else the first offered, else a new one.

    :raises GameError: ``"group-unknown"`` (a group this phone is not in, nor offered), or
        the group name's refusals (``store.groups.checked_group_name``).
    """
    chosen = request.form.get("group")
    if chosen is None:
        default = chosen_group() or next(iter(offered), None)
        chosen = default.public_id if default is not None else "new"
    if chosen != "new":
        group = next((grp for grp in [*phone_groups(), *offered] if grp.public_id == chosen), None)
        if group is None:
            raise GameError("group-unknown")
        return group
    typed = request.form.get("group_name", "")
    name = store_groups.checked_group_name(typed) if display_name(typed) else gettext("Our games")
    return NewGroup(name, new_secret)


def group_for_save(new_secret: str | None = None) -> Group:
    """The group a game being saved goes to (:func:`chosen_for_save`), made now if
    new (in the session, for the save's commit) and added to this phone: used
    last, it is offered first next time.

    :raises GameError: as :func:`chosen_for_save`.
    """
    choice = chosen_for_save(new_secret)
    if isinstance(choice, NewGroup):
        group, secret = store_groups.create_group(choice.name, commit=False, secret=choice.secret)
    else:
        group, secret = choice, _own_secret(choice)
    join(group, secret)
    return group


def joined_after_save(choice: Group | NewGroup, saved_in: Group | None) -> None:
    """This phone after a save (a lock) of its *choice* went to the group *saved_in*:
    a group of its own is used last (offered first next time); a new group is
    added to it when the new group's secret opens *saved_in*: the group made, or
    the one an earlier lock of the same table by the same host made (a table
    locked before keeps its game's group, and none is made). A group another
    phone offered at the table is not added: the host's phone may be a borrowed one
    (the locked page offers it "Add it to my History")."""
    if not isinstance(choice, NewGroup):
        if invite_secret(choice) is not None:
            join(choice, _own_secret(choice))
    elif saved_in is not None and choice.secret and store_groups.opens(saved_in, choice.secret):
        join(saved_in, choice.secret)


def _own_secret(group: Group) -> str:
    """The secret this phone keeps for *group*, one of its groups (:func:`phone_groups`)."""
    secret = invite_secret(group)
    assert secret is not None  # a phone group is one whose secret the cookie holds
    return secret

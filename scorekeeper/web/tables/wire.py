"""The shared table's JSON, defined once: the draft a page or an API client sends
in, and the table and the seat that the API answers and every announcement
carries out (the push), as typed dicts whose JSON Schemas pydantic writes into
the API's contract (:func:`schemas`, read by :mod:`scorekeeper.web.api.openapi`).

A kingdom is 16 cells row by row in both directions (``row * 4 + column``, a
card id or ``null``); a draft may still send 4 rows of 4, as the API always took.

Each member of :class:`PushSeat` and :class:`Push` is read from the model by its
own name (a :class:`~scorekeeper.table.model.Seat`'s ``done``, ``cards_entered``,
``state``; a :class:`~scorekeeper.table.model.Table`'s ``version``), unless it
says where else with :class:`Read` (``seat`` is the seat's ``number``). A member
added to the model and here is therefore in the answers, in the push and in the
contract, with nothing else edited (``tests/web/test_wire.py``).

The answers are plain dicts built member by member, as quickly as writing them
out (``bench/wire.py``); nothing validates them on their way out (a push is built
on every card) but the tests, against the schemas generated here. A draft is read
by the model (:func:`~scorekeeper.table.model.read_draft`), whose refusals are R8's
message ids in the page's language; :class:`Draft` is its shape in the contract,
and the tests hold the two to the same drafts.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, Literal, NotRequired, cast, get_origin, get_type_hints

from pydantic import ConfigDict, Field, TypeAdapter, WithJsonSchema, with_config
from pydantic.json_schema import GenerateJsonSchema, JsonRef, JsonSchemaValue
from typing_extensions import TypeAliasType, TypedDict

from ...engine import MAX_PLAYERS
from ...table import model
from ...table.model import CELLS, LEGENDS_MAX, SeatState

#: Where the contract's named schemas are, and where :func:`schemas` points its references.
REF = "#/components/schemas/{model}"


def _named(name: str) -> WithJsonSchema:
    """A schema the contract names and writes from the engine's words (``Card``, ``LegendId``, …)."""
    return WithJsonSchema({"$ref": REF.format(model=name)})


@dataclass(frozen=True)
class Read:
    """Where a member's value comes from, when not from the model's attribute of its
    name: another attribute (``Read("number")``), or ``read(value, table)``, *value* the
    seat (or the table) being written. Metadata of the member's ``Annotated`` type, which
    pydantic leaves alone."""

    read: str | Callable[[Any, model.Table], object]


CardId = Annotated[str, _named("Card")]
LegendId = Annotated[str, _named("LegendId")]
Code = Annotated[str, _named("Code")]
SeatNumber = Annotated[int, Field(ge=1, le=MAX_PLAYERS)]
CellIndex = Annotated[int, Field(ge=0, le=CELLS - 1)]
DateTime = Annotated[str, Field(json_schema_extra={"format": "date-time"})]
Url = Annotated[str, Field(json_schema_extra={"format": "uri"})]
Version = Annotated[int, Field(ge=1, description="The table's version: raised by every change.")]
PhoneTag = Annotated[
    str,
    Field(
        pattern="^[0-9a-f]{12}$",
        description="A phone's tag at this table (no secret: it names the phone on the table's pages, "
        "which know their own tags).",
    ),
]

KingdomSoFar = TypeAliasType(
    "KingdomSoFar",
    Annotated[
        list[CardId | None],
        Field(
            min_length=CELLS,
            max_length=CELLS,
            description="A kingdom being entered: 16 cells row by row (row * 4 + column), "
            "each a card id or null (not entered yet).",
        ),
    ],
)
DraftCell = TypeAliasType("DraftCell", CardId | Literal[""] | None)
DraftRow = Annotated[list[DraftCell], Field(min_length=4, max_length=4)]
DraftCells = TypeAliasType(
    "DraftCells",
    Annotated[
        Annotated[list[DraftCell], Field(min_length=CELLS, max_length=CELLS)]
        | Annotated[list[DraftRow], Field(min_length=4, max_length=4)],
        Field(
            description="A kingdom being entered: 16 cells row by row, or 4 rows of 4 (as the API always "
            'took); each a card id, or null or "" for a cell not entered yet.'
        ),
    ],
)
DraftLegends = TypeAliasType(
    "DraftLegends",
    Annotated[
        list[LegendId],
        Field(
            max_length=LEGENDS_MAX,
            json_schema_extra={"uniqueItems": True},
            description="Claimed Legend ids, each once.",
        ),
    ],
)


# -- in: a draft


@with_config(ConfigDict(extra="allow"))
class Shown(TypedDict):
    """A kingdom as a page showed it (what was looked at): what a draft's page started
    from (``base``), what a check page showed (``seen``)."""

    kingdom: DraftCells
    legends: NotRequired[DraftLegends]


@with_config(ConfigDict(extra="allow"))
class Draft(TypedDict, total=False):
    """A page's change to one seat (``PUT /api/tables/<code>/seats/<n>``; the seat pages send
    exactly this): what is left out, or null, stays. With ``base`` only what differs from it
    is written; ``done`` needs all 16 cards."""

    kingdom: DraftCells | None
    legends: DraftLegends | None
    done: bool | None
    base: Shown | None


# -- out: a seat, a table, the push


def _iso(when: datetime | None) -> str | None:
    return None if when is None else when.isoformat(timespec="seconds")


def _now() -> datetime:
    """The time a push or an answer is built at (what the table waits for, a move's expiry)."""
    return datetime.now(UTC)


@with_config(ConfigDict(extra="forbid"))
class LegendClash(TypedDict):
    """A Legend another seat claims too (R6.1), with those seats."""

    legend: LegendId
    seats: list[SeatNumber]


def _clashes(seat: model.Seat, table: model.Table) -> list[LegendClash]:
    return [{"legend": legend, "seats": list(seats)} for legend, seats in table.legend_clashes(seat).items()]


@with_config(ConfigDict(extra="forbid"))
class PushSeat(TypedDict):
    """A seat and its kingdom so far, as every phone is told of it (the push's seats)."""

    seat: Annotated[SeatNumber, Read("number")]
    name: str
    cards_entered: Annotated[int, Field(ge=0, le=CELLS)]
    done: bool
    state: Annotated[
        SeatState,
        Field(
            description="What the seat's phones show: wrong (a card reported wrong), checked (by another "
            "seat), done (not checked yet), entering."
        ),
    ]
    checked_by: SeatNumber | None
    wrong_cell: CellIndex | None
    wrong_by: SeatNumber | None
    kingdom: Annotated[KingdomSoFar, Read(lambda seat, table: list(seat.cells))]
    legends: Annotated[list[LegendId], Read(lambda seat, table: list(seat.legends))]
    legend_clashes: Annotated[list[LegendClash], Read(_clashes)]
    holder: Annotated[
        PhoneTag,
        Read(lambda seat, table: model.phone_tag(table.code, seat.holder)),
        Field(description="The tag of the phone holding the seat."),
    ]
    checkers: Annotated[
        list[PhoneTag],
        Read(lambda seat, table: [model.phone_tag(table.code, holder) for holder in model.checkers(table, seat)]),
        Field(description="The tags of the phones that may check this kingdom now."),
    ]
    seen_at: Annotated[
        DateTime | None,
        Read(lambda seat, table: _iso(model.last_seen(table, seat.holder))),
        Field(description="When the phone holding the seat was last seen at the table (null: never)."),
    ]
    removable: Annotated[
        bool,
        Read(lambda seat, table: model.is_removable(table, seat)),
        Field(description="The host may remove it now: nothing is entered, and it is not the host's own seat."),
    ]


class Seat(PushSeat):
    """A seat and its kingdom so far, with its points so far by the engine (R3–R6; a blank
    cell scores nothing and connects nothing): the API's seats."""

    rows: Annotated[dict[str, int] | None, _named("Rows")]
    total: int | None
    points: Annotated[list[int | None] | None, _named("CellPoints")]


class SeatAnswer(Seat):
    """A seat after a change, with the table's version."""

    version: Version


@with_config(ConfigDict(extra="forbid"))
class Waiting(TypedDict):
    """One thing the table waits for before it is locked (:class:`~scorekeeper.table.model.Waiting`)."""

    what: Literal["players", "entering", "done", "fixing", "legend", "checking", "move", "lock"]
    seat: SeatNumber | None


@with_config(ConfigDict(extra="forbid"))
class Move(TypedDict):
    """A request to move a seat (``null``: the host's role) to the phone asking, waiting to be allowed."""

    seat: SeatNumber | None
    asker: PhoneTag
    by: Annotated[list[SeatNumber], Field(description="The seats the asking phone holds already.")]
    host: Annotated[bool, Field(description="Whether the asking phone is the host's.")]
    answerers: Annotated[
        list[PhoneTag],
        Field(
            description="The tags of the phones that may answer it now: the phone holding what is asked for "
            "while it is there, else every other phone at the table that is there."
        ),
    ]


@with_config(ConfigDict(extra="forbid"))
class _TableFields(TypedDict):
    """The members a table's push and the API's table share (read from the model)."""

    code: Code
    version: Version
    look: Annotated[
        str,
        Read(lambda table, _: model.look(table, _now())),
        Field(description="A digest of all a page shows but the card counts."),
    ]
    ruleset: Annotated[str, _named("Ruleset")]
    played_on: Annotated[
        str, Read(lambda table, _: table.played_on.isoformat()), Field(json_schema_extra={"format": "date"})
    ]
    checks_required: bool
    locked: bool
    next_code: Annotated[Code | None, Field(description='The table of "Play again".')]
    expires_at: Annotated[
        DateTime | None,
        Read(lambda table, _: None if table.locked else table.expires_at.isoformat(timespec="seconds")),
        Field(description="null once locked"),
    ]
    host: Annotated[
        PhoneTag,
        Read(lambda table, _: model.phone_tag(table.code, table.host)),
        Field(description="The tag of the host's phone."),
    ]
    waiting: Annotated[
        list[Waiting],
        Read(lambda table, _: [{"what": w.what, "seat": w.seat} for w in model.waiting_for(table, _now())]),
        Field(description="What the table waits for, in the order it is needed (nothing once locked)."),
    ]
    move: Annotated[Move | None, Read(lambda table, _: model.move_dict(table, _now()))]


class Push(_TableFields):
    """A shared table as every phone is told of it after each change (the stream's ``table``
    event), with its seats (no points: a push is built on every card)."""

    seats: Annotated[
        list[PushSeat],
        Read(lambda table, _: [build(PushSeat, seat, table) for seat in table.seats]),
        Field(max_length=MAX_PLAYERS),
    ]
    notes: NotRequired[
        Annotated[
            dict[str, list[str]],
            Field(
                description="The notes every phone reads alike (a Legend two seats claim, R6.1; more copies of "
                "a card than the deck holds once every seat is done, R1), by language: only when there are any."
            ),
        ]
    ]


@with_config(ConfigDict(extra="forbid"))
class You(TypedDict):
    """Who the Bearer token sent makes the request."""

    host: bool
    seats: list[SeatNumber]


class Table(_TableFields):
    """A shared table as every phone shows it: the push's members, each seat with its points
    so far, and what the secret sent holds."""

    url: Annotated[Url, Field(description="The join link /t/<code>.")]
    seats: Annotated[list[Seat], Field(max_length=MAX_PLAYERS)]
    you: You
    game_url: NotRequired[Annotated[Url, Field(description="The saved game, once locked.")]]
    edit_url: NotRequired[Annotated[Url, Field(description="The saved game's private link: the host's, once locked.")]]
    next_url: NotRequired[Annotated[Url, Field(description='The join link of "Play again".')]]


# -- building them


Reader = Callable[[Any, model.Table], object]


@functools.cache
def readers(shape: type) -> tuple[tuple[str, Callable[[Any], object], Reader | None], ...]:
    """Each member of *shape* (a typed dict of the model's values) with where its value comes
    from: the model's attribute of its name or of its :class:`Read` (``operator.attrgetter``,
    read in C: a push is built on every card), or its :class:`Read`'s function."""
    members: list[tuple[str, Callable[[Any], object], Reader | None]] = []
    for name, hint in get_type_hints(shape, include_extras=True).items():
        if get_origin(hint) is NotRequired:  # written by whoever builds the shape, when it has a value
            continue
        read = next((m.read for m in getattr(hint, "__metadata__", ()) if isinstance(m, Read)), name)
        if isinstance(read, str):
            members.append((name, operator.attrgetter(read), None))
        else:
            members.append((name, operator.attrgetter(name), read))  # the attribute is not read
    return tuple(members)


def build(shape: type, value: object, table: model.Table) -> dict[str, Any]:
    """*value* (a seat or a table of the model) as the typed dict *shape*, member by member."""
    return {name: read(value, table) if read else attribute(value) for name, attribute, read in readers(shape)}


def push_seat(table: model.Table, seat: model.Seat, shape: type = PushSeat) -> PushSeat:
    """*seat* of *table* as every phone is told of it (:class:`PushSeat`)."""
    return cast(PushSeat, build(shape, seat, table))


def push(table: model.Table) -> Push:
    """*table* as its announcement carries it (:class:`Push`): what the API's table holds but
    the points, the join link and who asks."""
    return cast(Push, build(Push, table, table))


# -- their schemas, for the contract


class _Untitled(GenerateJsonSchema):
    """pydantic's JSON Schema without a title on every member (the contract names its schemas)."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def handle_ref_overrides(self, json_schema: JsonSchemaValue) -> JsonSchemaValue:
        """A reference to a schema the contract writes itself (``Card``) is left as it is."""
        if JsonRef(json_schema.get("$ref", "")) not in self.json_to_defs_refs:
            return json_schema
        return super().handle_ref_overrides(json_schema)


#: The shapes the contract names, by name (what ``#/components/schemas/<name>`` holds).
NAMED: tuple[type, ...] = (Draft, Shown, PushSeat, Seat, SeatAnswer, Push, Table)


def schemas(shapes: tuple[type, ...] = NAMED) -> dict[str, Any]:
    """The JSON Schemas of *shapes* and of the named types in them (``KingdomSoFar``,
    ``DraftCells``, ``LegendClash``, …), by name, as OpenAPI 3.1's components take them
    (references to ``#/components/schemas/…``; serialisation's view of an answer)."""
    _, found = TypeAdapter.json_schemas(
        [(shape.__name__, "serialization", TypeAdapter(shape)) for shape in shapes],
        ref_template=REF,
        schema_generator=_Untitled,
    )
    defs: dict[str, Any] = found.get("$defs", {})
    for schema in defs.values():
        schema.pop("title", None)
        if "description" in schema:  # a docstring as one line of Markdown
            schema["description"] = " ".join(schema["description"].replace("``", "`").split())
    return defs

"""The JSON API's contract: an OpenAPI 3.1 document of ``/api/score``,
``/api/preview`` and the tables API (``/api/tables/…``), served at
``GET /api/openapi.json`` and shown as a page at ``GET /api/docs``.

The document is written here by hand, its lists of words taken from the
engine and the table's model (card ids, Legend ids, rulesets, rows, the join
code's alphabet), so that a card or Legend added there is in the contract too.
It is kept true by the tests: every answer the API tests get is checked
against it, and Schemathesis sends requests built from it to a served app
(``tests/web/test_openapi.py``). A schema states only what the code refuses
exactly (types, required members, ids, the kingdom's shape); what a JSON
Schema cannot say (R8's names, a Legend claimed twice) is in the descriptions.

Every refusal has one shape, :data:`REFUSAL` (``web.refusals``):
``{"errors": [sentence, …], "problems": [{"id", "seat", "cell"}, …]}``.
"""

from __future__ import annotations

import copy
import functools
import json
from typing import Any, NamedTuple

from ...engine import LEGENDS_BY_ID, MAX_PLAYERS, MIN_PLAYERS, RULESETS, Card, Row
from ...table.model import CELLS, CODE_ALPHABET, CODE_LENGTH, LEGENDS_MAX

Schema = dict[str, Any]

#: The contract's own version: raised when an answer changes shape.
API_VERSION = "1.0"
REFUSAL = "Refusal"


def _ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: Schema, description: str, headers: dict[str, Any] | None = None) -> dict[str, Any]:
    answer: dict[str, Any] = {"description": description, "content": {"application/json": {"schema": schema}}}
    if headers:
        answer["headers"] = headers
    return answer


def _object(properties: dict[str, Schema], required: list[str] | None = None, closed: bool = True) -> Schema:
    """An object with *properties*, the *required* ones always there; *closed*: no other member."""
    schema: Schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    if closed:
        schema["additionalProperties"] = False
    return schema


def _nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


_INTEGER = {"type": "integer"}
_STRING = {"type": "string"}
_BOOLEAN = {"type": "boolean"}
_SENTENCES = {"type": "array", "items": _STRING}
_SEAT_NUMBER = {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS}
_CELL_INDEX = {"type": "integer", "minimum": 0, "maximum": CELLS - 1}
_URL = {"type": "string", "format": "uri"}
_VERSION = {"type": "integer", "minimum": 1, "description": "The table's version: raised by every change."}

_SEAT_PROPERTIES: dict[str, Schema] = {
    "seat": _SEAT_NUMBER,
    "name": _STRING,
    "cards_entered": {"type": "integer", "minimum": 0, "maximum": CELLS},
    "done": _BOOLEAN,
    "state": {
        "description": "Where the seat stands: a card reported wrong, checked, done (not checked), entering.",
        "enum": ["wrong", "checked", "done", "entering"],
    },
    "checked_by": _nullable(_SEAT_NUMBER),
    "wrong_cell": _nullable(_CELL_INDEX),
    "wrong_by": _nullable(_SEAT_NUMBER),
    "kingdom": _ref("KingdomSoFar"),
    "legends": {"type": "array", "items": _ref("LegendId")},
    "legend_clashes": {
        "type": "array",
        "description": "Legends another seat claims too (R6.1), with those seats.",
        "items": _object(
            {"legend": _ref("LegendId"), "seats": {"type": "array", "items": _SEAT_NUMBER}}, ["legend", "seats"]
        ),
    },
    "holder": {**_ref("PhoneTag"), "description": "The tag of the phone holding the seat."},
    "checkers": {
        "type": "array",
        "description": "The tags of the phones at the table that may check this kingdom now.",
        "items": _ref("PhoneTag"),
    },
    "rows": _nullable(_ref("Rows")),
    "total": _nullable(_INTEGER),
    "points": _nullable(_ref("CellPoints")),
}

_SCHEMAS: dict[str, Schema] = {
    "Card": {
        "description": "A card id (R1). Game files and the tables API take these ids only.",
        "enum": [card.value for card in Card],
    },
    "LegendId": {"description": "A Legend's id (R6).", "enum": list(LEGENDS_BY_ID)},
    "Ruleset": {"description": "A ruleset's id (R9).", "enum": list(RULESETS)},
    "Rows": {
        "description": "Harmony Points of each row of the score sheet (R3–R6).",
        **_object({row.value: _INTEGER for row in Row}, [row.value for row in Row]),
    },
    "Kingdom": {
        "description": "4 rows of 4 card ids, row by row (R8).",
        "type": "array",
        "minItems": 4,
        "maxItems": 4,
        "items": {"type": "array", "minItems": 4, "maxItems": 4, "items": _ref("Card")},
    },
    "KingdomSoFar": {
        "description": "A kingdom being entered: 4 rows of 4 cells, each a card id or null (not entered yet).",
        "type": "array",
        "minItems": 4,
        "maxItems": 4,
        "items": {"type": "array", "minItems": 4, "maxItems": 4, "items": _nullable(_ref("Card"))},
    },
    "DraftCells": {
        "description": "A kingdom being entered: 16 cells row by row, or 4 rows of 4; each a card id, "
        'or null or "" for a cell not entered yet.',
        "anyOf": [
            {"type": "array", "minItems": CELLS, "maxItems": CELLS, "items": _ref("DraftCell")},
            {
                "type": "array",
                "minItems": 4,
                "maxItems": 4,
                "items": {"type": "array", "minItems": 4, "maxItems": 4, "items": _ref("DraftCell")},
            },
        ],
    },
    "DraftCell": {"anyOf": [_ref("Card"), {"enum": ["", None]}]},
    "DraftLegends": {
        "description": "Claimed Legend ids, each once.",
        "type": "array",
        "uniqueItems": True,
        "maxItems": LEGENDS_MAX,
        "items": _ref("LegendId"),
    },
    "Shown": {
        "description": "A kingdom as a page showed it (what was looked at).",
        **_object(
            {"kingdom": _ref("DraftCells"), "legends": _ref("DraftLegends")},
            ["kingdom"],
            closed=False,
        ),
    },
    "Problem": {
        "description": "One problem of a refusal, for programs: the message id (a status's name such as "
        "`bad-request` for a request the app cannot read), the 1-based seat and the cell 0..15 "
        "(row by row) it concerns, each null where none applies.",
        **_object(
            {
                "id": {"type": "string", "pattern": "^[a-z0-9-]+$"},
                "seat": _nullable({"type": "integer", "minimum": 1}),
                "cell": _nullable(_CELL_INDEX),
            },
            ["id", "seat", "cell"],
        ),
    },
    REFUSAL: {
        "description": "Every refusal of the JSON API (web/refusals.py): sentences for people, in the "
        "request's language (Accept-Language, the lang cookie; English on /api/score), and, one for "
        "each, its problem for programs.",
        **_object(
            {"errors": {**_SENTENCES, "minItems": 1}, "problems": {"type": "array", "items": _ref("Problem")}},
            ["errors", "problems"],
        ),
    },
    "Game": {
        "description": "A game file object (the command line's input): 2 to 4 players, each with a name "
        "(R8: not empty, at most 40 characters once trimmed, no two alike in any case), a kingdom and "
        "the Legends claimed (a Legend belongs to one player, R6.1). Other members are ignored.",
        **_object(
            {
                "ruleset": {"anyOf": [_ref("Ruleset"), {"type": "null"}], "description": "null or absent: pocket"},
                "players": {
                    "type": "array",
                    "minItems": MIN_PLAYERS,
                    "maxItems": MAX_PLAYERS,
                    "items": _object(
                        {
                            "name": _STRING,
                            "kingdom": _ref("Kingdom"),
                            "legends": _nullable({"type": "array", "uniqueItems": True, "items": _ref("LegendId")}),
                        },
                        ["name", "kingdom"],
                        closed=False,
                    ),
                },
            },
            ["players"],
            closed=False,
        ),
    },
    "ScoreSheet": {
        "description": "The score sheet, as `scorekeeper score --format json` writes it, in English.",
        **_object(
            {
                "ruleset": _ref("Ruleset"),
                "players": {
                    "type": "array",
                    "description": "In the order of the game file.",
                    "items": _object(
                        {
                            "name": _STRING,
                            "categories": _ref("Rows"),
                            "total": _INTEGER,
                            "place": {"type": "integer", "minimum": 1},
                            "explanations": {
                                "type": "object",
                                "description": "Row → how its points came about, one sentence a scoring card.",
                                "propertyNames": {"enum": [row.value for row in Row]},
                                "additionalProperties": _SENTENCES,
                            },
                        },
                        ["name", "categories", "total", "place", "explanations"],
                    ),
                },
                "winners": {**_SENTENCES, "description": "The names in first place."},
                "tiebreaks": {**_SENTENCES, "description": "Tiebreak notes (R7.5), then shared places."},
                "warnings": {**_SENTENCES, "description": "Deck warnings (R1)."},
            },
            ["ruleset", "players", "winners", "tiebreaks", "warnings"],
        ),
    },
    "PreviewRequest": {
        "description": "One kingdom as entered so far: `cells` (16 cards row by row, each an id, a name or a "
        'code in English or German, or null or "" for not entered yet) or, without `cells`, `text` (four '
        "lines of four, as in the form's text box). Legends are not checked against other players.",
        "type": "object",
        "properties": {
            "ruleset": {"anyOf": [_ref("Ruleset"), {"enum": [None, ""]}], "description": 'null, "" or absent: pocket'},
            "cells": {"type": "array", "minItems": CELLS, "maxItems": CELLS, "items": {"type": ["string", "null"]}},
            "legends": _nullable({"type": "array", "items": _ref("LegendId")}),
        },
        "anyOf": [{"required": ["cells"]}, {"required": ["text"], "properties": {"text": _STRING}}],
    },
    "Preview": {
        "description": "The running rows of one kingdom, scored by the engine: a blank cell is no card "
        "(it scores and connects nothing).",
        **_object(
            {
                "cells": {
                    "type": "array",
                    "minItems": CELLS,
                    "maxItems": CELLS,
                    "items": {"anyOf": [_ref("Card"), {"const": ""}]},
                    "description": 'The card ids read, "" for a blank.',
                },
                "rows": _ref("Rows"),
                "total": _INTEGER,
                "points": _ref("CellPoints"),
                "complete": {**_BOOLEAN, "description": "All 16 cells are entered."},
            },
            ["cells", "rows", "total", "points", "complete"],
        ),
    },
    "CellPoints": {
        "description": "What each of the 16 cards scored, row by row (null: a blank, a land or a portal).",
        "type": "array",
        "minItems": CELLS,
        "maxItems": CELLS,
        "items": _nullable(_INTEGER),
    },
    "Seat": {
        "description": "A seat and its kingdom so far, with its points so far by the engine.",
        **_object(_SEAT_PROPERTIES, list(_SEAT_PROPERTIES)),
    },
    "SeatAnswer": {
        "description": "A seat after a change, with the table's version.",
        **_object(_SEAT_PROPERTIES | {"version": _VERSION}, [*_SEAT_PROPERTIES, "version"]),
    },
    "Table": {
        "description": "A shared table as every phone shows it.",
        **_object(
            {
                "code": _ref("Code"),
                "url": {**_URL, "description": "The join link /t/<code>."},
                "version": _VERSION,
                "look": {**_STRING, "description": "A digest of all a page shows but the card counts."},
                "ruleset": _ref("Ruleset"),
                "played_on": {"type": "string", "format": "date"},
                "checks_required": _BOOLEAN,
                "locked": _BOOLEAN,
                "next_code": {**_nullable(_ref("Code")), "description": 'The table of "Play again".'},
                "expires_at": {
                    **_nullable({"type": "string", "format": "date-time"}),
                    "description": "null once locked",
                },
                "host": {**_ref("PhoneTag"), "description": "The tag of the host's phone."},
                "waiting": {
                    "type": "array",
                    "description": "What the table waits for, in the order it is needed.",
                    "items": _object(
                        {
                            "what": {
                                "enum": ["players", "entering", "done", "fixing", "legend", "checking", "move", "lock"]
                            },
                            "seat": _nullable(_SEAT_NUMBER),
                        },
                        ["what", "seat"],
                    ),
                },
                "move": _nullable(
                    {
                        "description": "A request to move a seat (null: the host's role) to another phone.",
                        **_object(
                            {
                                "seat": _nullable(_SEAT_NUMBER),
                                "asker": _ref("PhoneTag"),
                                "by": {"type": "array", "items": _SEAT_NUMBER},
                            },
                            ["seat", "asker", "by"],
                        ),
                    }
                ),
                "seats": {"type": "array", "maxItems": MAX_PLAYERS, "items": _ref("Seat")},
                "you": {
                    "description": "Who the Bearer token sent makes the request.",
                    **_object({"host": _BOOLEAN, "seats": {"type": "array", "items": _SEAT_NUMBER}}, ["host", "seats"]),
                },
                "game_url": {**_URL, "description": "The saved game, once locked."},
                "edit_url": {**_URL, "description": "The saved game's private link: the host's, once locked."},
                "next_url": {**_URL, "description": 'The join link of "Play again".'},
            },
            [
                "code",
                "url",
                "version",
                "look",
                "ruleset",
                "played_on",
                "checks_required",
                "locked",
                "next_code",
                "expires_at",
                "host",
                "waiting",
                "move",
                "seats",
                "you",
            ],
        ),
    },
    "PhoneTag": {
        "description": "A phone at the table, named without its secret (12 hex digits): no credential.",
        "type": "string",
        "pattern": "^[0-9a-f]{12}$",
    },
    "Code": {
        "description": f"A join code: {CODE_LENGTH} characters of {CODE_ALPHABET}.",
        "type": "string",
        "pattern": f"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$",
    },
}

_BEARER: list[dict[str, list[str]]] = [{"bearer": []}]
_BEARER_OPTIONAL: list[dict[str, list[str]]] = [{}, {"bearer": []}]


def _refusals(*statuses: int) -> dict[str, Any]:
    """The tables API's refusals by status, each in its shape, and the 503 of a database
    that cannot be reached (every operation of the tables API needs it)."""
    why = {
        400: "Input R8 refuses, a body that is not a JSON object, or a request the app cannot read "
        "(nested too deeply, a NUL character or a number the database cannot hold).",
        403: "Not this seat's secret nor the host's (as the operation needs).",
        404: "No open table has this code, or no such seat (or a seat number that is not a whole number "
        "from 0 to 2147483647: no route).",
        409: "The table's state refuses: locked, full, a name taken, not ready to lock, a kingdom changed "
        "since it was looked at.",
        413: "The body is larger than the server takes.",
        429: "Too many tries from this address (starting tables, taking seats, wrong codes).",
    }
    answers = {str(status): _json(_ref(REFUSAL), why[status]) for status in statuses}
    if "429" in answers:
        answers["429"]["headers"] = {"Retry-After": {"schema": _INTEGER, "description": "Seconds to wait."}}
    answers["503"] = _json(
        _ref(REFUSAL),
        "The database cannot be reached; nothing was changed.",
        {"Retry-After": {"schema": _INTEGER, "description": "Seconds to wait.", "required": True}},
    )
    return answers


_CODE_PARAMETER = {
    "name": "code",
    "in": "path",
    "required": True,
    "description": "The join code (any case; spaces and dashes are ignored).",
    "schema": {"type": "string"},
}
_SEAT_PARAMETER = {
    "name": "number",
    "in": "path",
    "required": True,
    "description": "The seat, from 1.",
    "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS},
}
_OPTIONAL_BODY = "Optional: an empty body is `{}`."


def _body(schema: Schema, required: bool = True, description: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"required": required, "content": {"application/json": {"schema": schema}}}
    if description:
        body["description"] = description
    return body


_PATHS: dict[str, Any] = {
    "/api/openapi.json": {
        "get": {
            "operationId": "contract",
            "tags": ["contract"],
            "summary": "This contract",
            "responses": {
                "200": _json(
                    _object(
                        {"openapi": {"const": "3.1.0"}, "info": {"type": "object"}, "paths": {"type": "object"}},
                        ["openapi", "info", "paths"],
                        closed=False,
                    ),
                    "The OpenAPI 3.1 document.",
                )
            },
        }
    },
    "/api/docs": {
        "get": {
            "operationId": "contractPage",
            "tags": ["contract"],
            "summary": "This contract as a page",
            "responses": {"200": {"description": "An HTML page.", "content": {"text/html": {"schema": _STRING}}}},
        }
    },
    "/api/score": {
        "post": {
            "operationId": "score",
            "tags": ["scoring"],
            "summary": "Score a game",
            "description": "The command line's `--format json` over HTTP: stateless, nothing is stored; in English.",
            "requestBody": _body(_ref("Game")),
            "responses": {
                "200": _json(_ref("ScoreSheet"), "The score sheet."),
                "400": _json(_ref(REFUSAL), "Input R8 refuses, or a body that is not a JSON game object."),
                "413": _json(_ref(REFUSAL), "The body is larger than the server takes."),
            },
        }
    },
    "/api/preview": {
        "post": {
            "operationId": "preview",
            "tags": ["scoring"],
            "summary": "Score one kingdom while it is entered",
            "description": "The seven rows of one kingdom so far (the game form asks this on each change). "
            "Refusals are in the request's language.",
            "requestBody": _body(_ref("PreviewRequest")),
            "responses": {
                "200": _json(_ref("Preview"), "The rows so far."),
                "400": _json(
                    _ref(REFUSAL),
                    "Not 16 cells, a word that names no card, an unknown ruleset or "
                    "Legend id, or a body that is not a JSON object.",
                ),
                "413": _json(_ref(REFUSAL), "The body is larger than the server takes."),
            },
        }
    },
    "/api/tables": {
        "post": {
            "operationId": "startTable",
            "tags": ["tables"],
            "summary": "Start a table",
            "requestBody": _body(
                {
                    "type": "object",
                    "properties": {
                        "ruleset": {"anyOf": [_ref("Ruleset"), {"enum": [None, ""]}]},
                        "played_on": {
                            **_nullable({"type": "string", "format": "date"}),
                            "description": "null or absent: today, on the server",
                        },
                        "checks": {
                            **_BOOLEAN,
                            "description": "A kingdom is checked by another player before the lock (default true).",
                        },
                    },
                }
            ),
            "responses": {
                "201": _json(
                    _object(
                        {
                            "code": _ref("Code"),
                            "url": _URL,
                            "host_token": {**_STRING, "description": "The host's secret, shown this once."},
                            "version": _VERSION,
                        },
                        ["code", "url", "host_token", "version"],
                    ),
                    "The table, its join link and the host's secret.",
                ),
                **_refusals(400, 413, 429),
            },
        }
    },
    "/api/tables/{code}": {
        "parameters": [_CODE_PARAMETER],
        "get": {
            "operationId": "showTable",
            "tags": ["tables"],
            "summary": "The table",
            "description": "With a secret, `you` says whose it is, and the host gets `edit_url` once locked. "
            "Send the ETag back in If-None-Match: an unchanged table answers 304.",
            "security": _BEARER_OPTIONAL,
            "parameters": [
                {"name": "If-None-Match", "in": "header", "required": False, "schema": _STRING},
            ],
            "responses": {
                "200": _json(
                    _ref("Table"),
                    "The table.",
                    {
                        "ETag": {"schema": _STRING, "required": True},
                        "Cache-Control": {"schema": {"const": "no-cache, private"}, "required": True},
                    },
                ),
                "304": {
                    "description": "Unchanged since the ETag sent.",
                    "headers": {"ETag": {"schema": _STRING, "required": True}},
                },
                **_refusals(400, 404, 429),
            },
        },
        "patch": {
            "operationId": "tableSettings",
            "tags": ["tables"],
            "summary": "Switch checks by another player on or off (host)",
            "security": _BEARER,
            "requestBody": _body(_object({"checks_required": _BOOLEAN}, ["checks_required"], closed=False)),
            "responses": {"200": _json(_ref("Table"), "The table."), **_refusals(400, 403, 404, 409, 413, 429)},
        },
    },
    "/api/tables/{code}/seats": {
        "parameters": [_CODE_PARAMETER],
        "post": {
            "operationId": "takeSeat",
            "tags": ["tables"],
            "summary": "Take the next seat",
            "description": "With the host's secret, the host adds a seat for a player without a phone (held by "
            "the host's secret). R8: the name is not empty, at most 40 characters once trimmed, not another "
            "seat's in any case.",
            "security": _BEARER_OPTIONAL,
            "requestBody": _body(_object({"name": _STRING}, ["name"], closed=False)),
            "responses": {
                "201": _json(
                    _object(
                        {"seat": _SEAT_NUMBER, "seat_token": _STRING, "version": _VERSION},
                        ["seat", "seat_token", "version"],
                    ),
                    "The seat and its secret.",
                ),
                **_refusals(400, 404, 409, 413, 429),
            },
        },
    },
    "/api/tables/{code}/seats/{number}": {
        "parameters": [_CODE_PARAMETER, _SEAT_PARAMETER],
        "put": {
            "operationId": "saveDraft",
            "tags": ["tables"],
            "summary": "Store a seat's draft (its secret or the host's)",
            "description": "What is left out stays. With `base` (the kingdom as the page showed it before its "
            "changes) only what differs from it is written. `done` needs all 16 cards.",
            "security": _BEARER,
            "requestBody": _body(
                {
                    "type": "object",
                    "properties": {
                        "kingdom": _nullable(_ref("DraftCells")),
                        "legends": _nullable(_ref("DraftLegends")),
                        "done": _nullable(_BOOLEAN),
                        "base": _nullable(_ref("Shown")),
                    },
                }
            ),
            "responses": {"200": _json(_ref("SeatAnswer"), "The seat now."), **_refusals(400, 403, 404, 409, 413, 429)},
        },
    },
    "/api/tables/{code}/seats/{number}/check": {
        "parameters": [_CODE_PARAMETER, _SEAT_PARAMETER],
        "post": {
            "operationId": "checkSeat",
            "tags": ["tables"],
            "summary": "Another seat checked this kingdom",
            "description": "With another seat's secret, as its page showed the kingdom (`seen`). 409 for a kingdom "
            "this phone holds or entered, one not done, or one changed since it was looked at.",
            "security": _BEARER,
            "requestBody": _body(_object({"seen": _ref("Shown")}, ["seen"], closed=False)),
            "responses": {
                "200": _json(_ref("SeatAnswer"), "The checked seat."),
                **_refusals(400, 403, 404, 409, 413, 429),
            },
        },
    },
    "/api/tables/{code}/seats/{number}/wrong": {
        "parameters": [_CODE_PARAMETER, _SEAT_PARAMETER],
        "post": {
            "operationId": "reportWrong",
            "tags": ["tables"],
            "summary": '"Something is wrong" at one cell',
            "description": "Another seat reports a cell of the kingdom as its page showed it; the seat is no "
            "longer done, and its owner's phone shows the cell.",
            "security": _BEARER,
            "requestBody": _body(_object({"cell": _CELL_INDEX, "seen": _ref("Shown")}, ["cell", "seen"], closed=False)),
            "responses": {
                "200": _json(_ref("SeatAnswer"), "The seat, not done."),
                **_refusals(400, 403, 404, 409, 413, 429),
            },
        },
    },
    "/api/tables/{code}/lock": {
        "parameters": [_CODE_PARAMETER],
        "post": {
            "operationId": "lockTable",
            "tags": ["tables"],
            "summary": "Lock the table into one saved game (host)",
            "description": "Locking again answers the same game. 409 with every reason while a seat is not done, "
            "not checked, reported wrong, or a Legend is claimed twice (R6.1).",
            "security": _BEARER,
            "requestBody": _body(
                {
                    "type": "object",
                    "properties": {"group": {"description": "A group's public id: the game goes there."}, "invite": {}},
                },
                required=False,
                description=_OPTIONAL_BODY + " `group` with its `invite` secret (400 `group-unknown` if the pair "
                "opens no group).",
            ),
            "responses": {
                "200": _json(
                    _object({"game_url": _URL, "edit_url": _URL}, ["game_url", "edit_url"]),
                    "The saved game and its private link.",
                ),
                **_refusals(400, 403, 404, 409, 413, 429),
            },
        },
    },
    "/api/tables/{code}/again": {
        "parameters": [_CODE_PARAMETER],
        "post": {
            "operationId": "playAgain",
            "tags": ["tables"],
            "summary": "Play again (host, locked table)",
            "description": "A new table with the same ruleset, seats, names and secrets; asked again, the same one.",
            "security": _BEARER,
            "requestBody": _body(
                {
                    "type": "object",
                    "properties": {
                        "played_on": {
                            **_nullable({"type": "string", "format": "date"}),
                            "description": "null or absent: the same date",
                        }
                    },
                },
                required=False,
                description=_OPTIONAL_BODY,
            ),
            "responses": {
                "201": _json(_object({"code": _ref("Code"), "url": _URL}, ["code", "url"]), "The next table."),
                **_refusals(400, 403, 404, 409, 413, 429),
            },
        },
    },
}


@functools.cache
def _contract_text() -> str:
    document = {
        "openapi": "3.1.0",
        "info": {
            "title": "DRAKO scorekeeper JSON API",
            "version": API_VERSION,
            "summary": "Score games of DRAKO: Aetherya Pocket, and share a table's score sheet between phones.",
            "description": "Every answer is JSON. Secrets go in `Authorization: Bearer <token>`: the host's (from "
            "starting a table) or a seat's (from taking it); no cookie is read, so no CSRF token is needed.",
            "license": {"name": "MIT", "identifier": "MIT"},
        },
        "tags": [
            {"name": "scoring", "description": "Stateless scoring: nothing is stored."},
            {"name": "tables", "description": "Shared tables: each phone enters its own kingdom."},
            {"name": "contract", "description": "This document, as JSON and as a page."},
        ],
        "paths": _PATHS,
        "components": {
            "schemas": _SCHEMAS,
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The host's or a seat's secret (192 random bits, base64url).",
                }
            },
        },
    }
    return json.dumps(document, ensure_ascii=False, sort_keys=False)


def contract() -> dict[str, Any]:
    """The OpenAPI 3.1 document of the JSON API (a fresh copy: callers may change it)."""
    return copy.deepcopy(json.loads(_contract_text()))


# -- the contract as a page (GET /api/docs): what the template shows, worked out here


class Field(NamedTuple):
    """One member of an object in the page's tables: ``players[].name``, its type in
    words (``"string"``, ``"array of Card"``, ``"Rows or null"``), whether it is always
    there (answers) or must be sent (requests), and what it means."""

    name: str
    type: str
    required: bool
    description: str


class Answer(NamedTuple):
    """One status of an operation: ``"409"``, what it means, its body's type in words,
    the named schema it is (``"Seat"``, else ``""``) and its members."""

    status: str
    description: str
    type: str
    schema: str
    fields: list[Field]


class Operation(NamedTuple):
    """One operation of the page: ``POST /api/score`` with its words, parameters, body and answers."""

    id: str
    method: str
    path: str
    summary: str
    description: str
    secret: str
    parameters: list[Field]
    body: Answer | None
    answers: list[Answer]


class Component(NamedTuple):
    """A named schema (``Seat``): its type in words and members, linked from the operations."""

    name: str
    description: str
    type: str
    fields: list[Field]


def _words(schema: Schema) -> str:
    """A schema's type in a few words: a named one by its name, ``array of Card``, ``Rows or null``."""
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[1]
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return "one of " + ", ".join(json.dumps(value) for value in schema["enum"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " or ".join(_words(part) for part in schema[key])
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind == "array":
        size = ""
        if "minItems" in schema and schema.get("minItems") == schema.get("maxItems"):
            size = f"{schema['minItems']} × "
        elif "maxItems" in schema:
            size = f"at most {schema['maxItems']} × "
        return f"array of {size}{_words(schema.get('items', {}))}"
    if kind == "integer" and ("minimum" in schema or "maximum" in schema):
        return f"integer {schema.get('minimum', '')}..{schema.get('maximum', '')}"
    if kind == "string" and "format" in schema:
        return f"string ({schema['format']})"
    return kind or "any JSON value"


def _fields(schema: Schema, prefix: str = "") -> list[Field]:
    """The members of an object schema (and of objects inside it, ``seats[].name``), in order."""
    if schema.get("type") == "array" and "$ref" not in schema.get("items", {}):
        return _fields(schema.get("items", {}), prefix + "[]")
    rows = []
    required = set(schema.get("required", []))
    for name, member in schema.get("properties", {}).items():
        path = f"{prefix}.{name}" if prefix else name
        rows.append(Field(path, _words(member), name in required, member.get("description", "")))
        if member.get("type") in ("object", "array") and "$ref" not in member:
            rows.extend(_fields(member, path))
    for part in schema.get("anyOf", []):
        for name, member in part.get("properties", {}).items():
            if name not in schema.get("properties", {}):
                rows.append(Field(f"{prefix}.{name}" if prefix else name, _words(member), False, ""))
    return rows


def _answer(status: str, answer: dict[str, Any]) -> Answer:
    content: dict[str, Any] = answer.get("content", {})
    schema: Schema | None = next(iter(content.values())).get("schema") if content else None
    kind = "no body" if schema is None else f"{_words(schema)} ({next(iter(content))})"
    named = schema["$ref"].rsplit("/", 1)[1] if schema and "$ref" in schema else ""
    fields = [] if schema is None or named else _fields(schema)
    return Answer(status, answer.get("description", ""), kind, named, fields)


def page(document: dict[str, Any]) -> tuple[list[Operation], list[Component]]:
    """The operations and named schemas of *document* (:func:`contract`) as the page shows them."""
    operations = []
    for path, item in document["paths"].items():
        shared = item.get("parameters", [])
        for method, operation in item.items():
            if method == "parameters":
                continue
            parameters = [
                Field(
                    f"{p['name']} ({p['in']})", _words(p["schema"]), p.get("required", False), p.get("description", "")
                )
                for p in shared + operation.get("parameters", [])
            ]
            security = operation.get("security")
            secret = "" if security is None else "Bearer token" + (" (optional)" if {} in security else "")
            body = operation.get("requestBody")
            operations.append(
                Operation(
                    operation["operationId"],
                    method.upper(),
                    path,
                    operation.get("summary", ""),
                    operation.get("description", ""),
                    secret,
                    parameters,
                    None if body is None else _answer("required" if body.get("required") else "optional", body),
                    [_answer(status, answer) for status, answer in operation["responses"].items()],
                )
            )
    components = [
        Component(
            name, schema.get("description", ""), "object" if "properties" in schema else _words(schema), _fields(schema)
        )
        for name, schema in document["components"]["schemas"].items()
    ]
    return operations, components

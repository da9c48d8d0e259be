"""The shared table's JSON, defined once (scorekeeper/web/tables/wire.py, issue #31 item 1):
the contract's table schemas are generated from it, real answers and a real push are
valid by them, a kingdom is 16 cells row by row in both directions (4 rows of 4 still
read), and a member added to the seat is in the schema and the answer with nothing
else edited."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

import jsonschema
import pytest
from pydantic import Field

from scorekeeper.engine import GameErrors
from scorekeeper.table import model
from scorekeeper.web.api.openapi import contract
from scorekeeper.web.tables import wire
from tests.table import test_service as at_the_table
from tests.table.test_model import (
    BO,
    HOST,
    KINGDOMS,
    PLAYERS,
    all_checked,
    enter,
    phone,
    report_wrong,
    seated,
    secret_hash,
)

COMPONENTS = contract()["components"]


def valid(answer: object, name: str, components: dict | None = None) -> object:
    """*answer*, after checking it against the contract's schema *name* (its references
    resolved in the contract's components); fails the test with the first error."""
    document = {"$ref": f"#/components/schemas/{name}", "components": components or COMPONENTS}
    jsonschema.Draft202012Validator(document, format_checker=jsonschema.FormatChecker()).validate(answer)
    return answer


def test_the_contracts_table_schemas_are_generated_from_the_wire():
    generated = wire.schemas()
    assert {"Draft", "Shown", "Seat", "SeatAnswer", "Table", "Push", "PushSeat", "KingdomSoFar"} <= set(generated)
    for name, schema in generated.items():
        assert COMPONENTS["schemas"][name] == schema, name
    seat = COMPONENTS["schemas"]["PushSeat"]
    assert list(seat["properties"]) == [name for name, *_ in wire.readers(wire.PushSeat)]  # what the push writes
    assert seat["properties"]["state"]["enum"] == ["wrong", "checked", "done", "entering"]
    kingdom = COMPONENTS["schemas"]["KingdomSoFar"]
    assert (kingdom["type"], kingdom["minItems"], kingdom["maxItems"]) == ("array", 16, 16)
    # a draft's kingdom: 16 cells, or the 4 rows of 4 the API always took
    assert [part["maxItems"] for part in COMPONENTS["schemas"]["DraftCells"]["anyOf"]] == [16, 4]
    put = contract()["paths"]["/api/tables/{code}/seats/{number}"]["put"]
    assert put["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Draft"}


def test_the_push_has_the_shape_every_phone_reads():
    table = enter(seated(2), 1, cells=KINGDOMS[0][:4] + (None,) * 12, legends=("tribes-humans",))
    table = enter(table, 2, legends=("tribes-humans",))._replace(version=7)
    assert valid(wire.push(table), "Push") == {
        "code": "ABC234",
        "version": 7,
        "look": model.look(table, datetime.now(UTC)),  # (both phones, last seen at T0, are gone by now)
        "ruleset": "pocket",
        "played_on": "2026-11-30",
        "checks_required": True,
        "locked": False,
        "next_code": None,
        "expires_at": "2026-12-01T19:00:00+00:00",
        "host": model.phone_tag("ABC234", secret_hash(HOST)),
        "waiting": [
            {"what": "entering", "seat": 1},
            {"what": "entering", "seat": 2},
            {"what": "legend", "seat": 1},
            {"what": "legend", "seat": 2},
        ],
        "move": None,
        "seats": [
            {
                "seat": 1,
                "name": "Ada",
                "cards_entered": 4,
                "done": False,
                "state": "entering",
                "checked_by": None,
                "wrong_cell": None,
                "wrong_by": None,
                "kingdom": PLAYERS[0]["kingdom"][0] + [None] * 12,  # row by row: the first row, then 12 blanks
                "legends": ["tribes-humans"],
                "legend_clashes": [{"legend": "tribes-humans", "seats": [2]}],
                "holder": model.phone_tag("ABC234", secret_hash(HOST)),
                "checkers": [],
                "seen_at": "2026-11-30T19:00:00+00:00",
                "removable": False,  # the host's own seat
            },
            {
                "seat": 2,
                "name": "Bo",
                "cards_entered": 0,
                "done": False,
                "state": "entering",
                "checked_by": None,
                "wrong_cell": None,
                "wrong_by": None,
                "kingdom": [None] * 16,
                "legends": ["tribes-humans"],
                "legend_clashes": [{"legend": "tribes-humans", "seats": [1]}],
                "holder": model.phone_tag("ABC234", secret_hash(BO)),
                "checkers": [],
                "seen_at": "2026-11-30T19:00:00+00:00",
                "removable": False,  # a Legend claimed: something entered
            },
        ],
    }
    locked = valid(wire.push(all_checked()._replace(locked=True, next_code="XYZ789")), "Push")
    assert (locked["locked"], locked["expires_at"], locked["next_code"]) == (True, None, "XYZ789")
    assert locked["seats"][3]["checked_by"] == 1 and locked["seats"][3]["state"] == "checked"
    assert locked["seats"][3]["kingdom"] == list(KINGDOMS[3])
    assert (locked["waiting"], locked["move"], [s["checkers"] for s in locked["seats"]]) == ([], None, [[]] * 4)
    assert secret_hash(HOST) not in str(locked)  # no secret's hash in any answer: tags name the phones
    checked = all_checked()
    wrong = report_wrong(checked, 2, phone(checked, HOST), 5, checked.seat(2).shown)
    seat = valid(wire.push(wrong), "Push")["seats"][1]
    assert (seat["state"], seat["wrong_cell"], seat["wrong_by"], seat["done"]) == ("wrong", 5, 1, False)


def test_real_answers_and_pushes_are_valid_by_the_generated_schemas(db_app):
    """A table's GET, a seat's PUT and what the stream carries, each checked against the
    schema generated from the wire (a 4 × 4 kingdom, today's contract, fails every one)."""
    client = db_app.test_client()
    with db_app.app_context():
        code, host, secrets = at_the_table.seated()
    stream = at_the_table.watching(db_app, code)
    put = client.put(
        f"/api/tables/{code}/seats/2",
        json={"kingdom": PLAYERS[1]["kingdom"], "legends": PLAYERS[1]["legends"]},  # 4 rows of 4, as ever
        headers={"Authorization": f"Bearer {secrets[1]}"},
    )
    assert put.status_code == 200
    seat = valid(put.json, "SeatAnswer")
    assert seat["kingdom"] == list(KINGDOMS[1]) and seat["state"] == "entering" and seat["cards_entered"] == 16
    (pushed,) = at_the_table.announced(stream)
    valid(pushed, "Push")
    assert pushed["version"] == seat["version"] and pushed["seats"][1]["kingdom"] == seat["kingdom"]
    assert {key: seat[key] for key in pushed["seats"][1]} == pushed["seats"][1]  # the push's seat, and points
    with db_app.app_context():
        at_the_table.enter_all(code, secrets)
        at_the_table.check_all(code, secrets)
    for pushed in at_the_table.announced(stream):
        valid(pushed, "Push")
    assert [s["state"] for s in pushed["seats"]] == ["checked"] * 4
    state = valid(client.get(f"/api/tables/{code}", headers={"Authorization": f"Bearer {host}"}).json, "Table")
    assert [s["kingdom"] for s in state["seats"]] == [list(cells) for cells in KINGDOMS]
    assert "More Elves than a 4-player deck holds" in pushed["notes"]["en"][0]  # case 19's deck warning (R1)
    shared = {key: value for key, value in pushed.items() if key != "notes"}  # the push's own: its notes
    assert {key: state[key] for key in shared} == shared | {"seats": state["seats"]}
    # the API's table is the push's members with its own: the join link, who asks, each seat's points
    assert set(state) - set(shared) == {"url", "you"}
    assert set(state["seats"][0]) - set(pushed["seats"][0]) == {"rows", "total", "points"}


@pytest.mark.parametrize(
    "draft",
    [
        {},
        {"kingdom": [None] * 16},
        {"kingdom": ["", "forest"] + [None] * 14, "legends": [], "done": False},
        {"kingdom": [["forest", None, "", "plain"]] * 4, "base": {"kingdom": [None] * 16, "legends": []}},
        {"kingdom": None, "legends": None, "done": None, "base": None},
        {"legends": ["tribes-elves"], "anything": "else"},
    ],
)
def test_a_draft_the_model_reads_is_one_the_contract_allows(draft):
    model.read_draft(draft, {"player": 0, "player_name": "Ada"})
    valid(draft, "Draft")


@pytest.mark.parametrize(
    "draft",
    [
        {"kingdom": [None] * 15},
        {"kingdom": [[None] * 4] * 3},
        {"kingdom": [[None] * 16]},
        {"kingdom": "forest"},
        {"done": "yes"},
        {"legends": ["tribes-elves", "tribes-elves"]},
        {"base": {"legends": []}},
    ],
)
def test_a_draft_the_contract_refuses_the_model_refuses(draft):
    with pytest.raises(jsonschema.ValidationError):
        valid(draft, "Draft")
    with pytest.raises(GameErrors):
        model.read_draft(draft, {"player": 0, "player_name": "Ada"})


# -- a member added to the seat: in its schema and its answer, with nothing else edited


class CountedSeat(model.Seat):
    """The model's seat with one more value (as a property added to model.Seat would be)."""

    @property
    def cards_missing(self) -> int:
        """How many of the 16 cells wait for a card."""
        return model.CELLS - self.cards_entered


class CountedPushSeat(wire.PushSeat):
    """The wire's seat with the member of that name (as a line added to wire.PushSeat would be)."""

    cards_missing: Annotated[int, Field(ge=0, le=model.CELLS)]


def test_a_member_added_to_the_seat_is_in_the_schema_and_the_answer_with_nothing_else_edited():
    table = enter(seated(2), 1, cells=KINGDOMS[0][:4] + (None,) * 12)
    seat = CountedSeat(*table.seat(1))
    before = wire.push_seat(table, seat)
    after = wire.push_seat(table, seat, CountedPushSeat)
    assert after == before | {"cards_missing": 12} and list(after)[-1] == "cards_missing"
    schemas = wire.schemas((CountedPushSeat,))
    added = schemas["CountedPushSeat"]
    assert added["properties"]["cards_missing"] == {"minimum": 0, "maximum": 16, "type": "integer"}
    assert added["required"][-1] == "cards_missing" and added["additionalProperties"] is False
    counted = {"schemas": COMPONENTS["schemas"] | schemas}
    assert valid(after, "CountedPushSeat", counted) == after
    with pytest.raises(jsonschema.ValidationError, match="cards_missing"):
        valid(before, "CountedPushSeat", counted)  # the schema asks for it: it is no answer's by chance
    with pytest.raises(jsonschema.ValidationError, match="cards_missing"):
        valid(after, "PushSeat")  # and the seat without it refuses it: the schemas are closed

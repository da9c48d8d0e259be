"""``scorekeeper import`` and ``scorekeeper export`` on a real database."""

from __future__ import annotations

import copy
import csv
import io
import json

from tests.conftest import CASE_FILES, load_case, run_cli

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))


def run(database_url, *args, input=None):
    env = {"SCOREKEEPER_DATABASE_URL": database_url, "SCOREKEEPER_MIGRATE": "false"}  # migrated already
    return run_cli(list(args), input=input, env=env)


def test_import_then_export_round_trip(database_url, tmp_path):
    game = FOUR["game"] | {"date": "2026-11-29", "location": "Club", "notes": ""}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game), encoding="utf-8")
    imported = run(database_url, "import", str(path))
    assert imported.exit_code == 0, imported.output
    assert "read-only: /g/" in imported.output and "private:   /g/" in imported.output
    exported = run(database_url, "export")
    assert exported.exit_code == 0
    assert json.loads(exported.output) == {"games": [game]}
    public_id = imported.output.split("read-only: /g/")[1].split()[0]
    one = run(database_url, "export", "--game", public_id)
    assert json.loads(one.output) == game
    text = run(database_url, "export", "--format", "csv").output
    assert text.startswith("\ufeffgame,")  # the byte-order mark spreadsheets need
    rows = list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))
    assert [int(r["total"]) for r in rows] == [p["total"] for p in FOUR["expected"]["players"]]


def test_import_refuses_bad_files_and_stores_nothing(database_url):
    bad = copy.deepcopy(FOUR["game"])
    bad["players"][2]["kingdom"][1][1] = "x"
    result = run(database_url, "import", "-", input=json.dumps({"games": [FOUR["game"], bad]}))
    assert result.exit_code == 2
    assert "error: game 2: Cy, row 2, column 2" in result.output
    assert json.loads(run(database_url, "export").output) == {"games": []}
    assert run(database_url, "import", "-", input="{").exit_code == 2
    missing = run(database_url, "export", "--game", "nope")
    assert missing.exit_code == 2 and "no saved game" in missing.output


def test_export_opens_its_output_file_only_to_write(database_url, tmp_path):
    never = tmp_path / "never.json"
    refused = run(database_url, "export", "--game", "nope", "-o", str(never))
    assert refused.exit_code == 2 and refused.stderr == "error: no saved game with id 'nope'\n"
    assert not never.exists()
    unopenable = tmp_path / "no-such-folder" / "history.json"
    failed = run(database_url, "export", "--output", str(unopenable))
    assert failed.exit_code == 1
    assert failed.stderr == f"error: cannot write '{unopenable}': No such file or directory\n"
    written = run(database_url, "export", "-o", str(tmp_path / "history.json"))
    assert written.exit_code == 0 and written.stdout == ""
    assert json.loads((tmp_path / "history.json").read_text(encoding="utf-8")) == {"games": []}

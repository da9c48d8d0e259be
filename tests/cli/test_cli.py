"""``scorekeeper score FILE``: the worked games and the refused ones, through
``scorekeeper.cli.main`` and once through a real ``python -m scorekeeper`` process."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli

DATA = Path(__file__).parent.parent / "data"
CASE_FILES = sorted((DATA / "cases").glob("*.json"))
INVALID_FILES = sorted((DATA / "invalid").glob("*.json"))
FOUR_PLAYERS = DATA / "cases" / "19-four-players.json"
#: The first line of a usage error of `score`, as argparse writes it.
USAGE = "usage: scorekeeper score [-h] [--format {text,json}] [--explain] FILE\n"


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def rule_id(path: Path) -> str:
    return f"{load(path)['rule']}-{path.stem}"


def game_file(tmp_path: Path, case: Path) -> Path:
    """The case's "game" object alone, as a player would save it."""
    path = tmp_path / case.name
    path.write_text(json.dumps(load(case)["game"]), encoding="utf-8")
    return path


def score(*args: str, input: str | None = None):
    return run_cli(["score", *args], input=input)


def figures(sheet: dict) -> dict:
    """What a worked case's "expected" holds: ruleset, and per player name, categories, total, place."""
    keys = ("name", "categories", "total", "place")
    return {"ruleset": sheet["ruleset"], "players": [{k: p[k] for k in keys} for p in sheet["players"]]}


def table_row(output: str, label: str) -> list[str]:
    """The cells of the text sheet's row starting with *label*."""
    (line,) = [line for line in output.splitlines() if line.split()[:1] == [label]]
    return line.split()[1:]


@pytest.mark.parametrize("case", CASE_FILES, ids=rule_id)
def test_json_output_matches_worked_game(tmp_path, case):
    result = score(str(game_file(tmp_path, case)), "--format", "json")

    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert figures(json.loads(result.stdout)) == load(case)["expected"]


def test_stdin_dash_reads_the_game():
    result = score("-", "--format", "json", input=json.dumps(load(FOUR_PLAYERS)["game"]))

    assert result.exit_code == 0, result.output
    assert figures(json.loads(result.stdout)) == load(FOUR_PLAYERS)["expected"]


def test_R7_text_sheet_has_a_column_per_player_with_total_and_place(tmp_path):
    result = score(str(game_file(tmp_path, FOUR_PLAYERS)))

    assert result.exit_code == 0, result.output
    # Hand-checked figures of 19-four-players.json, columns in input order.
    header = next(line for line in result.stdout.splitlines() if "Ada" in line)
    assert header.split() == ["Ada", "Bo", "Cy", "Di"]
    assert table_row(result.stdout, "Elves") == ["6", "2", "2", "11"]
    assert table_row(result.stdout, "Conflicts") == ["-6", "-4", "0", "-2"]
    assert table_row(result.stdout, "Total") == ["11", "13", "30", "33"]
    assert table_row(result.stdout, "Place") == ["4", "3", "2", "1"]
    assert "Winner: Di" in result.stdout
    assert "Warning: more Elves than a 4-player deck holds (9 entered, 8 in the deck)" in result.stdout


def test_R7_5_text_sheet_states_tiebreak_and_shared_place(tmp_path):
    tiebreak = score(str(game_file(tmp_path, DATA / "cases" / "17-tiebreak-by-highest-row.json")))
    shared = score(str(game_file(tmp_path, DATA / "cases" / "18-shared-place.json")))

    assert (
        "Ada ahead of Bo: both have 6 Harmony Points; with their rows sorted from highest to lowest, "
        "the highest row decides, 6 vs 4." in tiebreak.stdout
    )
    assert "Winners (shared): Ada, Bo" in shared.stdout
    assert "Ada and Bo share place 1" in shared.stdout
    assert table_row(shared.stdout, "Place") == ["1", "1", "3"]


def test_explain_lists_the_cards_behind_each_row(tmp_path):
    path = str(game_file(tmp_path, FOUR_PLAYERS))
    plain = score(path)
    explained = score(path, "--explain")

    assert explained.exit_code == 0, explained.output
    assert (
        "Dragon at r2c2: domesticated by 4 Humans (r1c2, r2c1, r2c3, r3c2); one of 2 Dragons in the kingdom (R5.2) → +4"
        in explained.stdout
    )
    assert "Goblins r2c1 – Elves r3c1 (adjacent) → -2" in explained.stdout
    assert "Four Tribes: all four tribe types present → +4" in explained.stdout
    assert "Dragon at r2c2" not in plain.stdout


def test_json_lists_players_in_input_order_with_explanations(tmp_path):
    result = score(str(game_file(tmp_path, FOUR_PLAYERS)), "--format", "json")
    sheet = json.loads(result.stdout)

    assert [p["name"] for p in sheet["players"]] == ["Ada", "Bo", "Cy", "Di"]
    assert sheet["winners"] == ["Di"]
    assert sheet["players"][0]["explanations"]["dragons"] == [
        "Dragon at r3c1: wild, no two Elves, Dwarves or Humans connected; the only Dragon in the kingdom (R5.2) → -3"
    ]


@pytest.mark.parametrize("case", INVALID_FILES, ids=rule_id)
def test_R8_refused_game_exits_2_with_one_message_per_problem(tmp_path, case):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(load(case)["game"]), encoding="utf-8")

    result = score(str(path))

    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    expected = load(case)["errors"]
    assert len(lines) == len(expected)
    for line, error in zip(lines, expected, strict=True):
        prefix = f"error: {error['where']}: " if error["where"] else "error: "
        assert line.startswith(prefix), line
        assert error["says"] in line
    assert "Traceback" not in result.output


def test_R8_messages_name_player_row_and_column():
    game = load(DATA / "invalid" / "08-unknown-card.json")["game"]

    result = score("-", input=json.dumps(game))

    assert result.stderr == "error: Bo, row 2, column 3: 'castle' is not one of the ten card ids\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"players": [', "is not valid JSON"),
        ("", "is not valid JSON"),
        ("[" * 100_000 + "]" * 100_000, "is nested too deeply"),
    ],
    ids=["truncated", "empty", "too-deep"],
)
def test_unreadable_json_exits_2_without_traceback(tmp_path, content, message):
    path = tmp_path / "game.json"
    path.write_text(content, encoding="utf-8")

    result = score(str(path))

    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {path} {message}")
    assert len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.output


def test_file_that_is_not_utf8_exits_2(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(b"\xff\xfe{\x00}\x00")

    result = score(str(path))

    assert result.exit_code == 2
    assert result.stderr == f"error: {path} is not UTF-8 text\n"


def test_missing_file_exits_2(tmp_path):
    result = score(str(tmp_path / "missing.json"))

    assert result.exit_code == 2
    assert result.stderr == f"error: cannot open '{tmp_path / 'missing.json'}': No such file or directory\n"
    assert "Traceback" not in result.output


def test_unknown_format_is_a_usage_error(tmp_path):
    result = score(str(game_file(tmp_path, FOUR_PLAYERS)), "--format", "xml")

    assert result.exit_code == 2
    assert result.stderr == USAGE + (
        "scorekeeper score: error: argument --format: invalid choice: 'xml' (choose from 'text', 'json')\n"
    )


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "game.json"
    path.write_text("\ufeff" + json.dumps(load(FOUR_PLAYERS)["game"]), encoding="utf-8")

    result = score(str(path), "--format", "json")

    assert result.exit_code == 0, result.output


def test_a_byte_order_mark_on_standard_input_is_accepted():
    result = score("-", "--format", "json", input="\ufeff" + json.dumps(load(FOUR_PLAYERS)["game"]))

    assert result.exit_code == 0, result.output
    assert figures(json.loads(result.stdout)) == load(FOUR_PLAYERS)["expected"]


def test_usage_errors_are_argparse_s(tmp_path):
    """A usage error: the usage line, ``PROG: error: …`` in argparse's words, exit status 2."""
    path = str(game_file(tmp_path, FOUR_PLAYERS))

    missing = score()
    assert missing.exit_code == 2 and missing.stdout == ""
    assert missing.stderr == USAGE + "scorekeeper score: error: the following arguments are required: FILE\n"
    no_value = score(path, "--format")
    assert no_value.exit_code == 2
    assert no_value.stderr == USAGE + "scorekeeper score: error: argument --format: expected one argument\n"
    # argparse hands arguments a command has no place for back to the program's parser
    unknown = score(path, "--colour")
    assert unknown.exit_code == 2
    assert unknown.stderr.endswith("scorekeeper: error: unrecognized arguments: --colour\n")
    command = run_cli(["scor", path])
    assert command.exit_code == 2
    assert command.stderr.endswith(
        "scorekeeper: error: argument COMMAND: invalid choice: 'scor'"
        " (choose from 'score', 'export', 'import', 'groups')\n"
    )
    nothing = run_cli([])
    assert nothing.exit_code == 2
    assert nothing.stderr.endswith("scorekeeper: error: the following arguments are required: COMMAND\n")


def test_version_is_the_installed_package_s():
    from importlib.metadata import version

    answer = run_cli(["--version"])
    assert answer.exit_code == 0 and answer.stdout == f"scorekeeper {version('scorekeeper')}\n" and answer.stderr == ""


def test_help_lists_the_commands_and_options():
    overview = run_cli(["--help"])
    assert overview.exit_code == 0 and overview.stderr == ""
    for name in ("score", "export", "import", "groups"):
        assert f"\n    {name:<9} " in overview.stdout
    score_help = score("--help")
    assert score_help.exit_code == 0
    assert score_help.stdout.startswith(USAGE)
    for sentence in (
        "\nScore the game in FILE (a JSON game file; - reads standard input).\n\nThe file holds",
        "a plain-text sheet, or the sheet as JSON (players in",
        "list the cards behind every row (text format)",
        "show this help message and exit",
    ):
        assert sentence in score_help.stdout


def run_module(*args: str, input: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "scorekeeper", *args],
        input=input,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=60,
        check=False,
    )


def test_python_dash_m_scores_a_game_file(tmp_path):
    result = run_module("score", str(game_file(tmp_path, FOUR_PLAYERS)), "--format", "json")

    assert result.returncode == 0, result.stderr
    assert figures(json.loads(result.stdout)) == load(FOUR_PLAYERS)["expected"]


def test_python_dash_m_refuses_with_exit_2_and_no_traceback():
    game = load(DATA / "invalid" / "16-several-problems.json")["game"]

    result = run_module("score", "-", input=json.dumps(game))

    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("error: ") == 6
    assert "error: Bo, row 3, column 4: no card chosen" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_worked_case_file_is_pointed_at_its_game(tmp_path):
    case = tmp_path / "case.json"
    case.write_text(json.dumps({"game": {"players": []}, "expected": {}}))
    result = run_cli(["score", str(case)])
    assert result.exit_code == 2
    assert 'this file has it under "game"' in result.output


def test_text_table_lines_up_names_with_emoji():
    from scorekeeper.cli import format_sheet
    from scorekeeper.engine import Game, score_game

    plains = [["plain"] * 4 for _ in range(4)]
    game = Game.from_dict({"players": [{"name": "Ada🐉", "kingdom": plains}, {"name": "Bo", "kingdom": plains}]})
    table = format_sheet(score_game(game)).splitlines()
    header, elves = table[2], table[3]
    assert header.endswith("Ada🐉     Bo")  # the dragon takes two columns, like the two digits below it
    assert elves.endswith("      0      0")


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_score_imports_no_web_stack(tmp_path, output_format):
    """`score` needs the engine, the sentence writer and argparse only: Flask,
    SQLAlchemy, WeasyPrint and the rest load only for the app, `import` and
    `export` (their import is most of a `score` process's time), and click,
    which Flask brings, not at all (its import alone took more than the plain
    reference scorer's whole process)."""
    names = game_file(tmp_path, FOUR_PLAYERS)
    probe = (
        "import sys\n"
        "from scorekeeper.cli import main\n"
        f"main(['score', {str(names)!r}, '--explain', '--format', {output_format!r}])\n"
        "heavy = sorted({m.partition('.')[0] for m in sys.modules} & "
        "{'flask', 'werkzeug', 'jinja2', 'sqlalchemy', 'weasyprint', 'segno', 'wtforms', 'flask_babel', 'click'})\n"
        "print('HEAVY', heavy, file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert "HEAVY []" in result.stderr

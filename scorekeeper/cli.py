"""Command line: ``scorekeeper score GAME.json`` prints the score sheet.

Thin on purpose: the standard library's argparse reads the arguments, the
engine decides everything (validation R8, scoring R3–R6, places R7), this
module only lays the result out as text or JSON. Refused input exits with
status 2 and one ``error: …`` line per problem on stderr; so do usage errors,
in argparse's words after the command's usage line.

argparse rather than click: importing click alone took more CPU than the
plain reference scorer's whole process (``bench/cli_vs_reference.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn, TextIO

from scorekeeper.engine import GameErrors, Row, ScoreSheet, score_game_dict
from scorekeeper.words import ENGLISH

#: Exit status for input the scorer refuses (the same as argparse's usage errors).
EXIT_INVALID_INPUT = 2


def main(argv: Sequence[str] | None = None) -> None:
    """Run one command: *argv*, else the process's arguments.

    Exits with status 2 for a usage error (argparse) or refused input, 1 for
    an output file that cannot be written or a reader that went away (``… |
    head``), 130 on Ctrl-C.
    """
    args = _parser().parse_args(argv)
    try:
        args.run(args)
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    except BrokenPipeError:
        # Python's last flush of stdout would fail again: point it at nothing.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(1) from None


def score(args: argparse.Namespace) -> None:
    """Score the game in FILE (a JSON game file; - reads standard input).

    The file holds {"ruleset": "pocket", "players": [{"name": …, "kingdom":
    4 rows of 4 card ids, "legends": [Legend ids]}, …]}.
    """
    data = _read_json(args.file)
    try:
        sheet = score_game_dict(data)
    except GameErrors as errors:
        _refuse(ENGLISH.errors(errors))
    if args.output_format == "json":
        print(json.dumps(ENGLISH.sheet(sheet), indent=2, ensure_ascii=False))
    else:
        print(format_sheet(sheet, explain=args.explain))


def export_games(args: argparse.Namespace) -> None:
    """Write saved games as JSON game files ({"games": [...]}) or CSV.

    Uses the app's database: SCOREKEEPER_DATABASE_URL / DATABASE_URL, else the
    SQLite file in the instance folder.
    """
    from .store import games as store
    from .store.exchange import csv_chunks, game_file, history_json_chunks

    chunks: Iterable[str]
    with _database():
        if args.public_id:
            saved = store.find_game(args.public_id)
            if saved is None:
                _refuse([f"no saved game with id {args.public_id!r}"])
            if args.output_format == "csv":
                chunks = csv_chunks([saved])
            else:
                chunks = [json.dumps(game_file(saved), indent=2, ensure_ascii=False) + "\n"]
        else:  # streamed: however many games, never all in memory
            games = store.all_games()
            chunks = csv_chunks(games) if args.output_format == "csv" else history_json_chunks(games)
        with _output(args.output) as output:  # a file is made only once there is something to write
            output.writelines(chunks)


def import_file(args: argparse.Namespace) -> None:
    """Store the game file FILE (or a whole exported history) as saved games.

    The games go into the group --group ID, else into a new group named after
    the file (`scorekeeper groups --base-url URL` prints its invite link).
    Prints each game's read-only and private path. All or nothing: one refused
    game stores none (exit status 2, one error line per problem).
    """
    from .store import groups as store_groups
    from .store.exchange import import_games

    data = _read_json(args.file)
    with _database():
        if args.group_id:
            group = store_groups.find_group(args.group_id)
            if group is None:
                _refuse([f"no group with id {args.group_id!r} (see scorekeeper groups)"])
        else:
            name = "Imported" if args.file == "-" else f"Imported from {args.file.rsplit('/', 1)[-1]}"
            group, _ = store_groups.create_group(name[: store_groups.MAX_GROUP_NAME], commit=False, invite=False)
        try:
            stored = import_games(data, group=group)
        except GameErrors as errors:
            _refuse(ENGLISH.errors(errors))
        print(f"group: {group.name} (id {group.public_id})")
        for saved, secret in stored:
            names = ", ".join(r.name for r in saved.results)
            print(f"saved {saved.played_on} {names}")
            print(f"  read-only: /g/{saved.public_id}")
            print(f"  private:   /g/{saved.public_id}/{secret}")


def list_groups(args: argparse.Namespace) -> None:
    """List the groups with their games, players and invite links.

    Only a hash of each invite secret is stored, so a link is printed when it
    is issued: for a group that has none yet (the one the migration to groups
    made of the games saved before it) and for each --new-link ID, given the
    app's address (--base-url); without it a group with no link yet is listed
    as such. Members find their group's link on its page in the app.
    """
    from .store import groups as store_groups

    base_url: str | None = args.base_url or os.environ.get("SCOREKEEPER_BASE_URL")
    new_links: list[str] = args.new_links
    with _database():
        summaries = store_groups.all_groups()
        unknown = set(new_links) - {s.group.public_id for s in summaries}
        if unknown:
            _refuse([f"no group with id {public_id!r}" for public_id in sorted(unknown)])
        if new_links and not base_url:
            _refuse(["--base-url URL is needed to print invite links (or set SCOREKEEPER_BASE_URL)"])
        issuing = [s for s in summaries if not s.group.invite_hash or s.group.public_id in new_links]
        if not summaries:
            print("no groups yet (the first game saved in the app starts one)")
        for summary in summaries:
            group = summary.group
            print(
                f"{group.name}  (id {group.public_id}, {_count(summary.games, 'game')},"
                f" {_count(summary.players, 'player')}, since {group.created_at:%Y-%m-%d})"
            )
            if summary in issuing and not base_url:
                print("  invite link: none yet (give --base-url URL, or set SCOREKEEPER_BASE_URL, to issue it)")
            elif summary in issuing:
                secret = store_groups.new_invite(group)
                print(f"  invite link: {base_url.rstrip('/') if base_url else ''}/join/{group.public_id}/{secret}")
            else:
                print(f"  invite link: on the group's page on its members' phones (--new-link {group.public_id})")


def _count(number: int, noun: str) -> str:
    """``"1 game"``, ``"3 games"``: the command line speaks English only."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


class _Version(argparse.Action):
    """``--version``: the installed package's version, read only when asked
    (importlib.metadata would cost every ``score`` its import)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, argparse.SUPPRESS, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: Any, values: Any, option: str | None = None) -> None:
        from importlib.metadata import version

        print(f"scorekeeper {version('scorekeeper')}")
        parser.exit()


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help 80 columns wide, its descriptions' paragraphs as written.

    A fixed width because argparse makes a formatter for every argument added,
    and one left to ask the terminal imports shutil (bz2, lzma …): a tenth of
    a whole ``score`` process.
    """

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=80)


def _parser() -> argparse.ArgumentParser:
    """The program's parser: one sub-parser per command, each naming its function (``run``)."""
    top = argparse.ArgumentParser(
        prog="scorekeeper", description="Score sheets for DRAKO: Aetherya Pocket.", formatter_class=_HelpFormatter
    )
    top.add_argument("--version", action=_Version, help="show the version and exit")
    commands = top.add_subparsers(title="commands", metavar="COMMAND", required=True)

    def command(name: str, run: Callable[[argparse.Namespace], None]) -> argparse.ArgumentParser:
        description = "\n".join(line.strip() for line in (run.__doc__ or "").strip().splitlines())
        summary = description.partition("\n")[0]
        parser = commands.add_parser(name, help=summary, description=description, formatter_class=_HelpFormatter)
        parser.set_defaults(run=run)
        return parser

    def output_format(parser: argparse.ArgumentParser, choices: list[str], meaning: str) -> None:
        """``--format``, the first of *choices* by default."""
        parser.add_argument(
            "--format",
            dest="output_format",
            choices=choices,
            default=choices[0],
            help=f"{meaning}; default: %(default)s",
        )

    parser = command("score", score)
    parser.add_argument("file", metavar="FILE", help="the game file (- reads standard input)")
    output_format(parser, ["text", "json"], "a plain-text sheet, or the sheet as JSON (players in input order)")
    parser.add_argument("--explain", action="store_true", help="list the cards behind every row (text format)")

    parser = command("export", export_games)
    output_format(parser, ["json", "csv"], "game files as JSON, or one CSV line per player and game")
    parser.add_argument(
        "--game", dest="public_id", metavar="ID", help="only this saved game (the id in its read-only link)"
    )
    parser.add_argument("-o", "--output", metavar="FILE", default="-", help="file to write (default: standard output)")

    parser = command("import", import_file)
    parser.add_argument("file", metavar="FILE", help="a game file or an exported history (- reads standard input)")
    parser.add_argument(
        "--group", dest="group_id", metavar="ID", help="put the games in this group (its id from `scorekeeper groups`)"
    )

    parser = command("groups", list_groups)
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="the address people open the app at (https://drako.example.org), for the invite links;"
        " default: SCOREKEEPER_BASE_URL",
    )
    parser.add_argument(
        "--new-link",
        dest="new_links",
        metavar="ID",
        action="append",
        default=[],
        help="replace this group's invite link (its id as listed); phones that joined with the old one must open"
        " the new; may be given more than once",
    )
    return top


@contextmanager
def _database():
    """An app context on the app's database, its connections closed afterwards."""
    from . import create_app
    from .store import db

    with create_app().app_context():
        try:
            yield
        finally:
            db.session.remove()
            db.engine.dispose()


def _read_json(path: str) -> object:
    """The JSON in the file at *path* (``-``: standard input), UTF-8 after a
    byte-order mark if there is one; else exit 2 with a message saying why not."""
    source = "standard input" if path == "-" else path
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as file:
                data = file.read()
    except OSError as error:
        _refuse([f"cannot open {path!r}: {error.strerror}"])
    try:
        return json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        _refuse([f"{source} is not UTF-8 text"])
    except json.JSONDecodeError as error:
        _refuse([f"{source} is not valid JSON: {error}"])
    except RecursionError:
        _refuse([f"{source} is nested too deeply to be a game file"])
    except ValueError as error:  # e.g. an integer too long to convert
        _refuse([f"{source} is not a readable game file: {error}"])


@contextmanager
def _output(path: str) -> Iterator[TextIO]:
    """The UTF-8 text stream to write to: standard output for ``-``, else the
    file at *path*, made or emptied now (exit 1 if it cannot be)."""
    if path == "-":
        reconfigure = getattr(sys.stdout, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8")
        yield sys.stdout
        sys.stdout.flush()
        return
    try:
        file = open(path, "w", encoding="utf-8")
    except OSError as error:
        raise SystemExit(f"error: cannot write {path!r}: {error.strerror}") from None
    with file:
        yield file


def _refuse(messages: list[str]) -> NoReturn:
    for message in messages:
        print(f"error: {message}", file=sys.stderr)
    raise SystemExit(EXIT_INVALID_INPUT)


def _columns(text: str) -> int:
    """How many terminal columns *text* takes: an emoji or a CJK character two."""
    if text.isascii():  # names are free of control characters (R8): one column each
        return len(text)
    from wcwidth import wcswidth  # its tables cost a third of a `score` run: only for other scripts

    width = wcswidth(text)
    return width if width >= 0 else len(text)


def format_sheet(sheet: ScoreSheet, *, explain: bool = False) -> str:
    """The score sheet as plain text: one column per player (input order),
    the seven rows, Total and Place, then winners, tiebreak notes (R7.5),
    deck warnings (R1) and, with *explain*, the cards behind every row."""
    words = ENGLISH
    names = [result.player.name for result in sheet.results]
    label_width = max(len(words.row(row)) for row in Row)
    widths = [max(_columns(name), 5) for name in names]

    def line(label: str, cells: list[str]) -> str:
        padded = "  ".join(" " * (width - _columns(cell)) + cell for cell, width in zip(cells, widths, strict=True))
        return f"{label.ljust(label_width)}  {padded}".rstrip()

    lines = [f"DRAKO: Aetherya Pocket score sheet ({words.ruleset(sheet.game.ruleset)} rules)", ""]
    lines.append(line("", names))
    for row in Row:
        lines.append(line(words.row(row), [str(result.rows[row]) for result in sheet.results]))
    lines.append("-" * len(line("", names)))
    lines.append(line("Total", [str(result.total) for result in sheet.results]))
    lines.append(line("Place", [str(result.place) for result in sheet.results]))
    lines.append("")

    winners = [result.player.name for result in sheet.winners]
    if len(winners) == 1:
        lines.append(f"Winner: {winners[0]}")
    else:
        lines.append(f"Winners (shared): {', '.join(winners)}")
    notes = [words.tiebreak(sheet, t) for t in sheet.tiebreaks]
    notes += [words.shared(sheet, group) for group in sheet.shared]
    lines.extend(f"Tiebreak: {note}" for note in notes)
    lines.extend(f"Warning: {words.warning(warning)}" for warning in sheet.warnings)

    if explain:
        for result in sheet.results:
            lines += ["", f"{result.player.name}: {result.total}"]
            for row in Row:
                lines.append(f"  {words.row(row)} {result.rows[row]}")
                lines.extend(f"    {sentence}" for sentence in words.explain(result.score, row))
    return "\n".join(lines)

"""Command line: ``scorekeeper score GAME.json`` prints the score sheet.

Thin on purpose: click reads the arguments, the engine decides everything
(validation R8, scoring R3–R6, places R7), this module only lays the result out
as text or JSON. Refused input exits with status 2 and one ``error: …`` line
per problem on stderr.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from typing import NoReturn, TextIO

import click

from scorekeeper.engine import GameErrors, Row, ScoreSheet, score_game_dict
from scorekeeper.words import ENGLISH

#: Exit status for input the scorer refuses (the same as click's usage errors).
EXIT_INVALID_INPUT = 2


@click.group()
def main() -> None:
    """Score sheets for DRAKO: Aetherya Pocket."""


@main.command()
@click.argument("file", type=click.File("r", encoding="utf-8-sig"))
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="A plain-text sheet, or the sheet as JSON (players in input order).",
)
@click.option("--explain", is_flag=True, help="List the cards behind every row (text format).")
@click.pass_context
def score(ctx: click.Context, file: TextIO, output_format: str, explain: bool) -> None:
    """Score the game in FILE (a JSON game file; - reads standard input).

    The file holds {"ruleset": "pocket", "players": [{"name": …, "kingdom":
    4 rows of 4 card ids, "legends": [Legend ids]}, …]}.
    """
    data = _read_json(ctx, file)
    try:
        sheet = score_game_dict(data)
    except GameErrors as errors:
        _refuse(ctx, ENGLISH.errors(errors))
    if output_format == "json":
        click.echo(json.dumps(ENGLISH.sheet(sheet), indent=2, ensure_ascii=False))
    else:
        click.echo(format_sheet(sheet, explain=explain))


@main.command("export")
@click.option("--format", "output_format", type=click.Choice(["json", "csv"]), default="json", show_default=True)
@click.option("--game", "public_id", metavar="ID", help="Only this saved game (the id in its read-only link).")
@click.option(
    "-o", "--output", type=click.File("w", encoding="utf-8"), default="-", help="File to write (default: stdout)."
)
@click.pass_context
def export_games(ctx: click.Context, output_format: str, public_id: str | None, output: TextIO) -> None:
    """Write saved games as JSON game files ({"games": [...]}) or CSV.

    Uses the app's database: SCOREKEEPER_DATABASE_URL / DATABASE_URL, else the
    SQLite file in the instance folder.
    """
    from .store import games as store
    from .store.exchange import csv_chunks, game_file, history_json_chunks

    with _database():
        if public_id:
            saved = store.find_game(public_id)
            if saved is None:
                _refuse(ctx, [f"no saved game with id {public_id!r}"])
            assert saved is not None  # _refuse exits
            if output_format == "csv":
                output.writelines(csv_chunks([saved]))
            else:
                output.write(json.dumps(game_file(saved), indent=2, ensure_ascii=False) + "\n")
        else:  # streamed: however many games, never all in memory
            games = store.all_games()
            output.writelines(csv_chunks(games) if output_format == "csv" else history_json_chunks(games))


@main.command("import")
@click.argument("file", type=click.File("r", encoding="utf-8-sig"))
@click.option(
    "--group", "group_id", metavar="ID", help="Put the games in this group (its id from `scorekeeper groups`)."
)
@click.pass_context
def import_file(ctx: click.Context, file: TextIO, group_id: str | None) -> None:
    """Store the game file FILE (or a whole exported history) as saved games.

    The games go into the group --group ID, else into a new group named after
    the file (`scorekeeper groups --base-url URL` prints its invite link).
    Prints each game's read-only and private path. All or nothing: one refused
    game stores none (exit status 2, one error line per problem).
    """
    from .store import groups as store_groups
    from .store.exchange import import_games

    data = _read_json(ctx, file)
    with _database():
        if group_id:
            group = store_groups.find_group(group_id)
            if group is None:
                _refuse(ctx, [f"no group with id {group_id!r} (see scorekeeper groups)"])
        else:
            source = getattr(file, "name", "<stdin>")
            name = "Imported" if source == "<stdin>" else f"Imported from {source.rsplit('/', 1)[-1]}"
            group, _ = store_groups.create_group(name[: store_groups.MAX_GROUP_NAME], commit=False, invite=False)
        try:
            stored = import_games(data, group=group)
        except GameErrors as errors:
            _refuse(ctx, ENGLISH.errors(errors))
        click.echo(f"group: {group.name} (id {group.public_id})")
        for saved, secret in stored:
            names = ", ".join(r.name for r in saved.results)
            click.echo(f"saved {saved.played_on} {names}")
            click.echo(f"  read-only: /g/{saved.public_id}")
            click.echo(f"  private:   /g/{saved.public_id}/{secret}")


@main.command("groups")
@click.option(
    "--base-url",
    envvar="SCOREKEEPER_BASE_URL",
    metavar="URL",
    help="The address people open the app at (https://drako.example.org), for the invite links.",
)
@click.option(
    "--new-link",
    "new_links",
    metavar="ID",
    multiple=True,
    help="Replace this group's invite link (its id as listed); phones that joined with the old one must open the new.",
)
@click.pass_context
def list_groups(ctx: click.Context, base_url: str | None, new_links: tuple[str, ...]) -> None:
    """List the groups with their games, players and invite links.

    Only a hash of each invite secret is stored, so a link is printed when it
    is issued: for a group that has none yet (the one the migration to groups
    made of the games saved before it) and for each --new-link ID. Members
    find their group's link on its page in the app.
    """
    from .store import groups as store_groups

    with _database():
        summaries = store_groups.all_groups()
        unknown = set(new_links) - {s.group.public_id for s in summaries}
        if unknown:
            _refuse(ctx, [f"no group with id {public_id!r}" for public_id in sorted(unknown)])
        issuing = [s for s in summaries if not s.group.invite_hash or s.group.public_id in new_links]
        if issuing and not base_url:
            _refuse(ctx, ["--base-url URL is needed to print invite links (or set SCOREKEEPER_BASE_URL)"])
        if not summaries:
            click.echo("no groups yet (the first game saved in the app starts one)")
        for summary in summaries:
            group = summary.group
            click.echo(
                f"{group.name}  (id {group.public_id}, {summary.games} games, {summary.players} players,"
                f" since {group.created_at:%Y-%m-%d})"
            )
            if summary in issuing:
                secret = store_groups.new_invite(group)
                click.echo(f"  invite link: {base_url.rstrip('/') if base_url else ''}/join/{group.public_id}/{secret}")
            else:
                click.echo(f"  invite link: on the group's page on its members' phones (--new-link {group.public_id})")


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


def _read_json(ctx: click.Context, file: TextIO) -> object:
    """The JSON in *file*, or exit 2 with a message saying why it is not JSON."""
    name = getattr(file, "name", "<stdin>")  # a piped stream may have no name
    source = "standard input" if name == "<stdin>" else name
    try:
        return json.loads(file.read())
    except UnicodeDecodeError:
        _refuse(ctx, [f"{source} is not UTF-8 text"])
    except json.JSONDecodeError as error:
        _refuse(ctx, [f"{source} is not valid JSON: {error}"])
    except RecursionError:
        _refuse(ctx, [f"{source} is nested too deeply to be a game file"])
    except ValueError as error:  # e.g. an integer too long to convert
        _refuse(ctx, [f"{source} is not a readable game file: {error}"])


def _refuse(ctx: click.Context, messages: list[str]) -> NoReturn:
    for message in messages:
        click.echo(f"error: {message}", err=True)
    ctx.exit(EXIT_INVALID_INPUT)


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

"""Templates only render (issue 25, item 4): views, and the page helpers they call, compute
what a page shows; no template calls the engine, a query or anything that scores. The
test walks the project's Jinja globals and every call in every template."""

from __future__ import annotations

from pathlib import Path

import jinja2
from jinja2 import nodes

from scorekeeper.web.sheet_page import SHEET_HELPERS

ROOT = Path(__file__).resolve().parents[2]

#: What Flask, Jinja and the extensions give every template (not the project's).
GIVEN = set(jinja2.Environment(extensions=["jinja2.ext.i18n"]).globals) | {
    "url_for", "get_flashed_messages", "config", "request", "session", "g",  # Flask
    "csrf_token", "csrf_meta_tag",  # Flask-WTF
    "csp_nonce",  # Flask-Talisman
    "format_date", "format_percent",  # Flask-Babel's, by name
    "gettext", "ngettext", "pgettext", "npgettext", "_",  # the catalogue's words
}  # fmt: skip

#: The project's globals: each writes or formats what it is given, reads nothing, scores nothing.
RENDERS_ONLY = {
    "CARDS": "the ten card types, in order",
    "KEY_OF": "each card's key letter",
    "LANGUAGES": "the languages offered",
    "Row": "the sheet's rows (an enum)",
    "GROUP_CHOICE_SLOT": "a marker the phone's own part replaces (web.phone_parts.fill)",
    "ROSTER_SLOT": "a marker the phone's own part replaces (web.phone_parts.fill)",
    "bold_names": "names in bold, joined in words",
    "isolated": "a name between Unicode's isolates, for an attribute",
    "card_code": "a card's code in the page's language",
    "card_name": "a card's name in the page's language",
    "card_short": "a card's name on a palette button",
    "card_symbol": "a card's symbol",
    "current_language": "the page's language",
    "language_url": "this page's address in another language",
    "legend_name": "a Legend's name",
    "legend_requirement": "what a Legend needs, in words",
    "place": "a place in words (1st, 2.)",
    "harmony_points": "a total in words with its plural form (1 Harmony Point)",
    "format_decimal": "a number in the page's language, never a negative zero",
    "row_name": "a row's name",
    "ruleset_name": "a ruleset's name",
    "signed": "a number with its sign",
    "csv_separator": "the CSV separator of the page's language",
    "key_text": "a game's history key as text, for a pager link (formats the key given)",
}

#: Helpers a view passes in its context (game_form): they read the form they are given.
VIEW_HELPERS = {
    "cell_code": "what a cell box shows for a card id",
    "player_has_errors": "whether a player's panel has refusals",
    "player_name": "a panel's name as typed, or 'Player 2'",
    "player_problems": "a panel's refusals, as sentences",
}

#: Where what scores or reads the database lives: nothing of these is a template's to call.
SCORES_OR_QUERIES = ("scorekeeper.engine", "scorekeeper.store", "scorekeeper.table", "scorekeeper.web.preview")


def project_globals(app) -> dict[str, object]:
    return {name: value for name, value in app.jinja_env.globals.items() if name not in GIVEN}


def test_every_global_of_the_templates_only_renders(app):
    found = project_globals(app)
    assert set(found) - set(RENDERS_ONLY) == set(), "a new global: does it only render? then list it here"
    assert set(RENDERS_ONLY) - set(found) == set(), "a global gone: take it off the list"
    for name, value in found.items():
        module = getattr(value, "__module__", "") or ""
        if callable(value) and not isinstance(value, type) and name != "key_text":
            assert not module.startswith(SCORES_OR_QUERIES), f"{name} comes from {module}"


def test_the_sheets_helpers_only_render():
    """What the sheet's templates get with their context (web.sheet_page.SHEET_HELPERS) writes
    what it is given: nothing of it comes from the engine, the store, the table or the preview."""
    for name, value in SHEET_HELPERS.items():
        module = getattr(value, "__module__", "") or ""
        assert not module.startswith(SCORES_OR_QUERIES), f"{name} comes from {module}"


def test_no_template_calls_what_scores_or_queries(app):
    """Every call in every template is of a macro, a global that only renders, or a method
    of what the view passed (a form field, a string): never the engine, a query or a preview."""
    allowed = (
        set(RENDERS_ONLY)
        | set(VIEW_HELPERS)
        | set(SHEET_HELPERS)
        | GIVEN
        | {"caller", "super", "range", "dict", "cycler", "joiner"}
    )
    templates = sorted((ROOT / "templates").rglob("*.html"))
    assert len(templates) > 20
    for path in templates:
        tree = app.jinja_env.parse(path.read_text(encoding="utf-8"))
        own = {macro.name for macro in tree.find_all(nodes.Macro)}
        imported = {n if isinstance(n, str) else n[1] for node in tree.find_all(nodes.FromImport) for n in node.names}
        # what a loop walks is the view's (a form's fields: `choice()` renders one)
        targets = [loop.target for loop in tree.find_all(nodes.For)]
        bound = {
            name.name
            for target in targets
            for name in [target, *target.find_all(nodes.Name)]
            if isinstance(name, nodes.Name)
        }
        for call in tree.find_all(nodes.Call):
            if isinstance(call.node, nodes.Name):
                name = call.node.name
                assert name in allowed | own | imported | bound, f"{path.relative_to(ROOT)} calls {name}"

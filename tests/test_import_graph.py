"""The package's import graph: no module imports another in a circle, no
module imports one on a floor above its own (:data:`LAYERS`), no blueprint
imports from another blueprint's module (shared pieces such as the game form
and the sheet page have modules of their own), and the shared table's rooms
import no web stack.

The graph is read from the source with ``ast``: every ``import`` and
``from … import`` statement, also those inside functions, relative ones
resolved against the importing module's package.
"""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"

#: The package's floors, bottom to top (docs/architecture.md): a module imports modules of its
#: own floor and the floors below, never one above. A module is on the floor of the longest
#: name here that is the module or a package holding it, so a module not named stands with its
#: package (``scorekeeper``: the app factory, on the top floor with every module not placed).
LAYERS: tuple[tuple[str, ...], ...] = (
    # plain values and rules, no Flask and no database: the game, its words, look-alike names, the table's model
    ("scorekeeper.engine", "scorekeeper.words", "scorekeeper.lookalikes", "scorekeeper.table.model"),
    # the rows: SQLAlchemy models and queries
    ("scorekeeper.store",),
    # the services: the only code that changes a table, and where it publishes each change
    ("scorekeeper.table",),
    # the app factory, the web layer (blueprints, the stream), the command line
    ("scorekeeper", "scorekeeper.web", "scorekeeper.cli"),
)

#: Top-level packages of the web stack, none of which the table's rooms import.
WEB_STACK = {"flask", "flask_socketio", "socketio", "engineio", "werkzeug", "jinja2", "flask_babel", "flask_wtf"}


def module_files(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of *package* by dotted name (a package by its own name, not ``….__init__``)."""
    modules = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def imported_modules(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of the package that module *name* (at *path*) imports, anywhere in its code.

    ``from a import b`` counts as importing ``a.b`` when that is a module,
    otherwise as importing ``a`` (``b`` is then a name defined there)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                found.add(submodule if submodule in modules else source)
    return {imported for imported in found if imported in modules and imported != name}


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Module → the package's modules it imports."""
    modules = module_files(package)
    return {name: imported_modules(name, path, modules) for name, path in modules.items()}


def with_packages(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """*graph* with the packages each import runs too: importing ``a.b.c`` runs ``a.b``'s
    ``__init__`` first (and ``a``'s), unless the importer is inside it (then it runs already)."""
    found = {}
    for name, imported in graph.items():
        found[name] = set(imported)
        for module in imported:
            parts = module.split(".")
            for end in range(1, len(parts)):
                package = ".".join(parts[:end])
                if package in graph and not (name == package or name.startswith(package + ".")):
                    found[name].add(package)
    return found


def floor(module: str, layers: tuple[tuple[str, ...], ...] = LAYERS) -> int:
    """The floor (index into *layers*) of *module*: that of the longest name that is it or holds it;
    a module under no name is on the top floor."""
    best, level = "", len(layers) - 1
    for index, names in enumerate(layers):
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > len(best):
                best, level = name, index
    return level


def imports_up(graph: dict[str, set[str]], layers: tuple[tuple[str, ...], ...] = LAYERS) -> list[tuple[str, str]]:
    """Every (importer, imported) of *graph* whose imported module, or a package its import
    runs (:func:`with_packages`), is on a floor above the importer's, sorted."""
    return sorted(
        (name, other)
        for name, imported in with_packages(graph).items()
        for other in imported
        if floor(other, layers) > floor(name, layers)
    )


def external_imports(path: Path) -> set[str]:
    """The top-level names of what the module at *path* imports from outside the package."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.partition(".")[0])
    return found - {"scorekeeper"}


def blueprint_modules(package: Path = PACKAGE) -> set[str]:
    """The modules that define a Flask blueprint (``Blueprint(`` called at module level)."""
    found = set()
    for name, path in module_files(package).items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            value = getattr(node, "value", None)
            if isinstance(value, ast.Call) and getattr(value.func, "id", None) == "Blueprint":
                found.add(name)
    return found


def test_the_graph_reader_sees_imports_in_functions_and_relative_ones():
    graph = import_graph()
    assert "scorekeeper.store" in graph["scorekeeper"]  # inside create_app, relative
    assert "scorekeeper.web.sheets.views" in graph["scorekeeper.web"]  # inside init_app
    assert "scorekeeper.engine" in graph["scorekeeper.cli"]  # absolute
    assert blueprint_modules() >= {
        "scorekeeper.web.sheets.views",
        "scorekeeper.web.games.views",
        "scorekeeper.web.api.views",
    }


def test_no_module_imports_in_a_circle():
    try:
        graphlib.TopologicalSorter(import_graph()).prepare()
    except graphlib.CycleError as circle:
        pytest.fail("modules import each other in a circle: " + " → ".join(circle.args[1]))


def test_no_module_imports_one_on_a_floor_above_its_own():
    assert imports_up(import_graph()) == [], "an import runs up a floor (LAYERS, docs/architecture.md)"


def test_the_floor_check_finds_an_import_up_a_floor_and_one_into_a_package_above(tmp_path):
    # A package of five modules: "low" imports "high" (a floor up), "mid" imports
    # "rooms.plain" (its own floor is the bottom, but importing it runs "rooms", above
    # "mid"); "high" imports "low" and "rooms.plain" imports nothing (both fine).
    package = tmp_path / "pkg"
    (package / "rooms").mkdir(parents=True)
    for name, text in {
        "__init__.py": "",
        "low.py": "from .high import WORD\n",
        "high.py": "WORD = 1\n\n\ndef later():\n    from . import low\n",
        "mid.py": "from pkg.rooms.plain import VALUE\n",
        "rooms/__init__.py": "",
        "rooms/plain.py": "VALUE = 2\n",
    }.items():
        (package / name).write_text(text)
    layers = (("pkg.low", "pkg.rooms.plain"), ("pkg.mid",), ("pkg.rooms", "pkg.high"), ("pkg",))
    graph = import_graph(package)
    assert graph["pkg.high"] == {"pkg.low"} and graph["pkg.mid"] == {"pkg.rooms.plain"}
    names = ("pkg.low", "pkg.rooms.plain", "pkg.mid", "pkg.rooms", "pkg")
    assert [floor(name, layers) for name in names] == [0, 0, 1, 2, 3]
    assert imports_up(graph, layers) == [("pkg.low", "pkg.high"), ("pkg.mid", "pkg.rooms")]
    assert imports_up(graph, (("pkg",),)) == []  # one floor: nothing runs up


def test_the_tables_rooms_import_no_web_stack():
    # The model, the service and its events are the web layer's to use, never the other way:
    # the stream (Socket.IO) and every request's objects live in scorekeeper/web/.
    rooms = {
        name: sorted(external_imports(path) & WEB_STACK)
        for name, path in module_files().items()
        if name.startswith(("scorekeeper.table", "scorekeeper.engine")) or name == "scorekeeper.words"
    }
    assert "scorekeeper.table.events" in rooms and "scorekeeper.table.service" in rooms
    assert {name: found for name, found in rooms.items() if found} == {}


def test_no_blueprint_imports_from_another_blueprint():
    graph, blueprints = import_graph(), blueprint_modules()
    crossings = sorted((name, other) for name in blueprints for other in graph[name] & blueprints)
    assert crossings == [], "a blueprint imports from another blueprint's module (move the shared piece out)"

"""The package's import graph: no module imports another in a circle, and no
blueprint imports from another blueprint's module (shared pieces such as the
game form and the sheet page have modules of their own).

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


def test_no_blueprint_imports_from_another_blueprint():
    graph, blueprints = import_graph(), blueprint_modules()
    crossings = sorted((name, other) for name in blueprints for other in graph[name] & blueprints)
    assert crossings == [], "a blueprint imports from another blueprint's module (move the shared piece out)"

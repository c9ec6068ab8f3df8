"""The package's layout, checked by reading the source (issue 15 items 3 and 4).

* The layers around the games (server/, web/, rl/, agents/, arena/, terminal.py, cli.py)
  import no module of a game: everything they need comes from the registry's
  ``GameInfo`` and its typed ``GamePlugin``.
* The modules import each other without cycles, inside the games and across the
  package. Every import counts: at the top of a module, inside a function, at the
  bottom of a file. Only imports under ``if TYPE_CHECKING:`` (never run) are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import mayagames
from mayagames.core import registry

SRC = Path(mayagames.__file__).parent
OUTER_LAYERS = ("mayagames.server", "mayagames.web", "mayagames.rl", "mayagames.agents",
                "mayagames.arena", "mayagames.terminal", "mayagames.cli")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in SRC.rglob("*.py")}


def _type_checking_only(tree: ast.AST) -> set[int]:
    """ids of import nodes inside ``if TYPE_CHECKING:`` blocks."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return skip


def imports_of(name: str) -> set[str]:
    """The package modules ``name`` imports (anywhere in it but TYPE_CHECKING blocks)."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_only(tree)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package[:len(package) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in MODULES else base)
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: imports_of(name) for name in MODULES}


def game_packages() -> set[str]:
    """The games' modules: every registered game's package (a test game may be a module)."""
    return set(registry.BUILTIN.values()) | set(registry.TEST_GAMES.values()) | {
        "mayagames.core.toy_heuristic", "mayagames.core.toy_encoding"}


def is_game_module(name: str) -> bool:
    return any(name == g or name.startswith(g + ".") for g in game_packages())


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), and self-loops."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


@pytest.mark.parametrize("layer", OUTER_LAYERS)
def test_outer_layers_import_no_game_internals(layer):
    offenders = {name: sorted(m for m in deps if is_game_module(m))
                 for name, deps in GRAPH.items()
                 if name == layer or name.startswith(layer + ".")}
    offenders = {k: v for k, v in offenders.items() if v}
    assert not offenders, f"{layer} imports game modules: {offenders}"


@pytest.mark.parametrize("game", ["mayagames.tikal", "mayagames.tzolkin"])
def test_no_import_cycles_in_a_game(game):
    inside = {n: {d for d in deps if d.startswith(game)} for n, deps in GRAPH.items()
              if n.startswith(game)}
    assert len(inside) > 10
    assert cycles(inside) == []


def test_no_import_cycles_in_the_package():
    assert cycles(GRAPH) == []


def test_the_checks_see_cycles_and_game_imports():
    """The scanner finds what it must: a cycle in a made-up graph, function-local imports."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert "mayagames.core.registry" in GRAPH["mayagames.web.catalogue"]
    assert is_game_module("mayagames.tikal.rules") and not is_game_module("mayagames.core.game")

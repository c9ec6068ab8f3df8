"""The package's layout, checked by reading the source (issue 15 items 3 and 4).

* The layers around the games (server/, web/, rl/, agents/, arena/, terminal.py, cli.py)
  import no module of a game: everything they need comes from the registry's
  ``GameInfo`` and its typed ``GamePlugin``.
* The modules import each other without cycles, inside the games and across the
  package. Every import counts: at the top of a module, inside a function, at the
  bottom of a file. Only imports under ``if TYPE_CHECKING:`` (never run) are left out.
* The search protocol (issue 25): ``State`` declares ``legal_cached``, ``apply_unchecked``
  and ``playout``; every registered game's state provides them, a game's own version makes
  the moves the declared default makes, and no outer layer reaches them through
  ``getattr``/``hasattr`` as if a state might lack them.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import mayagames
from mayagames.core import new_game, registry
from mayagames.core.game import State
from mayagames.core.rng import Rng

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


# --- the declared search protocol (issue 25) --------------------------------------------
SEARCH_PROTOCOL = ("legal_cached", "apply_unchecked", "playout")
REFLECTION = {"getattr", "hasattr"}


def reflected_protocol_names(name: str) -> list[str]:
    """``getattr(x, "legal_cached" ...)``-like look-ups of a protocol method in module ``name``."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in REFLECTION and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and node.args[1].value in SEARCH_PROTOCOL):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("layer", OUTER_LAYERS)
def test_outer_layers_call_the_declared_protocol_directly(layer):
    offenders = {name: found for name in MODULES
                 if (name == layer or name.startswith(layer + "."))
                 and (found := reflected_protocol_names(name))}
    assert not offenders, f"{layer} looks up declared State methods by name: {offenders}"


def test_the_protocol_check_sees_a_getattr(tmp_path, monkeypatch):
    module = tmp_path / "probe.py"
    module.write_text("def f(s):\n    return getattr(s, 'playout', None)\n", encoding="utf-8")
    monkeypatch.setitem(MODULES, "probe", module)
    assert reflected_protocol_names("probe") == ["line 2: getattr(s, 'playout', None)"]


def test_state_declares_the_search_protocol():
    for method in SEARCH_PROTOCOL:
        assert callable(getattr(State, method)), method
        assert getattr(State, method).__doc__, method


@pytest.mark.parametrize("game", registry.all_game_names())
def test_every_game_state_provides_the_search_protocol(game):
    """Each registered game's state has the declared methods (its own or the defaults), and
    they agree with the plain API: ``legal_cached`` lists ``legal_actions``, ``playout``
    makes the moves the declared default makes with the same draws."""
    info = registry.get_game(game)
    state = new_game(game, info.min_players, seed=11)
    assert isinstance(state, State)
    for method in SEARCH_PROTOCOL:
        assert callable(getattr(state, method)), f"{game}: {method}"
    plies = 0
    while state.current_player is not None and plies < 400:
        assert state.legal_cached() == state.legal_actions()
        own, default = state.clone(), state.clone()
        draws_own, draws_default = random_draws(plies), random_draws(plies)
        made = own.playout(draws_own, 25)
        assert State.playout(default, draws_default, 25) == made
        assert own.to_dict() == default.to_dict(), f"{game}: playout differs after {plies} plies"
        assert draws_own() == draws_default()  # the same number of draws taken
        legal = state.legal_cached()
        state.apply_unchecked(legal[plies * 7 % len(legal)])
        plies += 1
    assert state.current_player is None or plies == 400


def random_draws(seed: int):
    """A generator of floats in [0, 1), as a search's rollouts draw them."""
    rng = Rng(seed)
    return lambda: rng.randbelow(1 << 30) / (1 << 30)


GAME_RULES = ("mayagames.tikal.flow", "mayagames.tzolkin.rules")  # where each keeps its checks


@pytest.mark.parametrize("module", GAME_RULES)
def test_both_games_refuse_with_cores_refusal_type(module):
    """One refusal type (issue 25): each game's legality checks name core's ``Refusal``,
    and no game module declares a refusal type of its own (a ``... = tuple[str, ...]``
    alias or a class named for refusals)."""
    import importlib

    from mayagames.core import errors

    rules = importlib.import_module(module)
    assert rules.Refusal is errors.Refusal
    package = Path(rules.__file__).parent
    for source in sorted(package.glob("*.py")):
        text = source.read_text()
        own = re.findall(r"^(?:class (?:Refusal|Reason)\b|(?:Refusal|Reason) = tuple\[)", text, re.M)
        assert not own, f"{source.name} declares its own refusal type: {own}"


def test_a_refusal_becomes_the_same_illegal_action_in_both_games():
    """A refusal whose reason is written only when asked reads the same as a written one."""
    from mayagames.core.errors import IllegalAction, refused

    written = refused(("6: AP actions", "not enough AP"), "move", "Tikal")
    deferred = refused(("6: AP actions", lambda: "not enough AP"), "move", "Tikal")
    assert isinstance(written, IllegalAction)
    assert (written.rule, written.message) == (deferred.rule, deferred.message) == \
        ("Tikal 6: AP actions", "not enough AP")
    assert str(refused(("Picking up workers", "yours only"), None)) == \
        "illegal action: yours only [Picking up workers]"


# --- the server split by concern (issue 25 item 3) ----------------------------------------
SERVER = SRC / "server"
LONGEST_FUNCTION = 60  # lines, from ``def`` to the last line of the body


def long_functions(root: Path, limit: int = LONGEST_FUNCTION) -> list[str]:
    """Every function or method under ``root`` longer than ``limit`` lines (signature and
    body, decorators left out): ``path:line name (N lines)``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > limit:
                    found.append(f"{path.relative_to(root)}:{node.lineno} {node.name} "
                                 f"({length} lines)")
    return found


def test_no_server_function_is_over_60_lines():
    assert long_functions(SERVER) == []


def test_the_length_check_sees_a_long_method(tmp_path):
    body = "".join(f"        x{i} = {i}\n" for i in range(59))
    (tmp_path / "probe.py").write_text(f"class C:\n    async def long(self):\n{body}"
                                       "        return 0\n\n    def short(self):\n        pass\n")
    assert long_functions(tmp_path) == ["probe.py:2 long (61 lines)"]


#: which paths each router module of server/routes/ may register: its concern's only
ROUTE_CONCERNS = {
    "tables": (r"/api/games(/\{name\}/catalogue)?", r"/api/tables",
               r"/api/tables/\{table_id\}(/(moves|undo|rematch|replay|record))?"),
    "accounts": (r"/api/(accounts|login|logout)", r"/api/me(/password)?"),
    "lobby": (r"/api/me/events", r"/api/quick(/bot)?",
              r"/api/tables/\{table_id\}/(join|claim|resign|seats/\{seat\}/invite)"),
    "ratings": (r"/api/ratings/\{game\}", r"/api/players/\{name\}"),
    "chat": (r"/api/tables/\{table_id\}/chat",),
    "reviews": (r"/api/tables/\{table_id\}/(review|hints?)",),
    "health": (r"/api/health",),
    "socket": (r"/ws/tables/\{table_id\}",),
    "pages": (r"/(?!api/|ws/).*",),
}


def concerns_of(path: str) -> list[str]:
    return [name for name, patterns in ROUTE_CONCERNS.items()
            if any(re.fullmatch(p, path) for p in patterns)]


def routes_of(router) -> list:
    """The routes of a FastAPI app or router, those of included routers too."""
    found = []
    for route in router.routes:
        inner = getattr(route, "original_router", None)  # an included router (FastAPI >= 0.130)
        found.extend(routes_of(inner) if inner is not None else [route])
    return found


def test_each_router_module_registers_only_its_concerns_paths():
    from mayagames.server.routes import MODULES

    assert set(MODULES) == set(ROUTE_CONCERNS)
    for name, module in MODULES.items():
        paths = [route.path for route in module.router.routes]
        assert paths, name
        assert all(concerns_of(path) == [name] for path in paths), \
            (name, [(p, concerns_of(p)) for p in paths if concerns_of(p) != [name]])
    assert concerns_of("/api/tables/{table_id}/chat") == ["chat"]  # the check tells them apart
    assert concerns_of("/api/tables/{table_id}/join") == ["lobby"]


#: the routes typed with a response model, and the model's name
TYPED_ROUTES = {
    ("GET", "/api/health"): "Health",
    ("GET", "/api/games"): "Games",
    ("POST", "/api/accounts"): "AccountAnswer", ("POST", "/api/login"): "AccountAnswer",
    ("POST", "/api/logout"): "Ok", ("GET", "/api/me"): "Me", ("POST", "/api/me/password"): "Ok",
    ("POST", "/api/tables"): "TableCreated", ("GET", "/api/tables"): "TableList",
    ("GET", "/api/tables/{table_id}"): "StateMessage",
    ("POST", "/api/tables/{table_id}/moves"): "StateMessage",
    ("POST", "/api/tables/{table_id}/undo"): "StateMessage",
    ("POST", "/api/tables/{table_id}/rematch"): "Rematch",
    ("GET", "/api/tables/{table_id}/replay"): "FrameMessage",
    ("POST", "/api/tables/{table_id}/join"): "StateMessage",
    ("POST", "/api/tables/{table_id}/claim"): "StateMessage",
    ("POST", "/api/tables/{table_id}/resign"): "StateMessage",
    ("POST", "/api/tables/{table_id}/seats/{seat}/invite"): "Invite",
    ("GET", "/api/quick"): "QuickStatus", ("POST", "/api/quick"): "QuickStatus",
    ("DELETE", "/api/quick"): "QuickStatus", ("POST", "/api/quick/bot"): "QuickStatus",
    ("GET", "/api/ratings/{game}"): "Ladder", ("GET", "/api/players/{name}"): "Profile",
    ("GET", "/api/tables/{table_id}/chat"): "Chat",
    ("POST", "/api/tables/{table_id}/chat"): "ChatLine",
}


def test_openapi_lists_every_api_route_with_the_typed_answers(tmp_path):
    from fastapi.testclient import TestClient

    from mayagames.server import create_app

    app = create_app(f"sqlite:///{tmp_path / 'games.db'}")
    client = TestClient(app)  # no lifespan: the document needs no running service
    answer = client.get("/openapi.json")
    assert answer.status_code == 200
    paths = answer.json()["paths"]
    api = {(method, route.path) for route in routes_of(app.router)
           if route.path.startswith("/api/") for method in getattr(route, "methods", ())
           if method != "HEAD"}
    assert len(api) > 30 and set(TYPED_ROUTES) <= api
    listed = {(method.upper(), path) for path, ops in paths.items() for method in ops}
    assert api - listed == set()
    assert all(path.startswith("/api/") for path in paths)  # pages and sockets are not API
    for (method, path), model in TYPED_ROUTES.items():
        responses = paths[path][method.lower()]["responses"]
        ok = next(code for code in responses if code.startswith("2"))
        schema = responses[ok]["content"]["application/json"]["schema"]
        assert schema.get("$ref") == f"#/components/schemas/{model}", (method, path, schema)
    docs = client.get("/docs")
    assert docs.status_code == 200 and "/openapi.json" in docs.text


# --- the game service and the players' side are split into parts (issue 25 item 3) ------------
#: the facades other code imports; their parts live in the packages below
FACADES = {"mayagames.server.service": "mayagames.server.tables",
           "mayagames.server.players": "mayagames.server.people"}
#: modules a part may import from a part package that is not its own: the shared base and
#: the value types the players' side adds to a new table with (Extension) or lists (labels)
SHARED_PARTS = {"mayagames.server.tables.base", "mayagames.server.tables.creation",
                "mayagames.server.tables.catalogue"}
LONGEST_SERVER_MODULE = 450  # lines
#: modules not split by this issue (storage and the room): each may not grow past today's length
#: (stop 32: db.py +5, playerstore.py -10, the lease SQL shared in db.py)
LONG_MODULES_NOT_SPLIT = {"db.py": 727, "playerstore.py": 793, "rooms.py": 480}


def part_import_offences(graph: dict[str, set[str]]) -> list[str]:
    """Imports that break the split: a part that imports a facade (or the app and routes
    above them), or another part of its own package than ``base``, or a part of the other
    package than the shared ones."""
    packages = tuple(FACADES.values())
    above = (*FACADES, "mayagames.server.app", "mayagames.server.routes")
    found = []
    for name, deps in sorted(graph.items()):
        package = next((p for p in packages if name.startswith(p + ".")), None)
        if package is None:
            continue
        for dep in sorted(deps):
            own = dep.startswith(package + ".")
            other = any(dep.startswith(p + ".") for p in packages) and not own
            if (any(dep == a or dep.startswith(a + ".") for a in above)
                    or (own and dep != f"{package}.base")
                    or (other and dep not in SHARED_PARTS)):
                found.append(f"{name} imports {dep}")
    return found


def long_modules(root: Path) -> list[str]:
    """Modules under ``root`` longer than allowed: ``path (N lines)``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        allowed = LONG_MODULES_NOT_SPLIT.get(str(path.relative_to(root)), LONGEST_SERVER_MODULE)
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > allowed:
            found.append(f"{path.relative_to(root)} ({lines} lines)")
    return found


def test_the_service_parts_import_no_facade_and_meet_through_base():
    for package in FACADES.values():
        assert sum(1 for name in GRAPH if name.startswith(package + ".")) >= 8, package
    assert part_import_offences(GRAPH) == []
    for facade, package in FACADES.items():  # the facades compose their parts
        assert any(dep.startswith(package + ".") for dep in GRAPH[facade]), facade


def test_the_split_check_sees_an_offending_import():
    graph = {"mayagames.server.tables.moves": {"mayagames.server.service",
                                               "mayagames.server.tables.base"},
             "mayagames.server.tables.cache": {"mayagames.server.tables.sync"},
             "mayagames.server.people.chat": {"mayagames.server.tables.moves",
                                              "mayagames.server.tables.creation",
                                              "mayagames.server.people.base"},
             "mayagames.server.people.seats": {"mayagames.server.players"},
             "mayagames.server.quickplay": {"mayagames.server.service"}}
    assert part_import_offences(graph) == [
        "mayagames.server.people.chat imports mayagames.server.tables.moves",
        "mayagames.server.people.seats imports mayagames.server.players",
        "mayagames.server.tables.cache imports mayagames.server.tables.sync",
        "mayagames.server.tables.moves imports mayagames.server.service"]


def test_no_server_module_is_over_450_lines():
    assert long_modules(SERVER) == []


def test_the_module_length_check_sees_a_long_module(tmp_path):
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "long.py").write_text("x = 1\n" * 451, encoding="utf-8")
    (tmp_path / "db.py").write_text("x = 1\n" * 600, encoding="utf-8")  # under its ceiling
    (tmp_path / "short.py").write_text("x = 1\n" * 450, encoding="utf-8")
    assert long_modules(tmp_path) == ["parts/long.py (451 lines)"]


def test_the_players_side_plugs_into_the_typed_hooks(tmp_path):
    """The service's hooks are a :class:`TableHooks`, and the players' side plugs each of
    its callbacks in through it (the lists the service calls)."""
    from mayagames.server.db import Database
    from mayagames.server.players import Players
    from mayagames.server.service import GameService
    from mayagames.server.tables.base import TableFeature, TableHooks

    service = GameService(Database(f"sqlite:///{tmp_path / 'games.db'}"))
    players = Players(service)
    assert isinstance(service.hooks, TableHooks)
    assert service.hooks.on_load == [players.on_load]
    assert service.hooks.on_move == [players.on_move]
    assert service.hooks.on_change == [players.on_change]
    assert service.hooks.on_broadcast == [players.on_broadcast]
    assert service.on_load is service.hooks.on_load  # the facade's names are the same lists
    for method in ("on_load", "on_move", "on_change", "on_broadcast"):
        assert getattr(TableFeature, method).__doc__, method
    service.db_pool.shutdown()
    service.db.dispose()


# --- module roles: one name, one job in both games (issue 25 item 2) ----------------------
OLD_NAMES = {"mayagames.tikal.rules": "mayagames.tikal.flow", "mayagames.tzolkin.frames": "mayagames.tzolkin.flow"}


@pytest.mark.parametrize("game", ["tikal", "tzolkin"])
def test_flow_is_the_forward_model_and_frames_the_index_of_its_kinds(game):
    """``flow.py`` defines the game's decision frames (with ``cards.py`` and ``powers.py`` in
    Tikal); ``frames.py`` maps each kind to its class, every frame class of the package."""
    import importlib
    import inspect

    # a game's sub-decisions (Tikal's phase frames, never on the stack, are not indexed)
    SubDecision = importlib.import_module(f"mayagames.{game}.model").TikalFrame if game == "tikal" \
        else importlib.import_module("mayagames.tzolkin.flow").Frame
    flow = importlib.import_module(f"mayagames.{game}.flow")
    index = importlib.import_module(f"mayagames.{game}.frames").FRAME_CLASSES
    defined = {cls for module in (flow, *(importlib.import_module(f"mayagames.{game}.{m}")
                                          for m in (("cards", "powers") if game == "tikal" else ())))
               for cls in vars(module).values()
               if inspect.isclass(cls) and issubclass(cls, SubDecision) and cls.__module__ == module.__name__
               and not inspect.isabstract(cls) and cls.kind}
    assert any(cls.__module__ == flow.__name__ for cls in defined)
    assert set(index.values()) == defined
    assert all(kind == cls.kind for kind, cls in index.items())


@pytest.mark.parametrize("old, new", OLD_NAMES.items())
def test_old_module_names_re_export_the_same_objects(old, new):
    """Researchers' imports of the first names keep working: the very same objects, private
    names included (a module-level ``_`` name of the new module is there too)."""
    import importlib

    before, after = importlib.import_module(old), importlib.import_module(new)
    names = [name for name in vars(after) if not name.startswith("__")]
    assert len(names) > 50 and any(name.startswith("_") for name in names)
    assert all(getattr(before, name) is getattr(after, name) for name in names)

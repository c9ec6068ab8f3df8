"""The wire schema (issue 25 item 4): declared action kinds, the versioned state and replay
frame messages, their JSON Schema in docs/, and the browser's game modules checked against it.

* every action class declares its own wire name (``KIND``), the names of today (equal to
  the class names, so that records, traces and the browser are unchanged); a subclass
  that declares none is refused, not given its parent's name;
* the kinds a game declares are the action classes of its engine, and random play emits
  no other;
* docs/wire-schema.json is what ``python -m mayagames.server.wire`` writes now;
* real state messages of real games of both games, over HTTP and the WebSocket, from
  several seats and a spectator, terminal positions and replay frames included, validate
  against it;
* every kind the browser's game module compares against is a declared kind of its game,
  every declared kind is handled by it, and every action field it reads is a field of
  the game's actions;
* the WebSocket's other messages (``error``, ``pong``, ``chat``) and the lobby's events
  are in the schema too: every message type and event name the server's code sends is
  declared, real ones from a live session (an illegal move, a stale one, a bad message, an
  unknown table, pings, chat lines of a seat and of the server) validate against the
  models and against the exported document itself, a wrong or missing field is refused,
  and the fields and error codes the browser reads are declared ones.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError as SchemaError
from pydantic import ValidationError

import mayagames
from mayagames.core import new_game, registry
from mayagames.core.game import action_kind, action_to_dict, declared_kinds
from mayagames.core.rng import Rng
from mayagames.core.toy import Swap
from mayagames.server import wire

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_FILE = ROOT / "docs" / "wire-schema.json"
SERVER = Path(mayagames.__file__).parent / "server"
JS = Path(mayagames.__file__).parent / "web" / "static" / "js"
GAMES_JS = Path(mayagames.__file__).parent / "web" / "static" / "games"
ACTION_MODULES = {"tikal": "mayagames.tikal.actions", "tzolkin": "mayagames.tzolkin.actions",
                  "toy": "mayagames.core.toy"}


def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


def schema_kinds(game: str) -> dict[str, dict[str, Any]]:
    """The action kinds docs/wire-schema.json declares for ``game``: kind -> its schema."""
    doc = schema()
    state = doc["$defs"][wire.state_model(registry.get_game(game)).__name__]
    items = state["properties"]["legal"]["items"]
    refs = items["discriminator"]["mapping"] if "discriminator" in items else {
        items["$ref"]: items["$ref"]}
    return {kind: doc["$defs"][ref.split("/")[-1]] for kind, ref in refs.items()}


# --- declared kinds ----------------------------------------------------------------------
@pytest.mark.parametrize("game", sorted(ACTION_MODULES))
def test_every_action_class_declares_its_own_kind(game):
    info = registry.get_game(game)
    for cls in info.actions:
        assert isinstance(vars(cls).get("KIND"), str), f"{cls.__qualname__} declares no KIND"
        # the names of today: records, traces and the browser stay as they were
        assert cls.KIND == cls.__name__
    assert len(declared_kinds(info)) == len(info.actions)


def test_the_test_games_declare_kinds_too(support):
    assert sorted(declared_kinds(support.TALLY_INFO)) == ["Add", "Draw", "End"]
    assert declared_kinds(support.SECRET_INFO) == declared_kinds(registry.get_game("toy"))


def test_a_subclass_without_its_own_kind_is_refused():
    class Renamed(Swap):  # would have been sent as "Renamed" before the declaration
        pass

    assert action_kind(Swap(3)) == "Swap" and action_to_dict(Swap(3))["kind"] == "Swap"
    with pytest.raises(TypeError, match="declares no wire name"):
        action_kind(Renamed(3))
    with pytest.raises(TypeError, match="declares no KIND"):
        declared_kinds(dataclasses.replace(registry.get_game("toy"), actions=(Swap, Renamed)))


def test_two_classes_with_one_kind_are_refused():
    class Other:
        KIND = "Swap"

    with pytest.raises(TypeError, match="both declare the kind 'Swap'"):
        declared_kinds(dataclasses.replace(registry.get_game("toy"), actions=(Swap, Other)))


@pytest.mark.parametrize("game", sorted(ACTION_MODULES))
def test_declared_kinds_are_the_engine_action_classes(game):
    """Every action class the game's actions module defines is declared, and no other."""
    module = __import__(ACTION_MODULES[game], fromlist=["_"])
    defined = {cls for _, cls in inspect.getmembers(module, inspect.isclass)
               if cls.__module__ == module.__name__ and dataclasses.is_dataclass(cls)
               and "__str__" in vars(cls)}
    assert defined and set(registry.get_game(game).actions) == defined


@pytest.mark.parametrize("game, players, games", [("tikal", 2, 6), ("tzolkin", 3, 6), ("toy", 2, 3)])
def test_random_play_emits_only_declared_kinds(game, players, games):
    declared = set(declared_kinds(registry.get_game(game)))
    seen: set[str] = set()
    for seed in range(games):
        state, rng = new_game(game, players, seed=seed), Rng(seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            seen |= {action_kind(a) for a in legal}
            state.apply(legal[rng.randbelow(len(legal))])
    assert seen <= declared
    # Tzolk'in's rarest steps (Theology 2's offering...) need more games than this
    assert len(seen) >= len(declared) - (4 if game == "tzolkin" else 0)


# --- the exported schema ----------------------------------------------------------------
def test_the_schema_file_is_up_to_date():
    """Regenerate with: python -m mayagames.server.wire docs/wire-schema.json"""
    assert SCHEMA_FILE.read_text(encoding="utf-8") == wire.schema_text()


def test_the_schema_is_versioned():
    doc = schema()
    assert doc["version"] == wire.WIRE_SCHEMA
    messages = [doc["$defs"][one["$ref"].split("/")[-1]] for one in doc["oneOf"]]
    of_games = [m for m in messages if "game" in m["properties"]]
    assert len(of_games) == 2 * len(wire.SCHEMA_GAMES)  # a state and a frame per game
    for message in of_games:
        assert message["properties"]["schema"]["const"] == wire.WIRE_SCHEMA
        assert "schema" in message["required"]
    assert {(m["properties"]["type"]["const"], m["properties"]["game"]["const"]) for m in of_games} \
        == {(t, g) for t in ("state", "frame") for g in wire.SCHEMA_GAMES}
    # then one of each message that is the same at every table
    assert [m["properties"]["type"]["const"] for m in messages if m not in of_games] \
        == ["error", "pong", "chat"] == list(wire.TABLE_MODEL_OF_TYPE)


def test_the_schema_is_a_json_schema():
    Draft202012Validator.check_schema(schema())


def sent_types() -> set[str]:
    """The ``type`` of every message the server's code builds: a dict literal that starts
    with ``"type"`` and goes on with the message's fields (ASGI's ``http.*`` and the
    OpenAPI texts' ``{"type": "object"}`` are not messages)."""
    found: set[str] = set()
    for path in SERVER.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r'\{\s*"type": "([a-z_]+)", (?:\*\*|"schema"|"table"|"rid")', text))
    return found


def sent_events() -> set[str]:
    """The name of every server-sent event the server's code tells an account."""
    return {name for path in SERVER.rglob("*.py")
            for name in re.findall(r'tell_account\([^,()]+, "(\w+)"',
                                   path.read_text(encoding="utf-8"))}


def test_every_message_the_server_sends_is_in_the_schema():
    """A new message type (or lobby event) pushed without a model fails here."""
    assert sent_types() == set(wire.MESSAGE_TYPES) == {"state", "frame", "error", "pong", "chat"}
    doc = schema()
    assert {doc["$defs"][one["$ref"].split("/")[-1]]["properties"]["type"]["const"]
            for one in doc["oneOf"]} == set(wire.MESSAGE_TYPES)
    assert sent_events() == set(wire.LOBBY_EVENTS) == set(doc["events"]) == {"tables", "quick"}


@pytest.mark.parametrize("game", wire.SCHEMA_GAMES)
def test_the_schema_declares_the_games_kinds_with_their_fields(game):
    info = registry.get_game(game)
    kinds = schema_kinds(game)
    assert set(kinds) == set(declared_kinds(info))
    for kind, cls in declared_kinds(info).items():
        fields = {f.name for f in dataclasses.fields(cls)}
        assert set(kinds[kind]["properties"]) == fields | {"id", "kind", "text", "settles"}
        assert kinds[kind]["properties"]["kind"]["const"] == kind


def test_a_renamed_field_or_kind_fails_validation():
    """The models are strict: a kind or a field renamed, a number sent as text, another
    schema version, are refused."""
    message = {"type": "state", "schema": wire.WIRE_SCHEMA, "table": "t", "game": "toy",
               "title": "x", "num_players": 2, "options": {}, "seats": [], "seed_fixed": False,
               "seat": 0, "move_number": 0, "current_player": 0, "terminal": False, "view": {},
               "private": False, "log_from": 0, "log": [], "scores": [0, 0], "winners": [],
               "ended": None, "can_undo": False, "rematch": None,
               "legal": [{"id": 0, "kind": "Swap", "card": 3, "text": "swap 3"}]}
    wire.validate_message(message)
    for legal in ({"id": 0, "kind": "Exchange", "card": 3, "text": "swap 3"},
                  {"id": 0, "kind": "Swap", "value": 3, "text": "swap 3"},
                  {"id": 0, "kind": "Swap", "card": "3", "text": "swap 3"}):
        with pytest.raises(ValidationError):
            wire.validate_message({**message, "legal": [legal]})
    with pytest.raises(ValidationError):
        wire.validate_message({**message, "schema": wire.WIRE_SCHEMA + 1})


# --- real messages ------------------------------------------------------------------------
def check(message: dict[str, Any], kind: str = "state") -> dict[str, Any]:
    """``message`` validates against its game's model of its type; returns it."""
    assert message["type"] == kind and message["schema"] == wire.WIRE_SCHEMA
    wire.validate_message(message)
    return message


def seats_read(client: Any, support: Any, data: dict[str, Any]) -> list[dict[str, Any]]:
    """The position as each seat and a spectator get it from GET /api/tables/{id}."""
    table = data["table"]
    tokens = [*data["tokens"].values(), None]
    return [check(client.get(f"/api/tables/{table}", headers=support.bearer(t)).json())
            for t in tokens]


@pytest.mark.parametrize("game, players, seed", [("tikal", 2, 4), ("tzolkin", 3, 5)])
def test_http_messages_validate(client, support, game, players, seed):
    """Forty moves of random choices, each answer checked, and every fifth position as
    each seat and a spectator read it."""
    data = support.create_table(client, game=game, players=players, seed=seed)
    rng, checked = Rng(seed), 0
    for number in range(40):
        read = seats_read(client, support, data) if number % 5 == 0 else []
        state = client.get(f"/api/tables/{data['table']}").json()
        token = data["tokens"][state["current_player"]]
        mine = check(client.get(f"/api/tables/{data['table']}", headers=support.bearer(token)).json())
        pick = mine["legal"][rng.randbelow(len(mine["legal"]))]
        answer = client.post(f"/api/tables/{data['table']}/moves", headers=support.bearer(token),
                             json={"move_number": number, "action_id": pick["id"]})
        assert answer.status_code == 200, answer.text
        checked += len(read) + 2
        check(answer.json())
    assert checked >= 100


def test_a_timed_table_message_validates_with_its_clock(client, support):
    body = {"game": "tzolkin", "players": 2, "seed": 3, "speed": "realtime:5+3",
            "seats": [{"name": "A"}, {"name": "B"}]}
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    message = check(client.get(f"/api/tables/{answer.json()['table']}").json())
    assert message["clock"]["kind"] == "realtime" and message["lobby"]["speed"] == "realtime:5+3"


def wait_terminal(client: Any, table: str, seconds: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = client.get(f"/api/tables/{table}").json()
        if state["terminal"]:
            return state
        time.sleep(0.05)
    raise AssertionError(f"the bots did not finish table {table}")


@pytest.mark.parametrize("game, players", [("tikal", 2), ("tzolkin", 2), ("toy", 3)])
def test_terminal_messages_validate(client, support, game, players):
    """A game the bots play to the end: the final message, with the whole log, validates
    for a spectator, and its log tells the game's end; so do its replay frames."""
    data = support.create_table(client, game=game, players=players, seed=8,
                                agents=["random"] * players)
    final = check(wait_terminal(client, data["table"]))
    assert final["winners"] and final["legal"] == [] and final["log_from"] == 0
    assert len(final["log"]) == final["move_number"]
    kinds = {e["kind"] for entry in final["log"] for e in entry["events"]}
    assert "game_over" in kinds or "final_scoring" in kinds
    total = final["move_number"]
    for step in (0, total // 2, total):
        for perspective in ("all", "spectator", "0"):
            frame = check(client.get(f"/api/tables/{data['table']}/replay",
                                     params={"step": step, "perspective": perspective}).json(),
                          "frame")
            assert frame["step"] == step and len(frame["log"]) == step


@pytest.mark.parametrize("game, players, seed", [("tikal", 2, 6), ("tzolkin", 2, 7)])
def test_websocket_messages_validate(live, support, game, players, seed):
    """Twenty moves over the WebSocket: every state message each seat and a spectator
    receive (the acknowledged ones included) validates."""
    with httpx.Client(base_url=live.url) as http:
        data = support.create_table(http, game=game, players=players, seed=seed)
    clients = {s: support.WsClient(live, data["table"], t) for s, t in data["tokens"].items()}
    spectator = support.WsClient(live, data["table"], None)
    rng = Rng(seed)
    try:
        for number in range(20):
            mover = clients[spectator.wait_for(number)["current_player"]]
            state = mover.wait_for(number)
            mover.move(rng.randbelow(len(state["legal"])), rid=f"m{number}")
            assert mover.until(lambda m: m["type"] == "state" and m.get("ack") == f"m{number}")
        for c in [*clients.values(), spectator]:
            c.wait_for(20)
        received = [m for c in [*clients.values(), spectator] for m in c.messages
                    if m["type"] == "state"]
        for message in received:
            check(message)
        assert len(received) >= 20 * (players + 1)
        assert any("ack" in m for m in received) and any(m["log"] for m in received)
    finally:
        for c in [*clients.values(), spectator]:
            c.close()


# --- the socket's other messages, and the lobby's events ----------------------------------------
def check_document(message: dict[str, Any], part: str = "oneOf") -> None:
    """``message`` fits the exported document itself (its ``oneOf`` of messages, or the
    data schema of a lobby event named ``part``), not only the models."""
    doc = schema()
    target = doc["events"][part] if part != "oneOf" else {"oneOf": doc["oneOf"]}
    Draft202012Validator({**target, "$defs": doc["$defs"]}).validate(message)


def check_other(message: dict[str, Any], kind: str) -> dict[str, Any]:
    """A message of the socket other than a state: its model and the document accept it."""
    assert message["type"] == kind
    wire.validate_message(message)
    check_document(message)
    return message


def test_the_sockets_other_messages_validate(live, support):
    """A live session at a toy table: pings (rids of each kind), an illegal move (a rule
    named), a stale move, a bad message, a ping before hello, a seat's chat line, a
    resignation (the server's own chat line), an unknown table: each message validates,
    and so does every state message of the session against the exported document."""
    from websockets.exceptions import ConnectionClosed

    with httpx.Client(base_url=live.url) as http:
        data = support.create_table(http, game="toy", players=2, seed=3)
        table = data["table"]
        seats = {s: support.WsClient(live, table, t) for s, t in data["tokens"].items()}
        spectator = support.WsClient(live, table, None)
        try:
            # pong: the rid as sent, an int, a string or none
            for rid in (1, "p-2", None):
                seats[0].send(type="ping", rid=rid)
                pong = check_other(seats[0].until(lambda m: m["type"] == "pong"), "pong")
                assert pong == {"type": "pong", "rid": rid}
            spectator.send(type="ping")  # no rid at all: null
            pong = check_other(spectator.until(lambda m: m["type"] == "pong"), "pong")
            assert pong["rid"] is None
            # error: an illegal move names its rule; the others do not
            mover = seats[spectator.state["current_player"]]
            state = mover.wait_for(0)
            held = {a["card"] for a in state["legal"] if a["kind"] == "Play"}
            missing = min(set(range(1, 9)) - held)
            mover.send(type="move", move_number=0, action=f"play {missing}", rid="m1")
            illegal = check_other(mover.until(lambda m: m["type"] == "error"), "error")
            assert illegal["error"] == "illegal" and illegal["rid"] == "m1"
            assert illegal["rule"] == "toy: hand" and str(missing) in illegal["message"]
            mover.send(type="move", move_number=5, action_id=0, rid=7)
            stale = check_other(mover.until(lambda m: m["type"] == "error"), "error")
            assert stale["error"] == "stale" and stale["rid"] == 7 and "rule" not in stale
            mover.ws.send("{not json")
            bad = check_other(mover.until(lambda m: m["type"] == "error"), "error")
            assert bad["error"] == "bad_json" and bad["rid"] is None
            silent = support.WsClient(live, table, hello=False)
            silent.send(type="ping", rid=3)
            first = check_other(silent.until(lambda m: m["type"] == "error"), "error")
            assert first["error"] == "hello_first" and first["rid"] == 3
            silent.close()
            # chat: a seat's line to both seats (a private table: not to the spectator)
            said = http.post(f"/api/tables/{table}/chat", json={"text": "good luck"},
                             headers=support.bearer(data["tokens"][0]))
            assert said.status_code == 201, said.text
            for client in seats.values():
                line = check_other(client.until(lambda m: m["type"] == "chat"), "chat")
                assert line == {"type": "chat", "table": table, **said.json()}
                assert line["author"] == "P0" and line["seat"] == 0 and not line["system"]
            # and the server's own line: seat 1 resigns, the game is over
            resigned = http.post(f"/api/tables/{table}/resign",
                                 headers=support.bearer(data["tokens"][1]))
            assert resigned.status_code == 200, resigned.text
            system = check_other(seats[0].until(lambda m: m["type"] == "chat"), "chat")
            assert system["system"] and system["author"] == "" and system["seat"] is None
            assert "resigned" in system["text"]
            seats[0].until(lambda m: m["type"] == "state" and m["ended"] is not None)
            received = [m for c in [*seats.values(), spectator] for m in c.messages]
            assert not [m for m in spectator.messages if m["type"] == "chat"]
            states = [m for m in received if m["type"] == "state"]
            assert len(states) >= 4
            for message in states:  # the document accepts what the models accept
                check(message)
                check_document(message)
        finally:
            for client in [*seats.values(), spectator]:
                client.close()
    # an error sent before any request has no rid; the socket closes
    away = support.WsClient(live, "nosuchtable", hello=False)
    gone = check_other(away.recv(), "error")
    assert gone["error"] == "no_table" and "rid" not in gone
    with pytest.raises(ConnectionClosed):
        away.recv()


def test_the_lobby_events_validate(live, support):
    """A real ``tables`` event of GET /api/me/events: its data fits LobbyEvent."""
    with httpx.Client(base_url=live.url, timeout=10) as ana, \
            httpx.Client(base_url=live.url, timeout=10) as ben:
        support.register(ana, "Ana")
        support.register(ben, "Ben")
        table = ana.post("/api/tables", json={"game": "toy", "players": 2, "seed": 5,
                                              "public": True}).json()["table"]
        with ana.stream("GET", "/api/me/events") as events:
            lines = events.iter_lines()
            assert ben.post(f"/api/tables/{table}/join", json={"seat": 1}).status_code == 200
            name, event = support.next_event(lines)
    assert name == "tables" and event == {"table": table}
    wire.LOBBY_EVENTS[name].model_validate(event)
    check_document(event, name)
    for wrong in ({}, {"table": 3}, {"table": table, "seat": 1}):
        with pytest.raises(ValidationError):
            wire.LOBBY_EVENTS[name].model_validate(wrong)
        with pytest.raises(SchemaError):
            check_document(wrong, name)


GOOD = {"error": {"type": "error", "error": "illegal", "message": "card 4 is not in your hand",
                  "rule": "toy: hand", "rid": 7},
        "pong": {"type": "pong", "rid": "p-2"},
        "chat": {"type": "chat", "table": "t", "id": 3, "author": "Ana", "seat": 0,
                 "system": False, "text": "hi", "at": 1800000000.5}}
#: each message with one field wrong, missing or unknown
WRONG = {"error": [{"error": None}, {"error": "Illegal move"}, {"message": 3},
                   {"rule": None}, {"rule": ""}, {"rid": 1.5}, {"rid": True}, {"code": "x"},
                   {"type": "pong"}, "error", "message"],
         "pong": [{"rid": 1.5}, {"rid": [1]}, {"schema": 1}, {"type": "ping"}, "rid"],
         "chat": [{"id": "3"}, {"id": 0}, {"seat": -1}, {"seat": "0"}, {"system": 1},
                  {"at": "now"}, {"text": None}, {"line": "hi"}, {"type": "error"},
                  "table", "id", "author", "seat", "system", "text", "at"]}

#: the fields a message may lack (a pong always has its rid, a chat line all its fields)
MAY_BE_ABSENT = {"error": {"rule", "rid"}}


@pytest.mark.parametrize("kind", sorted(GOOD))
def test_a_wrong_or_missing_field_of_the_other_messages_is_refused(kind):
    """The models and the exported document refuse each message with a field of the
    wrong type, a field missing or a field they do not declare."""
    check_other(dict(GOOD[kind]), kind)
    for wrong in WRONG[kind]:
        message = dict(GOOD[kind])
        if isinstance(wrong, str):
            del message[wrong]
        else:
            message.update(wrong)
        with pytest.raises((ValidationError, KeyError)):
            wire.validate_message(message)
        with pytest.raises(SchemaError):
            check_document(message)
    # what may be absent: an error's rule and rid (an error sent before any request)
    absent = {key: value for key, value in GOOD[kind].items()
              if key not in MAY_BE_ABSENT.get(kind, set())}
    if absent != GOOD[kind]:
        check_other(absent, kind)


# --- the browser --------------------------------------------------------------------------
ACTION = r"\b(?:action|a)"  # how the game modules name an action of the legal list


def browser_kinds(js: str) -> tuple[set[str], set[str]]:
    """(kinds the module compares an action's kind with, kinds its switches handle)."""
    switched: set[str] = set()
    for m in re.finditer(rf"switch \({ACTION}\.kind\) \{{(.*?)\n  \}}", js, re.S):
        switched |= set(re.findall(r'case "(\w+)"', m.group(1)))
    compared = set(re.findall(rf'{ACTION}\.kind\s*[!=]==\s*"(\w+)"', js))
    compared |= set(re.findall(r'kinds\.has\("(\w+)"\)', js))  # a Set of the legal kinds
    for table in re.findall(rf"(\w+)\[{ACTION}\.kind\]", js):  # a lookup table by kind
        body = re.search(rf"const {table} = \{{(.*?)\}};", js, re.S)
        assert body, f"the table {table} looked up by kind is not found"
        compared |= set(re.findall(r"(\w+):", body.group(1)))
    return compared | switched, switched


@pytest.mark.parametrize("game", wire.SCHEMA_GAMES)
def test_the_browser_speaks_the_declared_kinds(game):
    js = (GAMES_JS / f"{game}.js").read_text(encoding="utf-8")
    declared = set(schema_kinds(game))
    used, switched = browser_kinds(js)
    assert used - declared == set(), f"games/{game}.js compares kinds the schema does not declare"
    assert declared - switched == set(), f"games/{game}.js handles no case of these kinds"


@pytest.mark.parametrize("game", wire.SCHEMA_GAMES)
def test_the_browser_reads_declared_fields(game):
    js = (GAMES_JS / f"{game}.js").read_text(encoding="utf-8")
    fields = {name for kind in schema_kinds(game).values() for name in kind["properties"]}
    read = set(re.findall(rf"{ACTION}\.(\w+)", js))
    assert len(read) >= 3 and read - fields == set(), f"games/{game}.js reads unknown action fields"


def test_the_browser_check_catches_a_renamed_kind():
    """The extraction above finds a renamed kind (the test is not vacuous)."""
    js = (GAMES_JS / "tikal.js").read_text(encoding="utf-8").replace('"Deploy"', '"Deployment"')
    used, switched = browser_kinds(js)
    assert "Deployment" in used and "Deploy" not in switched


def function_reads(js: str, function: str, name: str) -> set[str]:
    """The fields ``function`` (a top-level function of ``js``) reads of its ``name``."""
    body = re.search(rf"\nfunction {function}\({name}\) \{{(.*?)\n\}}", js, re.S)
    assert body, f"function {function}({name}) is not found"
    return set(re.findall(rf"\b{name}\.(\w+)", body.group(1)))


def server_error_codes() -> set[str]:
    """The codes of every ServerError the server's code raises."""
    return {code for path in SERVER.rglob("*.py")
            for code in re.findall(r'ServerError\(\d+, "(\w+)"', path.read_text(encoding="utf-8"))}


def browser_other_reads(table_js: str, social_js: str, quick_js: str) -> dict[str, set[str]]:
    """What the browser reads of each message: table.js's ``onError``, social.js's
    ``addChat`` (chat messages and the REST chat lines alike), quick.js of a lobby event."""
    return {"error": function_reads(table_js, "onError", "message"),
            "chat": function_reads(social_js, "addChat", "line"),
            "event": set(re.findall(r"event\.detail\.(\w+)", quick_js)),
            "types": set(re.findall(r'message\.type\s*[!=]==\s*"(\w+)"', table_js + social_js)),
            "codes": set(re.findall(r'message\.error\s*[!=]==\s*"(\w+)"', table_js))}


def browser_sources() -> tuple[str, str, str]:
    return tuple((JS / f"{name}.js").read_text(encoding="utf-8")  # type: ignore[return-value]
                 for name in ("table", "social", "quick"))


def test_the_browser_reads_declared_fields_of_the_other_messages():
    """Every field the browser reads of an error, a chat line or a lobby event is one the
    schema declares, every message type it switches on is declared, and every error code
    it compares with is one the server raises."""
    doc = schema()
    fields = {kind: set(doc["$defs"][model.__name__]["properties"])
              for kind, model in wire.TABLE_MODEL_OF_TYPE.items()}
    reads = browser_other_reads(*browser_sources())
    assert {"rid", "error", "message"} <= reads["error"] <= fields["error"]
    assert {"id", "at", "system", "author", "text"} <= reads["chat"] <= fields["chat"]
    assert reads["event"] == {"table"} <= set(doc["$defs"]["LobbyEvent"]["properties"])
    assert {"state", "error", "chat"} <= reads["types"] <= set(wire.MESSAGE_TYPES)
    assert {"stale", "bad_token", "no_table", "broken_table"} <= reads["codes"] \
        <= server_error_codes()


def test_the_browser_check_catches_a_renamed_field():
    """The extraction above finds a field the schema does not declare (not vacuous)."""
    table_js, social_js, quick_js = browser_sources()
    reads = browser_other_reads(table_js.replace("message.rid", "message.request_id"),
                                social_js.replace("line.author", "line.name"),
                                quick_js.replace("event.detail.table", "event.detail.id"))
    assert "request_id" in reads["error"] and "name" in reads["chat"] and "id" in reads["event"]

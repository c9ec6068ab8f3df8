"""The wire schema of what the server sends a table's clients (issue 25 item 4).

The ``state`` message (the answer of ``GET /api/tables/{id}``, of a move or an undo, and
the WebSocket's ``state`` message), its log entries and its legal actions, and the replay's
``frame`` (``GET /api/tables/{id}/replay``), as Pydantic models. The browser switches on an action's ``kind``: that is the wire name each action
class declares (``KIND``, :func:`mayagames.core.game.action_kind`), listed per game by
:func:`action_models` from ``GameInfo.actions``, never a class name.

The WebSocket's other messages are the same at every table: ``error`` (a request refused,
:meth:`mayagames.server.rooms.ServerError.to_dict`), ``pong`` (the answer of a ``ping``) and
``chat`` (a line of the table's chat, as ``PlayerStore.add_chat`` stores it). The lobby's
server-sent events (``GET /api/me/events``) carry :class:`LobbyEvent` as their data.

The schema is versioned: every state and frame message carries ``"schema": WIRE_SCHEMA``, bumped on
any incompatible change to any message (a field, kind or type renamed or removed, a type
narrowed). Adding an optional field, a new action kind or a new message type is compatible.
The JSON Schema is exported to ``docs/wire-schema.json`` (``python -m mayagames.server.wire
docs/wire-schema.json``; a test keeps it up to date). The server does not validate what it
sends: the tests validate real messages of real games against these models.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import typing
from typing import Annotated, Any, Callable, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.json_schema import models_json_schema

from ..core.game import GameInfo, declared_kinds
from ..core.registry import BUILTIN, TEST_GAMES, get_game

#: the version of the messages below; bump it on any incompatible change
WIRE_SCHEMA = 1
#: the games whose messages the exported schema describes (the toy has a board in the browser)
SCHEMA_GAMES = (*BUILTIN, *TEST_GAMES)


class Wire(BaseModel):
    """A part of a message: no field it does not declare, no coercion (``"2"`` is not 2)."""

    model_config = ConfigDict(extra="forbid", strict=True)


# --- the log ---------------------------------------------------------------------------
class EventTable(Wire):
    """A breakdown shown with an event (a scoring): players are already named."""

    title: str
    columns: list[str]
    rows: list[list[str | int | float]]


class LogEvent(Wire):
    """Something the game itself did (core.game.GameEvent)."""

    kind: Literal["round", "scoring", "food_day", "age", "final_scoring", "game_over"]
    text: str
    table: EventTable | None = None


class LogEntry(Wire):
    """One move of the log, told to the message's reader (server.rooms.LogEntry)."""

    n: int = Field(ge=1, description="the move's number, from 1")
    seat: int = Field(ge=0, description="the seat that moved")
    text: str = Field(description="the move's notation as the reader may know it")
    sentence: str = Field(description="the move told as a sentence, players named")
    events: list[LogEvent]
    places: list[str] = Field(description="the board places the move touched")
    turn: int = Field(ge=1, description="increases each time the acting seat changes")
    minor: bool = Field(default=False, description="present (true) only on a sub-decision "
                        "that the next entry of the same turn completes")


# --- the legal actions -----------------------------------------------------------------
class Settles(Wire):
    """What an action also does at once: a choice with one option left that spends goods."""

    text: str
    places: list[str]


class ActionBase(Wire):
    """Fields every legal action has; each kind adds its own (the action's fields)."""

    id: int = Field(ge=0, description="the action's index in this list: moves are chosen by id")
    text: str = Field(description="the action's notation (parse_action(text) gives it back)")
    settles: Settles | None = None


def _model_name(*words: str) -> str:
    return "".join(w[:1].upper() + w[1:] for w in words)


def action_model(info: GameInfo, kind: str, cls: type) -> type[ActionBase]:
    """The model of one action kind: ``kind`` fixed, then the class's fields, typed."""
    hints = typing.get_type_hints(cls)
    doc = (cls.__doc__ or "").strip()
    if not doc or doc.startswith(f"{cls.__name__}("):  # dataclass's own: the signature
        doc = f"{info.title}: the action {kind}"
    fields: dict[str, Any] = {"kind": (Literal[kind], ...)}
    for f in dataclasses.fields(cls):
        fields[f.name] = (hints[f.name], ...)  # always sent, defaults included
    return create_model(_model_name(info.name, kind, "Action"), __base__=ActionBase,
                        __doc__=doc, **fields)


def _cached(kind: str, info: GameInfo, build: Any) -> Any:
    """One model per game info (a GameInfo holds dicts: it is not hashable)."""
    key = (kind, id(info))
    held = _MODELS.get(key)
    if held is None or held[0] is not info:
        held = _MODELS[key] = (info, build(info))
    return held[1]


_MODELS: dict[tuple[str, int], tuple[GameInfo, Any]] = {}


def action_models(info: GameInfo) -> dict[str, type[ActionBase]]:
    """The game's action kinds, each its model: wire name -> model."""
    return _cached("actions", info, lambda i: {kind: action_model(i, kind, cls)
                                               for kind, cls in declared_kinds(i).items()})


def legal_action_type(info: GameInfo) -> Any:
    """One legal action of ``info``: one of its kinds, told apart by ``kind``."""
    models = tuple(action_models(info).values())
    if not models:
        raise TypeError(f"{info.name}: the game declares no action kinds (GameInfo.actions)")
    if len(models) == 1:
        return models[0]
    return Annotated[Union[models], Field(discriminator="kind")]  # type: ignore[valid-type]


# --- the header of every table message ---------------------------------------------------
class Seat(Wire):
    seat: int = Field(ge=0)
    name: str
    agent: str = Field(description="'human' or the bot's spec")
    bot: bool
    broken: str | None = Field(default=None, description="why the seat's bot cannot move")


class Lobby(Wire):
    """How the table is played (server.players.Players.decorate)."""

    public: bool
    rated: bool
    speed: str
    speed_text: str
    zombie: str
    waiting: bool
    free: list[int]
    rematch: str | None
    creator: int | None
    invitable: list[int]


class Player(Wire):
    seat: int = Field(ge=0)
    account: str | None
    zombie: bool
    resigned: bool
    rating: float | None


class Clock(Wire):
    """Each seat's time left now and whose clock runs (server.clocks.public_clock)."""

    speed: str
    kind: str
    describe: str
    left: list[float]
    running: int | None
    deadline: float | None
    server_time: float
    waiting: list[int] = Field(description="seats whose player has not opened the table")


# --- the messages -------------------------------------------------------------------------
class TableMessage(Wire):
    """What every message of a table starts with (server.rooms.Room.header)."""

    schema_: Literal[WIRE_SCHEMA] = Field(alias="schema",  # type: ignore[valid-type]
                                          description="the wire schema's version")
    table: str
    title: str
    num_players: int = Field(ge=1)
    options: dict[str, Any]
    seats: list[Seat]
    seed_fixed: bool
    lobby: Lobby | None = None
    players: list[Player] | None = None
    clock: Clock | None = None
    ratings: dict[str, float] | None = None

    model_config = ConfigDict(populate_by_name=True)


VIEW = Field(description="the reader's view of the position: the game's own format "
             "(docs/tikal_state.md, docs/tzolkin_state.md)")


class StateBase(TableMessage):
    """The ``state`` message: the position as one seat (or a spectator) sees it."""

    type: Literal["state"]
    seat: int | None = Field(description="the reader's seat; null: a spectator")
    move_number: int = Field(ge=0)
    current_player: int | None
    terminal: bool
    view: dict[str, Any] = VIEW
    private: bool
    log_from: int = Field(ge=0)
    log: list[LogEntry] = Field(description="the moves from number log_from + 1 on")
    scores: list[float]
    winners: list[int]
    ended: str | None
    can_undo: bool
    rematch: str | None
    ack: int | str | None = Field(default=None, description="WebSocket only: the rid of "
                                  "the reader's own move or undo this message answers")


class FrameBase(TableMessage):
    """A ``frame`` of a replay (``GET /api/tables/{id}/replay``): what one side saw after
    ``step`` moves, with the log up to there."""

    type: Literal["frame"]
    step: int = Field(ge=0)
    total: int = Field(ge=0, description="the moves of the game so far")
    perspective: Literal["all", "spectator"] | int
    current_player: int | None
    terminal: bool
    view: dict[str, Any] = VIEW
    log: list[LogEntry]
    scores: list[float]
    winners: list[int]


def state_model(info: GameInfo) -> type[StateBase]:
    """The state message of one game: its name, and legal actions of its declared kinds."""
    return _cached("state", info, _state_model)


def _state_model(info: GameInfo) -> type[StateBase]:
    return create_model(_model_name(info.name, "State"), __base__=StateBase,
                        game=(Literal[info.name], ...),
                        legal=(list[legal_action_type(info)], ...))  # type: ignore[misc]


def frame_model(info: GameInfo) -> type[FrameBase]:
    """The replay frame of one game."""
    return _cached("frame", info, lambda i: create_model(
        _model_name(i.name, "Frame"), __base__=FrameBase, game=(Literal[i.name], ...)))


# --- the WebSocket's other messages: the same at every table -------------------------------
RID = Field(description="the ``rid`` of the client's request this message answers, as sent "
            "(null: the request had none, or could not be read)")


def _sent_only_set(schema: dict[str, Any]) -> None:
    """A field absent from the message unless it has a value: no ``default: null`` in the
    schema (the model refuses an explicit null)."""
    schema.pop("default", None)


class ErrorMessage(Wire):
    """The ``error`` message: a request refused, nothing changed (``ServerError.to_dict``);
    the socket stays open. An error sent before any request, without ``rid``, is the last
    message: the table cannot be opened (close code 4404 no table, 1013 database away,
    1011 a broken table) or the session's account cannot be read (database away)."""

    type: Literal["error"]
    error: str = Field(pattern=r"^[a-z][a-z_]*$", description="the refusal's stable code "
                       "(docs/server.md): e.g. illegal, stale, not_your_turn, bad_request")
    message: str = Field(description="why, in words a player understands")
    rule: str = Field(default=None, min_length=1,  # type: ignore[assignment]  # absent, not null
                      json_schema_extra=_sent_only_set,
                      description="present only when the rules refuse the move (``illegal``): "
                      "the rule that forbids it, e.g. 'Tikal 6: AP actions'")
    rid: int | str | None = Field(default=None, description=(
        f"{RID.description}; absent from an error sent before any request (the table or the "
        "session's account could not be read)"))


class PongMessage(Wire):
    """The ``pong`` message: the answer of a ``ping``."""

    type: Literal["pong"]
    rid: int | str | None = RID


class ChatMessage(Wire):
    """The ``chat`` message: a line of the table's chat, sent to every socket of a public
    table and to the seats' sockets of a private one (server.people.chat); the line's fields
    are those of ``GET /api/tables/ID/chat`` (``PlayerStore.add_chat``)."""

    type: Literal["chat"]
    table: str
    id: int = Field(ge=1, description="the line's number, increasing (a client shows each once)")
    author: str = Field(description="the seat's or the account's name; '' on a line of the server")
    seat: int | None = Field(ge=0, description="the author's seat; null: a spectator's account, "
                             "or the server")
    system: bool = Field(description="a line of the server itself (a resignation, a time-out)")
    text: str = Field(description="as sent, printable characters only; shown as text, never HTML")
    at: float = Field(description="when it was said: seconds since the epoch")


# --- the lobby's server-sent events ----------------------------------------------------------
class LobbyEvent(Wire):
    """The data of an event of ``GET /api/me/events``: ``tables`` (a table of the account
    changed) or ``quick`` (a quick game was paired)."""

    table: str = Field(description="the table's id")


#: the event names of ``GET /api/me/events``, each its data
LOBBY_EVENTS: dict[str, type[Wire]] = {"tables": LobbyEvent, "quick": LobbyEvent}

#: the messages each game has its own model of (its ``game``, its ``legal``): type -> model
MODEL_OF_TYPE: dict[str, Callable[[GameInfo], type[TableMessage]]] = {
    "state": state_model, "frame": frame_model}
#: the table's messages that are the same for every game: type -> model
TABLE_MODEL_OF_TYPE: dict[str, type[Wire]] = {
    "error": ErrorMessage, "pong": PongMessage, "chat": ChatMessage}
#: every type of message a table's client receives
MESSAGE_TYPES = (*MODEL_OF_TYPE, *TABLE_MODEL_OF_TYPE)


def validate_message(message: dict[str, Any]) -> Wire:
    """``message`` checked against the model of its type (and of its game, for a ``state``
    or a ``frame``): ValidationError if it does not fit, KeyError for an unknown type."""
    kind = message["type"]
    if kind in TABLE_MODEL_OF_TYPE:
        return TABLE_MODEL_OF_TYPE[kind].model_validate(message)
    model = MODEL_OF_TYPE[kind](get_game(message["game"]))
    return model.model_validate(message)


# --- the exported JSON Schema --------------------------------------------------------------
def schema_document() -> dict[str, Any]:
    """The JSON Schema of the table's messages: the state and frame messages of every game in
    :data:`SCHEMA_GAMES`, then the others; the lobby's events under ``events``."""
    models: list[type[Wire]] = [model(get_game(name)) for model in MODEL_OF_TYPE.values()
                                for name in SCHEMA_GAMES]
    models += TABLE_MODEL_OF_TYPE.values()
    events = sorted(set(LOBBY_EVENTS.values()), key=lambda m: m.__name__)
    _, defs = models_json_schema([(m, "validation") for m in [*models, *events]], by_alias=True,
                                 ref_template="#/$defs/{model}")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "mayagames table messages", "version": WIRE_SCHEMA,
            "description": (__doc__ or "").strip().split("\n\n")[0],
            # one message: told apart by "type", then by "game"
            "oneOf": [{"$ref": f"#/$defs/{m.__name__}"} for m in models],
            # not messages of the socket: the data of each named server-sent event
            "events": {name: {"$ref": f"#/$defs/{m.__name__}"} for name, m in LOBBY_EVENTS.items()},
            **defs}


def schema_text() -> str:
    """The exported schema as written to docs/wire-schema.json."""
    return json.dumps(schema_document(), indent=2, sort_keys=True) + "\n"


def main(argv: list[str]) -> int:
    """``python -m mayagames.server.wire [PATH]``: write the schema (default: print it)."""
    if argv:
        with open(argv[0], "w", encoding="utf-8") as out:
            out.write(schema_text())
    else:
        sys.stdout.write(schema_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

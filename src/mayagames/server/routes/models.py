"""Response models of the REST routes: what ``/docs`` and ``/openapi.json`` show of each
answer (requests are in :mod:`..schemas`, the table messages in :mod:`..wire`).

A response model describes; it must never change an answer, nor refuse one (a 500) that
was sent before. So every model here:

* declares its fields in the order the routes build them (the JSON keys keep their order);
* types each value (a string, a number...) for the schema only: :data:`Int`, :data:`Str`,
  ... are ``Any`` to validation, so a value is sent as it was computed (an ``int`` stays
  ``25``, where a ``float`` field would send ``25.0``), and a value read from a damaged
  row is sent as read, as before (tests/server/test_faults.py);
* keeps any key it does not declare (``extra="allow"``), and the routes use
  ``response_model_exclude_unset`` where a key is sent only sometimes, so a key absent
  from the answer is not added with a default.

``tests/server/test_openapi.py`` checks real answers against their routes' models.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeAlias, Union

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from ..wire import FrameBase, StateBase


def schema(*types: str) -> WithJsonSchema:
    """The schema of a value of the JSON ``types``."""
    return WithJsonSchema({"type": types[0]} if len(types) == 1
                          else {"anyOf": [{"type": t} for t in types]})


# values of these JSON types in the schema, any value to validation (sent as computed)
Int: TypeAlias = Annotated[Any, schema("integer")]
Number: TypeAlias = Annotated[Any, schema("number")]
Str: TypeAlias = Annotated[Any, schema("string")]
Bool: TypeAlias = Annotated[Any, schema("boolean")]
Object: TypeAlias = Annotated[Any, schema("object")]
Array: TypeAlias = Annotated[Any, schema("array")]
IntOrNull: TypeAlias = Annotated[Any, schema("integer", "null")]
NumberOrNull: TypeAlias = Annotated[Any, schema("number", "null")]
StrOrNull: TypeAlias = Annotated[Any, schema("string", "null")]
BoolOrNull: TypeAlias = Annotated[Any, schema("boolean", "null")]
ObjectOrNull: TypeAlias = Annotated[Any, schema("object", "null")]


class Answer(BaseModel):
    """The base of the response models: documents the fields, keeps whatever is sent."""

    model_config = ConfigDict(extra="allow")


# --- health ------------------------------------------------------------------------------
class Health(Answer):
    ok: Bool
    tables_in_memory: Int = Field(description="tables loaded in this instance's memory")
    instance: Str = Field(description="this server process's id (several may share a database)")


class Ok(Answer):
    ok: Bool


# --- accounts and sessions ---------------------------------------------------------------
class AccountRef(Answer):
    id: Int
    name: Str


class AccountAnswer(Answer):
    """``POST /api/accounts`` and ``/api/login``: the account (the session cookie is set)."""

    account: AccountRef


class TableSeat(Answer):
    """A seat as the lists show it."""

    seat: Int
    name: Str
    agent: Str
    bot: Bool
    account: StrOrNull
    zombie: Bool
    free: Bool
    rating: NumberOrNull


class TableSummary(Answer):
    """A table as the open lobby, "my tables" and a profile list it (Players.summary)."""

    table: Str
    game: Str
    title: Str
    num_players: Int
    options: Object
    option_labels: list[Object]
    public: Bool
    rated: Bool
    speed: Str
    speed_text: Str
    status: Str = Field(description="waiting (a free seat), playing or finished")
    move_number: Int
    current_player: IntOrNull
    seats: list[TableSeat]
    seat: IntOrNull = Field(description="the reader's seat")
    your_turn: BoolOrNull = Field(default=None, description="absent from a profile's list")
    clock: ObjectOrNull
    rematch: StrOrNull


class Me(Answer):
    """The session's account, its tables and how many wait for its move."""

    account: AccountRef
    tables: list[TableSummary]
    your_turn: Int


# --- tables ------------------------------------------------------------------------------
class Games(Answer):
    games: list[Object] = Field(description="each game with its options")
    agents: Array = Field(description="the seat kinds: human and the bot specs")
    bots: list[Object] = Field(description="the bots a lobby offers, levels first")


class NewSeat(Answer):
    """A seat of a new table: its token and invite link are shown only in this answer."""

    seat: Int
    name: Str
    agent: Str
    bot: Bool
    token: StrOrNull = Field(description="the seat's secret (null: a bot, or an "
                              "account's seat)")
    invite: StrOrNull


class TableCreated(Answer):
    table: Str
    game: Str
    seats: list[NewSeat]
    spectate: Str
    public: Bool
    rated: Bool
    speed: Str
    zombie: Str


class StoredTableRow(Answer):
    """A recent table (GET /api/tables): from the stored rows."""

    table: Str
    game: Str
    num_players: Int
    status: Str
    move_count: Int
    result: Any
    seats: list[Object]
    seed_fixed: Bool
    created_at: Any
    updated_at: Any


class TableList(Answer):
    tables: list[Union[TableSummary, StoredTableRow]] = Field(
        description="with open=true the open lobby's tables (a summary each), else the "
        "recent tables' rows")


class Rematch(Answer):
    table: Str
    game: Str
    rematch_of: Str
    seat: Int
    seats: list[NewSeat]
    spectate: Str


class StateMessage(StateBase):
    """The ``state`` message (server/wire.py, docs/wire-schema.json): its fields for every
    game; ``legal`` and ``view`` are each game's own (``docs/wire-schema.json`` has them per
    game). Documents the answer only: the route sends the message as built."""

    game: Str
    legal: list[Object] = Field(description="the seat's legal actions (by id)")


class FrameMessage(FrameBase):
    """A replay's ``frame`` (server/wire.py): what one side saw after ``step`` moves."""

    game: Str


# --- lobby ---------------------------------------------------------------------------------
class Invite(Answer):
    table: Str
    seat: Int
    token: Str
    invite: Str


class BotOffer(Answer):
    level: Str
    rating: Number


class QuickStatus(Answer):
    """A quick game's wait: ``table`` once paired, else ``waiting`` (and ``offer_bot``)."""

    waiting: Bool
    table: StrOrNull
    game: StrOrNull = None
    speed: StrOrNull = None
    rating: NumberOrNull = None
    waited: NumberOrNull = None
    bot_after: NumberOrNull = None
    offer_bot: BoolOrNull = None
    bot: BotOffer | None = None


# --- ratings ------------------------------------------------------------------------------
class LadderPlace(Answer):
    place: Int
    player: Str
    name: Str
    bot: Bool
    mu: Number
    sigma: Number
    rating: Number
    games: Int


class Ladder(Answer):
    game: Str
    ratings: list[LadderPlace]


class GameRating(Answer):
    game: Str
    player: Str
    name: Str
    bot: Bool
    mu: Number
    sigma: Number
    rating: Number
    games: Int


class HistoryPoint(Answer):
    game: Str
    table: StrOrNull = Field(description="null: a private table the reader has no seat at")
    rank: Int
    players: Int
    mu: Number
    sigma: Number
    at: Number


class Profile(Answer):
    name: Str
    bot: Bool
    ratings: list[GameRating]
    history: list[HistoryPoint]
    tables: list[TableSummary]


# --- chat -----------------------------------------------------------------------------------
class ChatLine(Answer):
    id: Int
    author: Str
    seat: IntOrNull
    system: Bool
    text: Str
    at: Number


class Chat(Answer):
    table: Str
    chat: list[ChatLine]

"""What the players' side's parts share, and the interfaces they call each other through.

Each part names what it needs of another as a :class:`typing.Protocol`; the facade
(:class:`~..players.Players`) connects them once they all exist.
"""

from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable, Protocol

from ...agents import LEVELS
from ..db import Database, StoredTable
from ..limits import Rate, ServerLimits
from ..playerstore import PlayerStore, TableMeta
from ..ratings import account_player, bot_player
from ..rooms import HUMAN, Room
from ..tables.base import TableHooks, Unconnected  # noqa: F401 (the parts connect through it)

log = logging.getLogger("mayagames.server")
Clock = Callable[[], float]


class GameTables(Protocol):
    """What the players' side uses of the game service (:class:`~..service.GameService`)."""

    @property
    def db(self) -> Database: ...

    @property
    def limits(self) -> ServerLimits: ...

    @property
    def instance(self) -> str: ...

    @property
    def rooms(self) -> dict[str, Room]: ...

    @property
    def hooks(self) -> TableHooks: ...

    @property
    def in_db(self) -> Callable[..., Awaitable[Any]]: ...

    async def get_room(self, table_id: str, fresh: bool = False) -> Room: ...

    async def seat_of_token(self, room: Room, token: str | None) -> int | None: ...

    async def catch_up(self, room: Room, force: bool = False) -> bool: ...

    async def announce(self, table_id: str, version: int | None = None) -> None: ...

    def broadcast(self, room: Room, origin: Any = None, rid: Any = None) -> None: ...

    def start_bots(self, room: Room) -> None: ...

    def check_rate(self, kind: str, key: str, rate: Rate | None, what: str) -> None: ...


class Shared:
    """The game service, the players' store, the time source and each table's settings."""

    def __init__(self, service: GameTables, clock: Clock) -> None:
        self.service = service
        self.store = PlayerStore(service.db)
        self.clock = clock
        self.meta: dict[str, TableMeta] = {}  # the settings of the tables in memory, by id

    async def db(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self.service.in_db(fn, *args)

    def meta_of(self, room: Room) -> TableMeta:
        return self.meta.setdefault(room.id, TableMeta())

    @property
    def shared(self) -> bool:
        """Several instances may serve the database."""
        return bool(getattr(self.service.db, "shared", False))

    def version_now(self, room: Room) -> int | None:
        """The version a conditional write expects (several instances), else None."""
        return room.version if self.shared else None

    async def changed(self, room: Room, version: int | None = None) -> None:
        """This instance changed the table's seats or settings (stored as ``version`` by the
        change's own transaction, which told the other instances; None: raise the version
        and tell them now)."""
        await self.service.announce(room.id, version)


# --- seats, from a table's settings alone ---------------------------------------------------
def ladder_key(stored: StoredTable, meta: TableMeta, seat: int) -> str | None:
    """The ladder's name for a seat's player (None: a guest or an unrated bot)."""
    if seat in meta.owners:
        return account_player(meta.owners[seat])
    agent = stored.seats[seat].agent
    return bot_player(agent) if agent in LEVELS else None


def free_seats(room: Room, meta: TableMeta) -> list[int]:
    """A person's seats that no account holds and no link opens: the lobby's to take."""
    return [i for i, s in enumerate(room.stored.seats)
            if s.agent == HUMAN and i not in meta.owners and not s.token_hash]


def invitable_seats(room: Room, meta: TableMeta) -> list[int]:
    """The seats whose invite link the creator may re-issue: a person's seat that no
    account holds (a public table's free seats are taken in the lobby instead)."""
    return [i for i, s in enumerate(room.stored.seats)
            if s.agent == HUMAN and i not in meta.owners
            and not (meta.public and not s.token_hash)]


def ended(room: Room, meta: TableMeta) -> dict[str, Any] | None:
    """A 2-player game one player resigned: over, the other one wins."""
    if room.stored.num_players != 2 or not meta.resigned or room.state.is_terminal:
        return None
    loser = meta.resigned[0]
    name = room.stored.seats[loser].name
    return {"reason": f"{name} resigned", "winners": [1 - loser]}


# --- what the parts need of each other ---------------------------------------------------------
class Decorating(Protocol):
    def decorate(self, room: Room, meta: TableMeta) -> None: ...

    def zombie_agent(self, room: Room, meta: TableMeta, seat: int) -> Any: ...

    async def on_change(self, room: Room) -> None: ...


class Posting(Protocol):
    async def post(self, room: Room, author: str, seat: int | None, text: str,
                   system: bool = False) -> dict[str, Any]: ...


class Rating(Protocol):
    async def load_ratings(self, room: Room, meta: TableMeta) -> None: ...

    async def rate_table(self, room: Room, meta: TableMeta) -> None: ...


class Timing(Protocol):
    def clocked_seat(self, room: Room, meta: TableMeta) -> int | None: ...

    def watch(self, room: Room, meta: TableMeta) -> None: ...

    async def save_clock(self, room: Room, meta: TableMeta,
                         deadline: float | None | bool = False,
                         expected: int | None = None) -> bool: ...


class Seating(Protocol):
    async def seat(self, room: Room, token: str | None, account: Any) -> int | None: ...


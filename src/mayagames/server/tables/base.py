"""What the game service's parts share: database access, constants, the hooks of other
features, and the typed interfaces through which the parts call each other.

The parts form a few cycles at run time (a bot's move is a move; a move starts the next
bot; loading a table starts its bots; the lease keeper loads tables), so each part names
what it needs of another as a :class:`typing.Protocol` here, and the facade
(:class:`~..service.GameService`) connects them once they all exist.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Protocol, TypeVar

from ..db import Database
from ..limits import ServerLimits
from ..rooms import LogEntry, Room, ServerError

log = logging.getLogger("mayagames.server")
T = TypeVar("T")
CHECKPOINT_EVERY = 25  # replay frames are rebuilt from a checkpoint at most this many moves back
MAX_QUEUE = 256        # a subscriber this far behind is dropped (it resyncs on reconnect)
LEASE_SECONDS = 4.0    # a bot lease not renewed for this long is taken over by another instance
TICK_SECONDS = 1.0     # how often leases are renewed and orphaned bots looked for
SWEEP_EVERY = 3        # ticks between version checks of the rooms in use (missed notifications)
WRITE_TRIES = 5        # a write that keeps losing races ends 'stale'
RETRY_AFTER = 2        # seconds a client is told to wait while the database is away


def unavailable(exc: BaseException) -> ServerError:
    """The answer while the database cannot be reached (a restart, a cut connection): 503
    with ``Retry-After``; nothing is remembered, the next request tries again."""
    return ServerError(503, "database_unavailable", "the database cannot be reached just now; "
                       f"try again in a few seconds ({type(exc).__name__})",
                       retry_after=RETRY_AFTER)


def log_failure(task: "asyncio.Task[None]") -> None:
    """Log a bot task that died of an unexpected error (it is never awaited otherwise)."""
    if not task.cancelled() and task.exception() is not None:
        log.error("bot task failed", exc_info=task.exception())


def bot_to_move(room: Room) -> bool:
    """A bot seat is to move (the game goes on and waits for nobody)."""
    return not room.finished and not room.waiting and room.is_bot(room.state.current_player)


def bots_busy(room: Room) -> bool:
    """This instance's bot task of the table is running."""
    return room.bot_task is not None and not room.bot_task.done()


InDb = Callable[..., Awaitable[Any]]


class TableDb:
    """The database, the server's limits and this instance's name, shared by every part.

    ``in_db`` runs a database call in the service's worker threads; it is an attribute
    (not a method) so that instrumentation may wrap it once for every part
    (:func:`~..observability.instrument` sets ``GameService.in_db``, which sets this).
    """

    def __init__(self, db: Database, limits: ServerLimits) -> None:
        self.db = db
        self.limits = limits
        # SQLite has one writer: one database thread avoids lock contention.
        self.pool = ThreadPoolExecutor(1 if db.is_sqlite else 8, thread_name_prefix="db")
        self.instance = f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(3)}"
        self.in_db: InDb = self.run

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    @property
    def shared(self) -> bool:
        """Several instances may serve this database (PostgreSQL)."""
        return bool(self.db.shared)


# --- the hooks of other features ---------------------------------------------------------
LoadHook = Callable[[Room], Awaitable[None]]
MoveHook = Callable[[Room, LogEntry], Awaitable[None]]
ChangeHook = Callable[[Room], Awaitable[None]]
BroadcastHook = Callable[[Room], None]


class TableFeature(Protocol):
    """What a feature beside the game (accounts, clocks, ratings: :mod:`..players`) does
    when a table changes; it is plugged in with :meth:`TableHooks.attach`."""

    async def on_load(self, room: Room) -> None:
        """The table came into memory (read the feature's rows of it). A ``ValueError``,
        ``TypeError``, ``KeyError`` or ``IndexError`` marks the table broken."""

    async def on_move(self, room: Room, entry: LogEntry) -> None:
        """A move was stored (under the table's lock, before the broadcast). A failure is
        logged; the move stands."""

    async def on_change(self, room: Room) -> None:
        """The table's seats or settings changed (a rematch here, or another instance)."""

    def on_broadcast(self, room: Room) -> None:
        """Every subscriber was just sent the table as it is now (the lobby's push)."""


@dataclass
class TableHooks:
    """The callbacks of other features, called in the order they were added.

    ``on_load``: a table came into memory; ``on_move``: a move was stored (under the
    table's lock, before the broadcast); ``on_change``: a table's seats or settings
    changed (a rematch, or another instance said so); ``on_broadcast``: every subscriber
    was just sent the table as it is now (a move here or followed from another instance,
    a seat taken, a clock run out).
    """

    on_load: list[LoadHook] = field(default_factory=list)
    on_move: list[MoveHook] = field(default_factory=list)
    on_change: list[ChangeHook] = field(default_factory=list)
    on_broadcast: list[BroadcastHook] = field(default_factory=list)

    def attach(self, feature: TableFeature) -> None:
        """Plug in every callback of ``feature``."""
        self.on_load.append(feature.on_load)
        self.on_move.append(feature.on_move)
        self.on_change.append(feature.on_change)
        self.on_broadcast.append(feature.on_broadcast)

    async def loaded(self, room: Room) -> None:
        for hook in self.on_load:
            await hook(room)

    async def changed(self, room: Room) -> None:
        for hook in self.on_change:
            await hook(room)

    async def moved(self, room: Room, entry: LogEntry) -> None:
        """Each ``on_move`` hook; one that fails is logged (the move is stored: it stands)."""
        for hook in self.on_move:
            try:
                await hook(room, entry)
            except Exception:  # the move is stored: it stands; the feature logs it
                log.exception("table %s: after-move hook failed", room.id)

    def broadcast(self, room: Room) -> None:
        for hook in self.on_broadcast:
            hook(room)


# --- what the parts need of each other ------------------------------------------------------
class Broadcaster(Protocol):
    def broadcast(self, room: Room, origin: Any = None, rid: Any = None) -> None: ...


class Checkpoints(Protocol):
    def drop_checkpoints(self, table_id: str, keep: int) -> None: ...

    def forget(self, table_id: str) -> None: ...


class BotStarter(Protocol):
    def start_bots(self, room: Room) -> None: ...


class CatchingUp(Protocol):
    async def catch_up(self, room: Room, force: bool = False) -> bool: ...

    async def refresh(self, room: Room) -> None: ...

    async def sweep(self, rooms: list[Room]) -> None: ...

    def adopt_version(self, room: Room, version: int | None) -> None: ...


class RoomSource(Protocol):
    rooms: dict[str, Room]

    async def get_room(self, table_id: str, fresh: bool = False) -> Room: ...

    async def live(self, room: Room) -> Room: ...

    def add(self, room: Room) -> None: ...

    def evict(self, now: float) -> int: ...


class LeaseHolder(Protocol):
    leased: set[str]

    async def claim(self, room: Room) -> bool: ...

    async def release(self, room: Room) -> None: ...


class MovePlayer(Protocol):
    async def play(self, room: Room, seat: int | None, move_number: int, *,
                   action_id: int | None = None, text: str | None = None,
                   action: Any = None, origin: Any = None, rid: Any = None) -> Room: ...


class Unconnected:
    """A collaborator not connected yet (the facade connects every part at once)."""

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(f"a part of the game service used {name!r} before it was connected")

"""The game service: tables in memory, moves persisted before they are acknowledged,
bot seats, undo, replays, and the fan-out of per-seat messages to subscribers.

:class:`GameService` is a facade: it composes the parts of :mod:`.tables`, one concern
each, and keeps the methods the routes, the players' side and the tests call (each
delegates to its part). Where each concern lives:

* the tables in memory, loading, broken tables, eviction, the lobby's list: :mod:`.tables.cache`;
* a move and an undo (the concurrency model: one lock per room, the write before the
  broadcast): :mod:`.tables.moves`;
* new tables and rematches: :mod:`.tables.creation`;
* several instances on one PostgreSQL database (catching up, following the others'
  notifications, the seats' stored rows): :mod:`.tables.sync`; the bot leases (which
  instance moves a table's bots): :mod:`.tables.leases`;
* bot turns: :mod:`.tables.botrunner`; subscribers and messages: :mod:`.tables.fanout`;
* replays and records: :mod:`.tables.records`; the games and bots offered:
  :mod:`.tables.catalogue`;
* the hooks of other features (:class:`~.tables.base.TableHooks`) and the interfaces the
  parts call each other through: :mod:`.tables.base`.

On SQLite only one server process may serve the file.
"""

from __future__ import annotations

import asyncio
import math
from typing import Any

from ..core.game import Action, State
from .bots import BotPool
from .db import Database
from .limits import Rate, RateLimiter, ServerLimits
from .notify import Listener
from .rooms import Room, ServerError
from .schemas import CreateTable
from .tables import catalogue
from .tables.base import (InDb, TableDb, TableHooks, bot_to_move, bots_busy, log, log_failure,
                          unavailable)
from .tables.botrunner import BotRunner
from .tables.cache import TableCache
from .tables.catalogue import option_labels, plain_option
from .tables.creation import Extension, Prepare, TableFactory
from .tables.fanout import Fanout, Subscriber
from .tables.leases import Leases
from .tables.moves import Moves, lost_race
from .tables.records import Records
from .tables.sync import Sync

__all__ = ["Extension", "GameService", "Prepare", "Subscriber", "log_failure", "option_labels",
           "plain_option", "unavailable"]


class GameService:
    """Everything the HTTP and WebSocket routes delegate to (through the parts it composes)."""

    def __init__(self, db: Database, bot_delay: float = 0.0, bot_workers: int = 2,
                 list_test_games: bool = False, bot_processes: int = 0,
                 limits: ServerLimits | None = None) -> None:
        self.base = TableDb(db, limits or ServerLimits())
        self.rates = RateLimiter()
        self.list_test_games = list_test_games
        #: the callbacks of other features (accounts, clocks, ratings: .players)
        self.hooks = TableHooks()
        self.fanout = Fanout(self.hooks)
        self.records = Records()
        self.cache = TableCache(self.base, self.hooks, self.records)
        self.sync = Sync(self.base, self.hooks, self.fanout, self.records, self.cache.rooms)
        self.leases = Leases(self.base)
        self.botrunner = BotRunner(self.base, BotPool(threads=bot_workers,
                                                      processes=bot_processes),
                                   bot_delay, self.leases, self.sync)
        self.moves = Moves(self.base, self.hooks, self.cache, self.sync, self.fanout,
                           self.records, self.botrunner)
        self.factory = TableFactory(self.base, self.hooks, self.cache, self.sync, self.fanout)
        # the parts that call each other both ways are connected once they all exist
        self.cache.connect(self.botrunner, self.sync, self.leases.leased)
        self.sync.connect(self.botrunner)
        self.leases.connect(self.cache, self.botrunner, self.sync)
        self.botrunner.connect(self.moves)
        self.listener: Listener | None = None
        self.maintainer: asyncio.Task[None] | None = None
        self.evictor: asyncio.Task[None] | None = None

    # --- what the parts hold, under the names other code uses -----------------------------
    @property
    def db(self) -> Database:
        return self.base.db

    @property
    def limits(self) -> ServerLimits:
        return self.base.limits

    @property
    def instance(self) -> str:
        return self.base.instance

    @property
    def db_pool(self) -> Any:
        return self.base.pool

    @property
    def bots(self) -> BotPool:
        return self.botrunner.pool

    @property
    def bot_delay(self) -> float:
        return self.botrunner.bot_delay

    @property
    def rooms(self) -> dict[str, Room]:
        return self.cache.rooms

    @property
    def broken(self) -> dict[str, str]:
        return self.cache.broken

    @property
    def checkpoints(self) -> dict[str, dict[int, State]]:
        return self.records.checkpoints

    @property
    def leased(self) -> set[str]:
        return self.leases.leased

    @property
    def on_load(self) -> list[Any]:
        return self.hooks.on_load

    @property
    def on_move(self) -> list[Any]:
        return self.hooks.on_move

    @property
    def on_change(self) -> list[Any]:
        return self.hooks.on_change

    @property
    def on_broadcast(self) -> list[Any]:
        return self.hooks.on_broadcast

    @property
    def in_db(self) -> InDb:
        """Run a database call in the service's threads (every part calls this one)."""
        return self.base.in_db

    @in_db.setter
    def in_db(self, wrapped: InDb) -> None:  # instrumentation wraps it for every part
        self.base.in_db = wrapped

    # --- lifecycle --------------------------------------------------------
    async def start(self) -> None:
        """Create the schema and resume every unfinished game (bots included).

        On SQLite, refuses (:class:`~.db.SingleInstanceError`) if another server process
        serves the file; on PostgreSQL, starts listening to the other instances first (so
        nothing written while the tables load is missed) and the lease keeper.
        """
        self.db.claim_single_instance()
        await self.in_db(self.db.create_schema)
        loop = asyncio.get_running_loop()
        if self.db.shared:
            self.listener = Listener(self.db.libpq_url(), self.db.channel, loop,
                                     self.sync.on_notify, self.sync.on_reconnect,
                                     f"mayagames-listen {self.instance}")
            await loop.run_in_executor(None, self.listener.start)
            self.maintainer = loop.create_task(self.leases.maintain())
            self.maintainer.add_done_callback(log_failure)
        await self.resume_bot_tables()
        self.evictor = loop.create_task(self.cache.evict_idle_rooms())
        self.evictor.add_done_callback(log_failure)

    async def resume_bot_tables(self) -> None:
        """Only tables with bots need resuming (their bots move by themselves); a table of
        people loads when someone opens it. A table that cannot load is set apart as
        broken (logged with its id); the server starts anyway."""
        for table_id in await self.in_db(self.db.table_ids, "playing", True):
            try:
                await self.get_room(table_id)
            except ServerError as exc:
                if exc.code != "broken_table":  # (a broken one is logged as it breaks)
                    log.error("table %s not resumed: %s", table_id, exc.message)
            except Exception:  # whatever else one table does, the server starts
                log.exception("table %s not resumed", table_id)

    async def stop(self) -> None:
        for task in (self.evictor, self.maintainer):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        held = sorted(self.leased)
        await asyncio.gather(*self.botrunner.cancel_all(list(self.rooms.values())),
                             return_exceptions=True)
        if self.db.shared:  # hand our bots over at once rather than when the leases expire
            await self.leases.release_all(held)
        loop = asyncio.get_running_loop()
        if self.listener is not None:
            await loop.run_in_executor(None, self.listener.stop)
        self.fanout.close_all(list(self.rooms.values()))
        await loop.run_in_executor(None, self.bots.shutdown)
        self.base.pool.shutdown(wait=True)
        self.db.dispose()

    def check_rate(self, kind: str, key: str, rate: Rate | None, what: str) -> None:
        """Refuse (429) a request over its rate; ``what`` says which limit in the message."""
        wait = self.rates.allow(kind, key, rate)
        if wait:
            raise ServerError(429, "rate_limited", f"too many {what} (limit {rate}); "
                              f"try again in {math.ceil(wait)} s", retry_after=wait)

    # --- catalogue (.tables.catalogue) --------------------------------------------------------
    def games(self) -> list[dict[str, Any]]:
        return catalogue.games(self.list_test_games)

    agents = staticmethod(catalogue.agents)
    bot_choices = staticmethod(catalogue.bot_choices)

    # --- tables (.tables.creation, .tables.cache) ----------------------------------------------
    async def create_table(self, req: CreateTable, prepare: Prepare | None = None, *,
                           rematch_of: str | None = None, with_tokens: bool = True,
                           ) -> tuple[Room, list[str | None]]:
        return await self.factory.create_table(req, prepare, rematch_of=rematch_of,
                                               with_tokens=with_tokens)

    table_game = staticmethod(TableFactory.table_game)

    async def rematch(self, room: Room, seat: int, prepare: Prepare | None = None,
                      hand_out: bool = True) -> tuple[Room, str | None, bool]:
        return await self.factory.rematch(room, seat, prepare, hand_out)

    async def hand_out(self, room: Room, seat: int) -> str | None:
        return await self.factory.hand_out(room, seat)

    async def get_room(self, table_id: str, fresh: bool = False) -> Room:
        return await self.cache.get_room(table_id, fresh)

    async def live(self, room: Room) -> Room:
        return await self.cache.live(room)

    def evictable(self, room: Room) -> bool:
        return self.cache.evictable(room)

    def evict(self, now: float) -> int:
        return self.cache.evict(now)

    async def list_tables(self, status: str | None, limit: int,
                          only: Any = None) -> list[dict[str, Any]]:
        return await self.cache.list_tables(status, limit, only)

    # --- moves (.tables.moves) ------------------------------------------------------------------
    async def play(self, room: Room, seat: int | None, move_number: int, *,
                   action_id: int | None = None, text: str | None = None,
                   action: Action | None = None, origin: Subscriber | None = None,
                   rid: Any = None) -> Room:
        """Apply one move (:meth:`.tables.moves.Moves.play`)."""
        return await self.moves.play(room, seat, move_number, action_id=action_id, text=text,
                                     action=action, origin=origin, rid=rid)

    async def undo(self, room: Room, seat: int | None, move_number: int,
                   origin: Subscriber | None = None, rid: Any = None) -> Room:
        return await self.moves.undo(room, seat, move_number, origin, rid)

    lost_race = staticmethod(lost_race)

    # --- several instances (.tables.sync, .tables.leases) ---------------------------------------
    async def announce(self, table_id: str, version: int | None = None) -> None:
        await self.sync.announce(table_id, version)

    adopt_version = staticmethod(Sync.adopt_version)
    adopt_seats = staticmethod(Sync.adopt_seats)

    async def reload_seats(self, room: Room) -> bool:
        return await self.sync.reload_seats(room)

    async def seat_of_token(self, room: Room, token: str | None) -> int | None:
        return await self.sync.seat_of_token(room, token)

    async def refresh(self, room: Room) -> None:
        await self.sync.refresh(room)

    async def catch_up(self, room: Room, force: bool = False) -> bool:
        return await self.sync.catch_up(room, force)

    def on_notify(self, payload: dict[str, Any]) -> None:
        self.sync.on_notify(payload)

    def on_reconnect(self) -> None:
        self.sync.on_reconnect()

    async def sweep(self, rooms: list[Room]) -> None:
        await self.sync.sweep(rooms)

    async def maintain(self) -> None:
        await self.leases.maintain()

    async def keep_leases(self) -> None:
        await self.leases.keep_leases()

    # --- messages (.tables.fanout) --------------------------------------------------------------
    def subscribe(self, room: Room, sub: Subscriber, seat: int | None) -> None:
        self.fanout.subscribe(room, sub, seat)

    def unsubscribe(self, room: Room, sub: Subscriber) -> None:
        self.fanout.unsubscribe(room, sub)

    def broadcast(self, room: Room, origin: Subscriber | None = None, rid: Any = None) -> None:
        self.fanout.broadcast(room, origin, rid)

    # --- bots (.tables.botrunner) ---------------------------------------------------------------
    bot_to_move = staticmethod(bot_to_move)
    bots_busy = staticmethod(bots_busy)
    bot_broke = staticmethod(BotRunner.bot_broke)

    def start_bots(self, room: Room) -> None:
        self.botrunner.start_bots(room)

    async def run_bots(self, room: Room) -> None:
        await self.botrunner.run_bots(room)

    # --- replays and records (.tables.records) --------------------------------------------------
    def replay_perspective(self, room: Room, token_seat: int | None,
                           perspective: str) -> int | None | str:
        return self.records.replay_perspective(room, token_seat, perspective)

    def state_at(self, room: Room, step: int) -> State:
        return self.records.state_at(room, step)

    def drop_checkpoints(self, table_id: str, keep: int) -> None:
        self.records.drop_checkpoints(table_id, keep)

    def replay_frame(self, room: Room, token_seat: int | None, step: int,
                     perspective: str) -> dict[str, Any]:
        return self.records.replay_frame(room, token_seat, step, perspective)

    def record(self, room: Room) -> dict[str, Any]:
        return self.records.record(room)


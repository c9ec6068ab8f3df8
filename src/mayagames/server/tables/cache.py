"""The tables in memory: loaded (replayed) from the database on first use, set apart as
broken when they cannot load, unloaded when idle (they reload from the database)."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

from ..db import BrokenRow, is_unavailable
from ..rooms import Room, ServerError
from .base import (BotStarter, CatchingUp, Checkpoints, TableDb, TableHooks, Unconnected,
                   bots_busy, log, unavailable)

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
BROKEN_HOOK_ERRORS = (ValueError, TypeError, KeyError, IndexError)


class TableCache:
    """``rooms``: the tables in memory by id; ``broken``: why a table cannot load, by id."""

    def __init__(self, base: TableDb, hooks: TableHooks, records: Checkpoints) -> None:
        self.base = base
        self.hooks = hooks
        self.records = records
        self.rooms: dict[str, Room] = {}
        self.broken: dict[str, str] = {}
        self.leased: set[str] = set()  # the lease keeper's: tables whose bots this instance moves
        self.bots: BotStarter = Unconnected()  # type: ignore[assignment]
        self.sync: CatchingUp = Unconnected()  # type: ignore[assignment]

    def connect(self, bots: BotStarter, sync: CatchingUp, leased: set[str]) -> None:
        self.bots, self.sync, self.leased = bots, sync, leased

    async def get_room(self, table_id: str, fresh: bool = False) -> Room:
        """The live room of a table, loading (replaying) it from the database if needed.

        ``fresh``: with several instances, first make sure the room has every write
        (one version look-up), so a client reads what it wrote through another instance.
        """
        room = self.rooms.get(table_id)
        if room is not None:
            room.last_used = time.monotonic()
            if fresh and self.base.db.shared:
                await self.sync.refresh(room)
            return room
        if not TABLE_ID.fullmatch(table_id):
            raise ServerError(404, "no_table", f"no table {table_id!r}")
        if table_id in self.broken:
            raise ServerError(500, "broken_table", self.broken[table_id])
        room = await self.load(table_id)
        if table_id in self.rooms:  # loaded meanwhile by another request
            return self.rooms[table_id]
        try:
            await self.hooks.loaded(room)
        except BROKEN_HOOK_ERRORS as exc:
            # a feature's row of this table is damaged (its settings; not a database that
            # is away, which is not cached as broken)
            raise self.set_broken(table_id, f"{type(exc).__name__}: {exc}") from exc
        room = self.rooms.setdefault(table_id, room)
        self.keep(room)
        return room

    async def load(self, table_id: str) -> Room:
        """Read and replay a stored table (404 if there is none; 500 and set apart as broken
        if it does not load; 503 if the database is away)."""
        try:
            stored = await self.base.in_db(self.base.db.load_table, table_id)
            if stored is None:
                raise ServerError(404, "no_table", f"no table {table_id!r}")
            room = Room.from_stored(stored, self.base.limits)
        except ServerError:
            raise
        except Exception as exc:  # a row that does not load or does not replay
            if is_unavailable(exc):  # a database blip is not a damaged table: try again later
                raise unavailable(exc) from exc
            raise self.set_broken(table_id, f"{type(exc).__name__}: {exc}") from exc
        if room.broken_bots:
            log.error("table %s: %s", table_id, "; ".join(room.broken_bots.values()))
        return room

    def set_broken(self, table_id: str, why: str) -> ServerError:
        """Remember (and log) that the table cannot load; the error to raise."""
        reason = f"table {table_id} cannot be resumed: {why}"[:500]
        self.broken[table_id] = reason
        log.error("%s", reason)
        return ServerError(500, "broken_table", reason)

    def keep(self, room: Room) -> None:
        """A room just came into memory: mark it used, start its bots, evict if too many."""
        room.last_used = time.monotonic()
        self.bots.start_bots(room)
        if len(self.rooms) > self.base.limits.max_tables_in_memory:
            self.evict(time.monotonic())

    def add(self, room: Room) -> None:
        """Keep a table just created here in memory (and start its bots)."""
        self.rooms[room.stored.id] = room
        self.keep(room)

    async def live(self, room: Room) -> Room:
        """``room``, or the table's loaded room if ``room`` was unloaded meanwhile."""
        return await self.get_room(room.id) if room.evicted else room

    # --- memory: idle tables are unloaded (they reload from the database) -------------
    def evictable(self, room: Room) -> bool:
        """Nobody watches it, no bot of this instance thinks on it, no request holds it."""
        return (not room.subscribers and not bots_busy(room) and not room.lock.locked()
                and room.id not in self.leased)

    def evict(self, now: float) -> int:
        """Unload rooms idle longer than ``idle_seconds``, then the least recently used
        idle ones while more than ``max_tables_in_memory`` are loaded; the count unloaded."""
        limits = self.base.limits
        idle = sorted((r for r in self.rooms.values() if self.evictable(r)),
                      key=lambda r: r.last_used)
        excess = len(self.rooms) - limits.max_tables_in_memory
        gone = 0
        for room in idle:
            if now - room.last_used < limits.idle_seconds and gone >= excess:
                break
            del self.rooms[room.id]
            self.records.forget(room.id)
            room.evicted = True
            gone += 1
        return gone

    async def evict_idle_rooms(self) -> None:
        """Now and then, unload the idle rooms."""
        every = max(0.05, min(30.0, self.base.limits.idle_seconds / 4))
        while True:
            await asyncio.sleep(every)
            self.evict(time.monotonic())

    # --- the lobby's list -----------------------------------------------------------------
    async def list_tables(self, status: str | None, limit: int,
                          only: Any = None) -> list[dict[str, Any]]:
        """The lobby's list, most recently active first; ``only``: a query of the table ids
        the asker may see listed (None: all)."""
        rows = await self.base.in_db(self.base.db.list_tables, status, limit, only)
        listed = []
        for t in rows:
            if isinstance(t, BrokenRow):
                if t.id not in self.broken:
                    self.broken[t.id] = f"table {t.id} cannot be resumed: {t.reason}"
                    log.error("%s", self.broken[t.id])
                listed.append({"table": t.id, "game": None, "num_players": None,
                               "status": "broken", "broken": self.broken[t.id],
                               "move_count": None, "result": None, "seats": [],
                               "seed_fixed": False, "created_at": None, "updated_at": None})
                continue
            listed.append({
                "table": t.id, "game": t.game, "num_players": t.num_players,
                "status": t.status, "move_count": t.move_count, "result": t.result,
                "seats": [{"seat": i, "name": s.name, "agent": s.agent}
                          for i, s in enumerate(t.seats)],
                "seed_fixed": t.seed_fixed,
                "created_at": t.created_at.isoformat() if t.created_at else None,
                "updated_at": t.updated_at.isoformat() if t.updated_at else None})
        return listed

"""Clocks: charged after every move, watched for their deadlines; a seat whose time runs
out is handed to a zombie bot of the table's level. With several instances a table not in
memory anywhere is timed out by the instance that claims its clock lease."""

from __future__ import annotations

import asyncio
import contextlib

from ..clocks import after_move, expired, parse_speed, run_for, waiting_for
from ..db import is_unavailable
from ..playerstore import TableMeta
from ..rooms import LogEntry, Room, ServerError
from .base import Decorating, Posting, Rating, Shared, Unconnected, log

CLOCK_LEASE_SECONDS = 4.0  # a clock lease not released for this long is taken over


class Timekeeper:
    """``deadlines``: the next deadline of each table in memory here; ``declined``: stored
    deadlines found not due (the seat moved meanwhile), skipped until they change."""

    def __init__(self, shared: Shared, tick: float = 1.0) -> None:
        self.shared = shared
        self.tick = tick
        self.deadlines: dict[str, float] = {}
        self.declined: set[tuple[str, float]] = set()
        self.keeper: asyncio.Task[None] | None = None
        self.settings: Decorating = Unconnected()  # type: ignore[assignment]
        self.rating: Rating = Unconnected()  # type: ignore[assignment]
        self.chat: Posting = Unconnected()  # type: ignore[assignment]

    def connect(self, settings: Decorating, rating: Rating, chat: Posting) -> None:
        self.settings, self.rating, self.chat = settings, rating, chat

    def start(self) -> None:
        self.keeper = asyncio.get_running_loop().create_task(self.keep_clocks())

    async def stop(self) -> None:
        if self.keeper is not None:
            self.keeper.cancel()
            await asyncio.gather(self.keeper, return_exceptions=True)

    def clocked_seat(self, room: Room, meta: TableMeta) -> int | None:
        """The seat whose clock runs now: a person's seat to move, once every seat is taken."""
        seat = room.state.current_player
        if room.finished or not meta.full or seat is None or room.is_bot(seat) \
                or waiting_for(meta.clock):
            return None
        return seat

    def watch(self, room: Room, meta: TableMeta) -> None:
        deadline = (meta.clock or {}).get("deadline")
        if deadline is None or room.finished:
            self.deadlines.pop(room.id, None)
        else:
            self.deadlines[room.id] = deadline

    async def save_clock(self, room: Room, meta: TableMeta,
                         deadline: float | None | bool = False,
                         expected: int | None = None) -> bool:
        """Store the clock and zombies (which tells the other instances); ``deadline``: only
        if the stored deadline is still this one (False: in any case); ``expected``: only
        if the table is still at this version. False: it was not stored."""
        version = await self.shared.db(self.shared.store.save_clock, room.id, meta.clock,
                                       meta.zombies, deadline, expected)
        self.watch(room, meta)
        if version is None:
            return False
        await self.shared.changed(room, version)
        return True

    async def on_move(self, room: Room, entry: LogEntry) -> None:
        """Under the table's lock, after a move is stored: charge the clock, rate the game."""
        shared = self.shared
        meta = shared.meta.get(room.id)
        if meta is None:
            return
        if meta.clock is not None:
            speed = parse_speed(meta.speed)
            after_move(meta.clock, speed, entry.seat, self.clocked_seat(room, meta),
                       {s for s in range(room.stored.num_players) if not room.is_bot(s)},
                       shared.clock())
            # only onto the move just stored: if another instance timed the seat out
            # meanwhile (its deadline came as the move was stored), its zombie stands
            if not await self.save_clock(room, meta, expected=shared.version_now(room)):
                await self.settings.on_change(room)
        if room.finished and meta.rated:
            await self.rating.rate_table(room, meta)

    async def keep_clocks(self) -> None:
        """Every ``tick`` seconds: hand the seats whose time ran out to a bot."""
        while True:
            await asyncio.sleep(self.tick)
            try:
                await self.check_clocks()
            except Exception as exc:
                if is_unavailable(exc):  # the database is away: next tick
                    log.warning("checking the clocks failed: the database is away (%s)",
                                type(exc).__name__)
                else:
                    log.exception("checking the clocks failed")

    async def check_clocks(self) -> list[str]:
        """Time out every expired clock now; returns the tables where a seat timed out.

        The tables in memory here, and every other table whose stored deadline passed (one
        indexed query): watched by nobody, or held by an instance that died. With several
        instances, such a table is timed out by the one that claims its clock lease."""
        now = self.shared.clock()
        timed_out = [table_id for table_id in [t for t, d in self.deadlines.items() if d <= now]
                     if await self.time_out_here(table_id)]
        expired_now = await self.shared.db(self.shared.store.expired_deadlines, now)
        self.declined &= set(expired_now)
        for table_id, deadline in expired_now:
            if self.deadlines.get(table_id) == deadline or (table_id, deadline) in self.declined:
                continue  # in memory here as stored (above), or found not to be due
            if await self.time_out_elsewhere(table_id):
                timed_out.append(table_id)
            else:
                self.declined.add((table_id, deadline))
        return timed_out

    async def time_out_here(self, table_id: str) -> bool:
        """Time out the clock of a table watched here (whose deadline passed)."""
        try:
            room = await self.shared.service.get_room(table_id)
        except ServerError:
            self.deadlines.pop(table_id, None)
            return False
        try:
            return await self.time_out(room)
        except ServerError as exc:  # a table that cannot catch up: the others go on
            log.error("table %s: its clock could not be timed out: %s", table_id, exc.message)
            return False

    async def time_out_elsewhere(self, table_id: str) -> bool:
        """Time out the clock of a table not in memory here (under its clock lease)."""
        shared = self.shared
        owner = shared.service.instance
        if shared.shared and not await shared.db(shared.store.claim_clock_lease, table_id,
                                                 owner, CLOCK_LEASE_SECONDS):
            return False  # another instance is at it
        try:
            room = await shared.service.get_room(table_id)
            return await self.time_out(room)
        except ServerError as exc:
            log.error("table %s: its clock could not be timed out: %s", table_id, exc.message)
            return False
        finally:
            if shared.shared:
                with contextlib.suppress(Exception):  # else it expires
                    await shared.db(shared.store.release_clock_lease, table_id, owner)

    async def time_out(self, room: Room) -> bool:
        """The seat to move ran out of time: a bot of the table's level plays it from now on."""
        shared = self.shared
        meta = shared.meta_of(room)
        async with room.lock:
            seat = await self.due_seat(room, meta)
            if seat is None:
                return False
            assert meta.clock is not None
            deadline = meta.clock.get("deadline")
            meta.clock["remaining"][seat] = 0.0
            if not any(e.seat == seat for e in room.log):  # walked away before moving
                meta.clock["idle"] = sorted({*meta.clock.get("idle", []), seat})
            meta.zombies.append(seat)
            run_for(meta.clock, parse_speed(meta.speed), None, shared.clock())
            # only if no other instance timed the seat out (or moved) since we read it
            if not await self.save_clock(room, meta, deadline, shared.version_now(room)):
                await self.settings.on_change(room)
                return False
            room.agents[seat] = self.settings.zombie_agent(room, meta, seat)
            name = room.stored.seats[seat].name
            await self.chat.post(room, "", None, f"{name} ran out of time: the {meta.zombie} bot "
                                 f"plays seat {seat + 1} from now on.", system=True)
            self.settings.decorate(room, meta)
            shared.service.broadcast(room)
        shared.service.start_bots(room)
        return True

    async def due_seat(self, room: Room, meta: TableMeta) -> int | None:
        """(Under the table's lock.) The seat whose time ran out, if one did; with several
        instances the room and its clock are first brought up to the database."""
        shared = self.shared
        if shared.shared:  # another instance may have moved or changed the table
            await shared.service.catch_up(room)
            stored = await shared.db(shared.store.load_meta, room.id)
            if stored is not None:
                meta.clock, meta.zombies = stored.clock, stored.zombies
        if room.finished or not expired(meta.clock, shared.clock()):
            self.watch(room, meta)
            return None
        assert meta.clock is not None
        seat = meta.clock["running"]
        if seat is None or seat != room.state.current_player:
            return None
        return seat

"""Which instance moves a table's bots: the one holding its bot lease (a row in the
database), renewed every tick by :meth:`Leases.maintain`; a lease not renewed for
``LEASE_SECONDS`` (its instance died) is taken over."""

from __future__ import annotations

import asyncio

from ..db import is_unavailable
from ..rooms import Room, ServerError
from .base import (LEASE_SECONDS, SWEEP_EVERY, TICK_SECONDS, BotStarter, CatchingUp, RoomSource,
                   TableDb, Unconnected, bot_to_move, bots_busy, log)


class Leases:
    """``leased``: the tables whose bot lease this instance holds."""

    def __init__(self, base: TableDb) -> None:
        self.base = base
        self.leased: set[str] = set()
        self.cache: RoomSource = Unconnected()  # type: ignore[assignment]
        self.bots: BotStarter = Unconnected()  # type: ignore[assignment]
        self.sync: CatchingUp = Unconnected()  # type: ignore[assignment]

    def connect(self, cache: RoomSource, bots: BotStarter, sync: CatchingUp) -> None:
        self.cache, self.bots, self.sync = cache, bots, sync

    async def claim(self, room: Room) -> bool:
        """Take the table's bot lease (False: another instance holds it)."""
        if not await self.base.in_db(self.base.db.claim_bot_lease, room.id, self.base.instance,
                                     LEASE_SECONDS):
            return False
        self.leased.add(room.id)
        return True

    async def release(self, room: Room) -> None:
        """Give the table's bot lease back (no bot is to move any more)."""
        await self.base.in_db(self.base.db.release_bot_leases, [room.id], self.base.instance)

    async def release_all(self, held: list[str]) -> None:
        """Hand the leases of ``held`` over at once (the server stops) rather than when
        they expire."""
        try:
            await self.base.in_db(self.base.db.release_bot_leases, held, self.base.instance)
        except Exception:
            log.warning("could not release the bot leases", exc_info=True)

    async def maintain(self) -> None:
        """Every tick: renew this instance's bot leases, take over expired ones (their
        instance died), and now and then check the rooms in use against the database."""
        tick = 0
        while True:
            await asyncio.sleep(TICK_SECONDS)
            tick += 1
            try:
                await self.keep_leases()
                if tick % SWEEP_EVERY == 0:
                    await self.sync.sweep([r for r in self.cache.rooms.values()
                                           if r.subscribers or bot_to_move(r)])
            except Exception as exc:  # the database is away: try again next tick
                log.warning("bot lease upkeep failed", exc_info=not is_unavailable(exc))

    async def keep_leases(self) -> None:
        await self.renew()
        leases = await self.base.in_db(self.base.db.bot_leases)
        rooms = self.cache.rooms
        for table_id, (owner, valid) in leases.items():
            if valid or owner == self.base.instance or table_id in rooms:
                continue
            try:  # an orphan of a dead instance, on a table not loaded here yet
                await self.cache.get_room(table_id)
            except ServerError as exc:
                log.error("table %s: %s", table_id, exc.message)
        for room in list(rooms.values()):
            lease = leases.get(room.id)
            if bot_to_move(room) and not bots_busy(room) and not (lease and lease[1]):
                self.bots.start_bots(room)

    async def renew(self) -> None:
        """Renew the leases held; a bot task whose lease was lost (renewed too late) stops."""
        mine = sorted(self.leased)
        kept = set(await self.base.in_db(self.base.db.renew_bot_leases, mine, self.base.instance,
                                         LEASE_SECONDS))
        for table_id in mine:
            room = self.cache.rooms.get(table_id)
            if table_id not in kept and table_id in self.leased:
                self.leased.discard(table_id)
                if room is not None and bots_busy(room):
                    log.warning("table %s: bot lease lost (this instance was too slow to renew "
                                "it); another instance moves its bots", table_id)
                    assert room.bot_task is not None
                    room.bot_task.cancel()

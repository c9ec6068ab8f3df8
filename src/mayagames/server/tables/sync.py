"""Several instances on one database: catching a room up with the stored table, following
the other instances' writes (their notifications), and the seats' stored rows.

The database orders the writes: each write names the table version the room reflects; a
room that is behind catches up here (moves applied one by one, or rebuilt from the stored
record after an undo elsewhere), and every subscriber gets the new position.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ...core.errors import MayaGamesError
from ..db import StoredSeat, StoredTable
from ..rooms import Room, ServerError, replay_moves
from .base import (BotStarter, Broadcaster, Checkpoints, TableDb, TableHooks, Unconnected, log,
                   log_failure)


def broken_replay(room: Room, exc: MayaGamesError) -> ServerError:
    """Stored moves that do not replay: logged, and a broken table (500)."""
    log.error("table %s: stored moves do not replay: %s", room.id, exc)
    return ServerError(500, "broken_table", f"table {room.id} cannot be resumed: {exc}")


class Sync:
    """Brings the rooms of ``rooms`` (the table cache's) up to the database's writes."""

    def __init__(self, base: TableDb, hooks: TableHooks, fanout: Broadcaster,
                 records: Checkpoints, rooms: dict[str, Room]) -> None:
        self.base = base
        self.hooks = hooks
        self.fanout = fanout
        self.records = records
        self.rooms = rooms
        self.bots: BotStarter = Unconnected()  # type: ignore[assignment]

    def connect(self, bots: BotStarter) -> None:
        self.bots = bots

    # --- catching up ------------------------------------------------------------------------
    async def refresh(self, room: Room) -> None:
        """Catch up if the stored version differs from the room's (one look-up)."""
        versions = await self.base.in_db(self.base.db.versions, [room.id])
        if versions.get(room.id, room.version) != room.version:
            async with room.lock:
                await self.catch_up(room)

    async def catch_up(self, room: Room, force: bool = False) -> bool:
        """Bring ``room`` (its lock held) to the stored table; True if it changed.

        Moves added after the room's own are applied one by one (checked as a replay
        checks them; read alone when the versions show that nothing else happened); if
        the stored moves no longer start with the room's (an undo elsewhere), the room is
        rebuilt from the stored record. Subscribers get the
        new position. Without ``force`` only when other instances may exist.
        """
        db = self.base.db
        if not (db.shared or force):
            return False
        head = await self.base.in_db(db.moves_after, room.id, room.move_number)
        if head is None or head[0] == room.version:
            return False
        version, count, added = head
        appended = count - room.move_number
        # only moves were added (no undo) iff the version grew by the number of new moves
        if version - room.version == appended >= 0 and \
                [n for n, _, _ in added[:appended]] == list(range(room.move_number + 1, count + 1)):
            self.replay_stored(room, [(text, seat) for _, text, seat in added[:appended]])
            room.version = version
            self.fanout.broadcast(room)
            return True
        stored = await self.base.in_db(db.load_table, room.id)
        if stored is None or stored.version == room.version:
            return False
        # the version moved by more than moves: an undo, or a change of the seats or
        # settings (a zombie, a clock, a new player, a rematch): read them again too
        self.adopt_seats(room, stored.seats)
        room.rematch = room.rematch or stored.rematch
        await self.hooks.changed(room)
        self.adopt_moves(room, stored)
        self.fanout.broadcast(room)
        return True

    def replay_stored(self, room: Room, moves: list[tuple[str, int]]) -> None:
        """Apply moves stored by another instance (text, seat), checked as a replay checks
        them; a move that does not replay is a broken table (500)."""
        try:
            for text, seat in moves:
                after, entry = room.stored_move(text, seat)
                room.commit(after, entry)
        except MayaGamesError as exc:
            raise broken_replay(room, exc) from exc

    def adopt_moves(self, room: Room, stored: StoredTable) -> None:
        """Make ``room``'s moves the stored ones: those after the moves both share are
        applied, or, if the stored moves no longer start with the room's (an undo
        elsewhere), the room is rebuilt from the stored record."""
        moves = [text for text, _ in stored.moves]
        common = 0
        for mine, theirs in zip(room.moves, moves):
            if mine != theirs:
                break
            common += 1
        if common == len(room.moves):
            self.replay_stored(room, stored.moves[common:])
            room.version = stored.version
            return
        for sub in room.subscribers:  # their log differs from move common + 1 on
            sub.known = min(sub.known, common)
        try:
            state, log_ = replay_moves(room.info, room.stored, moves, room.log[:common],
                                       stored.told)
            room.replace(state, log_, stored.version)
            self.records.drop_checkpoints(room.id, common)
        except MayaGamesError as exc:
            raise broken_replay(room, exc) from exc

    # --- following the other instances ----------------------------------------------------------
    def on_notify(self, payload: dict[str, Any]) -> None:
        """A write of some instance (this one's too) was committed (:mod:`..notify`)."""
        room = self.rooms.get(str(payload.get("t")))
        version = payload.get("v")
        if room is None or not isinstance(version, int) or version <= room.version:
            return  # not a table in use here, or already known
        change = self.table_changed(room, version) if payload.get("op") == "table" \
            else self.follow(room, payload)  # seats or settings; a move or an undo
        task = asyncio.get_running_loop().create_task(change)
        task.add_done_callback(log_failure)

    async def follow(self, room: Room, payload: dict[str, Any]) -> None:
        """Adopt another instance's write: from the notification itself when it is the
        next one (a move, or an undo), else by catching up from the database."""
        async with room.lock:
            version, number = payload["v"], payload.get("n")
            if version <= room.version:
                return
            try:
                if version != room.version + 1 or not isinstance(number, int):
                    await self.catch_up(room)
                elif payload.get("op") == "move" and number == room.move_number + 1:
                    after, entry = room.stored_move(str(payload.get("m")), payload.get("s"))
                    room.commit(after, entry, version)
                    self.fanout.broadcast(room)
                elif payload.get("op") == "undo" and 0 <= number < room.move_number:
                    state, log_ = replay_moves(room.info, room.stored, room.moves[:number], room.log)
                    room.replace(state, log_, version)
                    self.records.drop_checkpoints(room.id, number)
                    self.fanout.broadcast(room)
                else:
                    await self.catch_up(room)
            except (MayaGamesError, ServerError) as exc:
                log.error("table %s: could not follow write %s: %s", room.id, version, exc)
                return
        self.bots.start_bots(room)

    async def table_changed(self, room: Room, version: int) -> None:
        """Another instance changed a table's seats or settings (making ``version``): read
        them again and send every subscriber the table as it is now (clocks, zombies,
        owners, rematch). After a gap (a missed notification), catch up in full."""
        async with room.lock:
            if version <= room.version:
                return
            try:
                if version != room.version + 1:
                    await self.catch_up(room)
                else:
                    await self.reload_seats(room)
                    room.rematch = room.rematch or await self.base.in_db(self.base.db.rematch_of,
                                                                         room.id)
                    await self.hooks.changed(room)
                    room.version = version
                    self.fanout.broadcast(room)
            except ServerError as exc:
                log.error("table %s: could not follow change %s: %s", room.id, version,
                          exc.message)
                return
        self.bots.start_bots(room)

    def on_reconnect(self) -> None:
        """The LISTEN connection was lost and is back: notifications may be missing."""
        task = asyncio.get_running_loop().create_task(self.sweep(list(self.rooms.values())))
        task.add_done_callback(log_failure)

    async def sweep(self, rooms: list[Room]) -> None:
        """Catch up every room of ``rooms`` whose stored version differs."""
        versions = await self.base.in_db(self.base.db.versions, [r.id for r in rooms])
        for room in rooms:
            if versions.get(room.id, room.version) != room.version:
                async with room.lock:
                    try:
                        await self.catch_up(room)
                    except ServerError as exc:
                        log.error("table %s: %s", room.id, exc.message)
                        continue
                self.bots.start_bots(room)

    # --- seats and settings changed (here or elsewhere) ---------------------------------------
    async def announce(self, table_id: str, version: int | None = None) -> None:
        """A table's seats or settings changed: ``version`` is the table version that the
        change's own transaction made (:meth:`~..db.Database.table_changed`, which also told
        the other instances); None: raise the version (and tell them) now."""
        if version is None:
            try:
                version = await self.base.in_db(self.base.db.notify_table, table_id)
            except Exception:  # their periodic version check finds it when the database is back
                log.warning("table %s: could not tell the other instances of a change", table_id,
                            exc_info=True)
                return
        room = self.rooms.get(table_id)
        if room is not None:
            self.adopt_version(room, version)

    @staticmethod
    def adopt_version(room: Room, version: int | None) -> None:
        """This instance stored a change to ``room``'s seats or settings (already made in
        memory) as ``version``: the room reflects it if it was at the version before;
        otherwise someone else wrote meanwhile and the room stays behind, to catch up."""
        if version is not None and version == room.version + 1:
            room.version = version

    async def reload_seats(self, room: Room) -> bool:
        """Read the table's seat rows again (names, tokens); True if a token changed."""
        return self.adopt_seats(room, await self.base.in_db(self.base.db.load_seats, room.id))

    @staticmethod
    def adopt_seats(room: Room, seats: list[StoredSeat]) -> bool:
        """Take the stored seat rows (names, tokens); True if a token changed."""
        if len(seats) != len(room.stored.seats):
            return False
        changed = False
        for seat, (mine, stored) in enumerate(zip(room.stored.seats, seats)):
            if mine.token_hash != stored.token_hash:
                changed = True
                for sub in [s for s in room.subscribers if s.seat == seat]:
                    sub.close()  # whoever held the old link is sent away
            mine.name, mine.token_hash = stored.name, stored.token_hash
        room.message_cache = {}
        return changed

    async def seat_of_token(self, room: Room, token: str | None) -> int | None:
        """``room.seat_of_token``, but a token this instance does not know yet (handed out
        through another instance a moment ago) is looked up again in the database."""
        try:
            return room.seat_of_token(token)
        except ServerError:
            if not self.base.db.shared:
                raise
        await self.reload_seats(room)
        return room.seat_of_token(token)

"""A move and an undo: checked under the table's lock, stored, then announced.

One asyncio event loop owns every room. A move or an undo takes the room's lock, checks
the expected move number, computes the new state on a clone, writes to the database in a
worker thread, then adopts the state and queues one message per subscriber, all under the
lock. Two requests racing for the same turn therefore serialise: the first applies, the
second finds the move number changed and is refused (``stale``). With several instances
the database has the last word (:class:`~..db.StaleWrite`): the room catches up
(:mod:`.sync`) and the request is checked again.
"""

from __future__ import annotations

from typing import Any

from ...core.game import Action
from ..db import StaleWrite
from ..rooms import LogEntry, Room, ServerError, entry_to_json, replay_moves, result_of
from .base import (RETRY_AFTER, WRITE_TRIES, BotStarter, Broadcaster, CatchingUp, Checkpoints,
                   RoomSource, TableDb, TableHooks, log)


def lost_race(room: Room) -> ServerError:
    return ServerError(409, "stale", "the game changed while your request was being "
                       f"stored; it is at move {room.move_number}")


class Moves:
    """Plays and takes back moves on the tables of ``cache``."""

    def __init__(self, base: TableDb, hooks: TableHooks, cache: RoomSource, sync: CatchingUp,
                 fanout: Broadcaster, records: Checkpoints, bots: BotStarter) -> None:
        self.base = base
        self.hooks = hooks
        self.cache = cache
        self.sync = sync
        self.fanout = fanout
        self.records = records
        self.bots = bots

    async def play(self, room: Room, seat: int | None, move_number: int, *,
                   action_id: int | None = None, text: str | None = None,
                   action: Action | None = None, origin: Any = None,
                   rid: Any = None) -> Room:
        """Apply one move for ``seat`` if ``move_number`` is still current; persist, then
        announce; returns the room (the reloaded one if ``room`` was unloaded meanwhile).

        The database has the last word: if another instance stored a write first, the
        room catches up and the request is checked again (it is then usually stale).
        """
        room = await self.cache.live(room)
        async with room.lock:
            if move_number != room.move_number:
                await self.sync.catch_up(room)  # another instance may have moved meanwhile
            for _ in range(WRITE_TRIES):
                chosen = self.checked_action(room, seat, move_number, action_id, text, action)
                after, entry = room.prepare(chosen)
                version = await self.append(room, entry, after)
                if version is None:
                    await self.sync.catch_up(room, force=True)
                    continue
                room.commit(after, entry, version)
                await self.hooks.moved(room, entry)
                self.fanout.broadcast(room, origin, rid)
                break
            else:
                raise lost_race(room)
        self.bots.start_bots(room)
        return room

    @staticmethod
    def checked_action(room: Room, seat: int | None, move_number: int, action_id: int | None,
                       text: str | None, given: Action | None) -> Action:
        """The move asked for, if it is ``seat``'s turn at ``move_number`` and legal: a
        bot's ``given`` action, or a person's by id or notation."""
        room.check_turn(seat, move_number)
        if given is None and room.is_bot(seat):  # a person's request for a bot's seat
            raise ServerError(403, "bot_seat", "a bot plays this seat (its player's time "
                              "ran out)")
        if given is None:
            return room.resolve_action(action_id, text)
        room.check_legal(given)
        return given

    async def append(self, room: Room, entry: LogEntry, after: Any) -> int | None:
        """Store the move; its table version, or None if another writer was first
        (503 ``not_saved`` if it could not be stored: it is not played)."""
        try:
            return await self.base.in_db(
                self.base.db.append_move, room.id, entry.number, entry.full, entry.seat,
                "finished" if after.is_terminal else "playing", result_of(after),
                room.version, entry_to_json(entry, room.info.version),
                after.current_player)
        except StaleWrite:
            return None
        except Exception as exc:  # the move is not stored, so it is not played
            log.exception("could not store move %s of table %s", entry.number, room.id)
            raise ServerError(503, "not_saved", "the move could not be saved and was "
                              f"not played; try again ({type(exc).__name__})",
                              retry_after=RETRY_AFTER) from exc

    async def undo(self, room: Room, seat: int | None, move_number: int,
                   origin: Any = None, rid: Any = None) -> Room:
        """Take back ``seat``'s last move: replay the record without it (returns the room)."""
        room = await self.cache.live(room)
        async with room.lock:
            if move_number != room.move_number:
                await self.sync.catch_up(room)
            for _ in range(WRITE_TRIES):
                if move_number != room.move_number:
                    raise ServerError(409, "stale", f"you answered move {move_number} but the "
                                      f"game is at move {room.move_number}")
                refusal = room.undo_refusal(seat)
                if refusal:
                    raise ServerError(403, "no_undo", refusal)
                state, log_ = replay_moves(room.info, room.stored, room.moves[:-1], room.log)
                try:
                    version = await self.base.in_db(self.base.db.truncate_moves, room.id,
                                                    len(log_), room.version, state.current_player)
                except StaleWrite:
                    await self.sync.catch_up(room, force=True)
                    continue
                room.replace(state, log_, version)
                self.records.drop_checkpoints(room.id, len(log_))
                self.fanout.broadcast(room, origin, rid)
                break
            else:
                raise lost_race(room)
        return room

"""Bot turns: while a bot seat is to move, its agent thinks in the bot pool (search bots in
worker processes, others in threads: the event loop keeps serving) and its move is played
like anyone's. With several instances only the holder of the table's bot lease moves them."""

from __future__ import annotations

import asyncio

from ...agents import RandomAgent
from ...core.rng import derive_seed
from ..bots import BotPool
from ..rooms import Room, ServerError
from .base import (CatchingUp, LeaseHolder, MovePlayer, TableDb, Unconnected, bot_to_move,
                   bots_busy, log, log_failure)


class BotRunner:
    """Starts and runs the bot turns of the tables in memory."""

    def __init__(self, base: TableDb, pool: BotPool, bot_delay: float,
                 leases: LeaseHolder, sync: CatchingUp) -> None:
        self.base = base
        self.pool = pool
        self.bot_delay = bot_delay
        self.leases = leases
        self.sync = sync
        self.moves: MovePlayer = Unconnected()  # type: ignore[assignment]

    def connect(self, moves: MovePlayer) -> None:
        self.moves = moves

    bot_to_move = staticmethod(bot_to_move)
    bots_busy = staticmethod(bots_busy)

    def start_bots(self, room: Room) -> None:
        """Make sure a bot seat to move is thinking (here, or on the instance whose lease it is)."""
        if not bot_to_move(room):
            return
        if not bots_busy(room):
            room.bot_task = asyncio.get_running_loop().create_task(self.run_bots(room))
            room.bot_task.add_done_callback(log_failure)

    async def run_bots(self, room: Room) -> None:
        """Play bot moves while a bot seat is to move (each one thinks in the bot pool).

        With several instances: only with the table's bot lease (else another instance
        moves them), first catching up with the database; the lease is given back when
        no bot is to move any more.
        """
        shared = self.base.db.shared
        if shared:
            if not await self.leases.claim(room):
                return
            async with room.lock:
                await self.sync.catch_up(room)
        try:
            await self.move_bots(room)
        finally:  # a failed bot loop stops renewing: the lease expires, another one tries
            self.leases.leased.discard(room.id)
        if shared:
            await self.leases.release(room)

    async def move_bots(self, room: Room) -> None:
        while bot_to_move(room):
            seat, number = room.state.current_player, room.move_number
            assert seat is not None
            view, legal = room.state.view(seat), list(room.state.legal_actions())
            if not legal:  # an engine bug: a seat to move with nothing to do
                log.error("table %s: seat %s is to move but has no legal action", room.id, seat)
                return
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            action, room.agents[seat], failure = await self.pool.decide(room.agents[seat], view,
                                                                        legal)
            if failure is not None:
                self.bot_broke(room, seat, failure)
            try:
                await self.moves.play(room, seat, number, action=action)
            except ServerError as exc:
                log.warning("bot move on table %s refused: %s", room.id, exc.message)
                if exc.code != "not_saved":
                    return
                await asyncio.sleep(1.0)

    @staticmethod
    def bot_broke(room: Room, seat: int, failure: str) -> None:
        """A bot that failed: the seat is marked broken (every client is told) and plays
        random legal moves from now on; one log line, not one per move."""
        agent = room.stored.seats[seat].agent
        room.broken_bots[seat] = (f"the bot {agent!r} failed ({failure}); it plays random "
                                  "legal moves from now on")
        room.agents[seat] = RandomAgent(derive_seed(room.stored.seed, room.id, "fallback", seat))
        log.error("table %s: bot seat %s (%s) broken: %s", room.id, seat, agent, failure)

    def cancel_all(self, rooms: list[Room]) -> list["asyncio.Task[None]"]:
        """Cancel the running bot tasks of ``rooms``; the tasks, to be awaited."""
        tasks = [r.bot_task for r in rooms if r.bot_task and not r.bot_task.done()]
        for task in tasks:
            task.cancel()
        return tasks

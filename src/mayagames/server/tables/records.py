"""Replays (what a side saw after some moves, rebuilt from checkpoints) and game records."""

from __future__ import annotations

from typing import Any

from ...core.game import State
from ...core.record import GameRecord, Seat
from ..rooms import LogEntry, Room, ServerError
from ..wire import WIRE_SCHEMA
from .base import CHECKPOINT_EVERY


class Records:
    """The replay checkpoints of the tables in memory, the replay frames and the records."""

    def __init__(self) -> None:
        self.checkpoints: dict[str, dict[int, State]] = {}

    def replay_perspective(self, room: Room, token_seat: int | None,
                           perspective: str) -> int | None | str:
        """Check who may see a replay from where: ``'all'``, a seat number or ``'spectator'``.

        Finished games can be replayed from any side; unfinished ones only from the
        spectator's side or the requesting seat's own side (what it saw anyway).
        """
        if perspective == "all":
            if not room.finished:
                raise ServerError(403, "replay_hidden", "the whole game (hidden parts included) "
                                  "can only be replayed once it is finished")
            return "all"
        if perspective in ("spectator", ""):
            return None
        if not (perspective.isascii() and perspective.isdigit()) or len(perspective) > 3 or not 0 <= int(perspective) < room.stored.num_players:
            raise ServerError(400, "bad_perspective", "perspective must be 'all', 'spectator' "
                              f"or a seat 0..{room.stored.num_players - 1}")
        seat = int(perspective)
        if not room.finished and seat != token_seat:
            raise ServerError(403, "replay_hidden", f"until the game ends, only seat {seat}'s "
                              "own token may replay what that seat saw")
        return seat

    def state_at(self, room: Room, step: int) -> State:
        """The true state after ``step`` moves, from the nearest checkpoint."""
        points = self.checkpoints.setdefault(room.id, {})
        base = (step // CHECKPOINT_EVERY) * CHECKPOINT_EVERY
        start = max((k for k in points if k <= base), default=0)
        state = points[start].clone() if start in points else room.stored_new_state()
        for i in range(start, step):
            if i % CHECKPOINT_EVERY == 0 and i not in points:
                points[i] = state.clone()
            state.apply_unchecked(state.parse_action(room.moves[i]))
        if step % CHECKPOINT_EVERY == 0 and step not in points:
            points[step] = state.clone()
        return state

    def drop_checkpoints(self, table_id: str, keep: int) -> None:
        """Forget the checkpoints after move ``keep`` (those moves were taken back)."""
        points = self.checkpoints.get(table_id, {})
        for k in [k for k in points if k > keep]:
            del points[k]

    def forget(self, table_id: str) -> None:
        """The table left memory: its checkpoints go too."""
        self.checkpoints.pop(table_id, None)

    def replay_frame(self, room: Room, token_seat: int | None, step: int,
                     perspective: str) -> dict[str, Any]:
        """What one side saw after ``step`` moves, with the log up to there."""
        side = self.replay_perspective(room, token_seat, perspective)
        if not 0 <= step <= room.move_number:
            raise ServerError(400, "bad_step", f"step must be 0..{room.move_number}")
        state = self.state_at(room, step)
        everything = side == "all"
        viewer = None if everything else side
        assert viewer is None or isinstance(viewer, int)
        shown = state if everything else state.view(viewer)
        entries: list[LogEntry] = room.log[:step]
        return {"type": "frame", "schema": WIRE_SCHEMA, **room.header(), "step": step, "total": room.move_number,
                "perspective": "all" if everything else ("spectator" if viewer is None else viewer),
                "current_player": state.current_player, "terminal": state.is_terminal,
                "view": shown.to_dict(),
                "log": [e.to_dict(viewer, everything, room.seat_names) for e in entries],
                "scores": state.scores() if everything or state.is_terminal else shown.scores(),
                "winners": state.winners() if state.is_terminal else []}

    @staticmethod
    def record(room: Room) -> dict[str, Any]:
        """The game record (it holds the seed, so only once the game is finished)."""
        if not room.finished:
            raise ServerError(403, "record_hidden", "the record holds the seed, which would "
                              "reveal hidden information: it is available when the game ends")
        stored = room.stored
        record = GameRecord(game=stored.game, seed=stored.seed, num_players=stored.num_players,
                            options=stored.options, engine_version=stored.engine_version,
                            seats=[Seat(s.name, s.agent) for s in stored.seats],
                            moves=list(room.moves),
                            meta={"table": stored.id, "seed_fixed": stored.seed_fixed})
        if room.ended is None:
            record.finish(room.state)
        else:  # over before its rules end it (a resignation of 2): the winners are the
            # resignation's, not the leaders of an unfinished game
            record.result = {"scores": room.state.scores(), "winners": room.winners(),
                             "reason": room.ended["reason"]}
        return record.to_dict()

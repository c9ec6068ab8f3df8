"""One game played through integer actions: the engine state behind both environments.

An :class:`Episode` holds the true state (never handed to a learner), the game
record (seed, options and moves, so every episode can be replayed with
``mayagames replay``), and the game's encoding. It turns the current player's
legal actions into an index table (the action mask) and integers back into
actions, and builds each seat's observation from that seat's view.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from ..core.errors import IllegalAction
from ..core.game import Action, State
from ..core.record import GameRecord, Seat
from ..core.registry import get_game
from .encoding import ActionCodec, GameEncoding, ObservationEncoder


class Episode:
    """A game in progress, seen through a :class:`GameEncoding`."""

    def __init__(self, encoding: GameEncoding, num_players: int, seed: int,
                 options: Mapping[str, Any] | None = None, seats: Sequence[Seat] | None = None,
                 codec: ActionCodec | None = None, observer: ObservationEncoder | None = None) -> None:
        info = get_game(encoding.game)
        self.record = GameRecord.start(info.name, num_players, seed, dict(options or {}),
                                       list(seats) if seats else None)
        self.state: State = self.record.new_state()
        self.codec = codec or encoding.codec(num_players)
        self.observer = observer or encoding.observer(num_players)
        self._views: dict[int, State] = {}
        self._table: dict[int, Action] | None = None

    def invalidate(self) -> None:
        """Forget cached views and the legal table; call after changing ``state`` in
        place (tests of hidden information, scenario set-ups)."""
        self._views.clear()
        self._table = None

    # --- what a seat sees ------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return self.state.current_player

    def view(self, seat: int) -> State:
        """``seat``'s view of the current position (cached until the next move)."""
        if seat not in self._views:
            self._views[seat] = self.state.view(seat)
        return self._views[seat]

    def observation(self, seat: int) -> np.ndarray:
        """``seat``'s observation vector: from its view, or, for an encoder that reads only
        what the seat may see (``public``), from the state itself, which gives the same
        vector without copying the state."""
        if self.observer.public:
            return self.observer.observe_seat(self.state, seat)
        return self.observer.observe(self.view(seat))

    def legal_table(self) -> dict[int, Action]:
        """Index -> legal action of the current player (empty at the end)."""
        if self._table is None:
            seat = self.current_player
            if seat is None:
                self._table = {}
            else:
                state = self.state
                legal = state.legal_cached()  # the state's own list (read, never changed, here)
                if self.codec.public:
                    self._table = self.codec.legal_index_seat(state, seat, legal)
                else:
                    self._table = self.codec.legal_index(self.view(seat), legal)
        return self._table

    def mask(self, seat: int) -> np.ndarray:
        """``seat``'s action mask: its legal indices on its turn, all zeros otherwise."""
        if seat != self.current_player:
            return np.zeros(self.codec.size, dtype=np.int8)
        return self.codec.mask(self.legal_table())

    # --- acting ------------------------------------------------------------------
    def resolve(self, index: int) -> Action:
        """The legal action of ``index``; an :class:`IllegalAction` naming the rule if none."""
        action = self.legal_table().get(index)
        if action is None:
            raise self.explain(index)
        return action

    def explain(self, index: int) -> IllegalAction:
        """Why ``index`` is not legal now, citing the rule when the codec can decode it."""
        seat = self.current_player
        if seat is None:
            return IllegalAction("end of game", "the game is over; no more actions")
        try:
            action = self.codec.decode(index, self.view(seat))
        except IllegalAction as exc:
            return exc
        return self.state.explain_illegal(action)

    def play(self, action: Action) -> None:
        """Apply a legal action (from :meth:`resolve` or the legal actions) and log it."""
        self.state.apply_unchecked(action)
        self.record.moves.append(str(action))
        self.invalidate()
        if self.state.is_terminal:
            self.record.finish(self.state)

    def play_index(self, index: int) -> Action:
        action = self.resolve(index)
        self.play(action)
        return action


def check_index(action: Any, size: int) -> int:
    """An integer action index in ``0 .. size-1`` from an int or NumPy integer; else ValueError."""
    if type(action) is int and 0 <= action < size:
        return action
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise ValueError(f"an action is an integer index in 0..{size - 1}, got {action!r}")
    index = int(action)
    if not 0 <= index < size:
        raise ValueError(f"action index {index} is outside the action space 0..{size - 1}")
    return index


def live(episode: "Episode | None") -> "Episode":
    """The running episode, or a clear error before ``reset()``."""
    if episode is None:
        raise RuntimeError("call reset() before using the environment")
    return episode


def render_text(episode: "Episode | None", mode: str | None, seat: int | None) -> str | None:
    """``render()`` of both environments: the game's text picture of ``seat``'s view,
    returned ('ansi') or printed ('human')."""
    import gymnasium

    if mode is None:
        gymnasium.logger.warn("render() called without a render_mode (use 'ansi' or 'human')")
        return None
    text = live(episode).state.render(seat)
    if mode == "human":
        print(text)
        return None
    return text

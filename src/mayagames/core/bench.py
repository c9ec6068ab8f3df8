"""Engine benchmarks: random-play decisions per second, games per second, clone time.

Used by ``benchmarks/bench_engines.py`` and ``mayagames bench``. Figures are
reported, never asserted.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass

from .game import State, new_state
from .registry import get_game
from .rng import Rng


@dataclass
class EngineFigures:
    game: str
    players: int
    games: int
    decisions: int
    seconds: float
    decisions_per_s: float
    games_per_s: float
    mean_decisions_per_game: float
    clone_us: float
    legal_actions_mean: float

    def as_dict(self) -> dict:
        return asdict(self)


def measure(name: str, players: int, seconds: float = 5.0, seed: int = 1) -> EngineFigures:
    """Play random games for about ``seconds`` and measure the engine."""
    info = get_game(name)
    rng = Rng(seed)
    games = decisions = 0
    branching = 0
    start = time.perf_counter()
    mid_states: list[State] = []
    while time.perf_counter() - start < seconds or games == 0:
        state = new_state(info, players, seed + games)
        n = 0
        while state.current_player is not None:
            legal = state.legal_actions()
            branching += len(legal)
            state.apply_unchecked(legal[rng.randbelow(len(legal))])
            n += 1
            if n == 150 and len(mid_states) < 20:
                mid_states.append(state.clone())
        decisions += n
        games += 1
    elapsed = time.perf_counter() - start
    clone_us = _clone_time(mid_states or [new_state(info, players, seed)])
    return EngineFigures(name, players, games, decisions, round(elapsed, 3),
                         round(decisions / elapsed), round(games / elapsed, 3),
                         round(decisions / games, 1), round(clone_us, 2),
                         round(branching / max(decisions, 1), 2))


def _clone_time(states: list[State], reps: int = 200) -> float:
    start = time.perf_counter()
    for _ in range(reps):
        for s in states:
            s.clone()
    return (time.perf_counter() - start) / (reps * len(states)) * 1e6

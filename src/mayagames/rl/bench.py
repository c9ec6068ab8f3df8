"""RL throughput figures: PettingZoo's performance benchmark, the Gymnasium wrapper
against random bots, and the bare engine for comparison. Reported, never asserted.

Used by ``benchmarks/bench_rl.py`` and ``mayagames rl bench``.
"""

from __future__ import annotations

import contextlib
import io
import re
import time
from dataclasses import asdict, dataclass

import numpy as np

from ..core.bench import measure
from .aec import env
from .single_agent import gym_env


@dataclass
class RlFigures:
    game: str
    players: int
    aec_turns_per_s: float  # PettingZoo performance_benchmark (masked random, about 5 s)
    aec_cycles_per_s: float
    gym_steps_per_s: float  # learner steps (each includes the bots' decisions)
    gym_decisions_per_s: float  # all seats' decisions through the wrapper
    gym_episodes_per_s: float
    engine_decisions_per_s: float  # bare engine random play (mayagames.core.bench)

    def as_dict(self) -> dict:
        return asdict(self)


def pettingzoo_benchmark(game: str, players: int) -> tuple[float, float]:
    """PettingZoo's ``performance_benchmark`` (it runs about 5 s): turns/s and cycles/s."""
    from pettingzoo.test import performance_benchmark

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        performance_benchmark(env(game, num_players=players))
    text = out.getvalue()
    turns = float(re.search(r"([\d.e+]+) turns per second", text).group(1))
    cycles = float(re.search(r"([\d.e+]+) cycles per second", text).group(1))
    return turns, cycles


def gym_throughput(game: str, players: int, seconds: float, seed: int = 0) -> tuple[float, float, float]:
    """A masked random learner against random bots: steps/s, decisions/s, episodes/s."""
    environment = gym_env(game, num_players=players, seat="random")
    rng = np.random.default_rng(seed)
    steps = decisions = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or episodes == 0:
        obs, _ = environment.reset(seed=seed + episodes)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, _, terminated, truncated, _ = environment.step(action)
            done = terminated or truncated
            steps += 1
        decisions += len(environment.record().moves)
        episodes += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, decisions / elapsed, episodes / elapsed


def measure_rl(game: str, players: int, seconds: float = 5.0) -> RlFigures:
    turns, cycles = pettingzoo_benchmark(game, players)
    steps, decisions, episodes = gym_throughput(game, players, seconds)
    engine = measure(game, players, seconds)
    return RlFigures(game, players, round(turns), round(cycles), round(steps), round(decisions),
                     round(episodes, 1), engine.decisions_per_s)

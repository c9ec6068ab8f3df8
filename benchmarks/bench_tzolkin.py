"""Tzolk'in engine figures beyond the generic benchmark (one core, reported, never asserted):
random play with checked and unchecked apply, clone, view + determinize (what
information-set search pays per sample), and the heuristic estimate.

    PYTHONPATH=src python benchmarks/bench_tzolkin.py --players 2,3,4 --seconds 5
"""

from __future__ import annotations

import argparse
import time

from mayagames.core import Rng, new_game
from mayagames.tzolkin.heuristic import estimate_scores


def play_rate(players: int, seconds: float, checked: bool) -> tuple[float, float, float]:
    """(decisions/s, games/s, decisions per game) of uniform random play."""
    rng = Rng(1)
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        state = new_game("tzolkin", players, seed=games)
        apply = state.apply if checked else state.apply_unchecked
        while not state.is_terminal:
            legal = state.legal_actions()
            apply(legal[rng.randbelow(len(legal))])
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return decisions / elapsed, games / elapsed, decisions / games


def sample_states(players: int, count: int = 30) -> list:
    """Mid-game states from random games (every 40th decision)."""
    out = []
    rng = Rng(5)
    seed = 0
    while len(out) < count:
        state = new_game("tzolkin", players, seed=seed)
        step = 0
        while not state.is_terminal and len(out) < count:
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randbelow(len(legal))])
            step += 1
            if step % 40 == 0:
                out.append(state.clone())
        seed += 1
    return out


def per_call_us(func, states: list, reps: int = 100) -> float:
    start = time.perf_counter()
    for _ in range(reps):
        for s in states:
            func(s)
    return (time.perf_counter() - start) / (reps * len(states)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    print(f"{'pl':>2} {'unchecked dec/s':>16} {'checked dec/s':>14} {'games/s':>8} {'dec/game':>9} "
          f"{'clone us':>9} {'view+det us':>12} {'heuristic us':>13}")
    for players in [int(p) for p in args.players.split(",")]:
        fast, games, per_game = play_rate(players, args.seconds, checked=False)
        slow, _, _ = play_rate(players, args.seconds, checked=True)
        states = sample_states(players)
        rng = Rng(3)
        clone = per_call_us(lambda s: s.clone(), states)
        det = per_call_us(lambda s: s.view(s.cur).determinize(rng), states, reps=20)
        heur = per_call_us(estimate_scores, states, reps=20)
        print(f"{players:>2} {fast:>16,.0f} {slow:>14,.0f} {games:>8.1f} {per_game:>9.1f} "
              f"{clone:>9.2f} {det:>12.1f} {heur:>13.1f}")


if __name__ == "__main__":
    main()

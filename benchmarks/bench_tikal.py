"""Tikal engine micro-benchmarks (reported, never asserted): the costs a search bot pays per
node, on states sampled from random games.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_tikal.py --players 2,4
"""

from __future__ import annotations

import argparse
import time

from mayagames.core import Rng, new_game
from mayagames.tikal.heuristic import estimate_scores


def sample_states(players: int, games: int = 10) -> list:
    states = []
    for g in range(games):
        s = new_game("tikal", players, seed=g)
        rng = Rng(g)
        step = 0
        while not s.is_terminal:
            legal = s.legal_actions()
            s.apply_unchecked(legal[rng.randbelow(len(legal))])
            step += 1
            if step % 37 == 0:
                states.append(s.clone())
    return states


def per_call_us(fn, states, reps: int = 3) -> float:
    start = time.perf_counter()
    for _ in range(reps):
        for s in states:
            fn(s)
    return (time.perf_counter() - start) / (reps * len(states)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", default="2,4")
    args = parser.parse_args()
    print(f"{'pl':>2} {'states':>6} {'legal us':>9} {'clone us':>9} {'view us':>8} {'determ us':>10} "
          f"{'estimate us':>12} {'to_dict us':>11}")
    for players in [int(p) for p in args.players.split(",")]:
        states = sample_states(players)

        def fresh_legal(s):
            s._legal = None
            return s.legal_actions()

        rng = Rng(1)
        figures = [per_call_us(fresh_legal, states), per_call_us(lambda s: s.clone(), states),
                   per_call_us(lambda s: s.view(0), states),
                   per_call_us(lambda s: s.view(0).determinize(rng), states),
                   per_call_us(estimate_scores, states), per_call_us(lambda s: s.to_dict(), states, 1)]
        print(f"{players:>2} {len(states):>6} " + " ".join(f"{f:>{w}.1f}" for f, w in
                                                         zip(figures, (9, 9, 8, 10, 12, 11))))


if __name__ == "__main__":
    main()

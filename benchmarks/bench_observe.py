"""Observation encoders alone, without the engine's noise (issue 16).

The positions of the ``*-aec`` workload of ``bench_speedup.py`` (2 players, a masked
uniformly random policy stepping the PettingZoo AEC environment) are recorded as state
clones with the seat to observe, then replayed through a fresh observer: CPU time per
observation (the best of ``--reps`` replays, each with a new observer, so that every
replay redraws the same changes), and a CRC of every observation, which is the same in
every tree that encodes alike. It runs in the tree it is started from; to compare two
trees, run it in both (``PYTHONPATH=<tree>/src``) and compare the times and CRCs.

    .venv/bin/python benchmarks/bench_observe.py --games tikal,tzolkin --steps 1500 --reps 7
"""

from __future__ import annotations

import argparse
import random
import time
import zlib


def record(game: str, steps: int) -> list:
    """(state clone, seat) before every step of the AEC workload."""
    from mayagames.rl import env

    environment = env(game, num_players=2)
    pick = random.Random(0).random
    positions: list = []
    episode = 0
    environment.reset(seed=episode)
    while len(positions) < steps:
        obs, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            episode += 1
            environment.reset(seed=episode)
            continue
        state = environment.game_state
        positions.append((state.clone(), state.current_player))
        legal = obs["action_mask"].nonzero()[0]
        environment.step(int(legal[int(pick() * len(legal))]))
    return positions


def observe_of(observer):
    """How the tree observes a seat of a true state: ``observe_seat`` where the encoder has
    it, else the seat's view encoded (what the environments did before encoders read the
    true state)."""
    if hasattr(observer, "observe_seat"):
        return observer.observe_seat
    return lambda state, seat: observer.observe(state.view(seat))


def replay(game: str, positions: list, reps: int) -> tuple[float, int]:
    """Best CPU seconds per observation over ``reps`` replays, and the CRC of all of them."""
    from mayagames.rl import get_encoding

    encoding = get_encoding(game)
    best = float("inf")
    for _ in range(reps):
        observe = observe_of(encoding.observer(2))
        start = time.process_time()
        for state, seat in positions:
            observe(state, seat)
        best = min(best, time.process_time() - start)
    observe = observe_of(encoding.observer(2))
    crc = 0
    for state, seat in positions:
        crc = zlib.crc32(observe(state, seat), crc)
    return best / len(positions), crc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="tikal,tzolkin")
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--reps", type=int, default=7)
    args = parser.parse_args()
    print(f"{'game':8} {'observations':>12} {'us/observation':>15}  crc")
    for game in args.games.split(","):
        positions = record(game, args.steps)
        seconds, crc = replay(game, positions, args.reps)
        print(f"{game:8} {len(positions):>12,} {seconds * 1e6:>15.2f}  {crc:08x}")


if __name__ == "__main__":
    main()

"""How the ``easy`` Tzolk'in bot plays: unfed workers, buildings, result against ``medium``.

    .venv/bin/python benchmarks/easy_tzolkin.py --games 20 [--easy SPEC] [--medium SPEC]

Each game is 2 players, easy and medium alternating seats, seeds 0..games-1. Reports per
game the easy seat's unfed workers (summed over the 4 Food Days), buildings and monuments
built, final score, and who won; then the totals.
"""

from __future__ import annotations

import argparse
import time

from mayagames.agents import LEVELS, make_agent
from mayagames.core import new_game


def play(seed: int, easy_spec: str, medium_spec: str) -> dict:
    easy_seat = seed % 2
    specs = [medium_spec, medium_spec]
    specs[easy_seat] = easy_spec
    agents = [make_agent(spec, seed * 2 + i) for i, spec in enumerate(specs)]
    s = new_game("tzolkin", 2, seed=seed)
    unfed = [0, 0]
    food = 0
    while not s.is_terminal:
        seat = s.current_player
        s.apply(agents[seat].act(s.view(seat), s.legal_actions()))
        if s.food_done != food:
            food = s.food_done
            unfed = [u + x for u, x in zip(unfed, s.last_unfed)]
    scores = s.scores()
    return {"seed": seed, "easy_seat": easy_seat, "unfed": unfed[easy_seat],
            "medium_unfed": unfed[1 - easy_seat],
            "buildings": len(s.built[easy_seat]) + len(s.monuments[easy_seat]),
            "easy_score": scores[easy_seat], "medium_score": scores[1 - easy_seat],
            "easy_won": easy_seat in s.winners()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--easy", default=LEVELS["easy"][0])
    parser.add_argument("--medium", default=LEVELS["medium"][0])
    args = parser.parse_args()
    start = time.perf_counter()
    rows = [play(seed, args.easy, args.medium) for seed in range(args.games)]
    for r in rows:
        print(r)
    n = len(rows)
    print(f"easy = {args.easy!r} vs medium = {args.medium!r}, {n} games, "
          f"{time.perf_counter() - start:.0f} s")
    print(f"easy: unfed workers {sum(r['unfed'] for r in rows)} in {n} games "
          f"({sum(1 for r in rows if r['unfed'])} games with any), buildings+monuments "
          f"{sum(r['buildings'] for r in rows) / n:.1f} per game "
          f"({sum(1 for r in rows if r['buildings'] == 0)} games with none), mean score "
          f"{sum(r['easy_score'] for r in rows) / n:.1f}; medium mean score "
          f"{sum(r['medium_score'] for r in rows) / n:.1f}, medium unfed "
          f"{sum(r['medium_unfed'] for r in rows)}; easy won {sum(r['easy_won'] for r in rows)}/{n}")


if __name__ == "__main__":
    main()

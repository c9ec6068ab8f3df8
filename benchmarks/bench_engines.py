"""Engine benchmark: random-play decisions/s, games/s and clone time per game and
player count, on one core. Figures are printed (and written as JSON with --json).

    .venv/bin/python benchmarks/bench_engines.py --games tikal,tzolkin --players 2,4 --seconds 10
"""

from __future__ import annotations

import argparse
import json
import platform

from mayagames.core.bench import measure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", default="tikal,tzolkin")
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    rows = []
    print(f"python {platform.python_version()} on {platform.machine()}")
    print(f"{'game':8} {'pl':>2} {'games':>6} {'decisions/s':>12} {'games/s':>8} "
          f"{'dec/game':>9} {'clone us':>9} {'branching':>9}")
    for game in args.games.split(","):
        for players in [int(p) for p in args.players.split(",")]:
            f = measure(game, players, args.seconds)
            rows.append(f.as_dict())
            print(f"{game:8} {players:>2} {f.games:>6} {f.decisions_per_s:>12,} {f.games_per_s:>8.2f} "
                  f"{f.mean_decisions_per_game:>9} {f.clone_us:>9} {f.legal_actions_mean:>9}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()

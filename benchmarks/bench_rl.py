"""RL benchmark: random-play throughput of the PettingZoo AEC environment (PettingZoo's
own ``performance_benchmark``, about 5 s per case), of the Gymnasium wrapper against
random bots, and of the bare engine, per game and player count, on one core.

    PYTHONPATH=src python benchmarks/bench_rl.py --games toy --players 2,3,4 --seconds 5
"""

from __future__ import annotations

import argparse
import json
import platform

from mayagames.rl import encoded_games
from mayagames.rl.bench import measure_rl


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(encoded_games()))
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--seconds", type=float, default=5.0, help="per measurement (Gym and engine)")
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    rows = []
    print(f"python {platform.python_version()} on {platform.machine()}")
    print(f"{'game':8} {'pl':>2} {'AEC turns/s':>12} {'AEC cycles/s':>13} {'Gym steps/s':>12} "
          f"{'Gym dec/s':>10} {'Gym ep/s':>9} {'engine dec/s':>13}")
    for game in args.games.split(","):
        for players in [int(p) for p in args.players.split(",")]:
            f = measure_rl(game, players, args.seconds)
            rows.append(f.as_dict())
            print(f"{game:8} {players:>2} {f.aec_turns_per_s:>12,.0f} {f.aec_cycles_per_s:>13,.0f} "
                  f"{f.gym_steps_per_s:>12,.0f} {f.gym_decisions_per_s:>10,.0f} "
                  f"{f.gym_episodes_per_s:>9,.1f} {f.engine_decisions_per_s:>13,.0f}", flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()

"""Agent benchmarks: search speed and playing strength. Figures are printed (and
written as JSON with --json), never asserted.

Speed: MCTS iterations per second (one core) from positions spread over a
random game, plus the heuristic bot's time per decision::

    .venv/bin/python benchmarks/bench_agents.py speed --games toy,tikal,tzolkin --seconds 1

Strength: N games of A against B (seats rotate), A's win rate with its 95% Wilson
interval (a shared win counts as half), in parallel::

    .venv/bin/python benchmarks/bench_agents.py strength tikal heuristic random --games 200 --jobs 8
    .venv/bin/python benchmarks/bench_agents.py strength tzolkin mcts:1s heuristic --games 100

Targets, to be measured on the real games: heuristic beats random >= 95% of
2-player games; ISMCTS at 1 s per decision beats the heuristic >= 70%.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from typing import Any

from mayagames.agents import HeuristicAgent, MCTSAgent
from mayagames.agents.mcts import EngineError
from mayagames.arena import plan_matches, run_matches
from mayagames.arena.analysis import wilson_interval
from mayagames.arena.tournament import default_jobs
from mayagames.core import get_game, new_game
from mayagames.core.errors import OptionError
from mayagames.core.game import State
from mayagames.core.rng import Rng

TARGETS = {("heuristic", "random"): 0.95, ("mcts:1s", "heuristic"): 0.70}


def sample_positions(game: str, players: int, count: int, seed: int) -> list[State]:
    """Positions at evenly spread depths of one random game (decisions with a choice)."""
    rng = Rng(seed)
    length_probe = new_game(game, players, seed)
    length = 0
    while not length_probe.is_terminal:
        length_probe.apply_unchecked(rng.choice(length_probe.legal_actions()))
        length += 1
    positions = []
    for k in range(count):
        state = new_game(game, players, seed)
        walk = Rng(seed)
        target = int(length * (k + 0.5) / count)
        for _ in range(target):
            state.apply_unchecked(walk.choice(state.legal_actions()))
        while not state.is_terminal and len(state.legal_actions()) < 2:
            state.apply_unchecked(state.legal_actions()[0])
        if not state.is_terminal:
            positions.append(state)
    return positions


def speed(game: str, players: int, seconds: float, count: int, seed: int) -> dict[str, Any]:
    positions = sample_positions(game, players, count, seed)
    iterations = search = 0.0
    depth = nodes = 0
    heuristic_s = 0.0
    engine_errors = 0
    for i, state in enumerate(positions):
        seat = state.current_player
        view, legal = state.view(seat), state.legal_actions()
        agent = MCTSAgent(seed=i, seconds=seconds)
        try:
            _, stats = agent.search(view, legal)
        except EngineError as exc:  # e.g. the toy's stuck 4-player states (docs/bots.md)
            engine_errors += 1
            print(f"  position {i}: {exc}")
            continue
        iterations += stats.iterations
        search += stats.seconds
        depth = max(depth, stats.max_depth)
        nodes += stats.nodes
        start = time.perf_counter()
        HeuristicAgent(seed=i).act(view, legal)
        heuristic_s += time.perf_counter() - start
    n = max(len(positions) - engine_errors, 1)
    return {"game": game, "players": players, "positions": len(positions) - engine_errors,
            "engine_errors": engine_errors,
            "mcts_iterations_per_s": round(iterations / search, 1) if search else 0.0,
            "mcts_mean_nodes": round(nodes / n), "mcts_max_depth": depth,
            "heuristic_ms_per_decision": round(1000 * heuristic_s / n, 2)}


def strength(game: str, a: str, b: str, games: int, jobs: int, seed: int,
             players: int) -> dict[str, Any]:
    agents = [a] + [b] * (players - 1)
    tasks = plan_matches(game, agents, games, seed, duplicate=True)
    start = time.perf_counter()
    results = run_matches(tasks, jobs=jobs)
    wins = finished = 0.0
    for result in results:
        outcome = result.record.get("result")
        if outcome is None:
            continue
        finished += 1
        seats_of_a = [s for s, spec in enumerate(tasks[result.index].agents) if spec == a]
        winners = outcome["winners"]
        wins += sum(1.0 / len(winners) for s in seats_of_a if s in winners)
    rate = wins / finished if finished else 0.0
    lo, hi = wilson_interval(wins, int(finished))
    return {"game": game, "agent": a, "opponent": b, "players": players, "games": int(finished),
            "failed": len(results) - int(finished), "wins": wins, "win_rate": round(rate, 4),
            "wilson95": [round(lo, 4), round(hi, 4)], "target": TARGETS.get((a, b)),
            "seconds": round(time.perf_counter() - start, 1), "jobs": jobs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("speed", help="MCTS iterations/s and heuristic ms/decision")
    sp.add_argument("--games", default="toy,tikal,tzolkin")
    sp.add_argument("--players", default="2")
    sp.add_argument("--seconds", type=float, default=1.0, help="search time per position")
    sp.add_argument("--positions", type=int, default=5)
    st = sub.add_parser("strength", help="win rate of agent A against agent B")
    st.add_argument("game")
    st.add_argument("a")
    st.add_argument("b")
    st.add_argument("--games", type=int, default=100)
    st.add_argument("--players", type=int, default=2, help="A in one seat, B in the others")
    st.add_argument("--jobs", type=int, default=default_jobs())
    for p in (sp, st):
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    rows: list[dict[str, Any]] = []
    if args.command == "speed":
        for game in args.games.split(","):
            try:
                get_game(game)
            except (OptionError, ModuleNotFoundError):
                print(f"{game}: not available in this checkout, skipped")
                continue
            for players in (int(p) for p in args.players.split(",")):
                rows.append(speed(game, players, args.seconds, args.positions, args.seed))
                print(json.dumps(rows[-1]))
    else:
        rows.append(strength(args.game, args.a, args.b, args.games, args.jobs, args.seed,
                             args.players))
        r = rows[-1]
        verdict = "" if r["target"] is None else (
            f"  target >= {r['target']:.0%}: " + ("met" if r["wilson95"][0] >= r["target"] else
                                                  "not shown" if r["win_rate"] >= r["target"]
                                                  else "missed"))
        print(f"{r['agent']} vs {r['opponent']} in {r['game']} ({r['players']}p, {r['games']} games): "
              f"{r['win_rate']:.1%} [{r['wilson95'][0]:.1%}, {r['wilson95'][1]:.1%}]{verdict}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()

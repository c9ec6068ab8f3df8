"""Agent benchmarks: search speed and playing strength. Figures are printed (and
written as JSON with --json), never asserted.

Speed: MCTS iterations per second (one core; per second of wall-clock time and of the
process's CPU time) from positions spread over a random game, plus the heuristic bot's
time per decision::

    .venv/bin/python benchmarks/bench_agents.py speed --games toy,tikal,tzolkin --seconds 1

Strength: N games of A against B (duplicate deals, seats rotate), A's win rate with its
95% Wilson interval (a shared win counts as half), in parallel; ``--log`` writes a line
per game as it ends, ``summary`` reads such a log (a run in progress, or stopped)::

    .venv/bin/python benchmarks/bench_agents.py strength tikal heuristic random --games 200 --jobs 8
    .venv/bin/python benchmarks/bench_agents.py strength tzolkin mcts:4500i heuristic --games 60 --log runs/tz.jsonl
    .venv/bin/python benchmarks/bench_agents.py summary runs/tz.jsonl

On a shared machine, measure what one second buys (``speed``: iterations per CPU second)
and play the strength games with that iteration budget (``mcts:Ni``): load-independent
and reproducible. Targets, to be measured on the real games: heuristic beats random
>= 95% of 2-player games; ISMCTS at 1 s per decision beats the heuristic >= 70%.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from typing import Any, Sequence

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
    """MCTS iterations per second of wall-clock time and per second of CPU time (the
    process's own: less sensitive to other work on a shared machine), and the heuristic
    bot's time per decision, over positions spread across a random game."""
    positions = sample_positions(game, players, count, seed)
    iterations = search = cpu = 0.0
    depth = nodes = 0
    heuristic_s = 0.0
    engine_errors = 0
    for i, state in enumerate(positions):
        seat = state.current_player
        view, legal = state.view(seat), state.legal_actions()
        agent = MCTSAgent(seed=i, seconds=seconds)
        cpu_start = time.process_time()
        try:
            _, stats = agent.search(view, legal)
        except EngineError as exc:  # e.g. the toy's stuck 4-player states (docs/bots.md)
            engine_errors += 1
            print(f"  position {i}: {exc}")
            continue
        cpu += time.process_time() - cpu_start
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
            "mcts_iterations_per_cpu_s": round(iterations / cpu, 1) if cpu else 0.0,
            "mcts_mean_nodes": round(nodes / n), "mcts_max_depth": depth,
            "heuristic_ms_per_decision": round(1000 * heuristic_s / n, 2),
            "load_average": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None}


def strength(game: str, a: str, b: str, games: int, jobs: int, seed: int,
             players: int, log: str | None = None) -> dict[str, Any]:
    """A's win rate against B over ``games`` duplicate deals with rotating seats (a shared
    win counts as a fraction), its Wilson interval, and A's search statistics. With
    ``log``, one JSON line per game is appended as soon as it ends (poll a long run)."""
    agents = [a] + [b] * (players - 1)
    tasks = plan_matches(game, agents, games, seed, duplicate=True)
    start = time.perf_counter()
    log_file = open(log, "a", encoding="utf-8") if log else None

    def on_result(result: Any) -> None:
        if log_file is not None:
            line = {"game": game, "agent": a, "opponent": b,
                    **game_line(tasks[result.index].agents, a, result)}
            log_file.write(json.dumps(line) + "\n")
            log_file.flush()
    try:
        results = run_matches(tasks, jobs=jobs, on_result=on_result)
    finally:
        if log_file is not None:
            log_file.close()
    lines = [game_line(tasks[r.index].agents, a, r) for r in results]
    return summarize(game, a, b, players, lines, jobs, time.perf_counter() - start)


def game_line(seats: Sequence[str], a: str, result: Any) -> dict[str, Any]:
    """One game's outcome for A: its share of the win, scores, and A's search figures."""
    outcome = result.record.get("result")
    seats_of_a = [s for s, spec in enumerate(seats) if spec == a]
    line: dict[str, Any] = {"index": result.index, "seats": list(seats), "failed": outcome is None,
                            "seconds": round(result.seconds, 2)}
    if outcome is not None:
        winners = outcome["winners"]
        line["share"] = sum(1.0 / len(winners) for s in seats_of_a if s in winners)
        line["scores"] = outcome.get("scores")
    stats = [st for s, st in enumerate(result.agent_stats) if s in seats_of_a]
    for key in ("searched_decisions", "iterations", "search_seconds"):
        if stats and key in stats[0]:
            line[key] = sum(st[key] for st in stats)
    line["decisions"] = sum(st.get("decisions", 0) for st in stats)
    return line


def summarize(game: str, a: str, b: str, players: int, lines: Sequence[dict[str, Any]],
              jobs: int, seconds: float) -> dict[str, Any]:
    finished = [line for line in lines if not line["failed"]]
    wins = sum(line["share"] for line in finished)
    n = len(finished)
    lo, hi = wilson_interval(wins, n)
    searched = sum(line.get("searched_decisions", 0) for line in finished)
    iterations = sum(line.get("iterations", 0) for line in finished)
    search_s = sum(line.get("search_seconds", 0.0) for line in finished)
    target = TARGETS.get((a, b))
    if target is None and a.startswith("mcts") and b == "heuristic":
        target = TARGETS[("mcts:1s", "heuristic")]
    return {"game": game, "agent": a, "opponent": b, "players": players, "games": n,
            "failed": len(lines) - n, "wins": wins, "win_rate": round(wins / n, 4) if n else 0.0,
            "wilson95": [round(lo, 4), round(hi, 4)], "target": target,
            "searched_decisions": searched,
            "iterations_per_decision": round(iterations / searched, 1) if searched else None,
            "iterations_per_s": round(iterations / search_s, 1) if search_s else None,
            "seconds": round(seconds, 1), "jobs": jobs}


def summarize_log(path: str) -> dict[str, Any]:
    """The figures of a (possibly unfinished) run from its ``--log`` file."""
    with open(path, encoding="utf-8") as fh:
        lines = [json.loads(line) for line in fh if line.strip()]
    if not lines:
        raise SystemExit(f"{path}: no game yet")
    first = lines[0]
    return summarize(first["game"], first["agent"], first["opponent"], len(first["seats"]), lines,
                     0, sum(line["seconds"] for line in lines))


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
    st.add_argument("--log", help="append one JSON line per game to this file as it ends")
    sm = sub.add_parser("summary", help="the figures of a strength run from its --log file")
    sm.add_argument("log")
    for p in (sp, st, sm):
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
        if args.command == "summary":
            rows.append(summarize_log(args.log))
        else:
            rows.append(strength(args.game, args.a, args.b, args.games, args.jobs, args.seed,
                                 args.players, args.log))
        r = rows[-1]
        verdict = "" if r["target"] is None else (
            f"  target >= {r['target']:.0%}: " + ("met" if r["wilson95"][0] >= r["target"] else
                                                  "not shown" if r["win_rate"] >= r["target"]
                                                  else "missed"))
        print(f"{r['agent']} vs {r['opponent']} in {r['game']} ({r['players']}p, {r['games']} games): "
              f"{r['win_rate']:.1%} [{r['wilson95'][0]:.1%}, {r['wilson95'][1]:.1%}]{verdict}")
        if r["iterations_per_decision"]:
            print(f"  {r['agent']}: {r['searched_decisions']} searched decisions, "
                  f"{r['iterations_per_decision']} iterations each, {r['iterations_per_s']} iterations/s")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()

"""Strength match: agent A against agent B (issue 21), one command, safe to cut short.

    .venv/bin/python benchmarks/bench_strength.py tzolkin medium heuristic:eval=v1 --games 400 --jobs 16 --minutes 8 --log runs/tz-medium.jsonl
    .venv/bin/python benchmarks/bench_strength.py --summary --log runs/tz-medium.jsonl

Duplicate deals with the seats rotating (``arena.tournament.plan_matches(duplicate=True)``:
each deal is played once from every seat), A in one seat and B in the others. Every game is
appended to ``--log`` as one JSON line as soon as it ends; a rerun with the same log plays
only the games not yet there. The summary (A's wins, a shared win counting as a fraction,
with the 95% Wilson interval; mean scores; thinking time per decision, by agent) is printed
at the end, after ``--minutes`` (the games still running are dropped), and on Ctrl-C or
SIGTERM. ``--first K`` plays only games K and on of the same plan (a run split across
machines or sessions: each part's log holds its own games, and the games of all the parts are
the plan's ``--games``). Agent specs: ``mayagames agents`` (the old estimate: ``heuristic:eval=v1``,
``mcts:1s,eval=v1``).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import signal
import sys
import time
from typing import Any

from mayagames.arena.tournament import plan_matches, play_match


def wilson_interval(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (``arena.analysis``'s, without numpy)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


class Stop(BaseException):
    """Time is up, or the run was interrupted."""


def _stop(*_: Any) -> None:
    raise Stop()


def game_line(task: Any, a: str, result: Any) -> dict[str, Any]:
    """One game for the log: seats, scores, A's share of the win, thinking time by seat."""
    outcome = result.record.get("result")
    line: dict[str, Any] = {"index": task.index, "seed": task.seed, "seats": list(task.agents),
                            "failed": outcome is None, "seconds": round(result.seconds, 2),
                            "decisions": [st.get("decisions", 0) for st in result.agent_stats],
                            "think": [st.get("think_seconds", 0.0) for st in result.agent_stats]}
    if outcome is not None:
        winners = outcome["winners"]
        line["scores"] = outcome["scores"]
        line["share"] = sum(1.0 / len(winners) for s, spec in enumerate(task.agents)
                            if spec == a and s in winners)
    return line


def summarize(a: str, b: str, lines: list[dict[str, Any]]) -> str:
    done = [x for x in lines if not x["failed"]]
    n = len(done)
    if not n:
        return f"{a} vs {b}: no finished game yet"
    wins = sum(x["share"] for x in done)
    lo, hi = wilson_interval(wins, n)
    out = [f"{a} vs {b}: {n} games ({len(lines) - n} failed), {a} won {wins:g} = {wins / n:.1%} "
           f"[95% Wilson {lo:.1%}, {hi:.1%}]"]
    for spec in dict.fromkeys((a, b)):
        scores, think, decisions = [], 0.0, 0
        for x in done:
            for s, seat_spec in enumerate(x["seats"]):
                if seat_spec == spec:
                    scores.append(x["scores"][s])
                    think += x["think"][s]
                    decisions += x["decisions"][s]
        if scores:
            out.append(f"  {spec}: mean score {sum(scores) / len(scores):.1f} over {len(scores)} seats, "
                       f"{1000 * think / max(decisions, 1):.1f} ms per decision ({decisions} decisions)")
    return "\n".join(out)


def read_log(path: str | None) -> list[dict[str, Any]]:
    if not path or not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as fh:
        return [json.loads(x) for x in fh if x.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("game", nargs="?")
    parser.add_argument("a", nargs="?", help="agent A (spec or level)")
    parser.add_argument("b", nargs="?", help="agent B")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=2, help="A in one seat, B in the others")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--first", type=int, default=0,
                        help="play only games FIRST.. of the plan (the rest ran elsewhere)")
    parser.add_argument("--minutes", type=float, help="stop after this long and summarise")
    parser.add_argument("--log", help="JSON lines, one per game (resumes a stopped run)")
    parser.add_argument("--summary", action="store_true", help="only summarise --log")
    args = parser.parse_args()
    done = read_log(args.log)
    if args.summary:
        if not done:
            raise SystemExit("no game in the log yet")
        first = done[0]
        print(summarize(first["a"], first["b"], done))
        return
    if not (args.game and args.a and args.b):
        parser.error("give GAME A B (or --summary --log FILE)")
    if not 0 <= args.first < args.games:
        parser.error("--first must be at least 0 and below --games")
    agents = [args.a] + [args.b] * (args.players - 1)
    tasks = plan_matches(args.game, agents, args.games, args.seed, duplicate=True)
    have = {x["index"] for x in done if x.get("a") == args.a and x.get("b") == args.b}
    todo = [t for t in tasks[args.first:] if t.index not in have]
    lines = [x for x in done if x["index"] in have]
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    signal.signal(signal.SIGTERM, _stop)
    if args.minutes:
        signal.signal(signal.SIGALRM, _stop)
        signal.setitimer(signal.ITIMER_REAL, args.minutes * 60)
    start = time.perf_counter()
    pool = multiprocessing.get_context("spawn").Pool(args.jobs) if args.jobs > 1 else None
    try:
        results = pool.imap_unordered(play_match, todo) if pool else map(play_match, todo)
        for result in results:
            line = {"a": args.a, "b": args.b, **game_line(tasks[result.index], args.a, result)}
            lines.append(line)
            if log:
                log.write(json.dumps(line) + "\n")
                log.flush()
            print(f"game {result.index}: {line.get('scores')} ({len(lines)}/{len(tasks)})", file=sys.stderr)
    except (Stop, KeyboardInterrupt):
        print("stopped: the games finished so far", file=sys.stderr)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        if pool is not None:
            pool.terminate()
        if log:
            log.close()
    print(f"{args.game}, {args.players} players, duplicate deals, seats rotating, "
          f"{time.perf_counter() - start:.0f} s, jobs {args.jobs}")
    print(summarize(args.a, args.b, lines))


if __name__ == "__main__":
    main()

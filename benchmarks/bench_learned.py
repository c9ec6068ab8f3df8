"""The learned Tzolk'in estimate's fast path against its reference (reported, never asserted):

* microseconds per call of ``learned.estimate_scores_reference`` (v2 plus the weights dotted
  with ``seat_features``: the estimate as it was) and ``learned.estimate_scores_learned``
  (the weights folded: what searches call), old and new alternating on the same positions
  (positions of ``medium`` self-play games of 2, 3 and 4 players), CPU time of this process;
  v2 (``heuristic.estimate_scores_v2``) beside them for scale;
* iterations per second of ``mcts:1s,eval=learned,rollout=0`` (the ``hard`` level) at a
  fixed 2-player position, old and new alternating (the old one: ``estimate_scores_learned``
  replaced by the reference for the search);
* whether ``mcts:500i,eval=learned,rollout=0`` decides the same with both, decision by
  decision along a seeded game.

    PYTHONPATH=src python benchmarks/bench_learned.py --repeats 5 --decisions 20
"""

from __future__ import annotations

import argparse
import statistics
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from mayagames.agents import make_agent
from mayagames.core import new_game
from mayagames.tzolkin import heuristic as H
from mayagames.tzolkin import learned as L

HARD = "mcts:1s,eval=learned,rollout=0"


def medium_positions(players: int, seed: int, every: int = 5) -> list[Any]:
    """Every ``every``-th position of a ``medium`` self-play game (the final one included)."""
    s, bot, out, step = new_game("tzolkin", players, seed=seed), make_agent("medium", seed=seed), [], 0
    while not s.is_terminal:
        if step % every == 0:
            out.append(s.clone())
        s.apply(bot.act(s.view(s.current_player), s.legal_actions()))
        step += 1
    return out + [s]


def search_position() -> Any:
    """The profiled position: 60 ``medium`` moves into seed 7's 2-player game, then on to
    a decision with at least 4 moves."""
    s, bot = new_game("tzolkin", 2, seed=7), make_agent("medium", seed=1)
    for _ in range(60):
        s.apply(bot.act(s.view(s.current_player), s.legal_actions()))
    while len(s.legal_actions()) < 4:
        s.apply(bot.act(s.view(s.current_player), s.legal_actions()))
    return s


@contextmanager
def old_estimate() -> Iterator[None]:
    """Searches (which look ``eval=learned`` up by name on every search) use the reference."""
    fast = L.estimate_scores_learned
    L.estimate_scores_learned = L.estimate_scores_reference
    try:
        yield
    finally:
        L.estimate_scores_learned = fast


def cpu_us_per_call(func: Callable[[Any], Any], positions: list[Any], reps: int) -> float:
    start = time.process_time()
    for _ in range(reps):
        for s in positions:
            func(s)
    return (time.process_time() - start) / (reps * len(positions)) * 1e6


def iterations_per_s(position: Any, seed: int) -> float:
    agent = make_agent(HARD, seed=seed)
    agent.act(position.view(position.current_player), position.legal_actions())
    return agent.last.iterations / agent.last.seconds


def same_decisions(decisions: int, seed: int) -> tuple[int, int]:
    """(decisions compared, decisions equal) of ``mcts:500i`` old and new along a game of
    ``medium`` moves (seed ``seed``, 2 players)."""
    s, mover = new_game("tzolkin", 2, seed=seed), make_agent("medium", seed=seed)
    compared = equal = 0
    while compared < decisions and not s.is_terminal:
        view, legal = s.view(s.current_player), s.legal_actions()
        if len(legal) > 1:
            new = make_agent("mcts:500i,eval=learned,rollout=0", seed=compared).act(view, legal)
            with old_estimate():
                old = make_agent("mcts:500i,eval=learned,rollout=0", seed=compared).act(view, legal)
            compared += 1
            equal += new == old
        s.apply(mover.act(view, legal))
    return compared, equal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5, help="alternating rounds of each timing")
    parser.add_argument("--decisions", type=int, default=20, help="mcts:500i decisions compared")
    args = parser.parse_args()

    positions = [p for players, seed in ((2, 1), (3, 2), (4, 3)) for p in medium_positions(players, seed)]
    worst = max(abs(a - b) / max(1.0, abs(a)) for s in positions
                for a, b in zip(L.estimate_scores_reference(s), L.estimate_scores_learned(s)))
    print(f"{len(positions)} positions (medium self-play, 2/3/4 players); largest relative difference {worst:.1e}")
    olds, news, v2s = [], [], []
    for _ in range(args.repeats):
        olds.append(cpu_us_per_call(L.estimate_scores_reference, positions, 5))
        news.append(cpu_us_per_call(L.estimate_scores_learned, positions, 5))
        v2s.append(cpu_us_per_call(H.estimate_scores_v2, positions, 5))
    old, new = statistics.median(olds), statistics.median(news)
    print(f"us per call (CPU, median of {args.repeats}): old {old:.1f}, new {new:.1f}, ratio {old / new:.2f}"
          f" (v2 {statistics.median(v2s):.1f})"
          f"  [old {', '.join(f'{x:.1f}' for x in olds)}; new {', '.join(f'{x:.1f}' for x in news)}]")

    position = search_position()
    olds, news = [], []
    for r in range(args.repeats):
        with old_estimate():
            olds.append(iterations_per_s(position, seed=r))
        news.append(iterations_per_s(position, seed=r))
    old, new = statistics.median(olds), statistics.median(news)
    print(f"{HARD} iterations/s (wall, median of {args.repeats}): old {old:.0f}, new {new:.0f}, "
          f"ratio {new / old:.2f}  [old {', '.join(f'{x:.0f}' for x in olds)}; "
          f"new {', '.join(f'{x:.0f}' for x in news)}]")

    if args.decisions:
        compared, equal = same_decisions(args.decisions, seed=7)
        print(f"mcts:500i,eval=learned,rollout=0: {equal} of {compared} decisions the same old and new")


if __name__ == "__main__":
    main()

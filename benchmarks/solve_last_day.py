"""The last day of Tzolk'in games solved exactly: are the workers starved on it errors?

    .venv/bin/python benchmarks/solve_last_day.py --data runs/train_eval/gen7.jsonl \\
        --specs mcts:7000i,eval=learned6,rollout=0 mcts:7000i,eval=learned6,rollout=0,margin=0.1

Replays the 2-player games of each ``--data`` file (``train_eval.py``'s records) and stops at
every decision on the last Food Day's own day (day 27: the Food Day comes at the end of it,
then the game ends; rules 16) where the seat spent corn that Food Day needed
(``sensible.keeps_reserve`` false) while another legal move kept it. From the true state the
rest of the game is searched exhaustively (each seat in turn plays the move that gives it the
best outcome by the rules, a win counting 1 and a shared win its share, then the best final
margin over its opponent); positions over ``--cap`` nodes are skipped. It prints how the move
played compares with the best move that kept the corn, and, for each ``--specs`` bot, how often
it plays the exact best move there (docs/bots.md "Stop 42"). Not run by the tests.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

from mayagames.agents import make_agent
from mayagames.tzolkin.sensible import days_to_food, keeps_reserve

ROOT = Path(__file__).resolve().parent.parent
LAST_FOOD_DAY = 3  # Food Days held before the last one (rules 16: days 8, 14, 21, 27)
Outcome = tuple[float, float]  # (the seat's share of the win, its final margin)


class TooBig(Exception):
    """The rest of the game has more positions than the cap."""


def train_eval() -> Any:
    """benchmarks/train_eval.py (its data files and their reader)."""
    spec = importlib.util.spec_from_file_location("train_eval", ROOT / "benchmarks" / "train_eval.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def outcome(s: Any, seat: int) -> Outcome:
    """A finished game from ``seat``'s side: its share of the win, its margin over the best
    other seat."""
    scores = s.scores()
    return s.returns()[seat], scores[seat] - max(v for q, v in enumerate(scores) if q != seat)


def solve(s: Any, budget: list[int]) -> Any:
    """The finished game that exhaustive play reaches from ``s``: every seat, at its
    decisions, plays the move whose solved outcome is best for it (:func:`outcome`; the first
    such move in the legal order). ``budget``: positions left to visit (one list shared by
    the calls); :class:`TooBig` when it runs out."""
    budget[0] -= 1
    if budget[0] < 0:
        raise TooBig
    if s.is_terminal:
        return s
    seat = s.current_player
    best, best_end = None, None
    for action in s.legal_actions():
        after = s.clone()
        after.apply(action)
        end = solve(after, budget)
        value = outcome(end, seat)
        if best is None or value > best:
            best, best_end = value, end
    return best_end


def move_outcomes(s: Any, cap: int) -> dict[str, Outcome]:
    """Each legal move of ``s`` (as text) with the outcome exhaustive play reaches after it,
    for the seat to move; :class:`TooBig` past ``cap`` positions in all."""
    seat = s.current_player
    budget = [cap]
    values = {}
    for action in s.legal_actions():
        after = s.clone()
        after.apply(action)
        values[str(action)] = outcome(solve(after, budget), seat)
    return values


def last_day_spends(game: dict[str, Any], start: Callable[[list[str], int], Any]) -> Iterator[tuple[Any, Any]]:
    """The positions of a recorded game (and the move played there) on the last Food Day's
    own day where the seat to move spent corn that Food Day needed while another legal move
    kept it; ``start``: train_eval's ``start_state`` (the game's set-up, a ``+start=K`` seat's
    workers included)."""
    s: Any = start(game["seats"], game["seed"])  # a Tzolk'in state
    for index in game["moves"]:
        legal = s.legal_actions()
        action, seat = legal[index], s.current_player
        if (len(legal) > 1 and seat is not None and s.food_done == LAST_FOOD_DAY and days_to_food(s) == 0
                and not keeps_reserve(s, seat, action)
                and any(keeps_reserve(s, seat, other) for other in legal if other != action)):
            yield s.clone(), action
        s.apply(action)


def report(paths: list[str], specs: list[str], cap: int, seed: int) -> str:
    """The figures of docs/bots.md "Stop 42" for the games of ``paths``."""
    module = train_eval()  # loaded once, not once per file
    read_games = module.read_games
    games = [g for path in paths for g in read_games(Path(path)) if len(g["seats"]) == 2]
    found = skipped = lost = better = worse = 0
    margin_lost = 0.0
    chosen: dict[str, list[float]] = {spec: [0, 0, 0.0] for spec in specs}
    for game in games:
        for s, played in last_day_spends(game, module.start_state):
            found += 1
            try:
                values = move_outcomes(s, cap)
            except TooBig:
                skipped += 1
                continue
            seat = s.current_player
            keeping = [v for a, v in values.items() if a != str(played) and keeps_reserve(s, seat, s.parse_action(a))]
            mine, kept = values[str(played)], max(keeping)
            lost += mine[0] == 0 and kept[0] == 0
            better += mine > kept
            worse += mine < kept
            margin_lost += kept[1] - mine[1]
            best = max(values.values())
            for spec in specs:
                move = make_agent(spec, seed).act(s.view(seat), s.legal_actions())
                chosen[spec][0] += values[str(move)] == best
                chosen[spec][1] += keeps_reserve(s, seat, move)
                chosen[spec][2] += best[1] - values[str(move)][1]
    solved = found - skipped
    lines = [f"{len(games)} two-player games: {found} last-day decisions spent corn the Food Day needed "
             f"with a move that kept it at hand; {solved} solved ({skipped} over {cap} positions)"]
    if solved:
        lines.append(f"  the seat had lost whatever it played in {lost}; the move played was better than "
                     f"every move that kept the corn in {better}, worse in {worse}, the same in "
                     f"{solved - better - worse}; margin lost {margin_lost / solved:.2f} VP a decision")
        for spec, (best_moves, keeps, margin) in chosen.items():
            lines.append(f"  {spec}: the exact best move in {best_moves:g} of {solved}, keeps the corn in "
                         f"{keeps:g}, margin lost {margin / solved:.2f} VP a decision")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", nargs="+", required=True, help="train_eval.py games files")
    p.add_argument("--specs", nargs="*", default=[], help="bots asked to move in each solved position")
    p.add_argument("--cap", type=int, default=200_000, help="positions searched at most, per decision")
    p.add_argument("--seed", type=int, default=7, help="the bots' seed")
    args = p.parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    print(report(args.data, args.specs, args.cap, args.seed))


if __name__ == "__main__":
    main()

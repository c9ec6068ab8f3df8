"""Fit the learned Tzolk'in estimate (issue 21, ``eval=learned``) from self-play: one command.

    .venv/bin/python benchmarks/train_eval.py --games 2400 --minutes 25 --jobs 2 --seed 2100

1. **Data** (resumable): self-play games of the v2 ``medium`` bot (a share of the seats with
   ``epsilon`` random sensible moves, for diversity), 2 players in 3 games of 5, 3 and 4 players
   in one each. Each game is one JSON line of ``--data`` (default ``runs/train_eval/games.jsonl``)
   as soon as it ends: its seed, seats, every decision as an index into the legal actions,
   and the final scores. A rerun plays only the games not yet there (so ``--minutes`` may cut
   a run short and the next run goes on); the positions are rebuilt by replaying the moves,
   so new features need no new games.
2. **Fit**: every ``--every``-th position of each game (both seats' sides of it), the
   features of :mod:`mayagames.tzolkin.learned` and the target *final score minus the v2
   estimate*, both less the table's mean (``--target relative``, the default: margins are
   what a bot compares); ridge regression (NumPy) per era (Food Days held), its strength
   chosen on the held-out games (every 5th block of 5 games; the strongest shrinkage within
   0.001 of the best R2); the weights, with the seed, data size, date and the held-out
   figures, are written to ``--out`` (default: the shipped
   ``src/mayagames/tzolkin/data/eval_learned.json``).

A seat spec may end in ``+grow=K`` (4-6): that seat gains workers on Uxmal until it holds K
or two Food Days are held (:class:`Grow`), data in which workers are gained; or in
``+start=K`` (4-6): that seat starts the game with K workers in play instead of 3 (a handicap
start, :func:`start_state`; the replays give it again), data in which the number of workers
differs from the first day, drawn by the seed rather than chosen by a plan.
``--summary --data FILE ...`` replays the games of each file and prints what they show per
number of players (a seat's and the winner's score, workers, workers unfed per Food Day).
``--hunger --data FILE ...`` replays them and prints where the corn of the workers left unfed
went: per Food Day, how often the hungry seat itself spent corn the Food Day needed, with a
move that kept it at hand, and which moves (docs/bots.md "Stop 42").
``--moved OLD NEW`` prints the weights that differ most between two weights files (per era:
which features a new fit prices differently; ``--top`` of them).
``--fit-only`` skips the games; ``--play-only`` skips the fit. ``--spec`` plays another bot
(a second generation: ``--spec heuristic:sensible=1,eval=learned --seed 6100 --data
runs/train_eval/gen2.jsonl``; several specs: each seat plays one of them, drawn from the
game's seed); several ``--data`` files are fitted together (a game in two files is fitted once, a file given twice is refused;
games of one seed played by other bots are two games). The shipped weights (stop 30) are two generations, two commands: the first
fit, then the ``medium`` on it plays the second generation and both are fitted together
(docs/bots.md, "Stop 30")::

    .venv/bin/python benchmarks/train_eval.py --games 1533 --jobs 2 --seed 2100
    .venv/bin/python benchmarks/train_eval.py --games 1058 --jobs 2 --seed 6100 \
        --spec heuristic:sensible=1,eval=learned --data runs/train_eval/gen2.jsonl runs/train_eval/games.jsonl

The third fit (``eval=learned3``, ``medium``'s estimate in stop 32) adds a third
generation, played by the ``medium`` on the second fit, and fits all three (docs/bots.md)::

    .venv/bin/python benchmarks/train_eval.py --games 1000 --jobs 1 --seed 8100 \
        --spec heuristic:sensible=1,eval=learned --data runs/train_eval/gen3.jsonl --play-only
    .venv/bin/python benchmarks/train_eval.py --fit-only --name learned3 \
        --out src/mayagames/tzolkin/data/eval_learned_3.json \
        --data runs/train_eval/gen3.jsonl runs/train_eval/gen2.jsonl runs/train_eval/games.jsonl

The fourth fit (``eval=learned4``, ``medium``'s estimate since stop 33) adds a fourth
generation in which each seat plays the ``medium`` on the third fit with or without its guard
rails (so that starving workers is in the data), and fits all four (docs/bots.md "Stop 33")::

    .venv/bin/python benchmarks/train_eval.py --games 1500 --jobs 1 --seed 20100 --play-only \
        --spec heuristic:sensible=1,eval=learned3 heuristic:eval=learned3 --data runs/train_eval/gen4.jsonl
    .venv/bin/python benchmarks/train_eval.py --fit-only --name learned4 \
        --out src/mayagames/tzolkin/data/eval_learned_4.json --data runs/train_eval/gen4.jsonl \
        runs/train_eval/gen3.jsonl runs/train_eval/gen2.jsonl runs/train_eval/games.jsonl

The fifth fit (``eval=learned5``, stop 34, no level's yet) adds a generation played by the
search itself (``hard``'s search at 700 iterations a decision, on the second fit; a search
seat plays without ``epsilon``) to the second fit's two generations (docs/bots.md "Stop 34")::

    .venv/bin/python benchmarks/train_eval.py --games 324 --jobs 2 --seed 30100 --play-only \
        --spec mcts:700i,eval=learned,rollout=0 --data runs/train_eval/gen5.jsonl
    .venv/bin/python benchmarks/train_eval.py --fit-only --name learned5 \
        --out src/mayagames/tzolkin/data/eval_learned_5.json --data runs/train_eval/gen5.jsonl \
        runs/train_eval/gen2.jsonl runs/train_eval/games.jsonl

The sixth fit (``eval=learned6``, stop 35; ``hard``'s since stop 36) adds a sixth generation played by
the search on the fifth fit and leaves out the first, greedy generation (docs/bots.md "Stop
35"); its seeds overlap the fifth's (other bots, so other games: both are kept)::

    .venv/bin/python benchmarks/train_eval.py --games 324 --jobs 2 --seed 30200 --play-only \
        --spec mcts:700i,eval=learned5,rollout=0 --data runs/train_eval/gen6.jsonl
    .venv/bin/python benchmarks/train_eval.py --fit-only --name learned6 \
        --out src/mayagames/tzolkin/data/eval_learned_6.json --data runs/train_eval/gen6.jsonl \
        runs/train_eval/gen5.jsonl runs/train_eval/gen2.jsonl

Every generation above was played again in stop 38 and refitted to the shipped weights, to the
last digit. The seventh fit (``eval=learned7``, stop 38, no level's yet) adds a seventh
generation played by the search on the sixth fit and an eighth in which two thirds of the
seats gain workers (``+grow=K``; its games that repeat the seventh's are fitted once)
(docs/bots.md "Stop 38")::

    .venv/bin/python benchmarks/train_eval.py --games 324 --jobs 2 --seed 30300 --play-only \
        --spec mcts:700i,eval=learned6,rollout=0 --data runs/train_eval/gen7.jsonl
    .venv/bin/python benchmarks/train_eval.py --games 324 --jobs 2 --seed 30400 --play-only \
        --spec mcts:700i,eval=learned6,rollout=0 mcts:700i,eval=learned6,rollout=0+grow=4 \
        mcts:700i,eval=learned6,rollout=0+grow=5 --data runs/train_eval/gen8.jsonl
    .venv/bin/python benchmarks/train_eval.py --fit-only --name learned7 \
        --out src/mayagames/tzolkin/data/eval_learned_7.json --data runs/train_eval/gen8.jsonl \
        runs/train_eval/gen7.jsonl runs/train_eval/gen6.jsonl runs/train_eval/gen5.jsonl runs/train_eval/gen2.jsonl
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import Any

from mayagames.agents import make_agent
from mayagames.core import Rng, new_game
from mayagames.tzolkin import heuristic as H
from mayagames.tzolkin import learned as L

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = (2, 2, 2, 3, 4)  # by game index modulo 5
SELF_PLAY = "heuristic:sensible=1,eval=v2"  # the medium level of the v2 estimate (issue 21)
NOISY = 0.3  # share of the seats that play with epsilon
EPSILON = 0.1
TOLERANCE = 0.001  # held-out R2 differences this small do not choose a weaker shrinkage
GROW = "+grow="  # a seat spec's suffix: SPEC+grow=K (see Grow)
GROW_FOOD_DAYS = 2  # Grow takes new workers until this many Food Days are held (day 14)
START = "+start="  # a seat spec's suffix: SPEC+start=K (see start_state)


def seats_of(index: int, seed: int, spec: str | tuple[str, ...]) -> list[str]:
    """The specs of a game's seats (drawn from the game's seed): with several specs each seat
    plays one of them, drawn uniformly (a second generator, so that the games of one spec
    are those of before); a share of the seats adds ``epsilon`` random moves."""
    specs = (spec,) if isinstance(spec, str) else spec
    rng = Rng(seed * 7 + 1)
    pick = Rng(seed * 7 + 2)
    players = PLAYERS[index % len(PLAYERS)]
    seats = []
    for _ in range(players):
        chosen = specs[pick.randbelow(len(specs))] if len(specs) > 1 else specs[0]
        base, suffix = split_suffix(chosen)
        noisy = base + ("," if ":" in base else ":") + f"epsilon={EPSILON}" + suffix
        drawn = rng.random() < NOISY  # drawn for every seat, so that the games of before stay
        # a search (mcts) has no epsilon: its own tree varies its moves
        seats.append(noisy if drawn and chosen.startswith("heuristic") else chosen)
    return seats


def split_suffix(spec: str) -> tuple[str, str]:
    """(the bot's spec, its ``+grow=K`` or ``+start=K`` suffix or '')."""
    for marker in (GROW, START):
        base, found, rest = spec.partition(marker)
        if found:
            return base, found + rest
    return spec, ""


def suffix_workers(spec: str, marker: str) -> int | None:
    """The K of a seat spec's ``marker`` suffix (:data:`GROW` or :data:`START`), None without
    it; K is a number of workers, 4 to 6 (the rules' 3 to start with, at most 6)."""
    _, found, workers = spec.partition(marker)
    if not found:
        return None
    if not workers.isdigit() or not 4 <= int(workers) <= 6:
        raise SystemExit(f"{spec!r}: {marker} takes a number of workers, 4 to 6 (rule: at most 6)")
    return int(workers)


def start_workers(spec: str) -> int | None:
    """The workers in play a ``SPEC+start=K`` seat starts with (None: the rules' 3)."""
    return suffix_workers(spec, START)


def start_state(seats: list[str], seed: int) -> Any:
    """A new game of these seats: the rules' set-up, then each ``+start=K`` seat given workers
    from its bank until K are in play (``positions.set_workers``; before the start tiles are
    chosen, so a tile's worker comes on top, up to the rules' 6). Every replay of a game
    starts here, so the handicap is part of the recorded game."""
    from mayagames.tzolkin import positions as T
    from mayagames.tzolkin.model import WORKERS
    s: Any = new_game("tzolkin", len(seats), seed=seed)
    for q, spec in enumerate(seats):
        workers = start_workers(spec)
        if workers is not None and workers > s.p[q][WORKERS]:
            T.set_workers(s, q, workers)
    return s


class Grow:
    """A seat that gains workers (the plan of docs/bots.md "Stop 32": a worker to Uxmal, picked
    up at space 3 or above for Uxmal 3, gain 1 worker from the bank, rule 6): while it holds
    fewer than ``workers`` in play and fewer than :data:`GROW_FOOD_DAYS` Food Days are held, it
    takes Uxmal 3 when its picked-up worker may, picks up its worker from Uxmal space 3 or above
    when it may, and places a worker on Uxmal when it has none there; every other decision is
    ``inner``'s. Self-play data in which workers are gained (the bots keep 3), so that a fit
    sees what a 4th and a 5th worker are worth."""

    def __init__(self, inner: Any, workers: int) -> None:
        self.inner = inner
        self.workers = workers

    def act(self, view: Any, legal: list[Any]) -> Any:
        from mayagames.tzolkin.actions import Do, Pick, Place
        from mayagames.tzolkin.components import GEARS
        from mayagames.tzolkin.model import WORKERS
        seat = view.current_player
        if view.food_done >= GROW_FOOD_DAYS or view.p[seat][WORKERS] >= self.workers:
            return self.inner.act(view, legal)
        on_uxmal = seat in view.gears[GEARS.index("uxmal")]
        for action in legal:
            if isinstance(action, Do) and action.gear == "uxmal" and action.space == 3:
                return action
        for action in legal:
            if isinstance(action, Pick) and action.gear == "uxmal" and action.space >= 3:
                return action
        for action in legal:
            if isinstance(action, Place) and action.gear == "uxmal" and not on_uxmal:
                return action
        return self.inner.act(view, legal)


def seat_agent(spec: str, seed: int) -> Any:
    """The agent of a seat's spec: ``make_agent``'s, or with ``+grow=K`` wrapped in Grow
    (``+start=K`` plays the bot itself: :func:`start_state` gives the workers)."""
    agent = make_agent(split_suffix(spec)[0], seed)
    workers = suffix_workers(spec, GROW)
    if workers is None:
        start_workers(spec)  # a +start=K seat: its K checked here, given by start_state
        return agent
    return Grow(agent, workers)


def play_game(task: tuple[int, int, str | tuple[str, ...]]) -> dict[str, Any]:
    """One self-play game: its seats, the index of every decision, the final scores."""
    index, seed, spec = task
    seats = seats_of(index, seed, spec)
    s = start_state(seats, seed)
    agents = [seat_agent(a, seed * 10 + i) for i, a in enumerate(seats)]
    moves: list[int] = []
    started = time.process_time()
    while not s.is_terminal:
        legal = s.legal_actions()
        cur = s.current_player
        assert cur is not None  # a game not over has a player to move
        if len(legal) == 1:
            moves.append(0)
            s.apply(legal[0])
            continue
        action = agents[cur].act(s.view(cur), legal)
        moves.append(legal.index(action))
        s.apply(action)
    return {"index": index, "seed": seed, "seats": seats, "moves": moves,
            "scores": s.scores(), "cpu": round(time.process_time() - started, 2)}


def read_games(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:  # a line cut by a stopped run
            pass
    return out


def drop_cut_line(path: Path) -> None:
    """Cut a last line that a stopped run left unfinished (no newline), so that the games a
    rerun appends start on a line of their own instead of joining it."""
    if not path.exists():
        return
    with path.open("rb+") as f:
        text = f.read()
        if text and not text.endswith(b"\n"):
            f.truncate(text.rfind(b"\n") + 1)


def generate(args: argparse.Namespace) -> None:
    data = Path(args.data[0])
    data.parent.mkdir(parents=True, exist_ok=True)
    drop_cut_line(data)
    done = {g["index"] for g in read_games(data)}
    spec = args.spec[0] if len(args.spec) == 1 else tuple(args.spec)
    tasks = [(i, args.seed + i, spec) for i in range(args.games) if i not in done]
    print(f"{len(done)} games in {data}, {len(tasks)} to play (jobs {args.jobs})", flush=True)
    deadline = time.time() + args.minutes * 60 if args.minutes else None
    count = 0
    with multiprocessing.Pool(args.jobs) as pool, data.open("a") as out:
        for game in pool.imap_unordered(play_game, tasks):
            out.write(json.dumps(game) + "\n")
            out.flush()
            count += 1
            if count % 100 == 0:
                print(f"  {count} games", flush=True)
            if deadline and time.time() > deadline:
                print(f"--minutes {args.minutes}: stopped after {count} new games", flush=True)
                pool.terminate()
                break


def positions(game: dict[str, Any], every: int) -> tuple[list[list[float]], list[float], list[int],
                                                       list[tuple[int, int]]]:
    """Replay a game: every ``every``-th position's seat features, target (final minus v2),
    era, and (position number, seat)."""
    seats = game["seats"]
    s: Any = start_state(seats, game["seed"])  # a Tzolk'in state (its phase)
    X, y, eras, keys = [], [], [], []
    final = game["scores"]
    for step, move in enumerate(game["moves"]):
        if step % every == 0 and s.phase != H.OVER:
            rows, base = L.features_of(s)
            e = L.era(s)
            for seat, (x, v2) in enumerate(zip(rows, base)):
                X.append(x)
                y.append(final[seat] - v2)
                eras.append(e)
                keys.append((step, seat))
        s.apply(s.legal_actions()[move])
    if s.scores() != final:
        raise SystemExit(f"game {game['index']}: the replay does not reach the recorded scores")
    return X, y, eras, keys


def game_figures(game: dict[str, Any]) -> dict[str, Any]:
    """Replay a game: its players, every seat's score, the winners' score, the workers each
    seat ends with and the workers it left unfed at each Food Day (rule: 3 VP each)."""
    from mayagames.tzolkin.model import WORKERS
    s: Any = start_state(game["seats"], game["seed"])  # a Tzolk'in state
    unfed: list[list[int]] = []
    for move in game["moves"]:
        food = s.food_done
        s.apply(s.legal_actions()[move])
        if s.food_done != food:
            unfed.append(list(s.last_unfed))
    scores = s.scores()
    if scores != game["scores"]:
        raise SystemExit(f"game {game['index']}: the replay does not reach the recorded scores")
    return {"players": len(scores), "scores": scores, "winner": max(scores),
            "workers": [s.p[q][WORKERS] for q in range(len(scores))], "unfed": unfed}


def summary(paths: list[str]) -> str:
    """What the games of each data file show, per number of players: the mean score of a seat
    and of the winner, the workers at the end, the workers left unfed a seat and game, and
    per Food Day (1-4, every seat). The figures of a generation in docs/bots.md."""
    lines = []
    for path in paths:
        games = read_games(Path(path))
        figures = [game_figures(g) for g in games]
        lines.append(f"{path}: {len(games)} games, {' '.join(bots_of([s for g in games for s in g['seats']]))}")
        for n in sorted({f["players"] for f in figures}):
            of = [f for f in figures if f["players"] == n]
            seats = n * len(of)
            by_day = [sum(sum(f["unfed"][d]) for f in of if len(f["unfed"]) > d) / seats for d in range(4)]
            lines.append(
                f"  {n} players, {len(of)} games: a seat {sum(sum(f['scores']) for f in of) / seats:.1f} VP, "
                f"the winner {sum(f['winner'] for f in of) / len(of):.1f} VP, "
                f"workers at the end {sum(sum(f['workers']) for f in of) / seats:.2f}, "
                f"unfed a seat and game {sum(by_day):.2f} "
                f"(Food Days 1-4: {', '.join(f'{u:.2f}' for u in by_day)})")
        bots = bots_of([s for g in games for s in g["seats"]])
        if len(bots) > 1:  # several bots: each one's seats, every number of players together
            for bot in bots:
                lines.append("  " + bot_figures(bot, games, figures))
    return "\n".join(lines)


def move_kind(action: Any) -> str:
    """A move as the hunger report groups it: ``place GEAR`` (any space), ``do GEAR N``, or
    the action's kind."""
    gear = getattr(action, "gear", None)
    if type(action).__name__ in ("Place", "PlaceStart"):
        return f"place {gear or 'start'}"
    if type(action).__name__ == "Do":
        return f"do {gear} {action.space}"
    return type(action).__name__


def game_hunger(game: dict[str, Any]) -> list[dict[str, Any]]:
    """Replay a game: for every seat and Food Day that left workers unfed (rule: 3 VP each),
    the moves of that seat since the Food Day before that spent corn the Food Day needed
    (``sensible.keeps_reserve`` false: the corn held, waiting on the Starting Player Space
    and on its way from Palenque fell short of the Food Day's and fell further), each with the days left to the Food Day and whether
    another legal move kept the reserve (a choice, not a forced spend)."""
    from mayagames.tzolkin.sensible import days_to_food, keeps_reserve
    n = len(game["seats"])
    s: Any = start_state(game["seats"], game["seed"])  # a Tzolk'in state
    spends: list[list[dict[str, Any]]] = [[] for _ in range(n)]
    events: list[dict[str, Any]] = []
    for move in game["moves"]:
        legal = s.legal_actions()
        action, seat, food = legal[move], s.current_player, s.food_done
        if len(legal) > 1 and food < 4 and not keeps_reserve(s, seat, action):
            spends[seat].append({"move": move_kind(action), "days": days_to_food(s),
                                 "avoidable": any(keeps_reserve(s, seat, a) for a in legal if a != action)})
        s.apply(action)
        if s.food_done != food:
            for q in range(n):
                if s.last_unfed[q]:
                    events.append({"food_day": s.food_done, "seat": q, "unfed": s.last_unfed[q],
                                   "spends": spends[q]})
            spends = [[] for _ in range(n)]
    scores = s.scores()
    if scores != game["scores"]:
        raise SystemExit(f"game {game['index']}: the replay does not reach the recorded scores")
    best = max(scores)
    for e in events:
        e["won"] = scores[e["seat"]] == best
    return events


def hunger(paths: list[str], top: int = 10) -> str:
    """Where the corn of the unfed workers went (``--hunger``): per Food Day the workers left
    unfed, how many of them the winner left, the share of the hungry seat-days on which the
    seat itself spent corn the Food Day needed (and on which another move would have kept it),
    the days before the Food Day of those moves, and the most frequent of them."""
    from collections import Counter
    lines = []
    for path in paths:
        events = [e for g in read_games(Path(path)) for e in game_hunger(g)]
        lines.append(f"{path}: {len(events)} seat Food Days with workers unfed, "
                     f"{sum(e['unfed'] for e in events)} workers")
        for day in range(1, 5):
            of = [e for e in events if e["food_day"] == day]
            if not of:
                continue
            spent = [e for e in of if e["spends"]]
            avoidable = [e for e in of if any(m["avoidable"] for m in e["spends"])]
            lines.append(f"  Food Day {day}: {sum(e['unfed'] for e in of)} workers on {len(of)} seat-days "
                         f"({sum(e['unfed'] for e in of if e['won'])} by the winner); the seat spent "
                         f"the corn on {len(spent) / len(of):.0%} of them, with a move that kept it "
                         f"on {len(avoidable) / len(of):.0%}")
        days = Counter(m["days"] for e in events for m in e["spends"])
        kinds = Counter(m["move"] for e in events for m in e["spends"])
        lines.append("  the spending moves, by days before the Food Day: "
                     + ", ".join(f"{d}: {c}" for d, c in sorted(days.items())))
        lines.append("  the most frequent: " + ", ".join(f"{k} {c}" for k, c in kinds.most_common(top)))
    return "\n".join(lines)


def bot_figures(bot: str, games: list[dict[str, Any]], figures: list[dict[str, Any]]) -> str:
    """One bot's seats of a data file: its score, its score less the table's mean, its share of
    the wins (a tie shared), its workers at the end and its workers unfed a game."""
    seats = score = margin = won = workers = unfed = 0.0
    for g, f in zip(games, figures):
        mean = sum(f["scores"]) / f["players"]
        winners = [q for q, x in enumerate(f["scores"]) if x == f["winner"]]
        for q, spec in enumerate(g["seats"]):
            if bots_of([spec]) != [bot]:
                continue
            seats += 1
            score += f["scores"][q]
            margin += f["scores"][q] - mean
            won += 1 / len(winners) if q in winners else 0
            workers += f["workers"][q]
            unfed += sum(day[q] for day in f["unfed"])
    return (f"{bot}: {seats:.0f} seats, {score / seats:.1f} VP ({margin / seats:+.1f} against the table's "
            f"mean), wins {won / seats:.1%}, workers at the end {workers / seats:.2f}, unfed a game {unfed / seats:.2f}")


def once_each(games: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """``games`` with each game (seed and moves) once, and how many repeats were left out: two
    generations that share a bot and a seed hold the same game (a search at an iteration budget
    plays it move for move again), which would otherwise weigh twice in the fit."""
    seen: set[tuple[int, tuple[int, ...]]] = set()
    kept = []
    for g in games:
        key = (g["seed"], tuple(g["moves"]))
        if key not in seen:
            seen.add(key)
            kept.append(g)
    return kept, len(games) - len(kept)


def build(games: list[dict[str, Any]], every: int) -> dict[str, Any]:
    import numpy as np
    X, y, eras, group, players, step, tables = [], [], [], [], [], [], []
    for number, g in enumerate(games):
        gx, gy, ge, keys = positions(g, every)
        X += gx
        y += gy
        eras += ge
        group += [g["index"]] * len(gy)
        tables += [number] * len(gy)  # the game itself (two games may share a seed)
        players += [len(g["seats"])] * len(gy)
        step += [k[0] for k in keys]
    return {"X": np.array(X), "y": np.array(y), "era": np.array(eras), "game": np.array(group),
            "players": np.array(players), "step": np.array(step), "table": np.array(tables)}


def ridge(X: Any, y: Any, lam: float) -> Any:
    """Ridge regression on standardized columns (the bias column, first, not penalized)."""
    import numpy as np
    mu = X[:, 1:].mean(axis=0)
    sd = X[:, 1:].std(axis=0)
    sd[sd < 1e-9] = 1.0
    Z = np.hstack([np.ones((len(X), 1)), (X[:, 1:] - mu) / sd])
    penalty = lam * len(X) * np.eye(Z.shape[1])
    penalty[0, 0] = 0.0
    beta = np.linalg.solve(Z.T @ Z + penalty, Z.T @ y)
    w = np.empty_like(beta)
    w[1:] = beta[1:] / sd
    w[0] = beta[0] - (beta[1:] * mu / sd).sum()
    return w


def centred(a: Any, d: dict[str, Any]) -> Any:
    """``a`` (rows of seat positions) less the mean of the rows of the same position."""
    import numpy as np
    key = d["table"].astype(np.int64) * 100_000 + d["step"]  # a position: its game, its step
    _, group = np.unique(key, return_inverse=True)
    count = np.bincount(group).astype(float)
    if a.ndim == 1:
        return a - (np.bincount(group, weights=a) / count)[group]
    sums = np.zeros((len(count), a.shape[1]))
    np.add.at(sums, group, a)
    return a - (sums / count[:, None])[group]


def describe_data(path: Path, games: list[dict[str, Any]]) -> dict[str, Any]:
    """A games file (``games``: the ones read from it) as the weights record it: its games,
    their seeds, the bots that played (specs as written when the games were played: an
    estimate's name then)."""
    seeds = [g["seed"] for g in games]
    return {"file": path.name, "games": len(games), "seeds": [min(seeds), max(seeds)] if seeds else [],
            "specs": sorted({spec for g in games for spec in g["seats"]})}


def bots_of(specs: list[str]) -> list[str]:
    """The bots that played, as given to ``--spec``: the seats' specs less their ``epsilon``."""
    return sorted({spec.replace(f",epsilon={EPSILON}", "").replace(f":epsilon={EPSILON}", "")
                   for spec in specs})


def r2(pred: Any, truth: Any) -> float:
    import numpy as np
    return float(1 - ((truth - pred) ** 2).sum() / ((truth - truth.mean()) ** 2).sum())


def fit(args: argparse.Namespace) -> None:
    import numpy as np
    started = time.time()
    files = [(path, read_games(Path(path))) for path in args.data]
    games = sorted((g for _, read in files for g in read), key=lambda g: g["seed"])
    given = [Path(path).resolve() for path in args.data]
    if len(set(given)) < len(given):
        raise SystemExit(f"a data file is given twice: {args.data}")
    games, repeated = once_each(games)
    if repeated:  # the same bot on the same seed in two generations plays the same game
        print(f"{repeated} games are in two files with the same moves: each fitted once", flush=True)
    if not games:
        raise SystemExit(f"no games in {args.data}: run without --fit-only first")
    d = build(games, args.every)
    X, y, eras = d["X"], d["y"], d["era"]
    held = d["game"] // 5 % 5 == 0  # every 5th block of 5 games (2, 2, 2, 3 and 4 players)
    Xfit, yfit = X, y
    if args.target == "relative":  # each seat against the table's mean: what margins compare
        Xfit, yfit = centred(X, d), centred(y, d)
    # the v2 estimate (the sum of its parts) and the true final score, for the held-out figures
    parts = [L.FEATURES.index(p) for p in L.PARTS]
    v2 = X[:, parts].sum(axis=1)
    final = y + v2
    print(f"{len(games)} games, {len(y)} seat positions ({held.sum()} held out), "
          f"built in {time.time() - started:.0f} s", flush=True)
    scores: dict[float, float] = {}
    for lam in args.lambdas:
        pred = np.zeros(len(y))
        for e in range(L.ERAS):
            train = (eras == e) & ~held
            test = (eras == e) & held
            w = ridge(Xfit[train], yfit[train], lam)
            pred[test] = X[test] @ w
        score = r2(v2[held] + pred[held], final[held])
        relative = r2(centred(v2 + pred, d)[held], centred(final, d)[held])
        print(f"  lambda {lam:g}: held-out R2 of the final score {score:.4f}, "
              f"of the score against the table's mean {relative:.4f}", flush=True)
        if args.target == "relative":
            score = relative
        scores[lam] = score
    # the strongest shrinkage (towards v2) within TOLERANCE of the best held-out figure
    top = max(scores.values())
    lam = max(lam for lam, score in scores.items() if score >= top - TOLERANCE)
    # held-out figures with the chosen strength, by era, against v2; then the fit on all games
    pred = np.zeros(len(y))
    for e in range(L.ERAS):
        train = (eras == e) & ~held
        test = (eras == e) & held
        pred[test] = X[test] @ ridge(Xfit[train], yfit[train], lam)
    learned = v2 + pred
    figures: dict[str, Any] = {"lambda": lam, "held_out_games": int(len(set(d["table"][held]))),
                               "held_out_positions": int(held.sum())}
    figures["r2_final_v2"] = round(r2(v2[held], final[held]), 4)
    figures["r2_final_learned"] = round(r2(learned[held], final[held]), 4)
    figures["r2_relative_v2"] = round(r2(centred(v2, d)[held], centred(final, d)[held]), 4)
    figures["r2_relative_learned"] = round(r2(centred(learned, d)[held], centred(final, d)[held]), 4)
    figures["by_era"] = []
    rel_v2, rel_learned, rel_final = centred(v2, d), centred(learned, d), centred(final, d)
    for e in range(L.ERAS):
        m = held & (eras == e)
        figures["by_era"].append({"era": e, "positions": int(m.sum()),
                                  "r2_final_v2": round(r2(v2[m], final[m]), 4),
                                  "r2_final_learned": round(r2(learned[m], final[m]), 4),
                                  "r2_relative_v2": round(r2(rel_v2[m], rel_final[m]), 4),
                                  "r2_relative_learned": round(r2(rel_learned[m], rel_final[m]), 4)})
    # 2 players: the margin (own minus the other's), what the greedy bot compares
    two = held & (d["players"] == 2)
    idx = np.nonzero(two)[0]  # seat 0 then seat 1 of each position, in order
    a, b = idx[0::2], idx[1::2]
    if len(a) and len(a) == len(b):
        true_m = final[a] - final[b]
        figures["r2_margin_2p_v2"] = round(r2(v2[a] - v2[b], true_m), 4)
        figures["r2_margin_2p_learned"] = round(r2(learned[a] - learned[b], true_m), 4)
        figures["sign_agreement_2p_v2"] = round(float(np.mean(np.sign(v2[a] - v2[b]) == np.sign(true_m))), 4)
        figures["sign_agreement_2p_learned"] = round(
            float(np.mean(np.sign(learned[a] - learned[b]) == np.sign(true_m))), 4)
    print(json.dumps(figures, indent=1), flush=True)
    weights = [ridge(Xfit[eras == e], yfit[eras == e], lam) for e in range(L.ERAS)]
    target = {"final": "final score minus the v2 estimate (ridge per era)",
              "relative": "final score minus the v2 estimate, both less the table's mean (ridge per era)"}
    data = [describe_data(Path(path), read) for path, read in files]
    # a fit of games played before (--fit-only): the seed and bots of its first (newest) file
    seed, spec = ((data[0]["seeds"][0], " ".join(bots_of(data[0]["specs"])))
                  if args.fit_only and data[0]["seeds"] else (args.seed, " ".join(args.spec)))
    doc = {"name": args.name, "target": target[args.target],
           "features": list(L.FEATURES), "eras": [[round(float(v), 6) for v in w] for w in weights],
           "seed": seed, "spec": spec, "games": len(games), "positions": int(len(y)),
           "every": args.every, "players": {str(n): sum(len(g["seats"]) == n for g in games) for n in (2, 3, 4)},
           "trained": datetime.date.today().isoformat(),
           "self_play_cpu_seconds": round(sum(g.get("cpu", 0.0) for g in games)),
           "fit_seconds": round(time.time() - started), "held_out": figures,
           "data": data,
           "command": "python benchmarks/train_eval.py " + " ".join(sys.argv[1:])}
    out = Path(args.out)
    out.write_text(json.dumps(doc, indent=1) + "\n")
    L.load_weights(out)  # the file reads back
    print(f"wrote {out} ({out.stat().st_size} bytes) in {time.time() - started:.0f} s")


def moved(old_path: str, new_path: str, top: int = 15) -> str:
    """The ``top`` weights that moved most from one fit to another, largest first: era (Food
    Days held + 1), feature, the old and the new weight (both files read and checked as the
    estimate reads them; the two must have the same features)."""
    old, new = L.load_weights(old_path), L.load_weights(new_path)
    rows = sorted(((abs(b - a), era, name, a, b)
                   for era, (olds, news) in enumerate(zip(old.eras, new.eras))
                   for name, a, b in zip(L.FEATURES, olds, news)), reverse=True)
    names = f"{old.meta.get('name', old_path)} -> {new.meta.get('name', new_path)}"
    lines = [f"the {min(top, len(rows))} weights that moved most, {names}:",
             f"{'era':>3}  {'feature':<24} {'old':>9} {'new':>9} {'change':>9}"]
    lines += [f"{era + 1:>3}  {name:<24} {a:>9.3f} {b:>9.3f} {b - a:>+9.3f}" for _, era, name, a, b in rows[:top]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=2400)
    p.add_argument("--seed", type=int, default=2100, help="game i has seed SEED + i")
    p.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    p.add_argument("--minutes", type=float, default=0, help="stop the games after this long (0: no limit)")
    p.add_argument("--spec", nargs="+", default=[SELF_PLAY],
                   help="the self-play bot (a heuristic spec); several: each seat plays one, drawn")
    p.add_argument("--data", nargs="+", default=[str(ROOT / "runs" / "train_eval" / "games.jsonl")],
                   help="games file (the first one is played into; the fit reads all)")
    p.add_argument("--out", default=str(L.WEIGHTS_FILE))
    p.add_argument("--name", default="learned", help="the estimate's name written in --out "
                   "(eval=NAME: learned, learned3)")
    p.add_argument("--every", type=int, default=2, help="use every N-th position of a game")
    p.add_argument("--lambdas", type=float, nargs="+", default=[1e-4, 1e-3, 1e-2, 1e-1])
    p.add_argument("--target", choices=("final", "relative"), default="relative",
                   help="fit each seat's final score, or its score against the table's mean")
    p.add_argument("--fit-only", action="store_true")
    p.add_argument("--play-only", action="store_true")
    p.add_argument("--summary", action="store_true", help="print what the games of each --data "
                   "file show (scores, workers, unfed workers; replayed), and nothing else")
    p.add_argument("--hunger", action="store_true", help="print where the corn of the workers "
                   "left unfed went in the games of each --data file (replayed), and nothing else")
    p.add_argument("--moved", nargs=2, metavar=("OLD", "NEW"), help="print the weights that moved "
                   "most between two weights files (eval_learned_*.json), and nothing else")
    p.add_argument("--top", type=int, default=15, help="with --moved: how many weights")
    args = p.parse_args(argv)
    if args.moved:
        old, new = args.moved
        print(moved(old, new, top=args.top))
        return
    if args.summary:
        print(summary(args.data))
        return
    if args.hunger:
        print(hunger(args.data, top=args.top))
        return
    if not args.fit_only:
        generate(args)
    if not args.play_only:
        fit(args)


if __name__ == "__main__":
    main()

"""The heuristic (greedy) bot: one ply of look-ahead with the game's estimate.

For each legal action it applies the action to a few determinizations of its
view (hidden parts sampled consistently with what it may know) and scores the
result by the game's estimate of final scores (:func:`hooks.estimator`), taken
from its own view of the result: *own estimate minus the best opponent's*. A
compound turn is a chain of sub-decisions, each decided the same way.

Noise makes weaker bots: ``epsilon`` is the chance of a uniformly random move,
``noise`` the standard deviation of Gaussian noise added to each value, in units
of the game's score scale (:func:`hooks.score_scale`), so a level means the same in
every game.
"""

from __future__ import annotations

import math
from typing import Sequence

from ..core.game import Action, State
from ..core.rng import Rng
from .hooks import (Estimator, chance_is_revealed, estimator, greedy_depth, public_estimate,
                    score_scale, sensible_filter)


def margin(estimate: Sequence[float], seat: int) -> float:
    """Own estimate minus the best opponent's (own estimate alone in solo play)."""
    others = [v for s, v in enumerate(estimate) if s != seat]
    return estimate[seat] - (max(others) if others else 0.0)


def gaussian(rng: Rng) -> float:
    """A standard normal draw (Box–Muller) from the seeded generator."""
    u1 = 1.0 - rng.random()
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * rng.random())


def argmax_random_tie(values: Sequence[float], rng: Rng, tol: float = 1e-9) -> int:
    """Index of the largest value, ties broken by the generator."""
    best = max(values)
    ties = [i for i, v in enumerate(values) if v >= best - tol]
    return ties[rng.randbelow(len(ties))]


TIE_BREAK_WIN = 0.5  # less than any score point: only decides between equal margins
MAX_DEPTH = 4  # own decisions looked through (the cost grows as the branching to this power)
MAX_FORCED = 20  # forced decisions followed in a row when looking through a turn


class HeuristicAgent:
    """Greedy one-ply search on the game's estimate of final scores."""

    def __init__(self, seed: int = 0, samples: int = 3, noise: float = 0.0,
                 epsilon: float = 0.0, name: str = "heuristic", depth: int | None = None,
                 estimate: Estimator | None = None, slack: float = 0.0,
                 sensible: bool = False, eval: str | None = None,
                 depth_by_game: dict[str, int] | None = None, beam: int = 0) -> None:
        if samples < 1:
            raise ValueError("heuristic: samples must be at least 1")
        for d in (depth, *(depth_by_game or {}).values()):
            if d is not None and not 1 <= d <= MAX_DEPTH:
                raise ValueError(f"heuristic: depth must be between 1 and {MAX_DEPTH}")
        if noise < 0 or slack < 0 or not 0.0 <= epsilon <= 1.0:
            raise ValueError("heuristic: noise and slack must be >= 0 and epsilon in [0, 1]")
        self.name = name
        self.rng = Rng(seed)
        self.samples = samples
        self.noise = noise
        self.epsilon = epsilon
        # slack > 0: a careless (epsilon) move is drawn only among the moves within
        # slack x the game's score scale of the best one (careless, never suicidal)
        self.slack = slack
        # sensible: choose only among the game's sensible moves (hooks.sensible_filter)
        self.sensible = sensible
        self.depth = depth  # None: the game's own (hooks.greedy_depth)
        # a depth for some games only (``depth=tikal:2``); the others keep ``depth``
        self.depth_by_game = dict(depth_by_game or {})
        # beam > 0: below its first action, the bot looks further only through the best
        # ``beam`` choices one ply ahead (a deeper look at the price of a little more)
        if beam < 0:
            raise ValueError("heuristic: beam must be >= 0")
        self.beam = beam
        self.estimate = estimate  # None: the game's (hooks.estimator)
        # the game's estimate of this name (``plugin.estimate_variants``: a baseline kept
        # from an earlier version); reads what the game's own estimate reads
        self.eval = eval or None

    def act(self, view: State, legal: Sequence[Action]) -> Action:
        if self.sensible and len(legal) > 1:
            keep = sensible_filter(view.info)
            legal = keep(view, legal) if keep else legal
        if len(legal) == 1:
            return legal[0]
        careless = bool(self.epsilon) and self.rng.random() < self.epsilon
        if careless and not self.slack:
            return legal[self.rng.randbelow(len(legal))]
        values = self.action_values(view, legal)
        if careless:
            best = max(values)
            near = [i for i, v in enumerate(values) if v >= best - self.slack * score_scale(view.info)]
            return legal[near[self.rng.randbelow(len(near))]]
        if self.noise:
            spread = self.noise * score_scale(view.info)
            values = [v + spread * gaussian(self.rng) for v in values]
        return legal[argmax_random_tie(values, self.rng)]

    def action_values(self, view: State, legal: Sequence[Action]) -> list[float]:
        """Mean margin after each action, over ``samples`` determinizations."""
        seat = view.current_player
        assert seat is not None, "the heuristic bot was asked to move in a finished game"
        estimate = self.estimate or estimator(view.info, self.eval)
        depth = self.depth_by_game.get(view.info.name) or self.depth or greedy_depth(view.info)
        public = self.estimate is None and public_estimate(view.info)
        # The value of an action is the same in every sampled world when the estimate is
        # public, the game flags all chance, and no action looked through (the action, the
        # forced moves after it and, deeper than one ply, the seat's next decisions)
        # reveals anything: valued once, added once per sample as before (the same sums,
        # bit for bit).
        reuse = public and self.samples > 1 and chance_is_revealed(view.info)
        known: dict[int, float] = {}
        totals = [0.0] * len(legal)
        determinize = view.determinizer()
        for _ in range(self.samples):
            world = determinize(self.rng)
            for i, action in enumerate(legal):
                value = known.get(i)
                if value is None:
                    if not reuse:
                        value = value_after(world, action, seat, estimate, depth, public, self.beam)
                    elif depth == 1:
                        value = value_after(world, action, seat, estimate, depth, public)
                        if not view.reveals_information(action):
                            known[i] = value
                    else:
                        value, revealed = look_through(world, action, seat, estimate, depth, public,
                                                       beam=self.beam)
                        if not revealed:
                            known[i] = value
                totals[i] += value
        return [t / self.samples for t in totals]


def value_after(world: State, action: Action, seat: int, estimate: Estimator, depth: int = 1,
                public: bool = False, beam: int = 0) -> float:
    """The margin of ``seat`` after ``action`` in ``world``: the true one at the end of the
    game, else the estimate from the seat's own view; with ``depth`` > 1, the best margin
    over the seat's own next decisions while it keeps the move (a compound turn: pick up
    a worker, then choose its action), forced decisions not counted. ``public``: the
    estimate reads only public information (:func:`hooks.public_estimate`), so the state
    itself stands for the seat's view."""
    return look_through(world, action, seat, estimate, depth, public, track=False, beam=beam)[0]


def look_through(world: State, action: Action, seat: int, estimate: Estimator, depth: int = 1,
                 public: bool = False, track: bool = True, beam: int = 0) -> tuple[float, bool]:
    """:func:`value_after`, and (``track``) whether any action applied on the way revealed
    information (``State.revealed_by``): if none did, the value is the same in every world
    sampled from the same view, for a public estimate in a game that flags all chance.
    ``beam`` > 0: below the first action, only the ``beam`` choices the estimate ranks
    best one ply ahead are looked through further (the others keep that first value)."""
    after = world.clone()
    after.apply_unchecked(action)
    revealed = track and world.revealed_by(action, after)
    forced = 0
    while True:
        if after.is_terminal:  # the true result; a won tie-break beats a lost one
            return (margin(after.scores(), seat) + (TIE_BREAK_WIN if seat in after.winners() else 0.0),
                    revealed)
        if depth <= 1 or after.current_player != seat:
            break
        legal = after.legal_actions()
        if len(legal) > 1:
            value, seen = best_choice(after, legal, seat, estimate, depth - 1, public, track, beam)
            return value, revealed or seen
        if forced >= MAX_FORCED:
            break
        if track and not revealed:
            before, after = after, after.clone()
            after.apply_unchecked(legal[0])
            revealed = before.revealed_by(legal[0], after)
        else:
            after.apply_unchecked(legal[0])
        forced += 1
    # Judge the result from the bot's own view: sampled hidden parts carry no meaning.
    return margin(estimate(after if public else after.view(seat)), seat), revealed


def best_choice(state: State, legal: Sequence[Action], seat: int, estimate: Estimator, depth: int,
                public: bool, track: bool, beam: int) -> tuple[float, bool]:
    """The best value among ``legal`` looked through ``depth`` own decisions, and whether
    any action on the way revealed information; with ``beam``, only the best ``beam``
    choices one ply ahead are looked through deeper."""
    if not beam or depth <= 1 or len(legal) <= beam:
        values = [look_through(state, c, seat, estimate, depth, public, track, beam) for c in legal]
    else:
        values = [look_through(state, c, seat, estimate, 1, public, track) for c in legal]
        ranked = sorted(range(len(legal)), key=lambda i: -values[i][0])[:beam]
        for i in ranked:
            values[i] = look_through(state, legal[i], seat, estimate, depth, public, track, beam)
    return max(v for v, _ in values), any(seen for _, seen in values)

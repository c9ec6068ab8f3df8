"""Information-set Monte Carlo tree search (single-observer ISMCTS).

Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search" (2012):
one tree over the actions taken from the bot's information set. Each iteration

1. samples a full state consistent with the bot's *view* (``view.determinize``),
2. descends the tree, choosing among the children that are legal in that sample
   by UCB1 with *availability* counts (a child's exploration term uses how often
   it was available, not how often its parent was visited); the mean rewards in
   UCB are min-max normalised over the tree (as in MuZero), so that small
   differences between estimates, e.g. mid-game in a long Euro game, still steer
   the search instead of drowning in the exploration term,
3. expands one untried legal action,
4. plays a rollout with a cheap default policy (uniformly random) to the end,
   or for ``rollout_plies`` plies and then asks the game's estimate of final
   scores (:mod:`.hooks`) for every seat's chance to win (a softmax of the
   estimates with the game's score scale as temperature),
5. backs the reward vector up: each edge collects the reward of the seat that
   chose it (1 shared among winners at the end of a game).

When the game has an estimate, the root actions also get a *progressive bias*
(Chaslot et al. 2008) from the heuristic bot's one-ply values, normalised to
[0, 1]: ``prior * h(a) / (1 + visits)`` is added to their UCB value. A small
search therefore starts from the greedy move and leaves it only for a reason it
found; the bias fades as visits grow. Untried root actions are expanded in the
order of that bias.

The budget is a number of iterations, a wall-clock time per decision, or both
(whichever ends first). With an iteration budget the search is deterministic
given the seed: the same view gives the same decision every time. The move
played is the most visited root action. :class:`SearchStats` reports the work
done (iterations per second for benchmarks and the arena).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Sequence

from ..core.compiling import mypyc_attr
from ..core.game import Action, State
from ..core.rng import Rng
from .heuristic import argmax_random_tie
from .hooks import Estimator, estimator, has_estimator, score_scale, sensible_filter

DEFAULT_C = 0.7  # UCB exploration constant for rewards in [0, 1]
DEFAULT_CUTOFF = 30  # rollout plies before the estimate, for games with a heuristic
DEFAULT_PRIOR = 1.0  # weight of the heuristic's progressive bias at the root
MARGIN_SCALE = 4.0  # margin rewards: the score margin's scale, in score-scale units
RAILS_MIN_VISITS = 0.1  # rails: a kept move needs this share of the best move's visits


class Node:
    """An edge of the tree (the action leading here) with its statistics."""

    __slots__ = ("children", "visits", "value", "avail")

    def __init__(self) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.value = 0.0  # sum of rewards of the seat that chose this action
        self.avail = 1  # times this action was legal when its parent was visited

    def mean(self) -> float:
        return self.value / self.visits if self.visits else 0.0

    def size(self) -> int:
        return 1 + sum(child.size() for child in self.children.values())


@dataclass
class SearchStats:
    """What one decision's search did."""

    iterations: int
    seconds: float
    nodes: int = 0
    max_depth: int = 0
    root: list[dict[str, Any]] = field(default_factory=list)  # action, visits, mean

    @property
    def iterations_per_s(self) -> float:
        return self.iterations / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "iterations_per_s": round(self.iterations_per_s, 1)}


def win_chances(estimate: Sequence[float], temperature: float) -> list[float]:
    """Softmax of estimated final scores: each seat's chance to win, summing to 1."""
    top = max(estimate)
    weights = [math.exp((v - top) / temperature) for v in estimate]
    total = sum(weights)
    return [w / total for w in weights]


def margin_rewards(scores: Sequence[float], scale: float) -> list[float]:
    """Each seat's score margin over its best opponent, squashed to (0, 1): a logistic of
    the margin over ``scale``. Unlike a win chance it keeps rising past a sure win (and
    falling past a sure loss), so a search that weighs it still plays for points."""
    rewards = []
    for seat, own in enumerate(scores):
        best_other = max((v for i, v in enumerate(scores) if i != seat), default=own)
        rewards.append(1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, (own - best_other) / scale)))))
    return rewards


def blend(first: Sequence[float], second: Sequence[float], weight: float) -> list[float]:
    """``(1 - weight) * first + weight * second``, seat by seat."""
    return [(1.0 - weight) * a + weight * b for a, b in zip(first, second)]


@mypyc_attr(native_class=False)  # an exception class: a Python class in the compiled build too
class EngineError(RuntimeError):
    """The game engine broke the protocol during a search (e.g. a stuck state)."""


def legal_or_fail(state: State) -> list[Action]:
    """The legal actions of a non-terminal state; an empty list is an engine bug."""
    legal = state.legal_actions()
    if not legal:
        raise EngineError(f"{state.info.name}: a sampled state is not over but has no legal "
                          "action (an engine bug; the search cannot go on)")
    return legal


# A native class in the compiled build that Python classes may subclass: the review's search
# (arena.review) overrides its hooks. (A Python class, native_class=False, would refuse a
# subclass's instance in its compiled methods.)
@mypyc_attr(allow_interpreted_subclasses=True)
class MCTSAgent:
    """Single-observer information-set MCTS with an iteration and/or time budget."""

    def __init__(self, seed: int = 0, iterations: int | None = None, seconds: float | None = None,
                 c: float = DEFAULT_C, rollout_plies: int | None = -1,
                 temperature: float | None = None, normalize: bool = True,
                 prior: float = DEFAULT_PRIOR, worlds: int = 0, name: str = "mcts",
                 eval: str | None = None, sensible: bool = False, margin: float = 0.0,
                 rails: float = 0.0) -> None:
        if not 0.0 <= margin <= 1.0:
            raise ValueError("mcts: margin must be between 0 and 1")
        if not 0.0 <= rails <= 1.0:
            raise ValueError("mcts: rails must be between 0 and 1")
        if iterations is None and seconds is None:
            raise ValueError("mcts: give a budget in iterations (500i) or seconds (1s)")
        if (iterations is not None and iterations < 1) or (seconds is not None and seconds <= 0):
            raise ValueError("mcts: the budget must be positive")
        if worlds < 0:
            raise ValueError("mcts: worlds must be 0 (a fresh sample each iteration) or more")
        self.name = name
        self.rng = Rng(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.rollout_plies = rollout_plies  # -1: the default for the game; None: to the end
        self.temperature = temperature
        self.normalize = normalize
        self.prior = prior
        self.worlds = worlds  # 0: determinize every iteration; K: reuse K sampled worlds
        self.eval = eval or None  # a named estimate of the game (plugin.estimate_variants)
        # sensible: the root's moves are only the game's sensible ones (hooks.sensible_filter,
        # the guard rails of the heuristic bot's ``sensible``); the search below is unchanged
        self.sensible = sensible
        # margin: the weight of the score margin in the reward (margin_rewards), beside the
        # chance to win; 0 plays only to win
        self.margin = margin
        # rails: after the search, the game's sensible moves as a tie-break: the most visited
        # root move the guard rails keep, where its mean reward is within ``rails`` of the most
        # visited move's (and it had RAILS_MIN_VISITS of its visits); 0 takes the most visited
        self.rails = rails
        self._allowed: frozenset | None = None  # the root's sensible moves while searching
        self._bias: dict[Action, float] = {}  # progressive bias of the root actions
        self._low, self._high = 0.0, 1.0  # bounds of the edge means seen in this search
        self.last: SearchStats | None = None
        self.decisions = 0  # decisions searched (forced moves are not searched)
        self.total_iterations = 0
        self.total_seconds = 0.0

    # --- the Agent interface ------------------------------------------------
    def act(self, view: State, legal: Sequence[Action]) -> Action:
        self._allowed = None
        if self.sensible and len(legal) > 1:
            keep = sensible_filter(view.info)
            if keep:
                kept = keep(view, legal)
                if len(kept) < len(legal):
                    legal, self._allowed = kept, frozenset(kept)
        if len(legal) == 1:
            return legal[0]
        try:
            action, stats = self.search(view, legal)
        finally:
            self._allowed = None
        self.last = stats
        self.decisions += 1
        self.total_iterations += stats.iterations
        self.total_seconds += stats.seconds
        return action

    def summary(self) -> dict[str, Any]:
        """Totals over every decision searched (for the arena's records)."""
        rate = self.total_iterations / self.total_seconds if self.total_seconds else 0.0
        return {"searched_decisions": self.decisions, "iterations": self.total_iterations,
                "search_seconds": round(self.total_seconds, 4),
                "iterations_per_s": round(rate, 1)}

    # --- the search -----------------------------------------------------------
    def search(self, view: State, legal: Sequence[Action]) -> tuple[Action, SearchStats]:
        """Search from ``view`` and return the most visited legal root action."""
        rng = self.rng.spawn()
        # Rollout moves come from a C-level generator seeded from ours (still a pure
        # function of the seed; the pure-Python SplitMix64 was ~8% of a Tzolk'in search).
        rollout_random = random.Random(rng.next64()).random
        info = view.info
        estimate = estimator(info, self.eval)
        cutoff = self._cutoff(view)
        temperature = self.temperature or score_scale(info)
        root = Node()
        self._low, self._high = math.inf, -math.inf
        self._bias = self._root_bias(view, legal, rng)
        start = time.perf_counter()
        deadline = start + self.seconds if self.seconds is not None else math.inf
        done = max_depth = 0
        sample = self._world_sampler(view, rng)
        while True:
            depth = self._iterate(root, sample(done), rng, estimate, cutoff, temperature,
                                  rollout_random)
            done += 1
            max_depth = max(max_depth, depth)
            if self.iterations is not None and done >= self.iterations:
                break
            if time.perf_counter() >= deadline:
                break
        elapsed = time.perf_counter() - start
        action = self._best_root_action(root, legal, rng)
        if self.rails:
            action = self._within_rails(view, legal, root, action)
        stats = SearchStats(done, elapsed, root.size(), max_depth, [
            {"action": str(a), "visits": n.visits, "mean": round(n.mean(), 4)}
            for a, n in sorted(root.children.items(), key=lambda kv: -kv[1].visits)])
        return action, stats

    def _world_sampler(self, view: State, rng: Rng) -> Callable[[int], State]:
        """Iteration ``i``'s world: a fresh determinization of the view, or (``worlds`` = K)
        a copy of the (i mod K)-th of K determinizations sampled on first use, which saves
        most of the sampling cost (the shuffles of the hidden parts) when a search runs many
        more iterations than K."""
        # what is unseen worked out once per search; piles shuffled when first read
        determinize = view.search_determinizer()
        if not self.worlds:
            return lambda i: determinize(rng)
        pool: list[State] = []

        def sample(i: int) -> State:
            k = i % self.worlds
            if k == len(pool):
                pool.append(determinize(rng))
                return pool[k].clone()
            return pool[k].clone()
        return sample

    def _root_bias(self, view: State, legal: Sequence[Action], rng: Rng) -> dict[Action, float]:
        """Heuristic one-ply values of the root actions, scaled to [0, prior]."""
        if not self.prior or not has_estimator(view.info):
            return {}
        from .heuristic import HeuristicAgent

        greedy = HeuristicAgent(seed=rng.next64(), samples=1, eval=self.eval)
        values = greedy.action_values(view, legal)
        low, high = min(values), max(values)
        if high - low < 1e-9:
            return {}
        return {a: self.prior * (v - low) / (high - low) for a, v in zip(legal, values)}

    def _cutoff(self, view: State) -> int | None:
        if self.rollout_plies is None or self.rollout_plies >= 0:
            return self.rollout_plies
        return DEFAULT_CUTOFF if has_estimator(view.info) else None

    def _iterate(self, root: Node, state: State, rng: Rng, estimate: Estimator,
                 cutoff: int | None, temperature: float, rollout_random: Callable[[], float]) -> int:
        """One iteration (steps 2-5 of the module doc) in ``state``, a world consistent with
        the view (step 1, :meth:`_world_sampler`); returns the tree depth reached."""
        node = root
        path: list[tuple[Node, int]] = []  # (edge, seat that chose it)
        legal_of = state.legal_cached  # the state's own list, not a copy (only read here)
        allowed = self._allowed
        while (mover := state.current_player) is not None:
            legal = legal_of() or legal_or_fail(state)
            if allowed is not None and node is root:
                legal = [a for a in legal if a in allowed] or legal
            untried, known = self._count_availability(node, legal)
            if untried:  # 3. expansion (at the root: the heuristic's favourite first)
                action = self._pick_untried(untried, rng, node is root)
                node.children[action] = child = Node()
                state.apply_unchecked(action)
                path.append((child, mover))
                break
            action, node = self._select(known, node is root)  # 2. selection by UCB
            state.apply_unchecked(action)
            path.append((node, mover))
        rewards = self._rollout(state, rollout_random, estimate, cutoff, temperature)  # 4.
        for edge, mover in path:  # 5. backpropagation
            edge.visits += 1
            edge.value += rewards[mover]
            mean = edge.value / edge.visits
            if mean < self._low:
                self._low = mean
            if mean > self._high:
                self._high = mean
        return len(path)

    def _pick_untried(self, untried: list[Action], rng: Rng, at_root: bool) -> Action:
        if at_root and self._bias:
            values = [self._bias.get(a, 0.0) for a in untried]
            return untried[argmax_random_tie(values, rng)]
        return untried[rng.randbelow(len(untried))]

    @staticmethod
    def _count_availability(node: Node, legal: Sequence[Action]) -> tuple[list[Action], list[tuple[Action, Node]]]:
        """Count one more availability for each known legal child; return the untried actions
        and the known ones with their children, in the order of ``legal`` (one dictionary
        lookup an action, which selection then reuses)."""
        untried: list[Action] = []
        known: list[tuple[Action, Node]] = []
        get = node.children.get
        for action in legal:
            child = get(action)
            if child is None:
                untried.append(action)
            else:
                child.avail += 1
                known.append((action, child))
        return untried, known

    def _select(self, known: Sequence[tuple[Action, Node]], at_root: bool) -> tuple[Action, Node]:
        """UCB1 with availability counts (ISMCTS) on min-max normalised means, among ``known``
        (every legal action with its child); the first of equal values."""
        best_action, best_child = known[0]
        best_value = -math.inf
        c = self.c
        low, span = 0.0, 1.0
        if self.normalize and self._high - self._low > 1e-9:
            low, span = self._low, self._high - self._low
        log, sqrt = math.log, math.sqrt
        bias = self._bias if at_root else None
        if bias:  # the root's progressive bias, fading with visits
            for action, child in known:
                visits = child.visits
                value = (child.value / visits - low) / span + c * sqrt(log(child.avail) / visits)
                value += bias.get(action, 0.0) / (1 + visits)
                if value > best_value:
                    best_action, best_child, best_value = action, child, value
            return best_action, best_child
        for action, child in known:  # the same sums without the bias
            visits = child.visits
            value = (child.value / visits - low) / span + c * sqrt(log(child.avail) / visits)
            if value > best_value:
                best_action, best_child, best_value = action, child, value
        return best_action, best_child

    def _rollout(self, state: State, rand: Callable[[], float], estimate: Estimator,
                 cutoff: int | None, temperature: float) -> list[float]:
        """Uniformly random moves (``rand``: floats in [0, 1)) for ``cutoff`` plies or to the end."""
        limit = state.info.max_decisions if cutoff is None else cutoff
        if state.playout(rand, limit) < limit and state.current_player is not None:
            legal_or_fail(state)  # stopped with no legal action: an engine bug
        if state.current_player is None:
            if self.margin:
                return blend(state.returns(), margin_rewards(state.scores(), temperature * MARGIN_SCALE),
                             self.margin)
            return state.returns()
        scores = estimate(state)
        if self.margin:
            return blend(win_chances(scores, temperature),
                         margin_rewards(scores, temperature * MARGIN_SCALE), self.margin)
        return win_chances(scores, temperature)

    def _within_rails(self, view: State, legal: Sequence[Action], root: Node, best: Action) -> Action:
        """``best`` (the most visited root move), or, when the game's guard rails
        (hooks.sensible_filter) would not play it, the most visited move they keep whose mean
        reward is at most ``rails`` below ``best``'s and which had at least
        :data:`RAILS_MIN_VISITS` of its visits (a mean of few visits says little)."""
        keep = sensible_filter(view.info)
        if keep is None:
            return best
        kept = keep(view, legal)
        top = root.children.get(best)
        if best in kept or top is None:
            return best
        floor, least = top.mean() - self.rails, RAILS_MIN_VISITS * top.visits
        near = [(root.children[a].visits, i) for i, a in enumerate(kept)
                if a in root.children and root.children[a].visits >= least
                and root.children[a].mean() >= floor]
        return kept[max(near)[1]] if near else best

    @staticmethod
    def _best_root_action(root: Node, legal: Sequence[Action], rng: Rng) -> Action:
        """The most visited legal root action (ties and unvisited roots: seeded choice)."""
        visits = [float(root.children[a].visits) if a in root.children else -1.0 for a in legal]
        return legal[argmax_random_tie(visits, rng)]

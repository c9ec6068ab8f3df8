"""Game review: what a search bot thinks of every decision of a finished game.

For each decision of the chosen seats, from **that seat's view only** (the analysis of a
decision is a function of ``state.view(seat)``, never of the true hidden state), an
information-set MCTS (:mod:`mayagames.agents.mcts`) estimates

* the seat's **win probability** and **expected final score margin** (own score minus the
  best opponent's) before the move, with best play: the estimate of the search's
  preferred move;
* the estimate of the **move played** (the search makes sure it gets at least
  :data:`PLAYED_SHARE` of the iterations, so that its estimate is not a guess);
* the **loss** of the move played: preferred minus played, in win probability (>= 0).

A win probability is the mean reward of a root action in the search: the true result
where a rollout reaches the end, else the game's score estimate turned into win chances
(a softmax with the game's score scale, :func:`mayagames.agents.mcts.win_chances`), its
log-odds then multiplied by the sharpness the game fitted for the search's estimate, the
number of players and the stage of the game (:func:`calibrated`; only the numbers shown change, never which move the
search prefers). The
margin is the mean, over the same iterations, of the seat's score margin at the leaf
(true at the end, else estimated).

**Whole turns.** A turn is a run of consecutive decisions of one seat (a Tikal turn of
action points, a Tzolk'in pick-up with its actions). The search at the turn's first
decision looks through the seat's later decisions of the turn (they are deeper nodes of
its tree), so its preferred move is the start of the best whole turn it found; the turn's
value as played is the estimate of the last decision's move played. The turn loss is the
first minus the second: "you should have unearthed before moving" shows as a turn loss
even when each step looked reasonable given the one before. ``best_turn`` lists the
search's preferred whole turn (followed through its tree in one sampled world).

Decisions are independent tasks (a view, the move played, a seed derived from the run
seed and the move number): they run in parallel processes (``jobs``) or on Ray, and with
an iteration budget the analysis is the same whatever the number of jobs. JSON layout:
``docs/bots.md`` (section "Game review"), format ``mayagames-analysis/1``.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterable, Sequence

from ..agents.hooks import Estimator, review_sharpness, score_scale
from ..agents.mcts import MCTSAgent, Node, legal_or_fail, win_chances
from ..core.errors import MayaGamesError
from ..core.game import Action, State
from ..core.record import GameRecord
from ..core.rng import Rng, derive_seed
from .parallel import run_each

FORMAT = "mayagames-analysis/1"
PLAYED_SHARE = 0.2  # at least this share of a search's iterations go to the move played
BLUNDER = 0.10  # loss in win probability of a blunder
MISTAKE = 0.05
INACCURACY = 0.02
TURNING_POINTS = 5  # how many turning points a review lists
MAX_BEST_TURN = 12  # decisions followed when reading the best whole turn off the tree


class ReviewError(MayaGamesError):
    """A record or request that cannot be analysed as asked."""


@dataclass(frozen=True)
class Budget:
    """A search budget per decision: iterations, seconds, or both (whichever ends first)."""

    iterations: int | None = None
    seconds: float | None = None

    @classmethod
    def parse(cls, text: str) -> "Budget":
        """``2000i``, ``2s``, ``500ms`` or ``2000i+2s`` (as in ``mcts:BUDGET``)."""
        from ..agents import parse_budget

        try:
            iterations, seconds = parse_budget(text, f"budget {text}")
        except ValueError as exc:
            raise ReviewError(str(exc)) from None
        if (iterations is not None and iterations < 2) or (seconds is not None and seconds <= 0):
            raise ReviewError(f"budget {text!r}: give at least 2 iterations or a positive time")
        return cls(iterations, seconds)

    def __str__(self) -> str:
        parts = ([f"{self.iterations}i"] if self.iterations is not None else []) + \
                ([f"{self.seconds:g}s"] if self.seconds is not None else [])
        return "+".join(parts)


@dataclass(frozen=True)
class DecisionTask:
    """One decision to analyse: everything a worker needs, and nothing hidden."""

    index: int  # 0-based number of the move in the record
    seat: int
    turn: int  # increases each time the acting seat changes
    view: State  # the seat's view before the move (view.viewer == seat)
    played: str  # notation of the move played
    seed: int


@dataclass
class DecisionReview:
    """What the search thinks of one decision (probabilities in [0, 1] for ``seat``)."""

    index: int
    seat: int
    turn: int
    played: str
    legal: int
    forced: bool = False
    win_prob: float | None = None  # before the move, with best play (the preferred move's)
    margin: float | None = None
    best: str | None = None
    best_win_prob: float | None = None
    best_margin: float | None = None
    played_win_prob: float | None = None
    played_margin: float | None = None
    loss: float = 0.0  # win probability lost by the move played (>= 0)
    margin_loss: float = 0.0
    best_turn: list[str] = field(default_factory=list)  # the preferred whole turn from here
    iterations: int = 0
    seconds: float = 0.0
    top: list[dict[str, Any]] = field(default_factory=list)  # action, visits, win_prob, margin

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["move_number"] = self.index + 1
        data["label"] = label(self.loss)
        return data


def label(loss: float) -> str:
    """``blunder``, ``mistake``, ``inaccuracy`` or ``""`` for a loss in win probability."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return ""


# --- the search ----------------------------------------------------------------------
def seat_margin(scores: Sequence[float], seat: int) -> float:
    """Own score minus the best opponent's (own score alone in a solo game)."""
    others = [v for s, v in enumerate(scores) if s != seat]
    return float(scores[seat] - (max(others) if others else 0.0))


class ReviewSearch(MCTSAgent):
    """The MCTS bot's search, also averaging each root action's leaf score margin, and
    giving the move played at least a share of the iterations (so both moves compared
    have a measured estimate). The tree and its rewards are exactly the bot's.

    With an iteration budget the search first runs its budget as the bot would, without
    a move played (what it prefers is what a hint at that budget and seed prefers:
    :func:`suggest`), then gives the move played the iterations it lacks of its share, on
    its own branch only (issue 23: forcing it during the search steered the tree away
    from it, so a hinted move, once played, read as a loss). With a time budget the move
    played is given its share during the search."""

    def __init__(self, seed: int, budget: Budget, seat: int, played: Action | None,
                 share: float = PLAYED_SHARE) -> None:
        self.budget = budget.iterations  # the free search's iterations (None: by time)
        extra = 0
        if played is not None and budget.iterations is not None:
            extra = math.ceil(share * budget.iterations / (1 - share)) + 1
        super().__init__(seed, iterations=None if budget.iterations is None else budget.iterations + extra,
                         seconds=budget.seconds, name="review")
        self.seat = seat
        self.played = played
        self.share = share
        self.free_means: dict[Action, float] | None = None
        self.margins: dict[Action, float] = {}  # sum of leaf margins per root action
        self.forced_visits: dict[Action, int] = {}  # visits given to the move played by force
        self._root_action: Action | None = None
        self._root_visits = 0
        self._leaf_margin = 0.0
        self.root = Node()
        self.sharpness = 1.0  # of the estimate searched on (set by :meth:`run`)

    # Hooks on the bot's search: remember the root action of each iteration and the
    # score margin of its leaf, then add that margin to the root action's sum.
    def _measuring(self) -> bool:
        """Past the free search's budget: only the move played is searched."""
        return self.budget is not None and self._root_visits >= self.budget

    def _needs_share(self, root: Node) -> bool:
        played = self.played
        visits = root.children[played].visits if played in root.children else 0
        return visits < self.share * self._root_visits

    def _select(self, known: Sequence[tuple[Action, Node]], at_root: bool) -> tuple[Action, Node]:
        if at_root:
            played, children = self.played, self.root.children
            if self._measuring():
                self._root_action = played
                return played, children[played]
            if (self.budget is None and played is not None and played in children
                    and children[played].visits < self.share * self._root_visits):
                self.forced_visits[played] = self.forced_visits.get(played, 0) + 1
                self._root_action = played
                return played, children[played]
            self._root_action, child = super()._select(known, at_root)
            return self._root_action, child
        return super()._select(known, at_root)

    def _count_availability(self, node: Node,  # type: ignore[override]
                            legal: Sequence[Action]) -> tuple[list[Action], list[tuple[Action, Node]]]:
        untried, known = MCTSAgent._count_availability(node, legal)
        if node is self.root and self._measuring():  # only the move played's branch
            return ([self.played] if self.played in untried else []), known
        return untried, known

    def _pick_untried(self, untried: list[Action], rng: Rng, at_root: bool) -> Action:
        action = super()._pick_untried(untried, rng, at_root)
        if at_root:
            self._root_action = action
        return action

    def _rollout(self, state: State, rand: Callable[[], float], estimate: Estimator,
                 cutoff: int | None, temperature: float) -> list[float]:
        """The bot's rollout (random plies, then the estimate as win chances), keeping the
        leaf's score margin for :attr:`seat` (one estimate serves both)."""
        limit = state.info.max_decisions if cutoff is None else cutoff
        plies = 0
        while plies < limit and state.current_player is not None:
            legal = state.legal_actions() or legal_or_fail(state)
            state.apply_unchecked(legal[int(rand() * len(legal))])
            plies += 1
        if state.current_player is None:
            self._leaf_margin = seat_margin(state.scores(), self.seat)
            return state.returns()
        scores = estimate(state)
        self._leaf_margin = seat_margin(scores, self.seat)
        return win_chances(scores, temperature)

    def _iterate(self, root: Node, state: State, *args: Any) -> int:
        self.root = root
        if self._measuring():
            if self.free_means is None:  # the free search's estimates (its ties are broken by them)
                self.free_means = {a: round(n.mean(), 4) for a, n in root.children.items() if n.visits}
            if self.played is None or not self._needs_share(root):
                return 0  # the move played has its share: the iterations left are not run
            self.forced_visits[self.played] = self.forced_visits.get(self.played, 0) + 1
        self._root_action = None
        depth = super()._iterate(root, state, *args)
        action = self._root_action
        if action is not None:
            self.margins[action] = self.margins.get(action, 0.0) + self._leaf_margin
        self._root_visits += 1
        return depth

    def run(self, view: State, legal: Sequence[Action]) -> tuple[Node, int, float]:
        """Search ``view``; the root of the tree, the iterations and the seconds. The search
        is the game's ``hard`` level's (its rollout, and its estimate unless the review keeps
        a better calibrated one: ``agents.review_settings``)."""
        from ..agents import review_settings

        settings = review_settings(view.info.name)
        self.eval = settings.get("eval", self.eval)
        self.rollout_plies = settings.get("rollout_plies", self.rollout_plies)
        self.sharpness = review_sharpness(view.info, self.eval, view)
        self._root_visits = 0
        _, stats = self.search(view, legal)
        return self.root, stats.iterations, stats.seconds


def analyse_decision(task: DecisionTask, budget: Budget) -> DecisionReview:
    """The review of one decision, computed from ``task.view`` alone."""
    view = task.view
    if view.viewer != task.seat or view.current_player != task.seat:
        raise ReviewError(f"move {task.index + 1}: the task must hold seat {task.seat}'s view "
                          "at its own decision")
    legal = view.legal_actions()
    played = view.parse_action(task.played)
    review = DecisionReview(task.index, task.seat, task.turn, task.played, len(legal))
    if played not in legal:
        raise ReviewError(f"move {task.index + 1} {task.played!r} is not legal in seat "
                          f"{task.seat}'s view")
    if len(legal) == 1:
        review.forced = True
        return review
    search = ReviewSearch(task.seed, budget, task.seat, played)
    root, iterations, seconds = search.run(view, legal)
    review.iterations, review.seconds = iterations, round(seconds, 4)
    stats = root_statistics(root, search)
    best = preferred(stats, legal, search.free_means)
    review.best = str(best)
    review.best_win_prob, review.best_margin = stats[best]["win_prob"], stats[best]["margin"]
    review.win_prob, review.margin = review.best_win_prob, review.best_margin
    if played in stats:
        review.played_win_prob = stats[played]["win_prob"]
        review.played_margin = stats[played]["margin"]
        review.loss = round(max(0.0, review.best_win_prob - review.played_win_prob), 4)
        review.margin_loss = round(max(0.0, review.best_margin - review.played_margin), 3)
    if best == played:
        review.loss = review.margin_loss = 0.0
    review.top = [{"action": str(a), **s} for a, s in
                  sorted(stats.items(), key=lambda kv: -kv[1]["visits"])[:5]]
    review.best_turn = best_turn(root, best, view, task.seat, Rng(task.seed ^ 0x5EED))
    return review


def suggest(view: State, seat: int, budget: Budget, seed: int) -> DecisionReview:
    """A hint: the review's search at a decision not yet played, without a move played.
    With an iteration budget, the review of the decision (the same budget and seed) runs
    this very search before it measures the move played (:class:`ReviewSearch`): it
    prefers the same move, so a hinted move, once played, is the review's choice too."""
    if view.viewer != seat or view.current_player != seat:
        raise ReviewError(f"a hint needs seat {seat}'s view at its own decision")
    legal = view.legal_actions()
    review = DecisionReview(0, seat, 0, "", len(legal))
    if len(legal) == 1:
        review.forced, review.best = True, str(legal[0])
        return review
    search = ReviewSearch(seed, budget, seat, None)
    root, review.iterations, seconds = search.run(view, legal)
    review.seconds = round(seconds, 4)
    stats = root_statistics(root, search)
    best = preferred(stats, legal)
    review.best = str(best)
    review.best_win_prob, review.best_margin = stats[best]["win_prob"], stats[best]["margin"]
    review.win_prob, review.margin = review.best_win_prob, review.best_margin
    review.top = [{"action": str(a), **s} for a, s in
                  sorted(stats.items(), key=lambda kv: -kv[1]["visits"])[:5]]
    review.best_turn = best_turn(root, best, view, seat, Rng(seed ^ 0x5EED))
    return review


def confidence(review: DecisionReview) -> str:
    """How sure the search is of its preferred move, in words: its estimate against the
    next best move's (the labels' thresholds: a gap the review would call a mistake is
    "clearly", one it would call an inaccuracy "probably")."""
    if review.forced or len(review.top) < 2:
        return "the only move"
    gap = (review.best_win_prob or 0.0) - max(t["win_prob"] for t in review.top[1:])
    if gap >= MISTAKE:
        return "clearly the best move"
    if gap >= INACCURACY:
        return "probably the best move"
    return "a close call: other moves look about as good"


def chances(win_prob: float | None) -> str:
    """A win probability in words, for a player (the number follows in brackets)."""
    if win_prob is None:
        return ""
    words = ("you are likely to win" if win_prob >= 0.7 else "you are ahead" if win_prob >= 0.55
             else "it is even" if win_prob > 0.45 else "you are behind" if win_prob > 0.3
             else "you are likely to lose")
    return f"{words} ({round(100 * win_prob)}% win chance)"


def calibrated(win_prob: float, sharpness: float) -> float:
    """``win_prob`` with its log-odds multiplied by ``sharpness`` (above 1: farther from an
    even game; 1: unchanged). Monotone, so the order of the moves is kept; 0, 1/2 and 1
    stay where they are."""
    if sharpness == 1.0 or win_prob <= 0.0 or win_prob >= 1.0:
        return win_prob
    odds = (win_prob / (1.0 - win_prob)) ** sharpness
    return odds / (1.0 + odds)


def root_statistics(root: Node, search: ReviewSearch) -> dict[Action, dict[str, Any]]:
    """Per root action: its visits (those given by the search's own choice), mean win
    probability (calibrated: :func:`calibrated`) and mean score margin."""
    stats = {}
    for action, node in root.children.items():
        if not node.visits:
            continue
        stats[action] = {"visits": node.visits - search.forced_visits.get(action, 0),
                         "win_prob": round(calibrated(node.mean(), search.sharpness), 4),
                         "margin": round(search.margins.get(action, 0.0) / node.visits, 3)}
    return stats


def preferred(stats: dict[Action, dict[str, Any]], legal: Sequence[Action],
              means: dict[Action, float] | None = None) -> Action:
    """The search's choice: the most visited root action (by its own choice), ties broken
    by the higher estimate (``means``: the free search's, before the move played was
    measured) and then by the order of the legal actions."""
    order = {a: i for i, a in enumerate(legal)}
    estimate = (lambda a: means.get(a, stats[a]["win_prob"])) if means else (lambda a: stats[a]["win_prob"])
    return max(stats, key=lambda a: (stats[a]["visits"], estimate(a), -order.get(a, 0)))


def best_turn(root: Node, first: Action, view: State, seat: int, rng: Rng) -> list[str]:
    """The preferred whole turn: ``first``, then the most visited children while ``seat``
    keeps the move, in one world sampled from the view (later steps may depend on hidden
    draws)."""
    world = view.determinize(rng)
    world.apply_unchecked(first)
    node, moves = root.children[first], [str(first)]
    while world.current_player == seat and node.children and len(moves) < MAX_BEST_TURN:
        legal = set(world.legal_actions())
        choices = [(n.visits, -i, a) for i, (a, n) in enumerate(node.children.items())
                   if a in legal and n.visits]
        if not choices:
            break
        _, _, action = max(choices)
        moves.append(str(action))
        world.apply_unchecked(action)
        node = node.children[action]
    return moves


# --- a whole record --------------------------------------------------------------------
def decision_tasks(record: GameRecord, seats: Iterable[int] | None, seed: int) -> list[DecisionTask]:
    """The decisions of ``seats`` (all by default) in ``record``, each with its seat's view."""
    wanted = set(range(record.num_players) if seats is None else seats)
    bad = sorted(s for s in wanted if not 0 <= s < record.num_players)
    if bad:
        raise ReviewError(f"seat(s) {bad} not in a {record.num_players}-player game")
    tasks = []
    state = record.new_state()
    turn, last_seat = 0, None
    for index, text in enumerate(record.moves):
        seat = state.current_player
        if seat is None:
            raise ReviewError(f"move {index + 1} {text!r} comes after the end of the game")
        if seat != last_seat:
            turn, last_seat = turn + (last_seat is not None), seat
        if seat in wanted:
            tasks.append(DecisionTask(index, seat, turn, state.view(seat), text,
                                      derive_seed(seed, "review", index)))
        state = next_state(record, index, state)
    return tasks


def next_state(record: GameRecord, index: int, state: State) -> State:
    from ..core.errors import IllegalAction, NotationError, RecordError

    text = record.moves[index]
    try:
        state.apply(state.parse_action(text))
    except (NotationError, IllegalAction) as exc:
        raise RecordError(f"move {index + 1} {text!r} does not replay: {exc}") from exc
    return state


OnDone = Callable[[DecisionReview], None]


def run_tasks(tasks: Sequence[DecisionTask], budget: Budget, jobs: int = 1,
              ray_address: str | None = None, on_done: OnDone | None = None) -> list[DecisionReview]:
    """Analyse every task (in this process, a process pool, or Ray); results in order."""
    reviews = run_each(analyse_decision, [(task, budget) for task in tasks], jobs, ray_address, on_done)
    return sorted(reviews, key=lambda r: r.index)


def analyse_record(record: GameRecord, budget: Budget, seats: Iterable[int] | None = None,
                   seed: int = 0, jobs: int = 1, ray_address: str | None = None,
                   on_total: Callable[[int], None] | None = None,
                   on_done: OnDone | None = None) -> dict[str, Any]:
    """The whole review of ``record`` as JSON-ready data (format :data:`FORMAT`)."""
    if not record.moves:
        raise ReviewError("the record has no moves to analyse")
    start = time.perf_counter()
    tasks = decision_tasks(record, seats, seed)
    if on_total is not None:
        on_total(len(tasks))
    reviews = run_tasks(tasks, budget, jobs, ray_address, on_done)
    return assemble(record, reviews, budget, seed, seats, time.perf_counter() - start)


def assemble(record: GameRecord, reviews: Sequence[DecisionReview], budget: Budget, seed: int,
             seats: Iterable[int] | None, seconds: float) -> dict[str, Any]:
    """The review document from the per-decision reviews."""
    from ..core.registry import get_game

    info = get_game(record.game)
    decisions = [r.as_dict() for r in reviews]
    return {
        "format": FORMAT, "game": record.game, "num_players": record.num_players,
        "seed": seed, "budget": str(budget), "moves": len(record.moves),
        "seats": sorted(set(range(record.num_players) if seats is None else seats)),
        "names": [s.name for s in record.seats], "result": record.result,
        "score_scale": score_scale(info), "seconds": round(seconds, 3),
        "decisions": decisions, "turns": whole_turns(reviews),
        "players": player_summaries(reviews, record.num_players),
        "turning_points": turning_points(reviews),
    }


def whole_turns(reviews: Sequence[DecisionReview]) -> list[dict[str, Any]]:
    """Each turn (consecutive decisions of one seat) judged as a whole: the value of the
    best whole turn (the first searched decision's preferred line) against the value after
    the turn as played (the last searched decision's move played)."""
    turns: dict[int, list[DecisionReview]] = {}
    for review in reviews:
        turns.setdefault(review.turn, []).append(review)
    out = []
    for number, steps in sorted(turns.items()):
        searched = [s for s in steps if not s.forced and s.win_prob is not None]
        entry: dict[str, Any] = {"turn": number, "seat": steps[0].seat, "first": steps[0].index,
                                 "last": steps[-1].index, "played": [s.played for s in steps],
                                 "steps_loss": round(sum(s.loss for s in steps), 4)}
        if searched:
            first, last = searched[0], searched[-1]
            after = last.played_win_prob if last.played_win_prob is not None else last.win_prob
            entry.update(win_prob=first.win_prob, margin=first.margin, best_turn=first.best_turn,
                         played_win_prob=after,
                         played_margin=last.played_margin if last.played_margin is not None
                         else last.margin,
                         loss=round(max(0.0, (first.win_prob or 0.0) - (after or 0.0)), 4))
        else:
            entry.update(win_prob=None, margin=None, best_turn=[], played_win_prob=None,
                         played_margin=None, loss=0.0)
        entry["label"] = label(entry["loss"])
        out.append(entry)
    return out


def player_summaries(reviews: Sequence[DecisionReview], num_players: int) -> list[dict[str, Any]]:
    """Per seat: decisions searched, mean loss, counts by label, the five biggest losses."""
    out = []
    for seat in range(num_players):
        mine = [r for r in reviews if r.seat == seat and not r.forced]
        if not mine:
            continue
        worst = sorted((r for r in mine if r.loss > 0), key=lambda r: (-r.loss, r.index))[:5]
        out.append({
            "seat": seat, "decisions": len(mine),
            "mean_loss": round(sum(r.loss for r in mine) / len(mine), 4),
            "blunders": sum(label(r.loss) == "blunder" for r in mine),
            "mistakes": sum(label(r.loss) == "mistake" for r in mine),
            "inaccuracies": sum(label(r.loss) == "inaccuracy" for r in mine),
            "accuracy": round(100 * sum(r.loss < INACCURACY for r in mine) / len(mine), 1),
            "biggest_losses": [{"index": r.index, "move_number": r.index + 1, "played": r.played,
                                "best": r.best, "loss": r.loss, "label": label(r.loss)}
                               for r in worst],
            "win_prob": [[r.index, r.win_prob] for r in mine],
        })
    return out


def turning_points(reviews: Sequence[DecisionReview]) -> list[dict[str, Any]]:
    """The decisions that swung the game most: the largest losses (a blunder or mistake),
    and the largest changes in a seat's win probability between its consecutive decisions."""
    points: list[tuple[float, dict[str, Any]]] = []
    for r in reviews:
        if r.loss >= MISTAKE:
            points.append((r.loss, {"index": r.index, "seat": r.seat, "kind": "loss",
                                    "swing": -r.loss, "played": r.played, "best": r.best}))
    last: dict[int, DecisionReview] = {}
    for r in reviews:
        if r.forced or r.win_prob is None:
            continue
        before = last.get(r.seat)
        if before is not None and before.win_prob is not None:
            swing = r.win_prob - before.win_prob
            if abs(swing) >= BLUNDER:
                points.append((abs(swing), {"index": r.index, "seat": r.seat, "kind": "swing",
                                            "swing": round(swing, 4), "played": r.played,
                                            "best": r.best}))
        last[r.seat] = r
    points.sort(key=lambda p: (-p[0], p[1]["index"]))
    chosen, seen = [], set()
    for _, point in points:
        if point["index"] not in seen:
            seen.add(point["index"])
            chosen.append(point)
        if len(chosen) == TURNING_POINTS:
            break
    return sorted(chosen, key=lambda p: p["index"])


__all__ = ["FORMAT", "Budget", "DecisionReview", "DecisionTask", "ReviewError", "ReviewSearch",
           "analyse_decision", "analyse_record", "decision_tasks", "label",
           "run_tasks"]

"""The learned Tzolk'in estimate (issue 21, ``eval=learned``): v2 plus a fitted correction.

``estimate_scores_learned(state)`` is every seat's v2 estimate
(:func:`.heuristic.estimate_scores_v2`) plus a linear correction ``w . x`` of the seat's
features :func:`seat_features` (v2's parts, goods, workers, temple steps, technology
levels, buildings, and the same times the share of the game left; and the seat's workers
on each space of the four small gears, where v2 has one hand-set value per space), with
one weight vector per *era* (the Food Days already held, 0-3). The weights were fitted by ridge
regression on positions of self-play games, the target being the seat's final score
minus its v2 estimate (``benchmarks/train_eval.py``; the data, seed and fit are in
``docs/bots.md``). They ship in ``data/eval_learned.json``, read on first use (no
network, no NumPy); a file whose feature names differ from :data:`FEATURES` is refused
with :class:`LearnedWeightsError`.

Like v1 and v2 it reads only public information and returns the exact final scores once
the game is over. :func:`estimate_scores_reference` computes it by the definition above
(:func:`features_of`, what the fit reads); :func:`estimate_scores_learned`, what bots and
searches call at every leaf, gives the same numbers to rounding with the weights folded
once per moment of the game (:func:`folded`; about 4x faster).

A trees file (:class:`LearnedTrees`, ``data/eval_trees_*.json``, stop 41) adds to a linear
fit's estimate of each seat the sum of boosted regression trees on :data:`TREE_FEATURES`
(:func:`estimate_scores_trees`, which walks them as Python written once from the file,
:func:`tree_walker`; ``eval=learned6t``: the sixth fit plus trees fitted on the search's games
on it, ``benchmarks/train_trees.py``).
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from operator import mul
from typing import Any, Callable, NamedTuple

from . import heuristic as H
from .components import CHICHEN, DATA, GEARS, PALENQUE, THEOLOGY
from .rules import AT_BASE
from .scoring import monument_vp
from .model import (CHICHEN_AHEAD, CORN, FARM_DISC, FARM_FREE, FOOD_DAYS, GOLD, NFIELDS, ON_GEARS, OVER,
                    READY, SKULL, SPACES, STONE, TECH, TEMPLE, VP, WOOD, WORKERS)

WEIGHTS_FILE = Path(__file__).parent / "data" / "eval_learned.json"
# the first fit (stop 29: no per-space features, their weights 0), kept as the baseline
# ``eval=learned1`` as v1 and v2 are kept: the levels of before can still be played
FIRST_FIT_FILE = Path(__file__).parent / "data" / "eval_learned_1.json"
# the third fit (stop 32: three generations of self-play), ``eval=learned3``: ``medium``'s
# estimate in stop 32 (more points in self-play; the search stays on the second, ``learned``)
THIRD_FIT_FILE = Path(__file__).parent / "data" / "eval_learned_3.json"
# the fourth fit (stop 33: a fourth generation in which half the seats played without the guard
# rails, so that starving workers happens in the data), ``eval=learned4``: ``medium``'s estimate
FOURTH_FIT_FILE = Path(__file__).parent / "data" / "eval_learned_4.json"
# the fifth fit (stop 34: the first two generations and a fifth played by the search itself,
# ``mcts:700i`` on the second fit), ``eval=learned5``: no level's yet (docs/bots.md "Stop 34")
FIFTH_FIT_FILE = Path(__file__).parent / "data" / "eval_learned_5.json"
# the sixth fit (stop 35: a sixth generation played by the search on the fifth fit, the fifth
# generation and the second, greedy one; the first generation left out), ``eval=learned6``:
# ``hard``'s since stop 36, the strongest for the search (docs/bots.md "Stop 35", "Stop 36"),
# and the game review's since stop 37, its win chances sharpened (``REVIEW_CALIBRATION_FILE``)
SIXTH_FIT_FILE = Path(__file__).parent / "data" / "eval_learned_6.json"
# the seventh fit (stop 38: an eighth generation in which two thirds of the seats gain workers
# on Uxmal, a seventh played by the search on the sixth fit, the fifth and sixth, and the
# second, greedy one), ``eval=learned7``: no level's yet (docs/bots.md "Stop 38")
SEVENTH_FIT_FILE = Path(__file__).parent / "data" / "eval_learned_7.json"
# per estimate and number of players (and per Food Days held), the factor the game review
# sharpens the log-odds of its win chances by (fitted on reviewed games other than those
# bench_review measures; 2 players only: docs/bots.md "Stop 37")
REVIEW_CALIBRATION_FILE = Path(__file__).parent / "data" / "review_calibration.json"
ERAS = 4  # one weight vector per number of Food Days already held (0..3)

# v2's parts of a seat (heuristic.estimate_by_parts and v2_correction), in this order
PARTS = ("banked", "goods", "temples", "feeding", "gears", "time", "v2_correction")
# raw counts of a seat's board
COUNTS = ("vp", "corn", "wood", "stone", "gold", "skulls", "workers", "ready", "on_gears", "temple_steps",
          "agriculture", "extraction", "architecture", "theology", "buildings", "monuments", "farm_free",
          "farm_discount")
# the counts also taken times the share of the game left (what they are still worth in play)
IN_PLAY = ("corn", "wood", "stone", "gold", "skulls", "workers", "temple_steps", "agriculture", "extraction",
           "architecture", "theology", "buildings")
CONTEXT = ("bias", "share", "to_move", "picked", "days_to_food", "players_3", "players_4")
# the seat's workers on each space of the four small gears (rules 3-6), where v2 has one
# hand-set value per space (heuristic.PICK_VALUE, waiting_value): a fitted one beside it
SPACE_KEYS = tuple(AT_BASE[g] + pos for g in range(CHICHEN) for pos in range(SPACES[g]))
ON_SPACES = tuple(f"on_{GEARS[g]}_{pos}" for g in range(CHICHEN) for pos in range(SPACES[g]))
FEATURES: tuple[str, ...] = (CONTEXT + PARTS + tuple(f"{p}*share" for p in PARTS) + COUNTS
                             + tuple(f"{c}*share" for c in IN_PLAY) + ON_SPACES)
_IN_PLAY_AT = tuple(COUNTS.index(c) for c in IN_PLAY)


class LearnedWeightsError(ValueError):
    """The learned estimate's weights file is missing, malformed or for other features."""


@dataclass(frozen=True)
class LearnedWeights:
    """The fitted weights: one vector per era, aligned with :data:`FEATURES`; ``folds``
    remembers them folded by :func:`folded` (a cache, not part of the value)."""

    eras: tuple[tuple[float, ...], ...]
    meta: dict[str, Any]
    folds: dict[tuple[int, int, int], "Folded"] = field(default_factory=dict, compare=False, repr=False)


def load_weights(path: Path | str | None = None) -> LearnedWeights:
    """Read and check a weights file (default: the shipped ``data/eval_learned.json``)."""
    where = Path(path) if path is not None else WEIGHTS_FILE
    try:
        doc = json.loads(where.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise LearnedWeightsError(f"learned estimate: cannot read {where}: {e}") from None
    if not isinstance(doc, dict):
        raise LearnedWeightsError(f"learned estimate: {where} must hold a JSON object")
    names = doc.get("features")
    if names != list(FEATURES):
        missing = sorted(set(FEATURES) - set(names or []))
        extra = sorted(set(names or []) - set(FEATURES)) if isinstance(names, list) else names
        raise LearnedWeightsError(
            f"learned estimate: {where} was fitted for other features (missing {missing}, unknown {extra}); "
            "refit it with benchmarks/train_eval.py")
    eras = doc.get("eras")
    if not (isinstance(eras, list) and len(eras) == ERAS):
        raise LearnedWeightsError(f"learned estimate: {where}: 'eras' must list {ERAS} weight vectors")
    vectors = []
    for i, w in enumerate(eras):
        if not (isinstance(w, list) and len(w) == len(FEATURES)
                and all(_finite_number(x) for x in w)):
            raise LearnedWeightsError(
                f"learned estimate: {where}: era {i} must hold {len(FEATURES)} finite numbers")
        vectors.append(tuple(float(x) for x in w))
    meta = {k: v for k, v in doc.items() if k not in ("features", "eras")}
    return LearnedWeights(tuple(vectors), meta)


def load_review_calibration(path: Path | str | None = None) -> dict[tuple[str, int, int], float]:
    """Read and check a review calibration file (default: the shipped one): per estimate name
    and number of players, its ``sharpness``: one number for the whole game, or a list of
    :data:`ERAS`, one per Food Days held (:func:`era`); each finite, above 0, at most 10.
    Answers per (name, players, era)."""
    where = Path(path) if path is not None else REVIEW_CALIBRATION_FILE
    try:
        doc = json.loads(where.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise LearnedWeightsError(f"review calibration: cannot read {where}: {e}") from None
    found = doc.get("sharpness") if isinstance(doc, dict) else None
    if not isinstance(found, dict):
        raise LearnedWeightsError(f"review calibration: {where} must hold an object with 'sharpness'")
    sharpness = {}
    for name, by_players in found.items():
        if not isinstance(by_players, dict):
            raise LearnedWeightsError(
                f"review calibration: {where}: {name!r} must map numbers of players to a sharpness")
        for players, value in by_players.items():
            if players not in ("2", "3", "4"):
                raise LearnedWeightsError(
                    f"review calibration: {where}: {name!r}: {players!r} is no number of players (2-4)")
            values = value if isinstance(value, list) else [value] * ERAS
            if len(values) != ERAS or not all(_a_sharpness(v) for v in values):
                raise LearnedWeightsError(
                    f"review calibration: {where}: the sharpness of {name!r} at {players} players "
                    f"must be a number above 0, at most 10, or a list of {ERAS} (one per Food Days held)")
            for stage, k in enumerate(values):
                sharpness[(name, int(players), stage)] = float(k)
    return sharpness


def _finite_number(value: Any) -> bool:
    """A JSON number (not a boolean) that is finite: a weight or a factor a file may hold."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _a_sharpness(value: Any) -> bool:
    return _finite_number(value) and 0 < value <= 10


@functools.lru_cache(maxsize=1)
def shipped_review_calibration() -> dict[tuple[str, int, int], float]:
    """The shipped review calibration, read once."""
    return load_review_calibration()


def review_sharpness(estimate: str | None, players: int, stage: int) -> float:
    """The shipped sharpness of the game review's win chances on ``estimate`` with ``players``
    at ``stage`` (the Food Days held, :func:`era`); 1.0 where the file names none for them:
    the win chances are shown as searched."""
    return shipped_review_calibration().get((estimate or "", players, stage), 1.0)


_LOADED: dict[Path, LearnedWeights] = {}


def weights(path: Path = WEIGHTS_FILE) -> LearnedWeights:
    """The shipped weights (or another shipped file's), read once."""
    found = _LOADED.get(path)
    if found is None:
        found = _LOADED[path] = load_weights(path)
    return found


def seat_features(s: Any, seat: int, leaders: list[tuple[int, int]], left: int, share: float,
                  moving: Any) -> tuple[list[float], float]:
    """(the features of ``seat`` in :data:`FEATURES` order, its v2 estimate); ``leaders``,
    ``left``, ``share``: :func:`.heuristic.temple_leaders`, ``rounds_left``, ``share_left``;
    ``moving``: the worker the player to move has picked up (``picked_worker``)."""
    P = s.p[seat]
    picked = moving if seat == s.cur else None
    parts = [H.banked(s, seat), H.goods_outlook(s, seat, share), H.temple_outlook(s, seat, leaders),
             H.feeding_outlook(s, seat, share, picked), H.gear_outlook(s, seat, left, picked),
             H.time_outlook(s, seat, left), H.v2_correction(s, seat)]
    v2 = parts[0] + parts[1] + parts[2] + parts[3] + parts[4] + parts[5] + parts[6]
    food_done = s.food_done
    days = (FOOD_DAYS[food_done] - s.day) / 7.0 if food_done < 4 else 0.0
    n = s.num_players
    counts = [P[VP], P[CORN], P[WOOD], P[STONE], P[GOLD], P[SKULL], P[WORKERS], P[READY], P[ON_GEARS],
              P[TEMPLE] + P[TEMPLE + 1] + P[TEMPLE + 2] + 3, P[TECH], P[TECH + 1], P[TECH + 2], P[TECH + 3],
              len(s.built[seat]), len(s.monuments[seat]), P[FARM_FREE], P[FARM_DISC]]
    x = [1.0, share, 1.0 if seat == s.cur else 0.0, 1.0 if picked is not None else 0.0, days,
         1.0 if n == 3 else 0.0, 1.0 if n == 4 else 0.0]
    x += parts
    x += [p * share for p in parts]
    x += counts
    x += [counts[i] * share for i in _IN_PLAY_AT]
    on = [0.0] * len(ON_SPACES)
    for key in s.at[seat]:                          # a worker key plus the day: gear and space
        k = _SPACE_INDEX.get(key + s.day)
        if k is not None:
            on[k] += 1.0
    x += on
    return x, v2


def features_of(state: Any) -> tuple[list[list[float]], list[float]]:
    """Every seat's features and v2 estimate (the game not over)."""
    s = state
    leaders = H.temple_leaders(s)
    left = H.rounds_left(s)
    share = min(1.0, left / H.GAME_ROUNDS)
    moving = H.picked_worker(s, s.cur)
    rows, base = [], []
    for seat in range(s.num_players):
        x, v2 = seat_features(s, seat, leaders, left, share, moving)
        rows.append(x)
        base.append(v2)
    return rows, base


def era(state: Any) -> int:
    """Which weight vector applies: the Food Days already held (the last one counts as 3)."""
    return min(state.food_done, ERAS - 1)


def estimate_scores_reference(state: Any) -> list[float]:
    """:func:`estimate_scores_learned` by its definition: every seat's v2 estimate plus its
    era's weights dotted with its :func:`seat_features` (the reference the fast path is
    checked against)."""
    if state.phase == OVER:
        return state.scores()
    w = weights().eras[era(state)]
    rows, base = features_of(state)
    return [v + sum([a * b for a, b in zip(w, x)]) for x, v in zip(rows, base)]


def estimate_scores_learned(state: Any) -> list[float]:
    """Estimated final score of every seat: v2 plus the fitted correction (exact once the
    game is over). :func:`estimate_scores_reference`'s numbers (to rounding) with the
    weights folded once per moment of the game (:func:`folded`): a search calls this at
    every leaf."""
    return estimate_scores_with(state, WEIGHTS_FILE)


def estimate_scores_learned_first(state: Any) -> list[float]:
    """:func:`estimate_scores_learned` with the first fit's weights (``eval=learned1``: the
    ``medium`` and ``hard`` of stop 29, a baseline for the matches in docs/bots.md)."""
    return estimate_scores_with(state, FIRST_FIT_FILE)


def estimate_scores_learned_third(state: Any) -> list[float]:
    """:func:`estimate_scores_learned` with the third fit's weights (``eval=learned3``: the
    ``medium`` level's estimate in stop 32, docs/bots.md "Stop 32")."""
    return estimate_scores_with(state, THIRD_FIT_FILE)


def estimate_scores_learned_fourth(state: Any) -> list[float]:
    """:func:`estimate_scores_learned` with the fourth fit's weights (``eval=learned4``: the
    ``medium`` level's estimate since stop 33, docs/bots.md "Stop 33")."""
    return estimate_scores_with(state, FOURTH_FIT_FILE)


def estimate_scores_learned_fifth(state: Any) -> list[float]:
    """:func:`estimate_scores_learned` with the fifth fit's weights (``eval=learned5``: fitted
    on games of the search itself beside the second fit's data; docs/bots.md "Stop 34")."""
    return estimate_scores_with(state, FIFTH_FIT_FILE)


def estimate_scores_learned_sixth(state: Any) -> list[float]:
    """:func:`estimate_scores_learned` with the sixth fit's weights (``eval=learned6``: two
    generations of the search's games and one of the greedy bot's; docs/bots.md "Stop 35")."""
    return estimate_scores_with(state, SIXTH_FIT_FILE)


def estimate_scores_learned_seventh(state: Any) -> list[float]:
    """:func:`estimate_scores_learned` with the seventh fit's weights (``eval=learned7``: the
    search's games of four generations, one of them with seats that gain workers, and the
    greedy second generation; docs/bots.md "Stop 38")."""
    return estimate_scores_with(state, SEVENTH_FIT_FILE)


def estimate_scores_with(state: Any, path: Path) -> list[float]:
    """The learned estimate on the weights of ``path`` (a shipped file; read once)."""
    s = state
    if s.phase == OVER:
        return s.scores()
    return _estimate(s, folded(weights(path), s.food_done, s.day, s.num_players))


# --- the fast path: the weights folded into the parts --------------------------------------
# ``v2 + w . x`` is linear in most of what it reads. Within one call the context features
# (share of the game left, days to the Food Day, players) are the same for every seat, so
# each of v2's parts p weighs ``1 + w[p] + w[p*share] * share`` (the 1: v2 itself) and each
# count c ``w[c] + w[c*share] * share``; and what is linear in the player's board (the
# counts, banked VP and goods, the goods' premium, the ready workers, the workers' and
# technologies' time value, v2's linear terms) folds into one coefficient per field of the
# board. What is left per seat is one dot product with the board plus the parts that are
# not linear (monuments, temples, feeding, workers on the gears, the skulls' time value,
# v2's hunger). The folding depends only on the era's weights, the Food Days held, the day
# and the players: :func:`folded` works it out once and remembers it.

_PART_AT = {p: len(CONTEXT) + k for k, p in enumerate(PARTS)}     # FEATURES' index of each part
_COUNT_AT = {c: len(CONTEXT) + 2 * len(PARTS) + k for k, c in enumerate(COUNTS)}
_IN_PLAY_SHARE_AT = {c: len(CONTEXT) + 2 * len(PARTS) + len(COUNTS) + k for k, c in enumerate(IN_PLAY)}
_SPACE_INDEX = {key: k for k, key in enumerate(SPACE_KEYS)}   # ON_SPACES' index by worker key plus day
_SPACE_AT = len(FEATURES) - len(ON_SPACES)                     # FEATURES' index of the first space
# the counts that are one field of the player's board
_COUNT_FIELD = {"vp": VP, "corn": CORN, "wood": WOOD, "stone": STONE, "gold": GOLD, "skulls": SKULL,
                "workers": WORKERS, "ready": READY, "on_gears": ON_GEARS, "agriculture": TECH,
                "extraction": TECH + 1, "architecture": TECH + 2, "theology": TECH + 3,
                "farm_free": FARM_FREE, "farm_discount": FARM_DISC}
# a worker key (rules.worker_keys) plus the day: AT_BASE[gear] + space
CHICHEN_AT = AT_BASE[CHICHEN]                      # at or above: on Chichen Itza (the last gear)
PALENQUE_END = AT_BASE[PALENQUE] + SPACES[PALENQUE]
CHICHEN_LAST = SPACES[CHICHEN] - 1
PALENQUE_CORN_AT = tuple(H.PALENQUE_CORN[at - AT_BASE[PALENQUE]] if at >= AT_BASE[PALENQUE] else 0
                         for at in range(PALENQUE_END))   # corn_on_the_way's corn by key plus the day
CORN_PER_WORKER = DATA.corn_per_worker
CORN_PER_VP = DATA.corn_per_vp
UNFED_VP = DATA.unfed_vp
SKULL_GAIN = H.SKULL_GAIN


class Folded(NamedTuple):
    """One era's weights folded for one moment of the game (Food Days held, day, players),
    with heuristic.V2's settings (constants) and the parts' prices."""

    constant: float                # the context features and the folded parts' constant terms
    board: tuple[float, ...]       # the coefficient of each field of a player's board (model.NFIELDS)
    buildings: float               # of the buildings built
    monuments: float               # of the monuments built
    to_move: float                 # added to the seat to move
    picked: float                  # added to the seat to move holding a picked-up worker
    banked: float                  # of the monuments' VP (what banked adds to the board's fields)
    temples: float                 # of temple_outlook
    feeding: float                 # of feeding_outlook
    gears: float                   # of gear_outlook's Chichen Itza and picked-up worker
    time: float                    # of time_outlook's skulls
    correction: float              # of v2_correction's hunger
    left: int                      # heuristic.rounds_left
    share: float                   # heuristic.share_left
    waiting: tuple[float, ...]     # by worker key plus the day (below Chichen Itza): heuristic.waiting_value
    #                                times the gears' weight, plus the space's own weight (ON_SPACES)


def folded(learned: LearnedWeights, food_done: int, day: int, players: int) -> Folded:
    """``learned``'s weights folded for this moment of the game (remembered)."""
    key = (food_done, day, players)
    found = learned.folds.get(key)
    if found is None:
        found = learned.folds[key] = _fold(learned.eras[min(food_done, ERAS - 1)], food_done, day, players)
    return found


def _fold(w: tuple[float, ...], food_done: int, day: int, players: int) -> Folded:
    """The weights ``w`` folded (the comment above :class:`Folded`)."""
    left = max(0, H.LAST_DAY - day)                  # heuristic.rounds_left
    share = min(1.0, left / H.GAME_ROUNDS)
    part = {p: 1.0 + w[_PART_AT[p]] + w[_PART_AT[p] + len(PARTS)] * share for p in PARTS}
    count = {c: w[_COUNT_AT[c]] + (w[_IN_PLAY_SHARE_AT[c]] * share if c in IN_PLAY else 0.0) for c in COUNTS}
    days = (FOOD_DAYS[food_done] - day) / 7.0 if food_done < 4 else 0.0
    constant = (w[0] + w[1] * share + w[4] * days + (w[5] if players == 3 else 0.0)
                + (w[6] if players == 4 else 0.0))
    board = [0.0] * NFIELDS
    for c, f in _COUNT_FIELD.items():
        board[f] += count[c]
    for t in range(3):                               # temple_steps: the three steps plus 3
        board[TEMPLE + t] += count["temple_steps"]
    constant += 3 * count["temple_steps"]
    # banked: VP, goods at their final value (corn and blocks at the market rate), skulls
    banked = part["banked"]
    per_vp = DATA.corn_per_vp
    board[VP] += banked
    board[CORN] += banked / per_vp
    for r, rate in enumerate(DATA.market):
        board[WOOD + r] += banked * rate / per_vp
    board[SKULL] += banked * DATA.skull_vp
    # goods_outlook: the premium of goods held, times the share of the game left
    for g, premium in enumerate(H.GOODS_PREMIUM):
        board[CORN + g] += part["goods"] * share * premium
    board[READY] += part["gears"] * H.READY_VP      # gear_outlook: the ready workers
    # time_outlook: workers and technologies over the rounds left (the skulls stay per seat)
    board[WORKERS] += part["time"] * left * H.WORKER_VP_PER_ROUND
    for t in range(4):
        board[TECH + t] += part["time"] * left * H.TECH_VP_PER_ROUND
    # v2_correction's linear terms (zero with the shipped V2, kept general)
    v2, correction = H.V2, part["v2_correction"]
    board[WORKERS] += correction * left * (v2["worker_round"] - H.WORKER_VP_PER_ROUND)
    for t in range(3):
        board[TEMPLE + t] += correction * share * v2["temple_step"]
    constant += correction * share * v2["temple_step"] * 3
    for t in range(4):
        board[TECH + t] += correction * share * v2["tech_level"]
    built = correction * share * v2["building"]
    waiting = [0.0] * CHICHEN_AT
    for g in range(CHICHEN):
        for pos in range(SPACES[g]):
            at = AT_BASE[g] + pos
            waiting[at] = part["gears"] * H.waiting_value(g, pos, left) + w[_SPACE_AT + _SPACE_INDEX[at]]
    return Folded(constant, tuple(board), count["buildings"] + built, count["monuments"] + built,
                  w[2], w[3], banked, part["temples"], part["feeding"], part["gears"], part["time"],
                  correction, left, share, tuple(waiting))


def _estimate(s: Any, fold: Folded) -> list[float]:
    """Every seat's learned estimate from the folded weights (the game not over)."""
    (constant, board, w_buildings, w_monuments, w_to_move, w_picked, w_banked, w_temples, w_feeding,
     w_gears, w_time, w_correction, left, share, waiting) = fold
    leaders = _temple_leaders(s.p)
    context = (s.food_done, *leaders)
    temples = _TEMPLES.get(context)                 # temple_outlook by steps in this context
    if temples is None:
        temples = _TEMPLES[context] = {}
    mover = s.cur
    moving = H.picked_worker(s, mover)
    day = s.day
    days = 4 - s.food_done                           # Food Days still to come
    weight = H.hunger_weight(FOOD_DAYS[s.food_done] - day) if days else 0.0
    corn_vp = 1 / CORN_PER_VP + H.GOODS_PREMIUM[0] * share   # feeding_outlook's corn
    skull_rounds = left // 2
    out = []
    for seat in range(s.num_players):
        P = s.p[seat]
        picked = moving if seat == mover else None
        total = constant + sum(map(mul, board, P)) + w_buildings * len(s.built[seat])
        monuments = s.monuments[seat]
        if monuments:
            total += w_monuments * len(monuments) + w_banked * sum([monument_vp(s, seat, m) for m in monuments])
        steps = (P[TEMPLE], P[TEMPLE + 1], P[TEMPLE + 2])
        temple = temples.get(steps)
        if temple is None:   # a pure function of the steps and the context: remembered
            temple = temples[steps] = H.temple_outlook(s, seat, leaders)
        total += w_temples * temple
        on_gears, gears, corn_coming = _workers_out(s, seat, P, picked, left, waiting, day)
        total += on_gears + w_gears * gears
        if P[SKULL] and skull_rounds:               # time_outlook: skulls still to reach Chichen Itza
            total += w_time * (SKULL_GAIN * min(P[SKULL], skull_rounds))
        need = max(0, P[WORKERS] - P[FARM_FREE])    # scoring.feeding_cost
        each = max(0, CORN_PER_WORKER - P[FARM_DISC])
        total += w_feeding * (-(days * need * each) * corn_vp)
        if days and each and need:
            penalty, hunger = _hunger(need, each, P[CORN] + corn_coming, days, weight)
            total += w_feeding * penalty + w_correction * hunger
        if seat == mover:
            total += w_to_move + (w_picked if picked is not None else 0.0)
        out.append(total)
    return out


# temple_outlook remembered by its context (Food Days held, leaders), then the seat's steps: the
# keys of heuristic.temple_outlook's own memory (a few hundred values at most)
_TEMPLES: dict[tuple[Any, ...], dict[tuple[int, int, int], float]] = {}


def _temple_leaders(players: list[list[int]]) -> list[tuple[int, int]]:
    """heuristic.temple_leaders: (highest step, players on it) of each temple, in one pass."""
    out = []
    for t in range(TEMPLE, TEMPLE + 3):
        best, count = -2, 0                          # below the bottom step (-1)
        for P in players:
            step = P[t]
            if step > best:
                best, count = step, 1
            elif step == best:
                count += 1
        out.append((best, count))
    return out


def _workers_out(s: Any, seat: int, P: list[int], picked: Any, left: int, waiting: tuple[float, ...],
                 day: int) -> tuple[float, float, int]:
    """(the workers on the small gears' folded values, the rest of heuristic.gear_outlook less
    the ready workers, heuristic.corn_on_the_way), read from the seat's worker keys
    (``state.at``: gear by gear, lowest space first, the order in which gear_outlook scans
    the gears) instead of the gears."""
    on_gears = 0.0
    total = 0.0
    corn = 0
    chichen: list[int] = []
    ahead = CHICHEN_AHEAD[P[TECH + THEOLOGY]]        # Theology 1: one Chichen space ahead
    for key in s.at[seat]:
        at = key + day
        if at < CHICHEN_AT:
            on_gears += waiting[at]
            if at < PALENQUE_END:                   # rules 3: Palenque's corn, when picked up
                corn += PALENQUE_CORN_AT[at]
        else:
            chichen.append(at - CHICHEN_AT)
    if chichen and P[SKULL]:   # each skull needs a worker on Chichen Itza: the best ones count
        values = sorted([H.waiting_value(CHICHEN, min(pos + ahead, CHICHEN_LAST), left) for pos in chichen],
                        reverse=True)
        total += sum(values[:P[SKULL]])
    if picked is not None:     # about to act: worth its action now
        g, pos = picked
        if g == PALENQUE:
            corn += H.PALENQUE_CORN[pos]
        elif g == CHICHEN:
            pos = min(pos + ahead, CHICHEN_LAST) if P[SKULL] else 0
        total += H.PICK_VALUE[g][pos]
    return on_gears, total, corn


def _hunger(need: int, each: int, have: int, days: int, weight: float) -> tuple[float, float]:
    """(feeding_outlook's penalty, v2_correction's hunger terms) of a seat that must feed
    ``need`` workers ``each`` corn at each Food Day still to come (``days``) and holds or
    has on its way ``have`` corn (rules 8); ``weight``: heuristic.hunger_weight of the next."""
    per_worker = -UNFED_VP + each / CORN_PER_VP      # VP a worker the corn cannot feed costs
    short = need * each - have
    unfed = -(-short // each) if short > 0 else 0
    # feeding_outlook: the next Food Day's unfed workers, weighted by how close it is
    penalty = weight * unfed * (UNFED_VP - each / CORN_PER_VP) if unfed else 0.0
    # v2: the next Food Day's at full weight and beyond 3 VP, and the Food Day after's
    w = H.V2
    hunger = -(unfed * (per_worker * (max(weight, w["hunger_far"]) - weight) + w["unfed_extra"]))
    if days > 1:  # the Food Day after: corn for both, what the first leaves unfed excepted
        short2 = 2 * need * each - have
        unfed2 = (-(-short2 // each) if short2 > 0 else 0) - unfed
        hunger -= unfed2 * (per_worker + w["unfed_extra"]) * w["hunger_next"]
    return penalty, hunger


# --- boosted trees on top of a linear fit (stop 41) ----------------------------------------
# The linear fit is one weight per feature and era; what it cannot say is how features act
# together (corn against the workers to feed, a lead against the share of the game left). A
# trees file adds to a linear fit's estimate of each seat the sum of small regression trees
# (gradient boosting, fitted on what the linear fit misses of each seat's final score against
# the table's mean: ``benchmarks/train_eval.py --trees``). The trees read the seat's raw board
# (:data:`COUNTS`), its workers on each space, the moment of the game, its corn short of the
# next Food Day, and its lead by the linear estimate: numbers the estimate has at hand, so a
# leaf costs a few comparisons per tree.

# the trees' features: the context (less the constant), the raw counts, the workers on each
# space, the era, the corn the seat lacks for its next Food Day (rules 8: 2 corn a worker, a
# farm's discount and free workers counted, corn on its way not), and its lead: its linear
# estimate less the table's mean
TREE_FEATURES: tuple[str, ...] = CONTEXT[1:] + COUNTS + ON_SPACES + ("era", "corn_short", "lead")
TREES_FORMAT = "mayagames-trees/1"
MAX_TREE_DEPTH = 8
# trees on the sixth fit (stop 41: the seventh generation, the search on the sixth fit),
# ``eval=learned6t``: no level's yet (docs/bots.md "Stop 41")
SIXTH_TREES_FILE = Path(__file__).parent / "data" / "eval_trees_6.json"
_COUNT_INDEX = {c: k for k, c in enumerate(COUNTS)}


@dataclass(frozen=True)
class LearnedTrees:
    """Boosted regression trees of one depth, flattened: tree ``k``'s inner node ``n`` (heap
    order: the children of ``n`` are ``2n+1`` and ``2n+2``) splits on ``features[k*I + n]``
    (an index into :data:`TREE_FEATURES`; -1: no split, go left) at ``thresholds[k*I + n]``
    (at or above: right), where ``I = 2**depth - 1``; its leaf ``m`` holds ``leaves[k*(I+1) +
    m]``. ``base`` names the linear fit they correct (a file in ``data/``)."""

    base: str
    depth: int
    features: tuple[int, ...]
    thresholds: tuple[float, ...]
    leaves: tuple[float, ...]
    meta: dict[str, Any]

    @property
    def count(self) -> int:
        return len(self.leaves) >> self.depth


def load_trees(path: Path | str) -> LearnedTrees:
    """Read and check a trees file (:data:`TREES_FORMAT`): its features are
    :data:`TREE_FEATURES`, its linear fit a weights file beside it, every split a known
    feature or none, every number finite."""
    where = Path(path)
    try:
        doc = json.loads(where.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise LearnedWeightsError(f"learned trees: cannot read {where}: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != TREES_FORMAT:
        raise LearnedWeightsError(f"learned trees: {where} must hold an object of format {TREES_FORMAT!r}")
    if doc.get("features") != list(TREE_FEATURES):
        raise LearnedWeightsError(f"learned trees: {where} was fitted for other features; "
                                  "refit it with benchmarks/train_eval.py --trees")
    base = doc.get("base")
    if not (isinstance(base, str) and base.startswith("eval_learned") and base.endswith(".json")
            and "/" not in base and (where.parent / base).is_file()):
        raise LearnedWeightsError(f"learned trees: {where}: 'base' must name a weights file beside it")
    depth = doc.get("depth")
    if not (isinstance(depth, int) and not isinstance(depth, bool) and 1 <= depth <= MAX_TREE_DEPTH):
        raise LearnedWeightsError(f"learned trees: {where}: 'depth' must be a whole number, 1 to {MAX_TREE_DEPTH}")
    trees = doc.get("trees")
    if not isinstance(trees, list):
        raise LearnedWeightsError(f"learned trees: {where}: 'trees' must be a list")
    inner, width = (1 << depth) - 1, 1 << depth
    features: list[int] = []
    thresholds: list[float] = []
    leaves: list[float] = []
    for k, tree in enumerate(trees):
        f, t, v = (tree.get(key) if isinstance(tree, dict) else None for key in ("features", "thresholds", "leaves"))
        if not (isinstance(f, list) and len(f) == inner
                and all(isinstance(i, int) and not isinstance(i, bool) and -1 <= i < len(TREE_FEATURES) for i in f)
                and isinstance(t, list) and len(t) == inner and all(_finite_number(x) for x in t)
                and isinstance(v, list) and len(v) == width and all(_finite_number(x) for x in v)):
            raise LearnedWeightsError(
                f"learned trees: {where}: tree {k} must hold {inner} features (indices of TREE_FEATURES "
                f"or -1), {inner} finite thresholds and {width} finite leaves")
        features += f
        thresholds += [float(x) for x in t]
        leaves += [float(x) for x in v]
    meta = {k: v for k, v in doc.items() if k not in ("features", "trees")}
    return LearnedTrees(base, depth, tuple(features), tuple(thresholds), tuple(leaves), meta)


_TREES: dict[Path, LearnedTrees] = {}


def trees(path: Path = SIXTH_TREES_FILE) -> LearnedTrees:
    """A shipped trees file, read once."""
    found = _TREES.get(path)
    if found is None:
        found = _TREES[path] = load_trees(path)
    return found


def tree_features(s: Any, seat: int, lead: float) -> list[float]:
    """``seat``'s :data:`TREE_FEATURES` (``lead``: its linear estimate less the table's mean)."""
    P = s.p[seat]
    food_done = s.food_done
    left = H.rounds_left(s)
    n = s.num_players
    moving = H.picked_worker(s, s.cur) if seat == s.cur else None
    x = [min(1.0, left / H.GAME_ROUNDS), 1.0 if seat == s.cur else 0.0, 1.0 if moving is not None else 0.0,
         (FOOD_DAYS[food_done] - s.day) / 7.0 if food_done < 4 else 0.0,
         1.0 if n == 3 else 0.0, 1.0 if n == 4 else 0.0,
         P[VP], P[CORN], P[WOOD], P[STONE], P[GOLD], P[SKULL], P[WORKERS], P[READY], P[ON_GEARS],
         P[TEMPLE] + P[TEMPLE + 1] + P[TEMPLE + 2] + 3, P[TECH], P[TECH + 1], P[TECH + 2], P[TECH + 3],
         len(s.built[seat]), len(s.monuments[seat]), P[FARM_FREE], P[FARM_DISC]]
    on = [0.0] * len(ON_SPACES)
    for key in s.at[seat]:
        k = _SPACE_INDEX.get(key + s.day)
        if k is not None:
            on[k] += 1.0
    x += on
    x += [float(min(food_done, ERAS - 1)), corn_short(P[WORKERS], P[FARM_FREE], P[FARM_DISC], P[CORN]), lead]
    return x


def corn_short(workers: float, farm_free: float, farm_discount: float, corn: float) -> float:
    """The corn a seat lacks to feed its workers at a Food Day (rules 8: 2 corn a worker, less
    a farm's discount each, the workers a farm feeds free), from what it holds now."""
    need = max(0.0, workers - farm_free) * max(0.0, CORN_PER_WORKER - farm_discount)
    return max(0.0, need - corn)


def trees_value(t: LearnedTrees, x: list[float]) -> float:
    """The sum of ``t``'s trees at the features ``x``."""
    depth = t.depth
    inner = (1 << depth) - 1
    features, thresholds, leaves = t.features, t.thresholds, t.leaves
    total = 0.0
    for k in range(len(leaves) >> depth):
        at = k * inner
        node = 0
        for _ in range(depth):
            f = features[at + node]
            node = 2 * node + (2 if f >= 0 and x[f] >= thresholds[at + node] else 1)
        total += leaves[k * (inner + 1) + node - inner]
    return total


def tree_source(t: LearnedTrees) -> str:
    """Python source of one function ``walk(x)`` that returns :func:`trees_value` ``(t, x)``:
    each tree as nested conditional expressions on the features (a node that does not split
    goes left), so that a walk is a handful of comparisons instead of index arithmetic. Only
    whole numbers and finite floats, checked by :func:`load_trees`, are written into it."""
    depth = t.depth
    inner = (1 << depth) - 1

    def node(k: int, n: int) -> str:
        if n >= inner:                                  # a leaf
            return repr(t.leaves[k * (inner + 1) + n - inner])
        f = t.features[k * inner + n]
        if f < 0:
            return node(k, 2 * n + 1)
        return (f"({node(k, 2 * n + 2)} if x[{int(f)}] >= {float(t.thresholds[k * inner + n])!r} "
                f"else {node(k, 2 * n + 1)})")

    # one statement a tree (no expression nested deeper than the trees' depth), summed in
    # :func:`trees_value`'s order, so that the floats are the same to the last bit
    body = "".join(f"    total += {node(k, 0)}\n" for k in range(t.count))
    return "def walk(x):\n    total = 0.0\n" + body + "    return total\n"


def tree_walker(t: LearnedTrees) -> Callable[[list[float]], float]:
    """``t``'s trees as one function of the features (:func:`tree_source`): the same values
    as :func:`trees_value`, several times faster."""
    scope: dict[str, Any] = {}
    exec(compile(tree_source(t), f"<trees {t.meta.get('name', '')}>", "exec"), scope)
    walk: Callable[[list[float]], float] = scope["walk"]
    return walk


# a trees file's base weights file and walker, worked out once: one lookup per estimate
_TREE_ESTIMATES: dict[Path, tuple[Path, Callable[[list[float]], float]]] = {}


def estimate_scores_trees(state: Any, path: Path) -> list[float]:
    """The linear estimate of the trees file's base plus every seat's trees (exact once the
    game is over)."""
    s = state
    if s.phase == OVER:
        return s.scores()
    found = _TREE_ESTIMATES.get(path)
    if found is None:
        t = trees(path)
        found = _TREE_ESTIMATES[path] = (path.parent / t.base, tree_walker(t))
    base, walk = found
    linear = estimate_scores_with(s, base)
    mean = sum(linear) / len(linear)
    return [v + walk(tree_features(s, seat, v - mean)) for seat, v in enumerate(linear)]


def estimate_scores_learned_sixth_trees(state: Any) -> list[float]:
    """The sixth fit plus boosted trees fitted on the search's games on it (``eval=learned6t``;
    docs/bots.md "Stop 41")."""
    return estimate_scores_trees(state, SIXTH_TREES_FILE)

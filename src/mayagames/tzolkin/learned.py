"""The learned Tzolk'in estimate (issue 21, ``eval=learned``): v2 plus a fitted correction.

``estimate_scores_learned(state)`` is every seat's v2 estimate
(:func:`.heuristic.estimate_scores_v2`) plus a linear correction ``w . x`` of the seat's
features :func:`seat_features` (v2's parts, goods, workers, temple steps, technology
levels, buildings, and the same times the share of the game left), with one weight
vector per *era* (the Food Days already held, 0-3). The weights were fitted by ridge
regression on positions of self-play games, the target being the seat's final score
minus its v2 estimate (``benchmarks/train_eval.py``; the data, seed and fit are in
``docs/bots.md``). They ship in ``data/eval_learned.json``, read on first use (no
network, no NumPy); a file whose feature names differ from :data:`FEATURES` is refused
with :class:`LearnedWeightsError`.

Like v1 and v2 it reads only public information and returns the exact final scores once
the game is over.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import heuristic as H
from .model import (CORN, FARM_DISC, FARM_FREE, FOOD_DAYS, GOLD, ON_GEARS, OVER, READY, SKULL, STONE, TECH,
                    TEMPLE, VP, WOOD, WORKERS)

WEIGHTS_FILE = Path(__file__).parent / "data" / "eval_learned.json"
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
FEATURES: tuple[str, ...] = (CONTEXT + PARTS + tuple(f"{p}*share" for p in PARTS) + COUNTS
                             + tuple(f"{c}*share" for c in IN_PLAY))
_IN_PLAY_AT = tuple(COUNTS.index(c) for c in IN_PLAY)


class LearnedWeightsError(ValueError):
    """The learned estimate's weights file is missing, malformed or for other features."""


@dataclass(frozen=True)
class LearnedWeights:
    """The fitted weights: one vector per era, aligned with :data:`FEATURES`."""

    eras: tuple[tuple[float, ...], ...]
    meta: dict[str, Any]


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
                and all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in w)):
            raise LearnedWeightsError(
                f"learned estimate: {where}: era {i} must hold {len(FEATURES)} finite numbers")
        vectors.append(tuple(float(x) for x in w))
    meta = {k: v for k, v in doc.items() if k not in ("features", "eras")}
    return LearnedWeights(tuple(vectors), meta)


_LOADED: list[LearnedWeights] = []


def weights() -> LearnedWeights:
    """The shipped weights, read once."""
    if not _LOADED:
        _LOADED.append(load_weights())
    return _LOADED[0]


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


def estimate_scores_learned(state: Any) -> list[float]:
    """Estimated final score of every seat: v2 plus the fitted correction (exact once the
    game is over)."""
    if state.phase == OVER:
        return state.scores()
    w = weights().eras[era(state)]
    rows, base = features_of(state)
    return [v + sum([a * b for a, b in zip(w, x)]) for x, v in zip(rows, base)]

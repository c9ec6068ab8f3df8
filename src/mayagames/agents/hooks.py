"""The two per-game hooks the bots and the balance reports use, found by name.

Plugging a game in is only data: a game provides ``mayagames/<game>/heuristic.py``
with

* ``estimate_scores(state) -> list[float]``: an estimate of every seat's *final*
  score, from a full state or a view (it must not need hidden information), and
  optionally ``SCORE_SCALE``: a typical score difference that decides a game
  (the temperature MCTS uses to turn estimates into win chances);

and ``GameInfo.extra["seat_features"]``, a function ``(final_state) ->
list[dict[str, str | list[str]]]`` with categorical features of every seat (Tikal:
director power; Tzolk'in: starting tiles, a list) for the balance report. ``GameInfo.extra`` may
also carry ``estimate_scores`` and ``score_scale`` directly.

Test games keep their hooks outside the core (:data:`TEST_GAME_HOOKS`). A game
with no estimate falls back to its running :meth:`State.scores`.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, Callable

from ..core.game import GameInfo, State

Estimator = Callable[[State], list[float]]
FeatureFn = Callable[[State], list[dict[str, Any]]]  # values: str or list[str]

# Games whose hooks live outside ``mayagames.<game>.heuristic`` (test games).
TEST_GAME_HOOKS = {"toy": "mayagames.agents.toy_heuristic"}
DEFAULT_SCORE_SCALE = 5.0

_MODULES: dict[str, ModuleType | None] = {}


def hooks_module(info: GameInfo) -> ModuleType | None:
    """The game's ``heuristic`` module, or None if the game has none."""
    if info.name not in _MODULES:
        name = TEST_GAME_HOOKS.get(info.name, f"mayagames.{info.name}.heuristic")
        try:
            _MODULES[info.name] = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if not (exc.name and name.startswith(exc.name)):
                raise  # the module exists but one of its imports is broken
            _MODULES[info.name] = None
    return _MODULES[info.name]


def running_scores(state: State) -> list[float]:
    """Fallback estimate for a game without a heuristic: its running scores."""
    return [float(s) for s in state.scores()]


def estimator(info: GameInfo) -> Estimator:
    """The game's ``estimate_scores`` (or the running scores as a fallback)."""
    found = info.extra.get("estimate_scores")
    if found is None:
        module = hooks_module(info)
        found = getattr(module, "estimate_scores", None) if module else None
    return found or running_scores


def sensible_filter(info: GameInfo) -> Callable[[State, Any], list[Any]] | None:
    """The game's ``GameInfo.extra["sensible_actions"]``, ``(view, legal) -> subset``: the
    moves a careful beginner would consider (the ``easy`` level's guard rails), or None."""
    return info.extra.get("sensible_actions")


def has_estimator(info: GameInfo) -> bool:
    return estimator(info) is not running_scores


def score_scale(info: GameInfo) -> float:
    """A typical decisive score difference of the game (temperature for win chances)."""
    found = info.extra.get("score_scale")
    if found is None:
        module = hooks_module(info)
        found = getattr(module, "SCORE_SCALE", None) if module else None
    return float(found or DEFAULT_SCORE_SCALE)


def greedy_depth(info: GameInfo) -> int:
    """How many of its own consecutive decisions the heuristic bot looks through (the
    game's ``GREEDY_DEPTH``; 1: plain one-ply greedy)."""
    found = info.extra.get("greedy_depth")
    if found is None:
        module = hooks_module(info)
        found = getattr(module, "GREEDY_DEPTH", None) if module else None
    return int(found or 1)


def public_estimate(info: GameInfo) -> bool:
    """Whether the game's estimate reads only what every seat sees (its module's
    ``PUBLIC_ESTIMATE``): then a full state gives the same estimate as any seat's view of
    it, and a bot may skip building the view before estimating (the heuristic bot's hot
    path). False unless the game says so."""
    found = info.extra.get("public_estimate")
    if found is None:
        module = hooks_module(info)
        found = getattr(module, "PUBLIC_ESTIMATE", False) if module else False
    return bool(found)


def chance_is_revealed(info: GameInfo) -> bool:
    """Whether every action whose result depends on hidden parts or chance says so in
    ``State.reveals_information`` (the module's ``CHANCE_IS_REVEALED``): then an action
    that reveals nothing leads to the same public position in every determinization of a
    view, and a bot with a public estimate may value it once instead of once per sampled
    world. False unless the game says so."""
    found = info.extra.get("chance_is_revealed")
    if found is None:
        module = hooks_module(info)
        found = getattr(module, "CHANCE_IS_REVEALED", False) if module else False
    return bool(found)


def seat_features(info: GameInfo) -> FeatureFn | None:
    """The game's per-seat categorical features for balance reports, if any."""
    found = info.extra.get("seat_features")
    if found is None:
        module = hooks_module(info)
        found = getattr(module, "seat_features", None) if module else None
    return found

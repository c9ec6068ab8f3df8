"""What the bots and the balance reports take from a game: its plug-in's parts.

A game provides them through typed fields of its
:class:`~mayagames.core.game.GamePlugin` (``GameInfo.plugin``):

* ``estimate_scores(state) -> list[float]``: an estimate of every seat's *final*
  score, from a full state or a view (it must not need hidden information);
* ``score_scale``: a typical score difference that decides a game (the temperature
  MCTS uses to turn estimates into win chances);
* ``greedy_depth``: own consecutive decisions the heuristic bot looks through;
* ``public_estimate``: the estimate reads only public information;
* ``seat_features(final_state) -> list[dict[str, str | list[str]]]``: categorical
  features of every seat (Tikal: director power; Tzolk'in: starting tiles, a list)
  for the balance report.

A game with no estimate falls back to its running :meth:`State.scores`. This module
imports no game: it reads the registry's ``GameInfo``.
"""

from __future__ import annotations

from typing import Any, Callable

from ..core.game import GameInfo, State, resolve

Estimator = Callable[[State], list[float]]
FeatureFn = Callable[[State], list[dict[str, Any]]]  # values: str or list[str]

DEFAULT_SCORE_SCALE = 5.0


def running_scores(state: State) -> list[float]:
    """Fallback estimate for a game without a heuristic: its running scores."""
    return [float(s) for s in state.scores()]


def estimator(info: GameInfo, variant: str | None = None) -> Estimator:
    """The game's ``estimate_scores`` (or the running scores as a fallback); with
    ``variant``, the estimate of that name in ``plugin.estimate_variants`` (Tzolk'in: ``v1``,
    its default, ``v2`` and ``learned``). A game that names no estimate has one, used for
    every name (so a level such as ``medium`` = ``heuristic:...,eval=learned`` plays every game); a game
    that names some refuses another name (``ValueError`` naming the known ones)."""
    variants = info.plugin.estimate_variants
    if variant and variants:
        if variant not in variants:
            raise ValueError(f"{info.name} has no estimate {variant!r}; known: {sorted(variants) or 'none'}")
        return resolve(variants[variant])
    return info.plugin.part("estimate_scores") or running_scores


def review_stage(info: GameInfo, view: State) -> int:
    """The stage of the game ``view`` is at, as the review's calibration counts them
    (``plugin.review_stage``; 0 where the game has none)."""
    stage = info.plugin.part("review_stage")
    return 0 if stage is None else int(stage(view))


def review_sharpness(info: GameInfo, variant: str | None, view: State) -> float:
    """The factor the game review sharpens the log-odds of its win chances by when it
    searches on the estimate ``variant`` at ``view`` (its number of players and
    :func:`review_stage`; ``plugin.review_sharpness``, 1.0 where the game has none): see
    :func:`mayagames.arena.review.calibrated`."""
    sharpness = info.plugin.part("review_sharpness")
    if sharpness is None:
        return 1.0
    return float(sharpness(variant, view.num_players, review_stage(info, view)))


def sensible_filter(info: GameInfo) -> Callable[[State, Any], list[Any]] | None:
    """The game's ``plugin.sensible_actions``, ``(view, legal) -> subset``: the moves a
    careful beginner would consider (the ``easy`` level's guard rails), or None."""
    return info.plugin.part("sensible_actions")


def has_estimator(info: GameInfo) -> bool:
    return info.plugin.estimate_scores is not None


def score_scale(info: GameInfo) -> float:
    """A typical decisive score difference of the game (temperature for win chances)."""
    return float(info.plugin.score_scale or DEFAULT_SCORE_SCALE)


def greedy_depth(info: GameInfo) -> int:
    """How many of its own consecutive decisions the heuristic bot looks through (1:
    plain one-ply greedy)."""
    return int(info.plugin.greedy_depth or 1)


def public_estimate(info: GameInfo) -> bool:
    """Whether the game's estimate reads only what every seat sees: then a full state
    gives the same estimate as any seat's view of it, and a bot may skip building the
    view before estimating (the heuristic bot's hot path). False unless the game says so."""
    return bool(info.plugin.public_estimate)


def chance_is_revealed(info: GameInfo) -> bool:
    """Whether every action whose result depends on hidden parts or chance says so in
    ``State.reveals_information`` (the module's ``CHANCE_IS_REVEALED``): then an action
    that reveals nothing leads to the same public position in every determinization of a
    view, and a bot with a public estimate may value it once instead of once per sampled
    world. False unless the game says so (``GamePlugin.chance_is_revealed``)."""
    return bool(info.plugin.chance_is_revealed)


def seat_features(info: GameInfo) -> FeatureFn | None:
    """The game's per-seat categorical features for balance reports, if any."""
    return info.plugin.part("seat_features")

"""Terminal rewards: how a finished game's outcome becomes one number per seat.

Rewards are given once, when the game ends (every earlier step rewards 0).
Schemes, chosen by name with ``reward=`` in the environments:

* ``"zero_sum"`` (default): ``(n * r - 1) / (n - 1)`` where ``r`` is the seat's
  share of the win (1 for a sole winner, ``1/k`` for each of ``k`` tied
  winners, 0 for the others). Two players: +1 win, -1 loss, 0 shared win.
  Four players: +1 for a sole winner, -1/3 for each loser. Always sums to 0.
* ``"win"``: ``r`` itself (the core's :meth:`State.returns`): 1 split among
  the winners, 0 for the others.
* ``"score_margin"``: ``(own score - best other score) / score_scale``, clipped to
  [-1, 1]; ``score_scale`` is the game encoding's typical score range. Rewards
  winning by more; ignores tie-breaks.

With a single player (Tikal's solo score attack) there is no one to beat: every
scheme gives ``score / score_scale``, clipped to [-1, 1].

>>> from mayagames.core import new_game
>>> from mayagames.core.rng import Rng
>>> from mayagames.core.game import random_playout
>>> s = new_game("toy", 2, seed=3); _ = random_playout(s, Rng(1))
>>> sum(zero_sum(s, 24.0))
0.0
"""

from __future__ import annotations

from typing import Callable

from ..core.errors import OptionError
from ..core.game import State

RewardFn = Callable[[State, float], list[float]]


def solo(state: State, score_scale: float) -> list[float]:
    """One player: the score over the game's score scale, in [-1, 1]."""
    return [max(-1.0, min(1.0, score / score_scale)) for score in state.scores()]


def win(state: State, score_scale: float) -> list[float]:
    """1 split among the winners, 0 for the others."""
    if state.num_players == 1:
        return solo(state, score_scale)
    return [float(r) for r in state.returns()]


def zero_sum(state: State, score_scale: float) -> list[float]:
    """The win share re-centred so that a sole win is +1 and the rewards sum to 0."""
    n = state.num_players
    if n == 1:
        return solo(state, score_scale)
    return [(n * r - 1.0) / (n - 1) for r in win(state, score_scale)]


def score_margin(state: State, score_scale: float) -> list[float]:
    """Own score minus the best other score, over the game's score scale, in [-1, 1]."""
    if state.num_players == 1:
        return solo(state, score_scale)
    scores = state.scores()
    margins = []
    for seat, own in enumerate(scores):
        best_other = max(s for other, s in enumerate(scores) if other != seat)
        margins.append(max(-1.0, min(1.0, (own - best_other) / score_scale)))
    return margins


REWARDS: dict[str, RewardFn] = {"zero_sum": zero_sum, "win": win, "score_margin": score_margin}


def get_reward(name: str) -> RewardFn:
    """The reward scheme called ``name`` (a clear error for an unknown one)."""
    try:
        return REWARDS[name]
    except KeyError:
        raise OptionError(f"unknown reward {name!r}; choose one of {sorted(REWARDS)}") from None

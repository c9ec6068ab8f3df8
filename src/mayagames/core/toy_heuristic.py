"""Hooks of the test game ``toy`` (Hidden High Card), written like a real game's
``heuristic.py`` so that the bots and the balance reports are exercised end to
end before the real engines land.

Estimate of a seat's final score (rules in :mod:`mayagames.core.toy`): the
points on its pile, plus its best remaining plays (a seat holding cards plays
one per turn and draws one, so the lowest card seen tends to stay in hand),
plus the once-per-game bonus, which any seat can still take with a swap while
the deck lasts. Cards the state's viewer cannot see count at the mean of the
cards it cannot locate.
"""

from __future__ import annotations

from .game import State
from .toy import HIDDEN, PLAYS_PER_PLAYER, ToyState

SCORE_SCALE = 2.0  # a game is usually decided by a couple of points
BONUS_CHANCE = 0.9  # value of an unused bonus while it can still be taken


def _unseen_mean(state: ToyState) -> float:
    pool = state.deck if state.viewer is None else state.unseen_cards()
    return sum(pool) / len(pool) if pool else 0.0


def _future_plays(state: ToyState, seat: int, unseen_mean: float) -> float:
    remaining = PLAYS_PER_PLAYER - len(state.piles[seat])
    if remaining <= 0:
        return 0.0
    hand = [unseen_mean if c == HIDDEN else float(c) for c in state.hands[seat]]
    draws = [unseen_mean] * min(remaining - 1, len(state.deck))
    return sum(sorted(hand + draws, reverse=True)[:remaining])


def _bonus(state: ToyState, seat: int) -> float:
    if state.bonus_used[seat]:
        return 1.0
    can_still = len(state.piles[seat]) < PLAYS_PER_PLAYER and bool(state.deck)
    return BONUS_CHANCE if can_still else 0.0


def estimate_scores(state: State) -> list[float]:
    """Every seat's expected final score, from a full state or a view."""
    assert isinstance(state, ToyState)
    mean = _unseen_mean(state)
    return [sum(state.piles[s]) + _future_plays(state, s, mean) + _bonus(state, s)
            for s in range(state.num_players)]


def seat_features(state: State) -> list[dict[str, str]]:
    """Categorical features of each seat of a finished game (for balance reports)."""
    assert isinstance(state, ToyState)
    return [{"bonus": "taken" if state.bonus_used[s] else "not taken",
             "opening": "high" if state.piles[s] and state.piles[s][0] >= 5 else "low"}
            for s in range(state.num_players)]

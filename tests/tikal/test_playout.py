"""``TikalState.playout``: a search's random rollout inside the state makes the same moves
as the loop over ``legal_cached`` and ``apply_unchecked`` it inlines (issue 16)."""

import random

import pytest

from mayagames.core.rng import Rng
from mayagames.tikal.positions import fresh


def _generic(state, rand, plies: int) -> int:
    for done in range(plies):
        if state.current_player is None:
            return done
        legal = state.legal_cached()
        state.apply_unchecked(legal[int(rand() * len(legal))])
    return plies


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_playout_makes_the_moves_of_the_generic_loop(seed):
    s, rng, step, tried = fresh(2, seed=seed), Rng(seed), 0, 0
    while s.current_player is not None:
        if step % 60 == 0:  # positions spread over a game, every kind of decision in turn
            for plies in (1, 25, 10_000):
                a, b = s.clone(), s.clone()
                done_a = a.playout(random.Random(step + plies).random, plies)
                done_b = _generic(b, random.Random(step + plies).random, plies)
                assert done_a == done_b and a.to_dict() == b.to_dict() and a.rng.state == b.rng.state
                assert a.legal_actions() == b.legal_actions()
            assert a.is_terminal and done_a < 10_000  # the last playout ran to the end
            tried += 1
        legal = s.legal_actions()
        s.apply_unchecked(legal[rng.randbelow(len(legal))])
        step += 1
    assert tried >= 5

"""A hint and the review agree (issue 23: a hint at move 162 recommended what the review
then called a turning point). The hint is the review's own search, budget and seed at the
decision; the review runs that free search before measuring the move played, so a hinted
move, once played, is the review's preferred move too, with no loss."""

from __future__ import annotations

import pytest

from mayagames.arena.review import (PLAYED_SHARE, Budget, DecisionTask, analyse_decision,
                                    confidence, suggest)
from mayagames.core import new_game
from mayagames.core.rng import Rng


def positions(game: str, count: int, every: int = 4):
    state = new_game(game, 2, seed=3)
    rng = Rng(1)
    found = 0
    for step in range(400):
        legal = state.legal_actions()
        if len(legal) > 1 and step % every == 0:
            yield step, state
            found += 1
            if found == count:
                return
        state.apply(legal[rng.randbelow(len(legal))])
        if state.current_player is None:
            return


@pytest.mark.parametrize("game", ["tzolkin", "tikal"])
def test_the_review_of_a_hinted_move_played_prefers_it(game):
    budget = Budget(60)
    for step, state in positions(game, 10):
        seat = state.current_player
        hint = suggest(state.view(seat), seat, budget, 1000 + step)
        review = analyse_decision(DecisionTask(step, seat, 0, state.view(seat), hint.best, 1000 + step), budget)
        assert review.best == hint.best, (step, hint.top, review.top)
        assert review.loss == 0.0
        assert confidence(hint)  # in words


def test_the_review_still_measures_any_move_played():
    budget = Budget(60)
    for step, state in positions("tzolkin", 6):
        seat = state.current_player
        legal = state.legal_actions()
        played = legal[-1]
        review = analyse_decision(DecisionTask(step, seat, 0, state.view(seat), str(played), 7), budget)
        assert review.played_win_prob is not None and review.played_margin is not None
        assert review.iterations >= budget.iterations
        visits = {t["action"]: t for t in review.top}
        if str(played) != review.best and str(played) in visits:  # the share came on top of the budget
            assert review.iterations <= budget.iterations + PLAYED_SHARE * budget.iterations / (1 - PLAYED_SHARE) + 2

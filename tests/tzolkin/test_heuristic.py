"""The heuristic estimate of final scores (for bots)."""

from mayagames.core import Rng, new_game
from mayagames.core.conformance import play_random_game
from mayagames.tzolkin.heuristic import estimate_scores
from mayagames.tzolkin.positions import (blank, give_monument, set_day, set_goods, set_tech,
                                         set_temple, set_workers)


def test_exact_at_the_end():
    state, _ = play_random_game("tzolkin", 3, seed=4)
    assert estimate_scores(state) == state.scores()


def test_works_on_views_and_ignores_hidden_information():
    s = new_game("tzolkin", 4, seed=6)
    rng = Rng(1)
    for _ in range(120):
        s.apply(s.legal_actions()[rng.randbelow(len(s.legal_actions()))])
    full = estimate_scores(s)
    for seat in (0, 1, 2, 3, None):
        assert estimate_scores(s.view(seat)) == full


def test_more_of_anything_good_estimates_higher():
    base = blank(2)
    set_goods(base, 0, corn=8)
    set_goods(base, 1, corn=8)
    a, b = estimate_scores(base)
    assert a == b
    for change in (lambda s: set_goods(s, 0, vp=5), lambda s: set_goods(s, 0, gold=2),
                   lambda s: set_workers(s, 0, 4), lambda s: set_tech(s, 0, "agriculture", 2),
                   lambda s: set_temple(s, 0, "quetzalcoatl", 3), lambda s: set_goods(s, 0, skulls=1),
                   lambda s: give_monument(s, 0, "m02")):
        s = base.clone()
        change(s)
        x, y = estimate_scores(s)
        assert x > y, change


def test_time_left_matters_and_hunger_costs():
    early, late = blank(2), blank(2)
    set_day(late, 26)
    assert estimate_scores(early)[0] > estimate_scores(late)[0]
    fed, hungry = blank(2), blank(2)
    set_goods(fed, 0, corn=30)
    set_goods(hungry, 0, corn=0)
    assert estimate_scores(fed)[0] - estimate_scores(hungry)[0] == 30 / 4
    for s in (fed, hungry):
        set_day(s, 7)                       # the Food Day is next: hunger now costs VP
    # 3 unfed workers: -9 VP, less the 6 corn they no longer cost (1.5 VP)
    assert estimate_scores(fed)[0] - estimate_scores(hungry)[0] == 30 / 4 + 7.5

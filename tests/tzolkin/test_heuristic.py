"""The heuristic estimate of final scores (for bots)."""

import pytest

from mayagames.core import Rng, new_game
from mayagames.core.conformance import play_random_game
from mayagames.agents.hooks import greedy_depth, score_scale
from mayagames.core import get_game
from mayagames.tzolkin import heuristic as H
from mayagames.tzolkin.heuristic import estimate_scores
from mayagames.tzolkin.positions import (blank, give_monument, play, put_worker, set_day, set_goods,
                                         set_tech, set_temple, set_workers)


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
    # 3 unfed workers would cost 3 VP each, less the 2 corn each no longer eats (1/4 VP
    # a corn); far from the Food Day that counts at HUNGER_FAR; corn held early in the
    # game is worth its final 1/4 VP plus the premium of corn in play.
    unfed = 3 * (3 + 2 / 4)
    corn = 30 * (1 / 4 + H.GOODS_PREMIUM[0])
    assert estimate_scores(fed)[0] - estimate_scores(hungry)[0] == pytest.approx(corn + H.HUNGER_FAR * unfed)
    for s in (fed, hungry):
        set_day(s, 7)                       # the Food Day is next: hunger costs in full
    share = H.share_left(fed)
    assert estimate_scores(fed)[0] - estimate_scores(hungry)[0] == pytest.approx(
        30 * (1 / 4 + H.GOODS_PREMIUM[0] * share) + unfed)


def test_corn_on_its_way_from_palenque_feeds_the_workers():
    waiting, elsewhere = blank(2), blank(2)
    for s in (waiting, elsewhere):
        set_day(s, 6)
    put_worker(waiting, 0, "palenque", 5)       # 9 corn when picked up: feeds 3 workers
    put_worker(elsewhere, 0, "yaxchilan", 5)
    assert H.corn_on_the_way(waiting, 0) == 9 and H.corn_on_the_way(elsewhere, 0) == 0
    assert H.feeding_outlook(waiting, 0) > H.feeding_outlook(elsewhere, 0)
    assert H.feeding_outlook(waiting, 0) == pytest.approx(
        -4 * 3 * 2 * (1 / 4 + H.GOODS_PREMIUM[0] * H.share_left(waiting)))


def test_a_worker_on_a_gear_is_worth_the_action_it_will_reach():
    s = blank(2)
    ready = H.gear_outlook(s, 0)
    assert ready == 3 * H.READY_VP
    values = []
    for space in range(1, 6):
        c = blank(2)
        put_worker(c, 0, "palenque", space)
        values.append(H.gear_outlook(c, 0) - 2 * H.READY_VP)
    assert values == sorted(values) and values[0] < values[-1]
    # it can wait for a better space, but not beyond the end of the game
    assert H.waiting_value(0, 1, rounds=20) > H.PICK_VALUE[0][1]
    assert H.waiting_value(0, 1, rounds=0) == H.PICK_VALUE[0][1]


def test_a_picked_up_worker_is_worth_its_action_until_it_acts():
    s = blank(2)
    set_goods(s, 0, corn=5)
    put_worker(s, 0, "palenque", 5)
    play(s, "pick palenque 5")                   # the action is still to choose
    assert H.picked_worker(s, 0) == (0, 5) and H.picked_worker(s, 1) is None
    assert H.gear_outlook(s, 0) == 3 * H.READY_VP + H.PICK_VALUE[0][5]
    assert H.corn_on_the_way(s, 0) == 9         # still feeds the workers


def test_workers_on_chichen_itza_count_only_with_skulls_to_place():
    s = blank(2)
    put_worker(s, 0, "chichen", 6)
    put_worker(s, 0, "chichen", 8)
    assert H.gear_outlook(s, 0) == H.READY_VP   # no skull: they can do nothing there
    set_goods(s, 0, skulls=1)
    best = H.waiting_value(4, 8, H.rounds_left(s))
    assert H.gear_outlook(s, 0) == H.READY_VP + best  # one skull: the better worker counts


def test_bot_hooks():
    info = get_game("tzolkin")
    assert score_scale(info) == H.SCORE_SCALE and greedy_depth(info) == H.GREEDY_DEPTH


@pytest.mark.parametrize("players", [2, 4])
def test_the_estimate_is_the_sum_of_its_parts_bit_for_bit(players):
    """``estimate_scores`` (its small parts inlined, for searches) gives exactly the floats
    of ``estimate_by_parts`` at every decision of seeded random games, and v2 is it plus
    its correction."""
    for seed in range(3):
        s, rng = new_game("tzolkin", players, seed), Rng(seed)
        while not s.is_terminal:
            fast, parts = estimate_scores(s), H.estimate_by_parts(s)
            assert [x.hex() for x in map(float, fast)] == [x.hex() for x in map(float, parts)]
            assert H.estimate_scores_v2(s) == [v + H.v2_correction(s, q) for q, v in enumerate(fast)]
            legal = s.legal_actions()
            s.apply(legal[rng.randbelow(len(legal))])


def test_v2_sees_the_next_food_day_hunger_at_full_weight_and_the_one_after():
    """Issue 21: v1 weighed a shortfall at a distant Food Day by half and ignored the Food Day
    after it; its bots starved (9 unfed workers a game). v2 counts the next Food Day's unfed
    workers in full (and more than 3 VP: their actions are lost) and the one after it."""
    fed, hungry = blank(2), blank(2)
    set_goods(fed, 0, corn=12)                  # 3 workers: 6 corn a Food Day, two covered
    set_goods(hungry, 0, corn=0)
    per_worker = 3 + 2 / 4
    v1_gap = estimate_scores(fed)[0] - estimate_scores(hungry)[0]
    v2_gap = H.estimate_scores_v2(fed)[0] - H.estimate_scores_v2(hungry)[0]
    w = H.V2
    next_day = 3 * ((1 - H.HUNGER_FAR) * per_worker + w["unfed_extra"])
    after = 3 * (per_worker + w["unfed_extra"]) * w["hunger_next"]
    assert v2_gap - v1_gap == pytest.approx(next_day + after)
    assert v2_gap > v1_gap + 3 * per_worker / 2
    # corn for the Food Day after next only: the next one is fed, the later one still weighs
    half = blank(2)
    set_goods(half, 0, corn=6)
    assert H.v2_correction(half, 0) == pytest.approx(-after)
    assert H.v2_correction(fed, 0) == 0


def test_the_estimates_are_reachable_by_name():
    from mayagames.agents.hooks import estimator
    info = get_game("tzolkin")
    assert estimator(info) is estimate_scores is estimator(info, "v1")
    assert estimator(info, "v2") is H.estimate_scores_v2
    with pytest.raises(ValueError, match="v1"):
        estimator(info, "v0")

"""The easy bot's guard rails in Tzolk'in (mayagames.tzolkin.sensible) and the easy level."""

from __future__ import annotations

from mayagames.agents import LEVELS, make_agent
from mayagames.core import new_game
from mayagames.tzolkin import actions as A
from mayagames.tzolkin.positions import blank, play, put_worker, set_day, set_goods
from mayagames.tzolkin.model import CORN
from mayagames.tzolkin.sensible import corn_waiting, food_reserve, sensible_actions


def test_placements_keep_the_corn_the_next_food_day_eats():
    s = blank(2)                      # 3 workers: the Food Day of day 8 eats 6 corn
    set_goods(s, 0, corn=7)
    play(s, "place tikal", "place yaxchilan")     # free, then 1 corn: 6 left
    assert food_reserve(s, 0) == 6
    kept = {str(a) for a in sensible_actions(s, s.legal_actions())}
    assert "place palenque" in kept and "end" in kept      # Palenque brings corn
    assert "place uxmal" not in kept and "place chichen" not in kept


def test_the_corn_waiting_on_the_starting_player_space_counts_for_the_seat_that_took_it():
    """Rules 8: the worker placed on the Starting Player Space takes the corn waiting there
    at the end of the turn, before the Food Day; the reserve counts it (it did not: stop 42)."""
    s = blank(2)                      # 3 workers: the Food Day of day 8 eats 6 corn
    set_goods(s, 0, corn=6)
    s.sps_corn = 3
    play(s, "place start")            # the first worker of the turn: free
    assert s.p[0][CORN] == 6 and corn_waiting(s, 0) == 3 and corn_waiting(s, 1) == 0
    kept = {str(a) for a in sensible_actions(s, s.legal_actions())}
    assert "place uxmal" in kept      # 1 corn more for the second worker: 5 held, 3 waiting
    play(s, "place uxmal", "end")
    assert s.p[0][CORN] == 8 and corn_waiting(s, 0) == 0   # taken at the end of the turn
    s2 = blank(2)
    set_goods(s2, 0, corn=6)
    play(s2, "place tikal")           # no corn waiting: the second worker breaks the reserve
    assert "place uxmal" not in {str(a) for a in sensible_actions(s2, s2.legal_actions())}


def test_spending_is_free_when_the_reserve_is_there():
    s = blank(2)
    set_goods(s, 0, corn=20)
    legal = s.legal_actions()
    assert sensible_actions(s, legal) == legal


def test_short_of_corn_just_before_a_food_day_bring_the_harvest_in():
    s = blank(2)
    set_goods(s, 0, corn=1)
    put_worker(s, 0, "palenque", 3)
    put_worker(s, 0, "yaxchilan", 4)
    set_day(s, 7)
    kept = sensible_actions(s, s.legal_actions())
    assert kept == [A.Pick("palenque", 3)]


def test_a_picked_worker_takes_its_action():
    s = blank(2)
    put_worker(s, 0, "yaxchilan", 2)
    play(s, "pick yaxchilan 2")
    kept = sensible_actions(s, s.legal_actions())
    assert A.Nothing() not in kept and A.Do("yaxchilan", 2) in kept


def unfed_workers(spec: str, seed: int) -> list[int]:
    """Workers left unfed at the 4 Food Days of a 2-player game of ``spec`` against itself."""
    agents = [make_agent(spec, 1), make_agent(spec, 2)]
    s = new_game("tzolkin", 2, seed=seed)
    unfed, food = [0, 0], 0
    while not s.is_terminal:
        seat = s.current_player
        s.apply(agents[seat].act(s.view(seat), s.legal_actions()))
        if s.food_done != food:
            food = s.food_done
            unfed = [u + x for u, x in zip(unfed, s.last_unfed)]
    return unfed


def test_the_easy_level_feeds_its_workers_where_the_old_one_starved_them():
    assert "sensible=1" in LEVELS["easy"][0]
    now = unfed_workers("easy", 4)
    before = unfed_workers("heuristic:samples=1,noise=0.25,epsilon=0.25", 4)  # easy until issue 12
    assert sum(now) <= 4 and sum(before) >= 2 * sum(now), (now, before)


def test_on_the_food_days_own_day_corn_on_its_way_comes_too_late():
    s = blank(2)                      # 3 workers: the Food Day at the end of day 8 eats 6 corn
    set_goods(s, 0, corn=6)
    set_day(s, 8)
    play(s, "place tikal")            # the first worker is free
    kept = {str(a) for a in sensible_actions(s, s.legal_actions())}
    assert "place palenque" not in kept and "end" in kept  # its corn would come after feeding
    s = blank(2)
    set_goods(s, 0, corn=6)
    set_day(s, 7)                     # a day before: Palenque still brings its corn in time
    play(s, "place tikal")
    assert "place palenque" in {str(a) for a in sensible_actions(s, s.legal_actions())}


def test_an_action_whose_every_follow_up_breaks_the_reserve_is_not_taken():
    s = blank(2)
    set_goods(s, 0, corn=7)           # the Food Day eats 6; Uxmal 1's temple step costs 3
    put_worker(s, 0, "uxmal", 1)
    play(s, "pick uxmal 1")
    kept = sensible_actions(s, s.legal_actions())
    assert A.Do("uxmal", 1) not in kept and A.Nothing() in kept
    set_goods(s, 0, corn=20)          # with corn to spare it acts
    assert A.Do("uxmal", 1) in sensible_actions(s, s.legal_actions())


def test_a_seat_without_a_building_builds_one():
    s = blank(2)
    set_goods(s, 0, corn=20, wood=4, stone=4, gold=4)
    put_worker(s, 0, "tikal", 2)
    play(s, "pick tikal 2")
    kept = sensible_actions(s, s.legal_actions())
    assert kept == [A.Do("tikal", 2)]  # build, rather than a technology (Tikal 1)
    s = blank(2)
    set_goods(s, 0, corn=20, wood=2)
    set_day(s, 6)                     # blocks for a building and no worker on Tikal yet
    kept = {str(a) for a in sensible_actions(s, s.legal_actions())}
    assert "place tikal" in kept and not kept & {"place yaxchilan", "place uxmal", "place palenque"}
    set_day(s, 3)                     # earlier in the game: free to place anywhere
    assert "place yaxchilan" in {str(a) for a in sensible_actions(s, s.legal_actions())}


def test_the_easy_level_builds():
    agents = [make_agent("easy", 1), make_agent("easy", 2)]
    s = new_game("tzolkin", 2, seed=4)
    while not s.is_terminal:
        seat = s.current_player
        s.apply(agents[seat].act(s.view(seat), s.legal_actions()))
    assert all(s.built[seat] or s.monuments[seat] for seat in (0, 1))

"""Food Days, temple rewards, age change, monuments and final scoring (rules 10, 13, 16, 18)."""

import pytest

from mayagames.tzolkin import scoring
from mayagames.tzolkin.positions import (blank, give_building, give_farm, give_monument, goods,
                                         place_skull, play, put_worker, set_day, set_goods,
                                         set_tech, set_temple, set_workers)


# --- feeding ---------------------------------------------------------------------------------
@pytest.mark.parametrize("workers, corn, farms, corn_left, vp", [
    (3, 10, (), 4, 0),
    (3, 5, (), 1, -3),                 # the rulebook example: no half-feeding
    (4, 0, (), 0, -12),
    (3, 0, ("a1-f1",), 0, -6),
    (5, 10, ("a1-f2",), 5, 0),         # 1 corn per worker
    (5, 10, ("a1-f2", "a1-f2"), 10, 0),  # two A1-F2 make feeding free
    (6, 3, ("a1-f1", "a1-f2"), 0, -6),   # 1 free; 5 at 1 corn each: 3 fed
    (6, 0, ("a2-f1", "a2-f1"), 0, 0),
    (4, 2, ("a2-f1",), 0, 0),
])
def test_feeding(workers, corn, farms, corn_left, vp):
    s = blank(2)
    set_workers(s, 0, workers)
    set_goods(s, 0, corn=corn)
    for farm in farms:
        give_farm(s, 0, farm)
    scoring.feed(s, s.p[0])
    assert goods(s, 0)["corn"] == corn_left and goods(s, 0)["vp"] == vp
    assert s.invariants() == []


def test_start_tile_w14_feeds_one_worker():
    s = blank(2)
    from mayagames.tzolkin.effects import gain_tile
    from mayagames.tzolkin.components import TILE_INDEX
    gain_tile(s, 0, TILE_INDEX["w14"])
    assert goods(s, 0)["corn"] == 3 and goods(s, 0)["wood"] == 1
    scoring.feed(s, s.p[0])
    # 1 worker free, 2 need 2 corn each: 3 corn feed one of them
    assert goods(s, 0)["corn"] == 1 and goods(s, 0)["vp"] == -3


# --- temple rewards -------------------------------------------------------------------------------
@pytest.mark.parametrize("chaac, quetz, kukul, expect", [
    (0, 0, 0, (0, 0, 0, 0)),
    (1, 2, 1, (1, 1, 1, 0)),
    (3, 4, 3, (2, 2, 2, 0)),
    (5, 7, 4, (2, 2, 2, 1)),
    (-1, 1, 6, (2, 0, 0, 1)),
])
def test_middle_of_age_rewards_are_cumulative(chaac, quetz, kukul, expect):
    s = blank(2)
    for t, step in zip(("chaac", "quetzalcoatl", "kukulcan"), (chaac, quetz, kukul)):
        set_temple(s, 0, t, step)
    scoring.middle_of_age_rewards(s)
    g = goods(s, 0)
    assert (g["wood"], g["stone"], g["gold"], g["skulls"]) == expect


def test_skull_shortage_means_nobody_gets_one():
    s = blank(3)
    for seat in range(3):
        set_temple(s, seat, "kukulcan", 4)
    set_goods(s, 0, skulls=11)              # 2 left for 3 eligible players
    scoring.middle_of_age_rewards(s)
    assert [goods(s, i)["skulls"] for i in range(3)] == [11, 0, 0] and s.skulls == 2
    set_goods(s, 0, skulls=10)              # 3 left: everyone gets one
    scoring.middle_of_age_rewards(s)
    assert [goods(s, i)["skulls"] for i in range(3)] == [11, 1, 1] and s.skulls == 0


def test_end_of_age_vp_and_bonus_with_half_for_ties():
    s = blank(3)
    steps = {0: (5, 2, -1), 1: (3, 2, 6), 2: (3, 0, 0)}
    for seat, (c, q, k) in steps.items():
        set_temple(s, seat, "chaac", c)
        set_temple(s, seat, "quetzalcoatl", q)
        set_temple(s, seat, "kukulcan", k)
    scoring.end_of_age_rewards(s, 1)
    # seat 0: 8 + 2 - 3 + Chaac bonus 6 + half Quetzalcoatl bonus 1 = 14
    # seat 1: 6 + 2 + 10 + half of 2 = 1, Kukulcan bonus 4 = 23
    # seat 2: 6 + 0 + 0 = 6
    assert [goods(s, i)["vp"] for i in range(3)] == [14, 23, 6]
    scoring.end_of_age_rewards(s, 2)
    # age 2 bonuses: Chaac 2, Quetzalcoatl 6 (tie: 3 each), Kukulcan 4
    assert [goods(s, i)["vp"] for i in range(3)] == [14 + 7 + 2 + 3, 23 + 18 + 3 + 4, 12]


def test_food_day_round_feeds_then_rewards_and_changes_age():
    s = blank(2)
    set_day(s, 14)
    set_temple(s, 0, "chaac", 1)
    set_goods(s, 0, corn=6)
    set_goods(s, 1, corn=6)
    age1_row = list(s.display)
    play(s, "place palenque", "end", "place yaxchilan", "end")
    assert s.food_done == 2 and s.age == 2 and s.day == 15
    assert all(i >= 0 for i in s.display) and not set(s.display) & set(age1_row)
    from mayagames.tzolkin.layout import INSTANCE_TYPE
    from mayagames.tzolkin.components import DATA
    assert all(DATA.buildings[INSTANCE_TYPE[i]].age == 2 for i in s.display)
    assert s.stacks[0] == [] and len(s.stacks[1]) == 12
    # Chaac step 1 = 2 VP, alone highest on Chaac: +6; Quetzalcoatl and Kukulcan tied: 1 + 2
    assert goods(s, 0)["vp"] == 2 + 6 + 1 + 2 and goods(s, 1)["vp"] == 1 + 2
    assert goods(s, 0)["corn"] == 0 and s.invariants() == []


def test_middle_food_day_in_play_gives_resources_after_feeding():
    s = blank(2)
    set_day(s, 8)
    set_temple(s, 0, "quetzalcoatl", 2)
    set_goods(s, 0, corn=0)
    play(s, "place palenque", "end", "place yaxchilan", "end")
    assert goods(s, 0)["gold"] == 1 and goods(s, 0)["vp"] == -9 and s.food_done == 1


# --- monuments --------------------------------------------------------------------------------------
def monument_position():
    s = blank(2)
    for b in ("a1-t1", "a1-t2", "a1-g1", "a1-b1", "a1-f1"):
        give_building(s, 0, b)
    give_building(s, 1, "a1-b2")
    return s


@pytest.mark.parametrize("monument, setup, vp", [
    ("m01", lambda s: None, 4 * 3),                          # 2 brown buildings + M01
    ("m02", lambda s: None, 2 * 6),                          # 5 buildings + M02
    ("m03", lambda s: s.p[0].__setitem__(17, 3), 12),
    ("m04", lambda s: s.p[0].__setitem__(18, 2), 8),
    ("m05", lambda s: give_monument(s, 1, "m12"), 6 * 2),    # 2 monuments built, 2 players
    ("m06", lambda s: None, 4 * 2),                          # A1-G1 + M06
    ("m07", lambda s: (set_tech(s, 0, "agriculture", 3), set_tech(s, 0, "theology", 3)), 20),
    ("m08", lambda s: (set_tech(s, 0, "agriculture", 2), set_tech(s, 0, "theology", 3)), 15),
    ("m09", lambda s: set_workers(s, 0, 5), 12),
    ("m10", lambda s: None, 4 * 2),                          # A1-B1 + M10
    ("m11", lambda s: (set_temple(s, 0, "chaac", 2), set_temple(s, 0, "kukulcan", -1)), 4 - 3),
    ("m12", lambda s: (set_temple(s, 0, "quetzalcoatl", 4), set_temple(s, 0, "chaac", 5)), 15),
    ("m13", lambda s: (place_skull(s, 0, 1), place_skull(s, 1, 5)), 6),
])
def test_monument_scoring(monument, setup, vp):
    s = monument_position()
    give_monument(s, 0, monument)
    setup(s)
    assert scoring.monument_vp(s, 0, s.monuments[0][0]) == vp


def test_m07_caps_at_33_and_m05_depends_on_player_count():
    s = blank(4)
    for t in ("agriculture", "extraction", "architecture", "theology"):
        set_tech(s, 0, t, 3)
    give_monument(s, 0, "m07")
    give_monument(s, 1, "m05")
    assert scoring.monument_vp(s, 0, s.monuments[0][0]) == 33
    assert scoring.monument_vp(s, 1, s.monuments[1][0]) == 4 * 2
    s = blank(3)
    give_monument(s, 1, "m05")
    assert scoring.monument_vp(s, 1, s.monuments[1][0]) == 5


# --- final scoring -------------------------------------------------------------------------------------
def test_final_scoring_converts_resources_and_counts_quarter_points():
    s = blank(2)
    set_goods(s, 0, corn=3, wood=1, stone=1, gold=1, skulls=2, vp=10)
    give_monument(s, 0, "m09")
    b = scoring.final_breakdown(s, 0)
    # 3 + 2 + 3 + 4 = 12 corn -> 3 VP; 2 skulls -> 6 VP; M09 with 3 workers -> 0
    assert b["corn_after_conversion"] == 12 and b["total"] == 10 + 3 + 6
    set_goods(s, 0, corn=4)
    assert scoring.final_breakdown(s, 0)["total"] == 19.25


def test_corn_floor_option():
    s = blank(2, options={"corn_vp": "floor"})
    set_goods(s, 0, corn=7)
    assert scoring.final_breakdown(s, 0)["total"] == 1


def test_terminal_scores_include_final_scoring():
    s = blank(2)
    set_day(s, 27)
    set_goods(s, 0, corn=13, skulls=1)
    set_goods(s, 1, corn=6)
    put_worker(s, 1, "tikal", 2)
    play(s, "place palenque", "end", "pick tikal 2", "nothing", "end")
    assert s.is_terminal
    # seat 0 feeds 6, 7 corn left -> 1.75, skull 3, Quetzalcoatl bonus ties etc.
    b0 = s.to_dict()["final"][0]
    assert b0["corn_after_conversion"] == 7 and b0["skulls_vp"] == 3
    assert s.scores()[0] == b0["total"]

"""Every action of the five gears (rules 3-7), with the technologies that modify them."""

import pytest

from mayagames.core import IllegalAction
from mayagames.tzolkin.positions import (blank, give_building, goods, legal, place_skull, play,
                                         put_worker, set_goods, set_monument_row, set_row,
                                         set_tech, set_temple, set_workers)


def picked(gear, space, players=2, corn=0, **kw):
    """Seat 0 has picked up its worker from ``gear`` ``space``."""
    s = blank(players)
    set_goods(s, 0, corn=corn, **kw)
    put_worker(s, 0, gear, space)
    play(s, f"pick {gear} {space}")
    return s


def temples(s, seat=0):
    return s.p[seat][13:16]


# --- Palenque ----------------------------------------------------------------------------
@pytest.mark.parametrize("agri, corn", [(0, 3), (1, 3), (2, 4), (3, 4)])
def test_fishing_gives_3_corn_plus_1_from_agriculture_2(agri, corn):
    s = picked("palenque", 1)
    set_tech(s, 0, "agriculture", agri)
    play(s, "do palenque 1")
    assert goods(s, 0)["corn"] == corn and s.p[0][17] == 0     # no tile


@pytest.mark.parametrize("agri, bonus", [(0, 0), (1, 1), (2, 1), (3, 3)])
def test_harvest_corn_with_agriculture(agri, bonus):
    s = picked("palenque", 2)
    set_tech(s, 0, "agriculture", agri)
    play(s, "do palenque 2")
    assert goods(s, 0)["corn"] == 4 + bonus and s.p[0][17] == 1 and s.jcorn[2] == 1


def test_space_3_to_5_offer_wood_and_burning_when_corn_is_covered():
    s = picked("palenque", 5, corn=4)
    assert legal(s)[:5] == [f"do palenque {k}" for k in range(1, 6)]
    play(s, "do palenque 5")
    assert legal(s) == ["harvest wood", "burn"]    # corn covered by wood (2 players: 2 each)


@pytest.mark.parametrize("space, wood", [(3, 2), (4, 3), (5, 4)])
def test_wood_harvest_and_extraction(space, wood):
    s = picked("palenque", space)
    set_tech(s, 0, "extraction", 1)
    play(s, f"do palenque {space}", "harvest wood")
    assert goods(s, 0)["wood"] == wood + 1 and s.p[0][18] == 1 and s.jwood[space] == 1


def test_corn_visible_after_wood_removed():
    s = picked("palenque", 4)
    s.jwood[4] = 1                  # one field cleared: corn 2 > wood 1
    s.p[1][18] = 1                  # (its wood tile went to seat 1)
    from mayagames.tzolkin.positions import refresh
    refresh(s)
    play(s, "do palenque 4")
    assert legal(s) == ["harvest corn", "harvest wood", "burn"]
    play(s, "harvest corn")
    assert goods(s, 0)["corn"] == 7 and s.jcorn[4] == 1 and s.jwood[4] == 1
    assert s.invariants() == []


def test_burning_discards_wood_takes_corn_and_angers_the_gods():
    s = picked("palenque", 3)
    set_tech(s, 0, "agriculture", 1)
    set_temple(s, 0, "chaac", 2)
    play(s, "do palenque 3", "burn")
    assert legal(s) == ["anger chaac", "anger quetzalcoatl", "anger kukulcan"]
    play(s, "anger chaac")
    assert goods(s, 0)["corn"] == 6 and s.p[0][17] == 1 and s.p[0][18] == 0
    assert s.burned == 1 and s.jwood[3] == 1 and s.jcorn[3] == 1 and temples(s) == [1, 0, 0]
    assert s.invariants() == []


def test_cannot_burn_at_the_bottom_of_every_temple():
    s = picked("palenque", 3)
    for t in ("chaac", "quetzalcoatl", "kukulcan"):
        set_temple(s, 0, t, -1)
    play(s, "do palenque 3")
    assert goods(s, 0)["wood"] == 2       # wood was the only possible harvest: forced


def test_agriculture_2_harvests_corn_without_a_visible_tile():
    s = picked("palenque", 4)
    set_tech(s, 0, "agriculture", 2)
    play(s, "do palenque 4")
    assert legal(s) == ["harvest corn", "harvest wood", "burn"]
    play(s, "harvest corn")
    assert goods(s, 0)["corn"] == 8 and s.p[0][17] == 0 and s.jcorn[4] == 2


def test_empty_corn_fields_cannot_be_harvested_without_irrigation():
    s = picked("palenque", 2, corn=1)
    s.jcorn[2] = 0
    s.p[1][17] = 2
    from mayagames.tzolkin.positions import refresh
    refresh(s)
    assert "do palenque 2" not in legal(s)
    assert legal(s) == ["do palenque 1", "nothing"]


# --- Yaxchilan ---------------------------------------------------------------------------------
@pytest.mark.parametrize("space, ext, expect", [
    (1, 0, {"wood": 1}), (1, 1, {"wood": 2}),
    (2, 1, {"stone": 1, "corn": 1}), (2, 2, {"stone": 2, "corn": 1}),
    (3, 2, {"gold": 1, "corn": 2}), (3, 3, {"gold": 2, "corn": 2}),
    (5, 0, {"stone": 1, "gold": 1, "corn": 2}), (5, 3, {"stone": 2, "gold": 2, "corn": 2}),
])
def test_yaxchilan_resources_and_extraction(space, ext, expect):
    s = picked("yaxchilan", space)
    set_tech(s, 0, "extraction", ext)
    play(s, f"do yaxchilan {space}")
    got = {k: v for k, v in goods(s, 0).items() if v}
    assert got == expect


@pytest.mark.parametrize("theology, supply, skulls", [(0, 13, 1), (3, 13, 2), (3, 1, 1)])
def test_yaxchilan_skull_limited_by_supply_with_theology_3(theology, supply, skulls):
    s = picked("yaxchilan", 4)
    set_tech(s, 0, "theology", theology)
    set_goods(s, 1, skulls=13 - supply)
    play(s, "do yaxchilan 4")
    assert goods(s, 0)["skulls"] == skulls and s.skulls == max(0, supply - skulls)


# --- Tikal ---------------------------------------------------------------------------------------
def test_tikal_1_one_tech_paying_block_by_block():
    s = picked("tikal", 1, wood=1, stone=2)
    play(s, "do tikal 1")
    assert legal(s) == ["tech agriculture", "tech extraction", "tech architecture", "tech theology"]
    set_tech(s, 0, "theology", 1)
    play(s, "tech theology")                     # level 1 -> 2 costs 2 blocks
    assert legal(s) == ["pay wood", "pay stone"]
    play(s, "pay stone", "pay wood")
    assert s.p[0][12] == 2 and goods(s, 0)["stone"] == 1 and goods(s, 0)["wood"] == 0
    assert legal(s) == ["pick tikal 1", "end"] or legal(s) == ["end"]


def test_tech_costs_1_2_3_then_1_for_the_bonus():
    for level, cost in ((0, 1), (1, 2), (2, 3), (3, 1)):
        s = picked("tikal", 1, gold=cost)
        set_tech(s, 0, "architecture", level)
        play(s, "do tikal 1")
        assert "tech architecture" in legal(s)
        play(s, "tech architecture")             # paying every block is forced
        assert goods(s, 0)["gold"] == 0
        assert s.p[0][11] == min(3, level + 1)
        if level == 3:
            assert goods(s, 0)["vp"] == 3        # architecture bonus


def test_unaffordable_tracks_are_not_offered():
    s = picked("tikal", 1, wood=1)
    set_tech(s, 0, "agriculture", 1)
    play(s, "do tikal 1")
    assert legal(s) == ["tech extraction", "tech architecture", "tech theology"]
    with pytest.raises(IllegalAction) as err:
        play(s, "tech agriculture")
    assert err.value.rule == "Technology cost"


def test_tikal_3_two_advances_on_one_track_or_stop_after_one():
    s = picked("tikal", 3, wood=3)
    play(s, "do tikal 3", "tech agriculture")     # 1 block, paid automatically? no: choice of type
    assert s.p[0][9] == 1
    assert legal(s)[-1] == "stop"
    play(s, "tech agriculture")                   # 2 more blocks: all that is left
    assert s.p[0][9] == 2 and goods(s, 0)["wood"] == 0
    s = picked("tikal", 3, wood=1)
    play(s, "do tikal 3", "tech theology")
    assert s.p[0][12] == 1 and legal(s) == ["end"]   # second advance unaffordable: skipped


def test_tikal_5_one_block_two_different_temples():
    s = picked("tikal", 5, stone=1, gold=1)
    play(s, "do tikal 5")
    assert legal(s) == ["temples chaac quetzalcoatl pay stone", "temples chaac quetzalcoatl pay gold",
                        "temples chaac kukulcan pay stone", "temples chaac kukulcan pay gold",
                        "temples quetzalcoatl kukulcan pay stone", "temples quetzalcoatl kukulcan pay gold"]
    play(s, "temples chaac kukulcan pay gold")
    assert temples(s) == [1, 0, 1] and goods(s, 0)["gold"] == 0 and goods(s, 0)["stone"] == 1


def test_tikal_5_needs_a_block():
    s = picked("tikal", 5, corn=5)
    assert "do tikal 5" not in legal(s)


def test_tikal_2_builds_one_building_and_refills_at_end_of_turn():
    s = picked("tikal", 2, wood=3, stone=1)
    set_row(s, ["a1-t1", "a1-g1", "a1-f2", "a1-b1", "a1-f1", "a1-g4"])
    play(s, "do tikal 2")
    assert legal(s) == ["build a1-t1", "build a1-g1", "build a1-f1", "build a1-g4"]
    play(s, "build a1-t1")
    assert temples(s) == [1, 1, 0] and goods(s, 0)["wood"] == 1
    assert s.display[0] == -1
    left = len(s.stacks[0])
    play(s, "end")
    assert s.display[0] >= 0 and len(s.stacks[0]) == left - 1


def test_tikal_4_two_buildings_architecture_on_one_only():
    s = picked("tikal", 4, wood=5, gold=1)
    set_tech(s, 0, "architecture", 2)
    set_row(s, ["a1-f1", "a1-g1", "a1-f1", "a1-b1", "a1-t2", "a1-g2"])
    play(s, "do tikal 4")
    assert "build a1-f1 noarch" in legal(s)
    play(s, "build a1-f1")                 # +1 corn, +2 VP
    assert goods(s, 0)["corn"] == 1 and goods(s, 0)["vp"] == 2
    assert legal(s) == ["build a1-g1", "build a1-f1", "build a1-b1", "build a1-g2", "stop"]
    play(s, "build a1-g1")                 # full price, no architecture
    assert goods(s, 0)["corn"] == 1 and goods(s, 0)["vp"] == 2 and goods(s, 0)["wood"] == 2
    assert len(s.built[0]) == 2 and s.p[0][9] == 1


def test_tikal_4_new_architecture_level_may_apply_to_the_second_building():
    s = picked("tikal", 4, wood=2, gold=1)
    set_tech(s, 0, "architecture", 2)
    set_row(s, ["a1-b1", "a1-g1", "a1-f1", "a1-f1", "a1-t2", "a1-g2"])
    play(s, "do tikal 4", "build a1-b1 noarch")     # reaches architecture 3, effects kept
    assert s.p[0][11] == 3 and goods(s, 0)["vp"] == 0
    assert "build a1-g1 waive wood" in legal(s)
    play(s, "build a1-g1 waive wood")               # 1 wood waived, +1 corn, +2 VP
    assert goods(s, 0)["wood"] == 1 and goods(s, 0)["corn"] == 1 and goods(s, 0)["vp"] == 2


def test_architecture_0_first_building_leaves_architecture_for_the_second():
    s = picked("tikal", 4, wood=2, gold=1)
    set_row(s, ["a1-b1", "a1-f1", "a1-f1", "a1-g1", "a1-t2", "a1-g2"])
    play(s, "do tikal 4", "build a1-b1")            # level 0: nothing applied; now level 1
    play(s, "build a1-f1")
    assert goods(s, 0)["corn"] == 1                 # level 1 applied to the second


def test_architecture_3_waives_one_block_of_your_choice_at_tikal():
    s = picked("tikal", 2, wood=1, stone=0)
    set_tech(s, 0, "architecture", 3)
    set_row(s, ["a1-t2", "a1-g3", "a1-f2", "a1-f1", "a1-f1", "a1-g2"])
    play(s, "do tikal 2")
    assert legal(s) == ["build a1-g3 waive stone", "build a1-f1 waive wood"]
    play(s, "build a1-g3 waive stone")
    assert goods(s, 0)["wood"] == 0 and s.p[0][10] == 1


def test_tikal_4_monument_instead_of_buildings():
    s = picked("tikal", 4, wood=2, stone=2, gold=2)
    set_tech(s, 0, "architecture", 3)
    set_monument_row(s, ["m05", "m13", "m01", "m02"])
    play(s, "do tikal 4")
    assert "build m05" in legal(s) and "build m13" not in legal(s)
    play(s, "build m05")
    assert goods(s, 0)["wood"] == 0 and goods(s, 0)["corn"] == 0   # no architecture
    assert s.monuments[0] == [4] and s.monument_row[0] == -1
    assert legal(s) == ["end"]


def test_monument_needing_a_skull_consumes_it():
    s = picked("tikal", 4, gold=4, skulls=1)
    set_row(s, ["a1-f1", "a1-f1", "a1-f1", "a1-f2", "a1-f2", "a1-g1"])
    set_monument_row(s, ["m13", "m01", "m02", "m03"])
    play(s, "do tikal 4")                 # the only possible construction: made at once
    assert s.monuments[0] == [12] and goods(s, 0)["skulls"] == 0 and s.monument_skulls == 1 and s.invariants() == []


def test_monument_only_at_tikal_4():
    s = picked("tikal", 2, wood=5, stone=5, gold=5)
    set_monument_row(s, ["m05", "m01", "m02", "m03"])
    play(s, "do tikal 2")
    assert not any(a.startswith("build m") for a in legal(s))
    with pytest.raises(IllegalAction) as err:
        play(s, "build m05")
    assert "Tikal action 4" in err.value.message


# --- Uxmal ---------------------------------------------------------------------------------------------
def test_uxmal_1_three_corn_one_temple_step():
    s = picked("uxmal", 1, corn=3)
    play(s, "do uxmal 1")
    assert legal(s) == ["temple chaac", "temple quetzalcoatl", "temple kukulcan"]
    play(s, "temple quetzalcoatl")
    assert goods(s, 0)["corn"] == 0 and temples(s) == [0, 1, 0]
    s = picked("uxmal", 1, corn=2)
    assert "do uxmal 1" not in legal(s)


def test_market_both_ways_one_unit_at_a_time():
    s = picked("uxmal", 2, corn=5, gold=1)
    play(s, "do uxmal 2")
    assert legal(s) == ["buy wood", "buy stone", "buy gold", "sell gold", "stop"]
    play(s, "sell gold")                   # +4 corn
    assert "buy gold" not in legal(s)      # no buying back what was sold in this market
    play(s, "buy stone", "buy stone")      # -6 corn
    assert goods(s, 0) == {"corn": 3, "wood": 0, "stone": 2, "gold": 0, "skulls": 0, "vp": 0}
    assert "sell stone" not in legal(s)
    play(s, "stop")
    assert legal(s) == ["end"]


def test_skulls_cannot_be_traded():
    s = picked("uxmal", 2, corn=1, skulls=2)
    assert "do uxmal 2" not in legal(s)     # nothing to exchange: the market is not offered
    s = picked("uxmal", 2, corn=2, skulls=2)
    play(s, "do uxmal 2")
    assert legal(s) == ["buy wood", "stop"]


def test_yaxchilan_4_not_offered_without_skulls_in_the_supply():
    s = picked("yaxchilan", 4, corn=5)
    set_goods(s, 1, skulls=13)
    assert "do yaxchilan 4" not in legal(s) and "do yaxchilan 3" in legal(s)


def test_uxmal_3_gains_a_worker_up_to_six():
    s = picked("uxmal", 3)
    play(s, "do uxmal 3")
    assert s.p[0][6] == 4 and s.p[0][7] == 4
    s = picked("uxmal", 3)
    set_workers(s, 0, 6)
    assert "do uxmal 3" not in legal(s)


def test_uxmal_4_builds_for_two_corn_per_block_with_architecture():
    s = picked("uxmal", 4, corn=6)
    set_row(s, ["a1-t1", "a1-f1", "a1-b2", "a1-f1", "a1-g4", "a1-g2"])
    play(s, "do uxmal 4")
    assert legal(s) == ["build a1-t1", "build a1-f1", "build a1-b2", "build a1-g4", "build a1-g2"]
    play(s, "build a1-t1")                 # 3 blocks = 6 corn
    assert goods(s, 0)["corn"] == 0 and temples(s) == [1, 1, 0]
    s = picked("uxmal", 4, corn=4)
    set_tech(s, 0, "architecture", 3)
    set_row(s, ["a1-t1", "a1-f1", "a1-b2", "a1-f1", "a1-g4", "a1-g2"])
    play(s, "do uxmal 4", "build a1-t1")  # 6 - 2 = 4 corn, then +1 corn, +2 VP
    assert goods(s, 0)["corn"] == 1 and goods(s, 0)["vp"] == 2


def test_uxmal_4_market_price_option():
    s = blank(2, options={"uxmal4_price": "market"})
    set_goods(s, 0, corn=8)
    put_worker(s, 0, "uxmal", 4)
    set_row(s, ["a1-t1", "a1-b1", "a1-f1", "a1-f1", "a1-g4", "a1-g2"])
    play(s, "pick uxmal 4", "do uxmal 4")
    assert "build a1-t1" in legal(s)       # 2 + 2 + 3 = 7 corn
    play(s, "build a1-t1")
    assert goods(s, 0)["corn"] == 1


def test_uxmal_5_mirror_pays_one_corn_any_action_of_four_gears():
    s = picked("uxmal", 5, corn=1)
    play(s, "do uxmal 5")
    acts = legal(s)
    assert "do palenque 1" in acts and "do yaxchilan 4" in acts and "do uxmal 3" in acts
    assert "do uxmal 2" not in acts        # nothing to exchange with 0 corn left
    assert not any("chichen" in a for a in acts) and "do uxmal 5" not in acts
    assert "do uxmal 1" not in acts        # 3 corn needed after paying 1
    play(s, "do yaxchilan 4")
    assert goods(s, 0)["skulls"] == 1 and goods(s, 0)["corn"] == 0


def test_mirror_applies_technology_bonuses():
    s = picked("uxmal", 5, corn=1)
    set_tech(s, 0, "extraction", 1)
    play(s, "do uxmal 5", "do yaxchilan 1")
    assert goods(s, 0)["wood"] == 2


def test_uxmal_5_needs_a_corn():
    s = picked("uxmal", 5, corn=0)
    assert "do uxmal 5" not in legal(s)


# --- Chichen Itza -------------------------------------------------------------------------------------
@pytest.mark.parametrize("space, vp, temple", [(1, 4, 0), (2, 5, 0), (3, 6, 0), (4, 7, 2), (5, 8, 2),
                                               (7, 10, 1)])
def test_chichen_skull_vp_and_temple(space, vp, temple):
    s = picked("chichen", space, skulls=1)
    play(s, f"do chichen {space}")
    assert goods(s, 0)["vp"] == vp and temples(s)[temple] == 1 and s.skull_slots[space] == 0
    assert goods(s, 0)["skulls"] == 0 and s.invariants() == []


@pytest.mark.parametrize("space, vp", [(6, 8), (8, 11), (9, 13)])
def test_chichen_block_of_your_choice(space, vp):
    s = picked("chichen", space, skulls=1)
    play(s, f"do chichen {space}")
    assert legal(s) == ["take wood", "take stone", "take gold"]
    play(s, "take gold")
    assert goods(s, 0)["vp"] == vp and goods(s, 0)["gold"] == 1


def test_chichen_filled_slot_and_no_skull_block_the_action():
    s = picked("chichen", 3, corn=2, skulls=1)
    place_skull(s, 1, 3)
    assert legal(s) == ["do chichen 1", "do chichen 2", "nothing"]
    s = picked("chichen", 3, corn=5)
    assert legal(s) == ["nothing"]


def test_chichen_free_choice_at_10():
    s = picked("chichen", 10, skulls=1)
    assert legal(s) == [f"do chichen {k}" for k in range(1, 10)] + ["nothing"]


def test_chichen_temple_step_wasted_but_action_still_legal():
    s = picked("chichen", 1, skulls=1)
    set_temple(s, 0, "chaac", 5)
    play(s, "do chichen 1")
    assert goods(s, 0)["vp"] == 4 and temples(s)[0] == 5


def test_theology_1_one_space_ahead_for_free():
    s = picked("chichen", 4, skulls=1)
    set_tech(s, 0, "theology", 1)
    assert "do chichen 5" in legal(s)
    play(s, "do chichen 5")
    assert goods(s, 0)["vp"] == 8 and goods(s, 0)["corn"] == 0
    s = picked("chichen", 0, skulls=1)
    set_tech(s, 0, "theology", 1)
    assert legal(s) == ["do chichen 1", "nothing"]
    s = picked("chichen", 9, skulls=1)
    set_tech(s, 0, "theology", 1)
    assert len(legal(s)) == 10              # from 9, ahead is the free choice


def test_theology_2_offering_after_a_chichen_action_may_use_the_gained_block():
    s = picked("chichen", 6, skulls=1)
    set_tech(s, 0, "theology", 2)
    play(s, "do chichen 6", "take stone")
    assert legal(s) == ["offer chaac pay stone", "offer quetzalcoatl pay stone",
                        "offer kukulcan pay stone", "stop"]
    play(s, "offer chaac pay stone")
    assert temples(s) == [1, 0, 1] and goods(s, 0)["stone"] == 0


def test_give_building_helper_keeps_invariants():
    s = blank(2)
    give_building(s, 0, "a1-f1")
    assert s.invariants() == []


def test_monument_through_the_mirror_and_free_choice():
    s = picked("uxmal", 5, corn=1, wood=2, stone=2, gold=2)
    set_row(s, ["a1-f2", "a1-f2", "a1-t2", "a1-g1", "a1-f1", "a1-f1"])
    set_monument_row(s, ["m05", "m01", "m02", "m03"])
    play(s, "do uxmal 5", "do tikal 4")
    assert "build m05" in legal(s)
    play(s, "build m05")
    assert s.monuments[0] == [4] and goods(s, 0)["corn"] == 0
    s = picked("tikal", 7, wood=2, stone=2, gold=2)
    set_monument_row(s, ["m05", "m01", "m02", "m03"])
    play(s, "do tikal 4", "build m05")
    assert s.monuments[0] == [4]

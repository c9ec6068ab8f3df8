"""Placement turns, pick-up turns, begging and the rare special case (rules 2, 9, 18)."""

import pytest

from mayagames.core import IllegalAction
from mayagames.core.conformance import fingerprint
from mayagames.tzolkin.positions import (blank, goods, legal, play, put_dummy, put_worker,
                                         set_goods, set_temple, set_tech)


def occupant(s, gear, space):
    from mayagames.tzolkin.components import GEARS
    return s.gears[GEARS.index(gear)][space]


# --- placement ------------------------------------------------------------------------
def test_placement_goes_to_lowest_free_space_and_costs_space_plus_tariff():
    s = blank(2)
    set_goods(s, 0, corn=20)
    put_worker(s, 1, "palenque", 1)       # the rulebook example: space 1 occupied
    play(s, "place palenque")             # space 0, cost 0 + 0
    assert occupant(s, "palenque", 0) == 0 and goods(s, 0)["corn"] == 20
    play(s, "place palenque")             # space 2 (1 is taken), cost 2 + 1
    assert occupant(s, "palenque", 2) == 0 and goods(s, 0)["corn"] == 17
    play(s, "place yaxchilan")            # space 0, cost 0 + 2
    assert occupant(s, "yaxchilan", 0) == 0 and goods(s, 0)["corn"] == 15


def test_rulebook_example_two_workers_cost_3_then_5():
    s = blank(2)
    set_goods(s, 0, corn=8)
    for space in range(3):
        put_dummy(s, "palenque", space)
    play(s, "place palenque")
    assert goods(s, 0)["corn"] == 5        # space 3 + 0
    play(s, "place palenque")
    assert goods(s, 0)["corn"] == 0        # space 4 + 1
    assert legal(s) == ["end"]             # a third worker is unaffordable


def test_tariff_grows_0_1_2_3_4_5():
    s = blank(2)
    set_goods(s, 0, corn=100)
    from mayagames.tzolkin.positions import set_workers
    set_workers(s, 0, 6)
    spent = []
    for gear in ("palenque", "yaxchilan", "tikal", "uxmal", "chichen", "palenque"):
        before = goods(s, 0)["corn"]
        play(s, f"place {gear}")
        spent.append(before - goods(s, 0)["corn"])
    assert spent == [0, 1, 2, 3, 4, 1 + 5]   # the sixth goes to palenque space 1


def test_cannot_place_more_than_affordable():
    s = blank(2)
    set_goods(s, 0, corn=0)
    put_worker(s, 0, "tikal", 0)
    assert "place palenque" in legal(s)
    play(s, "place palenque")
    assert legal(s) == ["end"]
    with pytest.raises(IllegalAction) as err:
        play(s, "place tikal")
    assert err.value.rule == "Placement cost"


def test_must_place_or_pick_at_least_one_and_not_both():
    s = blank(2)
    set_goods(s, 0, corn=10)
    put_worker(s, 0, "tikal", 2)
    assert "end" not in legal(s)
    with pytest.raises(IllegalAction) as err:
        play(s, "end")
    assert "at least one" in err.value.message
    play(s, "place uxmal")
    with pytest.raises(IllegalAction) as err:
        play(s, "pick tikal 2")
    assert "same turn" in err.value.message


def test_starting_player_space_costs_only_the_tariff_and_holds_one():
    s = blank(2)
    set_goods(s, 0, corn=3)
    play(s, "place palenque", "place start")
    assert s.sps == 0 and goods(s, 0)["corn"] == 2     # tariff +1
    assert "place start" not in legal(s)
    play(s, "end")
    set_goods(s, 1, corn=5)
    assert "place start" not in legal(s)
    with pytest.raises(IllegalAction) as err:
        play(s, "place start")
    assert "already holds" in err.value.message


def test_full_gear_cannot_take_workers():
    s = blank(2)
    set_goods(s, 0, corn=20)
    for space in range(8):
        put_dummy(s, "tikal", space)
    assert "place tikal" not in legal(s)
    with pytest.raises(IllegalAction) as err:
        play(s, "place tikal")
    assert "no free space" in err.value.message


def test_illegal_action_changes_nothing():
    s = blank(3)
    set_goods(s, 0, corn=1)
    before = fingerprint(s)
    for text in ("place chichen 3", "pick tikal 4", "do tikal 2", "build a1-f1", "end"):
        try:
            play(s, text)
        except Exception:
            pass
    assert fingerprint(s) == before


# --- pick-up ------------------------------------------------------------------------------
def test_pick_up_own_lower_free_choice_and_nothing():
    s = blank(2)
    set_goods(s, 0, corn=10)
    put_worker(s, 0, "yaxchilan", 3)
    put_worker(s, 0, "yaxchilan", 6)
    put_worker(s, 0, "palenque", 0)
    assert legal(s)[-3:] == ["pick palenque 0", "pick yaxchilan 3", "pick yaxchilan 6"]
    play(s, "pick yaxchilan 3")
    assert legal(s) == ["do yaxchilan 1", "do yaxchilan 2", "do yaxchilan 3", "nothing"]
    play(s, "do yaxchilan 1")             # two steps back: 2 corn
    assert goods(s, 0)["corn"] == 8 and goods(s, 0)["wood"] == 1
    play(s, "pick yaxchilan 6")           # free choice: any action, no payment
    assert legal(s) == [f"do yaxchilan {k}" for k in range(1, 6)] + ["nothing"]
    play(s, "do yaxchilan 5")
    assert goods(s, 0) == {"corn": 10, "wood": 1, "stone": 1, "gold": 1, "skulls": 0, "vp": 0}
    play(s, "pick palenque 0")
    assert legal(s) == ["nothing"]        # space 0 has no action
    play(s, "nothing", "end")
    assert s.cur == 1 and s.p[0][8] == 0 and s.p[0][7] == 3


def test_lower_action_allowed_even_if_that_space_is_occupied():
    s = blank(2)
    set_goods(s, 0, corn=5)
    put_worker(s, 1, "palenque", 1)
    put_worker(s, 0, "palenque", 2)
    play(s, "pick palenque 2", "do palenque 1")
    assert goods(s, 0)["corn"] == 5 - 1 + 3


def test_cannot_step_back_without_the_corn():
    s = blank(2)
    set_goods(s, 0, corn=1)
    put_worker(s, 0, "yaxchilan", 4)
    play(s, "pick yaxchilan 4")
    assert legal(s) == ["do yaxchilan 3", "do yaxchilan 4", "nothing"]
    with pytest.raises(IllegalAction) as err:
        play(s, "do yaxchilan 1")
    assert "3 corn" in err.value.message


def test_pick_up_order_is_free_and_end_is_explicit():
    s = blank(2)
    set_goods(s, 0, corn=0)
    put_worker(s, 0, "palenque", 1)
    put_worker(s, 0, "yaxchilan", 1)
    play(s, "pick yaxchilan 1", "do yaxchilan 1")
    assert legal(s) == ["pick palenque 1", "end"]
    play(s, "end")
    assert s.cur == 1 and occupant(s, "palenque", 1) == 0


# --- begging and the rare special case -------------------------------------------------------
def test_begging_resets_corn_to_3_and_angers_the_gods():
    s = blank(2)
    set_goods(s, 0, corn=2)
    set_temple(s, 0, "kukulcan", 2)
    assert legal(s)[:3] == ["beg chaac", "beg quetzalcoatl", "beg kukulcan"]
    play(s, "beg kukulcan")
    assert goods(s, 0)["corn"] == 3 and s.p[0][15] == 1
    assert not any(a.startswith("beg") for a in legal(s))   # once, at the start of the turn


def test_begging_needs_two_corn_or_less_and_a_temple_above_the_bottom():
    s = blank(2)
    set_goods(s, 0, corn=3)
    assert not any(a.startswith("beg") for a in legal(s))
    with pytest.raises(IllegalAction) as err:
        play(s, "beg chaac")
    assert "2 or fewer" in err.value.message
    set_goods(s, 0, corn=1)
    set_temple(s, 0, "chaac", -1)
    assert [a for a in legal(s) if a.startswith("beg")] == ["beg quetzalcoatl", "beg kukulcan"]


def test_begging_is_mandatory_without_workers_on_gears_and_unaffordable_placement():
    s = blank(2)
    set_goods(s, 0, corn=0)
    for gear in ("palenque", "yaxchilan", "tikal", "uxmal", "chichen"):
        put_dummy(s, gear, 0)
    put_worker(s, 1, "palenque", 1)
    from mayagames.tzolkin.positions import put_start_worker
    put_start_worker(s, 1)
    assert legal(s) == ["beg chaac", "beg quetzalcoatl", "beg kukulcan"]
    play(s, "beg chaac")
    assert "place yaxchilan" in legal(s) and "place palenque" in legal(s)


def test_rare_special_case_places_exactly_one_worker_on_a_cheapest_space():
    s = blank(2)
    set_goods(s, 0, corn=1)
    for t in ("chaac", "quetzalcoatl", "kukulcan"):
        set_temple(s, 0, t, -1)
    for gear in ("palenque", "yaxchilan", "tikal", "uxmal", "chichen"):
        for space in range(2):
            put_dummy(s, gear, space)
    put_dummy(s, "chichen", 2)
    put_dummy(s, "tikal", 2)
    from mayagames.tzolkin.positions import put_start_worker
    put_start_worker(s, 1)
    # cheapest spaces cost 2 > 1 corn; cannot beg (bottom of every temple)
    assert legal(s) == ["place palenque", "place yaxchilan", "place uxmal"]
    play(s, "place uxmal")
    assert occupant(s, "uxmal", 2) == 0 and goods(s, 0)["corn"] == 0   # all corn to the bank
    assert legal(s) == ["end"]
    with pytest.raises(IllegalAction) as err:
        play(s, "place palenque")
    assert err.value.rule == "Rare special case"


def test_special_case_after_begging_when_still_unaffordable():
    s = blank(2)
    set_goods(s, 0, corn=0)
    for gear in ("palenque", "yaxchilan", "tikal", "uxmal", "chichen"):
        for space in range(4):
            put_dummy(s, gear, space)
    from mayagames.tzolkin.positions import put_start_worker
    put_start_worker(s, 1)
    play(s, "beg chaac")                   # 3 corn, but every free space costs 4
    assert legal(s) == ["place palenque", "place yaxchilan", "place tikal", "place uxmal",
                        "place chichen"]
    play(s, "place chichen")
    assert goods(s, 0)["corn"] == 0 and legal(s) == ["end"]


def test_theology_level_does_not_change_placement():
    s = blank(2)
    set_tech(s, 0, "theology", 3)
    set_goods(s, 0, corn=0)
    assert "place chichen" in legal(s)

"""``explain_illegal`` names the rule and the concrete reason for typical illegal inputs,
and a rejected action changes nothing."""

import pytest

from mayagames.core import IllegalAction
from mayagames.core.conformance import fingerprint
from mayagames.tzolkin.components import GEARS
from mayagames.tzolkin.positions import (blank, legal, place_skull, play, put_dummy,
                                         put_start_worker, put_worker, set_goods, set_row,
                                         set_tech, set_temple, set_workers)


def rejected(s, text):
    """The IllegalAction raised by ``text``; the state must be unchanged."""
    before = fingerprint(s)
    with pytest.raises(IllegalAction) as err:
        play(s, text)
    assert fingerprint(s) == before
    return err.value.rule, err.value.message


def picked(gear, space, **goods):
    s = blank(2)
    set_goods(s, 0, **goods)
    put_worker(s, 0, gear, space)
    play(s, f"pick {gear} {space}")
    return s


def test_placing_with_too_little_corn_names_the_cost():
    s = blank(2)
    set_goods(s, 0, corn=0)
    play(s, "place tikal")
    assert rejected(s, "place tikal") == ("Placement cost",
                                          "space 1 of tikal costs 2 corn (1 + tariff 1); you have 0")
    assert rejected(s, "place start") == ("Placement cost", "this worker's tariff is 1 corn; you have 0")


def test_placing_when_begging_is_required():
    s = blank(2)
    set_goods(s, 0, corn=0)
    for gear in GEARS:
        put_dummy(s, gear, 0)
    put_start_worker(s, 1)
    rule, message = rejected(s, "place tikal")
    assert rule == "Begging for corn" and "must beg" in message
    assert rejected(s, "end")[0] == "Begging for corn"


def test_rare_special_case_is_named_for_a_costlier_space():
    s = blank(2)
    set_goods(s, 0, corn=1)
    for t in ("chaac", "quetzalcoatl", "kukulcan"):
        set_temple(s, 0, t, -1)
    for gear in GEARS:
        put_dummy(s, gear, 0)
        put_dummy(s, gear, 1)
    put_dummy(s, "tikal", 2)
    put_start_worker(s, 1)
    assert "place tikal" not in legal(s)
    rule, message = rejected(s, "place tikal")
    assert rule == "Rare special case"
    assert "palenque 2" in message and "tikal" not in message.split("(")[1]
    play(s, "place uxmal")
    assert rejected(s, "place palenque") == ("Rare special case", "you may place exactly 1 worker")


def test_picking_up_a_worker_that_is_not_yours():
    s = blank(2)
    set_goods(s, 0, corn=5)
    put_worker(s, 1, "tikal", 3)
    put_worker(s, 0, "tikal", 1)
    put_dummy(s, "palenque", 2)
    assert rejected(s, "pick tikal 3") == (
        "Picking up workers", "the worker on tikal space 3 belongs to P1; you may only pick up your own")
    assert "a dummy worker" in rejected(s, "pick palenque 2")[1]
    assert rejected(s, "pick uxmal 4")[1] == "there is no worker on uxmal space 4"
    assert rejected(s, "pick tikal 9")[1] == "tikal has no space 9"
    play(s, "place uxmal")
    assert rejected(s, "pick tikal 1")[1] == "you cannot place and pick up workers in the same turn"


def test_begging_explanations():
    s = blank(2)
    set_goods(s, 0, corn=3)
    assert rejected(s, "beg chaac") == ("Begging for corn", "you have 3 corn; begging needs 2 or fewer")
    set_goods(s, 0, corn=2)
    set_temple(s, 0, "kukulcan", -1)
    assert rejected(s, "beg kukulcan")[0] == "Angering the gods"
    play(s, "beg chaac")
    assert "only once" in rejected(s, "beg quetzalcoatl")[1]


def test_actions_the_picked_worker_cannot_perform():
    s = picked("tikal", 2, corn=1)
    assert legal(s) == ["nothing"]
    assert rejected(s, "do tikal 2") == ("Buildings", "no building on offer that you can pay for "
                                                      "(0 wood, 0 stone, 0 gold)")
    assert rejected(s, "do tikal 1") == ("Technology cost", "the cheapest advance costs 1 block(s); you have 0")
    assert "1 corn per step" in rejected(s, "do tikal 4")[1]
    assert "only its actions" in rejected(s, "do palenque 1")[1]
    assert rejected(s, "end")[1] == "first choose the picked worker's action (or 'nothing')"
    s = picked("uxmal", 3, corn=0)
    set_workers(s, 0, 6)
    assert rejected(s, "do uxmal 1") == ("Picking up workers", "stepping back to 1 costs 2 corn; you have 0")
    assert "6 workers" in rejected(s, "do uxmal 3")[1]
    s = picked("chichen", 3, corn=2)
    assert rejected(s, "do chichen 3")[1] == "you need a crystal skull to leave on Chichen Itza"
    s = picked("chichen", 3, corn=2, skulls=1)
    place_skull(s, 1, 2)
    assert rejected(s, "do chichen 2") == ("Chichen Itza 2", "its skull slot is already filled by P1")


def test_building_without_the_resources_names_the_cost():
    s = picked("tikal", 4, wood=2, gold=1)
    set_row(s, ["a1-t1", "a1-g1", "a1-f1", "a1-b1", "a1-t2", "a1-g2"])
    play(s, "do tikal 4")
    assert rejected(s, "build a1-t1") == ("Buildings", "a1-t1 costs 2 wood + 1 stone; you have 2 wood, "
                                                       "0 stone, 1 gold")
    assert rejected(s, "build a2-t1") == ("Buildings", "a2-t1 is not on offer")
    assert rejected(s, "build a1-g1 waive wood")[0] == "Architecture"
    m = s.monument_row[0]
    from mayagames.tzolkin.components import DATA
    mon = DATA.monuments[m].id
    rule, message = rejected(s, f"build {mon}")
    assert rule == "Monuments" and message.startswith(f"{mon} costs ") and "0 skull(s)" in message
    play(s, "build a1-g1")
    assert "Tikal action 4" in rejected(s, f"build {mon}")[1]
    assert rejected(s, "build a1-b1 noarch") == (
        "Architecture", "only the first building of Tikal 4 may keep architecture for the second")


def test_technology_payment_explanations():
    s = picked("tikal", 1, wood=1, stone=1)
    set_tech(s, 0, "agriculture", 1)
    set_tech(s, 0, "theology", 2)
    play(s, "do tikal 1")
    assert "tech agriculture" in legal(s)
    assert rejected(s, "tech theology") == ("Technology cost", "theology level 3 costs 3 block(s); you have 2")



def test_paying_with_a_missing_block():
    s = picked("tikal", 1, wood=1, stone=2)
    set_tech(s, 0, "theology", 1)
    play(s, "do tikal 1", "tech theology")
    assert rejected(s, "pay gold") == ("Technology cost", "you have no gold to pay with")
    assert rejected(s, "stop")[1].startswith("this choice cannot be skipped")


def test_market_explanations():
    s = picked("uxmal", 2, corn=3, wood=1)
    play(s, "do uxmal 2")
    assert rejected(s, "buy gold") == ("Uxmal 2: market", "gold costs 4 corn; you have 3")
    assert rejected(s, "sell stone") == ("Uxmal 2: market", "you have no stone to sell")
    play(s, "sell wood")
    assert "selling it back" not in rejected(s, "buy wood")[1]
    assert "buying it back" in rejected(s, "buy wood")[1]


def test_mirror_explanations():
    s = picked("uxmal", 5, corn=1)
    play(s, "do uxmal 5")
    assert "not Chichen Itza" in rejected(s, "do chichen 3")[1]
    assert "not Chichen Itza" in rejected(s, "do uxmal 5")[1]
    assert rejected(s, "do uxmal 1") == ("Uxmal 1", "a temple step costs 3 corn; you have 0")
    assert rejected(s, "do tikal 5") == ("Tikal 5", "you need 1 resource block to pay")


def test_temple_explanations():
    s = picked("uxmal", 1, corn=3)
    set_temple(s, 1, "chaac", 5)
    set_temple(s, 0, "chaac", 4)
    play(s, "do uxmal 1")
    assert rejected(s, "temple chaac") == ("Temples", "you cannot climb chaac: its top step is held by "
                                                      "another player")
    s = picked("tikal", 5, wood=1)
    play(s, "do tikal 5")
    assert rejected(s, "temples chaac kukulcan pay gold") == ("Tikal 5", "you have no gold to pay with")


def test_harvest_and_burn_explanations():
    s = picked("palenque", 4)
    for t in ("chaac", "quetzalcoatl", "kukulcan"):
        set_temple(s, 0, t, -1)
    s.jwood[4] = 1                          # one field cleared (its wood went to seat 1)
    s.p[1][18] = 1
    play(s, "do palenque 4")
    assert legal(s) == ["harvest corn", "harvest wood"]
    assert rejected(s, "burn") == ("Burn the forest", "you are on the bottom step of every temple "
                                                      "and cannot anger the gods")
    s = picked("palenque", 4, corn=1)
    play(s, "do palenque 4")
    assert legal(s) == ["harvest wood", "burn"]
    rule, message = rejected(s, "harvest corn")
    assert rule == "Palenque 4" and "Agriculture 2" in message


def test_wrong_kind_of_action_names_the_pending_decision():
    s = picked("tikal", 1, wood=2)
    play(s, "do tikal 1")
    assert rejected(s, "place tikal") == ("Technologies", "not now; choose a technology (or stop)")


def test_refusals_agree_with_the_legal_actions_over_the_whole_action_space():
    """Legality is written once: in positions of seeded random games (every kind of
    decision frame shows up), an action of the action space is refused by the pending
    frame exactly when it is not among the legal actions."""
    from mayagames.core import new_game
    from mayagames.core.rng import Rng
    from mayagames.tzolkin.encoding import TzolkinCodec

    space = TzolkinCodec(2).enumerate_actions()
    seen_kinds = set()
    for seed in range(3):
        s, rng, step = new_game("tzolkin", 2 + seed, seed), Rng(seed), 0
        while not s.is_terminal:
            if step % 4 == 0 or s.stack[-1].kind not in ("turn", "placing", "picking"):
                frame = s.stack[-1]
                seen_kinds.add(frame.kind)
                legal_now = set(s.legal_actions())
                for a in space:
                    refused = frame.refusal(s, a)
                    assert (refused is None) == (a in legal_now), (frame, str(a), refused)
            legal_now = s.legal_actions()
            s.apply(legal_now[rng.randbelow(len(legal_now))])
            step += 1
    assert {"draft", "turn", "placing", "picking", "choose action", "build", "technology"} <= seen_kinds

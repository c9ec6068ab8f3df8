"""Illegal actions name the rule and say why; the state is unchanged."""

import pytest

from mayagames.core import IllegalAction
from mayagames.core.conformance import fingerprint
from mayagames.tikal.testing import action_phase, ap_turn, fresh, give_card, play, put


def rejected(s, text):
    before = fingerprint(s)
    with pytest.raises(IllegalAction) as err:
        s.apply(s.parse_action(text))
    assert fingerprint(s) == before
    return err.value


def test_round_management_messages():
    s = fresh(2, seed=1)
    e = rejected(s, "activate")
    assert e.rule == "Tikal 4: Round Management" and "take statuette N" in e.message
    e = rejected(s, "take tile e5")
    assert "not on offer" in e.message
    e = rejected(s, "take card nothing")
    assert "no card 'nothing' on display" in e.message


def test_turn_messages():
    s = action_phase(fresh(2), 0)
    assert "activating your AP token" in rejected(s, "deploy explorer e4").message
    assert rejected(s, "keep dig-1").rule == "Tikal 5.1: Move an action card"
    assert "is not on your campsite" in rejected(s, "place B-3").message
    give_card(s, 0, "ap-1", kept=True)
    play(s, "use kept ap-1", "end")
    assert "already used this round" in rejected(s, "use kept ap-1").message
    e = rejected(s, "take ap 9")
    assert "Round Management is over" in e.message


def test_sub_decision_messages():
    s = fresh(2)
    ap_turn(s, 0, 3)
    play(s, "stone")
    e = rejected(s, "end")
    assert "choose the hex whose edge gets the Trail Stone" in e.message
    e = rejected(s, "at zz9")
    assert "no hex 'zz9'" in e.message


def test_unknown_hex_in_an_ap_action():
    s = fresh(2)
    put(s, 0, "e4", explorers=1)
    ap_turn(s, 0, 3)
    assert "no hex 'q99'" in rejected(s, "move explorer e4 q99").message
    assert "not adjacent" in rejected(s, "move explorer e4 a1").message


def test_game_over_message():
    s = fresh(2)
    s.phase = 3
    with pytest.raises(IllegalAction, match="game is over"):
        s.apply(s.parse_action("pass"))


@pytest.mark.parametrize("text", ["at e4", "side ne", "rotate 2", "choose both", "token e4 ne", "discard ap-1",
                                  "give mask", "take red mask 1"])
def test_an_answer_without_a_question_says_so(text):
    s = action_phase(fresh(2), 0)
    e = rejected(s, text)
    assert e.rule == "Tikal 5: Action phase" and "no question is open" in e.message


@pytest.mark.parametrize("setup,text,rule,words", [
    ("ap", "clear e5", "Tikal 6: Clear a Temple Floor", "EMs at the temple"),
    ("ap", "unearth b5", "Tikal 6: Unearth a Treasure", "EMs on the Ruin"),
    ("ap", "guardian e5 explorer", "Tikal 6: Place a Guardian", "majority presence"),
    ("ap", "camp e4", "Tikal 6: Set up a Base Camp", "not a Clearing"),
    ("ap", "deploy leader d4", "Tikal 6: Deploy a new EM", "Common Base Camp or one of your Base Camps"),
    ("ap", "recruit leader", "Tikal 6: Add to Available Supply", "costs 5 AP; you have 3"),
    ("ap", "trade", "Tikal 6: Trade Treasures", "hold at least as many"),
    ("ap", "use ap-2", "Tikal 5: permanent cards", "no face-up ap-2"),
    ("ap", "place A-1", "Tikal 6: AP actions", "spend your AP"),
    ("turn", "play dig-1", "Tikal 5.2: Play an action card", "no card 'dig-1' on the right"),
    ("turn", "power fisher", "Tikal 9: Museum Director", "powers are"),
    ("turn", "take card dig-1", "Tikal 5: Action phase", "Round Management is over"),
    ("rm", "take statuette 9", "Tikal 4: Round Management", "not free"),
    ("rm", "place A-1", "Tikal 4: Round Management", "takes one item"),
])
def test_typical_illegal_inputs_name_their_rule(setup, text, rule, words):
    s = fresh(2)
    if setup == "ap":
        ap_turn(s, 0, 3)
    elif setup == "turn":
        action_phase(s, 0)
        s.director[0] = 1
    e = rejected(s, text)
    assert e.rule == rule and words in e.message, (e.rule, e.message)


def test_a_wrong_answer_inside_a_power_or_card_names_that_rule():
    s = action_phase(fresh(2), 0)
    s.director[0] = 0  # Dominga Garcia: the Tracker
    put(s, 0, "e4", explorers=1)
    play(s, "power tracker")
    e = rejected(s, "move explorer e4 f4")
    assert e.rule == "Tikal 9: Tracker" and "adjacent terrain tile" in e.message
    s = action_phase(fresh(2), 0)
    give_card(s, 0, "temple-base")
    play(s, "play temple-base")
    e = rejected(s, "at f4")
    assert e.rule == "Tikal 10: action card (Explorers to Temples)" and "Temple" in e.message

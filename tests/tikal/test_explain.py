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
    assert "is not on your campsite" in rejected(s, "place b3").message
    give_card(s, 0, "ap-1")
    play(s, "use ap-1", "end")
    assert "already used this round" in rejected(s, "use ap-1").message
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

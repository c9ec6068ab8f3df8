"""Notation: lowercase words that round-trip; bad text is a NotationError; actions are data."""

import pytest

from mayagames.core import NotationError
from mayagames.core.game import action_to_dict
from mayagames.tikal import actions as A
from mayagames.tikal.actions import parse_action

SAMPLES = ["take statuette 2", "take ap 9", "take tile b3", "take card dig-2", "keep camp-em", "discard ap-2",
           "play recruit", "play kept temple-t1", "use ap-1", "use kept ap-2", "activate", "place a4",
           "power scout", "pass", "at e4", "side nw", "rotate 5", "choose both", "end",
           "deploy leader e4", "move explorer e4 d4", "transfer leader e4 f2", "camp d4", "camp c4 from d4",
           "stone", "token d3 se", "recruit explorer", "clear e3", "guardian e5 leader", "unearth b5",
           "trade", "take blue lion 2", "give mask"]


@pytest.mark.parametrize("text", SAMPLES)
def test_round_trip(text):
    action = parse_action(text)
    assert str(action) == text and parse_action(str(action)) == action
    assert parse_action(text.upper()) == action and parse_action(f"  {text}  ") == action


@pytest.mark.parametrize("text", ["", "fly", "move wizard e4 d4", "take purple lion 1", "side north",
                                  "rotate x", "play kept", "camp c4 to d4", "take ap", "deploy e4"])
def test_bad_notation(text):
    with pytest.raises(NotationError):
        parse_action(text)


def test_actions_are_frozen_slotted_dataclasses_with_fields_for_clients():
    move = parse_action("move explorer e4 d4")
    assert action_to_dict(move) == {"kind": "Move", "figure": "explorer", "from_hex": "e4", "to_hex": "d4",
                                    "text": "move explorer e4 d4"}
    assert action_to_dict(parse_action("at c3"))["hex"] == "c3"
    with pytest.raises(AttributeError):
        move.figure = "leader"
    assert not hasattr(move, "__dict__")
    assert parse_action("move explorer e4 d4") is A.make(A.Move, "explorer", "e4", "d4")  # interned

"""Action notation: every action round-trips; bad text is a clear NotationError."""

import pytest

from mayagames.core import NotationError
from mayagames.core.game import action_to_dict
from mayagames.tzolkin import actions as A
from mayagames.tzolkin.actions import parse_action
from mayagames.tzolkin.rules import BUILD_MON, build_action
from mayagames.tzolkin.components import DATA


def every_action():
    out = [A.PLACE_START, A.NOTHING, A.STOP, A.END, *A.PLACE, *A.HARVEST, *A.BEG, *A.ANGER,
           *A.TEMPLE, *A.TWO_TEMPLES.values(), *A.TECH, *A.PAY, *A.TAKE, *A.BUY, *A.SELL,
           *A.ADVANCE, *BUILD_MON, A.Keep("w01", "w21")]
    out += [p for row in A.PICK for p in row] + [d for row in A.DO for d in row]
    out += [o for row in A.OFFER for o in row]
    for t in range(len(DATA.buildings)):
        out += [build_action(t), build_action(t, 0), build_action(t, 2), build_action(t, -1, False)]
    return out


def test_every_action_round_trips():
    acts = every_action()
    assert len(set(map(str, acts))) == len(acts)       # notations are unique
    for a in acts:
        assert parse_action(str(a)) == a
        assert parse_action(str(a).upper().replace(" ", "  ")) == a


def test_actions_are_frozen_slotted_dataclasses_for_clients():
    d = action_to_dict(A.Pick("tikal", 4))
    assert d == {"kind": "Pick", "gear": "tikal", "space": 4, "text": "pick tikal 4"}
    assert action_to_dict(A.Build("a1-t1", "wood"))["building"] == "a1-t1"
    with pytest.raises(Exception):
        A.Pick("tikal", 4).space = 3


@pytest.mark.parametrize("text, message", [
    ("fly tikal", "not a Tzolk'in action"),
    ("place atlantis", "unknown gear 'atlantis'"),
    ("pick tikal 11", "no space 11"),
    ("do chichen 10", "no space 10"),
    ("beg zeus", "unknown temple"),
    ("temples kukulcan chaac pay wood", "two different temples"),
    ("keep w07 w03", "increasing order"),
    ("keep w01 w99", "unknown starting tile"),
    ("build a1-z9", "unknown building"),
    ("build m14", "unknown monument"),
    ("buy skull", "unknown resource"),
    ("", "not a Tzolk'in action"),
])
def test_bad_notation(text, message):
    with pytest.raises(NotationError, match=message):
        parse_action(text)

"""Typed sub-decisions and legality written once (issue 15 items 1, 2 and 7)."""

import pytest

from mayagames.core import IllegalAction
from mayagames.core.frames import SubDecision
from mayagames.core.rng import Rng
from mayagames.tikal import positions, testing
from mayagames.tikal.engine import turn_refusal
from mayagames.tikal.frames import FRAME_CLASSES
from mayagames.tikal.positions import action_phase, ap_turn, fresh, play, put
from mayagames.tikal.flow import ApTurn, ap_refusal, rm_refusal


def test_every_frame_kind_is_a_typed_sub_decision_with_named_fields():
    assert len(FRAME_CLASSES) == 16
    for kind, cls in FRAME_CLASSES.items():
        assert issubclass(cls, SubDecision) and cls.kind == kind
        fields = {n for k in cls.__mro__ for n in getattr(k, "__slots__", ())}
        assert "seat" in fields and not fields & {"a", "b"}, (kind, fields)
        for method in ("legal_actions", "apply", "why_illegal"):
            assert callable(getattr(cls, method))


def test_the_old_helper_module_re_exports_every_position_helper():
    assert positions.__all__ and testing.__all__ == positions.__all__
    for name in positions.__all__:
        assert getattr(testing, name) is getattr(positions, name)


def test_a_frame_copy_owns_its_tallies():
    s = fresh(2)
    put(s, 0, "e3", explorers=2)
    f = ap_turn(s, 0, 3)
    f.counts[5] = 1
    c = f.copy()
    c.counts[5] = 2
    assert f.counts == {5: 1} and c.points == 3 and c.ctx == "token" and c is not f


def _positions(games: int = 3):
    """Every position of a few seeded random games."""
    for seed in range(games):
        s, rng = fresh(2, seed=seed), Rng(seed)
        while not s.is_terminal:
            yield s
            legal = s.legal_actions()
            s.apply(legal[rng.randbelow(len(legal))])


def test_legal_exactly_when_no_check_refuses():
    """The lists of legal actions and the refusals come from the same checks: an action is
    legal exactly when no check refuses it (Round Management, a turn, an AP turn), tried
    with every action that was legal somewhere in the games."""
    seen: dict[str, set] = {"rm": set(), "turn": set(), "ap": set()}
    states = []
    for s in _positions():
        f = s.pending
        where = "ap" if isinstance(f, ApTurn) else None if f else ("rm" if s.phase == 0 else "turn")
        if where:
            seen[where].update(s.legal_actions())
            states.append((where, s.clone()))
    checked = 0
    for where, s in states[::7]:
        legal = set(s.legal_actions())
        for a in seen[where] | seen["turn"]:
            try:
                if where == "ap":
                    refusal = ap_refusal(s, s.pending, a)
                else:
                    refusal = rm_refusal(s, a) if where == "rm" else turn_refusal(s, a)
            except IllegalAction:  # a hex of another board: not a legal action either
                refusal = ("site board", "")
            assert (a in legal) == (refusal is None), (where, str(a), refusal)
            checked += 1
    assert checked > 1000


def test_yes_no_site_checks_agree_with_the_refusals():
    """The AP turn lists temple and ruin actions by yes/no checks that write no message
    (issue 16); each agrees with the refusal it stands for, on every site, seat and tally."""
    from mayagames.tikal.model import RUINS, TEMPLE
    from mayagames.tikal.flow import (clear_ok, clear_refusal, guardian_ok, guardian_refusal, unearth_ok,
                                       unearth_refusal)
    checked, seen = 0, set()
    for i, s in enumerate(_positions(2)):
        if i % 5:
            continue
        for seat in range(s.num_players):
            for h in s.hexes_by_kind[TEMPLE]:
                assert guardian_ok(s, seat, h) == (guardian_refusal(s, seat, h) is None)
                seen.add(("guardian", guardian_ok(s, seat, h)))
                for done in range(3):
                    assert clear_ok(s, seat, h, done) == (clear_refusal(s, seat, h, done) is None)
                    seen.add(("clear", clear_ok(s, seat, h, done)))
                    checked += 1
            for h in s.hexes_by_kind[RUINS]:
                for done in range(3):
                    assert unearth_ok(s, seat, h, done) == (unearth_refusal(s, seat, h, done) is None)
                    seen.add(("unearth", unearth_ok(s, seat, h, done)))
                    checked += 1
    assert checked > 1000 and len(seen) == 6  # each check both allowed and refused somewhere


@pytest.mark.parametrize("text,rule,words", [
    ("move explorer e4 e3", "Tikal 6: Move an EM", "crossing costs"),
    ("transfer explorer e4 e3", "Tikal 6: Move an EM between Base Camps", "only between"),
    ("camp e4 from d4", "Tikal 6: Set up a Base Camp", "not a Clearing"),
    ("stone", "Tikal 9: Scout", "only move"),
])
def test_an_ap_refusal_is_the_first_check_that_fails(text, rule, words):
    s = action_phase(fresh(2), 0)
    put(s, 0, "e4", explorers=1)
    ap_turn(s, 0, 0 if text.startswith("move") else 5, ctx="scout" if text == "stone" else "token")
    with pytest.raises(IllegalAction) as err:
        play(s, text)
    assert err.value.rule == rule and words in err.value.message, (err.value.rule, err.value.message)


def test_the_hex_index_follows_the_board_when_a_scenario_writes_kind_and_refreshes():
    """The engine keeps the hexes-by-kind index true through its own writes (a tile laid);
    a scenario that writes ``kind`` directly calls ``refresh`` (the invariants say so if not)."""
    from mayagames.tikal.model import JUNGLE, LAKE
    from mayagames.tikal.positions import refresh
    s = fresh(2)
    h = s.hexes_by_kind[JUNGLE][0]
    s.legal_actions()
    s.kind[h] = LAKE  # a scenario may write the board directly, then refresh
    assert any("hexes-by-kind index" in p for p in s.invariants())
    refresh(s)
    s.legal_actions()
    assert h in s.hexes_by_kind[LAKE] and h not in s.hexes_by_kind[JUNGLE]
    assert [sorted(x) for x in s.hexes_by_kind] == [
        [g for g in range(s.H) if s.kind[g] == k] for k in range(len(s.hexes_by_kind))]
    assert s.invariants() == []
    c = s.clone()
    c.kind[h] = JUNGLE
    c.refresh()
    assert h in c.hexes_by_kind[JUNGLE] and h in s.hexes_by_kind[LAKE]  # the copy's index is its own


def test_round_management_and_the_turn_step_are_frames_kept_off_the_stack():
    """With the stack empty, the phase's frame decides (issue 25 item 1): Round Management
    and the action phase's turn step answer ``legal_actions``, ``apply`` and ``why_illegal``
    like any frame, and are never pushed, so what the stack shows is unchanged."""
    from mayagames.tikal.engine import PHASE_FRAMES, ActionTurn
    from mayagames.tikal.flow import RoundManagement
    from mayagames.tikal.model import ACTION, OVER, ROUND_MANAGEMENT

    s, rng, seen = fresh(2, seed=4), Rng(4), set()
    while s.current_player is not None:
        frame = s.deciding_frame()
        assert not any(f in PHASE_FRAMES for f in s.stack)
        if s.stack:
            assert frame is s.stack[-1]
        else:
            assert type(frame) is {ROUND_MANAGEMENT: RoundManagement, ACTION: ActionTurn}[s.phase]
            assert frame.legal_actions(s) == s.legal_actions()
            seen.add(s.phase)
            wrong = next(a for a in FRAME_SAMPLES if a not in s.legal_actions())
            assert frame.why_illegal(s, wrong).rule == s.explain_illegal(wrong).rule
        legal = s.legal_actions()
        s.apply(legal[rng.randbelow(len(legal))])
    assert seen == {ROUND_MANAGEMENT, ACTION} and s.phase == OVER and s.legal_actions() == []
    assert s.explain_illegal(FRAME_SAMPLES[0]).message == "the game is over"


FRAME_SAMPLES = [testing.fresh(2).parse_action(text) for text in ("pass", "take statuette 1", "end")]

"""Rule 6: the AP actions, their costs and limits, and movement across Trail Stones."""

import pytest

from mayagames.core import IllegalAction
from mayagames.tikal.testing import (ap_turn, edge_cost, fresh, give_camp, give_treasures, hx, lay_tile,
                                     legal_texts, play, print_stones, put, raise_temple, strip_board)

# Around the Common Base Camp e4: ne d4 (Clearing), e e5 (Temple), se f4, sw f3, w e3 (Temple), nw d3.


def points(s):
    return s.pending.points


# --- movement ---------------------------------------------------------------------------------
def test_edge_cost_adds_both_printed_sides_and_tokens():
    s = strip_board(fresh(2))
    print_stones(s, "e4", [0, 0, 2, 0, 0, 0])  # se side, towards f4
    assert edge_cost(s, "e4", "f4") == 2
    print_stones(s, "f4", [0, 0, 0, 0, 0, 3])  # f4's nw side faces e4
    assert edge_cost(s, "e4", "f4") == 5
    ap_turn(s, 0, 10)
    play(s, "stone", "at f4", "side nw")
    assert edge_cost(s, "e4", "f4") == 6
    assert s.stone_supply == 1 and points(s) == 7


def test_move_costs_one_ap_per_stone_and_needs_a_stone():
    s = strip_board(fresh(2))
    print_stones(s, "e4", [0, 0, 2, 0, 0, 0])
    put(s, 0, "e4", explorers=1, leaders=1)
    ap_turn(s, 0, 3)
    moves = [t for t in legal_texts(s) if t.startswith("move")]
    assert moves == ["move explorer e4 f4", "move leader e4 f4"]  # no stone toward d3, e3, ...
    play(s, "move leader e4 f4")
    assert points(s) == 1 and s.leaders[hx(s, "f4")] == 1
    # back costs 2 as well; only 1 AP left
    assert "move leader f4 e4" not in legal_texts(s)
    with pytest.raises(IllegalAction, match="crossing costs 2 AP; you have 1"):
        play(s, "move leader f4 e4")


def test_no_stone_means_no_passage_with_a_clear_error():
    s = strip_board(fresh(2))
    put(s, 0, "e4", explorers=1)
    ap_turn(s, 0, 10)
    with pytest.raises(IllegalAction) as err:
        play(s, "move explorer e4 d3")
    assert err.value.rule == "Tikal 6: Move an EM" and "no passage" in err.value.message


def test_jungle_to_jungle_needs_a_token():
    s = strip_board(fresh(2))
    put(s, 0, "f4", explorers=1)  # f4 and g4 are Jungle: no printed stones at all
    ap_turn(s, 0, 10)
    assert not any(t.startswith("move") for t in legal_texts(s))
    play(s, "stone", "at f4", "side se")
    south_east = s.hex_name(s.C.board.neighbour[hx(s, "f4") * 6 + 2])
    assert f"move explorer f4 {south_east}" in legal_texts(s)
    assert edge_cost(s, "f4", south_east) == 1


def test_any_tile_type_may_be_entered():
    s = strip_board(fresh(2))
    lay_tile(s, "f4", "B-2")  # the B Volcano
    print_stones(s, "e4", [0, 0, 1, 0, 0, 0])
    put(s, 0, "e4", explorers=1)
    ap_turn(s, 0, 2)
    play(s, "move explorer e4 f4")
    assert s.explorers[hx(s, "f4")] == 1


def test_deploy_goes_to_the_common_camp_or_own_camps_only():
    s = fresh(3)
    give_camp(s, 0, "d4")
    give_camp(s, 1, "f2")
    ap_turn(s, 0, 10)
    deploys = [t for t in legal_texts(s) if t.startswith("deploy")]
    assert deploys == ["deploy explorer e4", "deploy explorer d4", "deploy leader e4", "deploy leader d4"]
    before = s.avail_explorers[0]
    play(s, "deploy explorer d4", "deploy explorer d4")
    assert s.avail_explorers[0] == before - 2 and s.explorers[hx(s, "d4")] == 2 and points(s) == 8
    with pytest.raises(IllegalAction, match="Common Base Camp or one of your Base Camps"):
        play(s, "deploy explorer f2")


def test_move_between_base_camps_costs_one_ap():
    s = strip_board(fresh(2))
    give_camp(s, 0, "d4")
    give_camp(s, 0, "f2")
    give_camp(s, 1, "d6")
    put(s, 0, "e4", explorers=1)
    put(s, 0, "f2", leaders=1)
    ap_turn(s, 0, 2)
    transfers = sorted(t for t in legal_texts(s) if t.startswith("transfer"))
    assert transfers == ["transfer explorer e4 d4", "transfer explorer e4 f2", "transfer leader f2 d4",
                         "transfer leader f2 e4"]
    play(s, "transfer leader f2 d4")
    assert points(s) == 1 and s.leaders[hx(s, "d4")] == 1
    with pytest.raises(IllegalAction, match="only between the Common Base Camp and yours"):
        play(s, "transfer explorer e4 d6")  # d6 is blue's camp


def test_stranded_em_cannot_walk_but_can_use_camps():
    s = strip_board(fresh(2))
    give_camp(s, 0, "d4")
    put(s, 0, "d4", explorers=1)
    ap_turn(s, 0, 10)
    assert not any(t.startswith("move") for t in legal_texts(s))
    assert "transfer explorer d4 e4" in legal_texts(s)


# --- base camps, stones, supply ------------------------------------------------------------------
def test_set_up_and_move_a_base_camp():
    s = fresh(2)
    lay_tile(s, "c4", "A-3")  # a Clearing
    give_camp(s, 1, "d6")
    ap_turn(s, 0, 12)
    camps = [t for t in legal_texts(s) if t.startswith("camp")]
    assert camps == ["camp c4", "camp d4", "camp f2"]  # d6 holds blue's camp; e4 is not a Clearing
    play(s, "camp d4", "camp f2")
    assert s.camps[0] == [hx(s, "d4"), hx(s, "f2")] and points(s) == 2
    s.pending.points = 5
    assert [t for t in legal_texts(s) if t.startswith("camp")] == ["camp c4 from d4", "camp c4 from f2"]
    play(s, "camp c4 from d4")
    assert s.camp[hx(s, "d4")] == -1 and s.camp[hx(s, "c4")] == 0
    with pytest.raises(IllegalAction, match="already holds a Base Camp"):
        s.pending.points = 5
        play(s, "camp d6 from c4")


def test_trail_stone_tokens_run_out_then_move():
    s = strip_board(fresh(2))
    ap_turn(s, 0, 12)
    play(s, "stone", "at e4", "side nw", "stone", "at e4", "side ne")
    assert s.stone_supply == 0 and edge_cost(s, "e4", "d3") == 1
    play(s, "stone")
    assert legal_texts(s) == ["token d3 se", "token d4 sw"]  # both tokens, named by their first hex
    play(s, "token d3 se", "at f4", "side nw")
    assert edge_cost(s, "e4", "d3") == 0 and edge_cost(s, "e4", "f4") == 1 and points(s) == 3


def test_two_tokens_may_share_an_edge():
    s = strip_board(fresh(2))
    ap_turn(s, 0, 6)
    play(s, "stone", "at e4", "side e", "stone", "at e5", "side w")
    assert edge_cost(s, "e4", "e5") == 2


def test_off_board_sides_are_not_offered():
    s = fresh(2)
    ap_turn(s, 0, 3)
    play(s, "stone", "at a1")
    assert legal_texts(s) == ["side e", "side se"]


def test_recruit_explorers_and_leaders():
    s = fresh(2)
    ap_turn(s, 0, 7)
    play(s, "recruit explorer", "recruit leader")
    assert s.avail_explorers[0] == 19 and s.unavail_explorers[0] == 11
    assert s.avail_leaders[0] == 2 and s.unavail_leaders[0] == 0 and points(s) == 0
    s.pending.points = 10
    assert "recruit leader" not in legal_texts(s)
    with pytest.raises(IllegalAction, match="no leader left in your Unavailable Supply"):
        play(s, "recruit leader")


# --- temples -----------------------------------------------------------------------------------
def test_clear_floor_needs_one_em_per_floor_and_max_two_per_turn():
    s = fresh(2)
    put(s, 0, "e3", explorers=1, leaders=1)
    put(s, 0, "e5", explorers=3)
    ap_turn(s, 0, 10)
    play(s, "clear e3", "clear e3")
    assert s.level[hx(s, "e3")] == 3 and s.floors[2] == 2 and s.floors[3] == 5
    assert "clear e3" not in legal_texts(s)
    with pytest.raises(IllegalAction, match="at most 2 floors per temple per turn"):
        play(s, "clear e3")
    play(s, "clear e5")  # many temples in one turn
    assert points(s) == 4
    play(s, "end")
    ap_turn(s, 0, 10)  # a new turn: the limit starts again
    assert "clear e3" in legal_texts(s)


def test_clear_floor_em_requirement_counts_figures():
    s = fresh(2)
    put(s, 0, "e3", leaders=1)  # a Leader is one figure, not three
    ap_turn(s, 0, 10)
    play(s, "clear e3")
    with pytest.raises(IllegalAction, match="one of your EMs at the temple per floor"):
        play(s, "clear e3")


def test_floor_supply_exhaustion_and_level_ten():
    s = fresh(2)
    put(s, 0, "e3", explorers=2)
    raise_temple(s, "e5", 9)  # uses both level-9 floors? no: one 9 and the rest below
    raise_temple(s, "h5", 9)  # the second level-9 floor is taken by h5
    assert s.floors[9] == 0
    raise_temple(s, "e3", 8)
    ap_turn(s, 0, 10)
    with pytest.raises(IllegalAction, match="no unbuilt floor of level 9"):
        play(s, "clear e3")
    put(s, 0, "h5", explorers=2)
    s.refresh()  # after writing fields directly
    play(s, "clear h5")
    assert s.level[hx(s, "h5")] == 10 and s.floors[10] == 0
    with pytest.raises(IllegalAction, match="top level 10"):
        play(s, "clear h5")


def test_guardian_needs_strict_majority_and_removes_own_other_ems():
    s = fresh(2)
    put(s, 0, "e3", explorers=3)
    put(s, 1, "e3", leaders=1)  # 3 against 3: a tie, nobody has the majority
    ap_turn(s, 0, 10)
    with pytest.raises(IllegalAction, match="majority presence"):
        play(s, "guardian e3 explorer")
    put(s, 0, "e3", explorers=1)
    s.refresh()  # after writing fields directly
    play(s, "guardian e3 explorer")
    assert s.guardian[hx(s, "e3")] == 0 and s.guardians[0] == 1
    assert s.explorers[hx(s, "e3")] == 0 and s.removed_explorers[0] == 3
    assert s.leaders[s.H + hx(s, "e3")] == 1  # blue's Leader stays (gap A12)
    assert "clear e3" not in legal_texts(s)  # no more floors on a guarded temple
    assert s.controls_temple(0, hx(s, "e3")) and not s.controls_temple(1, hx(s, "e3"))
    assert s.invariants() == []


def test_guardian_removal_all_option():
    s = fresh(2, guardian_removal="all")
    put(s, 0, "e3", explorers=3, leaders=1)
    put(s, 1, "e3", explorers=2)
    ap_turn(s, 0, 10)
    play(s, "guardian e3 leader")
    assert s.guardian_figure[hx(s, "e3")] == 1
    assert s.removed_explorers == [3, 2] and s.explorers[s.H + hx(s, "e3")] == 0
    assert s.invariants() == []


def test_at_most_two_guardians():
    s = fresh(2)
    for name in ("e3", "e5", "h5"):
        put(s, 0, name, explorers=1)
    ap_turn(s, 0, 15)
    play(s, "guardian e3 explorer", "guardian e5 explorer")
    assert not any(t.startswith("guardian") for t in legal_texts(s))
    with pytest.raises(IllegalAction, match="already have 2 Guardians"):
        play(s, "guardian h5 explorer")


# --- treasures -----------------------------------------------------------------------------------
def test_unearth_one_em_per_token_max_two_per_ruin():
    s = fresh(2)
    lay_tile(s, "c4", "B-3")  # ruins, 4 masks: 4 face-down treasures
    put(s, 0, "c4", explorers=3)
    top = s.ruin[hx(s, "c4")][-1]
    ap_turn(s, 0, 13)
    play(s, "unearth c4")
    assert s.museum[top] == 1 and len(s.ruin[hx(s, "c4")]) == 3
    play(s, "unearth c4")
    with pytest.raises(IllegalAction, match="at most 2 treasures per Ruin per turn"):
        play(s, "unearth c4")
    assert points(s) == 7


def test_unearth_needs_as_many_ems_as_tokens_taken():
    s = fresh(2)
    put(s, 0, "b5", explorers=1)  # a pre-placed Ruin with 2 treasures
    ap_turn(s, 0, 10)
    play(s, "unearth b5")
    with pytest.raises(IllegalAction, match="one of your EMs on the Ruin per treasure"):
        play(s, "unearth b5")


def test_emptied_ruin_stays_a_ruin_showing_all_masks():
    s = fresh(2)
    h = hx(s, "b5")
    put(s, 0, "b5", explorers=2)
    assert s.visible_masks(h) == 1
    ap_turn(s, 0, 6)
    play(s, "unearth b5", "unearth b5")
    assert s.kind[h] == 4 and s.visible_masks(h) == 2 and "unearth b5" not in legal_texts(s)


def test_trade_condition_and_exchange():
    s = fresh(3)
    give_treasures(s, 0, {"lion": 2, "carafe": 1, "mask": 1})
    give_treasures(s, 1, {"lion": 2, "dagger": 1})
    give_treasures(s, 2, {"carafe": 3})
    ap_turn(s, 0, 6)
    play(s, "trade")
    # red holds 2 lions: may take 1 or 2 of blue's 2 lions; not blue's dagger (red holds none),
    # not yellow's carafes (red holds fewer)
    assert legal_texts(s) == ["take blue lion 1", "take blue lion 2"]
    with pytest.raises(IllegalAction, match="of which you hold at least as many"):
        play(s, "take yellow carafe 1")
    play(s, "take blue lion 2")
    assert legal_texts(s) == ["give carafe", "give mask"]  # not the type taken
    play(s, "give mask", "give carafe")
    assert s.treasure_count(0, 0) == 4 and s.treasure_count(1, 0) == 0
    assert s.treasure_count(1, 3) == 1 and s.treasure_count(1, 4) == 1
    assert points(s) == 3 and s.invariants() == []


def test_trade_needs_tokens_to_give():
    s = fresh(2)
    give_treasures(s, 0, {"lion": 1})
    give_treasures(s, 1, {"lion": 1})
    ap_turn(s, 0, 6)
    assert "trade" not in legal_texts(s)  # red would have nothing of another type to give
    with pytest.raises(IllegalAction, match="nothing to give back"):
        play(s, "trade")


def test_unspent_ap_are_lost_and_the_turn_ends():
    s = fresh(2)
    s.ap_token[0] = 9
    s.bag.remove(9)
    from mayagames.tikal.testing import action_phase
    action_phase(s, 0)
    play(s, "activate", "deploy explorer e4", "end")
    assert s.stack == [] and s.turn == 1 and s.ap_token[0] == 0 and 9 in s.ap_used
    assert s.invariants() == []


# --- audit: rules that had no test of their own --------------------------------------------------
def test_guardian_costs_five_ap_and_needs_five():
    s = fresh(2)
    put(s, 0, "e3", explorers=2)
    ap_turn(s, 0, 4)
    assert not any(t.startswith("guardian") for t in legal_texts(s))
    s.pending.points = 7
    s.refresh()  # after writing fields directly
    play(s, "guardian e3 explorer")
    assert points(s) == 2


def test_a_guarded_temple_takes_no_second_guardian():
    """Rule 6 / A12: a Guardian's temple is its owner's for good; nobody guards it again."""
    s = fresh(2)
    put(s, 0, "e3", explorers=1)
    ap_turn(s, 0, 10)
    play(s, "guardian e3 explorer", "end")
    put(s, 1, "e3", explorers=3)
    ap_turn(s, 1, 10)
    assert not any(t.startswith("guardian") for t in legal_texts(s))
    with pytest.raises(IllegalAction, match="already has a Guardian"):
        play(s, "guardian e3 explorer")
    put(s, 0, "e3", explorers=2)  # not even its owner, with figures there again
    ap_turn(s, 0, 10)
    assert not any(t.startswith("guardian") for t in legal_texts(s))


def test_the_guardian_never_moves_and_counts_in_no_majority():
    """Rule 6: the Guardian figure stays on top for good; A11: it is in no majority tally."""
    s = fresh(2)
    print_stones(s, "e3", [2, 2, 2, 2, 2, 2])
    put(s, 0, "e3", leaders=1)
    ap_turn(s, 0, 10)
    play(s, "guardian e3 leader")
    assert not any(t.startswith("move") for t in legal_texts(s))
    h = hx(s, "e3")
    assert s.majority(h) == -1 and s.strength(0, h) == 0
    put(s, 1, "e3", explorers=1)
    assert s.majority(h) == 1 and not s.controls_temple(1, h) and s.controls_temple(0, h)


def test_jungle_edges_of_the_border_are_entered_across_a_stone():
    """Rule 6: Jungle hexes, border (dotted) ones included, may be entered across a Trail Stone."""
    s = strip_board(fresh(2))
    put(s, 0, "b1", explorers=1)  # a1 (dotted) is its north-west neighbour
    ap_turn(s, 0, 10)
    assert "move explorer b1 a1" not in legal_texts(s)
    play(s, "stone", "at b1", "side nw", "move explorer b1 a1")
    assert s.explorers[hx(s, "a1")] == 1 and points(s) == 6

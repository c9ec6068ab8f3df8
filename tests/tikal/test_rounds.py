"""Setup (rule 2), Round Management (rule 4), the action-phase turn (rule 5), Upkeep (rule 11)."""

import pytest

from mayagames.core import IllegalAction
from mayagames.tikal.state import ACTION, ROUND_MANAGEMENT
from mayagames.tikal.testing import (action_phase, fresh, give_card, give_tile, legal_texts, play, put)


def finish_rm(s):
    """Take the first item on offer until Round Management is over."""
    while s.phase == ROUND_MANAGEMENT:
        s.apply(s.legal_actions()[0])
    return s


# --- setup ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("players,deck,ap_left,tiles,rounds", [(1, 42, 6, 4, 6), (2, 42, 12, 4, 6),
                                                               (3, 60, 24, 3, 8), (4, 60, 24, 4, 6)])
def test_setup_per_player_count(players, deck, ap_left, tiles, rounds):
    s = fresh(players, seed=3)
    assert len(s.display) == 10 and len(s.deck) == deck - 10
    assert len(s.ap_display) == players and len(s.bag) + len(s.ap_display) == ap_left
    assert len(s.ap_removed) == 24 - ap_left
    assert len(s.tile_display) == tiles and all(s.C.tiles[t].back == "A" for t in s.tile_display)
    assert s.setup_rules["rounds"] == rounds
    assert sorted(s.pp) == list(range(1, players + 1))  # prestige spaces 1, 2, ... in turn order
    assert [s.pp[seat] for seat in s.order] == list(range(1, players + 1))
    assert len(set(s.director)) == players
    assert s.avail_explorers == [18] * players and s.unavail_explorers == [12] * players
    assert s.avail_leaders == [1] * players and s.unavail_leaders == [1] * players
    assert s.invariants() == []


def test_setup_board_fixed_tiles_treasures_and_volcanoes():
    s = fresh(2)
    for fixed in s.C.board.fixed_tiles:
        assert s.tile_on[fixed.hex] == fixed.tile
    ruins = [h for h in range(s.H) if s.kind[h] == 4]
    assert len(ruins) == 2 and all(len(s.ruin[h]) == 2 for h in ruins)
    assert len(s.green) == 20 and s.volcano_supply == 4
    assert all(b == 2 for b in s.blue)


def test_starting_prestige_zero_option():
    assert fresh(3, starting_prestige="zero").pp == [0, 0, 0]


# --- round management ----------------------------------------------------------------------------
@pytest.mark.parametrize("players,tiles,cards,left", [(2, 2, 3, 4), (3, 1, 3, 1), (4, 1, 2, 2)])
def test_round_management_quotas(players, tiles, cards, left):
    s = finish_rm(fresh(players, seed=1))
    assert s.phase == ACTION
    for seat in range(players):
        assert len(s.camp_tiles[seat]) == tiles and len(s.right[seat]) == cards and s.ap_token[seat] > 0
    assert sorted(s.next_order) == list(range(players))
    assert len(s.display) == left and s.tile_display == [] and s.ap_display == []


def test_round_management_turns_follow_turn_order_one_item_each():
    s = fresh(3, seed=2)
    seen = []
    for _ in range(6):
        seen.append(s.current_player)
        s.apply(s.legal_actions()[0])
    assert seen == s.order + s.order


def test_one_ap_token_per_round():
    s = fresh(2, seed=1)
    value = s.ap_display[0]
    play(s, f"take ap {value}")
    play(s, s.legal_actions()[0].__str__())
    other = s.ap_display[0]
    assert s.current_player == s.order[0]
    with pytest.raises(IllegalAction, match="one AP token per round"):
        play(s, f"take ap {other}")


def test_solo_discards_untaken_tiles():
    s = finish_rm(fresh(1, seed=4))
    assert len(s.camp_tiles[0]) == 2 and len(s.tiles_out) == 2 and s.tile_display == []
    assert s.invariants() == []


def test_statuettes_fix_next_round_order():
    s = fresh(3, seed=5)
    first, second, third = s.order
    # each player first takes the statuette space: first takes 3, second 1, third 2
    play(s, "take statuette 3", "take statuette 1", "take statuette 2")
    finish_rm(s)
    for _ in range(200):
        if s.phase != ACTION or s.round > 1:
            break
        legal = s.legal_actions()
        s.apply(legal[-1] if str(legal[-1]) == "pass" else legal[0])
    assert s.round == 2 and s.order == [second, third, first]


# --- action phase ----------------------------------------------------------------------------------
def test_passing_needs_a_used_campsite():
    s = action_phase(fresh(2), 0)
    give_tile(s, 0, "A1")
    give_card(s, 0, "camp")
    s.ap_token[0] = s.bag.pop()
    with pytest.raises(IllegalAction) as err:
        play(s, "pass")
    assert err.value.rule == "Tikal 5: passing"
    assert "terrain tile" in err.value.message and "AP token" in err.value.message and "cards" in err.value.message


def test_keep_moves_a_card_left_and_full_left_asks_for_a_discard():
    s = action_phase(fresh(2), 0)
    for name in ("ap-2", "clear-2", "stone"):
        give_card(s, 0, name, kept=True)
    give_card(s, 0, "dig-1")
    play(s, "keep dig-1")
    assert legal_texts(s) == ["discard ap-2", "discard clear-2", "discard stone"]
    play(s, "discard ap-2")  # even a permanent card may be discarded
    assert [s.card_name(c) for c in s.left[0]] == ["clear-2", "stone", "dig-1"]
    assert s.card_name(s.discard[-1]) == "ap-2" and s.turn == 1


def test_play_card_from_right_and_from_left_in_a_later_turn():
    s = action_phase(fresh(2), 0)
    give_card(s, 0, "recruit", kept=True)
    give_card(s, 0, "explorers-4")
    assert "play kept recruit" in legal_texts(s) and "play explorers-4" in legal_texts(s)
    play(s, "play kept recruit", "choose both")
    assert s.avail_leaders[0] == 2 and s.avail_explorers[0] == 19 and s.turn == 1
    assert s.card_name(s.discard[-1]) == "recruit"


def test_permanent_card_used_alone_is_free_and_flips():
    s = action_phase(fresh(2), 0)
    give_card(s, 0, "ap-2", kept=True)
    play(s, "use kept ap-2")
    assert s.pending.points == 2 and s.pending.ctx == "alone"
    play(s, "deploy explorer e4", "deploy explorer e4", "end")
    assert s.turn == 0 and s.stack == []  # no turn used
    assert "use kept ap-2" not in legal_texts(s)  # once per round


def test_permanent_card_adds_ap_to_the_token():
    s = action_phase(fresh(2), 0)
    s.ap_token[0] = s.bag.pop()
    value = s.ap_token[0]
    give_card(s, 0, "ap-1", kept=True)
    give_card(s, 0, "ap-2")
    play(s, "activate")
    assert s.pending.points == value
    play(s, "use kept ap-1", "use ap-2")
    assert s.pending.points == value + 3


def test_used_permanent_left_on_the_right_is_discarded_when_passing():
    s = action_phase(fresh(2), 0)
    c = give_card(s, 0, "ap-1")
    play(s, "use ap-1", "end", "pass")
    assert c in s.discard and s.right[0] == [] and not s.down[c]


def test_used_permanent_can_still_be_kept():
    s = action_phase(fresh(2), 0)
    c = give_card(s, 0, "ap-1")
    play(s, "use ap-1", "end", "keep ap-1")
    assert s.left[0] == [c] and s.down[c]


def test_passed_players_are_skipped_until_all_pass():
    s = action_phase(fresh(3, seed=2), 0)
    s.turn = s.order[0]
    give_card(s, s.order[1], "stone")
    play(s, "pass")
    assert s.turn == s.order[1]
    play(s, "play stone", "at e4", "side ne")
    assert s.turn == s.order[2]
    play(s, "pass")
    assert s.turn == s.order[1]
    play(s, "pass")
    assert s.round == 2 and s.phase == ROUND_MANAGEMENT


# --- upkeep ------------------------------------------------------------------------------------------
def _end_round(s):
    action_phase(s, s.order[0])
    for _ in range(s.num_players):
        play(s, "pass")
    return s


def test_upkeep_refills_draws_and_flips():
    s = fresh(4, seed=6)
    c = give_card(s, 0, "ap-2", kept=True)
    s.down[c] = True
    for _ in range(3):
        s.discard.append(s.display.pop())  # three cards were taken and played
    s.ap_used += s.ap_display  # the AP tokens were taken and used
    s.ap_display = []
    tile_a = [t for t in s.piles["A"]]
    _end_round(s)
    assert s.round == 2 and len(s.display) == 10 and len(s.ap_display) == 4
    assert not s.down[c] and s.invariants() == []
    assert len(s.tile_display) == 4 + 4  # the untaken tiles stay (here none were taken)
    assert all(t in tile_a or s.C.tiles[t].back in "AB" for t in s.tile_display)


def test_tiles_are_drawn_in_letter_order():
    s = fresh(3, seed=7)
    s.tile_display = []
    remaining_a = len(s.piles["A"])
    _end_round(s)
    backs = [s.C.tiles[t].back for t in s.tile_display]
    assert backs == ["A"] * remaining_a + ["B"] * (3 - remaining_a)


def test_reshuffle_removes_pair_and_symbol_cards():
    s = fresh(2, seed=8)
    s.discard = s.deck[:]
    s.deck = []
    s.display = s.display[:5]
    for c in s.C.cards_for(2):
        if c not in s.discard and c not in s.display:
            s.discard.append(c)
    kinds_before = {s.C.cards[c].kind for c in s.discard}
    assert {1, 16, 17, 18} <= kinds_before
    _end_round(s)
    assert len(s.display) == 10
    assert {s.C.cards[c].kind for c in s.box} == {1, 16, 17, 18}
    assert not {s.C.cards[c].kind for c in s.deck + s.display[5:]} & {1, 16, 17, 18}
    assert s.discard == [] and s.invariants() == []


def test_empty_deck_and_discard_leave_spaces_empty():
    s = fresh(2, seed=9)
    s.box = s.deck + s.display[4:]
    s.deck = []
    s.display = s.display[:4]
    _end_round(s)
    assert len(s.display) == 4 and s.phase == ROUND_MANAGEMENT
    finish_rm(s)
    assert s.invariants() == []


def test_last_round_goes_to_final_scoring_not_upkeep():
    s = fresh(2)
    s.round = 6
    put(s, 0, "e4", explorers=1)
    _end_round(s)
    assert s.phase_name == "final_scoring" and s.round == 6 and s.pending.ctx == "final"

"""Rule 10: every kind of action card."""

import pytest

from mayagames.core import IllegalAction
from mayagames.tikal.testing import (action_phase, edge_cost, fresh, give_camp, give_card, hx, lay_tile,
                                     legal_texts, play, print_stones, put, strip_board)


def ready(players=2, **options):
    s = fresh(players, **options)
    return action_phase(s, 0)


def test_card_1_takes_the_blue_pair():
    s = ready()
    give_card(s, 0, "pair-mask")
    play(s, "play pair-mask")
    t = s.C.treasure_types.index("mask")
    assert s.treasure_count(0, t) == 2 and s.blue[t] == 0 and s.turn == 1


@pytest.mark.parametrize("card,count", [("ruin-2", 2), ("ruin-3", 3)])
def test_cards_2_3_explorers_onto_a_ruin_with_treasures(card, count):
    s = ready()
    lay_tile(s, "c4", "B3")
    give_card(s, 0, card)
    play(s, f"play {card}")
    assert legal_texts(s) == ["at b5", "at c4", "at h3"]
    play(s, "at c4")
    assert s.explorers[hx(s, "c4")] == count and s.avail_explorers[0] == 18 - count


def test_ruin_card_not_playable_without_treasures():
    s = ready()
    for stack in s.ruin.values():  # the treasures go back to the face-down supply
        s.green += stack
        stack.clear()
    give_card(s, 0, "ruin-2")
    assert "play ruin-2" not in legal_texts(s)
    with pytest.raises(IllegalAction, match="its effect cannot be done now"):
        play(s, "play ruin-2")


def test_cards_4_5_6_unearth_with_distinct_ems():
    s = ready()
    lay_tile(s, "c4", "B3")
    put(s, 0, "c4", explorers=3)
    put(s, 0, "b5", explorers=1)
    give_card(s, 0, "dig-3")
    play(s, "play dig-3")
    assert "end" not in legal_texts(s)  # the first treasure is the card's effect
    play(s, "unearth c4", "unearth c4")
    assert legal_texts(s) == ["unearth b5", "end"]  # max 2 per Ruin in one card play
    play(s, "unearth b5")
    assert sum(s.museum[:8]) == 3 and s.turn == 1


def test_card_5_second_take_is_optional():
    s = ready()
    put(s, 0, "b5", explorers=2)
    give_card(s, 0, "dig-2")
    play(s, "play dig-2", "unearth b5", "end")
    assert sum(s.museum[:8]) == 1 and s.turn == 1


def test_card_7_explorers_to_temples():
    s = ready()
    give_card(s, 0, "temple-base")
    play(s, "play temple-base", "at e3")
    assert "end" in legal_texts(s)
    play(s, "at h5")
    assert s.explorers[hx(s, "e3")] == 1 and s.explorers[hx(s, "h5")] == 1 and s.turn == 1


def test_card_8_clears_two_floors_on_one_temple():
    s = ready()
    put(s, 0, "e3", explorers=2)
    put(s, 0, "e5", explorers=2)
    give_card(s, 0, "clear-2")
    play(s, "play clear-2", "clear e3")
    assert legal_texts(s) == ["clear e3", "end"]  # the same temple only
    play(s, "clear e3")
    assert s.level[hx(s, "e3")] == 3 and s.turn == 1


def test_card_8_not_on_a_guarded_temple():
    s = ready()
    put(s, 0, "e3", explorers=2)
    s.guardian[hx(s, "e3")] = 1
    s.guardians[1] = 1
    s.leaders[s.H + hx(s, "e3")] = 0
    s.unavail_leaders[1] -= 1
    give_card(s, 0, "clear-2")
    assert "play clear-2" not in legal_texts(s)


def test_card_9_camp_then_move_when_both_out():
    s = ready()
    give_card(s, 0, "camp")
    play(s, "play camp", "camp d4")
    assert s.camps[0] == [hx(s, "d4")] and s.turn == 1
    s.turn = 0
    give_camp(s, 0, "f2")
    lay_tile(s, "c4", "A3")
    give_card(s, 0, "camp")
    play(s, "play camp")
    assert legal_texts(s) == ["camp c4 from d4", "camp c4 from f2", "camp d6 from d4", "camp d6 from f2"]


def test_card_10_camp_with_an_em():
    s = ready()
    give_card(s, 0, "camp-em")
    play(s, "play camp-em", "camp f2")
    assert legal_texts(s) == ["choose explorer", "choose leader"]
    play(s, "choose leader")
    assert s.leaders[hx(s, "f2")] == 1 and s.camp[hx(s, "f2")] == 0 and s.avail_leaders[0] == 0


def test_card_11_leader_and_or_explorer():
    s = ready()
    give_card(s, 0, "recruit")
    play(s, "play recruit")
    assert legal_texts(s) == ["choose both", "choose leader", "choose explorer"]
    play(s, "choose leader")
    assert s.unavail_leaders[0] == 0 and s.unavail_explorers[0] == 12


def test_card_12_five_moves():
    s = strip_board(ready())
    print_stones(s, "e4", [0, 0, 2, 0, 0, 0])
    give_camp(s, 0, "d4")
    put(s, 0, "e4", explorers=2)
    give_card(s, 0, "moves-5")
    play(s, "play moves-5")
    assert s.pending.points == 5
    assert not any(t.startswith(("deploy", "stone", "recruit")) for t in legal_texts(s))
    play(s, "move explorer e4 f4", "transfer explorer e4 d4")
    assert s.pending.points == 2
    play(s, "end")
    assert s.turn == 1


def test_card_13_places_or_moves_a_stone_for_free():
    s = strip_board(ready())
    give_card(s, 0, "stone")
    play(s, "play stone", "at e4", "side se")
    assert edge_cost(s, "e4", "f4") == 1 and s.turn == 1


def test_cards_16_17_18_symbol_tiles_on_dotted_hexes():
    s = ready()
    give_card(s, 0, "temple-t3")
    play(s, "play temple-t3")
    assert legal_texts(s)[0] == "at a1" and all(t[3:] in {"a1", "a3", "a5", "a7", "c1", "c7", "e1", "e7", "g1",
                                                           "g7", "i1", "i3", "i5", "i7"} for t in legal_texts(s))
    with pytest.raises(IllegalAction, match="dotted border hex"):
        play(s, "at c4")
    play(s, "at a3", "rotate 1")
    t = s.C.tile_index["T3"]
    assert s.tile_on[hx(s, "a3")] == t and s.level[hx(s, "a3")] == 4 and t not in s.symbol_supply
    assert s.printed[hx(s, "a3") * 6:hx(s, "a3") * 6 + 6] == list(s.C.tiles[t].rotated(1))


def test_card_19_up_to_four_explorers():
    s = ready()
    s.unavail_explorers[0] = 3
    s.removed_explorers[0] = 9
    give_card(s, 0, "explorers-4")
    play(s, "play explorers-4")
    assert legal_texts(s) == ["choose 3", "choose 2", "choose 1"]
    play(s, "choose 2")
    assert s.avail_explorers[0] == 20 and s.unavail_explorers[0] == 1


def test_permanent_cards_are_used_not_played():
    s = ready()
    give_card(s, 0, "ap-1")
    assert "play ap-1" not in legal_texts(s) and "use ap-1" in legal_texts(s)
    with pytest.raises(IllegalAction, match="is permanent"):
        play(s, "play ap-1")

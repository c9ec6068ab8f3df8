"""Rule-by-rule audit: scenario tests for rules that had no test of their own.

Each test names the rule (section of ``shared/rules/tzolkin.md`` or the rulebook
paragraph) it pins; expected values are written from the rules, not from the data.
The audit table is ``docs/tzolkin_audit.md``.
"""

import pytest

from mayagames.core import IllegalAction
from mayagames.tzolkin.positions import (blank, give_building, goods, legal, place_skull, play,
                                         put_start_worker, put_worker, set_board, set_day,
                                         set_goods, set_monument_row, set_row, set_tech,
                                         set_temple, set_turn, set_workers)


def temples(s, seat=0):
    return tuple(s.p[seat][13:16])


def finish_round(s):
    """The remaining players of the round each place one worker on a free gear space."""
    start = s.day
    while s.day == start and s.phase_name == "play":
        moves = legal(s)
        if s.stack[-1].kind == "placing":            # placing: one worker is enough
            play(s, "end")
            continue
        play(s, next(m for m in moves if m.startswith("place") and m != "place start"))


# --- Temples (rules 10; rulebook "Temples", "Angering the gods") --------------------------------
def test_stepping_down_from_the_top_frees_it_for_another_player():
    """The top step is exclusive "unless that player angers the gods and steps down";
    stepping down does not flip the board."""
    s = blank(2)
    set_temple(s, 1, "chaac", 5)
    set_temple(s, 0, "chaac", 4)
    set_board(s, 1, False)
    set_turn(s, 1)
    set_goods(s, 1, corn=2)
    play(s, "beg chaac")
    assert temples(s, 1)[0] == 4 and s.p[1][16] == 0          # still dark
    play(s, "place tikal", "end")
    set_goods(s, 0, corn=3)
    put_worker(s, 0, "uxmal", 1)
    play(s, "pick uxmal 1", "do uxmal 1", "temple chaac")
    assert temples(s, 0)[0] == 5 and s.p[0][16] == 1


def test_uxmal_1_is_legal_when_every_step_would_be_wasted():
    """A temple step you cannot take is wasted; the action (3 corn) is still allowed."""
    s = blank(2)
    for t, top in (("chaac", 5), ("quetzalcoatl", 7), ("kukulcan", 6)):
        set_temple(s, 0, t, top)
    set_goods(s, 0, corn=3)
    put_worker(s, 0, "uxmal", 1)
    play(s, "pick uxmal 1")
    assert "do uxmal 1" in legal(s)
    play(s, "do uxmal 1")
    assert goods(s, 0)["corn"] == 0 and temples(s) == (5, 7, 6) and legal(s) == ["end"]


def test_tikal_5_takes_the_step_it_can_and_wastes_the_other():
    """Tikal 5: 1 block, two different temples; a step onto a held top is wasted."""
    s = blank(2)
    set_temple(s, 1, "kukulcan", 6)
    set_temple(s, 0, "kukulcan", 5)
    set_goods(s, 0, wood=1)
    put_worker(s, 0, "tikal", 5)
    play(s, "pick tikal 5", "do tikal 5", "temples chaac kukulcan pay wood")
    assert temples(s) == (1, 0, 5) and goods(s, 0)["wood"] == 0


# --- Chichen Itza and Theology (rules 7, 11) ---------------------------------------------------------
def test_theology_2_after_a_free_choice_chichen_action_but_not_after_nothing():
    s = blank(2)
    set_tech(s, 0, "theology", 2)
    set_goods(s, 0, skulls=1, gold=1)
    put_worker(s, 0, "chichen", 10)
    put_worker(s, 0, "chichen", 3)
    play(s, "pick chichen 3", "nothing")
    assert legal(s)[0].startswith("pick")                      # no offering after 'nothing'
    play(s, "pick chichen 10", "do chichen 2")
    assert legal(s) == ["offer chaac pay gold", "offer quetzalcoatl pay gold",
                        "offer kukulcan pay gold", "stop"]
    play(s, "offer quetzalcoatl pay gold")
    assert temples(s) == (1, 1, 0) and goods(s, 0)["vp"] == 5 and goods(s, 0)["gold"] == 0


def test_theology_2_offering_skipped_without_a_block():
    s = blank(2)
    set_tech(s, 0, "theology", 3)
    set_goods(s, 0, skulls=1)
    put_worker(s, 0, "chichen", 4)
    play(s, "pick chichen 4", "do chichen 4")
    assert legal(s) == ["end"] and temples(s) == (0, 0, 1)


def test_theology_1_space_ahead_needs_its_slot_free():
    s = blank(2)
    set_tech(s, 0, "theology", 1)
    set_goods(s, 0, skulls=1, corn=0)
    place_skull(s, 1, 5)
    put_worker(s, 0, "chichen", 4)
    play(s, "pick chichen 4")
    assert legal(s) == ["do chichen 4", "nothing"]


def test_a_filled_skull_slot_stays_filled_for_every_player():
    """Each slot holds one skull for the rest of the game; nobody can use that action again."""
    s = blank(2)
    set_goods(s, 0, skulls=1)
    set_goods(s, 1, skulls=1, corn=5)
    put_worker(s, 0, "chichen", 3)
    play(s, "pick chichen 3", "do chichen 3", "end")
    put_worker(s, 1, "chichen", 3)
    play(s, "pick chichen 3")
    assert legal(s) == ["do chichen 1", "do chichen 2", "nothing"]
    with pytest.raises(IllegalAction):
        play(s, "do chichen 3")


# --- Buildings inside other actions (rules 5, 12) ---------------------------------------------------
def test_a1_t3_first_at_tikal_4_then_its_extra_building_then_the_second_tikal_building():
    """A1-T3 adds one construction; Tikal 4 still allows its own second building."""
    s = blank(2)
    set_goods(s, 0, wood=5, stone=5, gold=5)
    set_row(s, ["a1-t3", "a1-f1", "a1-f1", "a1-g1", "a1-b1", "a1-t1"])
    put_worker(s, 0, "tikal", 4)
    play(s, "pick tikal 4", "do tikal 4", "build a1-t3", "temple kukulcan", "build a1-f1")
    assert "stop" in legal(s) and not any(a.startswith("build m") for a in legal(s))
    play(s, "build a1-t1")
    assert len(s.built[0]) == 3 and legal(s) == ["end"]
    assert goods(s, 0) == {"corn": 0, "wood": 1, "stone": 4, "gold": 4, "skulls": 0, "vp": 0}
    assert temples(s) == (1, 1, 1)


def test_a2_t4_mirror_inside_tikal_4_can_build_a_monument_then_the_second_building():
    s = blank(2)
    set_day(s, 15)
    set_goods(s, 0, corn=1, wood=9, stone=9, gold=9)
    set_row(s, ["a2-t4", "a2-f1", "a2-f1", "a2-t3", "a2-b6", "a2-b1"])
    set_monument_row(s, ["m01", "m02", "m03", "m04"])
    put_worker(s, 0, "tikal", 4)
    play(s, "pick tikal 4", "do tikal 4", "build a2-t4", "do tikal 4", "build m01")
    assert s.monuments[0] == [0] and goods(s, 0)["corn"] == 0
    assert legal(s)[-1] == "stop" and not any(a.startswith("build m") for a in legal(s))
    play(s, "build a2-t3")
    assert len(s.built[0]) == 2 and goods(s, 0)["vp"] == 2 + 8


def test_uxmal_4_architecture_3_discount_never_below_zero():
    s = blank(2)
    set_tech(s, 0, "architecture", 3)
    set_goods(s, 0, corn=0)
    set_row(s, ["a1-f1", "a1-t1", "a1-t2", "a1-g1", "a1-b1", "a1-g3"])
    put_worker(s, 0, "uxmal", 4)
    play(s, "pick uxmal 4", "do uxmal 4")
    assert legal(s) == ["build a1-f1", "build a1-b1"]     # one block: 2 corn - 2 = 0
    play(s, "build a1-b1")
    assert goods(s, 0)["corn"] == 1 and goods(s, 0)["vp"] == 2 + 3    # arch 1-2, then bonus


# --- Workers ---------------------------------------------------------------------------------------------
def test_a_gained_worker_is_available_from_the_next_turn_and_must_be_fed():
    s = blank(2)
    set_day(s, 8)
    put_worker(s, 0, "uxmal", 3)
    set_goods(s, 0, corn=10)
    play(s, "pick uxmal 3", "do uxmal 3", "end")
    assert s.p[0][6] == 4 and s.p[0][7] == 4                  # in front of the player
    play(s, "place tikal", "end")                             # Food Day: 4 workers eat 8
    assert s.food_done == 1 and goods(s, 0)["corn"] == 2 and goods(s, 0)["vp"] == 0
    set_goods(s, 0, corn=20)
    set_turn(s, 0)
    play(s, "place palenque", "place palenque", "place palenque", "place palenque")
    assert s.p[0][8] == 4


def test_the_worker_on_the_starting_player_space_is_fed():
    """Every worker not in the bank is in play and eats, wherever it stands."""
    s = blank(2)
    set_day(s, 8)
    set_goods(s, 0, corn=6)
    set_goods(s, 1, corn=6)
    play(s, "place start", "end", "place tikal", "end")
    assert s.food_done == 1 and goods(s, 0)["corn"] == 0 and goods(s, 0)["vp"] == 0


# --- Begging (rules 18) ----------------------------------------------------------------------------------
def test_begging_is_optional_with_workers_on_the_gears():
    s = blank(2)
    set_goods(s, 0, corn=1)
    put_worker(s, 0, "tikal", 2)
    moves = legal(s)
    assert moves[:3] == ["beg chaac", "beg quetzalcoatl", "beg kukulcan"]
    assert "pick tikal 2" in moves and "place palenque" in moves


# --- Calendar, Starting Player Space (rules 8, 16) ------------------------------------------------------
def test_starting_player_marker_passes_from_the_last_seat_to_seat_0():
    s = blank(4)
    set_turn(s, 3, start_player=3)
    set_board(s, 3, False)
    play(s, "place start", "end")
    finish_round(s)
    assert s.start_player == 0 and s.cur == 0


def test_speed_up_over_the_end_of_age_1_changes_the_age_one_day_late():
    s = blank(2)
    set_day(s, 13)
    set_goods(s, 0, corn=20)
    set_goods(s, 1, corn=20)
    play(s, "place start", "end", "place tikal", "end", "advance 2")
    assert s.day == 15 and s.age == 1 and s.food_done == 1    # Food Day 2 not yet held
    finish_round(s)
    assert s.day == 16 and s.age == 2 and s.food_done == 2


def test_speed_up_over_the_final_food_day_plays_it_one_day_late():
    s = blank(2)
    set_day(s, 26)
    set_goods(s, 0, corn=20)
    set_goods(s, 1, corn=20)
    play(s, "place start", "end", "place tikal", "end", "advance 2")
    assert s.day == 28 and s.food_done == 3 and not s.is_terminal
    finish_round(s)
    assert s.is_terminal and s.food_done == 4 and s.day == 29


def test_no_corn_is_added_to_the_starting_player_space_while_occupied():
    s = blank(2)
    set_goods(s, 0, corn=5)
    play(s, "place start", "end", "place tikal", "end", "advance 1")
    assert s.sps_corn == 0 and s.corn_out == 5
    finish_round(s)
    assert s.sps_corn == 1


# --- Skull supply (rules 15) ------------------------------------------------------------------------------
def test_paid_theology_bonus_with_an_empty_supply_still_costs_its_block():
    s = blank(2)
    set_tech(s, 0, "theology", 3)
    set_goods(s, 1, skulls=13)
    set_goods(s, 0, wood=1)
    put_worker(s, 0, "tikal", 1)
    play(s, "pick tikal 1", "do tikal 1", "tech theology")
    assert goods(s, 0)["wood"] == 0 and goods(s, 0)["skulls"] == 0 and s.invariants() == []


# --- End of the game (rules 18) --------------------------------------------------------------------------
def test_equal_scores_and_equal_workers_on_gears_share_the_win():
    s = blank(2)
    set_day(s, 27)
    set_goods(s, 0, corn=100)
    set_goods(s, 1, corn=100)
    play(s, "place palenque", "end", "place yaxchilan", "end")
    assert s.is_terminal and s.scores()[0] == s.scores()[1]
    assert s.winners() == [0, 1] and s.returns() == [0.5, 0.5]


def test_skulls_on_monument_m13_are_not_scored_as_held():
    s = blank(2)
    set_goods(s, 0, gold=4, skulls=2)
    set_row(s, ["a1-f2", "a1-f2", "a1-t1", "a1-t2", "a1-g2", "a1-g4"])
    set_monument_row(s, ["m13", "m01", "m02", "m03"])
    put_worker(s, 0, "tikal", 4)
    play(s, "pick tikal 4", "do tikal 4")                     # the only construction: made
    from mayagames.tzolkin.scoring import final_breakdown
    assert s.monuments[0] == [12] and final_breakdown(s, 0)["skulls_vp"] == 3 and s.skulls == 11


def test_workers_in_play_count_for_m09_wherever_they_are():
    s = blank(2)
    set_workers(s, 0, 6)
    put_worker(s, 0, "tikal", 2)
    put_start_worker(s, 0)
    give_building(s, 0, "a1-f1")
    from mayagames.tzolkin.positions import give_monument
    give_monument(s, 0, "m09")
    from mayagames.tzolkin.scoring import monument_vp
    assert monument_vp(s, 0, s.monuments[0][0]) == 18


def test_without_speed_ups_27_rounds_with_food_days_after_rounds_8_14_21_27():
    """Rules 16: round 1 is not a Food Day; Food Days end rounds 8, 14 (age change), 21, 27."""
    from mayagames.core import Rng
    s = blank(3)
    rng = Rng(4)
    rounds, food = set(), []
    while not s.is_terminal:
        if s.stack[-1].kind == "turn" and s.turn_index == 0:
            rounds.add(s.day)
        before = s.food_done
        moves = [m for m in legal(s) if m != "advance 2"]
        play(s, moves[rng.randbelow(len(moves))])
        if s.food_done != before:
            food.append((s.day - 1, s.age))
    assert sorted(rounds) == list(range(1, 28))
    assert food == [(8, 1), (14, 2), (21, 2), (27, 2)] and s.day == 28

"""Advancing the calendar, the Starting Player Space and its speed-up (rules 2, 8, 16)."""

import pytest

from mayagames.core import IllegalAction
from mayagames.tzolkin.components import GEARS
from mayagames.tzolkin.positions import (blank, goods, legal, play, put_dummy, put_worker, set_board,
                                         set_day, set_goods, set_temple, set_turn)


def at(s, gear, space):
    return s.gears[GEARS.index(gear)][space]


def pass_round(s, *first_moves):
    """Every remaining player of the round places one worker on a cheap gear."""
    play(s, *first_moves)
    while s.phase_name == "play" and s.stack[-1].kind in ("turn", "placing"):
        moves = legal(s)
        if "end" in moves and s.stack[-1].kind == "placing":
            play(s, "end")
            continue
        pick = next(m for m in moves if m.startswith("place") and m != "place start")
        play(s, pick, "end")
        if s.turn_index == 0:
            break


def test_workers_move_up_and_are_pushed_off_the_top_space():
    s = blank(2)
    put_worker(s, 0, "palenque", 7)
    put_worker(s, 0, "chichen", 9)
    put_worker(s, 1, "chichen", 10)
    put_dummy(s, "tikal", 9)
    set_goods(s, 1, corn=1)
    play(s, "place uxmal", "end", "place uxmal", "end")
    assert s.day == 2
    assert at(s, "palenque", 7) == -1 and at(s, "chichen", 10) == 0
    assert at(s, "uxmal", 1) == 0 and at(s, "uxmal", 2) == 1 and at(s, "uxmal", 0) == -1
    assert at(s, "tikal", 0) == 4                       # the dummy rides round to space 0
    assert s.p[0][8] == 2 and s.p[1][8] == 1            # seat 1's Chichen worker came back
    assert s.p[1][7] == 2 and s.invariants() == []


def test_corn_accumulates_on_the_starting_player_space_until_taken():
    s = blank(2)
    pass_round(s)
    pass_round(s)
    assert s.sps_corn == 2 and s.corn_out == 2
    set_goods(s, 0, corn=0)
    play(s, "place start")
    assert goods(s, 0)["corn"] == 0
    play(s, "end")                                      # taken at the end of the turn
    assert goods(s, 0)["corn"] == 2 and s.sps_corn == 0
    assert s.invariants() == []


def test_starting_player_marker_taken_or_passed_left():
    s = blank(3)
    set_turn(s, 0)
    play(s, "place tikal", "end")
    play(s, "place start", "end")                       # seat 1 takes the space
    play(s, "place uxmal", "end")
    assert s.phase_name == "speed" and s.cur == 1     # seat 1's board is light
    play(s, "advance 1")
    assert s.start_player == 1 and s.cur == 1 and s.day == 2
    set_board(s, 1, False)
    play(s, "place start", "end", "place palenque", "end", "place yaxchilan", "end")
    assert s.start_player == 2                          # already held: passed to the left


def speed_up_position(players=2):
    s = blank(players)
    set_goods(s, 0, corn=5)
    play(s, "place start", "end")
    return s


def test_speed_up_two_days_flips_the_board_dark():
    s = speed_up_position()
    put_worker(s, 1, "yaxchilan", 5)
    play(s, "place yaxchilan", "end")
    assert s.phase_name == "speed" and s.cur == 0 and legal(s) == ["advance 1", "advance 2"]
    play(s, "advance 2")
    assert s.day == 3 and s.p[0][16] == 0 and s.start_player == 1
    assert at(s, "yaxchilan", 7) == 1 and at(s, "yaxchilan", 2) == 1
    assert s.cur == 1


def test_speed_up_only_one_day_keeps_the_light_side():
    s = speed_up_position()
    play(s, "place tikal", "end", "advance 1")
    assert s.day == 2 and s.p[0][16] == 1


def test_no_speed_up_with_a_dark_board():
    s = speed_up_position()
    set_board(s, 0, False)
    play(s, "place tikal", "end")
    assert s.day == 2 and s.phase_name == "play"


@pytest.mark.parametrize("gear, space", [("palenque", 6), ("uxmal", 6), ("chichen", 9)])
def test_no_speed_up_when_it_would_push_off_a_worker(gear, space):
    s = speed_up_position()
    put_worker(s, 1, gear, space)
    play(s, "place tikal", "end")
    assert s.day == 2 and s.phase_name == "play" and s.p[0][16] == 1
    assert s.start_player == 1          # the other benefits still apply (marker passed on)


def test_dummies_on_space_6_do_not_prevent_the_speed_up():
    s = speed_up_position()
    put_dummy(s, "tikal", 6)
    play(s, "place tikal", "end")
    assert legal(s) == ["advance 1", "advance 2"]
    play(s, "advance 2")
    assert at(s, "tikal", 8) == 4


def test_speed_up_over_a_food_day_makes_it_happen_late():
    s = blank(2)
    set_day(s, 7)
    set_goods(s, 0, corn=10)
    set_goods(s, 1, corn=10)
    play(s, "place start", "end", "place tikal", "end", "advance 2")
    assert s.day == 9 and s.food_done == 0
    pass_round(s)
    assert s.food_done == 1 and s.day == 10
    # seat 1 (new starting player) placed on Palenque 0, seat 0 then paid 1 for space 1;
    # both fed 3 workers with 6 corn at the late Food Day
    assert goods(s, 0)["corn"] == 10 - 1 - 6 and goods(s, 1)["corn"] == 10 - 6


def test_reaching_a_temple_top_turns_the_board_light_again():
    s = blank(2)
    set_board(s, 0, False)
    set_temple(s, 0, "chaac", 4)
    set_goods(s, 0, corn=3)
    put_worker(s, 0, "uxmal", 1)
    play(s, "pick uxmal 1", "do uxmal 1", "temple chaac")
    assert s.p[0][13] == 5 and s.p[0][16] == 1


def test_temple_top_holds_only_one_player():
    s = blank(2)
    set_temple(s, 1, "chaac", 5)
    set_temple(s, 0, "chaac", 4)
    set_goods(s, 0, corn=3)
    put_worker(s, 0, "uxmal", 1)
    play(s, "pick uxmal 1", "do uxmal 1")
    assert legal(s) == ["temple quetzalcoatl", "temple kukulcan"]
    with pytest.raises(IllegalAction):
        play(s, "temple chaac")


def test_a_game_lasts_27_rounds_then_one_more_advance():
    from mayagames.core.conformance import play_random_game
    state, record = play_random_game("tzolkin", 2, seed=11)
    assert state.is_terminal and state.food_done == 4
    assert state.day >= 28


def test_final_advance_pushes_workers_and_decides_ties():
    s = blank(2)
    set_day(s, 27)
    put_worker(s, 0, "chichen", 10)
    put_worker(s, 1, "tikal", 3)
    set_goods(s, 0, corn=100)
    set_goods(s, 1, corn=100)
    play(s, "place palenque", "end", "place yaxchilan", "end")
    assert s.is_terminal and s.day == 28
    assert s.p[0][8] == 1 and s.p[1][8] == 2      # seat 0's Chichen worker was pushed off
    final = s.scores()
    assert final[0] == final[1]
    assert s.winners() == [1]

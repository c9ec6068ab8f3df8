"""benchmarks/solve_last_day.py: the exhaustive solve of the last day (its reports are not run here)."""

import pytest

from mayagames.tzolkin.positions import blank, play, set_day, set_goods


@pytest.fixture(scope="module")
def solver(load_script):
    return load_script("benchmarks/solve_last_day.py")


def last_day(corn: int):
    """Day 27, the last Food Day's own day: seat 0 has placed its first worker (free)."""
    s = blank(2)
    set_day(s, 27)
    for seat in (0, 1):
        set_goods(s, seat, corn=corn)
    play(s, "place tikal")
    return s


def test_a_second_worker_placed_on_the_last_day_costs_the_worker_it_starves(solver):
    """Rules 9 and 16: the second worker of the turn costs 1 corn more, the Food Day at the
    end of the day then feeds one worker less (3 VP; the corn it leaves is worth 1/4 VP at
    the final scoring, rules 18), and a worker placed on day 27 never acts."""
    s = last_day(corn=6)                              # 3 workers eat 6
    values = solver.move_outcomes(s, cap=200_000)
    assert set(values) >= {"end", "place uxmal"}
    assert values["end"][1] - values["place uxmal"][1] == 3 - 0.25
    assert max(values.values()) == values["end"]
    plenty = solver.move_outcomes(last_day(corn=20), cap=200_000)
    assert plenty["end"][1] - plenty["place uxmal"][1] == 0.25  # corn to spare: only the corn paid


def test_the_solve_is_the_finished_game_of_its_best_moves(solver):
    s = last_day(corn=6)
    end = solver.solve(s.clone(), [200_000])
    assert end.is_terminal
    assert solver.outcome(end, 0) == max(solver.move_outcomes(s, cap=200_000).values())


def test_a_position_past_the_cap_is_refused(solver):
    with pytest.raises(solver.TooBig):
        solver.move_outcomes(last_day(corn=6), cap=5)

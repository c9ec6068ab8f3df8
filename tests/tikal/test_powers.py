"""Rule 9: the 12 Museum Director powers (readings of gap A16)."""

import pytest

from mayagames.core import IllegalAction
from mayagames.tikal.testing import (action_phase, fresh, give_treasures, hx, lay_tile, legal_texts, play, put,
                                     raise_temple, strip_board)

TILE_OF = {"volcanologist": 0, "tracker": 0, "hunter": 0, "scout": 1, "builder": 1, "journalist": 1,
           "adventurer": 2, "nomad": 2, "merchant": 2, "fisher": 3, "driver": 3, "collector": 3}


def with_power(power, players=2, **options):
    s = fresh(players, **options)
    action_phase(s, 0)
    s.director[0] = TILE_OF[power]
    s.director[1] = (TILE_OF[power] + 1) % 4
    return s


def test_power_is_free_once_per_game_and_not_in_scoring_turns():
    s = with_power("builder")
    before = s.pp[0]
    raise_temple(s, "e5", 4)
    put(s, 0, "e5", explorers=1)
    play(s, "power builder")
    assert s.pp[0] == before + 4 and s.turn == 0 and s.power_used[0] == "builder"
    assert not any(t.startswith("power") for t in legal_texts(s))
    with pytest.raises(IllegalAction, match="once per game"):
        play(s, "power journalist")


def test_only_your_directors_powers():
    s = with_power("builder")
    with pytest.raises(IllegalAction, match="powers are scout, builder, journalist"):
        play(s, "power fisher")


def test_volcanologist_two_per_volcano_capped():
    s = with_power("volcanologist")
    put(s, 0, "c2", explorers=1)
    put(s, 0, "g6", explorers=1)
    before = s.pp[0]
    play(s, "power volcanologist")
    assert s.pp[0] == before + 4


def test_adventurer_three_per_jungle_max_nine():
    s = with_power("adventurer")
    for name in ("f4", "g4", "a2", "c4"):
        put(s, 0, name, explorers=1)
    before = s.pp[0]
    play(s, "power adventurer")
    assert s.pp[0] == before + 9


def test_builder_majority_only_unless_option():
    s = with_power("builder")
    raise_temple(s, "e5", 6)
    s.guardian[hx(s, "e5")] = 0
    s.guardians[0] = 1
    s.avail_explorers[0] -= 1
    raise_temple(s, "h5", 7)
    put(s, 0, "h5", explorers=1)
    before = s.pp[0]
    play(s, "power builder")
    assert s.pp[0] == before + 7
    s = with_power("builder", builder_counts_guardian=True)
    raise_temple(s, "e5", 6)
    s.guardian[hx(s, "e5")] = 0
    raise_temple(s, "h5", 7)
    put(s, 0, "h5", explorers=1)
    before = s.pp[0]
    play(s, "power builder")
    assert s.pp[0] == before + 6


def test_collector_least_valuable_set():
    s = with_power("collector")
    give_treasures(s, 0, {"lion": 3, "mask": 2})
    before = s.pp[0]
    play(s, "power collector")
    assert s.pp[0] == before + 3


def test_tracker_two_explorers_onto_adjacent_tiles_without_stones():
    s = strip_board(with_power("tracker"))
    put(s, 0, "e4", explorers=2)
    play(s, "power tracker")
    moves = legal_texts(s)
    assert "move explorer e4 e3" in moves and "move explorer e4 f4" not in moves  # f4 is Jungle
    play(s, "move explorer e4 e3")
    assert "end" in legal_texts(s)
    play(s, "move explorer e4 d4")
    assert s.stack == [] and s.turn == 0 and s.explorers[hx(s, "e3")] == 1


def test_hunter_explorer_from_a_tile_to_any_jungle():
    s = with_power("hunter")
    put(s, 0, "h5", explorers=1)
    play(s, "power hunter")
    assert legal_texts(s) == ["at h5"]
    play(s, "at h5")
    assert "at a1" in legal_texts(s) and "at e4" not in legal_texts(s)
    play(s, "at i6")
    assert s.explorers[hx(s, "i6")] == 1


def test_scout_five_move_or_deploy_points():
    s = with_power("scout")
    put(s, 0, "e4", explorers=1)
    play(s, "power scout")
    assert s.pending.points == 5 and s.pending.ctx == "scout"
    texts = legal_texts(s)
    assert "deploy explorer e4" in texts and not any(t.startswith(("stone", "recruit", "clear")) for t in texts)
    play(s, "deploy explorer e4", "end")
    assert s.turn == 0 and s.stack == []


def test_journalist_extra_card_on_the_right():
    s = with_power("journalist")
    name = s.card_name(s.display[0])
    play(s, "power journalist", f"take card {name}")
    assert [s.card_name(c) for c in s.right[0]] == [name] and len(s.display) == 9
    assert "pass" not in legal_texts(s)  # it must be played or kept first


def test_nomad_free_camp():
    s = with_power("nomad")
    play(s, "power nomad", "camp d4")
    assert s.camps[0] == [hx(s, "d4")] and s.turn == 0


def test_merchant_one_for_one_without_condition():
    s = with_power("merchant", players=3)
    give_treasures(s, 0, {"mask": 1})
    give_treasures(s, 1, {"lion": 3})
    play(s, "power merchant")
    assert legal_texts(s) == ["take blue lion 1"]
    play(s, "take blue lion 1", "give mask")
    assert s.treasure_count(0, 0) == 1 and s.treasure_count(1, 4) == 1 and s.turn == 0


def test_fisher_explorer_from_supply_onto_a_lake():
    s = with_power("fisher")
    play(s, "power fisher")
    assert legal_texts(s) == ["at c6", "at g2"]
    play(s, "at g2")
    assert s.explorers[hx(s, "g2")] == 1 and s.avail_explorers[0] == 17


def test_fisher_from_board_option():
    s = with_power("fisher", fisher_source="supply_or_board")
    put(s, 0, "e4", explorers=1)
    play(s, "power fisher")
    assert legal_texts(s) == ["choose supply", "at e4"]
    play(s, "at e4", "at c6")
    assert s.explorers[hx(s, "c6")] == 1 and s.explorers[hx(s, "e4")] == 0


def test_driver_leader_anywhere():
    s = with_power("driver")
    put(s, 0, "e4", leaders=1)
    play(s, "power driver", "at e4", "at g6")
    assert s.leaders[hx(s, "g6")] == 1


def test_unusable_power_is_not_offered():
    s = with_power("driver")
    assert "power driver" not in legal_texts(s)
    with pytest.raises(IllegalAction, match="cannot do anything now"):
        play(s, "power driver")


def test_unused_director_scores_five_at_the_end():
    s = fresh(2)
    s.round = 6
    action_phase(s, s.order[0])
    s.power_used[0] = "driver"
    before = list(s.pp)
    lay_tile(s, "c4", "A-1")
    play(s, "pass", "pass", "end", "end")
    assert s.is_terminal
    assert s.pp[1] - before[1] == 5 and s.pp[0] == before[0]


def test_fisher_from_the_only_lake_is_not_offered():
    s = with_power("fisher", fisher_source="supply_or_board")
    s.kind[hx(s, "g2")] = 0  # leave one Lake only (c6)
    s.avail_explorers[0] = 0
    s.removed_explorers[0] = 18
    put(s, 0, "c6", explorers=1)
    assert "power fisher" not in legal_texts(s)
    put(s, 0, "e4", explorers=1)
    s.refresh()  # after writing fields directly
    play(s, "power fisher")
    assert legal_texts(s) == ["at e4"]


def test_tracker_moves_two_different_explorers_not_one_twice():
    """Rule 9 Tracker: 2 Explorers, each one step (gap A16) - not one Explorer two steps."""
    s = strip_board(with_power("tracker"))
    put(s, 0, "e4", explorers=1)
    play(s, "power tracker", "move explorer e4 e3")
    # the only Explorer has moved: it may not step on again from e3
    assert not any(t.startswith("move explorer e3") for t in legal_texts(s))
    assert s.stack == [] and s.turn == 0  # nothing left to move: the power is over
    s = strip_board(with_power("tracker"))
    put(s, 0, "e4", explorers=1)
    put(s, 0, "e3", explorers=1)
    play(s, "power tracker", "move explorer e4 e3")
    # one Explorer on e3 has not moved yet: it may go on; the moved one may not
    assert "move explorer e3 d3" not in legal_texts(s)  # d3 is Jungle
    play(s, "move explorer e3 e4")
    assert s.explorers[hx(s, "e4")] == 1 and s.explorers[hx(s, "e3")] == 1 and s.stack == []


def test_scout_is_offered_only_when_its_points_can_be_spent():
    s = strip_board(with_power("scout"))
    s.avail_explorers[0], s.unavail_explorers[0] = 0, 30
    s.avail_leaders[0], s.unavail_leaders[0] = 0, 2
    put(s, 0, "f4", explorers=1)  # stranded: no stone around f4, no camp of its own
    assert "power scout" not in legal_texts(s)
    with pytest.raises(IllegalAction, match="cannot do anything now"):
        play(s, "power scout")
    put(s, 0, "e4", leaders=1)
    from mayagames.tikal.testing import give_camp
    give_camp(s, 0, "d4")
    s.refresh()  # after writing fields directly
    assert "power scout" in legal_texts(s)  # a Base-Camp trip e4 -> d4 is possible

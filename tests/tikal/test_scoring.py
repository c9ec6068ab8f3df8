"""Rule 8 (scoring) by hand-built positions; rule 8/11 scoring sequences; ties."""

from mayagames.tikal.scoring import score_breakdown
from mayagames.tikal.testing import (action_phase, ap_turn, fresh, give_camp, give_tile, give_treasures, hx,
                                     lay_tile, legal_texts, play, put, raise_temple)


def breakdown(s, seat):
    return score_breakdown(s, seat)


def test_temple_goes_to_the_strict_majority_leader_counts_three():
    s = fresh(2)
    raise_temple(s, "e5", 5)
    put(s, 0, "e5", leaders=1)
    put(s, 1, "e5", explorers=2)
    assert s.majority(hx(s, "e5")) == 0
    assert breakdown(s, 0)["temples"] == 5 and breakdown(s, 1)["temples"] == 0


def test_majority_tie_scores_for_nobody():
    s = fresh(3)
    put(s, 0, "e5", leaders=1)
    put(s, 1, "e5", explorers=3)
    put(s, 2, "e5", explorers=1)
    assert s.majority(hx(s, "e5")) == -1
    assert all(breakdown(s, p)["temples"] == 0 for p in range(3))


def test_guardian_temple_scores_for_its_owner_only():
    s = fresh(2)
    raise_temple(s, "e3", 4)
    put(s, 0, "e3", explorers=1)
    ap_turn(s, 0, 5)
    play(s, "guardian e3 explorer")
    put(s, 1, "e3", explorers=5)  # blue now has the presence, but the Guardian decides
    assert breakdown(s, 0)["temples"] == 4 and breakdown(s, 1)["temples"] == 0


def test_tallest_temple_bonus():
    s = fresh(2)
    for name, level in (("e3", 7), ("e5", 8), ("h5", 9), ("b3", 10)):
        raise_temple(s, name, level)
        put(s, 0, name, explorers=1)
    part = breakdown(s, 0)
    assert part["temples"] == 7 + 8 + 9 + 10 and part["tallest"] == 5 + 6 + 8 + 10


def test_volcanoes_ten_each_with_majority():
    s = fresh(2)
    put(s, 0, "c2", explorers=2)  # pre-placed volcano F1
    put(s, 1, "c2", explorers=1)
    put(s, 0, "g6", explorers=1)  # pre-placed volcano G1
    put(s, 1, "g6", explorers=1)
    assert breakdown(s, 0)["volcanoes"] == 10 and breakdown(s, 1)["volcanoes"] == 0


def test_jungles_times_temples():
    s = fresh(2)
    for name in ("f4", "g4", "a3"):  # two Jungle hexes and a dotted Jungle hex
        put(s, 0, name, explorers=1)
    put(s, 0, "e3", explorers=1)
    put(s, 0, "e5", explorers=1)
    assert breakdown(s, 0)["jungles"] == 3 * 2
    put(s, 1, "a3", explorers=1)  # a tie on a3
    assert breakdown(s, 0)["jungles"] == 2 * 2
    put(s, 1, "e5", explorers=2)  # blue takes e5: red now controls one temple
    assert breakdown(s, 0)["jungles"] == 2 * 1


def test_lakes_times_visible_masks():
    s = fresh(2)
    lay_tile(s, "c4", "B3")  # ruins, 4 masks, 4 treasures on it
    put(s, 0, "c4", explorers=1)
    put(s, 0, "b5", explorers=1)  # ruins F2: 2 masks, 2 treasures
    put(s, 0, "c6", explorers=1)  # lake F6
    put(s, 0, "g2", explorers=1)  # lake G6
    assert breakdown(s, 0)["lakes_ruins"] == (1 + 1) * 2  # ruins with treasures show 1 mask
    s.ruin[hx(s, "c4")] = []  # emptied (the tokens went to a museum)
    s.museum[0] += 4
    assert breakdown(s, 0)["lakes_ruins"] == (4 + 1) * 2
    put(s, 1, "g2", explorers=1)
    assert breakdown(s, 0)["lakes_ruins"] == (4 + 1) * 1


def test_treasure_sets():
    s = fresh(2)
    give_treasures(s, 0, {"lion": 1, "mask": 2, "totem": 3, "carafe": 4, "dagger": 5})
    assert breakdown(s, 0)["treasures"] == 1 + 3 + 6 + 10 + 15


def test_total_is_the_sum_of_categories():
    s = fresh(2)
    raise_temple(s, "e5", 7)
    put(s, 0, "e5", explorers=1)
    put(s, 0, "f4", explorers=1)
    give_treasures(s, 0, {"lion": 2})
    part = breakdown(s, 0)
    assert part["total"] == 7 + 5 + 1 * 1 + 3


# --- scoring sequences ---------------------------------------------------------------------------
def _volcano_game(players, **options):
    s = fresh(players, **options)
    action_phase(s, s.order[1])
    placer = s.order[1]
    give_tile(s, placer, "B2")
    return s, placer


def test_volcano_scoring_order_and_continuation():
    s, placer = _volcano_game(3)
    before = list(s.pp)
    put(s, placer, "e5", explorers=1)
    play(s, "place b2", "at f4", "rotate 0")
    assert s.scoring_kind == "volcano" and s.current_player == placer and s.pending.points == 10
    assert s.pending.ctx == "volcano" and "stone" in legal_texts(s)
    play(s, "end")
    assert s.pp[placer] == before[placer] + score_breakdown(s, placer)["total"]
    others = [x for x in s.order if x != placer]
    assert s.current_player == others[0]  # then the others, statuettes left to right
    play(s, "end")
    assert s.current_player == others[1]
    play(s, "end")
    assert s.scoring_kind == "" and s.stack == []
    assert s.turn == s.order[2]  # play continues after the placer
    assert s.last_scoring[-1]["kind"] == "volcano" and len(s.last_scoring) == 3


def test_volcano_order_after_placer_option():
    s, placer = _volcano_game(3, volcano_order="after_placer")
    play(s, "place b2", "at f4", "rotate 0", "end")
    assert s.current_player == s.order[2]


def test_scoring_turn_has_no_token_bonus_and_passed_players_take_part():
    s, placer = _volcano_game(2)
    other = [x for x in s.order if x != placer][0]
    s.passed[other] = True
    from mayagames.tikal.testing import give_card
    give_card(s, other, "ap-2", kept=True)
    play(s, "place b2", "at f4", "rotate 0", "end")
    assert s.current_player == other and not any(t.startswith("use") for t in legal_texts(s))
    assert not any(t.startswith("power") for t in legal_texts(s))


def test_volcano_from_a_card_does_not_score():
    s = fresh(2)
    action_phase(s, s.order[0])
    from mayagames.tikal.testing import give_card
    give_card(s, s.order[0], "volcano-v1")
    play(s, "play volcano-v1", "at a1", "rotate 0")
    assert s.scoring_kind == "" and s.kind[hx(s, "a1")] == 6 and s.turn == s.order[1]


def test_final_scoring_order_and_unused_director_bonus():
    s = fresh(2)
    s.round = s.setup_rules["rounds"]
    action_phase(s, s.order[0])
    s.next_order = [s.order[1], s.order[0]]  # next-round order reversed
    s.power_used[s.order[1]] = "builder"
    put(s, s.order[0], "e5", explorers=1)
    before = list(s.pp)
    play(s, "pass", "pass")
    assert s.phase_name == "final_scoring" and s.current_player == s.order[1]
    play(s, "end")
    assert s.current_player == s.order[0]
    play(s, "deploy explorer e4", "end")
    assert s.is_terminal
    first, second = s.order
    assert s.pp[second] == before[second] + score_breakdown(s, second)["total"]
    assert s.pp[first] == before[first] + score_breakdown(s, first)["total"] + 5


def test_tie_is_a_shared_victory():
    s = fresh(3)
    s.pp = [40, 40, 12]
    s.phase = 3
    s.stack = []
    assert s.is_terminal and s.winners() == [0, 1] and s.returns() == [0.5, 0.5, 0.0]


def test_camps_give_no_majority():
    s = fresh(2)
    give_camp(s, 0, "d4")
    assert s.majority(hx(s, "d4")) == -1

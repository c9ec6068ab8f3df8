"""The heuristic estimate, seat features for balance reports, and the GameInfo surface."""

from mayagames.core import Rng, get_game
from mayagames.agents.hooks import score_scale
from mayagames.tikal import heuristic
from mayagames.tikal.heuristic import estimate_scores, scores_if_now, scorings_left, unplaced_letter_volcanoes
from mayagames.tikal.scoring import score_if_now
from mayagames.tikal.testing import (action_phase, fresh, give_tile, lay_tile, play, put, raise_temple,
                                     random_moves)


def test_estimate_is_the_final_score_at_the_end():
    s = random_moves(fresh(3, seed=31), 100000, seed=1)
    assert s.is_terminal and estimate_scores(s) == s.scores()


def test_estimate_uses_no_hidden_information():
    s = random_moves(fresh(4, seed=32), 250, seed=2)
    assert estimate_scores(s) == estimate_scores(s.view(1)) == estimate_scores(s.view(None))
    full = s.view(0).determinize(Rng(5))
    assert estimate_scores(full) == estimate_scores(s)


def test_estimate_rewards_board_control_and_treasures():
    s = fresh(2, seed=33)
    base = estimate_scores(s)
    raise_temple(s, "e5", 6)
    put(s, 0, "e5", explorers=1)
    after = estimate_scores(s)
    assert after[0] > base[0] + 6 and after[1] == base[1]


def test_fast_scoring_matches_the_rules_scoring_everywhere():
    # The estimate's one-pass scoring (every seat at once) against rule 8's own count,
    # over whole random games with 2, 3 and 4 players (majorities, ties, Guardians).
    checked = 0
    for players, seed in ((2, 41), (3, 42), (4, 43)):
        s = fresh(players, seed=seed)
        rng = Rng(seed)
        while not s.is_terminal:
            assert scores_if_now(s) == score_if_now(s)
            s.apply(rng.choice(s.legal_actions()))
            checked += 1
    assert checked > 300


def test_score_scale_hook():
    assert score_scale(get_game("tikal")) == heuristic.SCORE_SCALE > 0


def test_volcanoes_to_come_count_as_scorings():
    s = fresh(2, seed=34)
    assert unplaced_letter_volcanoes(s) == 2 and scorings_left(s, 0) > 2
    lay_tile(s, "f4", "B-2")
    lay_tile(s, "f5", "D-2")
    assert unplaced_letter_volcanoes(s) == 0 and scorings_left(s, 0) == 1.0


def test_seat_features_for_balance_reports():
    s = fresh(3, seed=35)
    features = get_game("tikal").plugin.seat_features(s)
    assert len(features) == 3
    assert {f["starting_position"] for f in features} == {"1", "2", "3"}
    assert all(f["director_power"] == "unused" for f in features)
    action_phase(s, 0)
    raise_temple(s, "e5", 3)
    put(s, 0, "e5", explorers=1)
    s.director[0] = 1
    play(s, "power builder")
    assert get_game("tikal").plugin.seat_features(s)[0]["director_power"] == "builder"


def test_reveals_information_marks_chance_and_hidden_draws():
    s = fresh(2, seed=36)
    action_phase(s, 0)
    give_tile(s, 0, "A-4")  # ruins: face-down treasures are drawn onto it
    assert not s.reveals_information(s.parse_action("place A-4"))
    play(s, "place A-4", "at c4")
    assert s.reveals_information(s.parse_action("rotate 0"))
    assert s.reveals_information(s.parse_action("pass"))
    assert s.reveals_information(s.parse_action("unearth b5"))


def test_game_info():
    info = get_game("tikal")
    assert info.min_players == 1 and info.max_players == 4 and info.title == "Tikal Legend"
    assert {o.name for o in info.options} == {"guardian_removal", "starting_prestige", "volcano_order",
                                              "builder_counts_guardian", "fisher_source", "kept_card_spaces"}
    assert callable(info.plugin.prompt)

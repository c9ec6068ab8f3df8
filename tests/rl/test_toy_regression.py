"""Regression: 4-player toy games stalled when the deck ran out (found by seed_test).

A seat with an empty hand and fewer than 3 cards played had the turn and no legal
action. The fix (core/toy.py) skips seats that cannot play and ends the game when
no seat can.
"""

from __future__ import annotations

from mayagames.core import new_game
from mayagames.core.rng import Rng


def test_random_four_player_toy_games_never_stall():
    for seed in range(300):
        state, rng = new_game("toy", 4, seed=seed), Rng(seed + 99)
        while not state.is_terminal:
            legal = state.legal_actions()
            assert legal, f"seed {seed}: seat {state.current_player} has no legal action"
            state.apply(legal[rng.randbelow(len(legal))])


def test_seat_with_empty_hand_is_skipped_and_game_ends_when_nobody_can_play():
    state = new_game("toy", 4, seed=1)
    state.deck = []
    state.piles = [[1, 2, 3], [4, 5], [6], [7, 8]]
    state.hands = [[1], [2], [3, 5], []]
    state.turn = 1
    state.apply(state.parse_action("play 2"))  # seat 1 finishes; seat 3 holds nothing
    assert state.current_player == 2
    state.apply(state.parse_action("play 3"))
    assert state.current_player == 2  # seat 3 still skipped
    state.apply(state.parse_action("play 5"))
    assert state.is_terminal and state.legal_actions() == []

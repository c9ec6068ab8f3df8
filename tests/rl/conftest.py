"""Shared cases for the RL tests: every game with an encoding, at every player count."""

from __future__ import annotations

import pytest

from mayagames.core.registry import get_game
from mayagames.rl import encoded_games


def game_player_cases() -> list[tuple[str, int]]:
    cases = []
    for game in encoded_games():
        info = get_game(game)
        cases += [(game, n) for n in range(info.min_players, info.max_players + 1)]
    return cases


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Tests taking ``game`` and ``players`` run on every encoded game and player count."""
    if {"game", "players"} <= set(metafunc.fixturenames):
        cases = game_player_cases()
        metafunc.parametrize(("game", "players"), cases, ids=[f"{g}-{n}p" for g, n in cases])

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


class Budget:
    """Seeds of random games for one test case: at least ``min_games``, then more until
    ``decisions`` decisions were spent or ``max_games`` played (short toy games play
    many, long real games a few, so every game's tests stay fast)."""

    def __init__(self, decisions: int, max_games: int, min_games: int = 1) -> None:
        self.decisions, self.max_games, self.min_games = decisions, max_games, min_games
        self.spent = 0

    def __iter__(self):
        game = 0
        while game < self.max_games and (game < self.min_games or self.spent < self.decisions):
            yield game
            game += 1

    def spend(self, decisions: int) -> None:
        self.spent += decisions


@pytest.fixture
def budget():
    """The :class:`Budget` class, for tests that play random games."""
    return Budget

"""The registry of games, by name.

Built-in games register lazily: ``get_game("tikal")`` imports
:mod:`mayagames.tikal`, whose import registers it.

>>> from mayagames.core import registry
>>> "tikal" in registry.game_names()
True
"""

from __future__ import annotations

import importlib

from .errors import OptionError
from .game import GameInfo

_GAMES: dict[str, GameInfo] = {}

# Built-in games: name -> module that registers it on import.
BUILTIN = {"tikal": "mayagames.tikal", "tzolkin": "mayagames.tzolkin"}
# Small games for testing the core and the tools built on it; not listed to users.
TEST_GAMES = {"toy": "mayagames.core.toy"}


def register(info: GameInfo) -> GameInfo:
    """Register a game (re-registering the same name replaces it)."""
    _GAMES[info.name] = info
    return info


def get_game(name: str) -> GameInfo:
    """The game called ``name``, importing a built-in game if needed."""
    key = name.strip().lower()
    module = BUILTIN.get(key) or TEST_GAMES.get(key)
    if key not in _GAMES and module:
        importlib.import_module(module)
    if key not in _GAMES:
        raise OptionError(f"unknown game {name!r}; known games: {game_names()}")
    return _GAMES[key]


def game_names() -> list[str]:
    """Names of all built-in and registered games."""
    return sorted(set(BUILTIN) | set(_GAMES))


def all_game_names() -> list[str]:
    """Every game the registry knows, test games included (for the conformance suite)."""
    return sorted(set(BUILTIN) | set(TEST_GAMES) | set(_GAMES))

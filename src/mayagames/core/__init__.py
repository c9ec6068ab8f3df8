"""The game-agnostic core: protocol, chance, errors, registry, records."""

from .errors import GameOver, IllegalAction, MayaGamesError, NotationError, OptionError, RecordError
from .game import (Action, GameEvent, GameInfo, Narration, OptionSpec, State, fill_names, new_state,
                   random_playout, seat_ref)
from .record import GameRecord, Seat, replay, verify
from .registry import game_names, get_game, register
from .rng import Rng, derive_seed

__all__ = [
    "Action", "GameEvent", "GameInfo", "GameOver", "Narration", "fill_names", "seat_ref", "GameRecord", "IllegalAction", "MayaGamesError",
    "NotationError", "OptionError", "OptionSpec", "RecordError", "Rng", "Seat", "State",
    "derive_seed", "game_names", "get_game", "new_game", "new_state", "random_playout",
    "register", "replay", "verify",
]


def new_game(name: str, num_players: int, seed: int = 0, options: dict | None = None) -> State:
    """Start a game by name: ``new_game("tikal", 3, seed=1)``."""
    return new_state(get_game(name), num_players, seed, options)

"""Research API: PettingZoo and Gymnasium environments for every encoded game.

>>> from mayagames.rl import env, gym_env, encoded_games
>>> "toy" in encoded_games()
True

* :func:`env` / :class:`MayaAECEnv`: the PettingZoo AEC environment (all seats).
* :func:`gym_env` / :class:`MayaGymEnv`: one learning seat against bots; also
  registered with Gymnasium as ``mayagames/<game>-v0``
  (``gymnasium.make("mayagames/toy-v0", num_players=3)``).
* :func:`get_encoding`: a game's :class:`ActionCodec` and
  :class:`ObservationEncoder` (integer actions, masks, observation layout).

Adding a game is one module of its package, ``mayagames/<game>/encoding.py``, named by
its ``GamePlugin.encoding``; see ``docs/rl.md``.
"""

from __future__ import annotations

import gymnasium

from .aec import MayaAECEnv, env
from .encoding import (ActionCodec, CanvasEncoder, EncodingError, Field, GameEncoding, Layout, ObservationEncoder,
                       encoded_games, get_encoding, register_encoding)
from .single_agent import MayaGymEnv, gym_env
from .rewards import REWARDS

__all__ = [
    "ActionCodec", "CanvasEncoder", "EncodingError", "Field", "GameEncoding", "Layout", "MayaAECEnv", "MayaGymEnv",
    "ObservationEncoder", "REWARDS", "encoded_games", "env", "get_encoding", "gym_env",
    "register_encoding", "gym_id",
]


def gym_id(game: str) -> str:
    """The Gymnasium id of a game's single-agent environment."""
    return f"mayagames/{game}-v0"


def _register_gym_ids() -> None:
    for game in encoded_games():
        if gym_id(game) not in gymnasium.registry:
            gymnasium.register(id=gym_id(game), entry_point="mayagames.rl.single_agent:MayaGymEnv",
                               kwargs={"game": game})


_register_gym_ids()

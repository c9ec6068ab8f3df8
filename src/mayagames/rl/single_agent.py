"""A Gymnasium single-agent environment: one learning seat, the others played by bots.

>>> from mayagames.rl import gym_env
>>> e = gym_env("toy", num_players=3, opponents="random", seat="random")
>>> obs, info = e.reset(seed=5)
>>> while True:
...     legal = obs["action_mask"].nonzero()[0]
...     obs, reward, terminated, truncated, info = e.step(int(legal[0]))
...     if terminated or truncated:
...         break
>>> sorted(info)
['scores', 'seat', 'winners']

The learner observes the same dict as in the AEC environment (``observation``
from its own view, ``action_mask``); ``action_masks()`` returns the mask for
libraries that ask for it (sb3-contrib's MaskablePPO). The opponents are any
agents of :func:`mayagames.agents.make_agent` (``"random"`` today) and see only
their own views. The reward is the learner's terminal reward (0 before).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from ..agents import Agent, make_agent
from ..core.errors import IllegalAction, OptionError
from ..core.record import GameRecord, Seat
from ..core.registry import get_game
from ..core.rng import Rng, derive_seed
from .aec import check_choice
from .encoding import get_encoding
from .episode import Episode, check_index, live, render_text
from .rewards import get_reward


class MayaGymEnv(gymnasium.Env):
    """One seat of a game for a single learner; bots play the other seats.

    Parameters:
        game, num_players, options, reward: as for :class:`~mayagames.rl.aec.MayaAECEnv`.
        seat: the learner's seat, or ``"random"`` (drawn from each game's seed).
        opponents: one agent spec for every other seat, or a list with one spec per
            other seat in seat order (skipping the learner's).
        illegal_action: ``"lose"`` (default: Gymnasium's contract is that every
            action of the space is accepted; an index outside the mask ends the
            episode with ``illegal_reward`` and ``info["illegal_action"]`` naming the
            rule) or ``"raise"`` (:class:`IllegalAction`, nothing changes).
        render_mode: ``None``, ``"ansi"`` or ``"human"``; renders the learner's view.
        max_decisions: truncate after this many decisions of all seats together
            (default: the game's declared bound ``info.max_decisions``); reward 0.
    """

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4}

    def __init__(self, game: str = "toy", num_players: int = 2, seat: int | str = 0,
                 opponents: str | Sequence[str] = "random",
                 options: Mapping[str, Any] | None = None, reward: str = "zero_sum",
                 illegal_action: str = "lose", illegal_reward: float = -1.0,
                 render_mode: str | None = None, max_decisions: int | None = None) -> None:
        super().__init__()
        self.encoding = get_encoding(game)
        self.info = get_game(self.encoding.game)
        self.info.check_players(num_players)
        self.options = self.info.resolve_options(options)
        self.num_players = num_players
        self.seat_choice = check_seat(seat, num_players)
        self.opponent_specs = opponent_specs(opponents, num_players)
        for spec in set(self.opponent_specs):
            make_agent(spec, 0)  # a bad spec fails here, not in the middle of an episode
        self.reward_fn = get_reward(reward)
        check_choice("illegal_action", illegal_action, ("raise", "lose"))
        check_choice("render_mode", render_mode, (None, *self.metadata["render_modes"]))
        self.illegal_action, self.illegal_reward = illegal_action, float(illegal_reward)
        self.render_mode = render_mode
        self.max_decisions = max_decisions or self.info.max_decisions
        self.codec = self.encoding.codec(num_players)
        self.observer = self.encoding.observer(num_players)
        lay = self.observer.layout
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(lay.low(), lay.high(), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.codec.size,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(self.codec.size)
        self.episode: Episode | None = None
        self.seat = 0
        self.opponents: dict[int, Agent] = {}
        self.game_seed = 0
        self._over = True

    # --- the episode -------------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a game and let the bots play up to the learner's first decision.

        ``reset(seed=s)`` plays the game ``new_game(game, n, seed=s)``; the learner's
        seat (when random) and the bots' seeds derive from ``s`` too. ``options`` is
        accepted for API compatibility and ignored (game options are fixed).
        """
        super().reset(seed=seed)
        self.game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**62))
        self.seat = self._pick_seat()
        others = [s for s in range(self.num_players) if s != self.seat]
        self.opponents = {s: make_agent(spec, derive_seed(self.game_seed, "opponent", s))
                          for s, spec in zip(others, self.opponent_specs)}
        seats = [Seat("learner", "rl") if s == self.seat else
                 Seat(f"player_{s}", self.opponents[s].name) for s in range(self.num_players)]
        self.episode = Episode(self.encoding, self.num_players, self.game_seed, self.options,
                               seats, self.codec, self.observer)
        self._over = False
        self._play_opponents()
        if self.episode.state.is_terminal:
            raise RuntimeError(f"{self.info.name}: the game ended before the learner's first "
                               "decision")
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        episode = self._live_episode()
        if self._over:
            raise RuntimeError("the episode is over; call reset()")
        index = check_index(action, self.codec.size)
        try:
            episode.play_index(index)
        except IllegalAction as exc:
            if self.illegal_action == "raise":
                raise
            self._over = True
            info = {**self._info(), "illegal_action": str(exc), "rule": exc.rule}
            return self._obs(), self.illegal_reward, True, False, info
        self._play_opponents()
        reward, info = 0.0, self._info()
        terminated = episode.state.is_terminal
        truncated = not terminated and self._too_long()
        if terminated:
            reward = float(self.reward_fn(episode.state, self.encoding.score_scale)[self.seat])
            info.update(scores=episode.state.scores(), winners=episode.state.winners())
        self._over = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, truncated, info

    def _play_opponents(self) -> None:
        """Bots decide, each from its own view, until the learner's turn or the end."""
        episode = self._live_episode()
        while (seat := episode.current_player) is not None and seat != self.seat \
                and not self._too_long():
            legal = list(episode.state.legal_actions())  # a copy: a bot may reorder it
            episode.play(self.opponents[seat].act(episode.view(seat), legal))

    def _too_long(self) -> bool:
        return len(self._live_episode().record.moves) >= self.max_decisions

    def _pick_seat(self) -> int:
        if self.seat_choice == "random":
            return Rng(derive_seed(self.game_seed, "learner seat")).randbelow(self.num_players)
        return int(self.seat_choice)

    def _obs(self) -> dict[str, np.ndarray]:
        episode = self._live_episode()
        return {"observation": episode.observation(self.seat), "action_mask": self.action_masks()}

    def _info(self) -> dict[str, Any]:
        # Not the game's seed: it fixes every shuffle, so a policy reading it could
        # reconstruct hidden cards. It stays on the env (``game_seed``, ``record()``).
        return {"seat": self.seat}

    def action_masks(self) -> np.ndarray:
        """The learner's legal indices (all zeros when the episode is over)."""
        if self._over:
            return np.zeros(self.codec.size, dtype=np.int8)
        return self._live_episode().mask(self.seat)

    def _live_episode(self) -> Episode:
        return live(self.episode)

    # --- presentation and research access ---------------------------------------------
    def render(self) -> str | None:
        return render_text(self.episode, self.render_mode, self.seat)

    @property
    def game_state(self):
        """The true engine state (research and tests only; the learner sees its view)."""
        return self._live_episode().state

    def record(self) -> GameRecord:
        """The record of the current game (replays with ``mayagames replay``)."""
        return self._live_episode().record


def check_seat(seat: int | str, num_players: int) -> int | str:
    if seat == "random" or (isinstance(seat, int) and 0 <= seat < num_players):
        return seat
    raise OptionError(f"seat must be 0..{num_players - 1} or 'random', got {seat!r}")


def opponent_specs(opponents: str | Sequence[str], num_players: int) -> list[str]:
    """One agent spec per other seat (a single spec is used for all of them)."""
    if isinstance(opponents, str):
        return [opponents] * (num_players - 1)
    specs = list(opponents)
    if len(specs) != num_players - 1:
        raise OptionError(f"{num_players} players need {num_players - 1} opponent specs, "
                          f"got {len(specs)}: {specs}")
    return specs


def gym_env(game: str = "toy", **kwargs: Any) -> MayaGymEnv:
    """The single-agent environment of ``game`` (see :class:`MayaGymEnv`)."""
    return MayaGymEnv(game, **kwargs)

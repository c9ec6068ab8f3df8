"""A PettingZoo AEC environment for any game with an RL encoding.

>>> from mayagames.rl import env
>>> e = env("toy", num_players=2)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), obs["observation"].shape, int(obs["action_mask"].sum()) > 0
(['action_mask', 'observation'], (44,), True)

Agents are ``player_0 .. player_{n-1}`` (seat numbers). The acting agent is the
seat whose decision it is; compound turns give the same agent several steps in a
row. Each agent observes a dict with ``observation`` (its view, encoded; see
``docs/rl.md``) and ``action_mask`` (``int8``, 1 for its legal indices on its
turn, all zeros otherwise). Rewards come once, at the end (see
:mod:`mayagames.rl.rewards`).
"""

from __future__ import annotations

import secrets
from typing import Any, Mapping

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core.errors import IllegalAction, OptionError
from ..core.record import GameRecord, Seat
from ..core.registry import get_game
from ..core.rng import Rng
from .encoding import get_encoding
from .episode import Episode, check_index, live, render_text
from .rewards import get_reward

ILLEGAL_MODES = ("raise", "lose")


class MayaAECEnv(AECEnv):
    """PettingZoo AEC environment of one game at a fixed player count.

    Parameters:
        game: a game with an encoding (``mayagames.rl.encoded_games()``).
        num_players: seats; the action and observation spaces depend on it.
        options: game options (fixed for the environment's life).
        reward: ``"zero_sum"`` (default), ``"win"`` or ``"score_margin"``.
        illegal_action: ``"raise"`` (default: an index outside the mask raises
            :class:`~mayagames.core.errors.IllegalAction` naming the rule, and
            nothing changes) or ``"lose"`` (the game ends; the offender gets
            ``illegal_reward``, the others 0, and its info says why).
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the text) or
            ``"human"`` (prints it after every step).
        render_seat: whose view ``render()`` shows; ``None`` is a spectator.
        max_decisions: truncate the game after this many decisions (all seats
            together); default: the game's declared bound ``info.max_decisions``,
            so that even a policy that stalls (e.g. swapping forever in the toy
            game) ends its episode. A truncated game gives every seat reward 0.
    """

    metadata = {"render_modes": ["human", "ansi"], "name": "mayagames_v0",
                "is_parallelizable": False}

    def __init__(self, game: str = "toy", num_players: int = 2,
                 options: Mapping[str, Any] | None = None, reward: str = "zero_sum",
                 illegal_action: str = "raise", illegal_reward: float = -1.0,
                 render_mode: str | None = None, render_seat: int | None = None,
                 max_decisions: int | None = None) -> None:
        super().__init__()
        self.encoding = get_encoding(game)
        self.info = get_game(self.encoding.game)
        self.info.check_players(num_players)
        self.options = self.info.resolve_options(options)
        self.num_players = num_players
        self.reward_fn = get_reward(reward)
        self.reward_name = reward
        check_choice("illegal_action", illegal_action, ILLEGAL_MODES)
        check_choice("render_mode", render_mode, (None, *self.metadata["render_modes"]))
        check_choice("render_seat", render_seat, (None, *range(num_players)))
        self.illegal_action, self.illegal_reward = illegal_action, float(illegal_reward)
        self.render_mode, self.render_seat = render_mode, render_seat
        self.max_decisions = max_decisions or self.info.max_decisions
        self.metadata = {**self.metadata, "name": f"mayagames_{self.info.name}_v0"}
        self.codec = self.encoding.codec(num_players)
        self.observer = self.encoding.observer(num_players)
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        self.agent_seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {a: self._observation_space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.codec.size) for a in self.possible_agents}
        self._seeds: Rng | None = None
        self.episode: Episode | None = None

    def _observation_space(self) -> spaces.Dict:
        lay = self.observer.layout
        return spaces.Dict({
            "observation": spaces.Box(lay.low(), lay.high(), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.codec.size,), dtype=np.int8),
        })

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # --- the episode ---------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a game. ``reset(seed=s)`` plays the game ``new_game(game, n, seed=s)``;
        later ``reset()`` calls continue a sequence of seeds derived from ``s``.

        ``options`` is accepted for API compatibility and ignored: game options are
        fixed at construction because the spaces may depend on them.
        """
        if seed is not None:
            game_seed = int(seed)
            self._seeds = Rng(game_seed)
        else:
            if self._seeds is None:
                self._seeds = Rng(secrets.randbits(63))
            game_seed = self._seeds.next64() >> 1
        seats = [Seat(agent, "rl") for agent in self.possible_agents]
        self.episode = Episode(self.encoding, self.num_players, game_seed, self.options, seats,
                               self.codec, self.observer)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.decisions = 0
        self._select_current()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_seat[agent]
        episode = self._live_episode()
        done = self.terminations.get(agent, True) or self.truncations.get(agent, True)
        mask = np.zeros(self.codec.size, dtype=np.int8) if done else episode.mask(seat)
        return {"observation": episode.observation(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        episode = self._live_episode()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = check_index(action, self.codec.size)
        try:
            move = episode.resolve(index)
        except IllegalAction as exc:
            if self.illegal_action == "raise":
                raise
            self._end_for_illegal(agent, exc)
            return
        self._cumulative_rewards[agent] = 0.0
        # Rewards are given only when the game ends (_end_game, _end_for_illegal): while
        # it runs every reward is 0, so clearing and accumulating them would change nothing.
        episode.play(move)
        self.decisions += 1
        current = episode.state.current_player
        if current is None:
            self._end_game()
            self._accumulate_rewards()
        elif self.decisions >= self.max_decisions:
            self.truncations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[current]
        if self.render_mode == "human":
            self.render()

    def _select_current(self) -> None:
        self.agent_selection = self.possible_agents[self._live_episode().current_player]

    def _end_game(self) -> None:
        """Terminal rewards from the final scores; scores and winners in every info."""
        state = self._live_episode().state
        values = self.reward_fn(state, self.encoding.score_scale)
        result = {"scores": state.scores(), "winners": state.winners()}
        for agent in self.agents:
            self.rewards[agent] = float(values[self.agent_seat[agent]])
            self.terminations[agent] = True
            self.infos[agent] = dict(result)

    def _end_for_illegal(self, offender: str, exc: IllegalAction) -> None:
        """``illegal_action="lose"``: the offender loses at once; the others score 0."""
        self._cumulative_rewards[offender] = 0.0
        self._clear_rewards()
        self.rewards[offender] = self.illegal_reward
        self.infos[offender] = {"illegal_action": str(exc), "rule": exc.rule}
        self.terminations = {a: True for a in self.agents}
        self._accumulate_rewards()

    def _live_episode(self) -> Episode:
        return live(self.episode)

    # --- presentation and research access -------------------------------------------
    def render(self) -> str | None:
        return render_text(self.episode, self.render_mode, self.render_seat)

    def close(self) -> None:
        """Nothing to release (the engine holds no outside resources)."""

    @property
    def game_state(self):
        """The true engine state (hidden parts included): for research and tests, never
        to be handed to a learning seat; observations show only what each seat may see."""
        return self._live_episode().state

    def record(self) -> GameRecord:
        """The record of the current game (replays with ``mayagames replay``)."""
        return self._live_episode().record


def check_choice(name: str, value: Any, choices: tuple[Any, ...]) -> None:
    if value not in choices:
        raise OptionError(f"{name} must be one of {list(choices)}, got {value!r}")


def env(game: str = "toy", **kwargs: Any) -> MayaAECEnv:
    """The AEC environment of ``game`` (see :class:`MayaAECEnv` for the arguments)."""
    return MayaAECEnv(game, **kwargs)

"""The environments pass the libraries' own checkers, on every encoded game and player count."""

from __future__ import annotations

import warnings

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from mayagames.rl import MayaGymEnv, env, gym_env, gym_id

# api_test warns about every dict observation (PettingZoo whitelists its own
# classic games, whose observations are the same {observation, action_mask} dict).
EXPECTED_API_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}

pytestmark = [pytest.mark.filterwarnings(f"ignore:{message[:40]}") for message in EXPECTED_API_WARNINGS]


def run_recording_warnings(check, *args, **kwargs) -> set[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check(*args, **kwargs)
    return {str(w.message) for w in caught}


def test_pettingzoo_api_test(game, players):
    seen = run_recording_warnings(api_test, env(game, num_players=players, render_mode="ansi"),
                                  num_cycles=1000)
    assert seen <= EXPECTED_API_WARNINGS, seen - EXPECTED_API_WARNINGS


def test_pettingzoo_api_test_with_lose_on_illegal(game, players):
    api_test(env(game, num_players=players, illegal_action="lose"), num_cycles=300)


def test_pettingzoo_seed_test(game, players):
    seed_test(lambda: env(game, num_players=players), num_cycles=1000)


def test_gymnasium_env_checker(game, players, capsys):
    environment = gym_env(game, num_players=players, seat="random", render_mode="ansi")
    assert isinstance(environment, MayaGymEnv)
    seen = run_recording_warnings(check_env, environment)
    assert all("render modes" in message for message in seen), seen  # no spec: no make()


def test_gymnasium_make_and_checker_with_spec(game, players, capsys):
    made = gymnasium.make(gym_id(game), num_players=players)
    assert isinstance(made.unwrapped, MayaGymEnv)
    assert run_recording_warnings(check_env, made.unwrapped) == set()
    made.close()

"""Behaviour of the AEC environment and the Gymnasium wrapper: seeding, rewards,
illegal actions, truncation, rendering, records, and full games against bots."""

from __future__ import annotations

import numpy as np
import pytest

from mayagames import agents
from mayagames.core import IllegalAction, OptionError, new_game, verify
from mayagames.core.conformance import fingerprint
from mayagames.core.rng import Rng
from mayagames.rl import REWARDS, env, gym_env
from mayagames.rl.rewards import score_margin, win, zero_sum


def play_aec(aec, seed: int, pick=None) -> dict[str, float]:
    """Play one game with masked random actions; returns each agent's total reward."""
    aec.reset(seed=seed)
    rng = Rng(seed)
    totals = {a: 0.0 for a in aec.possible_agents}
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        if terminated or truncated:
            aec.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        aec.step(int(legal[rng.randbelow(len(legal))]) if pick is None else pick(legal))
    return totals


# --- AEC: seeds, rewards, records ------------------------------------------------------


def test_reset_seed_plays_the_engine_game_with_that_seed(game, players):
    aec = env(game, num_players=players)
    aec.reset(seed=123)
    assert fingerprint(aec.game_state) == fingerprint(new_game(game, players, seed=123))


def test_unseeded_resets_continue_a_reproducible_sequence():
    a, b = env("toy"), env("toy")
    a.reset(seed=5)
    b.reset(seed=5)
    seeds_a, seeds_b = [], []
    for _ in range(3):
        a.reset()
        b.reset()
        seeds_a.append(a.record().seed)
        seeds_b.append(b.record().seed)
    assert seeds_a == seeds_b and len(set(seeds_a)) == 3


@pytest.mark.parametrize("reward", sorted(REWARDS))
def test_terminal_rewards_follow_the_scheme_and_the_record_verifies(game, players, reward, budget):
    aec = env(game, num_players=players, reward=reward)
    games = budget(decisions=500, max_games=10)
    for seed in games:
        totals = play_aec(aec, seed)
        games.spend(len(aec.record().moves))
        final = verify(aec.record())  # the episode's record replays to the same result
        assert final.is_terminal
        expected = REWARDS[reward](final, aec.encoding.score_scale)
        assert [totals[a] for a in aec.possible_agents] == pytest.approx(expected)
        if players == 1:  # solo score attack: the score, scaled
            assert expected == pytest.approx([max(-1, min(1, final.scores()[0] / aec.encoding.score_scale))])
        elif reward == "zero_sum":
            assert sum(expected) == pytest.approx(0.0)
        elif reward == "win":
            assert sum(expected) == pytest.approx(1.0)


def test_infos_carry_the_result_at_the_end():
    aec = env("toy", num_players=3)
    aec.reset(seed=2)
    infos = {}
    for agent in aec.agent_iter():
        _, _, terminated, truncated, info = aec.last()
        if terminated:
            infos[agent] = info
        aec.step(None if terminated or truncated else int(np.flatnonzero(aec.observe(agent)["action_mask"])[0]))
    state = aec.game_state
    assert set(infos) == set(aec.possible_agents)
    assert all(i == {"scores": state.scores(), "winners": state.winners()} for i in infos.values())


def toy_final_state(piles: list[list[int]], bonus: list[bool]):
    state = new_game("toy", len(piles), seed=0)
    state.piles = [list(p) for p in piles]
    state.bonus_used = list(bonus)
    state.hands = [[] for _ in piles]
    state.deck = [1] * (16 - sum(map(len, piles)))
    assert state.is_terminal
    return state


def test_reward_schemes_on_built_outcomes():
    two_tie = toy_final_state([[8, 1, 1], [5, 5]], [False, False])  # 10 - 10
    assert win(two_tie, 24) == [0.5, 0.5] and zero_sum(two_tie, 24) == [0.0, 0.0]
    assert score_margin(two_tie, 24) == [0.0, 0.0]
    four = toy_final_state([[8, 8, 7], [1, 1, 2], [2, 3, 3], [4, 4, 5]], [True, False, False, False])
    assert win(four, 24) == [1.0, 0.0, 0.0, 0.0]
    assert zero_sum(four, 24) == pytest.approx([1.0, -1 / 3, -1 / 3, -1 / 3])
    assert score_margin(four, 24) == pytest.approx([11 / 24, -20 / 24, -16 / 24, -11 / 24])
    assert score_margin(four, 10) == pytest.approx([1.0, -1.0, -1.0, -1.0])  # clipped
    three_shared = toy_final_state([[8, 1], [7, 2], [1, 2]], [False, False, False])
    assert zero_sum(three_shared, 24) == pytest.approx([0.25, 0.25, -0.5])


def test_unknown_reward_render_mode_and_illegal_mode_are_clear_errors():
    with pytest.raises(OptionError, match="unknown reward"):
        env("toy", reward="elo")
    with pytest.raises(OptionError, match="render_mode"):
        env("toy", render_mode="rgb_array")
    with pytest.raises(OptionError, match="illegal_action"):
        env("toy", illegal_action="ignore")
    with pytest.raises(OptionError, match="render_seat"):
        env("toy", num_players=2, render_seat=2)
    with pytest.raises(OptionError, match="2-4 players"):
        env("toy", num_players=5)
    with pytest.raises(OptionError, match="unknown option"):
        env("toy", options={"speed": 1})


# --- AEC: bad actions -------------------------------------------------------------------


def illegal_index(aec) -> int:
    return int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"] == 0)[0])


def test_illegal_index_raises_naming_the_rule_and_changes_nothing():
    aec = env("toy", num_players=2)
    aec.reset(seed=1)
    hand = aec.game_state.hands[0]
    missing = next(c for c in range(1, 9) if c not in hand)
    before, moves, agent = fingerprint(aec.game_state), list(aec.record().moves), aec.agent_selection
    with pytest.raises(IllegalAction) as err:
        aec.step(missing - 1)  # "play <missing card>"
    assert err.value.rule == "toy: hand"
    assert fingerprint(aec.game_state) == before and aec.record().moves == moves
    assert aec.agent_selection == agent and not any(aec.terminations.values())
    with pytest.raises(IllegalAction, match="compound turn|bonus"):
        aec.step(16)  # "bonus" outside a compound turn
    aec.step(int(np.flatnonzero(aec.observe(agent)["action_mask"])[0]))  # still playable


@pytest.mark.parametrize("bad", [18, -1, 2.5, "3", None, True])
def test_malformed_actions_are_value_errors(bad):
    aec = env("toy")
    aec.reset(seed=1)
    before = fingerprint(aec.game_state)
    with pytest.raises(ValueError, match="action"):
        aec.step(bad)
    assert fingerprint(aec.game_state) == before


def test_numpy_integer_actions_are_accepted():
    aec = env("toy")
    aec.reset(seed=1)
    legal = np.flatnonzero(aec.observe("player_0")["action_mask"])
    aec.step(np.int64(legal[0]))
    assert len(aec.record().moves) == 1


def test_lose_on_illegal_ends_the_game_for_everyone():
    aec = env("toy", num_players=3, illegal_action="lose", illegal_reward=-2.0)
    aec.reset(seed=4)
    offender = aec.agent_selection
    aec.step(illegal_index(aec))
    assert all(aec.terminations.values())
    assert aec.rewards == {a: (-2.0 if a == offender else 0.0) for a in aec.possible_agents}
    assert aec.infos[offender]["rule"] and "illegal action" in aec.infos[offender]["illegal_action"]
    assert not aec.observe(offender)["action_mask"].any()
    finished = []
    for agent in aec.agent_iter():
        finished.append(agent)
        aec.step(None)
    assert sorted(finished) == sorted(aec.possible_agents) and aec.agents == []


def test_step_before_reset_is_a_clear_error():
    with pytest.raises(RuntimeError, match="reset"):
        env("toy").observe("player_0")
    with pytest.raises(RuntimeError, match="reset"):
        env("toy").step(0)


def test_numpy_seeds_are_accepted_by_the_aec_env():
    a, b = env("toy"), env("toy")
    a.reset(seed=np.int64(77))
    b.reset(seed=77)
    assert fingerprint(a.game_state) == fingerprint(b.game_state)


# --- AEC: truncation and rendering -----------------------------------------------------------


def test_a_stalling_policy_is_truncated_at_max_decisions():
    """With unlimited swaps a toy seat may swap forever; the env ends such a game."""
    aec = env("toy", num_players=2, max_decisions=40, options={"swaps": 0})

    def stall(legal):  # always swap (8..15) or end (17), never play
        stalling = [i for i in legal if 8 <= i <= 15 or i == 17]
        return int(stalling[0] if stalling else legal[0])

    totals = play_aec(aec, 3, pick=stall)
    assert len(aec.record().moves) == 40
    assert not aec.game_state.is_terminal
    assert totals == {a: 0.0 for a in aec.possible_agents}


def test_default_truncation_is_the_games_declared_bound():
    assert env("toy").max_decisions == 200


def test_render_shows_the_chosen_seats_view_only():
    spectator = env("toy", num_players=2, render_mode="ansi")
    spectator.reset(seed=1)
    text = spectator.render()
    assert text == spectator.game_state.render(None) and "hand [? ?]" in text
    seat1 = env("toy", num_players=2, render_mode="ansi", render_seat=1)
    seat1.reset(seed=1)
    own = " ".join(map(str, sorted(seat1.game_state.hands[1])))
    assert f"seat 1: hand [{own}]" in seat1.render() and "seat 0: hand [? ?]" in seat1.render()


def test_human_render_prints_after_each_step(capsys):
    aec = env("toy", render_mode="human")
    aec.reset(seed=1)
    aec.step(int(np.flatnonzero(aec.observe("player_0")["action_mask"])[0]))
    assert "Hidden High Card" in capsys.readouterr().out


# --- Gymnasium wrapper --------------------------------------------------------------------------


class SpyAgent:
    """A random bot that records the views it is given."""

    log: list[tuple[int | None, int]] = []

    def __init__(self, seed: int) -> None:
        self.name = "spy"
        self.inner = agents.RandomAgent(seed)

    def act(self, view, legal):
        SpyAgent.log.append((view.viewer, view.current_player))
        return self.inner.act(view, legal)


@pytest.fixture
def spy_agents(monkeypatch):
    SpyAgent.log = []
    monkeypatch.setitem(agents.AGENT_FACTORIES, "spy", lambda arg, seed: SpyAgent(seed))
    return SpyAgent.log


def test_gym_plays_full_games_against_random(game, players, budget):
    environment = gym_env(game, num_players=players, seat="random", opponents="random")
    seats, rng = set(), Rng(players)
    games = budget(decisions=1500, max_games=20, min_games=4)
    for seed in games:
        obs, info = environment.reset(seed=seed)
        seats.add(info["seat"])
        done, steps, reward = False, 0, 0.0
        while not done:
            assert environment.game_state.current_player == info["seat"]  # the learner's turn
            legal = np.flatnonzero(obs["action_mask"])
            assert legal.size > 0
            obs, reward, terminated, truncated, info = environment.step(int(legal[rng.randbelow(legal.size)]))
            done, steps = terminated or truncated, steps + 1
            if not done:
                assert reward == 0.0
        assert terminated and not truncated
        final = verify(environment.record())
        assert reward == pytest.approx(zero_sum(final, environment.encoding.score_scale)[info["seat"]])
        assert info["winners"] == final.winners() and not obs["action_mask"].any()
        assert set(info) == {"seat", "scores", "winners"}  # never the seed (it fixes the deck)
        games.spend(len(environment.record().moves))
    assert len(seats) > 1 or players == 1  # "random" seats vary with the seed


def test_gym_opponents_see_only_their_own_views(spy_agents):
    environment = gym_env("toy", num_players=4, seat=2, opponents="spy")
    obs, _ = environment.reset(seed=8)
    while True:
        obs, _, terminated, truncated, _ = environment.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if terminated or truncated:
            break
    assert spy_agents, "the opponents never acted"
    assert all(viewer == to_move and viewer != 2 for viewer, to_move in spy_agents)


def test_gym_same_seed_same_game_and_different_seeds_differ():
    def trajectory(seed):
        environment = gym_env("toy", num_players=3, seat="random")
        obs, info = environment.reset(seed=seed)
        out = [obs["observation"].tolist()]
        while True:
            obs, reward, terminated, truncated, info = environment.step(int(np.flatnonzero(obs["action_mask"])[-1]))
            out.append(obs["observation"].tolist())
            if terminated or truncated:
                return out, reward, environment.record().moves

    assert trajectory(9) == trajectory(9)
    assert trajectory(9)[2] != trajectory(10)[2]


def test_gym_illegal_action_loses_by_default_and_can_raise():
    environment = gym_env("toy", num_players=2)
    obs, _ = environment.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = environment.step(bad)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["rule"] == "toy: hand" and "not in your hand" in info["illegal_action"]
    assert not environment.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        environment.step(0)

    strict = gym_env("toy", num_players=2, illegal_action="raise")
    obs, _ = strict.reset(seed=1)
    before = fingerprint(strict.game_state)
    with pytest.raises(IllegalAction):
        strict.step(bad)
    assert fingerprint(strict.game_state) == before
    strict.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_gym_truncates_a_stalling_learner():
    environment = gym_env("toy", num_players=2, max_decisions=30, options={"swaps": 0})
    obs, _ = environment.reset(seed=2)
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        stalling = [i for i in legal if 8 <= i <= 15 or i == 17]
        obs, reward, terminated, truncated, info = environment.step(int(stalling[0] if stalling else legal[0]))
        if terminated or truncated:
            break
    assert truncated and not terminated and reward == 0.0 and "winners" not in info


def test_gym_argument_errors():
    with pytest.raises(OptionError, match="seat"):
        gym_env("toy", num_players=2, seat=2)
    with pytest.raises(OptionError, match="opponent specs"):
        gym_env("toy", num_players=3, opponents=["random"])
    with pytest.raises(ValueError, match="unknown agent"):
        gym_env("toy", opponents="grandmaster")
    with pytest.raises(RuntimeError, match="reset"):
        gym_env("toy").step(0)


def test_gym_per_seat_opponent_specs_and_render(spy_agents):
    environment = gym_env("toy", num_players=3, seat=0, opponents=["random", "spy"],
                          render_mode="ansi")
    obs, _ = environment.reset(seed=3)
    assert [s.agent for s in environment.record().seats] == ["rl", "random", "spy"]
    own = " ".join(map(str, sorted(environment.game_state.hands[0])))
    assert f"seat 0: hand [{own}]" in environment.render() and "seat 1: hand [? ?]" in environment.render()

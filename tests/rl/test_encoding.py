"""Integer actions, masks and observations of every encoded game, checked in random games."""

from __future__ import annotations

import numpy as np
import pytest

from mayagames.core import OptionError, new_game
from mayagames.core.conformance import play_random_game
from mayagames.core.rng import Rng
from mayagames.rl import EncodingError, Field, Layout, env, get_encoding, encoded_games
from mayagames.core.toy_encoding import ToyCodec



def test_codec_round_trips_every_legal_action_seen(game, players, budget):
    encoding = get_encoding(game)
    codec = encoding.codec(players)
    seen = 0

    def check(state, step):
        nonlocal seen
        if state.is_terminal:
            return
        view = state.view(state.current_player)
        indices = set()
        for action in state.legal_actions():
            index = codec.encode(action, view)
            assert 0 <= index < codec.size, f"{action} -> {index}"
            assert codec.decode(index, view) == action, f"{action} -> {index} -> back differs"
            indices.add(index)
            seen += 1
        assert len(indices) == len(state.legal_actions()), "two legal actions share an index"

    games = budget(decisions=3000, max_games=25, min_games=3)
    for g in games:
        _, record = play_random_game(game, players, seed=1000 + g, on_step=check)
        games.spend(len(record.moves))
    assert seen >= games.spent


def test_mask_is_exactly_the_legal_actions_in_env_play(game, players, budget):
    """Along whole games through the AEC env: the acting agent's mask marks exactly
    the legal actions, every other agent's mask is all zeros, and each masked
    index decodes to a legal action."""
    aec = env(game, num_players=players)
    codec = aec.codec
    games = budget(decisions=1000, max_games=25)
    for g in games:
        aec.reset(seed=g)
        rng = Rng(g)
        for agent in aec.agent_iter():
            games.spend(1)
            obs, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                assert not obs["action_mask"].any()
                aec.step(None)
                continue
            state = aec.game_state
            view = state.view(state.current_player)
            legal = state.legal_actions()
            expected = np.zeros(codec.size, dtype=np.int8)
            expected[[codec.encode(a, view) for a in legal]] = 1
            assert np.array_equal(obs["action_mask"], expected)
            assert obs["action_mask"].dtype == np.int8
            for other in aec.agents:
                if other != agent:
                    assert not aec.observe(other)["action_mask"].any()
            masked = np.flatnonzero(obs["action_mask"])
            assert {codec.decode(int(i), view) for i in masked} == set(legal)
            aec.step(int(masked[rng.randbelow(len(masked))]))


def test_observations_stay_in_their_box_for_every_seat(game, players, budget):
    aec = env(game, num_players=players)
    space = aec.observation_space("player_0")["observation"]
    games = budget(decisions=800, max_games=5)
    for g in games:
        aec.reset(seed=100 + g)
        for agent in aec.agent_iter():
            games.spend(1)
            for other in aec.agents:
                obs = aec.observe(other)["observation"]
                assert obs.dtype == np.float32 and obs.shape == space.shape
                assert space.contains(obs), aec.observer.layout.split(obs)
            _, _, terminated, truncated, _ = aec.last(observe=False)
            mask = aec.observe(agent)["action_mask"]
            aec.step(None if terminated or truncated else int(np.flatnonzero(mask)[0]))


def test_observation_ignores_hidden_parts_of_the_true_state(game, players, budget):
    """Resampling everything a seat cannot see (determinize its view) and putting
    that state into the env leaves the seat's observation and mask unchanged."""
    aec = env(game, num_players=players)
    rng = Rng(7)
    checked = 0
    games = budget(decisions=600, max_games=8)
    for g in games:
        aec.reset(seed=200 + g)
        for step, agent in enumerate(aec.agent_iter()):
            games.spend(1)
            _, _, terminated, truncated, _ = aec.last(observe=False)
            if terminated or truncated:
                aec.step(None)
                continue
            if step % 3 == 0:
                checked += check_seat_blind_to_hidden(aec, rng)
            mask = aec.observe(agent)["action_mask"]
            aec.step(int(np.flatnonzero(mask)[rng.randbelow(int(mask.sum()))]))
    assert checked > 0


def check_seat_blind_to_hidden(aec, rng: Rng) -> int:
    episode = aec.episode
    true_state = episode.state
    checked = 0
    for seat, agent in enumerate(aec.possible_agents):
        before = aec.observe(agent)
        episode.state = true_state.view(seat).determinize(rng)
        episode.invalidate()
        after = aec.observe(agent)
        episode.state = true_state
        episode.invalidate()
        assert np.array_equal(before["observation"], after["observation"]), f"seat {seat}"
        assert np.array_equal(before["action_mask"], after["action_mask"]), f"seat {seat}"
        checked += 1
    return checked


def test_toy_observation_changes_with_own_hand_not_with_hidden_cards():
    """The toy game made concrete: shuffling the deck or changing an opponent's
    hand does not move seat 0's observation; changing seat 0's own hand does."""
    aec = env("toy", num_players=3)
    aec.reset(seed=11)
    state = aec.game_state
    before = aec.observe("player_0")["observation"]
    opponent_view_before = aec.observe("player_1")["observation"]
    # exchange an opponent's card with a different deck card, and reverse the deck
    i = next(i for i, c in enumerate(state.deck) if c not in state.hands[1])
    state.hands[1][0], state.deck[i] = state.deck[i], state.hands[1][0]
    state.deck.reverse()
    aec.episode.invalidate()
    assert np.array_equal(aec.observe("player_0")["observation"], before)
    assert not np.array_equal(aec.observe("player_1")["observation"], opponent_view_before)
    j = next(j for j, c in enumerate(state.deck) if c not in state.hands[0])
    state.hands[0][0], state.deck[j] = state.deck[j], state.hands[0][0]
    aec.episode.invalidate()
    assert not np.array_equal(aec.observe("player_0")["observation"], before)


def test_toy_observation_fields_read_back():
    aec = env("toy", num_players=2)
    aec.reset(seed=3)
    state = aec.game_state
    fields = aec.observer.layout.split(aec.observe("player_1")["observation"])
    hand = np.zeros(8)
    for card in state.hands[1]:
        hand[card - 1] += 0.5
    assert np.array_equal(fields["hand"], hand)
    assert fields["to_move"].tolist() == [0.0, 1.0]  # seat 0 moves: next after the viewer
    assert fields["deck_size"][0] == pytest.approx(len(state.deck) / 16)
    assert fields["unseen"].sum() * 2 == 16 - len(state.hands[1])


def test_encoder_refuses_a_true_state():
    observer = get_encoding("toy").observer(2)
    state = new_game("toy", 2, seed=1)
    with pytest.raises(EncodingError, match="view"):
        observer.observe(state)
    assert observer.observe(state.view(0)).shape == (observer.layout.size,)


def test_codec_refuses_two_actions_on_one_index():
    class Collapsing(ToyCodec):
        def encode(self, action, view):
            return 0

    state = new_game("toy", 2, seed=1)
    with pytest.raises(EncodingError, match="both encode to 0"):
        Collapsing(2).legal_index(state.view(0), state.legal_actions())


def test_toy_action_table():
    codec = get_encoding("toy").codec(4)
    assert codec.size == 18
    assert [codec.label(i) for i in (0, 7, 8, 15, 16, 17)] == [
        "play 1", "play 8", "swap 1", "swap 8", "bonus", "end"]


def test_layout_slices_are_contiguous_and_bounded():
    layout = Layout([Field("a", 2, "x"), Field("b", 3, "y", low=-1, high=2)])
    assert layout.size == 5 and layout.slice("b") == slice(2, 5)
    assert layout.low().tolist() == [0, 0, -1, -1, -1] and layout.high().tolist() == [1, 1, 2, 2, 2]
    obs = layout.zeros()
    layout.put(obs, "b", [1, 2, 0])
    assert layout.split(obs)["b"].tolist() == [1, 2, 0]
    with pytest.raises(EncodingError, match="duplicate"):
        Layout([Field("a", 1, "x"), Field("a", 1, "y")])


def test_registry_finds_toy_and_refuses_unknown_games():
    assert "toy" in encoded_games()
    assert get_encoding("TOY").game == "toy"
    with pytest.raises(OptionError, match="no RL encoding for game 'chess'"):
        get_encoding("chess")
    with pytest.raises(OptionError, match="no RL encoding"):
        env("chess")

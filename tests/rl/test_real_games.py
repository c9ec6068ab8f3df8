"""Game-specific checks of the Tikal and Tzolk'in encodings: positional action keys,
and concrete hidden information that must not reach an observation."""

from __future__ import annotations

import numpy as np

from mayagames.core import new_game
from mayagames.core.rng import Rng
from mayagames.rl import env, get_encoding
from mayagames.tikal import actions as TA


def test_tikal_positional_actions_round_trip_and_are_seen():
    """Moves, camps, transfers and treasure trades are encoded against the actor's view;
    random play reaches each kind, and each decodes back to the same action."""
    codec = get_encoding("tikal").codec(3)
    seen: set[str] = set()
    for seed in range(20):
        state, rng = new_game("tikal", 3, seed=seed), Rng(seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            view = state.view(state.current_player)
            for action in legal:
                if isinstance(action, (TA.Move, TA.Camp, TA.Transfer, TA.Take)):
                    assert codec.decode(codec.encode(action, view), view) == action
                    seen.add(type(action).__name__)
            state.apply(legal[rng.randbelow(len(legal))])
        if seen == {"Move", "Camp", "Transfer", "Take"}:
            break
    assert seen == {"Move", "Camp", "Transfer", "Take"}


def test_tikal_take_index_names_a_seat_relative_to_the_actor():
    codec = get_encoding("tikal").codec(3)
    index = codec.index[("take", 1, "lion", 1)]  # "from the next seat in turn order"
    state = new_game("tikal", 3, seed=1)
    for actor in range(3):
        assert codec.decode(index, state.view(actor)) == TA.Take((actor + 1) % 3, "lion", 1)


def test_tikal_hidden_order_never_reaches_an_observation():
    """Reordering the deck, the AP bag, the tile piles and the face-down treasures of the
    true state changes no seat's observation; a visible change does."""
    aec = env("tikal", num_players=3)
    aec.reset(seed=4)
    rng = Rng(9)
    for _ in range(60):  # into the game, so that ruins hold treasures
        mask = aec.observe(aec.agent_selection)["action_mask"]
        legal = np.flatnonzero(mask)
        aec.step(int(legal[rng.randbelow(len(legal))]))
    state = aec.game_state
    before = {a: aec.observe(a)["observation"] for a in aec.possible_agents}
    hidden = [state.deck, state.bag, state.green, *state.piles.values(), *state.ruin.values()]
    original = [list(pile) for pile in hidden]
    for pile in hidden:
        rng.shuffle(pile)
        pile.reverse()
    changed = sum(pile != old for pile, old in zip(hidden, original))
    assert changed >= 4 and any(len(stack) > 1 for stack in state.ruin.values())
    aec.episode.invalidate()
    for agent in aec.possible_agents:
        assert np.array_equal(aec.observe(agent)["observation"], before[agent])
    state.pp[1] += 5
    aec.episode.invalidate()
    assert not np.array_equal(aec.observe("player_0")["observation"], before["player_0"])


def test_tzolkin_draft_tiles_and_building_stacks_stay_hidden():
    """During the draft a seat sees its own dealt tiles, not another's; the building
    stacks' order and identity reach nobody."""
    aec = env("tzolkin", num_players=2)
    aec.reset(seed=3)
    state = aec.game_state
    assert state.phase_name == "draft"
    seat1_before = aec.observe("player_1")["observation"]
    seat0_before = aec.observe("player_0")["observation"]
    # swap one of seat 0's dealt tiles with a tile still in the box, and shuffle the stacks
    state.dealt[0][0], state.tile_box[0] = state.tile_box[0], state.dealt[0][0]
    for stack in state.stacks:
        stack.reverse()
    aec.episode.invalidate()
    assert np.array_equal(aec.observe("player_1")["observation"], seat1_before)
    assert not np.array_equal(aec.observe("player_0")["observation"], seat0_before)


def test_tzolkin_codec_covers_every_action_in_random_games():
    codec = get_encoding("tzolkin").codec(4)
    kinds: set[str] = set()
    for seed in range(6):
        state, rng = new_game("tzolkin", 4, seed=seed), Rng(seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            view = state.view(state.current_player)
            for action in legal:
                assert codec.actions[codec.encode(action, view)] == action
                kinds.add(type(action).__name__)
            state.apply(legal[rng.randbelow(len(legal))])
    assert {"Keep", "Place", "Pick", "Do", "Build", "Tech", "Pay", "EndTurn"} <= kinds

"""Property tests over thousands of random games, and the core conformance suite.

Two policies play: uniform random (the conformance suite's) and a "builder" that
prefers actions over passing, so that games reach monuments, high technologies,
temple tops and skull shortages. After every move the state's invariants hold
(workers, dummies, skulls, harvest tiles, buildings, monuments, start tiles and the
corn ledger are conserved) and notation round-trips; finished games replay from
their JSON record to the same final state.
"""

import pytest
from hypothesis import given, settings, strategies as st

from mayagames.core import GameRecord, Rng, conformance, verify
from mayagames.core.conformance import fingerprint
from mayagames.tzolkin.actions import parse_action

PREFER = {"do": 6, "build": 8, "tech": 4, "offer": 3, "temple": 2, "temples": 3, "place": 3,
          "pick": 4, "buy": 1, "sell": 1, "keep": 1, "take": 1, "pay": 1, "harvest": 2,
          "burn": 1, "anger": 1, "beg": 1, "advance": 1, "nothing": 1, "stop": 1, "end": 1}


def weight(text):
    if text.startswith("build m"):
        return 40
    if text == "do tikal 4":
        return 30
    return PREFER[text.split()[0]]


def builder_choice(legal, rng):
    """A random choice weighted towards doing things (reaches rarer rules)."""
    weights = [weight(str(a)) for a in legal]
    pick = rng.randbelow(sum(weights))
    for action, w in zip(legal, weights):
        pick -= w
        if pick < 0:
            return action
    return legal[-1]


def play_checked(players, seed, policy, options=None, check_every=1):
    """Play one game checking invariants and notation; returns (state, record)."""
    record = GameRecord.start("tzolkin", players, seed, options)
    state = record.new_state()
    rng = Rng(seed * 31 + 7)
    step = 0
    while not state.is_terminal:
        legal = state.legal_actions()
        assert legal, f"no legal action at step {step}"
        action = builder_choice(legal, rng) if policy == "builder" else legal[rng.randbelow(len(legal))]
        if step % check_every == 0:
            for a in legal:
                assert parse_action(str(a)) == a
        record.moves.append(str(action))
        state.apply(action)
        step += 1
        if step % check_every == 0:
            broken = state.invariants()
            assert not broken, f"seed {seed} step {step} after {action}: {broken}"
    record.finish(state)
    assert state.legal_actions() == [] and state.winners()
    return state, record


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("policy", ["uniform", "builder"])
@pytest.mark.parametrize("chunk", range(6))
def test_random_games_never_break_invariants(players, policy, chunk):
    """6 chunks x 2 policies x 3 player counts x 60 games = 2160 games."""
    for g in range(60):
        seed = 10_000 * players + 1000 * chunk + g + (500 if policy == "builder" else 0)
        state, _ = play_checked(players, seed, policy, check_every=1 if g % 3 == 0 else 5)
        assert state.food_done == 4 and state.day >= 28


@pytest.mark.parametrize("players", [2, 3, 4])
def test_records_replay_to_the_same_state(players):
    for g in range(25):
        state, record = play_checked(players, 77_000 + g, "builder" if g % 2 else "uniform",
                                     check_every=50)
        again = verify(GameRecord.from_json(record.to_json()))
        assert fingerprint(again) == fingerprint(state)


@pytest.mark.parametrize("options", [
    {"dummy_placement": "single", "jungle_tiles": "four"},
    {"monuments": "six", "corn_vp": "floor", "uxmal4_price": "market", "a1t3_architecture": True},
])
def test_option_variants_play_cleanly(options):
    for players in (2, 3, 4):
        for g in range(20):
            play_checked(players, 5_000 + g, "builder", options=options, check_every=3)


def test_builder_games_reach_rare_rules():
    """The builder policy (deterministic seeds) reaches monuments and level-3 technologies."""
    monuments = level3 = buildings = 0
    for g in range(100):
        state, _ = play_checked(4, 90_000 + g, "builder", check_every=100)
        monuments += sum(len(m) for m in state.monuments)
        buildings += sum(len(b) for b in state.built)
        level3 += sum(1 for P in state.p for t in range(4) if P[9 + t] == 3)
    assert monuments >= 1 and level3 > 10 and buildings > 300


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**40), players=st.sampled_from([2, 3, 4]),
       policy=st.sampled_from(["uniform", "builder"]))
def test_hypothesis_seeds(seed, players, policy):
    play_checked(players, seed, policy, check_every=4)


@pytest.mark.parametrize("players", [2, 4])
def test_views_and_clones_on_builder_games(players):
    """Views are fixed points of determinization; clones are independent (deep states)."""
    state, record = play_checked(players, 4242 + players, "builder", check_every=1000)
    replay_state = GameRecord.from_json(record.to_json()).new_state()
    rng = Rng(9)
    for i, text in enumerate(record.moves):
        replay_state.apply(replay_state.parse_action(text))
        if i % 9 or replay_state.is_terminal:
            continue
        for seat in list(range(players)) + [None]:
            view = replay_state.view(seat)
            full = view.determinize(rng)
            assert full.invariants() == []
            assert fingerprint(full.view(seat)) == fingerprint(view)
            if seat == replay_state.current_player:
                assert [str(a) for a in full.legal_actions()] == [str(a) for a in replay_state.legal_actions()]
        before = fingerprint(replay_state)
        copy = replay_state.clone()
        for _ in range(6):
            if copy.is_terminal:
                break
            copy.apply(copy.legal_actions()[0])
        assert fingerprint(replay_state) == before

"""The speed work changes no result: seeded random games, heuristic and MCTS decisions
(with the root's visit counts) and RL observation/mask bytes reproduce the traces stored
from commit 5c3cb8b (see ``traces.py``; regenerate only for an intended change of
behaviour, and say so)."""

import importlib.util
import json
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("equivalence_traces", Path(__file__).with_name("traces.py"))
traces = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(traces)

STORED = json.loads(traces.FIXTURE.read_text())


def test_every_trace_is_stored():
    assert sorted(STORED) == sorted(traces.TRACES)


@pytest.mark.parametrize("name", sorted(traces.TRACES))
def test_trace_reproduces(name):
    assert traces.compute(name) == STORED[name]


def test_a_changed_policy_would_be_caught():
    """The heuristic trace depends on the decisions: a bot with noise decides otherwise."""
    noisy = traces.heuristic_decisions("tikal", 2, 10, noise=5.0, epsilon=0.5)
    assert noisy != STORED["tikal heuristic 2p"]


@pytest.mark.parametrize("game,players", [("tikal", 2), ("tikal", 4), ("tzolkin", 2), ("tzolkin", 4)])
def test_public_estimate_is_the_same_from_every_view(game, players):
    """The heuristic bot estimates full states directly when the game declares its estimate
    public (``PUBLIC_ESTIMATE``): so it must equal the estimate of every seat's view."""
    from mayagames.agents.hooks import estimator, public_estimate
    from mayagames.core import get_game, new_game
    from mayagames.core.rng import Rng

    info = get_game(game)
    assert public_estimate(info)
    estimate = estimator(info)
    checked = 0
    for seed in range(2):
        state, rng = new_game(game, players, seed), Rng(seed)
        while not state.is_terminal:
            if rng.randbelow(4) == 0:
                full = estimate(state)
                for seat in range(players):
                    assert estimate(state.view(seat)) == full
                checked += 1
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randbelow(len(legal))])
    assert checked > 50


def test_tikal_actions_that_reveal_nothing_have_one_public_result():
    """Tikal declares ``CHANCE_IS_REVEALED``: an action that does not reveal information
    gives the same estimate and the same view in every determinization of the mover's view
    (the heuristic bot then values it once for all its sampled worlds)."""
    from mayagames.agents.hooks import chance_is_revealed, estimator
    from mayagames.core import get_game, new_game
    from mayagames.core.rng import Rng

    info = get_game("tikal")
    assert chance_is_revealed(info)
    estimate = estimator(info)
    state, rng, checked = new_game("tikal", 2, 5), Rng(5), 0
    while not state.is_terminal:
        if rng.randbelow(15) == 0:
            seat = state.current_player
            view = state.view(seat)
            worlds = [view.determinize(Rng(k)) for k in range(2)]
            for action in state.legal_actions():
                if state.reveals_information(action):
                    continue
                results = public_results(worlds, action, seat, estimate)
                assert results[0] == results[1], action
                checked += 1
        legal = state.legal_actions()
        state.apply_unchecked(legal[rng.randbelow(len(legal))])
    assert checked > 30


def public_results(worlds, action, seat, estimate):
    """What ``seat`` learns from ``action`` in each world: the end, the estimate, the view."""
    import json

    results = []
    for world in worlds:
        after = world.clone()
        after.apply_unchecked(action)
        results.append((after.is_terminal, estimate(after),
                        json.dumps(after.view(seat).to_dict(), sort_keys=True, default=str)))
    return results


def test_tzolkin_actions_that_reveal_nothing_have_one_public_result():
    """Tzolk'in declares ``CHANCE_IS_REVEALED`` too: an action that reveals nothing (no
    building drawn, no draft pick) gives the same estimate and the same view in every
    determinization of the mover's view, so the heuristic bot values a look-through in
    which nothing is revealed once for all its sampled worlds. ``revealed_by`` (the
    answer from the states before and after) agrees with ``reveals_information``."""
    from mayagames.agents.hooks import chance_is_revealed, estimator
    from mayagames.core import get_game, new_game
    from mayagames.core.rng import Rng

    info = get_game("tzolkin")
    assert chance_is_revealed(info)
    estimate = estimator(info)
    checked = revealing = 0
    for seed in (5, 6):
        state, rng = new_game("tzolkin", 3, seed), Rng(seed)
        while not state.is_terminal:
            if rng.randbelow(12) == 0:
                seat = state.current_player
                view = state.view(seat)
                worlds = [view.determinize(Rng(k)) for k in range(2)]
                for action in state.legal_actions():
                    after = state.clone()
                    after.apply_unchecked(action)
                    reveals = state.reveals_information(action)
                    assert state.revealed_by(action, after) == reveals, action
                    if reveals:
                        revealing += 1
                        continue
                    results = public_results(worlds, action, seat, estimate)
                    assert results[0] == results[1], action
                    checked += 1
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randbelow(len(legal))])
    assert checked > 100 and revealing > 5


@pytest.mark.parametrize("game", ["tikal", "tzolkin"])
def test_a_determinizer_samples_the_worlds_determinize_samples(game):
    """``view.determinizer()`` (what is unseen worked out once, for a search) gives, call
    after call, the worlds that ``view.determinize`` gives from the same generator."""
    import json

    from mayagames.core import new_game
    from mayagames.core.rng import Rng

    state, rng, checked = new_game(game, 3, 4), Rng(4), 0
    while not state.is_terminal:
        if rng.randbelow(40) == 0:
            view = state.view(state.current_player)
            sample = view.determinizer()
            ours, theirs = Rng(checked), Rng(checked)
            for _ in range(3):
                a, b = sample(ours), view.determinize(theirs)
                assert json.dumps(a.to_dict(), sort_keys=True, default=str) == \
                    json.dumps(b.to_dict(), sort_keys=True, default=str)
                assert a.legal_actions() == b.legal_actions()
            assert ours.next64() == theirs.next64()  # the same draws were made
            checked += 1
        legal = state.legal_actions()
        state.apply_unchecked(legal[rng.randbelow(len(legal))])
    assert checked > 5

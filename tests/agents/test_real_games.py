"""The bots on every built-in game present in this checkout (skipped until it lands).

Hidden information is perturbed generically: a different true state with the same
view for the seat is ``state.view(seat).determinize(rng)``.
"""

from __future__ import annotations

import importlib.util

import pytest

from mayagames.agents import make_agent
from mayagames.agents.hooks import seat_features
from mayagames.core import conformance, get_game, new_game
from mayagames.core.registry import BUILTIN
from mayagames.core.rng import Rng

GAMES = ["toy"] + sorted(BUILTIN)
SPECS = ["heuristic", "easy", "mcts:8i,rollout=10"]


def available(game: str) -> bool:
    if game == "toy":
        return True
    try:
        return importlib.util.find_spec(BUILTIN[game]) is not None
    except ModuleNotFoundError:
        return False


def need(game: str) -> None:
    if not available(game):
        pytest.skip(f"the {game} engine is not in this checkout")


def positions(game: str, count: int, seed: int = 0):
    """Positions with a real choice, spread over a random 2-player game."""
    state = new_game(game, 2, seed=seed)
    rng = Rng(seed)
    out = []
    step = 0
    while not state.is_terminal and len(out) < count:
        legal = state.legal_actions()
        if len(legal) > 1 and step % 7 == 3:
            out.append(state.clone())
        state.apply(rng.choice(legal))
        step += 1
    return out


@pytest.mark.parametrize("game", GAMES)
def test_bots_play_a_whole_game_legally(game):
    need(game)
    state = new_game(game, 2, seed=1)
    agents = [make_agent(SPECS[0], 1), make_agent(SPECS[2], 2)]
    for _ in range(get_game(game).max_decisions):
        if state.is_terminal:
            break
        seat = state.current_player
        legal = state.legal_actions()
        action = agents[seat].act(state.view(seat), legal)
        assert action in legal
        state.apply(action)
    features = seat_features(get_game(game))
    if state.is_terminal and features:
        assert len(features(state)) == 2 and all(isinstance(v, str) for f in features(state)
                                                 for v in f.values())


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("spec", SPECS)
def test_decisions_ignore_what_the_seat_cannot_see(game, spec):
    need(game)
    rng = Rng(17)
    for state in positions(game, 4):
        seat = state.current_player
        legal = state.legal_actions()
        view = state.view(seat)
        expected = make_agent(spec, 3).act(view, legal)
        for _ in range(2):
            other = view.determinize(rng)  # another truth behind the same view
            assert conformance.fingerprint(other.view(seat)) == conformance.fingerprint(view)
            assert make_agent(spec, 3).act(other.view(seat), other.legal_actions()) == expected

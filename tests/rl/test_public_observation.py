"""Encoders that declare ``public`` read the true state instead of a seat's view (the
environments then skip copying the state): what they compute must equal, bit for bit,
what the seat's view gives, at every kind of position, for every seat, including a
Tzolk'in draft with other seats' choices still hidden. Observations kept on a
``Canvas`` between calls (only changed field groups redrawn) must equal a fresh fill."""

import numpy as np
import pytest

from mayagames.core import new_game
from mayagames.core.rng import Rng
from mayagames.rl.encoding import get_encoding


def positions(game: str, players: int, seed: int, every: int):
    """Every ``every``-th position of a seeded random game (the first ones included)."""
    state, rng, n = new_game(game, players, seed), Rng(seed), 0
    while not state.is_terminal:
        if n < 12 or n % every == 0:
            yield state
        legal = state.legal_actions()
        state.apply_unchecked(legal[rng.randbelow(len(legal))])
        n += 1
    yield state


@pytest.mark.parametrize("name,seats", [("tikal", 2), ("tikal", 3), ("tzolkin", 2), ("tzolkin", 4)])
def test_public_observation_equals_the_views(name, seats):
    game, players = name, seats
    encoding = get_encoding(game)
    kept = encoding.observer(players)  # one observer for the whole game: canvases kept
    codec = encoding.codec(players)
    assert kept.public and codec.public
    checked = 0
    for state in positions(game, players, seed=3, every=7):
        for seat in range(players):
            view = state.view(seat)
            fresh = np.zeros(kept.layout.size, dtype=np.float32)
            encoding.observer(players).fill(view, fresh)
            from_state = kept.observe_seat(state, seat)
            assert from_state.tobytes() == fresh.tobytes(), (seat, state.current_player)
            assert kept.observe(view).tobytes() == fresh.tobytes()
        mover = state.current_player
        if mover is not None:
            legal = state.legal_actions()
            assert codec.legal_index_seat(state, mover, legal) == codec.legal_index(state.view(mover), legal)
        checked += 1
    assert checked > 40


def test_hidden_draft_choices_stay_hidden():
    """Before the Tzolk'in draft is revealed, another seat's kept tiles are not in a
    seat's observation built from the true state."""
    encoding = get_encoding("tzolkin")
    state, rng = new_game("tzolkin", 3, 1), Rng(1)
    observer = encoding.observer(3)
    while not (state.kept[0] and not state.revealed):  # seat 0 has chosen, not yet revealed
        legal = state.legal_actions()
        state.apply_unchecked(legal[rng.randbelow(len(legal))])
    tiles = len(observer.layout.split(observer.observe_seat(state, 0))["own_dealt"])
    fields = observer.layout.split(observer.observe_seat(state, 1))
    seat0 = 2  # seat 0 is two seats after seat 1
    assert not fields["kept"][seat0 * tiles:(seat0 + 1) * tiles].any()
    assert fields["draft_chosen"][seat0] == 1.0  # that it chose is public
    own = observer.layout.split(observer.observe_seat(state, 0))
    assert own["kept"][:tiles].sum() == len(state.kept[0])  # its own kept tiles it sees

"""A search's worlds (``search_determinizer``) shuffle the building stacks, the boxes and the
start tiles when a rule first reads them: the same draws, the same play, the same state as
the worlds ``determinizer`` shuffles at once."""

import pytest

from mayagames.core import Rng, new_game


def positions(players: int, seed: int, count: int = 4) -> list:
    """Copies of one seeded random game at evenly spread decisions (the draft included)."""
    game, rng, states = new_game("tzolkin", players, seed), Rng(seed), []
    while not game.is_terminal:
        if rng.randbelow(45) == 0 or game.phase_name == "draft" and not states:
            states.append(game.clone())
        legal = game.legal_actions()
        game.apply(legal[rng.randbelow(len(legal))])
    return states[::max(1, len(states) // count)]


def test_rng_skip_lands_where_the_draws_would():
    a, b = Rng(9), Rng(9)
    for _ in range(17):
        a.next64()
    b.skip(17)
    assert a.state == b.state and a.next64() == b.next64()
    with pytest.raises(ValueError):
        b.skip(-1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_search_worlds_play_and_show_as_the_eager_worlds(players):
    owed = drawn = 0
    for state in positions(players, seed=players):
        seat = state.current_player
        view = state.view(seat)
        lazy, eager = view.search_determinizer(), view.determinizer()
        ours, theirs = Rng(5), Rng(5)
        for k in range(3):
            world, truth = lazy(ours), eager(theirs)
            assert ours.state == theirs.state            # the generator's later draws agree
            owed += world.deferred is not None
            moves = Rng(k)
            while not world.is_terminal:
                legal = world.legal_actions()
                assert legal == truth.legal_actions()
                action = legal[moves.randbelow(len(legal))]
                before = world.stacks[0] + world.stacks[1]
                world.apply(action)
                truth.apply(action)
                drawn += world.stacks[0] + world.stacks[1] != before
            assert world.to_dict() == truth.to_dict()   # every owed shuffle made, as eagerly
            assert world.invariants() == []
            assert lazy(ours).view(seat).to_dict() == eager(theirs).view(seat).to_dict()
    assert owed and drawn   # worlds did owe shuffles, and buildings were drawn from them


def test_a_clone_of_a_search_world_owes_its_own_shuffles():
    state = positions(2, seed=7)[1]
    world = state.view(state.current_player).search_determinizer()(Rng(3))
    copy = world.clone()
    shown = world.to_dict()                  # makes the world's shuffles, not the copy's
    assert copy.deferred is not None and world.deferred is None
    assert copy.to_dict() == shown

"""``core.framestack.FrameStackState``: the base of both games' states (issue 25).

Its declared field list is what ``clone()`` copies from, and ``invariants()`` reports any
attribute left out of it: a field added to a game without a declaration fails here (and in
every property test that checks invariants), instead of being shared by a state and its
clones."""

from __future__ import annotations

import pytest

from mayagames.core import new_game
from mayagames.core.framestack import FrameStackState
from mayagames.core.rng import Rng
from mayagames.tikal.state import TikalState
from mayagames.tzolkin.state import TzolkinState

GAMES = {"tikal": TikalState, "tzolkin": TzolkinState}


def played(game: str, seed: int, moves: int) -> FrameStackState:
    state, rng = new_game(game, 2, seed), Rng(seed)
    for _ in range(moves):
        if state.current_player is None:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randbelow(len(legal))])
    assert isinstance(state, FrameStackState)
    return state


@pytest.mark.parametrize("game", GAMES)
def test_both_states_are_frame_stack_states_with_no_private_protocol(game):
    cls = GAMES[game]
    assert issubclass(cls, FrameStackState)
    # the shared machinery lives in the base: the games fill hooks, they do not redefine it
    for name in ("legal_actions", "legal_cached", "apply", "playout", "explain_illegal", "clone",
                 "invariants"):
        assert name not in vars(cls), f"{cls.__name__} redefines {name}"
    # apply_unchecked is the game's _advance hook itself, bound by the base (one call)
    assert cls.apply_unchecked is cls._apply is vars(cls)["_advance"]


@pytest.mark.parametrize("game", GAMES)
def test_every_field_of_a_state_its_views_and_worlds_is_declared(game):
    for moves in (0, 40, 400, 5000):
        state = played(game, seed=moves, moves=moves)
        view = state.view(state.current_player)
        for s in (state, state.clone(), view, view.determinize(Rng(3)), view.search_determinizer()(Rng(4))):
            assert s.undeclared_fields() == []


@pytest.mark.parametrize("game", GAMES)
def test_field_lists_do_not_overlap_and_match_what_the_fields_hold(game):
    cls = GAMES[game]
    lists = (cls.base_fields, cls.shared_fields, cls.list_fields, cls.nested_fields, cls.dict_fields)
    names = [name for group in lists for name in group]
    assert len(names) == len(set(names)), "a field is declared twice"
    state = played(game, seed=1, moves=300)
    for name in cls.list_fields:
        value = getattr(state, name)
        assert type(value) is list, name
        # a list of containers needs a deeper copy, unless its entries are written once
        # and declared shared (Tikal's ``last_scoring``)
        assert name in cls.shared_on_clone or not any(isinstance(x, (list, dict, set)) for x in value), name
    for name in cls.nested_fields:
        value = getattr(state, name)
        assert type(value) is list and all(type(x) is list for x in value), name
    for name in cls.dict_fields:
        value = getattr(state, name)
        assert type(value) is dict and all(type(x) is list for x in value.values()), name
    for name in cls.shared_fields:  # a mutable container shared by copies must be declared so
        if isinstance(getattr(state, name), (list, dict, set)):
            assert name in cls.shared_on_clone, f"{name} is a container shared by every copy"


@pytest.mark.parametrize("game", GAMES)
def test_a_field_added_without_declaring_it_is_reported(game):
    state = played(game, seed=2, moves=60)
    assert state.invariants() == []
    state.new_pile = [1, 2]                       # a rule change forgot the declaration
    assert any("'new_pile' is not declared" in problem for problem in state.invariants())
    copy = state.clone()
    assert copy.new_pile is state.new_pile        # what an undeclared field costs: shared


@pytest.mark.parametrize("game", GAMES)
def test_a_declared_field_is_copied_by_clone(game):
    base = GAMES[game]

    class WithPile(base):  # type: ignore[misc, valid-type]
        list_fields = base.list_fields + ("new_pile",)

    state = played(game, seed=3, moves=60)
    state.__class__ = WithPile
    state.new_pile = [1, 2]
    assert state.invariants() == []
    copy = state.clone()
    copy.new_pile.append(3)
    assert state.new_pile == [1, 2] and type(copy) is WithPile
    del state.new_pile
    assert "declared field 'new_pile' is missing" in state.invariants()


@pytest.mark.parametrize("game", GAMES)
def test_clone_copies_each_container_and_the_mutable_frames(game):
    cls = GAMES[game]
    state = played(game, seed=5, moves=120)
    state.legal_cached()                           # Tikal works its list out when asked
    copy = state.clone()
    for name in cls.list_fields + cls.nested_fields + cls.dict_fields:
        assert getattr(copy, name) == getattr(state, name)
        assert getattr(copy, name) is not getattr(state, name), name
    assert copy.stack is not state.stack and [f.kind for f in copy.stack] == [f.kind for f in state.stack]
    for a, b in zip(copy.stack, state.stack):
        assert (a is b) != cls.frames_mutable  # Tikal copies each frame, Tzolk'in shares frozen ones
    assert copy.rng is not state.rng and copy.rng.state == state.rng.state
    assert copy.legal_cached() is state.legal_cached()  # the cache is replaced, never mutated


@pytest.mark.parametrize("game", GAMES)
def test_illegal_action_is_explained_from_the_top_frame_and_changes_nothing(game):
    state = played(game, seed=7, moves=50)
    others = played(game, seed=8, moves=51).legal_actions()
    action = next(a for a in others if a not in state.legal_actions())
    before = state.to_dict()
    with pytest.raises(Exception) as raised:
        state.apply(action)
    assert raised.value.rule == state.explain_illegal(action).rule
    assert state.to_dict() == before

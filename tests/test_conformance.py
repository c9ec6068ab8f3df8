"""The conformance suite over every registered game and player count, from the registry.

A game added to the registry is checked here without a line of test code (OpenSpiel's
``api_test`` and Pgx's ``api_test`` are the models). Player counts run from the game's
``min_players`` to ``max_players``.
"""

from __future__ import annotations

import dataclasses

import pytest

from mayagames.core import conformance, registry
from mayagames.core.toy import ToyState


def _cases() -> list[tuple[str, int]]:
    return [(name, n) for name in registry.all_game_names()
            for info in [registry.get_game(name)]
            for n in range(info.min_players, info.max_players + 1)]


@pytest.mark.parametrize(("game", "players"), _cases())
def test_conformance(game, players):
    conformance.run_all(game, players, games=2, seed=players * 10 + 1)


def test_every_registered_game_is_covered():
    """The cases above come from the registry: both real games and the test game."""
    names = {game for game, _ in _cases()}
    assert {"tikal", "tzolkin", "toy"} <= names


def test_aliased_legal_list_is_fixed():
    """Issue 15 item 5: a clone's (or view's) legal list is its own, not the original's."""
    from mayagames.core import new_game

    s = new_game("tzolkin", 2, seed=3)
    for _ in range(5):
        s.apply(s.legal_actions()[0])
    expected = s.legal_actions()
    s.clone().legal_actions().clear()
    s.view(s.current_player).legal_actions().clear()
    s.legal_actions().clear()
    assert not s.is_terminal and s.legal_actions() == expected


class _Aliasing(ToyState):
    """A toy whose legal list is a cache handed out and shared by clones: the bug class."""

    def legal_actions(self):
        if getattr(self, "_cache", None) is None:
            self._cache = ToyState.legal_actions(self)
        return self._cache

    def _apply(self, action):
        self._cache = None
        ToyState._apply(self, action)

    def clone(self):
        c = ToyState.clone(self)
        c.__class__ = _Aliasing
        c._cache = getattr(self, "_cache", None)
        return c


class _DescribesOwnLists(ToyState):
    """A toy whose ``to_dict()`` hands out its own lists."""

    def to_dict(self):
        return {"deck": self.deck, "piles": self.piles}


@pytest.mark.parametrize(("cls", "check", "message"), [
    (_Aliasing, "check_clone_independent", "shares mutable data"),
    (_Aliasing, "check_returned_lists_are_copies", "mutating a returned list"),
    (_DescribesOwnLists, "check_returned_lists_are_copies", "mutating a returned list"),
])
def test_the_suite_catches_aliasing(monkeypatch, cls, check, message):
    """The checks fail on games with the aliasing bugs they exist to catch."""
    info = dataclasses.replace(registry.get_game("toy"), name="toy_broken",
                               new_game=lambda num_players, seed, options: cls(num_players, seed, options))
    monkeypatch.setitem(registry._GAMES, "toy_broken", info)
    monkeypatch.setattr(cls, "info", info, raising=False)
    with pytest.raises(AssertionError, match=message):
        getattr(conformance, check)("toy_broken", 2, seed=1, every=1)


def test_the_suite_catches_a_rule_that_accepts_an_action_at_terminal(monkeypatch):
    """Applying at a terminal state must raise GameOver; a game that ignores it fails."""
    class Lenient(ToyState):
        def apply(self, action):
            if self.is_terminal:
                return
            ToyState.apply(self, action)

    info = dataclasses.replace(registry.get_game("toy"), name="toy_lenient",
                               new_game=lambda num_players, seed, options: Lenient(num_players, seed, options))
    monkeypatch.setitem(registry._GAMES, "toy_lenient", info)
    monkeypatch.setattr(Lenient, "info", info, raising=False)
    with pytest.raises(AssertionError, match="applied at a terminal"):
        conformance.check_game_over("toy_lenient", 2, seed=1)


def test_built_illegal_actions_differ_from_legal_ones_by_one_field():
    from mayagames.core import new_game

    s = new_game("tikal", 2, seed=5)
    built = conformance.built_illegal_actions(s)
    legal = set(s.legal_actions())
    assert built and not legal & set(built)
    for action in built:
        assert any(type(a) is type(action) and sum(
            getattr(a, f.name) != getattr(action, f.name) for f in dataclasses.fields(a)) == 1
            for a in legal)

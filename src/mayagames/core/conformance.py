"""The API conformance suite every registered game must pass (Pgx/OpenSpiel style).

Each check plays seeded random games and asserts a protocol law; it raises
``AssertionError`` with a precise message on the first violation. The test suite
runs them for every game and player count (``tests/test_conformance.py``).

Laws checked:

* random legal play never crashes and ends within ``info.max_decisions``;
* every legal action's notation round-trips (``parse(str(a)) == a``);
* game-specific invariants (conservation of components) hold after every move;
* a clone is independent of its original;
* an illegal action raises :class:`IllegalAction` and changes nothing;
* a view is a fixed point of determinization: ``determinize(view(s)).view(s) ==
  view(s)`` (so a view carries no hidden information that determinization
  would have to keep), and the viewer's legal actions agree;
* a record of the game replays to the same final state and result.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from .errors import IllegalAction
from .game import State, new_state
from .record import GameRecord, verify
from .registry import get_game
from .rng import Rng


def fingerprint(state: State) -> str:
    """A canonical text of a state's full description (for equality checks)."""
    return json.dumps(state.to_dict(), sort_keys=True, default=str)


def play_random_game(name: str, num_players: int, seed: int,
                     on_step: Callable[[State, int], None] | None = None,
                     options: dict[str, Any] | None = None) -> tuple[State, GameRecord]:
    """Play a seeded random game, returning the final state and its record."""
    info = get_game(name)
    record = GameRecord.start(info.name, num_players, seed, options)
    state = record.new_state()
    rng = Rng(seed ^ 0x5EED)
    step = 0
    while not state.is_terminal:
        legal = state.legal_actions()
        assert legal, f"{name}: non-terminal state with no legal action at step {step}"
        action = legal[rng.randbelow(len(legal))]
        record.moves.append(str(action))
        state.apply(action)
        step += 1
        assert step <= info.max_decisions, f"{name}: no end after {step} decisions"
        if on_step is not None:
            on_step(state, step)
    record.finish(state)
    return state, record


def check_random_games(name: str, num_players: int, games: int, seed: int = 0,
                       invariants_every: int = 1, options: dict[str, Any] | None = None) -> int:
    """Random games never crash, notation round-trips, invariants hold. Returns decisions."""
    info = get_game(name)
    total = 0

    def on_step(state: State, step: int) -> None:
        if step % invariants_every == 0:
            broken = state.invariants()
            assert not broken, f"{name} step {step}: invariants broken: {broken}"
        for action in state.legal_actions():
            text = str(action)
            back = info.parse_action(text)
            assert back == action, f"{name}: notation {text!r} parses to {back!r}, not {action!r}"

    for g in range(games):
        state, record = play_random_game(name, num_players, seed + g, on_step, options)
        total += len(record.moves)
        scores = state.scores()
        assert len(scores) == num_players
        assert state.legal_actions() == []
        assert set(state.winners()) <= set(range(num_players)) and state.winners()
    return total


def _walk(name: str, num_players: int, seed: int, every: int,
          check: Callable[[State, Rng], None], options: dict[str, Any] | None = None) -> None:
    rng = Rng(seed * 7919 + 1)

    def on_step(state: State, step: int) -> None:
        if step % every == 0:
            check(state, rng)

    play_random_game(name, num_players, seed, on_step, options)


def check_clone_independent(name: str, num_players: int, seed: int = 0, every: int = 7) -> None:
    """Mutating a clone never changes the original, and the clone starts equal."""

    def check(state: State, rng: Rng) -> None:
        if state.is_terminal:
            return
        before = fingerprint(state)
        copy = state.clone()
        assert fingerprint(copy) == before, f"{name}: clone differs from its original"
        for _ in range(5):
            if copy.is_terminal:
                break
            legal = copy.legal_actions()
            copy.apply(legal[rng.randbelow(len(legal))])
        assert fingerprint(state) == before, f"{name}: playing on a clone changed the original"

    _walk(name, num_players, seed, every, check)


def check_illegal_unchanged(name: str, num_players: int, seed: int = 0, every: int = 5) -> int:
    """Actions legal elsewhere but not here raise IllegalAction and change nothing."""
    seen: list[Any] = []
    raised = 0

    def check(state: State, rng: Rng) -> None:
        nonlocal raised
        if state.is_terminal:
            return
        legal = state.legal_actions()
        legal_set = set(legal)
        candidates = [a for a in seen[-200:] if a not in legal_set][:5]
        before = fingerprint(state)
        for action in candidates:
            try:
                state.apply(action)
            except IllegalAction as exc:
                raised += 1
                assert exc.rule, f"{name}: IllegalAction without a rule for {action}"
            else:
                raise AssertionError(f"{name}: {action} applied though not in legal_actions")
            assert fingerprint(state) == before, f"{name}: rejected {action} changed the state"
        seen.extend(legal[:10])

    _walk(name, num_players, seed, every, check)
    return raised


def check_views(name: str, num_players: int, seed: int = 0, every: int = 3) -> None:
    """A view is a fixed point of determinization; viewers keep their legal actions."""

    def check(state: State, rng: Rng) -> None:
        for seat in list(range(num_players)) + [None]:
            view = state.view(seat)
            assert view.viewer == seat
            assert view.seed == 0 or state.seed == 0, (
                f"{name}: a view carries the true seed (it would regenerate every hidden shuffle)")
            shown = fingerprint(view)
            assert shown == fingerprint(state.clone().view(seat)), f"{name}: view not stable"
            full = view.determinize(rng)
            assert full.viewer is None, f"{name}: determinize returned a view"
            again = fingerprint(full.view(seat))
            assert again == shown, (
                f"{name}: determinized view for seat {seat} differs from the view "
                f"(hidden information in the view, or inconsistent determinization)"
            )
            if seat is not None and state.current_player == seat:
                assert [str(a) for a in full.legal_actions()] == [
                    str(a) for a in state.legal_actions()
                ], f"{name}: viewer's legal actions depend on hidden information"

    _walk(name, num_players, seed, every, check)


def check_record_replays(name: str, num_players: int, seed: int = 0) -> None:
    """A finished game's JSON record replays to the same state and result."""
    state, record = play_random_game(name, num_players, seed)
    again = GameRecord.from_json(record.to_json())
    replayed = verify(again)
    assert fingerprint(replayed) == fingerprint(state), f"{name}: replay differs"


def run_all(name: str, num_players: int, games: int = 3, seed: int = 0) -> None:
    """Every conformance check for one game and player count."""
    check_random_games(name, num_players, games, seed)
    check_clone_independent(name, num_players, seed)
    check_illegal_unchanged(name, num_players, seed)
    check_views(name, num_players, seed)
    check_record_replays(name, num_players, seed)


def fresh(name: str, num_players: int, seed: int = 0) -> State:
    """A new game by name (a convenience for tests)."""
    return new_state(get_game(name), num_players, seed)

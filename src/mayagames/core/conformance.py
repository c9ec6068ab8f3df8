"""The API conformance suite every registered game must pass (Pgx/OpenSpiel style).

Each check plays seeded random games and asserts a protocol law; it raises
``AssertionError`` with a precise message on the first violation. The test suite
runs them for every game and player count (``tests/test_conformance.py``).

Laws checked:

* random legal play never crashes and ends within ``info.max_decisions``;
* every legal action's notation round-trips (``parse(str(a)) == a``) and its class is one
  of the game's declared action kinds (``GameInfo.actions``);
* game-specific invariants (conservation of components) hold after every move;
* a clone equals its original in its *full* data (every attribute, not only
  ``to_dict()``), shares no mutable container with it, and is independent of it;
* no list a state returns (``legal_actions()``, ``scores()``, ``winners()``,
  ``returns()``, ``to_dict()``) is the state's own: mutating it changes nothing,
  in the state, its clones or its views;
* an illegal action raises :class:`IllegalAction` and changes nothing, both for
  actions legal elsewhere and for actions built for the position (a legal
  action with one field changed);
* applying any action at a terminal state raises :class:`GameOver`;
* a view is a fixed point of determinization: ``determinize(view(s)).view(s) ==
  view(s)`` (so a view carries no hidden information that determinization
  would have to keep), and the viewer's legal actions agree;
* a record of the game replays to the same final state and result.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from .errors import GameOver, IllegalAction
from .game import Action, State, declared_kinds, new_state
from .record import GameRecord, iter_replay, verify
from .registry import get_game
from .rng import Rng


def fingerprint(state: State) -> str:
    """A canonical text of a state's full description (for equality checks)."""
    return json.dumps(state.to_dict(), sort_keys=True, default=str)


def _is_value(obj: Any) -> bool:
    """Immutable values a clone may share: scalars, frozen dataclasses (component data)."""
    if obj is None or isinstance(obj, (bool, int, float, str, bytes)):
        return True
    return dataclasses.is_dataclass(obj) and obj.__dataclass_params__.frozen  # type: ignore[union-attr]


def _attributes(obj: Any) -> dict[str, Any]:
    out = dict(getattr(obj, "__dict__", {}))
    for cls in type(obj).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(obj, name):
                out[name] = getattr(obj, name)
    return out


def full_data(obj: Any) -> Any:
    """Every attribute of ``obj``, recursively, as comparable plain data.

    Unlike :func:`fingerprint` it does not trust ``to_dict()``: a field a game forgot
    to describe (or to copy) still shows. Frozen dataclasses (component data) are
    compared by value, tuples by their items.
    """
    if _is_value(obj):
        return obj
    if isinstance(obj, (list, tuple)):
        return [type(obj).__name__, [full_data(x) for x in obj]]
    if isinstance(obj, dict):
        return ["dict", sorted(((repr(k), full_data(v)) for k, v in obj.items()), key=lambda kv: kv[0])]
    if isinstance(obj, (set, frozenset)):
        return [type(obj).__name__, sorted(repr(x) for x in obj)]
    attrs = _attributes(obj)
    return [type(obj).__name__, sorted(((k, full_data(v)) for k, v in attrs.items()), key=lambda kv: kv[0])]


def _mutables(obj: Any, path: str, seen: set[int]) -> Iterator[tuple[str, Any]]:
    """Every mutable container reachable from ``obj`` (with its path)."""
    if _is_value(obj) or id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, tuple):
        for i, x in enumerate(obj):
            yield from _mutables(x, f"{path}[{i}]", seen)
        return
    yield path, obj
    if isinstance(obj, list):
        for i, x in enumerate(obj):
            yield from _mutables(x, f"{path}[{i}]", seen)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _mutables(v, f"{path}[{k!r}]", seen)
    elif not isinstance(obj, (set, frozenset)):
        for k, v in _attributes(obj).items():
            yield from _mutables(v, f"{path}.{k}", seen)


def shared_mutables(a: State, b: State) -> list[str]:
    """Paths of mutable containers that two states share (aliasing), except those a
    game declares immutable by convention in ``State.shared_on_clone``."""
    allowed = set(getattr(type(a), "shared_on_clone", ()))
    ids = {id(x) for _, x in _mutables(a, "", set())}
    return [path for path, x in _mutables(b, "", set())
            if id(x) in ids and path.lstrip(".").split(".")[0].split("[")[0] not in allowed]


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


def transitions(name: str, records: Iterable[Path] = (), seeds: Iterable[int] = ()
                ) -> Iterator[tuple[State, Action, State]]:
    """Every move as ``(before, action, after)`` (independent copies): first those of the
    game records at ``records``, then those of a seeded random game per seed with
    ``2 + seed % 3`` players (capped at the game's maximum). For checks that must meet every
    kind of move, such as "every move has a sentence"."""
    for path in records:
        record = GameRecord.load(path)
        before = record.new_state()
        for _, text, state in iter_replay(record):
            yield before, before.parse_action(text), state
            before = state.clone()
    info = get_game(name)
    for seed in seeds:
        players = max(info.min_players, min(info.max_players, 2 + seed % 3))
        state, rng = new_state(info, players, seed, None), Rng(seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            action = legal[rng.randbelow(len(legal))]
            before = state.clone()
            state.apply_unchecked(action)
            yield before, action, state.clone()


def check_random_games(name: str, num_players: int, games: int, seed: int = 0,
                       invariants_every: int = 1, options: dict[str, Any] | None = None) -> int:
    """Random games never crash, notation round-trips, invariants hold. Returns decisions."""
    info = get_game(name)
    declared = set(declared_kinds(info).values())
    total = 0

    def on_step(state: State, step: int) -> None:
        if step % invariants_every == 0:
            broken = state.invariants()
            assert not broken, f"{name} step {step}: invariants broken: {broken}"
        for action in state.legal_actions():
            # every action a client may be sent is of a declared kind (GameInfo.actions)
            assert type(action) in declared, f"{name}: {action!r} is of no declared action kind"
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
    """Mutating a clone never changes the original, and the clone starts equal in its
    full data (every attribute) and shares no mutable container with it."""

    def check(state: State, rng: Rng) -> None:
        if state.is_terminal:
            return
        state.legal_actions()  # fill any cache first: the clone must not share it mutably
        before = fingerprint(state)
        data = full_data(state)
        copy = state.clone()
        assert full_data(copy) == data, f"{name}: clone differs from its original in its full data"
        shared = shared_mutables(state, copy)
        assert not shared, f"{name}: a clone shares mutable data with its original: {shared[:5]}"
        view = state.view(state.current_player)
        shared = shared_mutables(state, view)
        assert not shared, f"{name}: a view shares mutable data with its state: {shared[:5]}"
        for _ in range(5):
            if copy.is_terminal:
                break
            legal = copy.legal_actions()
            copy.apply(legal[rng.randbelow(len(legal))])
        assert fingerprint(state) == before, f"{name}: playing on a clone changed the original"

    _walk(name, num_players, seed, every, check)


def _returned_lists(state: State) -> Iterator[tuple[str, list[Any]]]:
    yield "legal_actions()", state.legal_actions()
    yield "scores()", state.scores()
    yield "winners()", state.winners()
    yield "returns()", state.returns()
    described = state.to_dict()
    for _, obj in _mutables(described, "to_dict()", set()):
        if isinstance(obj, list):
            yield "to_dict()", obj


def check_returned_lists_are_copies(name: str, num_players: int, seed: int = 0, every: int = 5) -> None:
    """Clearing every list the protocol returns changes nothing: not the state, not its
    clones, not its views (a cached list handed out is the bug this catches)."""

    def check(state: State, rng: Rng) -> None:
        copy = state.clone()
        view = state.view(state.current_player)
        watched = [("state", state), ("clone", copy), ("view", view)]
        legal = [list(s.legal_actions()) for _, s in watched]  # fills any cache first
        before = [(label, full_data(s), acts) for (label, s), acts in zip(watched, legal)]
        for label, s in watched:
            for _what, returned in _returned_lists(s):
                if isinstance(returned, list):
                    returned.clear()
                    returned.append(object())  # junk: a shared list would hand it out
        for (label, data, legal), (_, s) in zip(before, watched):
            assert full_data(s) == data, f"{name}: mutating a returned list changed the {label}"
            assert s.legal_actions() == legal, f"{name}: mutating a returned list changed the {label}'s legal actions"

    _walk(name, num_players, seed, every, check)


def check_game_over(name: str, num_players: int, seed: int = 0) -> None:
    """At a terminal state every action (any seen in the game) raises GameOver, changing nothing."""
    seen: list[Any] = []

    def on_step(state: State, step: int) -> None:
        if not state.is_terminal and len(seen) < 50:
            seen.extend(state.legal_actions()[:2])

    state, _ = play_random_game(name, num_players, seed, on_step)
    assert state.is_terminal and state.legal_actions() == []
    before = full_data(state)
    for action in seen[:50]:
        try:
            state.apply(action)
        except GameOver:
            pass
        else:
            raise AssertionError(f"{name}: {action} applied at a terminal state")
        assert full_data(state) == before, f"{name}: an action at terminal changed the state"


def _variants(value: Any, pool: list[Any]) -> Iterator[Any]:
    """Other values of a field: the same field's values in other actions, and neighbours."""
    yield from pool
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, int):
        yield from (value + 1, value - 1, -1, 99)
    elif isinstance(value, str):
        yield from (value + "x", "")


def built_illegal_actions(state: State, limit: int = 12) -> list[Any]:
    """Actions built for this position that are not legal: a legal action with one
    field replaced (by the field's value in another legal action, or a neighbour)."""
    legal = state.legal_actions()
    legal_set = set(legal)
    pools: dict[tuple[type, str], list[Any]] = {}
    for action in legal:
        if dataclasses.is_dataclass(action):
            for f in dataclasses.fields(action):
                values = pools.setdefault((type(action), f.name), [])
                value = getattr(action, f.name)
                if value not in values and len(values) < 6:
                    values.append(value)
    out: list[Any] = []
    tried: set[Any] = set()
    for action in legal:
        if not dataclasses.is_dataclass(action):
            continue
        for f in dataclasses.fields(action):
            value = getattr(action, f.name)
            for other in _variants(value, pools[(type(action), f.name)]):
                if type(other) is not type(value) or other == value:
                    continue
                built = dataclasses.replace(action, **{f.name: other})  # type: ignore[type-var]
                if built in legal_set or built in tried:
                    continue
                tried.add(built)
                out.append(built)
                if len(out) >= limit:
                    return out
    return out


def check_illegal_unchanged(name: str, num_players: int, seed: int = 0, every: int = 5) -> int:
    """Actions legal elsewhere but not here, and actions built for the position (a
    legal action with one field changed), raise IllegalAction naming a rule and change
    nothing."""
    seen: list[Any] = []
    raised = 0

    def check(state: State, rng: Rng) -> None:
        nonlocal raised
        if state.is_terminal:
            return
        legal = state.legal_actions()
        legal_set = set(legal)
        candidates = [a for a in seen[-200:] if a not in legal_set][:5]
        candidates += built_illegal_actions(state)
        before = full_data(state)
        for action in candidates:
            try:
                state.apply(action)
            except IllegalAction as exc:
                raised += 1
                assert exc.rule, f"{name}: IllegalAction without a rule for {action}"
            else:
                raise AssertionError(f"{name}: {action} applied though not in legal_actions")
            assert full_data(state) == before, f"{name}: rejected {action} changed the state"
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
    check_returned_lists_are_copies(name, num_players, seed)
    check_illegal_unchanged(name, num_players, seed)
    check_game_over(name, num_players, seed)
    check_views(name, num_players, seed)
    check_record_replays(name, num_players, seed)


def fresh(name: str, num_players: int, seed: int = 0) -> State:
    """A new game by name (a convenience for tests)."""
    return new_state(get_game(name), num_players, seed)

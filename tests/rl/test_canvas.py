"""The incremental observation canvas and the identity index of legal actions (issue 16):
what they draw and look up must equal the plain computation, whatever changed in between."""

from __future__ import annotations

import numpy as np
import pytest

from mayagames.core import new_game
from mayagames.rl import EncodingError, get_encoding
from mayagames.rl.encoding import Canvas, IdentityIndex


def one_hot(base: int):
    """Item ``i`` holding ``v`` draws a 1 at ``base + 10 * i + v`` (its offset depends on
    its value: not ``fixed``)."""
    def draw(i, value, at, val):
        at.append(base + 10 * i + value)
        val.append(1.0)
    return draw


def scaled(base: int, calls: list[int]):
    """Item ``i`` holding ``v`` draws ``v / 10`` at ``base + i`` (``fixed``); ``calls``
    records the items drawn."""
    def draw(i, value, at, val):
        calls.append(i)
        at.append(base + i)
        val.append(value / 10)
    return draw


def fresh(lists, draws, size=100):
    """What a new canvas draws for ``lists`` (the reference)."""
    canvas = Canvas(np.zeros(size, np.float32))
    canvas.item_lists("x", lists, draws)
    return canvas.flush().copy()


def test_item_lists_redraws_only_what_changed_and_equals_a_fresh_drawing():
    calls: list[int] = []
    draws = [(one_hot(0), False), (scaled(50, calls), True)]
    a, b = [1, 2, 3], [4, 5, 6, 7]
    canvas = Canvas(np.zeros(100, np.float32))
    canvas.item_lists("x", (a, b), draws)
    canvas.flush()
    assert calls == [0, 1, 2, 3]
    calls.clear()
    canvas.item_lists("x", (a, b), draws)  # nothing changed: nothing drawn
    assert canvas.at == [] and calls == []
    a[1] = 7  # changed in place: the canvas kept a copy, so it sees the change
    b[3] = 0
    canvas.item_lists("x", (a, b), draws)
    assert calls == [3]  # only the changed item of the second list
    assert sorted(canvas.at) == [12, 17, 53]  # first list: item 1 cleared at 12, drawn at 17
    got = canvas.flush().copy()
    assert np.array_equal(got, fresh(([1, 7, 3], [4, 5, 6, 0]), [(one_hot(0), False), (scaled(50, []), True)]))


def test_item_lists_with_a_list_of_another_length_redraws_it_whole():
    draws = [(one_hot(0), False)]
    canvas = Canvas(np.zeros(100, np.float32))
    canvas.item_lists("x", ([1, 2, 3],), draws)
    canvas.flush()
    canvas.item_lists("x", ([4],), draws)
    assert np.array_equal(canvas.flush(), fresh(([4],), draws))


def test_entries_clear_the_last_drawing_unless_they_are_the_same():
    canvas = Canvas(np.zeros(10, np.float32))
    first = ([1, 2], [1.0, 0.5])
    canvas.entries("d", first)
    canvas.flush()
    canvas.entries("d", first)
    assert canvas.at == []  # the same entries: nothing written
    canvas.entries("d", ([2, 3], [1.0, 1.0]))
    assert canvas.flush().tolist() == [0, 0, 1, 1, 0, 0, 0, 0, 0, 0]


def test_identity_index_holds_what_it_remembers_and_empties_at_its_limit():
    index = IdentityIndex(limit=2)
    a, b, c = object(), object(), object()
    index.remember(a, 5)
    index.remember(b, 6)
    assert index.ids == {id(a): 5, id(b): 6} and index.kept == [a, b]
    index.remember(c, 7)  # full: emptied first
    assert index.ids == {id(c): 7} and index.kept == [c]


@pytest.mark.parametrize("game", ["tzolkin", "tikal", "toy"])
def test_legal_index_is_the_same_by_identity_and_by_value(game):
    codec = get_encoding(game).codec(2)
    state = new_game(game, 2, seed=3)
    seat = state.current_player
    legal = state.legal_actions()
    first = codec.legal_index_seat(state, seat, legal)
    again = codec.legal_index_seat(state, seat, legal)  # now by identity
    assert again == first
    assert {i: codec.encode(a, state.view(seat)) for i, a in first.items()} == {i: i for i in first}


def test_table_codec_names_an_action_outside_its_table():
    codec = get_encoding("tzolkin").codec(2)
    state = new_game("tzolkin", 2, seed=1)
    legal = state.legal_actions()
    codec.legal_index(state.view(0), legal)  # the legal actions are now remembered by identity
    with pytest.raises(EncodingError, match="not in the action table"):
        codec.legal_index(state.view(0), [*legal, "no such action"])


def test_tzolkin_remembered_decisions_are_bounded(monkeypatch):
    import mayagames.tzolkin.encoding as tz

    monkeypatch.setattr(tz, "DECISIONS_KEPT", 2)
    observer = get_encoding("tzolkin").observer(2)
    state = new_game("tzolkin", 2, seed=5)
    for _ in range(40):
        observer.observe_seat(state, state.current_player)
        assert len(observer.decisions) <= 2
        state.apply_unchecked(state.legal_actions()[0])
    reference = get_encoding("tzolkin").observer(2).observe(state.view(0))
    assert np.array_equal(observer.observe_seat(state, 0), reference)


def test_bench_observe_replays_the_same_observations_as_the_environment(load_script):
    """benchmarks/bench_observe.py: its replay observes what the environment observed."""
    import zlib

    bench = load_script("benchmarks/bench_observe.py")
    positions = bench.record("tzolkin", 40)
    seconds, crc = bench.replay("tzolkin", positions, reps=1)
    observer = get_encoding("tzolkin").observer(2)
    expected = 0
    for state, seat in positions:
        expected = zlib.crc32(observer.observe(state.view(seat)), expected)
    assert len(positions) == 40 and seconds > 0 and crc == expected

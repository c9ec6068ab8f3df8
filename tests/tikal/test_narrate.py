"""Tikal moves as sentences and the game's events (mayagames.tikal.narrate)."""

from __future__ import annotations

import re
import typing
from pathlib import Path

from mayagames.core import GameRecord, Rng, get_game
from mayagames.core.conformance import transitions
from mayagames.core.record import iter_replay
from mayagames.tikal import actions as A
from mayagames.tikal.testing import (action_phase, ap_turn, free_jungle, fresh, give_tile, play,
                                     put)

INFO = get_game("tikal")
GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))
FALLBACK = re.compile(r"^\{seat:\d\}: ")
ALL_KINDS = {cls.__name__ for cls in typing.get_args(A.TikalAction)}


def moves_of_games(seeds=(0, 1)):
    """(before, action, after) of the golden records and of seeded random games."""
    return transitions("tikal", GOLDEN, seeds)


def test_every_action_kind_and_sub_decision_has_a_sentence():
    met: set[str] = set()
    frames: set[str] = set()
    for before, action, after in moves_of_games():
        told = INFO.narrate(before, action, after, None)
        assert told.text.endswith(".") and not FALLBACK.match(told.text), (action, told.text)
        assert f"{{seat:{before.current_player}}}" in told.text
        for viewer in range(before.num_players):  # no private hands: everyone reads the same
            assert INFO.narrate(before, action, after, viewer) == told
        met.add(type(action).__name__)
        if before.pending is not None:
            frames.add(before.pending.kind)
    assert met == ALL_KINDS
    assert {"ap", "tile", "stone", "trade", "discard", "dig", "camp"} <= frames, frames


def test_sentences_name_the_player_and_the_result():
    s = action_phase(fresh(2), 0)
    put(s, 0, "e4", explorers=1)
    ap_turn(s, 0, 10)
    before = s.clone()
    play(s, "move explorer e4 d4")
    told = INFO.narrate(before, A.Move("explorer", "e4", "d4"), s, 1).with_names(["Ana", "Ben"])
    cost = before.stack[-1].points - s.stack[-1].points
    assert told.text == f"Ana moves an Explorer from e4 to d4 for {cost} AP."
    assert told.places == ("e4", "d4") and not told.minor


def test_a_tile_placement_is_two_steps_the_first_minor():
    s = action_phase(fresh(2), 0)
    give_tile(s, 0, "A-1")
    hex_name = free_jungle(s)[0]
    texts = []
    for move in ("place A-1", f"at {hex_name}", "rotate 0"):
        before = s.clone()
        play(s, move)
        texts.append(INFO.narrate(before, before.parse_action(move), s, None).with_names(["Ana"]))
    assert [t.minor for t in texts] == [True, True, False]
    assert texts[-1].text == f"Ana places a Temple tile (level 2) at {hex_name}."
    assert texts[-1].places == (hex_name, "A-1")


def test_unearthing_names_the_treasure_once_it_is_in_the_museum():
    for before, action, after in moves_of_games(seeds=()):
        if isinstance(action, A.Unearth):
            told = INFO.narrate(before, action, after, None).text
            gained = [t for i, t in enumerate(before.C.treasure_types)
                      if after.treasure_count(before.current_player, i) > before.treasure_count(
                          before.current_player, i)]
            assert f"unearths a {gained[0]} treasure at {action.hex}" in told
            return
    raise AssertionError("no unearth in the golden records")


def test_scoring_events_hold_the_engines_numbers():
    scorings = 0
    for before, action, after in moves_of_games(seeds=()):
        told = INFO.narrate(before, action, after, None)
        new = after.last_scoring[len(before.last_scoring):]
        events = [e for e in told.events if e.table and e.kind in ("scoring", "final_scoring")]
        assert len(events) == len(new)
        for entry, event in zip(new, events):
            scorings += 1
            row = next(r for r in event.table["rows"] if r[0] == f"{{seat:{entry['seat']}}}")
            assert row[1:] == [entry[k] for k in ("temples", "tallest", "volcanoes", "jungles",
                                                   "lakes_ruins", "treasures", "total")]
            assert f"scores {entry['total']} PP" in event.text
            if not after.is_terminal:
                assert after.pp[entry["seat"]] - before.pp[entry["seat"]] == entry["total"]
        if after.is_terminal:
            over = told.events[-1]
            assert over.kind == "game_over"
            assert [r[1] for r in over.table["rows"]] == [int(x) for x in after.scores()]
    assert scorings > 20


def test_rounds_are_announced():
    for path in GOLDEN[:2]:
        record = GameRecord.load(path)
        before = record.new_state()
        announced = []
        for _, text, state in iter_replay(record):
            told = INFO.narrate(before, before.parse_action(text), state, None)
            announced += [e.text for e in told.events if e.kind == "round"]
            before = state.clone()
        rounds = state.setup_rules["rounds"]
        assert sum("the action phase" in t for t in announced) == rounds
        assert sum("Round Management" in t for t in announced) == rounds - 1


def test_volcano_start_is_announced_with_the_order():
    for before, action, after in moves_of_games(seeds=()):
        if after.scoring_kind == "volcano" and before.scoring_kind != "volcano":
            told = INFO.narrate(before, action, after, None)
            assert "places a Volcano tile" in told.text
            assert told.events[0].kind == "scoring" and "In-Game Scoring" in told.events[0].text
            return
    raise AssertionError("no volcano in the golden records")


def test_narration_depends_only_on_what_the_viewer_sees():
    checked = 0
    for n, (before, action, after) in enumerate(moves_of_games(seeds=(3,))):
        if n % 9 or before.reveals_information(action):
            continue
        viewer = (before.current_player + 1) % before.num_players
        other = before.view(viewer).determinize(Rng(n))
        again = other.clone()
        again.apply(action)
        assert INFO.narrate(other, action, again, viewer) == INFO.narrate(before, action, after, viewer)
        checked += 1
    assert checked > 100

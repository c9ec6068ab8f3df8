"""Tzolk'in moves as sentences and the game's events (mayagames.tzolkin.narrate)."""

from __future__ import annotations

import re
import typing
from pathlib import Path


from mayagames.core import Rng, get_game, new_game
from mayagames.core.conformance import transitions
from mayagames.tzolkin import actions as A
from mayagames.tzolkin.layout import VP, WORKERS
from mayagames.tzolkin.positions import blank, play, put_worker, set_goods, set_monument_row, set_tech
from mayagames.tzolkin.scoring import feeding_cost

INFO = get_game("tzolkin")
GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))
FALLBACK = re.compile(r"^\{seat:\d\}: ")
ALL_KINDS = {cls.__name__ for cls in typing.get_args(A.TzAction)}


def moves_of_games(seeds=(0, 1, 2)):
    """(before, action, after) of the golden records and of seeded random games."""
    return transitions("tzolkin", GOLDEN, seeds)


def crafted_moves():
    """Moves random play rarely meets: a monument, taking a block, an offering."""
    s = blank(2)
    set_goods(s, 0, wood=2, stone=2, gold=2)
    set_tech(s, 0, "architecture", 3)
    set_monument_row(s, ["m05", "m13", "m01", "m02"])
    put_worker(s, 0, "tikal", 4)
    play(s, "pick tikal 4", "do tikal 4")
    before = s.clone()
    play(s, "build m05")
    yield before, A.BuildMonument("m05"), s.clone()
    for space in range(1, 10):              # a Chichen Itza space with a block of your choice
        s = blank(2)
        set_goods(s, 0, skulls=1)
        put_worker(s, 0, "chichen", space)
        play(s, f"pick chichen {space}", f"do chichen {space}")
        take = [a for a in s.legal_actions() if isinstance(a, A.Take)]
        if take:
            before = s.clone()
            s.apply(take[0])
            yield before, take[0], s.clone()
            break
    s = blank(2)
    set_goods(s, 0, stone=2)
    set_tech(s, 0, "theology", 2)
    put_worker(s, 0, "uxmal", 1)
    set_goods(s, 0, corn=3, stone=2)
    play(s, "pick uxmal 1", "do uxmal 1")
    choice = next(a for a in s.legal_actions() if isinstance(a, A.Temple))
    before = s.clone()
    s.apply(choice)
    yield before, choice, s.clone()
    for a in s.legal_actions():
        if isinstance(a, A.Offer):
            before = s.clone()
            s.apply(a)
            yield before, a, s.clone()
            break


def test_every_action_kind_has_a_sentence():
    met: set[str] = set()
    for before, action, after in [*moves_of_games(), *crafted_moves()]:
        for viewer in (None, *range(before.num_players)):
            told = INFO.narrate(before, action, after, viewer)
            assert told.text.endswith(".") and not FALLBACK.match(told.text), (action, told.text)
            assert f"{{seat:{before.cur}}}" in told.text
        met.add(type(action).__name__)
    assert met == ALL_KINDS


def test_typical_sentences_read_like_the_rulebook():
    s = blank(2)
    set_goods(s, 0, corn=10)
    put_worker(s, 0, "palenque", 2)
    before = s.clone()
    play(s, "place tikal")
    told = INFO.narrate(before, A.Place("tikal"), s, 1).with_names(["Ana", "Ben"])
    assert told.text == "Ana places a worker on Tikal 0 for free." and told.places == ("tikal:0",)
    before = s.clone()
    play(s, "place yaxchilan")
    assert INFO.narrate(before, A.Place("yaxchilan"), s, None).with_names(["Ana"]).text == (
        "Ana places a worker on Yaxchilan 0 for 1 corn.")
    play(s, "end")
    s = blank(2)
    put_worker(s, 0, "palenque", 2)
    before = s.clone()
    play(s, "pick palenque 2")
    pick = INFO.narrate(before, A.Pick("palenque", 2), s, None)
    assert pick.minor and pick.places == ("palenque:2",)
    before = s.clone()
    play(s, "do palenque 2")
    text = INFO.narrate(before, A.Do("palenque", 2), s, None).with_names(["Ana"]).text
    assert text.startswith("Ana takes the action Palenque 2 (harvests)") and "+4 corn" in text


def test_the_draft_pick_is_secret_from_the_others():
    s = new_game("tzolkin", 3, seed=4)
    mover = s.current_player
    for viewer in range(3):
        texts = set()
        for _ in range(2):
            for seed in range(3):
                full = s.view(viewer).determinize(Rng(seed))
                for a in full.legal_actions():
                    after = full.clone()
                    after.apply(a)
                    texts.add(INFO.narrate(full, a, after, viewer).text)
        if viewer == mover:
            assert len(texts) > 1 and all("keeps starting tiles w" in t for t in texts)
        else:
            assert texts == {f"{{seat:{mover}}} keeps two starting tiles."}


def test_narration_depends_only_on_what_the_viewer_sees():
    """Moves that reveal nothing read the same from any determinization of the viewer's view."""
    checked = 0
    for n, (before, action, after) in enumerate(moves_of_games(seeds=(5,))):
        if n % 7 or before.reveals_information(action):
            continue
        viewer = (before.cur + 1) % before.num_players
        truth = INFO.narrate(before, action, after, viewer)
        other = before.view(viewer).determinize(Rng(n))
        if action not in other.legal_actions():
            continue
        again = other.clone()
        again.apply(action)
        assert INFO.narrate(other, action, again, viewer) == truth
        checked += 1
    assert checked > 100


def test_food_days_age_change_and_final_scoring_events_hold_the_engines_numbers():
    kinds = []
    for before, action, after in moves_of_games(seeds=()):
        told = INFO.narrate(before, action, after, None)
        for event in told.events:
            kinds.append(event.kind)
            if event.kind == "food_day":
                assert after.food_done == before.food_done + 1
                for seat, row in enumerate(event.table["rows"]):
                    need, each = feeding_cost(before.p[seat])
                    unfed = after.last_unfed[seat]
                    assert row[0] == f"{{seat:{seat}}}" and row[1] == before.p[seat][WORKERS]
                    assert row[2] == before.p[seat][WORKERS] - unfed and row[3] == (need - unfed) * each
                    assert row[4] == unfed and row[5] == -3 * unfed
                    if not isinstance(row[6], str) or row[6].endswith(" VP"):
                        gained = after.p[seat][VP] - before.p[seat][VP]
                        assert int(row[6].split()[0]) == gained - row[5]
            if event.kind == "final_scoring":
                assert [float(r[-1]) for r in event.table["rows"]] == after.scores()
            if event.kind == "age":
                assert before.age == 1 and after.age == 2
        if after.is_terminal:
            assert [e.kind for e in told.events][-2:] == ["final_scoring", "game_over"]
    assert kinds.count("food_day") == 4 * len(GOLDEN) and kinds.count("age") == len(GOLDEN)
    assert kinds.count("game_over") == len(GOLDEN)


def test_a_new_day_is_announced_with_the_starting_player():
    s = blank(2)
    set_goods(s, 0, corn=5)
    set_goods(s, 1, corn=5)
    play(s, "place palenque", "end", "place yaxchilan")
    before = s.clone()
    play(s, "end")
    told = INFO.narrate(before, A.EndTurn(), s, None).with_names(["Ana", "Ben"])
    assert told.text == "Ben ends the turn."
    assert [e.text for e in told.events] == ["Day 2: Ana starts (next Food Day: day 8)"]

"""Every building's cost and effect, and the technology bonuses (rules 11, 12).

Expected values are written from the rules tables, not read from the data files.
"""

import pytest

from mayagames.tzolkin.positions import (blank, legal, play, put_worker, set_day,
                                         set_goods, set_row, set_tech, set_temple, set_workers)

START = {"wood": 5, "stone": 5, "gold": 5}
FILL1 = ["a1-f1", "a1-f1", "a1-f1", "a1-f2", "a1-f2"]
FILL2 = ["a2-f1", "a2-f1", "a2-f1", "a2-t3", "a2-b6"]


def snapshot(s, seat=0):
    P = s.p[seat]
    return {"corn": P[0], "wood": P[1], "stone": P[2], "gold": P[3], "skulls": P[4], "vp": P[5],
            "workers": P[6], "techs": tuple(P[9:13]), "temples": tuple(P[13:16]),
            "farm_free": P[19], "farm_discount": P[20]}


def build(building, moves=(), players=2):
    """Seat 0 builds ``building`` at Tikal 2 with 5 of each block, then plays ``moves``."""
    s = blank(players)
    if building.startswith("a2"):
        set_day(s, 15)
    set_goods(s, 0, **START)
    filler = [b for b in (FILL1 if building.startswith("a1") else FILL2) if b != building][:5]
    set_row(s, [building] + filler)
    put_worker(s, 0, "tikal", 2)
    play(s, "pick tikal 2", "do tikal 2", f"build {building}", *moves)
    return s


def expect(cost, **changes):
    base = {"corn": 0, "wood": 5, "stone": 5, "gold": 5, "skulls": 0, "vp": 0, "workers": 3,
            "techs": (0, 0, 0, 0), "temples": (0, 0, 0), "farm_free": 0, "farm_discount": 0}
    for r, n in cost.items():
        base[r] -= n
    base.update(changes)
    return base


CASES = [
    ("a1-f1", (), expect({"wood": 1}, farm_free=1)),
    ("a1-f2", (), expect({"wood": 4}, farm_discount=1)),
    ("a1-t1", (), expect({"wood": 2, "stone": 1}, temples=(1, 1, 0))),
    ("a1-t2", (), expect({"wood": 1, "stone": 2}, temples=(1, 0, 1))),
    ("a1-t3", ("temple kukulcan", "stop"), expect({"wood": 1, "gold": 1}, temples=(0, 0, 1))),
    ("a1-g1", (), expect({"wood": 2}, techs=(1, 0, 0, 0))),
    ("a1-g2", (), expect({"wood": 3}, techs=(1, 0, 0, 0), stone=6)),
    ("a1-g3", (), expect({"wood": 1, "stone": 1}, techs=(0, 1, 0, 0), corn=1)),
    ("a1-g4", (), expect({"wood": 2, "stone": 1}, techs=(0, 1, 0, 0), gold=6)),
    ("a1-b1", (), expect({"gold": 1}, techs=(0, 0, 1, 0))),
    ("a1-b2", (), expect({"stone": 1, "gold": 1}, techs=(0, 0, 0, 1), temples=(0, 0, 1))),
    ("a2-f1", (), expect({"wood": 2}, farm_free=3)),
    ("a2-t1", ("sell gold", "stop"), expect({"stone": 3}, vp=6, gold=4, corn=4)),
    ("a2-t2", (), expect({"wood": 1, "stone": 1, "gold": 1}, vp=6, workers=4)),
    ("a2-t3", (), expect({"wood": 1, "gold": 2}, vp=8)),
    ("a2-t4", (), expect({"wood": 2, "stone": 1, "gold": 1}, vp=2)),
    ("a2-t5", (), expect({"wood": 1, "stone": 2, "gold": 1}, vp=3, temples=(1, 1, 1))),
    ("a2-g1", ("tech theology",), expect({"wood": 3}, stone=6, techs=(0, 0, 0, 1))),
    ("a2-g2", ("tech agriculture",), expect({"wood": 2, "stone": 1}, gold=6, techs=(1, 0, 0, 0))),
    ("a2-g3", ("tech extraction",), expect({"wood": 3, "stone": 1}, corn=6, techs=(0, 1, 0, 0))),
    ("a2-g4", ("tech architecture",), expect({"wood": 2, "stone": 2}, skulls=1, techs=(0, 0, 1, 0))),
    ("a2-b1", (), expect({"stone": 2}, vp=2, temples=(2, 0, 0))),
    ("a2-b2", (), expect({"stone": 1, "gold": 1}, vp=3, techs=(0, 0, 1, 0))),
    ("a2-b3", (), expect({"gold": 2}, vp=3, temples=(0, 0, 2))),
    ("a2-b4", (), expect({"stone": 2, "gold": 1}, techs=(0, 0, 0, 1), temples=(1, 0, 1))),
    ("a2-b5", ("tech theology", "tech theology"), expect({"stone": 1, "gold": 2}, techs=(0, 0, 0, 2))),
    ("a2-b6", (), expect({"gold": 3}, vp=4, temples=(0, 2, 0))),
]


@pytest.mark.parametrize("building, moves, expected", CASES, ids=[c[0] for c in CASES])
def test_building_cost_and_effect(building, moves, expected):
    s = build(building, moves)
    assert snapshot(s) == expected
    assert s.invariants() == []
    assert legal(s) == ["end"]


def test_every_building_type_is_covered():
    from mayagames.tzolkin.components import DATA
    assert sorted(c[0] for c in CASES) == sorted(b.id for b in DATA.buildings)


def test_a1_t3_extra_building_pays_its_cost_without_architecture():
    s = build("a1-t3", ("temple chaac",), players=3)
    set_tech(s, 0, "architecture", 2)
    assert legal(s) == ["build a1-f1", "build a1-f2", "stop"]
    play(s, "build a1-f2")
    P = snapshot(s)
    assert P["wood"] == 0 and P["corn"] == 0 and P["vp"] == 0 and P["farm_discount"] == 1


def test_a1_t3_architecture_option():
    s = blank(2, options={"a1t3_architecture": True})
    set_goods(s, 0, **START)
    set_tech(s, 0, "architecture", 1)
    set_row(s, ["a1-t3"] + FILL1)
    put_worker(s, 0, "uxmal", 4)
    set_goods(s, 0, corn=4)
    play(s, "pick uxmal 4", "do uxmal 4", "build a1-t3")   # corn-built: +1 corn
    play(s, "temple chaac", "build a1-f1")                   # architecture again: +1 corn
    assert snapshot(s)["corn"] == 2


def test_a2_t4_mirror_pays_one_corn():
    s = blank(2)
    set_day(s, 15)
    set_goods(s, 0, corn=1, **START)
    set_row(s, ["a2-t4"] + FILL2)
    put_worker(s, 0, "tikal", 2)
    play(s, "pick tikal 2", "do tikal 2", "build a2-t4")
    assert "stop" in legal(s) and "do yaxchilan 3" in legal(s)
    play(s, "do yaxchilan 3")
    P = snapshot(s)
    assert P["corn"] == 2 and P["gold"] == 5 and P["vp"] == 2


def test_a2_t2_worker_capped_at_six():
    s = blank(2)
    set_day(s, 15)
    set_workers(s, 0, 6)
    set_goods(s, 0, **START)
    set_row(s, ["a2-t2"] + FILL2)
    put_worker(s, 0, "tikal", 2)
    play(s, "pick tikal 2", "do tikal 2", "build a2-t2")
    assert snapshot(s)["workers"] == 6 and snapshot(s)["vp"] == 6


def test_a2_g4_skull_limited_by_supply():
    s = blank(2)
    set_day(s, 15)
    set_goods(s, 1, skulls=13)
    set_goods(s, 0, **START)
    set_row(s, ["a2-g4"] + FILL2)
    put_worker(s, 0, "tikal", 2)
    play(s, "pick tikal 2", "do tikal 2", "build a2-g4", "tech theology")
    assert snapshot(s)["skulls"] == 0 and s.invariants() == []


# --- technology bonuses (beyond level 3) and free advances -------------------------------------
def free_tech(track, level, *moves):
    """Seat 0 at ``level`` on ``track`` builds A1-G1/G3/B1/B2 (a free advance)."""
    building = {"agriculture": "a1-g1", "extraction": "a1-g3", "architecture": "a1-b1",
                "theology": "a1-b2"}[track]
    s = blank(2)
    set_tech(s, 0, track, level)
    set_goods(s, 0, **START)
    set_row(s, [building] + FILL1)
    put_worker(s, 0, "tikal", 2)
    waive = " waive gold" if track == "architecture" and level == 3 else ""
    play(s, "pick tikal 2", "do tikal 2", f"build {building}{waive}", *moves)
    return s


def test_free_advance_at_level_3_gives_the_bonus_for_free():
    s = free_tech("agriculture", 3, "temple quetzalcoatl")
    assert snapshot(s)["temples"] == (0, 1, 0) and snapshot(s)["techs"][0] == 3
    s = free_tech("extraction", 3, "take gold", "take gold")
    assert snapshot(s)["gold"] == 7 and snapshot(s)["corn"] == 1
    s = free_tech("architecture", 3)
    assert snapshot(s)["vp"] == 3 + 2    # bonus 3 VP, and the building's own +2 VP (level 2+)
    s = free_tech("theology", 3)
    assert snapshot(s)["skulls"] == 1


def test_paid_bonus_costs_one_block_and_repeats():
    s = blank(2)
    set_goods(s, 0, wood=2)
    set_tech(s, 0, "architecture", 3)
    put_worker(s, 0, "tikal", 3)
    play(s, "pick tikal 3", "do tikal 3", "tech architecture", "tech architecture")
    assert snapshot(s)["vp"] == 6 and snapshot(s)["wood"] == 0


def test_agriculture_bonus_temple_step_wasted_when_impossible():
    s = blank(2)
    for t, top in (("chaac", 5), ("quetzalcoatl", 7), ("kukulcan", 6)):
        set_temple(s, 0, t, top)
    set_tech(s, 0, "agriculture", 3)
    set_goods(s, 0, wood=1)
    put_worker(s, 0, "tikal", 1)
    play(s, "pick tikal 1", "do tikal 1", "tech agriculture")   # paid; the step is wasted
    assert legal(s) == ["end"] and snapshot(s)["wood"] == 0


def test_extraction_bonus_blocks_come_after_paying():
    s = blank(2)
    set_goods(s, 0, stone=1)
    set_tech(s, 0, "extraction", 3)
    put_worker(s, 0, "tikal", 1)
    play(s, "pick tikal 1", "do tikal 1", "tech extraction")
    assert snapshot(s)["stone"] == 0 and legal(s) == ["take wood", "take stone", "take gold"]
    play(s, "take wood", "take stone")
    assert snapshot(s)["wood"] == 1 and snapshot(s)["stone"] == 1


def test_architecture_levels_at_tikal():
    for level, corn, vp in ((0, 0, 0), (1, 1, 0), (2, 1, 2), (3, 1, 2)):
        s = blank(2)
        set_tech(s, 0, "architecture", level)
        set_goods(s, 0, wood=1)
        set_row(s, FILL1 + ["a1-g1"])
        put_worker(s, 0, "tikal", 2)
        play(s, "pick tikal 2", "do tikal 2")
        if level == 3:
            assert legal(s) == ["build a1-f1 waive wood", "build a1-g1 waive wood"]
            play(s, "build a1-g1 waive wood")      # 2 wood, 1 waived
            assert snapshot(s)["techs"][0] == 1
        assert snapshot(s)["wood"] == 0 and len(s.built[0]) == 1   # the only choice: built at once
        assert snapshot(s)["corn"] == corn and snapshot(s)["vp"] == vp

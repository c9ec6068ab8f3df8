"""The rules tables, value by value, checked through the engine (not by reading the data).

Every expected figure below is copied from ``shared/rules/tzolkin.md`` (sections 10,
13, 14, 15); a wrong number in ``tzolkin/data/*.json`` makes one of these fail.
"""

import pytest

from mayagames.tzolkin.components import GEARS, TILE_INDEX
from mayagames.tzolkin.effects import gain_tile
from mayagames.tzolkin.positions import (blank, give_monument, goods, legal, play, put_worker,
                                         set_goods, set_monument_row, set_row, set_temple)
from mayagames.tzolkin.scoring import monument_vp

# --- rules 14: the 21 starting wealth tiles ------------------------------------------------
# id: (corner gear, corner number, goods, temple steps, technology advances, extra)
TILES = {
    "w01": ("palenque", 1, {"corn": 3}, {"quetzalcoatl": 1}, {"agriculture": 1}, {}),
    "w02": ("palenque", 3, {"corn": 5, "gold": 1}, {"quetzalcoatl": 1}, {}, {}),
    "w03": ("palenque", 5, {"stone": 1, "gold": 1}, {}, {"agriculture": 1}, {}),
    "w04": ("palenque", 7, {"corn": 9, "stone": 1}, {}, {}, {}),
    "w05": ("yaxchilan", 1, {"wood": 1}, {"kukulcan": 1}, {"extraction": 1}, {}),
    "w06": ("yaxchilan", 3, {"corn": 2, "wood": 2}, {"kukulcan": 1}, {}, {}),
    "w07": ("yaxchilan", 5, {"corn": 4, "wood": 1}, {}, {"extraction": 1}, {}),
    "w08": ("yaxchilan", 7, {"corn": 3, "wood": 2, "stone": 1}, {}, {}, {}),
    "w09": ("tikal", 1, {"corn": 2}, {"chaac": 1}, {"architecture": 1}, {}),
    "w10": ("tikal", 3, {"corn": 6, "stone": 2}, {}, {}, {}),
    "w11": ("tikal", 5, {"corn": 3, "gold": 1}, {}, {"architecture": 1}, {}),
    "w12": ("tikal", 7, {"corn": 6, "wood": 1, "stone": 1}, {}, {}, {}),
    "w13": ("uxmal", 1, {"corn": 5, "stone": 1}, {"chaac": 1}, {}, {}),
    "w14": ("uxmal", 3, {"corn": 3, "wood": 1}, {}, {}, {"farm_free": 1}),
    "w15": ("uxmal", 5, {}, {}, {}, {"workers": 4}),
    "w16": ("uxmal", 7, {"corn": 8, "gold": 1}, {}, {}, {}),
    "w17": ("chichen", 0, {"corn": 4, "wood": 1, "skulls": 1}, {}, {}, {}),
    "w18": ("chichen", 3, {"corn": 5, "stone": 1}, {}, {"theology": 1}, {}),
    "w19": ("chichen", 5, {"corn": 4, "wood": 3}, {}, {}, {}),
    "w20": ("chichen", 7, {"corn": 2, "wood": 2}, {}, {"theology": 1}, {}),
    "w21": ("chichen", 10, {"corn": 7, "wood": 2}, {}, {}, {}),
}
TEMPLE_NAMES = ("chaac", "quetzalcoatl", "kukulcan")
TRACK_NAMES = ("agriculture", "extraction", "architecture", "theology")


@pytest.mark.parametrize("tile", sorted(TILES))
def test_starting_wealth_tile_gives_what_the_table_shows(tile):
    gear, number, gain, steps, techs, extra = TILES[tile]
    s = blank(2)
    gain_tile(s, 0, TILE_INDEX[tile])
    got = {k: v for k, v in goods(s, 0).items() if v}
    assert got == gain
    assert {t: s.p[0][13 + i] for i, t in enumerate(TEMPLE_NAMES) if s.p[0][13 + i]} == steps
    assert {t: s.p[0][9 + i] for i, t in enumerate(TRACK_NAMES) if s.p[0][9 + i]} == techs
    assert s.p[0][6] == extra.get("workers", 3) and s.p[0][19] == extra.get("farm_free", 0)
    assert s.invariants() == []


def test_tile_corner_markings_place_the_dummies():
    """A single dummy per revealed tile goes on the tile's gear and number (rules 9)."""
    from mayagames.core import new_game
    for seed in range(12):
        s = new_game("tzolkin", 3, seed=seed, options={"dummy_placement": "single"})
        marked = set()
        from mayagames.tzolkin.components import DATA
        for t in s.dummy_tiles:
            gear, number = TILES[DATA.tiles[t].id][:2]
            marked.add((GEARS.index(gear), number))
        placed = {(g, pos) for g, occ in enumerate(s.gears) for pos, x in enumerate(occ) if x == 4}
        assert placed == marked and len(placed) == 6


# --- rules 13: monument costs -------------------------------------------------------------
MONUMENT_COSTS = {
    "m01": {"wood": 3, "stone": 2, "gold": 1}, "m02": {"wood": 1, "stone": 3, "gold": 2},
    "m03": {"wood": 1, "stone": 1, "gold": 4}, "m04": {"wood": 1, "gold": 4},
    "m05": {"wood": 2, "stone": 2, "gold": 2}, "m06": {"wood": 2, "stone": 3, "gold": 1},
    "m07": {"wood": 1, "stone": 1, "gold": 3}, "m08": {"wood": 2, "stone": 1, "gold": 3},
    "m09": {"wood": 3, "gold": 3}, "m10": {"stone": 2, "gold": 3}, "m11": {"stone": 4, "gold": 3},
    "m12": {"stone": 3, "gold": 3}, "m13": {"gold": 4, "skulls": 1},
}


@pytest.mark.parametrize("monument", sorted(MONUMENT_COSTS))
def test_monument_costs_exactly_what_the_table_shows(monument):
    cost = MONUMENT_COSTS[monument]
    for short in [None] + list(cost):
        s = blank(2)
        have = dict(cost)
        if short:
            have[short] -= 1
        set_goods(s, 0, **have)
        set_row(s, [])                          # no building on offer: only the monument
        set_monument_row(s, [monument])
        put_worker(s, 0, "tikal", 4)
        play(s, "pick tikal 4")
        if short:
            assert "do tikal 4" not in legal(s)
            continue
        play(s, "do tikal 4")                    # the only possible construction: made at once
        assert len(s.monuments[0]) == 1 and sum(goods(s, 0).values()) == 0


# --- rules 13: monument scoring categories -------------------------------------------------
@pytest.mark.parametrize("monument, category", [("m01", "brown"), ("m02", "brown"), ("m03", "brown"),
                                                ("m04", "brown"), ("m05", "brown"), ("m06", "green"),
                                                ("m07", "green"), ("m08", "green"), ("m09", "green"),
                                                ("m10", "blue"), ("m11", "blue"), ("m12", "blue"),
                                                ("m13", "blue")])
def test_monument_categories_count_for_the_category_monuments(monument, category):
    """M01/M06/M10 count the owner's monuments of their colour (including themselves)."""
    counter = {"brown": "m01", "green": "m06", "blue": "m10"}[category]
    s = blank(2)
    give_monument(s, 0, counter)
    if monument != counter:
        give_monument(s, 0, monument)
    assert monument_vp(s, 0, s.monuments[0][0]) == 4 * len(s.monuments[0])


# --- rules 10: VP of every temple step -----------------------------------------------------
TEMPLE_VP = {
    "chaac": [-1, 0, 2, 4, 6, 7, 8],
    "quetzalcoatl": [-2, 0, 1, 2, 4, 6, 9, 12, 13],
    "kukulcan": [-3, 0, 1, 3, 5, 7, 9, 10],
}


@pytest.mark.parametrize("temple", sorted(TEMPLE_VP))
def test_every_temple_step_scores_the_table_vp(temple):
    """Scored through M11 ("score your temple steps again"): the VP of the current step."""
    for step, vp in zip(range(-1, len(TEMPLE_VP[temple]) - 1), TEMPLE_VP[temple]):
        s = blank(2)
        set_temple(s, 0, temple, step)
        give_monument(s, 0, "m11")
        assert monument_vp(s, 0, s.monuments[0][0]) == vp


def test_temple_tops_are_the_last_steps_of_the_table():
    for temple, vps in TEMPLE_VP.items():
        s = blank(2)
        set_temple(s, 0, temple, len(vps) - 3)
        set_goods(s, 0, corn=7)
        put_worker(s, 0, "uxmal", 1)
        put_worker(s, 0, "uxmal", 2)
        play(s, "pick uxmal 1", "do uxmal 1", f"temple {temple}")
        assert s.p[0][13 + TEMPLE_NAMES.index(temple)] == len(vps) - 2
        play(s, "pick uxmal 2", "do uxmal 1")
        assert f"temple {temple}" not in legal(s)


# --- rules 15: market rates ---------------------------------------------------------------------------
@pytest.mark.parametrize("resource, rate", [("wood", 2), ("stone", 3), ("gold", 4)])
def test_market_buys_and_sells_at_one_rate(resource, rate):
    s = blank(2)
    set_goods(s, 0, corn=rate, **{resource: 1})
    put_worker(s, 0, "uxmal", 2)
    play(s, "pick uxmal 2", "do uxmal 2", f"buy {resource}")   # nothing else possible: market closes
    assert goods(s, 0)["corn"] == 0 and goods(s, 0)[resource] == 2
    play(s, "end")
    put_worker(s, 0, "uxmal", 2)
    from mayagames.tzolkin.positions import set_turn
    set_turn(s, 0)
    play(s, "pick uxmal 2", "do uxmal 2", f"sell {resource}", f"sell {resource}")
    assert goods(s, 0)["corn"] == 2 * rate and goods(s, 0)[resource] == 0

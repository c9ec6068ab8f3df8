"""One table of phrasings (issue 15 item 3): the catalogue and the terminal describe a
component from the same table, and every number comes from the data files."""

from __future__ import annotations

from mayagames.core import get_game, new_game
from mayagames.tzolkin import texts
from mayagames.tzolkin.components import DATA



def test_monument_values_come_from_the_data():
    """Change a monument's numbers and its texts change (nothing is copied into the code)."""
    workers = {"kind": "workers_in_play", "vp_by_workers": {"3": 1, "4": 5, "5": 9}}
    assert texts.monument_scoring(workers) == "Workers in play: 3/4/5 -> 1/5/9 VP"
    assert texts.monument_scoring(workers, short=True) == "1/5/9 VP for 3/4/5 workers"
    levels = {"kind": "techs_at_level3", "vp_by_count": [0, 7, 7, 30, 40]}
    assert texts.monument_scoring(levels) == "Technologies at level 3: 1 or 2 -> 7 VP, 3 -> 30 VP, 4 -> 40 VP"
    assert texts.monument_scoring(levels, short=True) == "7/30/40 VP for 1/3/4 techs at level 3"


def test_building_values_come_from_the_data():
    effects = {"farm_discount": 2, "workers": 3, "any_temple": 2}
    assert texts.building_effect(effects, short=True) == (
        "farm: each worker needs 2 corn less, any temple +2, +3 worker")
    assert texts.building_effect(effects).startswith("Farm: at every Food Day each worker needs 2 corn less")


def test_catalogue_and_board_use_the_same_table():
    cat = get_game("tzolkin").plugin.part("catalogue")()
    for m in DATA.monuments:
        assert cat["monuments"][m.id]["effect"] == texts.monument_scoring(m.scoring)
    for b in DATA.buildings:
        assert cat["buildings"][b.id]["effect"] == texts.building_effect(b.effects)
    for t in DATA.tiles:
        assert cat["start_tiles"][t.id]["effect"] == texts.start_tile(t)
    state = new_game("tzolkin", 3, seed=2)
    board = state.render(None)
    for m in state.monument_row:
        assert texts.monument_scoring(DATA.monuments[m].scoring, 3, short=True) in board

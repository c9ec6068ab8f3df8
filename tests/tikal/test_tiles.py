"""Rule 7: playing a terrain tile (any non-dotted Jungle hex, any rotation, what is on the hex
stays on the tile, Ruins filled with face-down treasures) and gap A18 (running out)."""

import pytest

from mayagames.core import IllegalAction
from mayagames.tikal.testing import (action_phase, ap_turn, edge_cost, fresh, free_jungle, give_card, give_tile,
                                     hx, legal_texts, play, put, strip_board)


def test_any_non_dotted_jungle_hex_reachable_or_not():
    s = action_phase(fresh(2), 0)
    give_tile(s, 0, "A-1")
    play(s, "place A-1")
    offered = [t[3:] for t in legal_texts(s)]
    assert offered == free_jungle(s) and "a2" in offered  # far from everything: no need to touch or reach
    with pytest.raises(IllegalAction, match="may not go on a dotted border hex"):
        play(s, "at a1")
    with pytest.raises(IllegalAction, match="not Jungle"):
        play(s, "at e3")


def test_ems_and_trail_stone_tokens_on_the_hex_end_up_on_the_tile():
    """Rule 7: EMs and Trail Stones on that hex end up on the tile (A7: a token keeps its edge)."""
    s = strip_board(fresh(2))
    put(s, 0, "f4", explorers=2)
    put(s, 1, "f4", leaders=1)
    ap_turn(s, 0, 3)
    play(s, "stone", "at f4", "side e")
    assert edge_cost(s, "f4", "f5") == 1
    s.stack.clear()
    give_tile(s, 0, "A-1")  # temple 2, stones 1 2 0 0 2 2: its e side has 2
    play(s, "place A-1", "at f4", "rotate 0")
    h = hx(s, "f4")
    assert s.kind[h] == 2 and s.explorers[h] == 2 and s.leaders[s.H + h] == 1
    assert edge_cost(s, "f4", "f5") == 2 + 1 and s.majority(h) == 1  # leader 3 beats 2 explorers


def test_rotation_turns_the_printed_stones_clockwise():
    s = strip_board(action_phase(fresh(2), 0))
    give_tile(s, 0, "A-1")  # stones ne1 e2 se0 sw0 w2 nw2
    play(s, "place A-1", "at f4", "rotate 1")
    h = hx(s, "f4")
    assert s.printed[h * 6:h * 6 + 6] == [2, 1, 2, 0, 0, 2]


def test_ruin_gets_as_many_face_down_treasures_as_masks():
    s = action_phase(fresh(2), 0)
    give_tile(s, 0, "B-3")  # ruins, 4 masks
    green = len(s.green)
    play(s, "place B-3", "at f4", "rotate 0")
    assert len(s.ruin[hx(s, "f4")]) == 4 and len(s.green) == green - 4


def test_ruin_with_the_green_supply_short_gets_what_is_left():
    """Gap A18: a Ruin laid when the green treasures are short gets what is left."""
    s = action_phase(fresh(2), 0)
    spare = s.green[:]
    s.green = spare[:1]
    s.ruin[hx(s, "b5")] += spare[1:]  # keep every token somewhere (conservation)
    give_tile(s, 0, "B-3")
    play(s, "place B-3", "at f4", "rotate 0")
    assert len(s.ruin[hx(s, "f4")]) == 1 and s.green == [] and s.invariants() == []


def test_campsite_tile_without_a_free_hex_is_discarded():
    """Gap A18: with no free non-dotted Jungle hex, the tile is discarded (it was the turn's action)."""
    s = action_phase(fresh(2), 0)
    for name in free_jungle(s):
        s.kind[hx(s, name)] = 3  # cover every free hex (as if Clearings had been laid)
    give_tile(s, 0, "A-1")
    play(s, "place A-1")
    t = s.C.tile_index["A-1"]
    assert t in s.tiles_out and s.camp_tiles[0] == [] and s.turn == 1


def test_symbol_tile_card_without_a_free_dotted_hex_cannot_be_played():
    """Gap A18: a symbol-tile card with no free dotted hex cannot be played (it may be kept)."""
    s = action_phase(fresh(2), 0)
    give_card(s, 0, "lake-l1")
    assert "play lake-l1" in legal_texts(s)
    for name in free_jungle(s, dotted=True):
        s.kind[hx(s, name)] = 5
    s.refresh()  # after writing fields directly
    assert "play lake-l1" not in legal_texts(s) and "keep lake-l1" in legal_texts(s)
    with pytest.raises(IllegalAction, match="cannot be done now"):
        play(s, "play lake-l1")


def test_every_tile_kind_sets_the_hex():
    s = action_phase(fresh(2), 0)
    expected = {"A-1": ("temple", 2, 0), "A-3": ("clearing", 0, 0), "B-4": ("lake", 0, 0), "C-3": ("ruins", 0, 2)}
    for (tile, (kind, level, masks)), name in zip(expected.items(), ("f4", "f5", "g4", "g5")):
        give_tile(s, 0, tile)
        s.turn = 0
        play(s, f"place {tile}", f"at {name}", "rotate 0")
        h = hx(s, name)
        assert s.to_dict()["board"]["hexes"][h]["kind"] == kind
        assert (s.level[h], s.masks[h], s.tile_on[h]) == (level, masks, s.C.tile_index[tile])
    assert s.invariants() == []

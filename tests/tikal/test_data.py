"""Component data: the shipped files are valid and complete; broken files give clear errors;
the engine reads the board's shape from the data."""

import copy
import json
import shutil

import pytest

from mayagames.core import Rng
from mayagames.tikal.data import (DATA_DIR, FILES, DataError, build, default_components, load_components,
                                  read_raw, validate)


@pytest.fixture()
def raw():
    return copy.deepcopy(read_raw())


def test_shipped_data_is_valid_and_complete():
    raw = read_raw()
    assert validate(raw) == []
    c = default_components()
    assert len(c.tiles) == 52
    backs = [t.back for t in c.tiles]
    assert sum(b in "ABCDE" for b in backs) == 24 and sum(b in "FG" for b in backs) == 12
    assert backs.count("symbol") == 11 and backs.count("unused") == 5
    assert sorted(t.type for t in c.tiles if t.back == "symbol") == ["lake"] * 5 + ["temple"] * 4 + ["volcano"] * 2
    assert {t.back for t in c.tiles if t.type == "volcano" and t.back in "ABCDE"} == {"B", "D"}
    assert all(1 <= t.value <= 6 for t in c.tiles if t.type == "temple")
    assert all(2 <= t.masks <= 4 for t in c.tiles if t.type == "ruins")
    assert all(len(t.stones) == 6 and all(0 <= x <= 3 for x in t.stones) for t in c.tiles)
    assert len(c.cards) == 60 and len(c.cards_for(2)) == 42 and len(c.cards_for(4)) == 60
    assert len({c_.kind for c_ in c.cards}) == 19
    assert len(c.directors) == 4 and len({p for d in c.directors for p in d.powers}) == 12
    assert len(c.ap_tokens) == 24 and sorted(c.ap_tokens)[0] == 6 and max(c.ap_tokens) == 13
    assert sum(c.floors) == 48 and c.floors[10] == 1
    assert len(c.treasure_types) == 8 and c.green_per_type * 8 == 24 and c.blue_per_type * 8 == 16


def test_board_geometry_tables():
    b = default_components().board
    e4 = b.by_name["e4"]
    neighbours = {b.hexes[b.neighbour[e4 * 6 + side]].name for side in range(6)}
    assert neighbours == {"d3", "d4", "e5", "f4", "f3", "e3"}
    for e, (a, sa, other, sb) in enumerate(b.edge_ends):
        assert b.edge[a * 6 + sa] == e == b.edge[other * 6 + sb] and sb == (sa + 3) % 6
    assert sum(h.dotted for h in b.hexes) >= 11
    kinds = sorted(p.type for p in b.preprinted)
    assert kinds == ["base_camp", "clearing", "temple", "temple"]


def test_card_counts_follow_the_glossary():
    c = default_components()
    per_kind_2p = {}
    per_kind_3p = {}
    for card in c.cards:
        per_kind_3p[card.kind] = per_kind_3p.get(card.kind, 0) + 1
        per_kind_2p[card.kind] = per_kind_2p.get(card.kind, 0) + card.in_2p
    assert per_kind_3p == {1: 8, 2: 2, 3: 1, 4: 2, 5: 3, 6: 1, 7: 3, 8: 4, 9: 1, 10: 3, 11: 3, 12: 4, 13: 4,
                           14: 3, 15: 4, 16: 4, 17: 5, 18: 2, 19: 3}
    assert per_kind_2p == {1: 8, 2: 1, 3: 1, 4: 1, 5: 2, 6: 1, 7: 1, 8: 2, 9: 1, 10: 2, 11: 2, 12: 2, 13: 2,
                           14: 1, 15: 2, 16: 4, 17: 5, 18: 2, 19: 2}
    assert {card.kind for card in c.cards if card.removed_on_reshuffle} == {1, 16, 17, 18}


def _problems(raw):
    with pytest.raises(DataError) as err:
        build(raw)
    return "\n".join(err.value.problems)


def test_wrong_stones_are_reported_with_the_tile(raw):
    raw["tiles.json"]["tiles"][3]["stones"] = [1, 2, 5]
    text = _problems(raw)
    assert "tile 'A4'" in text and "stones must be a list of 6 integers 0..3" in text


def test_bad_temple_value_and_ruin_masks(raw):
    tiles = raw["tiles.json"]["tiles"]
    next(t for t in tiles if t["type"] == "temple")["value"] = 9
    next(t for t in tiles if t["type"] == "ruins")["masks"] = 1
    text = _problems(raw)
    assert "temple's value must be 1..6" in text and "2..4 gold masks" in text


def test_missing_tile_is_counted(raw):
    raw["tiles.json"]["tiles"].pop()
    assert "52 terrain tiles, found 51" in _problems(raw)


def test_volcano_letters_are_checked(raw):
    tiles = raw["tiles.json"]["tiles"]
    next(t for t in tiles if t["back"] == "B" and t["type"] == "volcano")["back"] = "C"
    text = _problems(raw)
    assert "one Volcano is among the B tiles" in text and "no Volcano among the C tiles" in text


def test_duplicate_hex_and_unknown_references(raw):
    raw["board.json"]["hexes"][1]["name"] = raw["board.json"]["hexes"][0]["name"]
    raw["board.json"]["fixed_tiles"][0]["tile"] = "Z9"
    text = _problems(raw)
    assert "duplicate hex name 'a1'" in text and "unknown tile 'Z9'" in text


def test_fixed_tile_on_a_dotted_hex(raw):
    raw["board.json"]["fixed_tiles"][0]["hex"] = "a1"
    assert "hex a1 is dotted" in _problems(raw)


def test_preprinted_hexes_checked(raw):
    raw["board.json"]["preprinted"].pop()
    assert "Common Base Camp, 2 Temples and 1 Clearing" in _problems(raw)


def test_card_counts_must_sum_to_60(raw):
    raw["cards.json"]["kinds"][1]["count_3p"] = 5
    assert "60 action cards" in _problems(raw)


def test_card_effect_and_symbol_tile_references(raw):
    kinds = raw["cards.json"]["kinds"]
    kinds[2]["effect"] = "teleport"
    next(k for k in kinds if k["effect"] == "symbol_tile")["variants"][0]["tile"] = "A1"
    text = _problems(raw)
    assert "unknown effect 'teleport'" in text and "must be a symbol tile" in text


def test_director_powers_checked(raw):
    raw["directors.json"]["tiles"][0]["powers"][0] = "flying"
    assert "unknown power 'flying'" in _problems(raw)


def test_counted_components_checked(raw):
    raw["components.json"]["ap_tokens"]["13"] = 5
    raw["components.json"]["temple_floors"]["10"] = 4
    text = _problems(raw)
    assert "ap_tokens must count 24" in text and "48 unbuilt floors" in text


def test_disconnected_board_is_reported(raw):
    raw["board.json"]["hexes"].append({"name": "z9", "q": 40, "r": 40, "dotted": True})
    assert "one connected board" in _problems(raw)


def test_missing_file_and_bad_json(tmp_path):
    for name in FILES:
        shutil.copy(DATA_DIR / name, tmp_path / name)
    (tmp_path / "cards.json").write_text("{ not json", encoding="utf-8")
    (tmp_path / "board.json").unlink()
    with pytest.raises(DataError) as err:
        load_components(tmp_path)
    text = str(err.value)
    assert "board.json: file not found" in text and "cards.json: not valid JSON" in text


def _write(raw, path):
    for name, doc in raw.items():
        (path / name).write_text(json.dumps(doc), encoding="utf-8")


def test_engine_follows_an_edited_board(tmp_path, raw):
    """A different board (renamed, shifted, one hex more) plays without code changes."""
    board = raw["board.json"]
    rename = {h["name"]: f"x{i}" for i, h in enumerate(board["hexes"])}
    for h in board["hexes"]:
        h["name"] = rename[h["name"]]
        h["q"] += 5
        h["r"] -= 3
    for item in board["preprinted"] + board["fixed_tiles"]:
        item["hex"] = rename[item["hex"]]
    last = board["hexes"][-1]
    board["hexes"].append({"name": "extra", "q": last["q"] + 1, "r": last["r"], "dotted": False})
    _write(raw, tmp_path)
    comps = load_components(tmp_path)
    from mayagames.tikal.setup_game import new_tikal_game
    from mayagames.tikal import INFO
    s = new_tikal_game(3, 4, INFO.resolve_options({}), comps)
    assert s.H == 64
    rng = Rng(2)
    while not s.is_terminal:
        legal = s.legal_actions()
        s.apply(legal[rng.randbelow(len(legal))])
    assert s.invariants() == []
    assert any(hexd["name"] == "extra" for hexd in s.to_dict()["board"]["hexes"])

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
    assert "tile 'A-4'" in text and "stones must be a list of 6 integers 0..3" in text


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
    next(k for k in kinds if k["effect"] == "symbol_tile")["variants"][0]["tile"] = "A-1"
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


def test_component_numbers_are_the_rulebooks():
    """Rule 1 (components), 2 (setup), 6 (AP costs), 8 (scoring numbers), 9, 11, section 12."""
    c = default_components()
    assert c.floors[2:] == (3, 6, 9, 11, 8, 5, 3, 2, 1) and c.max_level == 10
    assert sorted(c.ap_tokens) == sorted([6] * 2 + [7] * 3 + [8] * 3 + [9] * 4 + [10] * 4 + [11] * 3
                                         + [12] * 3 + [13] * 2)
    assert c.ap_costs == {"deploy": 1, "move_per_stone": 1, "base_camp": 5, "transfer": 1, "trail_stone": 3,
                          "recruit_explorer": 2, "recruit_leader": 5, "clear_floor": 2, "guardian": 5,
                          "unearth": 3, "trade": 3}
    assert c.limits == {"floors_per_temple": 2, "treasures_per_ruin": 2, "trade_tokens": 2}
    assert c.set_values == (0, 1, 3, 6, 10, 15) and c.tallest_bonus == {7: 5, 8: 6, 9: 8, 10: 10}
    assert c.volcano_pp == 10 and (c.leader_strength, c.explorer_strength) == (3, 1)
    assert c.per_player == {"leaders": 2, "explorers": 30, "available_leaders": 1, "available_explorers": 18,
                            "base_camps": 2, "max_guardians": 2}
    assert (c.trail_stone_tokens, c.volcanoes_3d, c.display_cards, c.special_turn_ap) == (2, 6, 10, 10)
    assert (c.green_per_type, c.blue_per_type) == (3, 2) and c.unused_director_bonus == 5
    assert c.starting_prestige[:4] == (1, 2, 3, 4)
    for n, (rounds, removed, tiles_drawn, tiles_each, cards_each) in {
            2: (6, 12, 4, 2, 3), 3: (8, 0, 3, 1, 3), 4: (6, 0, 4, 1, 2)}.items():
        rules = c.setup[n]
        assert (rules["rounds"], rules["ap_removed"], rules["ap_drawn"], rules["tiles_drawn"],
                rules["tiles_each"], rules["cards_each"]) == (rounds, removed, n, tiles_drawn, tiles_each, cards_each)
        assert rules["deck"] == ("2p" if n == 2 else "3p")
    powers = {d.id: d.powers for d in c.directors}
    assert powers == {1: ("volcanologist", "tracker", "hunter"), 2: ("scout", "builder", "journalist"),
                      3: ("adventurer", "nomad", "merchant"), 4: ("fisher", "driver", "collector")}
    params = {name: c.powers[name].params for name in ("volcanologist", "adventurer", "scout", "tracker")}
    assert params == {"volcanologist": {"per": 2, "max": 8}, "adventurer": {"per": 3, "max": 9},
                      "scout": {"points": 5}, "tracker": {"explorers": 2}}


def test_shipped_tiles_meet_the_setup_constraints():
    """Rule 2.5-2.8 and section 12.1: F/G tiles hold the 2 setup Volcanoes and 2 two-mask Ruins;
    24 tiles in A-E; one Volcano in B and one in D; 6 Volcano tiles for the 6 3D volcanoes."""
    c = default_components()
    fixed = [t for t in c.tiles if t.back in "FG"]
    assert len(fixed) == 12 and sum(t.type == "volcano" for t in fixed) == 2
    assert sorted(t.masks for t in fixed if t.type == "ruins") == [2, 2]
    assert sum(t.back in "ABCDE" for t in c.tiles) == 24
    assert [t.back for t in c.tiles if t.type == "volcano" and t.back in "ABCDE"] == ["B", "D"]
    assert sum(t.type == "volcano" and t.back != "unused" for t in c.tiles) == c.volcanoes_3d
    # the green treasures cover every Ruin that can be laid: 4 at setup + the A-E Ruins' masks
    masks = sum(t.masks for t in c.tiles if t.type == "ruins" and t.back in "ABCDE")
    assert 4 + masks <= 8 * c.green_per_type


def test_volcano_counts_per_letter_are_exact(raw):
    tiles = raw["tiles.json"]["tiles"]
    b = next(t for t in tiles if t["back"] == "B" and t["type"] != "volcano")
    b["type"] = "volcano"
    text = _problems(raw)
    assert "one Volcano is among the B tiles (rule 1), found 2" in text


def test_letter_piles_and_setup_tiles_are_checked(raw):
    tiles = raw["tiles.json"]["tiles"]
    next(t for t in tiles if t["back"] == "E")["back"] = "F"
    text = _problems(raw)
    assert "A-E piles hold the 24 tiles drawn in play" in text and "found 23" in text
    assert "F and G tiles are the 12 laid at setup, found 13" in text


def test_setup_volcanoes_and_ruins_are_checked(raw):
    tiles = raw["tiles.json"]["tiles"]
    next(t for t in tiles if t["back"] == "F" and t["type"] == "ruins")["masks"] = 3
    next(t for t in tiles if t["back"] == "G" and t["type"] == "volcano")["type"] = "lake"
    text = _problems(raw)
    assert "2 Ruins of 2 masks, found masks [3, 2]" in text
    assert "Volcanoes that get the 2 setup 3D volcanoes (rule 2.7), found 1" in text


def test_volcano_tiles_match_the_3d_volcanoes(raw):
    raw["components.json"]["volcanoes_3d"] = 5
    assert "volcanoes_3d is 5 but 6 Volcano tiles can come into play" in _problems(raw)


def test_tile_ids_cannot_read_like_hexes(raw):
    """Usability: 'take tile a1' once read like the hex a1; ids are now like 'A-1'."""
    assert all("-" in t.id and t.id.lower() not in default_components().board.by_name
               for t in default_components().tiles)
    raw["tiles.json"]["tiles"][0]["id"] = "C3"
    assert "tile id 'C3' reads like the hex 'c3'" in _problems(raw)


def test_dotted_hexes_lie_around_the_edge(raw):
    """Rule 1: the dotted-outline hexes are around the edge of the site board."""
    assert validate(raw) == []
    next(h for h in raw["board.json"]["hexes"] if h["name"] == "c4")["dotted"] = True
    assert "dotted hex c4 is not on the edge of the board" in _problems(raw)

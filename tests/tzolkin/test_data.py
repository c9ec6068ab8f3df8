"""The component data files and their validator."""

import copy
import json

import pytest

from mayagames.tzolkin import components
from mayagames.tzolkin.components import DATA, DataError, read_raw, validate


@pytest.fixture(scope="module")
def raw():
    return read_raw()


def test_shipped_data_is_valid(raw):
    assert validate(raw) == []


def test_component_counts_match_the_rulebook():
    assert sum(b.qty for b in DATA.buildings if b.age == 1) == 14
    assert sum(b.qty for b in DATA.buildings if b.age == 2) == 18
    assert len(DATA.monuments) == 13 and len(DATA.tiles) == 21
    assert [g.holes for g in DATA.gears] == [10, 10, 10, 10, 13]
    assert [g.spaces for g in DATA.gears] == [8, 8, 8, 8, 11]
    assert DATA.teeth == 26 and [d for d, _, _ in DATA.food_days] == [8, 14, 21, 27]
    assert DATA.tariff == (0, 1, 2, 3, 4, 5) and DATA.market == (2, 3, 4)
    assert DATA.skulls == 13 and DATA.tech_cost == (1, 2, 3, 1)
    assert {n: DATA.setup[n]["dummies"] for n in (2, 3, 4)} == {2: 12, 3: 6, 4: 0}


def test_temple_tables():
    chaac, quetz, kukul = DATA.temples
    assert chaac.vp == (-1, 0, 2, 4, 6, 7, 8) and chaac.top == 5 and chaac.bonus == (6, 2)
    assert quetz.vp == (-2, 0, 1, 2, 4, 6, 9, 12, 13) and quetz.top == 7 and quetz.bonus == (2, 6)
    assert kukul.vp == (-3, 0, 1, 3, 5, 7, 9, 10) and kukul.top == 6 and kukul.bonus == (4, 4)
    assert kukul.rewards[4 + 1] == (2, 0, 0, 1) and chaac.rewards[3 + 1] == (0, 2, 0, 0)


def broken(raw, path, value):
    data = copy.deepcopy(raw)
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return validate(data)


@pytest.mark.parametrize("path, value, message", [
    (("buildings", "buildings", 0, "qty"), 2, "need 14 Age 1 and 18 Age 2"),
    (("buildings", "buildings", 0, "cost"), {"wood": -1}, "building a1-f1.cost.wood: must be an integer"),
    (("buildings", "buildings", 0, "cost"), {"marble": 1}, "unknown key(s) ['marble']"),
    (("buildings", "buildings", 2, "category"), "red", "category must be one of"),
    (("buildings", "buildings", 4, "effects"), {"build_another": True, "teleport": 1}, "unknown key(s) ['teleport']"),
    (("buildings", "buildings", 1, "effects"), {"temples": {"zeus": 1}}, "temples: unknown key(s) ['zeus']"),
    (("monuments", "monuments", 4, "scoring"), {"kind": "per_monument_built", "vp_by_players": {"2": 6}},
     "vp_by_players must give a value"),
    (("monuments", "monuments", 0, "scoring"), {"kind": "magic"}, "scoring kind 'magic'"),
    (("start_tiles", "tiles", 1, "space"), 1, "two tiles mark the same gear space"),
    (("start_tiles", "tiles", 1, "gear"), "atlantis", "gear must be one of"),
    (("temples", "temples", 0, "bonus"), {"age1": 5, "age2": 2}, "must be even"),
    (("temples", "temples", 1, "steps", 1, "vp"), 3, "start step"),
    (("techs", "cost"), [1, 2], "must give 4 prices"),
    (("gears", "gears", 0, "actions"), 9, "need actions < spaces <= holes"),
    (("gears", "calendar", "food_days", 3, "day"), 26, "one full turn"),
    (("gears", "gears", 3, "action_list", 0, "kind"), "fishing", "kind 'fishing' is not one of"),
    (("rules", "placement_tariff"), [0, 2, 1, 3, 4, 5], "non-decreasing"),
    (("rules", "setup", "2"), {"dummies": 40, "jungle_tiles": 2, "monuments": 4}, "must be an integer 0..20"),
    (("rules", "workers"), KeyError, "workers.start"),
])
def test_validator_reports_clear_errors(raw, path, value, message):
    errors = broken(raw, path, value)
    assert any(message in e for e in errors), errors


def test_missing_file_and_bad_json(tmp_path):
    for name in components.FILES:
        (tmp_path / f"{name}.json").write_text(
            (components.DATA_DIR / f"{name}.json").read_text(encoding="utf-8"), encoding="utf-8")
    assert components.load(tmp_path) == DATA
    (tmp_path / "temples.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(DataError, match="temples.json: not valid JSON"):
        components.load(tmp_path)
    (tmp_path / "temples.json").unlink()
    with pytest.raises(DataError, match="temples.json: file missing"):
        components.load(tmp_path)


def test_load_lists_every_problem(tmp_path, raw):
    for name in components.FILES:
        data = copy.deepcopy(raw[name])
        if name == "monuments":
            data["monuments"][0]["category"] = "pink"
            data["monuments"][1]["cost"] = {"wood": "two"}
        (tmp_path / f"{name}.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DataError) as err:
        components.load(tmp_path)
    text = str(err.value)
    assert "monument m01: category" in text and "monument m02.cost.wood" in text


def test_missing_file_sections(raw):
    data = dict(raw)
    del data["rules"]
    assert validate(data) == ["rules.json: missing or not a JSON object"]

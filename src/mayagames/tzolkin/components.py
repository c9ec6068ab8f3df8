"""Tzolk'in component data: loaded from ``data/*.json``, validated, turned into typed tables.

All game figures (gears and their actions, calendar, temples, technology tracks,
buildings, monuments, starting wealth tiles, tariff, market rates, setup by player
count) live in the JSON files next to this module; this module only checks them and
makes fast lookup tables for the rules. :func:`validate` returns every problem found
(an empty list when the data is sound) and :func:`load` raises :class:`DataError`
listing them all, so a bad edit is reported clearly at import time.

>>> from mayagames.tzolkin.components import DATA
>>> len(DATA.buildings), len(DATA.monuments), len(DATA.tiles)
(27, 13, 21)
>>> sum(b.qty for b in DATA.buildings)
32
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from ..core.errors import MayaGamesError

DATA_DIR = Path(__file__).parent / "data"
FILES = ("gears", "temples", "techs", "buildings", "monuments", "start_tiles", "rules")

GEARS = ("palenque", "yaxchilan", "tikal", "uxmal", "chichen")
PALENQUE, YAXCHILAN, TIKAL, UXMAL, CHICHEN = range(5)
TEMPLES = ("chaac", "quetzalcoatl", "kukulcan")
CHAAC, QUETZALCOATL, KUKULCAN = range(3)
TRACKS = ("agriculture", "extraction", "architecture", "theology")
AGRICULTURE, EXTRACTION, ARCHITECTURE, THEOLOGY = range(4)
RESOURCES = ("wood", "stone", "gold")          # the resource blocks
GOODS = ("corn", "wood", "stone", "gold", "skull")
CATEGORIES = ("farm", "brown", "green", "blue")
ACTION_KINDS = {
    "palenque": ("fishing", "harvest"), "yaxchilan": ("gain",),
    "tikal": ("tech", "build", "temples"),
    "uxmal": ("temple", "market", "worker", "corn_build", "mirror"), "chichen": ("skull",),
}
EFFECT_KEYS = ("farm_free", "farm_discount", "gain", "vp", "temples", "any_temple", "techs",
               "any_tech", "workers", "market", "mirror", "build_another")
SCORING_KINDS = ("per_category", "per_building", "per_corn_tile", "per_wood_tile",
                 "per_monument_built", "techs_at_level3", "per_tech_level", "workers_in_play",
                 "temples_again", "highest_temple_steps", "skulls_on_chichen")
TILE_KEYS = ("id", "gear", "space", "gain", "temples", "techs", "workers", "farm_free")


class DataError(MayaGamesError, ValueError):
    """The component data files are missing, malformed or inconsistent."""


# --- typed components ---------------------------------------------------------
@dataclass(frozen=True)
class GearSpec:
    name: str
    title: str
    colour: str
    holes: int          # holes on the gear (spaces + dead arc)
    spaces: int         # numbered spaces 0 .. spaces-1
    actions: int        # regular actions 1 .. actions; higher spaces are free choice
    action_list: tuple[Mapping[str, Any], ...]   # index k-1 describes action k


@dataclass(frozen=True)
class TempleSpec:
    name: str
    title: str
    colour: str
    vp: tuple[int, ...]            # vp[pos + 1] for pos -1 .. top
    top: int                       # index of the top step
    bonus: tuple[int, int]         # highest-player bonus at the end of age 1, age 2
    rewards: tuple[tuple[int, int, int, int], ...]  # cumulative (wood, stone, gold, skull) by pos + 1


@dataclass(frozen=True)
class TrackSpec:
    name: str
    title: str
    levels: tuple[str, ...]
    bonus_kind: str
    bonus_count: int
    modifiers: Mapping[str, tuple[int, ...]]


@dataclass(frozen=True)
class BuildingSpec:
    id: str
    age: int
    qty: int
    cost: tuple[int, int, int]     # wood, stone, gold
    category: str
    effects: Mapping[str, Any]

    @property
    def blocks(self) -> int:
        return sum(self.cost)


@dataclass(frozen=True)
class MonumentSpec:
    id: str
    cost: tuple[int, int, int]
    skull_cost: int
    category: str
    scoring: Mapping[str, Any]


@dataclass(frozen=True)
class TileSpec:
    id: str
    gear: str
    space: int
    gain: tuple[int, int, int, int, int]   # corn, wood, stone, gold, skull
    temples: tuple[int, int, int]
    techs: tuple[int, int, int, int]
    workers: int
    farm_free: int


@dataclass(frozen=True)
class ComponentData:
    gears: tuple[GearSpec, ...]
    jungle_wood: tuple[bool, ...]          # by Palenque space (index 0..5): group holds wood tiles
    jungle_spaces: tuple[int, ...]
    teeth: int
    food_days: tuple[tuple[int, str, int], ...]   # (day, kind, age)
    temples: tuple[TempleSpec, ...]
    tech_cost: tuple[int, ...]
    tracks: tuple[TrackSpec, ...]
    buildings: tuple[BuildingSpec, ...]
    monuments: tuple[MonumentSpec, ...]
    tiles: tuple[TileSpec, ...]
    tariff: tuple[int, ...]
    market: tuple[int, int, int]
    start_workers: int
    max_workers: int
    skulls: int
    building_display: int
    tiles_dealt: int
    tiles_kept: int
    beg_max_corn: int
    beg_corn_after: int
    corn_per_worker: int
    unfed_vp: int
    corn_per_vp: int
    skull_vp: int
    setup: Mapping[int, Mapping[str, int]]

    def building(self, ident: str) -> BuildingSpec:
        return self.buildings[BUILDING_INDEX[ident]]

    def monument(self, ident: str) -> MonumentSpec:
        return self.monuments[MONUMENT_INDEX[ident]]


# --- validation -----------------------------------------------------------------
class _Check:
    """Collects validation messages with the file and item they concern."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def fail(self, where: str, message: str) -> None:
        self.errors.append(f"{where}: {message}")

    def int_(self, where: str, value: Any, low: int = 0, high: int | None = None) -> bool:
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= low and (
            high is None or value <= high)
        if not ok:
            bound = f"{low}..{high}" if high is not None else f">= {low}"
            self.fail(where, f"must be an integer {bound}, got {value!r}")
        return ok

    def keys(self, where: str, value: Any, allowed: tuple[str, ...], required: tuple[str, ...] = ()) -> bool:
        if not isinstance(value, dict):
            self.fail(where, f"must be an object, got {type(value).__name__}")
            return False
        extra = sorted(k for k in value if k not in allowed and not k.startswith("_"))
        if extra:
            self.fail(where, f"unknown key(s) {extra}; allowed: {list(allowed)}")
        missing = [k for k in required if k not in value]
        if missing:
            self.fail(where, f"missing key(s) {missing}")
        return not extra and not missing

    def counts(self, where: str, value: Any, names: tuple[str, ...], high: int = 20) -> None:
        if self.keys(where, value, names):
            for key, n in value.items():
                if not key.startswith("_"):
                    self.int_(f"{where}.{key}", n, 0, high)


def _check_gears(c: _Check, raw: dict) -> None:
    gears = raw.get("gears")
    if not isinstance(gears, list) or [g.get("name") for g in gears if isinstance(g, dict)] != list(GEARS):
        c.fail("gears.json", f"'gears' must list the five gears in order {list(GEARS)}")
        return
    for gear in gears:
        where = f"gears.json: gear {gear['name']}"
        c.keys(where, gear, ("name", "title", "colour", "holes", "spaces", "actions", "action_list",
                             "spaces_doc"), ("title", "holes", "spaces", "actions", "action_list"))
        holes, spaces, actions = gear.get("holes"), gear.get("spaces"), gear.get("actions")
        if not (c.int_(f"{where}.holes", holes, 2, 30) and c.int_(f"{where}.spaces", spaces, 2, 30)
                and c.int_(f"{where}.actions", actions, 1, 30)):
            continue
        if not actions < spaces <= holes:
            c.fail(where, f"need actions < spaces <= holes, got {actions}, {spaces}, {holes}")
        acts = gear.get("action_list", [])
        if [a.get("space") for a in acts if isinstance(a, dict)] != list(range(1, actions + 1)):
            c.fail(where, f"action_list must describe spaces 1..{actions} in order")
            continue
        for act in acts:
            if act.get("kind") not in ACTION_KINDS[gear["name"]]:
                c.fail(f"{where} space {act.get('space')}",
                       f"kind {act.get('kind')!r} is not one of {ACTION_KINDS[gear['name']]}")
            for key in ("corn", "wood", "vp", "advances", "buildings", "temples", "blocks",
                        "corn_per_block", "architecture_discount"):
                if key in act:
                    c.int_(f"{where} space {act['space']}.{key}", act[key], 0, 20)
            if "gain" in act:
                c.counts(f"{where} space {act['space']}.gain", act["gain"], GOODS)
            if act.get("kind") == "skull" and act.get("temple") not in TEMPLES:
                c.fail(f"{where} space {act['space']}", f"temple must be one of {TEMPLES}")
            if act.get("kind") == "mirror" and not set(act.get("gears", [])) <= set(GEARS):
                c.fail(f"{where} space {act['space']}", "mirror gears must be gear names")
    groups = raw.get("jungle", {}).get("groups")
    if not isinstance(groups, list) or not groups:
        c.fail("gears.json: jungle", "'groups' must be a non-empty list")
    else:
        for group in groups:
            if group.get("space") not in (2, 3, 4, 5) or not isinstance(group.get("wood"), bool):
                c.fail("gears.json: jungle", f"bad group {group!r} (space 2-5, wood true/false)")
    cal = raw.get("calendar", {})
    c.int_("gears.json: calendar.teeth", cal.get("teeth"), 2, 100)
    days = cal.get("food_days", [])
    if not isinstance(days, list) or len(days) != 4:
        c.fail("gears.json: calendar.food_days", "must list the 4 Food Days")
        return
    last = 0
    for i, fd in enumerate(days):
        expect = "middle" if i % 2 == 0 else "end"
        if not isinstance(fd, dict) or fd.get("kind") != expect or fd.get("age") != i // 2 + 1:
            c.fail("gears.json: calendar.food_days", f"entry {i} must be a {expect}-of-age {i // 2 + 1} day")
        elif not (isinstance(fd.get("day"), int) and fd["day"] > last):
            c.fail("gears.json: calendar.food_days", "days must increase")
        else:
            last = fd["day"]
    if isinstance(cal.get("teeth"), int) and last != cal["teeth"] + 1:
        c.fail("gears.json: calendar", "the last Food Day must be one full turn after day 1 (teeth + 1)")


def _check_temples(c: _Check, raw: dict) -> None:
    temples = raw.get("temples")
    if not isinstance(temples, list) or [t.get("name") for t in temples] != list(TEMPLES):
        c.fail("temples.json", f"'temples' must list {list(TEMPLES)} in order")
        return
    for t in temples:
        where = f"temples.json: {t['name']}"
        steps = t.get("steps")
        if not isinstance(steps, list) or len(steps) < 3:
            c.fail(where, "'steps' must list at least bottom, start and top")
            continue
        if steps[1].get("vp") != 0:
            c.fail(where, "the start step (second entry) must be worth 0 VP")
        vps = [s.get("vp") for s in steps]
        if not all(isinstance(v, int) for v in vps) or vps != sorted(vps):
            c.fail(where, f"step VP must be integers that never decrease, got {vps}")
        for i, s in enumerate(steps):
            if "item" in s and s["item"] not in ("wood", "stone", "gold", "skull"):
                c.fail(f"{where} step {i - 1}", f"item {s['item']!r} is not a resource or skull")
        bonus = t.get("bonus", {})
        for age in ("age1", "age2"):
            if c.int_(f"{where}.bonus.{age}", bonus.get(age), 0, 50) and bonus[age] % 2:
                c.fail(f"{where}.bonus.{age}", "must be even: tied players each get exactly half")


def _check_techs(c: _Check, raw: dict) -> None:
    cost = raw.get("cost")
    if not isinstance(cost, list) or len(cost) != 4:
        c.fail("techs.json: cost", "must give 4 prices (levels 1, 2, 3 and the bonus)")
    else:
        for i, n in enumerate(cost):
            c.int_(f"techs.json: cost[{i}]", n, 0, 10)
    tracks = raw.get("tracks")
    if not isinstance(tracks, list) or [t.get("name") for t in tracks] != list(TRACKS):
        c.fail("techs.json", f"'tracks' must list {list(TRACKS)} in order")
        return
    bonus_kinds = {"agriculture": "temple", "extraction": "blocks", "architecture": "vp", "theology": "skull"}
    for t in tracks:
        where = f"techs.json: {t['name']}"
        if t.get("bonus", {}).get("kind") != bonus_kinds[t["name"]]:
            c.fail(where, f"bonus kind must be {bonus_kinds[t['name']]!r}")
        c.int_(f"{where}.bonus.count", t.get("bonus", {}).get("count"), 1, 10)
        for name, values in t.get("modifiers", {}).items():
            if not (isinstance(values, list) and len(values) == 4 and all(isinstance(v, int) for v in values)
                    and values == sorted(values)):
                c.fail(f"{where}.modifiers.{name}", "must list 4 non-decreasing integers (levels 0-3)")


def _check_effects(c: _Check, where: str, eff: Any) -> None:
    if not c.keys(where, eff, EFFECT_KEYS):
        return
    for key in ("farm_free", "farm_discount", "vp", "any_temple", "any_tech", "workers"):
        if key in eff:
            c.int_(f"{where}.{key}", eff[key], 1, 20)
    if "gain" in eff:
        c.counts(f"{where}.gain", eff["gain"], GOODS)
    if "temples" in eff:
        c.counts(f"{where}.temples", eff["temples"], TEMPLES, 5)
    if "techs" in eff:
        c.counts(f"{where}.techs", eff["techs"], TRACKS, 3)
    for flag in ("market", "mirror", "build_another"):
        if flag in eff and eff[flag] is not True:
            c.fail(f"{where}.{flag}", "must be true when present")


def _check_buildings(c: _Check, raw: dict) -> None:
    items = raw.get("buildings")
    if not isinstance(items, list):
        c.fail("buildings.json", "'buildings' must be a list")
        return
    ids = [b.get("id") for b in items]
    if len(set(ids)) != len(ids):
        c.fail("buildings.json", "building ids must be unique")
    per_age = {1: 0, 2: 0}
    for b in items:
        where = f"buildings.json: building {b.get('id')}"
        c.keys(where, b, ("id", "age", "qty", "cost", "category", "effects"),
               ("id", "age", "qty", "cost", "category", "effects"))
        if b.get("age") not in (1, 2):
            c.fail(where, "age must be 1 or 2")
        elif c.int_(f"{where}.qty", b.get("qty"), 1, 5):
            per_age[b["age"]] += b["qty"]
        c.counts(f"{where}.cost", b.get("cost"), RESOURCES, 10)
        if isinstance(b.get("cost"), dict) and not sum(v for v in b["cost"].values() if isinstance(v, int)):
            c.fail(f"{where}.cost", "must cost at least one block")
        if b.get("category") not in CATEGORIES:
            c.fail(where, f"category must be one of {CATEGORIES}")
        _check_effects(c, f"{where}.effects", b.get("effects"))
    if per_age != {1: 14, 2: 18}:
        c.fail("buildings.json", f"need 14 Age 1 and 18 Age 2 building tiles, got {per_age}")


def _check_monuments(c: _Check, raw: dict, players: tuple[int, ...]) -> None:
    items = raw.get("monuments")
    if not isinstance(items, list) or len(items) != 13:
        c.fail("monuments.json", "'monuments' must list the 13 monuments")
        return
    if len({m.get("id") for m in items}) != 13:
        c.fail("monuments.json", "monument ids must be unique")
    for m in items:
        where = f"monuments.json: monument {m.get('id')}"
        c.keys(where, m, ("id", "cost", "category", "scoring"), ("id", "cost", "category", "scoring"))
        c.counts(f"{where}.cost", m.get("cost"), RESOURCES + ("skull",), 10)
        if m.get("category") not in CATEGORIES[1:]:
            c.fail(where, f"category must be one of {CATEGORIES[1:]}")
        sc = m.get("scoring", {})
        kind = sc.get("kind")
        if kind not in SCORING_KINDS:
            c.fail(where, f"scoring kind {kind!r} is not one of {SCORING_KINDS}")
        if kind == "per_category" and sc.get("category") not in CATEGORIES:
            c.fail(where, "per_category scoring needs a category")
        if kind == "per_monument_built" and sorted(sc.get("vp_by_players", {})) != [str(p) for p in players]:
            c.fail(where, f"vp_by_players must give a value for {list(players)} players")
        if kind == "workers_in_play" and not isinstance(sc.get("vp_by_workers"), dict):
            c.fail(where, "workers_in_play scoring needs vp_by_workers")
        if kind == "techs_at_level3" and len(sc.get("vp_by_count", [])) != 5:
            c.fail(where, "techs_at_level3 scoring needs 5 values (0-4 tracks)")


def _check_tiles(c: _Check, raw: dict, gears: dict) -> None:
    tiles = raw.get("tiles")
    if not isinstance(tiles, list) or len(tiles) != 21:
        c.fail("start_tiles.json", "'tiles' must list the 21 starting wealth tiles")
        return
    if len({t.get("id") for t in tiles}) != 21:
        c.fail("start_tiles.json", "tile ids must be unique")
    seen = set()
    for t in tiles:
        where = f"start_tiles.json: tile {t.get('id')}"
        c.keys(where, t, TILE_KEYS, ("id", "gear", "space"))
        gear = gears.get(t.get("gear"))
        if gear is None:
            c.fail(where, f"gear must be one of {GEARS}")
        elif c.int_(f"{where}.space", t.get("space"), 0, gear["spaces"] - 1):
            if (t["gear"], t["space"]) in seen:
                c.fail(where, "two tiles mark the same gear space")
            seen.add((t["gear"], t["space"]))
        c.counts(f"{where}.gain", t.get("gain", {}), GOODS)
        c.counts(f"{where}.temples", t.get("temples", {}), TEMPLES, 3)
        c.counts(f"{where}.techs", t.get("techs", {}), TRACKS, 3)
        c.int_(f"{where}.workers", t.get("workers", 0), 0, 3)
        c.int_(f"{where}.farm_free", t.get("farm_free", 0), 0, 3)


def _check_rules(c: _Check, raw: dict) -> None:
    tariff = raw.get("placement_tariff")
    if not isinstance(tariff, list) or tariff != sorted(tariff) or not tariff or tariff[0] != 0:
        c.fail("rules.json: placement_tariff", "must be a non-decreasing list starting at 0")
    c.counts("rules.json: market", raw.get("market"), RESOURCES)
    w = raw.get("workers", {})
    c.int_("rules.json: workers.start", w.get("start"), 1, 10)
    c.int_("rules.json: workers.max", w.get("max"), 1, 10)
    if isinstance(tariff, list) and isinstance(w.get("max"), int) and len(tariff) < w["max"]:
        c.fail("rules.json: placement_tariff", "needs one entry per worker (workers.max)")
    c.int_("rules.json: skulls", raw.get("skulls"), 1, 50)
    c.int_("rules.json: building_display", raw.get("building_display"), 1, 10)
    for path in (("start_tiles", "dealt"), ("start_tiles", "kept"), ("begging", "max_corn"),
                 ("begging", "corn_after"), ("feeding", "corn_per_worker"), ("final", "corn_per_vp"),
                 ("final", "skull_vp")):
        c.int_(f"rules.json: {'.'.join(path)}", raw.get(path[0], {}).get(path[1]), 0, 50)
    if not isinstance(raw.get("feeding", {}).get("unfed_vp"), int):
        c.fail("rules.json: feeding.unfed_vp", "must be an integer")
    setup = raw.get("setup")
    if not isinstance(setup, dict) or sorted(setup) != ["2", "3", "4"]:
        c.fail("rules.json: setup", "must give the setup for 2, 3 and 4 players")
        return
    for n, row in setup.items():
        c.keys(f"rules.json: setup.{n}", row, ("dummies", "jungle_tiles", "monuments"),
               ("dummies", "jungle_tiles", "monuments"))
        c.int_(f"rules.json: setup.{n}.dummies", row.get("dummies"), 0, 20)
        c.int_(f"rules.json: setup.{n}.jungle_tiles", row.get("jungle_tiles"), 1, 4)
        c.int_(f"rules.json: setup.{n}.monuments", row.get("monuments"), 1, 13)
        dealt = raw.get("start_tiles", {}).get("dealt", 4)
        if isinstance(dealt, int) and isinstance(row.get("dummies"), int) and row["dummies"] > 21 - dealt * int(n):
            c.fail(f"rules.json: setup.{n}", "more dummies than undealt start tiles")


def validate(raw: Mapping[str, Any]) -> list[str]:
    """Every problem found in the raw data (a dict: file name -> parsed JSON)."""
    c = _Check()
    missing = [name for name in FILES if not isinstance(raw.get(name), dict)]
    if missing:
        return [f"{name}.json: missing or not a JSON object" for name in missing]
    _check_gears(c, raw["gears"])
    _check_temples(c, raw["temples"])
    _check_techs(c, raw["techs"])
    _check_buildings(c, raw["buildings"])
    _check_monuments(c, raw["monuments"], (2, 3, 4))
    gears = {g.get("name"): g for g in raw["gears"].get("gears", []) if isinstance(g, dict)}
    _check_tiles(c, raw["start_tiles"], gears)
    _check_rules(c, raw["rules"])
    return c.errors


def read_raw(directory: Path = DATA_DIR) -> dict[str, Any]:
    """The parsed JSON files (file name without .json -> object)."""
    raw: dict[str, Any] = {}
    for name in FILES:
        path = directory / f"{name}.json"
        try:
            raw[name] = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError as exc:
            raise DataError(f"{path.name}: file missing") from exc
        except json.JSONDecodeError as exc:
            raise DataError(f"{path.name}: not valid JSON: {exc}") from exc
    return raw


# --- typed tables -------------------------------------------------------------------
def _res(cost: Mapping[str, int]) -> tuple[int, int, int]:
    return (cost.get("wood", 0), cost.get("stone", 0), cost.get("gold", 0))


def _temple(t: Mapping[str, Any]) -> TempleSpec:
    rewards, acc = [], [0, 0, 0, 0]
    for step in t["steps"]:
        item = step.get("item")
        if item:
            acc[("wood", "stone", "gold", "skull").index(item)] += 1
        rewards.append((acc[0], acc[1], acc[2], acc[3]))
    return TempleSpec(t["name"], t["title"], t.get("colour", ""), tuple(s["vp"] for s in t["steps"]),
                      len(t["steps"]) - 2, (t["bonus"]["age1"], t["bonus"]["age2"]), tuple(rewards))


def _tile(t: Mapping[str, Any]) -> TileSpec:
    g = t.get("gain", {})
    return TileSpec(t["id"], t["gear"], t["space"], tuple(g.get(k, 0) for k in GOODS),
                    tuple(t.get("temples", {}).get(k, 0) for k in TEMPLES),
                    tuple(t.get("techs", {}).get(k, 0) for k in TRACKS),
                    t.get("workers", 0), t.get("farm_free", 0))


def build(raw: Mapping[str, Any]) -> ComponentData:
    """Typed, immutable tables from validated raw data."""
    g, r = raw["gears"], raw["rules"]
    wood = [False] * 6
    for group in g["jungle"]["groups"]:
        wood[group["space"]] = group["wood"]
    return ComponentData(
        gears=tuple(GearSpec(x["name"], x["title"], x.get("colour", ""), x["holes"], x["spaces"],
                             x["actions"], tuple(x["action_list"])) for x in g["gears"]),
        jungle_wood=tuple(wood),
        jungle_spaces=tuple(group["space"] for group in g["jungle"]["groups"]),
        teeth=g["calendar"]["teeth"],
        food_days=tuple((fd["day"], fd["kind"], fd["age"]) for fd in g["calendar"]["food_days"]),
        temples=tuple(_temple(t) for t in raw["temples"]["temples"]),
        tech_cost=tuple(raw["techs"]["cost"]),
        tracks=tuple(TrackSpec(t["name"], t["title"], tuple(t.get("levels", ())), t["bonus"]["kind"],
                               t["bonus"]["count"], {k: tuple(v) for k, v in t.get("modifiers", {}).items()})
                     for t in raw["techs"]["tracks"]),
        buildings=tuple(BuildingSpec(b["id"], b["age"], b["qty"], _res(b["cost"]), b["category"], b["effects"])
                        for b in raw["buildings"]["buildings"]),
        monuments=tuple(MonumentSpec(m["id"], _res(m["cost"]), m["cost"].get("skull", 0), m["category"],
                                     m["scoring"]) for m in raw["monuments"]["monuments"]),
        tiles=tuple(_tile(t) for t in raw["start_tiles"]["tiles"]),
        tariff=tuple(r["placement_tariff"]),
        market=_res(r["market"]),
        start_workers=r["workers"]["start"], max_workers=r["workers"]["max"],
        skulls=r["skulls"], building_display=r["building_display"],
        tiles_dealt=r["start_tiles"]["dealt"], tiles_kept=r["start_tiles"]["kept"],
        beg_max_corn=r["begging"]["max_corn"], beg_corn_after=r["begging"]["corn_after"],
        corn_per_worker=r["feeding"]["corn_per_worker"], unfed_vp=r["feeding"]["unfed_vp"],
        corn_per_vp=r["final"]["corn_per_vp"], skull_vp=r["final"]["skull_vp"],
        setup={int(n): dict(row) for n, row in r["setup"].items()},
    )


def load(directory: Path = DATA_DIR) -> ComponentData:
    """Read, validate and build the component data; raises DataError listing every problem."""
    raw = read_raw(directory)
    errors = validate(raw)
    if errors:
        raise DataError("invalid Tzolk'in data:\n  " + "\n  ".join(errors))
    return build(raw)


DATA = load()
BUILDING_INDEX = {b.id: i for i, b in enumerate(DATA.buildings)}
MONUMENT_INDEX = {m.id: i for i, m in enumerate(DATA.monuments)}
TILE_INDEX = {t.id: i for i, t in enumerate(DATA.tiles)}

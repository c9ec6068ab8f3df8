"""Tikal Legend component data: JSON files in ``data/``, typed, validated at load.

The files (see ``docs/tikal_data.md``):

* ``board.json``: the site board (hexes in axial coordinates, dotted border hexes, the 4
  pre-printed hexes with their Trail Stones, the F and G tiles pre-placed at setup);
* ``tiles.json``: the 52 terrain tiles (back letter or symbol, type, temple value, gold
  masks, printed Trail Stones on each side);
* ``cards.json``: the 19 kinds of action cards with their counts per player count;
* ``directors.json``: the 4 Museum Director tiles and their 12 powers;
* ``components.json``: treasures, AP tokens, temple floors, rule numbers, setup per count.

:func:`load_components` reads and validates them; a broken file raises :class:`DataError`
listing every problem (file, record and field). The engine reads the board's shape from
the data and assumes nothing about it.

>>> comps = default_components()
>>> len(comps.tiles), len(comps.board.hexes), len(comps.cards_for(3))
(52, 63, 60)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core.errors import MayaGamesError

DATA_DIR = Path(__file__).with_name("data")
FILES = ("board.json", "tiles.json", "cards.json", "directors.json", "components.json")

# Sides of a pointy-top hex, clockwise from north-east (axial offsets (dq, dr)).
SIDES = ("ne", "e", "se", "sw", "w", "nw")
SIDE_OFFSETS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))

TILE_TYPES = ("temple", "clearing", "ruins", "lake", "volcano")
PREPRINTED_TYPES = ("base_camp", "temple", "clearing")
LETTERS = ("A", "B", "C", "D", "E", "F", "G")
DRAWN_LETTERS = ("A", "B", "C", "D", "E")  # drawn during play, in this order (rule 11)
FIXED_LETTERS = ("F", "G")  # laid on the site board at setup (rule 2.5)
EFFECTS = ("treasure_pair", "explorers_to_ruin", "unearth", "explorers_to_temples", "clear_floors",
           "base_camp", "recruit", "moves", "trail_stone", "bonus_ap", "symbol_tile",
           "recruit_explorers")
POWER_EFFECTS = ("score_volcanoes", "tracker", "hunter", "scout", "builder", "journalist",
                 "score_jungles", "nomad", "merchant", "fisher", "driver", "collector")


class DataError(MayaGamesError, ValueError):
    """Component data that is malformed or breaks a rule of the game; lists every problem."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("invalid Tikal data:\n  - " + "\n  - ".join(problems))


@dataclass(frozen=True)
class HexDef:
    index: int
    name: str
    q: int
    r: int
    dotted: bool


@dataclass(frozen=True)
class TileDef:
    """A terrain tile: ``stones[i]`` is the number of Trail Stones printed on side ``SIDES[i]``."""

    index: int
    id: str
    back: str  # "A".."G", "symbol" or "unused"
    type: str
    value: int  # temple printed level (0 otherwise)
    masks: int  # gold masks of a Ruin (0 otherwise)
    stones: tuple[int, ...]

    def rotated(self, turns: int) -> tuple[int, ...]:
        """Stones per board side after turning the tile ``turns`` sides clockwise."""
        return tuple(self.stones[(side - turns) % 6] for side in range(6))


@dataclass(frozen=True)
class Preprinted:
    hex: int
    type: str
    value: int
    stones: tuple[int, ...]


@dataclass(frozen=True)
class FixedTile:
    tile: int  # tile index
    hex: int
    rotation: int


@dataclass(frozen=True)
class Board:
    """Geometry: neighbours and edges precomputed as flat tables indexed ``hex * 6 + side``."""

    hexes: tuple[HexDef, ...]
    by_name: dict[str, int]
    neighbour: tuple[int, ...]  # hex*6+side -> neighbouring hex, or -1 off the board
    edge: tuple[int, ...]  # hex*6+side -> edge index, or -1 off the board
    edge_ends: tuple[tuple[int, int, int, int], ...]  # edge -> (hex a, side at a, hex b, side at b)
    preprinted: tuple[Preprinted, ...]
    fixed_tiles: tuple[FixedTile, ...]

    @property
    def size(self) -> int:
        return len(self.hexes)

    def name(self, index: int) -> str:
        return self.hexes[index].name


@dataclass(frozen=True)
class CardDef:
    """One physical action card. ``name`` identifies interchangeable copies (``dig-2``)."""

    id: int
    kind: int
    name: str
    effect: str
    params: dict[str, Any]
    permanent: bool
    removed_on_reshuffle: bool
    in_2p: bool  # part of the 2-player deck
    text: str


@dataclass(frozen=True)
class PowerDef:
    name: str
    effect: str
    params: dict[str, Any]
    text: str


@dataclass(frozen=True)
class DirectorDef:
    id: int
    name: str
    powers: tuple[str, ...]


@dataclass(frozen=True)
class Components:
    board: Board
    tiles: tuple[TileDef, ...]
    tile_index: dict[str, int]
    cards: tuple[CardDef, ...]
    card_names: tuple[str, ...]  # distinct names in data order
    directors: tuple[DirectorDef, ...]
    powers: dict[str, PowerDef]
    unused_director_bonus: int
    treasure_types: tuple[str, ...]
    green_per_type: int
    blue_per_type: int
    set_values: tuple[int, ...]
    ap_tokens: tuple[int, ...]  # every token's value
    floors: tuple[int, ...]  # supply count per level, index = level (0..max)
    max_level: int
    tallest_bonus: dict[int, int]
    volcano_pp: int
    leader_strength: int
    explorer_strength: int
    per_player: dict[str, int]
    trail_stone_tokens: int
    volcanoes_3d: int
    display_cards: int
    kept_card_spaces: int
    ap_costs: dict[str, int]
    limits: dict[str, int]
    special_turn_ap: int
    setup: dict[int, dict[str, Any]]
    starting_prestige: tuple[int, ...]
    raw: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)

    def cards_for(self, num_players: int) -> list[int]:
        """Card ids of the deck for a player count (the 2-player deck drops the '3+' copies)."""
        if self.setup[num_players]["deck"] == "2p":
            return [c.id for c in self.cards if c.in_2p]
        return [c.id for c in self.cards]

    def tiles_with_back(self, back: str) -> list[int]:
        return [t.index for t in self.tiles if t.back == back]


# --- validation --------------------------------------------------------------------------


class _Problems:
    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, where: str, message: str) -> None:
        self.items.append(f"{where}: {message}")


def _is_int(value: Any, lo: int | None = None, hi: int | None = None) -> bool:
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return (lo is None or value >= lo) and (hi is None or value <= hi)


def _check_stones(p: _Problems, where: str, stones: Any) -> None:
    if not isinstance(stones, list) or len(stones) != 6 or not all(_is_int(s, 0, 3) for s in stones):
        p.add(where, f"stones must be a list of 6 integers 0..3 (one per side {'/'.join(SIDES)}), got {stones!r}")


def _validate_board(p: _Problems, board: Any, tiles_by_id: dict[str, dict]) -> None:
    where = "board.json"
    if not isinstance(board, dict) or not isinstance(board.get("hexes"), list) or not board["hexes"]:
        p.add(where, "needs a non-empty list 'hexes'")
        return
    names: set[str] = set()
    coords: set[tuple[int, int]] = set()
    for i, h in enumerate(board["hexes"]):
        at = f"{where} hexes[{i}]"
        if not isinstance(h, dict):
            p.add(at, "must be an object")
            continue
        name = h.get("name")
        if not isinstance(name, str) or not name or name != name.lower() or " " in name:
            p.add(at, f"name must be a lowercase word, got {name!r}")
        elif name in names:
            p.add(at, f"duplicate hex name {name!r}")
        names.add(str(name))
        if not (_is_int(h.get("q")) and _is_int(h.get("r"))):
            p.add(at, "q and r must be integers (axial coordinates)")
        elif (h["q"], h["r"]) in coords:
            p.add(at, f"duplicate coordinates ({h['q']}, {h['r']})")
        else:
            coords.add((h["q"], h["r"]))
        if not isinstance(h.get("dotted", False), bool):
            p.add(at, "dotted must be true or false")
    dotted = {h.get("name") for h in board["hexes"] if isinstance(h, dict) and h.get("dotted")}
    if len(dotted) < 11:
        p.add(where, f"needs at least 11 dotted border hexes for the 11 symbol tiles, has {len(dotted)}")
    used: dict[str, str] = {}
    pre = board.get("preprinted", [])
    kinds = [x.get("type") for x in pre if isinstance(x, dict)]
    if sorted(kinds) != ["base_camp", "clearing", "temple", "temple"]:
        p.add(where, f"preprinted must be the Common Base Camp, 2 Temples and 1 Clearing, got {kinds}")
    for i, x in enumerate(pre):
        at = f"{where} preprinted[{i}]"
        if not isinstance(x, dict):
            p.add(at, "must be an object")
            continue
        if x.get("hex") not in names:
            p.add(at, f"unknown hex {x.get('hex')!r}")
        elif x["hex"] in dotted:
            p.add(at, f"hex {x['hex']} is dotted; pre-printed hexes are inside the board")
        elif x["hex"] in used:
            p.add(at, f"hex {x['hex']} already holds {used[x['hex']]}")
        else:
            used[x["hex"]] = f"pre-printed {x.get('type')}"
        if x.get("type") not in PREPRINTED_TYPES:
            p.add(at, f"type must be one of {PREPRINTED_TYPES}")
        if x.get("type") == "temple" and not _is_int(x.get("value"), 1, 6):
            p.add(at, "a pre-printed temple needs a value 1..6")
        _check_stones(p, at, x.get("stones"))
    fixed = board.get("fixed_tiles", [])
    fixed_ids = []
    for i, x in enumerate(fixed):
        at = f"{where} fixed_tiles[{i}]"
        if not isinstance(x, dict):
            p.add(at, "must be an object")
            continue
        tile = tiles_by_id.get(x.get("tile"))
        fixed_ids.append(x.get("tile"))
        if tile is None:
            p.add(at, f"unknown tile {x.get('tile')!r}")
        elif tile.get("back") not in FIXED_LETTERS:
            p.add(at, f"tile {x['tile']} has back {tile.get('back')!r}; only F and G tiles are pre-placed")
        if x.get("hex") not in names:
            p.add(at, f"unknown hex {x.get('hex')!r}")
        elif x["hex"] in dotted:
            p.add(at, f"hex {x['hex']} is dotted")
        elif x["hex"] in used:
            p.add(at, f"hex {x['hex']} already holds {used[x['hex']]}")
        else:
            used[x["hex"]] = f"tile {x.get('tile')}"
        if not _is_int(x.get("rotation", 0), 0, 5):
            p.add(at, "rotation must be 0..5")
    expected = sorted(t for t, d in tiles_by_id.items() if d.get("back") in FIXED_LETTERS)
    if sorted(str(t) for t in fixed_ids) != expected:
        p.add(where, f"fixed_tiles must place every F and G tile exactly once ({expected}), got {fixed_ids}")
    free = len(names) - len(dotted) - len(used)
    drawn = sum(1 for d in tiles_by_id.values() if d.get("back") in DRAWN_LETTERS)
    if free < drawn:
        p.add(where, f"only {free} free non-dotted hexes for the {drawn} tiles drawn during play")


def _validate_tiles(p: _Problems, doc: Any) -> dict[str, dict]:
    where = "tiles.json"
    if not isinstance(doc, dict) or not isinstance(doc.get("tiles"), list):
        p.add(where, "needs a list 'tiles'")
        return {}
    by_id: dict[str, dict] = {}
    for i, t in enumerate(doc["tiles"]):
        at = f"{where} tiles[{i}]"
        if not isinstance(t, dict):
            p.add(at, "must be an object")
            continue
        tid = t.get("id")
        at = f"{where} tile {tid!r}"
        if not isinstance(tid, str) or not tid or tid != tid.upper() or " " in tid:
            p.add(at, "id must be an uppercase word")
            continue
        if tid in by_id:
            p.add(at, "duplicate id")
        by_id[tid] = t
        if t.get("back") not in LETTERS + ("symbol", "unused"):
            p.add(at, f"back must be one of {LETTERS + ('symbol', 'unused')}, got {t.get('back')!r}")
        if t.get("type") not in TILE_TYPES:
            p.add(at, f"type must be one of {TILE_TYPES}, got {t.get('type')!r}")
        if t.get("type") == "temple" and not _is_int(t.get("value"), 1, 6):
            p.add(at, f"a temple's value must be 1..6, got {t.get('value')!r}")
        if t.get("type") == "ruins" and not _is_int(t.get("masks"), 2, 4):
            p.add(at, f"a ruin shows 2..4 gold masks, got {t.get('masks')!r}")
        _check_stones(p, at, t.get("stones"))
        if isinstance(t.get("stones"), list) and all(_is_int(s) for s in t["stones"]) and sum(t["stones"]) == 0:
            p.add(at, "a tile with no Trail Stone at all could never be entered")
    tiles = list(by_id.values())
    if len(tiles) != 52:
        p.add(where, f"the game has 52 terrain tiles, found {len(tiles)}")
    symbols = sorted(t.get("type") for t in tiles if t.get("back") == "symbol")
    if symbols != sorted(["lake"] * 5 + ["volcano"] * 2 + ["temple"] * 4):
        p.add(where, f"the 11 symbol tiles are 5 Lakes, 2 Volcanoes, 4 Temples; found {symbols}")
    lettered = [t for t in tiles if t.get("back") in LETTERS]
    if len(lettered) != 36:
        p.add(where, f"36 tiles have a letter A-G on the back, found {len(lettered)}")
    for letter in ("B", "D"):
        if not any(t.get("back") == letter and t.get("type") == "volcano" for t in tiles):
            p.add(where, f"one Volcano is among the {letter} tiles (rule 1)")
    for letter in ("A", "C", "E"):
        if any(t.get("back") == letter and t.get("type") == "volcano" for t in tiles):
            p.add(where, f"no Volcano among the {letter} tiles (only B and D hold one)")
    if sum(1 for t in tiles if t.get("back") == "A") < 4:
        p.add(where, "at least 4 'A' tiles are drawn at setup")
    return by_id


def _validate_cards(p: _Problems, doc: Any, tiles_by_id: dict[str, dict], treasures: list[str]) -> None:
    where = "cards.json"
    if not isinstance(doc, dict) or not isinstance(doc.get("kinds"), list):
        p.add(where, "needs a list 'kinds'")
        return
    total_2p = total_3p = 0
    seen_kinds: set[int] = set()
    seen_tiles: list[str] = []
    for i, k in enumerate(doc["kinds"]):
        at = f"{where} kinds[{i}]"
        if not isinstance(k, dict):
            p.add(at, "must be an object")
            continue
        at = f"{where} kind {k.get('kind')!r} ({k.get('name')!r})"
        if not _is_int(k.get("kind"), 1) or k["kind"] in seen_kinds:
            p.add(at, "kind must be a new positive integer")
        seen_kinds.add(k.get("kind"))
        if not isinstance(k.get("name"), str) or k["name"] != k["name"].lower() or " " in k["name"]:
            p.add(at, "name must be a lowercase word")
        if k.get("effect") not in EFFECTS:
            p.add(at, f"unknown effect {k.get('effect')!r}; known: {EFFECTS}")
        c2, c3 = k.get("count_2p"), k.get("count_3p")
        if not (_is_int(c2, 0) and _is_int(c3, 1)) or c2 > c3:
            p.add(at, f"count_2p and count_3p must be integers with 0 <= count_2p <= count_3p, got {c2!r}, {c3!r}")
            continue
        variants = k.get("variants") or [{}]
        for v in variants:
            if "tile" in v:
                tile = tiles_by_id.get(v["tile"])
                seen_tiles.append(v["tile"])
                if tile is None or tile.get("back") != "symbol":
                    p.add(at, f"variant tile {v['tile']!r} must be a symbol tile")
            if "treasure" in v and v["treasure"] not in treasures:
                p.add(at, f"variant treasure {v['treasure']!r} is not a treasure type")
        if k.get("effect") == "symbol_tile" and any("tile" not in v for v in variants):
            p.add(at, "every symbol_tile card shows a tile (variants with 'tile')")
        if k.get("effect") == "treasure_pair" and any("treasure" not in v for v in variants):
            p.add(at, "every treasure_pair card shows a treasure (variants with 'treasure')")
        total_2p += c2 * len(variants)
        total_3p += c3 * len(variants)
    if total_3p != 60:
        p.add(where, f"the game has 60 action cards (3+ players), counts give {total_3p}")
    if sorted(seen_tiles) != sorted(t for t, d in tiles_by_id.items() if d.get("back") == "symbol"):
        p.add(where, "each of the 11 symbol tiles is shown by exactly one card")
    if total_2p < 10:
        p.add(where, f"the 2-player deck needs at least 10 cards, counts give {total_2p}")


def _validate_directors(p: _Problems, doc: Any) -> None:
    where = "directors.json"
    if not isinstance(doc, dict) or not isinstance(doc.get("tiles"), list) or not isinstance(doc.get("powers"), dict):
        p.add(where, "needs 'tiles' (a list) and 'powers' (an object)")
        return
    if len(doc["tiles"]) != 4:
        p.add(where, f"there are 4 director tiles, found {len(doc['tiles'])}")
    named: list[str] = []
    for i, t in enumerate(doc["tiles"]):
        powers = t.get("powers") if isinstance(t, dict) else None
        if not isinstance(powers, list) or len(powers) != 3:
            p.add(f"{where} tiles[{i}]", "each tile has 3 powers")
            continue
        named += powers
        for name in powers:
            if name not in doc["powers"]:
                p.add(f"{where} tiles[{i}]", f"unknown power {name!r}")
    if len(set(named)) != len(named):
        p.add(where, "a power appears on two tiles")
    for name, power in doc["powers"].items():
        if not isinstance(power, dict) or power.get("effect") not in POWER_EFFECTS:
            p.add(f"{where} power {name!r}", f"effect must be one of {POWER_EFFECTS}")
    if not _is_int(doc.get("unused_bonus"), 0):
        p.add(where, "unused_bonus must be a non-negative integer")


def _validate_components(p: _Problems, doc: Any) -> None:
    where = "components.json"
    if not isinstance(doc, dict):
        p.add(where, "must be an object")
        return
    tr = doc.get("treasures", {})
    types = tr.get("types") if isinstance(tr, dict) else None
    if not isinstance(types, list) or len(types) != 8 or len(set(types)) != 8:
        p.add(where, "treasures.types must list 8 distinct types")
    if isinstance(tr, dict) and tr.get("green_per_type", 0) + tr.get("blue_per_type", 0) != 5:
        p.add(where, "each treasure type has 5 tokens (green + blue backs)")
    if isinstance(tr, dict) and (not isinstance(tr.get("set_values"), list) or len(tr["set_values"]) != 6):
        p.add(where, "treasures.set_values needs the values of sets of 0..5 tokens")
    ap = doc.get("ap_tokens", {})
    if not isinstance(ap, dict) or sum(ap.values()) != 24:
        p.add(where, "ap_tokens must count 24 tokens")
    floors = doc.get("temple_floors", {})
    if not isinstance(floors, dict) or sum(floors.values()) != 48:
        p.add(where, "temple_floors must count 48 unbuilt floors")
    elif any(not _is_int(int(k), 2, doc.get("max_temple_level", 10)) for k in floors):
        p.add(where, "temple floor levels run from 2 to max_temple_level")
    setup = doc.get("setup", {})
    for n in ("1", "2", "3", "4"):
        s = setup.get(n) if isinstance(setup, dict) else None
        if not isinstance(s, dict):
            p.add(where, f"setup needs player count {n}")
            continue
        for key in ("rounds", "ap_removed", "ap_drawn", "tiles_drawn", "tiles_each", "cards_each"):
            if not _is_int(s.get(key), 0):
                p.add(f"{where} setup[{n}]", f"{key} must be a non-negative integer")
        if s.get("deck") not in ("2p", "3p"):
            p.add(f"{where} setup[{n}]", "deck must be '2p' or '3p'")
        if _is_int(s.get("ap_removed"), 0) and _is_int(s.get("ap_drawn"), 0) and _is_int(s.get("rounds"), 1):
            if s["ap_removed"] + s["ap_drawn"] * s["rounds"] > 24:
                p.add(f"{where} setup[{n}]", "the AP bag runs out before the last round")
    for key in ("kept_card_spaces", "display_cards", "trail_stone_tokens", "volcanoes_3d", "special_turn_ap"):
        if not _is_int(doc.get(key), 1):
            p.add(where, f"{key} must be a positive integer")
    for key in ("deploy", "move_per_stone", "base_camp", "transfer", "trail_stone", "recruit_explorer",
                "recruit_leader", "clear_floor", "guardian", "unearth", "trade"):
        if not _is_int(doc.get("ap_costs", {}).get(key), 1):
            p.add(where, f"ap_costs.{key} must be a positive integer")


def validate(raw: dict[str, Any]) -> list[str]:
    """Every problem found in the raw JSON documents (keyed by file name); empty if valid."""
    p = _Problems()
    missing = [f for f in FILES if f not in raw]
    if missing:
        return [f"missing data file(s): {missing}"]
    tiles_by_id = _validate_tiles(p, raw["tiles.json"])
    _validate_components(p, raw["components.json"])
    types = raw["components.json"].get("treasures", {}).get("types", []) if isinstance(
        raw["components.json"], dict) else []
    _validate_board(p, raw["board.json"], tiles_by_id)
    _validate_cards(p, raw["cards.json"], tiles_by_id, list(types or []))
    _validate_directors(p, raw["directors.json"])
    if not p.items:
        _validate_geometry(p, raw["board.json"])
    return p.items


def _validate_geometry(p: _Problems, board: dict) -> None:
    """The board is one connected piece and the base camp is not sealed in."""
    coords = {(h["q"], h["r"]) for h in board["hexes"]}
    start = next(iter(coords))
    seen, todo = {start}, [start]
    while todo:
        q, r = todo.pop()
        for dq, dr in SIDE_OFFSETS:
            nb = (q + dq, r + dr)
            if nb in coords and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    if len(seen) != len(coords):
        p.add("board.json", "the hexes do not form one connected board")
    camp = next(x for x in board["preprinted"] if x["type"] == "base_camp")
    if sum(camp["stones"]) == 0:
        p.add("board.json", "the Common Base Camp needs Trail Stones to leave it")


# --- loading -------------------------------------------------------------------------------


def read_raw(directory: Path | str | None = None) -> dict[str, Any]:
    """The raw JSON documents of a data directory; unreadable files raise DataError."""
    base = Path(directory) if directory is not None else DATA_DIR
    raw: dict[str, Any] = {}
    problems = []
    for name in FILES:
        path = base / name
        try:
            raw[name] = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            problems.append(f"{name}: file not found in {base}")
        except json.JSONDecodeError as exc:
            problems.append(f"{name}: not valid JSON ({exc})")
    if problems:
        raise DataError(problems)
    return raw


def build(raw: dict[str, Any]) -> Components:
    """Typed components from validated raw documents (raises DataError if invalid)."""
    problems = validate(raw)
    if problems:
        raise DataError(problems)
    tiles_doc, board_doc = raw["tiles.json"]["tiles"], raw["board.json"]
    tiles = tuple(
        TileDef(i, t["id"], t["back"], t["type"], int(t.get("value", 0)), int(t.get("masks", 0)),
                tuple(t["stones"]))
        for i, t in enumerate(tiles_doc))
    tile_index = {t.id: t.index for t in tiles}
    board = _build_board(board_doc, tile_index)
    comp = raw["components.json"]
    cards = _build_cards(raw["cards.json"])
    names: list[str] = []
    for c in cards:
        if c.name not in names:
            names.append(c.name)
    d = raw["directors.json"]
    powers = {n: PowerDef(n, v["effect"], dict(v.get("params", {})), v.get("text", "")) for n, v in d["powers"].items()}
    directors = tuple(DirectorDef(int(t["id"]), t["name"], tuple(t["powers"])) for t in d["tiles"])
    max_level = int(comp["max_temple_level"])
    floors = [0] * (max_level + 1)
    for level, count in comp["temple_floors"].items():
        floors[int(level)] = int(count)
    tr = comp["treasures"]
    return Components(
        board=board, tiles=tiles, tile_index=tile_index, cards=cards, card_names=tuple(names),
        directors=directors, powers=powers, unused_director_bonus=int(d["unused_bonus"]),
        treasure_types=tuple(tr["types"]), green_per_type=int(tr["green_per_type"]),
        blue_per_type=int(tr["blue_per_type"]), set_values=tuple(tr["set_values"]),
        ap_tokens=tuple(sorted(int(v) for v, n in comp["ap_tokens"].items() for _ in range(n))),
        floors=tuple(floors), max_level=max_level,
        tallest_bonus={int(k): int(v) for k, v in comp["tallest_temple_bonus"].items()},
        volcano_pp=int(comp["volcano_pp"]), leader_strength=int(comp["strength"]["leader"]),
        explorer_strength=int(comp["strength"]["explorer"]), per_player=dict(comp["per_player"]),
        trail_stone_tokens=int(comp["trail_stone_tokens"]), volcanoes_3d=int(comp["volcanoes_3d"]),
        display_cards=int(comp["display_cards"]), kept_card_spaces=int(comp["kept_card_spaces"]),
        ap_costs=dict(comp["ap_costs"]), limits=dict(comp["per_turn_limits"]),
        special_turn_ap=int(comp["special_turn_ap"]),
        setup={int(k): dict(v) for k, v in comp["setup"].items()},
        starting_prestige=tuple(comp["starting_prestige"]), raw=raw)


def _build_board(doc: dict, tile_index: dict[str, int]) -> Board:
    hexes = tuple(HexDef(i, h["name"], int(h["q"]), int(h["r"]), bool(h.get("dotted", False)))
                  for i, h in enumerate(doc["hexes"]))
    by_name = {h.name: h.index for h in hexes}
    at = {(h.q, h.r): h.index for h in hexes}
    neighbour = [-1] * (6 * len(hexes))
    edge = [-1] * (6 * len(hexes))
    ends: list[tuple[int, int, int, int]] = []
    for h in hexes:
        for side, (dq, dr) in enumerate(SIDE_OFFSETS):
            nb = at.get((h.q + dq, h.r + dr), -1)
            neighbour[h.index * 6 + side] = nb
            if nb >= 0 and edge[h.index * 6 + side] < 0:
                e = len(ends)
                ends.append((h.index, side, nb, (side + 3) % 6))
                edge[h.index * 6 + side] = e
                edge[nb * 6 + (side + 3) % 6] = e
    pre = tuple(Preprinted(by_name[x["hex"]], x["type"], int(x.get("value", 0)), tuple(x["stones"]))
                for x in doc["preprinted"])
    fixed = tuple(FixedTile(tile_index[x["tile"]], by_name[x["hex"]], int(x.get("rotation", 0)))
                  for x in doc.get("fixed_tiles", []))
    return Board(hexes, by_name, tuple(neighbour), tuple(edge), tuple(ends), pre, fixed)


def _build_cards(doc: dict) -> tuple[CardDef, ...]:
    cards: list[CardDef] = []
    for k in doc["kinds"]:
        for v in k.get("variants") or [{}]:
            name = f"{k['name']}-{v['suffix']}" if "suffix" in v else k["name"]
            params = dict(k.get("params", {}))
            params.update({key: val for key, val in v.items() if key != "suffix"})
            for copy in range(int(k["count_3p"])):
                cards.append(CardDef(len(cards), int(k["kind"]), name, k["effect"], params,
                                     bool(k.get("permanent", False)),
                                     bool(k.get("removed_on_reshuffle", False)),
                                     copy < int(k["count_2p"]), k.get("text", "")))
    return tuple(cards)


def load_components(directory: Path | str | None = None) -> Components:
    """Read, validate and type the data files of ``directory`` (default: the package's)."""
    return build(read_raw(directory))


@lru_cache(maxsize=1)
def default_components() -> Components:
    """The package's component data, loaded and validated once."""
    return load_components()

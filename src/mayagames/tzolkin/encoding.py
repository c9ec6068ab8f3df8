"""Encoding of Tzolk'in: The Mayan Calendar.

Actions: one table of every action value (:class:`TzolkinCodec`, 601 integers at
every player count), built from the component data: the draft pairs, turn
actions per gear and space, action parameters, and the 27 building types with
each ``waive``/``noarch`` variant. See ``docs/rl.md`` for the index blocks.

Observation: the seat's view as fixed fields (:meth:`TzolkinObserver.build_layout`),
every value scaled into [0, 1] (VP into [-1, 1]), seats numbered from the viewer.
Hidden items of a view (other seats' dealt tiles before the reveal, building
stacks and boxes) are never read: only the counts a player can see.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from ..core.game import Action, State
from . import actions as A
from .components import DATA, GEARS, RESOURCES, TEMPLES, TRACKS
from .model import (CORN, CTILES, DUMMY, EMPTY, FARM_DISC, FARM_FREE, FOOD_DAYS, FRAME_NAMES,
                               GOLD, HIDDEN, HOLES, INSTANCE_TYPE, INSTANCES_OF_AGE, K_BUILD, K_CHOOSE,
                               K_HARVEST, K_MARKET, K_MIRROR, K_PAY, K_PLACING, K_TECH, K_TURN, K_GAIN,
                               LIGHT, ON_GEARS, PHASES, READY, SKULL, SPACES, STONE, TECH, TEMPLE,
                               TEMPLE_TOP, VP, WOOD, WORKERS, WTILES)
from .state import TzolkinState
from ..rl.encoding import EntryCache, Field, GameEncoding, Layout, ObservationEncoder, TableCodec, register_encoding, scaled

N_BUILDINGS = len(DATA.buildings)
N_MONUMENTS = len(DATA.monuments)
N_TILES = len(DATA.tiles)
MAX_QTY = max(b.qty for b in DATA.buildings)
LAST_DAY = FOOD_DAYS[-1]
MAX_WORKERS = DATA.max_workers
SKULL_SLOTS = range(1, 10)  # Chichen Itza spaces 1..9 hold skulls
AGE_STACK = tuple(len(ages) for ages in INSTANCES_OF_AGE)
GOODS_TOP = (30, 10, 10, 10, DATA.skulls)  # corn, wood, stone, gold, skulls (values clip at 1)
VP_TOP = 150
SCORE_SCALE = 50.0  # a wide winning margin; rewards.score_margin divides by it


class TzolkinCodec(TableCodec):
    """Every Tzolk'in action value, in a fixed order (see ``docs/rl.md``)."""

    def enumerate_actions(self) -> list[Action]:
        tiles = sorted(t.id for t in DATA.tiles)
        table: list[Action] = [A.Keep(a, b) for a, b in combinations(tiles, 2)]
        table += [*A.BEG, *A.PLACE, A.PLACE_START]
        table += [pick for gear in A.PICK for pick in gear]
        table += [do for gear in A.DO for do in gear]
        table += [A.NOTHING, *A.HARVEST, *A.ANGER, *A.TEMPLE, *A.TWO_TEMPLES.values(), *A.TECH, *A.PAY]
        table += [A.Build(b.id, waive, arch) for b in DATA.buildings
                  for waive in ("", *RESOURCES) for arch in (True, False)]
        table += [A.BuildMonument(m.id) for m in DATA.monuments]
        table += [*A.TAKE, *A.BUY, *A.SELL, *(offer for row in A.OFFER for offer in row)]
        table += [A.STOP, *A.ADVANCE, A.END]
        return table


class TzolkinObserver(ObservationEncoder):
    def build_layout(self) -> Layout:
        n = self.num_players
        holes = sum(HOLES)
        return Layout([
            # --- the pending decision
            Field("phase", len(PHASES), "one-hot: draft, play, speed (calendar choice), over"),
            Field("decision", len(FRAME_NAMES), "one-hot: kind of the pending decision (top frame: "
                  + ", ".join(FRAME_NAMES) + "); zero when over"),
            Field("pending", len(FRAME_NAMES), "multi-hot: kinds of every open decision frame"),
            Field("decision_gear", len(GEARS), "one-hot: gear of the worker's action being chosen"),
            Field("decision_space", 11, "one-hot: its space (choose action), or the Palenque "
                                        "space being harvested"),
            Field("decision_args", 12, "turn: begged; placing: workers placed / 6, rare special "
                  "case; technology: paid, advances left / 3, optional; pay: blocks / 4; build: "
                  "built / 3, architecture used, most / 3, monument allowed, optional"),
            Field("build_mode", 3, "one-hot: build frame mode (Tikal, Uxmal 4, extra building)"),
            Field("market_locks", 6, "market frame: bought wood/stone/gold, sold wood/stone/gold"),
            Field("gain_and_mirror", 2, "take-blocks left / 3; mirror optional"),
            # --- calendar and turn order
            Field("day", 1, f"calendar day / {LAST_DAY}"),
            Field("age", 1, "0 in age 1, 1 in age 2"),
            Field("food_days_done", 1, "Food Days done / 4"),
            Field("days_to_food_day", 1, "days to the next Food Day / 13 (0 after the last)"),
            Field("turn_index", 1, "turns taken this round / players"),
            Field("starting_player", n, "one-hot: the starting player, seats from the viewer"),
            Field("start_space", n, "one-hot: the seat on the Starting Player Space"),
            Field("start_space_corn", 1, "corn waiting on the Starting Player Space / 10"),
            # --- the board
            Field("gears", holes * (n + 1), "per gear (palenque, yaxchilan, tikal, uxmal, chichen), "
                  f"per hole ({'/'.join(map(str, HOLES))} holes: spaces then dead arc): "
                  f"{n} seats from the viewer then dummy, one-hot; all zero when empty"),
            Field("skull_slots", len(SKULL_SLOTS) * n, "per Chichen Itza slot 1..9: one-hot seat "
                                                       "(from the viewer) whose skull fills it"),
            Field("skulls_supply", 1, f"crystal skulls in the supply / {DATA.skulls}"),
            Field("jungle_corn", len(DATA.jungle_spaces), "corn tiles on Palenque spaces 2..5 / 4"),
            Field("jungle_wood", len(DATA.jungle_spaces), "wood tiles on Palenque spaces 2..5 / 4"),
            Field("burned", 1, "wood tiles burned / 16"),
            Field("building_row", N_BUILDINGS, f"copies of each building type on the row / {MAX_QTY}"),
            Field("building_stacks", 2, "buildings left in the age 1 and age 2 stacks / stack size"),
            Field("monument_row", N_MONUMENTS, "1 for each monument on offer"),
            # --- per seat, from the viewer
            Field("goods", 5 * n, "per seat: corn / 30, wood, stone, gold / 10, skulls / 13 (clip at 1)"),
            Field("vp", n, f"per seat: victory points / {VP_TOP}, in [-1, 1]", low=-1.0),
            Field("workers", 3 * n, f"per seat: workers in play, ready, on gears / {MAX_WORKERS}"),
            Field("techs", 4 * n, "per seat: agriculture, extraction, architecture, theology level / 3"),
            Field("temples", 3 * n, "per seat: step on Chaac, Quetzalcoatl, Kukulcan "
                                    "(bottom -1 -> 0, top -> 1)"),
            Field("board_light", n, "per seat: 1 while the player board is lighter side up"),
            Field("harvest_tiles", 2 * n, "per seat: corn, wood harvest tiles taken / 16"),
            Field("farms", 2 * n, "per seat: workers fed free / 6, corn discount per worker / 3"),
            Field("built", N_BUILDINGS * n, f"per seat: copies of each building type built / {MAX_QTY}"),
            Field("monuments_built", N_MONUMENTS * n, "per seat: 1 for each monument built"),
            Field("last_unfed", n, "per seat: workers unfed at the last Food Day / 6"),
            # --- starting wealth tiles
            Field("own_dealt", N_TILES, "1 for each start tile dealt to the viewer"),
            Field("kept", N_TILES * n, "per seat: 1 for each kept start tile it shows (the viewer's "
                                       "own at once, others' after the reveal)"),
            Field("draft_chosen", n, "per seat: 1 once it has chosen its tiles"),
            Field("dummy_tiles", N_TILES, "1 for each tile revealed to place the dummies"),
        ])

    def fill(self, view: State, obs: np.ndarray) -> None:
        """Every field of ``view`` in one pass: non-zero entries are collected as (offset,
        value) lists and written with one ``obs.put`` (the observation starts at zero);
        each seat's fields and the building rows are recomputed only when what they read
        changed (:class:`EntryCache`)."""
        assert isinstance(view, TzolkinState)
        n = self.num_players
        seats = [(view.viewer + k) % n for k in range(n)]
        if not hasattr(self, "_off"):
            self._off = {f.name: self.layout.slice(f.name).start for f in self.layout.fields}
            self._entries = EntryCache()
        cache = self._entries
        at: list[int] = []
        val: list[float] = []
        self._decision(view, at, val)
        self._calendar(view, at, val, seats)
        self._board(view, at, val, seats)
        cache.extend("rows", (tuple(view.display), tuple(map(len, view.stacks)), tuple(view.monument_row)),
                     lambda a, v: self._rows(view, a, v), at, val)
        unfed = list(view.last_unfed) or [0] * n
        for k, seat in enumerate(seats):
            cache.extend(("seat", k, seat), (tuple(view.p[seat]), tuple(view.built[seat]),
                                             tuple(view.monuments[seat]), unfed[seat]),
                         lambda a, v: self._seat(view, a, v, k, seat, unfed[seat]), at, val)
        cache.extend(("tiles", view.viewer), (tuple(view.dealt[view.viewer]), tuple(map(tuple, view.kept)),
                                              tuple(view.dummy_tiles)),
                     lambda a, v: self._tiles(view, a, v, seats), at, val)
        obs.put(at, val)

    # --- field groups ------------------------------------------------------------------
    def _decision(self, s: TzolkinState, at: list[int], val: list[float]) -> None:
        off = self._off
        at.append(off["phase"] + s.phase)
        val.append(1.0)
        if not s.stack or s.current_player is None:
            return
        top = s.stack[-1]
        at.append(off["decision"] + top.code)
        val.append(1.0)
        for frame in s.stack:
            at.append(off["pending"] + frame.code)
            val.append(1.0)
        args = [0.0] * 12
        kind = top.code
        if kind == K_CHOOSE:
            at += (off["decision_gear"] + top.gear, off["decision_space"] + top.space)
            val += (1.0, 1.0)
        elif kind == K_HARVEST:
            at.append(off["decision_space"] + top.space)
            val.append(1.0)
        elif kind == K_TURN:
            args[0] = top.begged
        elif kind == K_PLACING:
            args[1], args[2] = scaled(top.placed, MAX_WORKERS), top.special_case
        elif kind == K_TECH:
            args[3], args[4], args[5] = top.paid, scaled(top.remaining, 3), top.optional
        elif kind == K_PAY:
            args[6] = scaled(top.blocks, 4)
        elif kind == K_BUILD:
            at.append(off["build_mode"] + top.mode)
            val.append(1.0)
            args[7], args[8], args[9] = scaled(top.built, 3), top.architecture_used, scaled(top.most, 3)
            args[10], args[11] = top.monument, top.optional
        elif kind == K_MARKET:
            o = off["market_locks"]
            for bit in range(6):
                if top.locks & (1 << bit):
                    at.append(o + bit)
                    val.append(1.0)
        elif kind == K_GAIN:
            at.append(off["gain_and_mirror"])
            val.append(scaled(top.blocks, 3))
        elif kind == K_MIRROR:
            at.append(off["gain_and_mirror"] + 1)
            val.append(float(top.optional))
        o = off["decision_args"]
        at += range(o, o + 12)
        val += [float(x) for x in args]

    def _calendar(self, s: TzolkinState, at: list[int], val: list[float], seats: list[int]) -> None:
        off = self._off
        next_day = s.next_food_day()
        at += (off["day"], off["age"], off["food_days_done"], off["days_to_food_day"], off["turn_index"],
               off["starting_player"] + seats.index(s.start_player), off["start_space_corn"])
        val += (scaled(s.day, LAST_DAY), float(s.age - 1), s.food_done / len(FOOD_DAYS),
                0.0 if next_day is None else scaled(next_day - s.day, 13),
                scaled(s.turn_index, self.num_players), 1.0, scaled(s.sps_corn, 10))
        if s.sps != EMPTY:
            at.append(off["start_space"] + seats.index(s.sps))
            val.append(1.0)

    def _board(self, s: TzolkinState, at: list[int], val: list[float], seats: list[int]) -> None:
        off, n = self._off, self.num_players
        channel = {seat: k for k, seat in enumerate(seats)}
        channel[DUMMY] = n
        base = off["gears"]
        for g, holes in enumerate(s.gears):
            for hole, code in enumerate(holes):
                if code != EMPTY:
                    at.append(base + hole * (n + 1) + channel[code])
                    val.append(1.0)
            base += HOLES[g] * (n + 1)
        base = off["skull_slots"]
        for k, slot in enumerate(SKULL_SLOTS):
            if s.skull_slots[slot] != EMPTY:
                at.append(base + k * n + channel[s.skull_slots[slot]])
                val.append(1.0)
        at += (off["skulls_supply"], off["burned"])
        val += (s.skulls / DATA.skulls, scaled(s.burned, 16))
        for j, k in enumerate(DATA.jungle_spaces):
            at += (off["jungle_corn"] + j, off["jungle_wood"] + j)
            val += (scaled(s.jcorn[k], 4), scaled(s.jwood[k], 4))

    def _rows(self, s: TzolkinState, at: list[int], val: list[float]) -> None:
        off = self._off
        put_type_counts(at, val, off["building_row"], s.display)
        o = off["building_stacks"]
        for i, st in enumerate(s.stacks):
            at.append(o + i)
            val.append(len(st) / AGE_STACK[i])
        o = off["monument_row"]
        for m in s.monument_row:
            if m >= 0:
                at.append(o + m)
                val.append(1.0)

    def _seat(self, s: TzolkinState, at: list[int], val: list[float], k: int, seat: int, unfed: int) -> None:
        """Seat ``seat``'s fields, ``k`` seats after the viewer."""
        off = self._off
        P = s.p[seat]
        o = off["goods"] + 5 * k
        for g, (field, top) in enumerate(zip((CORN, WOOD, STONE, GOLD, SKULL), GOODS_TOP)):
            at.append(o + g)
            val.append(scaled(P[field], top))
        at.append(off["vp"] + k)
        val.append(scaled(P[VP], VP_TOP, low=-1.0))
        o = off["workers"] + 3 * k
        at += (o, o + 1, o + 2)
        val += (P[WORKERS] / MAX_WORKERS, P[READY] / MAX_WORKERS, P[ON_GEARS] / MAX_WORKERS)
        o = off["techs"] + len(TRACKS) * k
        for t in range(len(TRACKS)):
            at.append(o + t)
            val.append(P[TECH + t] / 3)
        o = off["temples"] + len(TEMPLES) * k
        for t in range(len(TEMPLES)):
            at.append(o + t)
            val.append((P[TEMPLE + t] + 1) / (TEMPLE_TOP[t] + 1))
        o = off["harvest_tiles"] + 2 * k
        at += (off["board_light"] + k, o, o + 1)
        val += (float(P[LIGHT]), scaled(P[CTILES], 16), scaled(P[WTILES], 16))
        o = off["farms"] + 2 * k
        at += (o, o + 1, off["last_unfed"] + k)
        val += (scaled(P[FARM_FREE], 6), scaled(P[FARM_DISC], 3), scaled(unfed, 6))
        put_type_counts(at, val, off["built"] + N_BUILDINGS * k, s.built[seat])
        o = off["monuments_built"] + N_MONUMENTS * k
        for m in s.monuments[seat]:
            at.append(o + m)
            val.append(1.0)

    def _tiles(self, s: TzolkinState, at: list[int], val: list[float], seats: list[int]) -> None:
        off = self._off
        put_tile_flags(at, val, off["own_dealt"], s.dealt[s.viewer])
        for k, seat in enumerate(seats):
            put_tile_flags(at, val, off["kept"] + N_TILES * k, s.kept[seat])
            if s.kept[seat]:
                at.append(off["draft_chosen"] + k)
                val.append(1.0)
        put_tile_flags(at, val, off["dummy_tiles"], s.dummy_tiles)


def put_type_counts(at: list[int], val: list[float], offset: int, instances: list[int]) -> None:
    """Copies of each building type among building instances (empty and hidden skipped)
    / MAX_QTY, as (offset, value) entries."""
    counts: dict[int, int] = {}
    for inst in instances:
        if inst >= 0:
            t = INSTANCE_TYPE[inst]
            counts[t] = counts.get(t, 0) + 1
    for t, count in counts.items():
        at.append(offset + t)
        val.append(count / MAX_QTY)


def put_tile_flags(at: list[int], val: list[float], offset: int, tiles: list[int]) -> None:
    """1 for each start tile listed (hidden placeholders skipped)."""
    for t in tiles:
        if t >= 0:
            at.append(offset + t)
            val.append(1.0)


def type_counts(instances: list[int]) -> np.ndarray:
    """Copies of each building type among building instances (empty and hidden skipped)."""
    counts = np.zeros(N_BUILDINGS, dtype=np.float32)
    for inst in instances:
        if inst >= 0:
            counts[INSTANCE_TYPE[inst]] += 1
    return counts


def tile_flags(tiles: list[int]) -> np.ndarray:
    """1 for each start tile listed (hidden placeholders skipped)."""
    flags = np.zeros(N_TILES, dtype=np.float32)
    flags[[t for t in tiles if t >= 0]] = 1.0
    return flags


assert HIDDEN < 0 and EMPTY < 0  # the helpers above skip both by sign
assert max(SPACES) <= 11

ENCODING = register_encoding(GameEncoding(
    game="tzolkin", codec=TzolkinCodec, observer=TzolkinObserver, score_scale=SCORE_SCALE,
    doc="Tzolk'in: 601 actions; observation from the seat's view (see docs/rl.md).",
))

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

from ...core.game import Action, State
from ...tzolkin import actions as A
from ...tzolkin.components import DATA, GEARS, RESOURCES, TEMPLES, TRACKS
from ...tzolkin.layout import (CORN, CTILES, DUMMY, EMPTY, FARM_DISC, FARM_FREE, FOOD_DAYS, FRAME_NAMES,
                               GOLD, HIDDEN, HOLES, INSTANCE_TYPE, INSTANCES_OF_AGE, K_BUILD, K_CHOOSE,
                               K_HARVEST, K_MARKET, K_MIRROR, K_PAY, K_PLACING, K_TECH, K_TURN, K_GAIN,
                               LIGHT, ON_GEARS, PHASES, READY, SKULL, SPACES, STONE, TECH, TEMPLE,
                               TEMPLE_TOP, VP, WOOD, WORKERS, WTILES)
from ...tzolkin.state import TzolkinState
from ..encoding import Field, GameEncoding, Layout, ObservationEncoder, TableCodec, register_encoding, scaled

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
        assert isinstance(view, TzolkinState)
        seats = [(view.viewer + k) % self.num_players for k in range(self.num_players)]
        self._decision(view, obs)
        self._calendar(view, obs, seats)
        self._board(view, obs, seats)
        self._players(view, obs, seats)
        self._tiles(view, obs, seats)

    # --- field groups ------------------------------------------------------------------
    def _decision(self, s: TzolkinState, obs: np.ndarray) -> None:
        lay = self.layout
        obs[lay.slice("phase").start + s.phase] = 1.0
        if not s.stack or s.current_player is None:
            return
        top = s.stack[-1]
        obs[lay.slice("decision").start + top[0]] = 1.0
        for frame in s.stack:
            obs[lay.slice("pending").start + frame[0]] = 1.0
        args = np.zeros(12, dtype=np.float32)
        kind = top[0]
        if kind == K_CHOOSE:
            obs[lay.slice("decision_gear").start + top[1]] = 1.0
            obs[lay.slice("decision_space").start + top[2]] = 1.0
        elif kind == K_HARVEST:
            obs[lay.slice("decision_space").start + top[1]] = 1.0
        elif kind == K_TURN:
            args[0] = top[1]
        elif kind == K_PLACING:
            args[1], args[2] = scaled(top[1], MAX_WORKERS), top[2]
        elif kind == K_TECH:
            args[3], args[4], args[5] = top[1], scaled(top[2], 3), top[3]
        elif kind == K_PAY:
            args[6] = scaled(top[1], 4)
        elif kind == K_BUILD:
            obs[lay.slice("build_mode").start + top[1]] = 1.0
            args[7], args[8], args[9] = scaled(top[2], 3), top[3], scaled(top[4], 3)
            args[10], args[11] = top[5], top[6]
        elif kind == K_MARKET:
            lay.put(obs, "market_locks", [float(bool(top[1] & (1 << bit))) for bit in range(6)])
        elif kind == K_GAIN:
            obs[lay.slice("gain_and_mirror").start] = scaled(top[1], 3)
        elif kind == K_MIRROR:
            obs[lay.slice("gain_and_mirror").start + 1] = top[1]
        lay.put(obs, "decision_args", args)

    def _calendar(self, s: TzolkinState, obs: np.ndarray, seats: list[int]) -> None:
        lay = self.layout
        lay.put(obs, "day", scaled(s.day, LAST_DAY))
        lay.put(obs, "age", float(s.age - 1))
        lay.put(obs, "food_days_done", s.food_done / len(FOOD_DAYS))
        next_day = s.next_food_day()
        lay.put(obs, "days_to_food_day", 0.0 if next_day is None else scaled(next_day - s.day, 13))
        lay.put(obs, "turn_index", scaled(s.turn_index, self.num_players))
        obs[lay.slice("starting_player").start + seats.index(s.start_player)] = 1.0
        if s.sps != EMPTY:
            obs[lay.slice("start_space").start + seats.index(s.sps)] = 1.0
        lay.put(obs, "start_space_corn", scaled(s.sps_corn, 10))

    def _board(self, s: TzolkinState, obs: np.ndarray, seats: list[int]) -> None:
        lay, n = self.layout, self.num_players
        base = lay.slice("gears").start
        for g, holes in enumerate(s.gears):
            for hole, code in enumerate(holes):
                if code != EMPTY:
                    channel = n if code == DUMMY else seats.index(code)
                    obs[base + hole * (n + 1) + channel] = 1.0
            base += HOLES[g] * (n + 1)
        base = lay.slice("skull_slots").start
        for k, slot in enumerate(SKULL_SLOTS):
            if s.skull_slots[slot] != EMPTY:
                obs[base + k * n + seats.index(s.skull_slots[slot])] = 1.0
        lay.put(obs, "skulls_supply", s.skulls / DATA.skulls)
        lay.put(obs, "jungle_corn", [scaled(s.jcorn[k], 4) for k in DATA.jungle_spaces])
        lay.put(obs, "jungle_wood", [scaled(s.jwood[k], 4) for k in DATA.jungle_spaces])
        lay.put(obs, "burned", scaled(s.burned, 16))
        lay.put(obs, "building_row", type_counts(s.display) / MAX_QTY)
        lay.put(obs, "building_stacks", [len(st) / AGE_STACK[i] for i, st in enumerate(s.stacks)])
        row = np.zeros(N_MONUMENTS, dtype=np.float32)
        row[[m for m in s.monument_row if m >= 0]] = 1.0
        lay.put(obs, "monument_row", row)

    def _players(self, s: TzolkinState, obs: np.ndarray, seats: list[int]) -> None:
        lay, n = self.layout, self.num_players
        players = [s.p[seat] for seat in seats]
        lay.put(obs, "goods", [scaled(P[g], top) for P in players
                               for g, top in zip((CORN, WOOD, STONE, GOLD, SKULL), GOODS_TOP)])
        lay.put(obs, "vp", [scaled(P[VP], VP_TOP, low=-1.0) for P in players])
        lay.put(obs, "workers", [P[f] / MAX_WORKERS for P in players for f in (WORKERS, READY, ON_GEARS)])
        lay.put(obs, "techs", [P[TECH + t] / 3 for P in players for t in range(len(TRACKS))])
        lay.put(obs, "temples", [(P[TEMPLE + t] + 1) / (TEMPLE_TOP[t] + 1)
                                 for P in players for t in range(len(TEMPLES))])
        lay.put(obs, "board_light", [float(P[LIGHT]) for P in players])
        lay.put(obs, "harvest_tiles", [scaled(P[f], 16) for P in players for f in (CTILES, WTILES)])
        lay.put(obs, "farms", [v for P in players for v in (scaled(P[FARM_FREE], 6), scaled(P[FARM_DISC], 3))])
        lay.put(obs, "built", np.concatenate([type_counts(s.built[seat]) for seat in seats]) / MAX_QTY)
        built = np.zeros((n, N_MONUMENTS), dtype=np.float32)
        for k, seat in enumerate(seats):
            built[k, s.monuments[seat]] = 1.0
        lay.put(obs, "monuments_built", built.ravel())
        unfed = list(s.last_unfed) or [0] * n
        lay.put(obs, "last_unfed", [scaled(unfed[seat], 6) for seat in seats])

    def _tiles(self, s: TzolkinState, obs: np.ndarray, seats: list[int]) -> None:
        lay, n = self.layout, self.num_players
        lay.put(obs, "own_dealt", tile_flags(s.dealt[s.viewer]))
        lay.put(obs, "kept", np.concatenate([tile_flags(s.kept[seat]) for seat in seats]))
        lay.put(obs, "draft_chosen", [float(bool(s.kept[seat])) for seat in seats])
        lay.put(obs, "dummy_tiles", tile_flags(s.dummy_tiles))


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

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
                               LIGHT, NFIELDS, ON_GEARS, PHASES, READY, SKULL, SPACES, STONE, TECH, TEMPLE,
                               TEMPLE_TOP, VP, WOOD, WORKERS, WTILES)
from .state import TzolkinState
from ..rl.encoding import (Canvas, CanvasEncoder, Field, GameEncoding, Layout, TableCodec, register_encoding,
                           scaled)

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


class TzolkinObserver(CanvasEncoder):
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

    # The observation reads only what the viewer may see: hidden lists by their lengths,
    # other seats' kept tiles once revealed (:func:`kept_seen`). The true state with a
    # viewer gives the same observation as that seat's view, bit for bit
    # (tests/equivalence checks it), so the environments skip building the view
    # (CanvasEncoder.public).

    def __init__(self, num_players: int) -> None:
        super().__init__(num_players)
        #: per viewer, how its observation is drawn (see :class:`ViewerTables`)
        self.tables: list[ViewerTables] = [ViewerTables(self.layout.offsets, num_players, viewer)
                                           for viewer in range(num_players)]
        #: the pending decision's entries by (phase, *frames) (see :meth:`_decision_entries`)
        self.decisions: dict[tuple, tuple[list[int], list[float]]] = {}

    def paint(self, s: State, viewer: int, canvas: Canvas) -> None:
        """Draw every field group of ``s`` seen by ``viewer`` on ``canvas``; each group is
        keyed by what it reads, so an unchanged group costs one comparison."""
        assert isinstance(s, TzolkinState)
        t = self.tables[viewer]
        # the pending decision reads only the phase and the frames, which never change once
        # made: its entries are worked out once per (phase, frames)
        entries = self.decisions.get((s.phase, *s.stack))
        if entries is None:
            entries = self._decision_entries(s)
        canvas.entries("decision", entries)
        group = canvas.group
        group("calendar", (s.day, s.age, s.food_done, s.turn_index, s.start_player, s.sps_corn, s.sps),
              lambda a, v: self._calendar(s, a, v, t.seats))
        keys = canvas.keys
        gears = s.gears
        if keys.get("gears") != gears:
            draw_gears(canvas, t, gears, keys.get("gears"))
            keys["gears"] = [holes[:] for holes in gears]
        p = s.p
        for k, seat in enumerate(t.seats):
            row = p[seat]
            name = SEAT_KEYS[k]
            was = keys.get(name)
            if was != row:
                draw_row(canvas, t.rows[k], row, was)
                keys[name] = row[:]
        # the groups that change a few times a game, behind one comparison of everything they
        # read (kept_seen reads whether this is a view)
        stacks = s.stacks
        if canvas.changed("rare", (s.skull_slots, s.skulls, s.burned, s.jcorn, s.jwood, s.display,
                                   len(stacks[0]), len(stacks[1]), s.monument_row, s.last_unfed, s.built,
                                   s.monuments, s.dealt[viewer], s.kept, s.revealed, s.viewer is None,
                                   s.dummy_tiles)):
            self._paint_rare(s, viewer, canvas, t.seats)

    def _paint_rare(self, s: TzolkinState, viewer: int, canvas: Canvas, seats: list[int]) -> None:
        """The board's skulls and jungle, the building and monument rows, every seat's last
        unfed count, buildings and monuments, and the starting tiles."""
        n = self.num_players
        group = canvas.group
        group("board", (s.skull_slots, s.skulls, s.burned, s.jcorn, s.jwood),
              lambda a, v: self._board(s, a, v, seats))
        group("rows", (s.display, tuple(map(len, s.stacks)), s.monument_row), lambda a, v: self._rows(s, a, v))
        unfed = list(s.last_unfed) or [0] * n
        for k, seat in enumerate(seats):
            group(("unfed", k), unfed[seat], lambda a, v: self._unfed(a, v, k, unfed[seat]))
            group(("built", k), (s.built[seat], s.monuments[seat]), lambda a, v: self._built(s, a, v, k, seat))
        kept = [kept_seen(s, seat, viewer) for seat in seats]
        group("tiles", (s.dealt[viewer], kept, [bool(s.kept[seat]) for seat in seats], s.dummy_tiles),
              lambda a, v: self._tiles(s, a, v, viewer, seats, kept))

    def _decision_entries(self, s: TzolkinState) -> tuple[list[int], list[float]]:
        """The pending decision's entries, remembered by phase and frames (equal frames
        draw alike); the memo is emptied when it holds :data:`DECISIONS_KEPT` stacks."""
        at: list[int] = []
        val: list[float] = []
        self._decision(s, at, val)
        if len(self.decisions) >= DECISIONS_KEPT:
            self.decisions.clear()
        entries = self.decisions[(s.phase, *s.stack)] = (at, val)
        return entries

    # --- field groups ------------------------------------------------------------------
    def _decision(self, s: TzolkinState, at: list[int], val: list[float]) -> None:
        off = self.layout.offsets
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
        for j, x in enumerate(args):
            if x:  # (zeros need no entry: the canvas clears what the last drawing wrote)
                at.append(o + j)
                val.append(float(x))

    def _calendar(self, s: TzolkinState, at: list[int], val: list[float], seats: list[int]) -> None:
        off = self.layout.offsets
        next_day = s.next_food_day()
        at += (off["day"], off["age"], off["food_days_done"], off["days_to_food_day"], off["turn_index"],
               off["starting_player"] + seats.index(s.start_player), off["start_space_corn"])
        val += (scaled(s.day, LAST_DAY), float(s.age - 1), s.food_done / len(FOOD_DAYS),
                0.0 if next_day is None else scaled(next_day - s.day, 13),
                scaled(s.turn_index, self.num_players), 1.0, scaled(s.sps_corn, 10))
        if s.sps != EMPTY:
            at.append(off["start_space"] + seats.index(s.sps))
            val.append(1.0)

    def _unfed(self, at: list[int], val: list[float], k: int, unfed: int) -> None:
        at.append(self.layout.offsets["last_unfed"] + k)
        val.append(scaled(unfed, 6))

    def _board(self, s: TzolkinState, at: list[int], val: list[float], seats: list[int]) -> None:
        """Skulls on Chichen Itza and in the supply, burned and jungle tiles."""
        off, n = self.layout.offsets, self.num_players
        channel = {seat: k for k, seat in enumerate(seats)}
        channel[DUMMY] = n
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
        off = self.layout.offsets
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

    def _built(self, s: TzolkinState, at: list[int], val: list[float], k: int, seat: int) -> None:
        """Seat ``seat``'s buildings and monuments, ``k`` seats after the viewer."""
        off = self.layout.offsets
        put_type_counts(at, val, off["built"] + N_BUILDINGS * k, s.built[seat])
        o = off["monuments_built"] + N_MONUMENTS * k
        for m in s.monuments[seat]:
            at.append(o + m)
            val.append(1.0)

    def _tiles(self, s: TzolkinState, at: list[int], val: list[float], viewer: int, seats: list[int],
               kept: list[list[int]]) -> None:
        off = self.layout.offsets
        put_tile_flags(at, val, off["own_dealt"], s.dealt[viewer])
        for k, seat in enumerate(seats):
            put_tile_flags(at, val, off["kept"] + N_TILES * k, kept[k])
            if s.kept[seat]:
                at.append(off["draft_chosen"] + k)
                val.append(1.0)
        put_tile_flags(at, val, off["dummy_tiles"], s.dummy_tiles)


DECISIONS_KEPT = 4096  # pending-decision stacks remembered by an encoder
SEAT_KEYS = tuple(("seat", k) for k in range(8))  # canvas keys of each seat's row, from the viewer


class ViewerTables:
    """What drawing one viewer's observation needs, worked out once: the seats in order
    from the viewer, the offset of every gear hole (its one-hot block of seats then the
    dummies), each occupant's place in that block, and each seat's row fields."""

    __slots__ = ("seats", "holes", "channel", "rows")

    def __init__(self, off: dict[str, int], n: int, viewer: int) -> None:
        #: seat numbers in turn order from the viewer
        self.seats: list[int] = [(viewer + k) % n for k in range(n)]
        width = n + 1
        holes: list[list[int]] = []
        base = off["gears"]
        for count in HOLES:
            holes.append([base + i * width for i in range(count)])
            base += count * width
        #: per gear, per hole: where its one-hot block starts
        self.holes: list[list[int]] = holes
        #: per occupant code (seats 0..n-1, then DUMMY): its place in a hole's block
        self.channel: list[int] = [(code - viewer) % n if code < n else n for code in range(DUMMY + 1)]
        #: per seat from the viewer: its row fields (see :func:`seat_rows`)
        self.rows: list[list[tuple[int, float, float, float, float]]] = [seat_rows(off, k) for k in range(n)]


def draw_gears(canvas: Canvas, t: ViewerTables, gears: list[list[int]], old: list[list[int]] | None) -> None:
    """The gears' holes, one-hot by occupant (seats from the viewer, then the dummies;
    nothing when empty): holes whose occupant differs from ``old`` (the gears as last
    drawn; ``None``: nothing drawn yet) are cleared and written again. A calendar turn
    moves every occupant one hole on."""
    at = canvas.at
    val = canvas.val
    channel = t.channel
    for g, holes in enumerate(gears):
        was = old[g] if old is not None else [EMPTY] * len(holes)
        if was == holes:
            continue
        for code, before, offset in zip(holes, was, t.holes[g]):
            if code != before:
                if before != EMPTY:
                    at.append(offset + channel[before])
                    val.append(0.0)
                if code != EMPTY:
                    at.append(offset + channel[code])
                    val.append(1.0)


def draw_row(canvas: Canvas, rows: list[tuple[int, float, float, float, float]], row: list[int],
             old: list[int] | None) -> None:
    """A seat's row fields that differ from ``old`` (all when ``None``):
    ``min(max((value + add) / divisor, low), high)`` at each field's offset."""
    at = canvas.at
    val = canvas.val
    if old is None:
        old = [None] * len(row)
    for i, value in enumerate(row):
        if value != old[i]:
            offset, add, divisor, low, high = rows[i]
            at.append(offset)
            val.append(min(max((value + add) / divisor, low), high))


def seat_rows(off: dict[str, int], k: int) -> list[tuple[int, float, float, float, float]]:
    """Per field of a player's row ``P`` (by index), for the seat ``k`` after the viewer:
    its offset, what is added to it, what the sum is divided by, and its bounds (infinite:
    not clipped); goods / 30 (corn), 10, 10, 10, 13 (skulls); VP / 150 in [-1, 1]; workers
    / 6; technologies / 3; temple steps + 1 / top + 1; board side; harvest tiles / 16;
    farms / 6 and / 3."""
    inf = float("inf")
    rows: dict[int, tuple[int, float, float, float, float]] = {}
    for g, (field, top) in enumerate(zip((CORN, WOOD, STONE, GOLD, SKULL), GOODS_TOP)):
        rows[field] = (off["goods"] + 5 * k + g, 0, top, 0.0, 1.0)
    rows[VP] = (off["vp"] + k, 0, VP_TOP, -1.0, 1.0)
    for j, field in enumerate((WORKERS, READY, ON_GEARS)):
        rows[field] = (off["workers"] + 3 * k + j, 0, MAX_WORKERS, -inf, inf)
    for t in range(len(TRACKS)):
        rows[TECH + t] = (off["techs"] + len(TRACKS) * k + t, 0, 3, -inf, inf)
    for t in range(len(TEMPLES)):
        rows[TEMPLE + t] = (off["temples"] + len(TEMPLES) * k + t, 1, TEMPLE_TOP[t] + 1, -inf, inf)
    rows[LIGHT] = (off["board_light"] + k, 0, 1, -inf, inf)
    rows[CTILES] = (off["harvest_tiles"] + 2 * k, 0, 16, 0.0, 1.0)
    rows[WTILES] = (off["harvest_tiles"] + 2 * k + 1, 0, 16, 0.0, 1.0)
    rows[FARM_FREE] = (off["farms"] + 2 * k, 0, 6, 0.0, 1.0)
    rows[FARM_DISC] = (off["farms"] + 2 * k + 1, 0, 3, 0.0, 1.0)
    assert sorted(rows) == list(range(NFIELDS))
    return [rows[i] for i in range(NFIELDS)]


def kept_seen(s: TzolkinState, seat: int, viewer: int) -> list[int]:
    """The start tiles ``seat`` kept as ``viewer`` sees them: its own, and others' once the
    draft is revealed (rules 2; before that a view holds only hidden placeholders)."""
    return s.kept[seat] if seat == viewer or s.revealed or s.viewer is not None else []


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

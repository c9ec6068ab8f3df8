"""The Tzolk'in state: flat data, the protocol methods, views and determinization.

The rules live in :mod:`mayagames.tzolkin.rules`; this module holds the data
(see ``docs/tzolkin_state.md`` for the ``to_dict`` layout), copies it cheaply,
hides what a seat may not see and resamples it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..core.errors import IllegalAction
from ..core.framestack import FrameStackState
from ..core.game import GameInfo, State
from ..core.rng import Rng
from . import flow
from .flow import DRAFT_TILES, Frame, settle
from .actions import Keep
from .components import CHICHEN, DATA, GEARS
from .model import (CORN, CTILES, DRAFT, GOLD, WTILES, DUMMY, EMPTY, FOOD_DAYS, HIDDEN, HOLES, INSTANCE_TYPE,
                    INSTANCES_OF_AGE, LIGHT, NFIELDS, ON_GEARS, OVER, PHASES, READY, SKULL, STONE, TECH,
                    TEMPLE, TEMPLE_TOP, VP, WOOD, WORKERS)
from .deferred import (AGE_1, AGE_2, KINDS, MONUMENTS, TILES, Deferred, Shuffle, deal_all,
                       deal_unshuffled, piles)
from .describe import describe
from .scoring import check_top_unique, final_breakdown
from .rules import pick_options, scan_picks, worker_keys


def hidden_places(kind: int, view: "TzolkinState") -> tuple[tuple[int, ...], ...]:
    """Per list a shuffle of ``kind`` fills (:func:`.deferred.piles`), the places of the
    items the viewer cannot see."""
    return tuple(tuple(i for i, item in enumerate(pile) if item == HIDDEN) for pile in piles(view, kind))


GEAR_OF_TILE = tuple(GEARS.index(t.gear) for t in DATA.tiles)


class TzolkinState(FrameStackState):
    """A Tzolk'in game in progress (or a seat's view of one)."""

    info: ClassVar[GameInfo]
    # never mutated in place: the legal-action cache and the last Food Day's unfed
    # counts are replaced, and the cache is handed out as a copy
    shared_on_clone = ("options", "_legal", "last_unfed", "deferred")

    # --- the declared fields (FrameStackState.clone copies from them; invariants() checks them)
    shared_fields = (
        "phase", "cur", "turn_index", "start_player", "day", "food_done", "age", "sps", "sps_corn",
        "burned", "skulls", "monument_skulls", "corn_out", "draws", "last_unfed", "revealed", "dummies",
        "deferred")
    list_fields = ("jcorn", "jwood", "skull_slots", "display", "building_box", "monument_row",
                   "monument_box", "dummy_tiles", "tile_box")
    nested_fields = ("gears", "p", "at", "built", "monuments", "stacks", "dealt", "kept")

    # --- creation ---------------------------------------------------------------------
    def __init__(self, num_players: int, seed: int, options: dict[str, Any]) -> None:
        self.num_players = num_players
        self.seed = seed
        self.options = options
        self.viewer: int | None = None
        self.rng = Rng(seed)
        setup = DATA.setup[num_players]
        self.phase = DRAFT
        self.cur = 0
        self.stack: list[Frame] = [DRAFT_TILES]   # pending decisions, the top one last
        self._legal: list[Any] | None = []  # None: not worked out yet
        self.turn_index = 0
        self.start_player = 0          # "who most recently sacrificed something": seat 0
        self.day = 1
        self.food_done = 0
        self.age = 1
        self.gears = [[EMPTY] * h for h in HOLES]
        self.sps = EMPTY
        self.sps_corn = 0
        per_group = 4 if options.get("jungle_tiles") == "four" else setup["jungle_tiles"]
        self.jcorn = [per_group if k in DATA.jungle_spaces else 0 for k in range(6)]
        self.jwood = [per_group if DATA.jungle_wood[k] else 0 for k in range(6)]
        self.burned = 0
        self.skull_slots = [EMPTY] * 10
        self.skulls = DATA.skulls
        self.monument_skulls = 0
        self.corn_out = 0
        self.draws = 0
        self.last_unfed: list[int] = []
        self.p = [[0] * NFIELDS for _ in range(num_players)]
        for P in self.p:
            P[WORKERS] = P[READY] = DATA.start_workers
            P[LIGHT] = 1               # every board starts lighter side up
        self.built: list[list[int]] = [[] for _ in range(num_players)]
        self.monuments: list[list[int]] = [[] for _ in range(num_players)]
        self._deal_monuments(6 if options.get("monuments") == "six" else setup["monuments"])
        self._deal_buildings()
        self._deal_tiles()
        self.dummies = 0
        self._place_dummies(setup["dummies"])
        self.at: list[list[int]] = [[] for _ in range(num_players)]   # rules.worker_keys
        # shuffles a search's world still owes (.deferred; never in a game or a view)
        self.deferred: Deferred | None = None
        flow.settle(self)

    def _deal_monuments(self, count: int) -> None:
        order = list(range(len(DATA.monuments)))
        self.rng.shuffle(order)
        self.monument_row = order[:count]
        self.monument_box = order[count:]

    def _deal_buildings(self) -> None:
        self.stacks = [list(INSTANCES_OF_AGE[0]), list(INSTANCES_OF_AGE[1])]
        for stack in self.stacks:
            self.rng.shuffle(stack)
        self.display = [self.stacks[0].pop() for _ in range(DATA.building_display)]
        self.building_box: list[int] = []

    def _deal_tiles(self) -> None:
        order = list(range(len(DATA.tiles)))
        self.rng.shuffle(order)
        n = DATA.tiles_dealt
        self.dealt = [order[i * n:(i + 1) * n] for i in range(self.num_players)]
        self.kept: list[list[int]] = [[] for _ in range(self.num_players)]
        self.revealed = False
        self.tile_box = order[self.num_players * n:]
        self.dummy_tiles: list[int] = []

    def _place_dummies(self, target: int) -> None:
        """Reveal undealt tiles one by one; a dummy goes on the space printed on each
        (and, by the default reading, also on the opposite hole of the first dummy of
        each small gear)."""
        opposite = self.options.get("dummy_placement", "opposite") == "opposite"
        while self.dummies < target and self.tile_box:
            tile = self.tile_box.pop(0)
            self.dummy_tiles.append(tile)
            spec = DATA.tiles[tile]
            g = GEAR_OF_TILE[tile]
            first = DUMMY not in self.gears[g]
            self._put_dummy(g, spec.space)
            if opposite and first and g != CHICHEN and self.dummies < target:
                self._put_dummy(g, (spec.space + HOLES[g] // 2) % HOLES[g])

    def _put_dummy(self, g: int, pos: int) -> None:
        if self.gears[g][pos] == EMPTY:
            self.gears[g][pos] = DUMMY
            self.dummies += 1

    # --- protocol -------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.cur

    # --- the frame-stack hooks (:class:`~mayagames.core.framestack.FrameStackState`) ----------
    @property
    def legal(self) -> list[Any] | None:
        """The cached legal actions (``None``: not worked out yet), under their first name."""
        return self._legal

    @legal.setter
    def legal(self, value: list[Any] | None) -> None:
        self._legal = value

    over_phase = OVER

    def _list_legal(self) -> list[Any]:
        """The top frame's legal actions, nothing resolved (:func:`.flow.current_options`:
        a view's cache is worked out on demand; a true state's is always settled)."""
        return flow.current_options(self)

    def _advance(self, action: Any) -> None:
        """Play a legal action on the top frame, then settle the next real decision and cache
        its legal list (:func:`.flow.settle`, its common case inlined)."""
        self.stack[-1].apply(self, action)
        if self.phase != OVER:
            top = self.stack[-1]
            if not top.auto:
                self._legal = top.legal_actions(self)
                return
        settle(self)

    def _why_illegal(self, action: Any) -> IllegalAction:
        return flow.explain(self, action)

    def scores(self) -> list[float]:
        if self.phase == OVER:
            return [final_breakdown(self, seat)["total"] for seat in range(self.num_players)]
        return [float(P[VP]) for P in self.p]

    def winners(self) -> list[int]:
        """Most points; ties go to the most workers left on the gears; then shared."""
        scores = self.scores()
        best = max(scores)
        tied = [seat for seat, score in enumerate(scores) if score == best]
        most = max(self.p[seat][ON_GEARS] for seat in tied)
        return [seat for seat in tied if self.p[seat][ON_GEARS] == most]

    # --- hidden information ------------------------------------------------------------------
    def view(self, seat: int | None) -> "TzolkinState":
        """Hidden: other seats' dealt tiles (their kept ones show once revealed) and their
        unrevealed draft choice, undealt tiles left in the box, the order and identity of
        the building stacks, the box of buildings and of monuments, the generator and the
        seed (from which the whole setup could be rebuilt)."""
        if self.deferred is not None:
            deal_all(self)             # a search's world: what it shows is what it plays
        v = self.clone()
        v.viewer = seat
        v.rng = Rng(0)
        v.seed = 0                     # the seed would regenerate every shuffle of the setup
        for other in range(self.num_players):
            if other == seat:
                continue
            known = sorted(self.kept[other]) if self.revealed else []
            v.dealt[other] = known + [HIDDEN] * (len(self.dealt[other]) - len(known))
            if not self.revealed:
                v.kept[other] = [HIDDEN] * len(self.kept[other])
        v.tile_box = [HIDDEN] * len(self.tile_box)
        v.stacks = [[HIDDEN] * len(st) for st in self.stacks]
        v.building_box = [HIDDEN] * len(self.building_box)
        v.monument_box = [HIDDEN] * len(self.monument_box)
        v._legal = None if seat != self.cur else self._legal
        return v

    def determinize(self, rng: Rng) -> "TzolkinState":
        """A full state consistent with this view: hidden tiles, stacks and boxes resampled."""
        return self.determinizer()(rng)

    def determinizer(self) -> Any:
        """:meth:`determinize` of this view as a function of the generator: the unseen
        start tiles, buildings of each age and monuments are worked out once; each call
        shuffles copies of them in the same order as before (the same worlds)."""
        tiles = self._unseen_tiles()
        buildings = self._unseen_buildings()
        seen = set(self.monument_row) | {m for ms in self.monuments for m in ms}
        monuments = [m for m in range(len(DATA.monuments)) if m not in seen]

        def sample(rng: Rng) -> "TzolkinState":
            full = self.clone()
            full.viewer = None
            full.rng = rng.spawn()
            self._fill_tiles(full, rng, tiles[:])
            self._fill_buildings(full, rng, [pool[:] for pool in buildings])
            pool = monuments[:]
            rng.shuffle(pool)
            full.monument_box = [m if m != HIDDEN else pool.pop() for m in full.monument_box]
            if full._legal is None:
                flow.settle(full)
            return full
        return sample

    def search_determinizer(self) -> Any:
        """:meth:`determinizer` for a search, which plays its worlds and looks at nothing
        else: the same draws from the generator and the same play, but each world deals
        the building stacks, the boxes and (after the draft) the start tiles in the order of
        their pools and shuffles each pile when a rule first reads it (:mod:`.deferred`; most
        worlds of a search never draw a building, and no rule reads the boxes or the start
        tiles after the draft). The piles' unshuffled deal is made once, on a template."""
        tiles = self._unseen_tiles()
        buildings = self._unseen_buildings()
        seen = set(self.monument_row) | {m for ms in self.monuments for m in ms}
        monuments = [m for m in range(len(DATA.monuments)) if m not in seen]
        drafting = not self.revealed   # the hands are still read (and choices sampled)
        template = self.clone()
        template.viewer = None
        pools = [(AGE_1, buildings[0]), (AGE_2, buildings[1]), (MONUMENTS, monuments)]
        if not drafting:
            pools.insert(0, (TILES, tiles))
        owed: list[Shuffle | None] = [None] * KINDS
        draws = 0                      # from the worlds' owed state to each shuffle
        for kind, pool in pools:
            places = hidden_places(kind, self)
            if any(places):
                shuffle = Shuffle(draws, tuple(pool), places)
                deal_unshuffled(template, kind, shuffle)
                owed[kind] = shuffle
            draws += max(len(pool) - 1, 0)     # the draws of a Fisher-Yates shuffle
        shuffles = tuple(owed) if any(owed) else None

        def sample(rng: Rng) -> "TzolkinState":
            full = template.clone()
            full.rng = rng.spawn()
            if drafting:
                self._fill_tiles(full, rng, tiles[:])
            if shuffles is not None:
                full.deferred = Deferred(rng.state, shuffles)
            rng.skip(draws)
            if full._legal is None:
                flow.settle(full)
            return full
        return sample

    def _unseen_tiles(self) -> list[int]:
        known = {t for t in self.tile_box + self.dummy_tiles if t >= 0}
        known |= {t for hand in self.dealt + self.kept for t in hand if t >= 0}
        return [t for t in range(len(DATA.tiles)) if t not in known]

    def _fill_tiles(self, full: "TzolkinState", rng: Rng, pool: list[int]) -> None:
        rng.shuffle(pool)
        full.dealt = [[t if t >= 0 else pool.pop() for t in hand] for hand in full.dealt]
        for seat, kept in enumerate(full.kept):
            if HIDDEN in kept:       # chosen but not yet revealed: 2 of the (sampled) hand
                full.kept[seat] = sorted(rng.sample(full.dealt[seat], len(kept)))
        full.tile_box = [t if t >= 0 else pool.pop() for t in full.tile_box]

    def _unseen_buildings(self) -> list[list[int]]:
        """Per age, the building instances neither on display, built nor seen in the box."""
        seen = {i for i in self.display if i >= 0} | {i for b in self.built for i in b}
        seen |= {i for i in self.building_box if i >= 0}
        return [[i for i in INSTANCES_OF_AGE[age - 1] if i not in seen] for age in (1, 2)]

    def _fill_buildings(self, full: "TzolkinState", rng: Rng, pools: list[list[int]]) -> None:
        for age in (1, 2):
            pool = pools[age - 1]
            rng.shuffle(pool)
            full.stacks[age - 1] = [i if i >= 0 else pool.pop() for i in full.stacks[age - 1]]
            if age == 1:
                full.building_box = [i if i >= 0 else pool.pop() for i in full.building_box]

    def reveals_information(self, action: Any) -> bool:
        """True when the action draws a building, reveals the draft, or is a draft pick."""
        if isinstance(action, Keep):
            return True
        after = self.clone()
        after.apply(action)
        return self.revealed_by(action, after)

    def revealed_by(self, action: Any, after: State) -> bool:
        """:meth:`reveals_information` from this state and the one after ``action``."""
        return isinstance(action, Keep) or after.draws != self.draws  # type: ignore[attr-defined]

    def public_notation(self, action: Any, seat: int | None) -> str:
        if isinstance(action, Keep) and seat != self.cur:
            return "keep (hidden)"
        return str(action)

    # --- description ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        if self.deferred is not None:
            deal_all(self)
        return describe(self)

    def game_invariants(self) -> list[str]:
        """Conservation and range checks (workers, dummies, skulls, tiles, buildings,
        monuments, start tiles, corn ledger, goods, temples, technologies)."""
        if self.viewer is not None:
            return []
        errs: list[str] = []
        errs += self._check_workers()
        errs += self._check_components()
        total_corn = sum(P[CORN] for P in self.p) + self.sps_corn
        if total_corn != self.corn_out:
            errs.append(f"corn not conserved: players+space {total_corn} != issued {self.corn_out}")
        for seat, P in enumerate(self.p):
            if min(P[CORN], P[WOOD], P[STONE], P[GOLD], P[SKULL]) < 0:
                errs.append(f"seat {seat} has negative goods {P[:5]}")
            if any(not 0 <= P[TECH + t] <= 3 for t in range(4)):
                errs.append(f"seat {seat} technology out of range")
            if any(not -1 <= P[TEMPLE + t] <= TEMPLE_TOP[t] for t in range(3)):
                errs.append(f"seat {seat} temple step out of range")
        errs += check_top_unique(self)
        if self.phase != OVER and not self.stack:
            errs.append("no pending decision in a game that is not over")
        return errs

    def _check_workers(self) -> list[str]:
        errs = []
        for seat, P in enumerate(self.p):
            on = sum(occ.count(seat) for occ in self.gears)
            if on != P[ON_GEARS]:
                errs.append(f"seat {seat}: {on} workers on gears, counted {P[ON_GEARS]}")
            here = P[READY] + on + (self.sps == seat)
            if here != P[WORKERS] or not DATA.start_workers <= P[WORKERS] <= DATA.max_workers or P[READY] < 0:
                errs.append(f"seat {seat}: workers not conserved ({here} placed/ready, {P[WORKERS]} in play)")
        if self.at != worker_keys(self) or any(pick_options(self, seat) != scan_picks(self, seat)
                                                  for seat in range(self.num_players)):
            errs.append("the worker keys (state.at) do not match the gears")
        if sum(occ.count(DUMMY) for occ in self.gears) != self.dummies:
            errs.append("dummy workers not conserved")
        return errs

    def _check_components(self) -> list[str]:
        errs = []
        skulls = self.skulls + sum(P[SKULL] for P in self.p) + self.monument_skulls
        skulls += sum(1 for x in self.skull_slots if x != EMPTY)
        if skulls != DATA.skulls:
            errs.append(f"crystal skulls not conserved: {skulls}")
        corn_tiles = sum(self.jcorn) + sum(P[CTILES] for P in self.p)
        if corn_tiles != self._tiles_per_group() * len(DATA.jungle_spaces):
            errs.append("corn harvest tiles not conserved")
        wood_tiles = sum(self.jwood) + sum(P[WTILES] for P in self.p) + self.burned
        if any(self.jwood[k] > self.jcorn[k] for k in range(6)):
            errs.append("a wood tile lies on no corn tile")
        groups_with_wood = sum(1 for k in range(6) if DATA.jungle_wood[k])
        if wood_tiles != self._tiles_per_group() * groups_with_wood:
            errs.append("wood harvest tiles not conserved")
        buildings = [i for i in self.display if i != EMPTY] + [i for st in self.stacks for i in st]
        buildings += self.building_box + [i for b in self.built for i in b]
        if sorted(buildings) != list(range(len(INSTANCE_TYPE))):
            errs.append("buildings not conserved")
        monuments = [m for m in self.monument_row if m != EMPTY] + self.monument_box
        monuments += [m for ms in self.monuments for m in ms]
        if sorted(monuments) != list(range(len(DATA.monuments))):
            errs.append("monuments not conserved")
        tiles = [t for hand in self.dealt for t in hand] + self.dummy_tiles + self.tile_box
        if sorted(tiles) != list(range(len(DATA.tiles))):
            errs.append("starting tiles not conserved")
        if any(not set(k) <= set(d) for k, d in zip(self.kept, self.dealt)):
            errs.append("a kept tile was not dealt to its owner")
        return errs

    def _tiles_per_group(self) -> int:
        if self.options.get("jungle_tiles") == "four":
            return 4
        return DATA.setup[self.num_players]["jungle_tiles"]

    # --- small queries used by render, heuristic and tests -----------------------------------
    def decision(self) -> dict[str, Any]:
        """The pending decision, for clients (kind and its context)."""
        if self.phase == OVER or not self.stack:
            return {"kind": "none"}
        top = self.stack[-1]
        return {"kind": top.kind, **top.details()}

    def next_food_day(self) -> int | None:
        return FOOD_DAYS[self.food_done] if self.food_done < 4 else None

    @property
    def phase_name(self) -> str:
        return PHASES[self.phase]


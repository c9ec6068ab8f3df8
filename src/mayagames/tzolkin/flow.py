"""The Tzolk'in forward model: typed decision frames and the flow between them.

A state holds a stack of pending decisions (``TzolkinState.stack``). Each kind of
decision is a small immutable class deriving from :class:`~mayagames.core.frames.SubDecision`
that owns its fields (named as in the rulebook), its legal actions, how an answer
changes the state, and why an answer is refused (:meth:`Frame.refusal`, built on the
checks of :mod:`mayagames.tzolkin.rules` that also decide legality). Frames never
change once made (``copy()`` returns the frame itself), so copying a state copies the
stack as a plain list.

After every action :func:`settle` resolves frames that need no real decision (a single
forced choice, a wasted privilege, a payment that must take every block) and caches the
next legal list, so that ``apply`` validates by a membership test only.

>>> from mayagames.tzolkin.positions import blank
>>> s = blank(2)
>>> s.stack[-1]
TurnStart(begged=0)
>>> err = s.stack[-1].why_illegal(s, s.parse_action("pick tikal 3"))
>>> err.rule, err.message
('Picking up workers', 'there is no worker on tikal space 3')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Optional

from ..core.compiling import mypyc_attr
from ..core.errors import IllegalAction, refused
from ..core.frames import SubDecision
from . import actions as A
from .actions import END, NOTHING, Do, Pick, Place, PlaceStart
from .components import (ARCHITECTURE, AGRICULTURE, BUILDING_INDEX, CHICHEN, DATA, EXTRACTION, GEARS,
                         MONUMENT_INDEX, PALENQUE, RESOURCES, TEMPLES, THEOLOGY, TIKAL, TILE_INDEX,
                         TRACKS, UXMAL, YAXCHILAN)
from .effects import (blocks, gain_corn, gain_goods, gain_skulls, gain_tile, gain_workers,
                      step_up)
from .model import (ACT, ACTIONS, CHICHEN_AHEAD, B_EXTRA, B_TIKAL, B_UXMAL, BONUS, BUILD_CORN, BUILD_VP, CORN, CTILES, DUMMY, EMPTY,
                    EXTRACT_BONUS, FARM_DISC, FARM_FREE, FISHING_BONUS, FOOD_DAYS, HARVEST_BONUS,
                    INSTANCE_TYPE, K_ANGER, K_BUILD, K_CHOOSE, K_DRAFT, K_GAIN, K_HARVEST,
                    K_MARKET, K_MIRROR, K_OFFER, K_PAY, K_PICKING, K_PLACING, K_SPEED, K_TECH,
                    K_TEMPLE, K_TURN, K_TWO, LAST_NORMAL, LIGHT, MIRROR_GEARS, OFFERING, ON_GEARS,
                    OVER, PLAY, READY, SKULL, SPACES, SPEED, TECH, TECH_COST, TEMPLE, VP, WAIVE,
                    WOOD,
                    WTILES, YAX_SKULL)
from .rules import (ACTION_COSTS, BCOST, BEG_MAX_CORN, BEGS, BOUGHT, BUILD_MON, CHI, COST_OF, GEAR_DOS, MARKET, MCOST, MIRROR_CORN,
                    MSKULL, PAL_CORN, PAL_WOOD, SOLD, TARIFF, UXMAL_TEMPLE_CORN, YAX_GAIN, Refusal,
                    anger_refusal, beg_refusal, block_build_refusal, block_refusal,
                    build_action, do_refusal, harvest_refusal, lowest_free, may_beg,
                    mirror_refusal, monument_refusal, perform_refusal,
                    pick_options, pick_refusal, place_refusal, placement_options,
                    special_case_options, start_space_refusal, step_refusal, tech_refusal,
                    trade_refusal, uxmal_build_refusal, uxmal_price, row_types)
from .scoring import food_day, refill_display
from .rules import AT_BASE
from bisect import insort

if TYPE_CHECKING:
    from .state import TzolkinState

BUILD_MODES = ("tikal", "uxmal", "extra")
AT_LAST = tuple(base + spaces - 1 for base, spaces in zip(AT_BASE, SPACES))   # key + day of each last space
GEARS_INDEX = {name: g for g, name in enumerate(GEARS)}
# KEEP[a][b]: the draft action keeping tiles a < b (by index)
KEEP = tuple(tuple(A.Keep(DATA.tiles[a].id, DATA.tiles[b].id) if a < b else None
                   for b in range(len(DATA.tiles))) for a in range(len(DATA.tiles)))


# ====================================================================================
# The frame base
# ====================================================================================
@mypyc_attr(native_class=False)  # a Python class in the compiled build too (docs/design.md)
class Frame(SubDecision["TzolkinState"]):
    """A pending Tzolk'in decision. ``code`` is the frame's index in
    :data:`~mayagames.tzolkin.model.FRAME_NAMES` (the order observation encoders use),
    ``rule`` the rulebook section it belongs to, ``help`` what the player decides now,
    ``auto`` whether it resolves by itself when at most one choice remains."""

    __slots__ = ()
    code: ClassVar[int]
    rule: ClassVar[str]
    help: ClassVar[str]
    auto: ClassVar[bool] = False

    def details(self) -> dict[str, Any]:
        """The frame's fields for clients (``TzolkinState.decision()``)."""
        return {}

    def refusal(self, s: "TzolkinState", a: Any) -> Optional[Refusal]:
        """``None`` when ``a`` answers this decision legally, otherwise (rule, reason)."""
        return self.not_now(a)

    def not_now(self, a: Any) -> Refusal:
        """The reason for an action of another kind of decision."""
        if isinstance(a, A.Stop):
            return self.rule, f"this choice cannot be skipped; now: {self.help}"
        return self.rule, f"not now; {self.help}"

    def why_illegal(self, s: "TzolkinState", a: Any) -> IllegalAction:
        return refused(self.refusal(s, a) or self.not_now(a), a)


# ====================================================================================
# Setup and turn flow frames
# ====================================================================================
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class DraftTiles(Frame):
    """Setup: keep 2 of the 4 dealt starting wealth tiles (hidden until all have chosen)."""
    code: ClassVar[int] = K_DRAFT
    kind: ClassVar[str] = "draft"
    rule: ClassVar[str] = "Setup: starting wealth tiles"
    help: ClassVar[str] = "keep 2 starting tiles"

    def legal_actions(self, s: "TzolkinState") -> list[Any]:
        hand = sorted(s.dealt[s.cur])
        if hand and hand[0] < 0:
            return []          # another seat's hidden hand (only in a view)
        return [KEEP[a][b] for i, a in enumerate(hand) for b in hand[i + 1:]]

    def refusal(self, s: "TzolkinState", a: Any) -> Optional[Refusal]:
        if not isinstance(a, A.Keep):
            return self.rule, "first keep 2 of your 4 dealt starting tiles"
        if a in self.legal_actions(s):
            return None
        return self.rule, "you may only keep 2 of the 4 tiles dealt to you"

    def apply(self, s: "TzolkinState", a: Any) -> None:
        """Keep 2 tiles (hidden); when all have chosen, reveal and give their items."""
        s.kept[s.cur] = [TILE_INDEX[a.first], TILE_INDEX[a.second]]
        s.draws += 1
        waiting = [seat for seat in draft_order(s) if not s.kept[seat]]
        if waiting:
            s.cur = waiting[0]
            return
        s.revealed = True
        for seat in range(s.num_players):
            for tile in s.kept[seat]:
                gain_tile(s, seat, tile)
        s.phase = PLAY
        start_round(s)


def worker_refusal(s: "TzolkinState", a: Any, placed: int) -> Optional[Refusal]:
    """Placing workers: an available worker, and the space's cost plus the tariff."""
    seat = s.cur
    if s.p[seat][READY] == 0:
        return "Placing workers", "you have no available worker (not on a gear, not in the bank)"
    if isinstance(a, A.PlaceStart):
        return start_space_refusal(s, seat, placed)
    return place_refusal(s, seat, GEARS.index(a.gear), placed)


MIXED = ("Turn", "you cannot place and pick up workers in the same turn")


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class TurnStart(Frame):
    """The first decision of a turn: beg for corn, place workers or pick them up.
    ``begged``: 1 once the player has begged this turn."""
    begged: int
    code: ClassVar[int] = K_TURN
    kind: ClassVar[str] = "turn"
    rule: ClassVar[str] = "Turn"
    help: ClassVar[str] = "beg, place or pick up workers"

    def details(self) -> dict[str, Any]:
        return {"begged": bool(self.begged)}

    def legal_actions(self, s: "TzolkinState") -> list[Any]:
        """Beg, place or pick up; begging is forced when you must place and cannot pay."""
        seat = s.cur
        P = s.p[seat]
        places = placement_options(s, seat, 0)
        on_gears = P[ON_GEARS]
        # may_beg, inlined: the temples where the player is above the bottom step
        temples = (P[TEMPLE] > -1) + 2 * (P[TEMPLE + 1] > -1) + 4 * (P[TEMPLE + 2] > -1)
        if temples and not self.begged and P[CORN] <= BEG_MAX_CORN:
            out: list[Any] = list(BEGS[temples])
            if not places and not on_gears:
                return out                       # begging is forced
            out += places
        elif not places and not on_gears:
            return special_case_options(s)
        else:
            out = places
        if on_gears:
            out += pick_options(s, seat)
        return out

    def stuck(self, s: "TzolkinState") -> bool:
        """No worker on the gears and none affordable: beg, or the rare special case."""
        P = s.p[s.cur]
        return not P[ON_GEARS] and not placement_options(s, s.cur, 0)

    def refusal(self, s: "TzolkinState", a: Any) -> Optional[Refusal]:
        P = s.p[s.cur]
        if isinstance(a, A.Beg):
            return beg_refusal(P, self.begged, TEMPLES.index(a.temple))
        if isinstance(a, (A.Place, A.PlaceStart, A.EndTurn)) and self.stuck(s):
            if may_beg(P, self.begged):
                return "Begging for corn", ("you cannot afford a worker and have none on the gears: "
                                            "you must beg for corn first")
            forced = special_case_options(s)
            if a in forced:
                return None
            spaces = ", ".join(f"{x.gear} {lowest_free(s.gears[GEARS.index(x.gear)], SPACES[GEARS.index(x.gear)])}"
                               for x in forced if isinstance(x, A.Place))
            return "Rare special case", ("you cannot afford a worker: place exactly 1 worker on a "
                                         f"cheapest space ({spaces}) and give all your corn to the bank")
        if isinstance(a, (A.Place, A.PlaceStart)):
            return worker_refusal(s, a, 0)
        if isinstance(a, A.Pick):
            return pick_refusal(s, s.cur, GEARS.index(a.gear), a.space)
        if isinstance(a, A.EndTurn):
            return "Turn", "you must place or pick up at least one worker"
        return self.not_now(a)

    def apply(self, s: "TzolkinState", a: Any) -> None:
        cls = type(a)
        if cls is Place:
            seat = s.cur
            g = GEARS_INDEX[a.gear]
            # a legal placement the player cannot afford is the rare special case
            if s.gears[g].index(EMPTY) + TARIFF[0] > s.p[seat][CORN]:
                # Rare special case: exactly 1 worker on a cheapest space; all corn to the bank.
                P = s.p[seat]
                occ = s.gears[g]
                i = lowest_free(occ, SPACES[g])
                occ[i] = seat
                insort(s.at[seat], AT_BASE[g] + i - s.day)
                P[READY] -= 1
                P[ON_GEARS] += 1
                gain_corn(s, P, -P[CORN])
                s.stack[-1] = PLACING[1][1]
            else:
                place_worker(s, g, 0)
        elif cls is Pick:
            s.stack[-1] = PICKING
            pick_worker(s, GEARS_INDEX[a.gear], a.space)
        elif cls is PlaceStart:
            place_on_start_space(s, 0)
        elif cls is A.Beg:
            # Begging: discard all corn, take 3, step down on a temple.
            P = s.p[s.cur]
            gain_corn(s, P, DATA.beg_corn_after - P[CORN])
            P[TEMPLE + TEMPLES.index(a.temple)] -= 1
            s.stack[-1] = TURN_BEGGED
        else:
            end_turn(s)


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class PlacingWorkers(Frame):
    """Placing workers: ``placed`` so far this turn (the tariff grows with each);
    ``special_case``: 1 after the rare special case (exactly one worker)."""
    placed: int
    special_case: int
    code: ClassVar[int] = K_PLACING
    kind: ClassVar[str] = "placing"
    rule: ClassVar[str] = "Placing workers"
    help: ClassVar[str] = "place more workers or end"

    def details(self) -> dict[str, Any]:
        return {"placed": self.placed, "special_case": bool(self.special_case)}

    def legal_actions(self, s: "TzolkinState") -> list[Any]:
        if self.special_case:
            return [A.END]
        out = placement_options(s, s.cur, self.placed)
        out.append(END)
        return out

    def refusal(self, s: "TzolkinState", a: Any) -> Optional[Refusal]:
        if isinstance(a, A.EndTurn):
            return None
        if isinstance(a, (A.Place, A.PlaceStart)):
            if self.special_case:
                return "Rare special case", "you may place exactly 1 worker"
            return worker_refusal(s, a, self.placed)
        if isinstance(a, A.Pick):
            return MIXED
        if isinstance(a, A.Beg):
            return beg_refusal(s.p[s.cur], 1, TEMPLES.index(a.temple))
        return self.not_now(a)

    def apply(self, s: "TzolkinState", a: Any) -> None:
        cls = type(a)
        if cls is Place:
            place_worker(s, GEARS_INDEX[a.gear], self.placed)
        elif cls is PlaceStart:
            place_on_start_space(s, self.placed)
        else:
            end_turn(s)


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class PickingWorkers(Frame):
    """Picking up workers, one at a time, each taking its action at once."""
    code: ClassVar[int] = K_PICKING
    kind: ClassVar[str] = "picking"
    rule: ClassVar[str] = "Picking up workers"
    help: ClassVar[str] = "pick up more workers or end"

    def legal_actions(self, s: "TzolkinState") -> list[Any]:
        out = pick_options(s, s.cur)
        out.append(END)
        return out

    def refusal(self, s: "TzolkinState", a: Any) -> Optional[Refusal]:
        if isinstance(a, A.EndTurn):
            return None
        if isinstance(a, A.Pick):
            return pick_refusal(s, s.cur, GEARS.index(a.gear), a.space)
        if isinstance(a, (A.Place, A.PlaceStart)):
            return MIXED
        if isinstance(a, A.Beg):
            return beg_refusal(s.p[s.cur], 1, TEMPLES.index(a.temple))
        return self.not_now(a)

    def apply(self, s: "TzolkinState", a: Any) -> None:
        if type(a) is Pick:
            pick_worker(s, GEARS_INDEX[a.gear], a.space)
        else:
            end_turn(s)


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class ChooseAction(Frame):
    """The action of the worker just picked up from ``space`` of ``gear`` (an index):
    its own action, a lower one for 1 corn a step, or nothing."""
    gear: int
    space: int
    code: ClassVar[int] = K_CHOOSE
    kind: ClassVar[str] = "choose action"
    rule: ClassVar[str] = "Picking up workers"
    help: ClassVar[str] = "choose the picked worker's action ('do GEAR N' or 'nothing')"

    def details(self) -> dict[str, Any]:
        return {"gear": GEARS[self.gear], "space": self.space}

    def legal_actions(self, s: "TzolkinState") -> list[Any]:
        P = s.p[s.cur]
        g = self.gear
        # reach, inlined: Theology 1 reaches one space ahead on Chichen Itza
        costs = ACTION_COSTS[g][self.space][g == CHICHEN and CHICHEN_AHEAD[P[TECH + THEOLOGY]] != 0]
        out: list[Any] = GEAR_DOS[g](s, P, costs, P[CORN])
        out.append(NOTHING)
        return out

    def refusal(self, s: "TzolkinState", a: Any) -> Optional[Refusal]:
        if isinstance(a, A.Nothing):
            return None
        if isinstance(a, A.Do):
            return do_refusal(s, s.cur, self.gear, self.space, a)
        if isinstance(a, A.EndTurn):
            return self.rule, "first choose the picked worker's action (or 'nothing')"
        return self.not_now(a)

    def apply(self, s: "TzolkinState", a: Any) -> None:
        s.stack.pop()
        if type(a) is Do:
            P = s.p[s.cur]
            g = self.gear
            # the corn for stepping back (reach, inlined as in legal_actions); 0 if out of reach
            cost = COST_OF[g][self.space][g == CHICHEN and CHICHEN_AHEAD[P[TECH + THEOLOGY]] != 0].get(a.space, 0)
            P[CORN] -= cost
            s.corn_out -= cost
            perform(s, g, a.space)


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class CalendarSpeed(Frame):
    """Starting Player Space: its owner, board light side up, advances the calendar 1 or
    2 days (2 turns the board dark side up)."""
    code: ClassVar[int] = K_SPEED
    kind: ClassVar[str] = "advance calendar"
    rule: ClassVar[str] = "Starting Player Space"
    help: ClassVar[str] = "advance the calendar 1 or 2 days"

    def legal_actions(self, s: "TzolkinState") -> list[Any]:
        return list(A.ADVANCE)

    def refusal(self, s: "TzolkinState", a: Any) -> Optional[Refusal]:
        return None if a in A.ADVANCE else self.not_now(a)

    def apply(self, s: "TzolkinState", a: Any) -> None:
        """Advance 1 day, or 2 with the light side of the board, which then flips dark."""
        advance_days(s, a.days)
        if a.days == 2:
            s.p[s.cur][LIGHT] = 0
        s.phase = PLAY
        start_round(s)


# ====================================================================================
# Frames of actions and effects (all resolve by themselves when the choice is forced)
# ====================================================================================
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class PalenqueHarvest(Frame):
    """Palenque 3-5 at ``space``: take corn, take wood, or burn the forest."""
    space: int
    code: ClassVar[int] = K_HARVEST
    kind: ClassVar[str] = "harvest"
    rule: ClassVar[str] = "Palenque"
    help: ClassVar[str] = "harvest corn, harvest wood or burn"
    auto: ClassVar[bool] = True

    def details(self) -> dict[str, Any]:
        return {"space": self.space}

    def legal_actions(self, s: "TzolkinState") -> list[Any]:
        P = s.p[s.cur]
        return [A.HARVEST[m] for m in range(3) if harvest_refusal(s, P, self.space, m) is None]

    def refusal(self, s: "TzolkinState", a: Any) -> Optional[Refusal]:
        if isinstance(a, A.Harvest):
            return harvest_refusal(s, s.p[s.cur], self.space, A.HARVEST.index(a))
        return self.not_now(a)

    def apply(self, s: "TzolkinState", a: Any) -> None:
        s.stack.pop()
        k = self.space
        P = s.p[s.cur]
        if a.mode == "corn":
            harvest_corn(s, P, k)
        elif a.mode == "wood":
            s.jwood[k] -= 1
            P[WTILES] += 1
            P[WOOD] += PAL_WOOD[k] + EXTRACT_BONUS[0][P[TECH + EXTRACTION]]
        else:
            # Burn the forest: the wood tile goes to the box, take the corn tile below.
            s.jwood[k] -= 1
            s.burned += 1
            harvest_corn(s, P, k)
            s.stack.append(ANGER_GODS)


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class AngerGods(Frame):
    """Angering the gods: step down on a temple of your choice."""
    code: ClassVar[int] = K_ANGER
    kind: ClassVar[str] = "anger the gods"
    rule: ClassVar[str] = "Angering the gods"
    help: ClassVar[str] = "choose a temple to step down on"
    auto: ClassVar[bool] = True

    def legal_actions(self, s: "TzolkinState") -> list[Any]:
        P = s.p[s.cur]
        return [A.ANGER[t] for t in range(3) if anger_refusal(P, t) is None]

    def refusal(self, s: "TzolkinState", a: Any) -> Optional[Refusal]:
        if isinstance(a, A.Anger):
            return anger_refusal(s.p[s.cur], TEMPLES.index(a.temple))
        return self.not_now(a)

    def apply(self, s: "TzolkinState", a: Any) -> None:
        s.stack.pop()
        s.p[s.cur][TEMPLE + TEMPLES.index(a.temple)] -= 1


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class TempleStep(Frame):
    """A step up on a temple of your choice."""
    code: ClassVar[int] = K_TEMPLE
    kind: ClassVar[str] = "temple step"
    rule: ClassVar[str] = "Temples"
    help: ClassVar[str] = "choose a temple to step up on"
    auto: ClassVar[bool] = True

    def legal_actions(self, s: "TzolkinState") -> list[Any]:
        return [A.TEMPLE[t] for t in range(3) if step_refusal(s, s.cur, t) is None]

    def refusal(self, s: "TzolkinState", a: Any) -> Optional[Refusal]:
        if isinstance(a, A.Temple):
            return step_refusal(s, s.cur, TEMPLES.index(a.temple))
        return self.not_now(a)

    def apply(self, s: "TzolkinState", a: Any) -> None:
        s.stack.pop()
        step_up(s, s.cur, TEMPLES.index(a.temple))


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class TwoTemplesStep(Frame):
    """Tikal 5: pay one block and step up on two different temples."""
    code: ClassVar[int] = K_TWO
    kind: ClassVar[str] = "two temples"
    rule: ClassVar[str] = "Tikal 5"
    help: ClassVar[str] = "choose two temples and the block to pay"
    auto: ClassVar[bool] = True

    def legal_actions(self, s: "TzolkinState") -> list[Any]:
        P = s.p[s.cur]
        held = [r for r in range(3) if block_refusal(P, r, self.rule) is None]
        return [A.TWO_TEMPLES[(a, b, r)] for a in range(3) for b in range(a + 1, 3) for r in held]

    def refusal(self, s: "TzolkinState", a: Any) -> Optional[Refusal]:
        if isinstance(a, A.TwoTemples):
            if TEMPLES.index(a.first) >= TEMPLES.index(a.second):
                return self.rule, f"name two different temples in the order {', '.join(TEMPLES)}"
            return block_refusal(s.p[s.cur], RESOURCES.index(a.pay), self.rule)
        return self.not_now(a)

    def apply(self, s: "TzolkinState", a: Any) -> None:
        s.stack.pop()
        s.p[s.cur][WOOD + RESOURCES.index(a.pay)] -= 1
        step_up(s, s.cur, TEMPLES.index(a.first))
        step_up(s, s.cur, TEMPLES.index(a.second))


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class TechAdvance(Frame):
    """Technologies: an advance on a track of your choice. ``paid``: 1 when it costs
    blocks (Tikal 1 and 3), 0 when free (buildings); ``remaining`` advances of this
    action; ``optional``: 1 when the player may stop (the second paid advance)."""
    paid: int
    remaining: int
    optional: int
    code: ClassVar[int] = K_TECH
    kind: ClassVar[str] = "technology"
    rule: ClassVar[str] = "Technologies"
    help: ClassVar[str] = "choose a technology (or stop)"
    auto: ClassVar[bool] = True

    def details(self) -> dict[str, Any]:
        return {"paid": bool(self.paid), "advances_left": self.remaining, "optional": bool(self.optional)}

    def legal_actions(self, s: "TzolkinState") -> list[Any]:
        if self.paid:
            P = s.p[s.cur]
            out: list[Any] = [A.TECH[t] for t in range(4) if tech_refusal(P, t) is None]
        else:
            out = list(A.TECH)
        if self.optional:
            out.append(A.STOP)
        return out

    def refusal(self, s: "TzolkinState", a: Any) -> Optional[Refusal]:
        if isinstance(a, A.Tech):
            return tech_refusal(s.p[s.cur], TRACKS.index(a.track)) if self.paid else None
        if isinstance(a, A.Stop) and self.optional:
            return None
        return self.not_now(a)

    def apply(self, s: "TzolkinState", a: Any) -> None:
        s.stack.pop()
        if isinstance(a, A.Stop):
            return
        track = TRACKS.index(a.track)
        P = s.p[s.cur]
        cost = TECH_COST[min(P[TECH + track], 3)] if self.paid else 0
        if self.remaining > 1:   # Tikal 3: a second advance may follow (paid ones are optional)
            s.stack.append(made(TechAdvance, self.paid, self.remaining - 1, self.paid))
        advance_tech(s, s.cur, track)
        if cost:            # pay before any bonus choice
            s.stack.append(made(PayBlocks, cost))


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class PayBlocks(Frame):
    """Technology cost: pay ``blocks`` resource blocks of your choice, one at a time
    (resolved at once when every block held must go)."""
    blocks: int
    code: ClassVar[int] = K_PAY
    kind: ClassVar[str] = "pay blocks"
    rule: ClassVar[str] = "Technology cost"
    help: ClassVar[str] = "pay a resource block"
    auto: ClassVar[bool] = True

    def details(self) -> dict[str, Any]:
        return {"blocks": self.blocks}

    def legal_actions(self, s: "TzolkinState") -> list[Any]:
        P = s.p[s.cur]
        return [A.PAY[r] for r in range(3) if block_refusal(P, r, self.rule) is None]

    def refusal(self, s: "TzolkinState", a: Any) -> Optional[Refusal]:
        if isinstance(a, A.Pay):
            return block_refusal(s.p[s.cur], RESOURCES.index(a.resource), self.rule)
        return self.not_now(a)

    def apply(self, s: "TzolkinState", a: Any) -> None:
        s.p[s.cur][WOOD + RESOURCES.index(a.resource)] -= 1
        if self.blocks > 1:
            s.stack[-1] = made(PayBlocks, self.blocks - 1)
        else:
            s.stack.pop()


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class TakeBlocks(Frame):
    """Take ``blocks`` resource blocks of your choice from the bank, one at a time."""
    blocks: int
    code: ClassVar[int] = K_GAIN
    kind: ClassVar[str] = "take blocks"
    rule: ClassVar[str] = "Resource blocks"
    help: ClassVar[str] = "take a resource block"
    auto: ClassVar[bool] = True

    def legal_actions(self, s: "TzolkinState") -> list[Any]:
        return list(A.TAKE)

    def refusal(self, s: "TzolkinState", a: Any) -> Optional[Refusal]:
        return None if isinstance(a, A.Take) else self.not_now(a)

    def apply(self, s: "TzolkinState", a: Any) -> None:
        s.p[s.cur][WOOD + RESOURCES.index(a.resource)] += 1
        if self.blocks > 1:
            s.stack[-1] = made(TakeBlocks, self.blocks - 1)
        else:
            s.stack.pop()


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Market(Frame):
    """Uxmal 2: exchanges with the market until the player stops. ``locks``: bit r set
    once resource r was bought here, bit r+3 once sold (it is not traded back)."""
    locks: int
    code: ClassVar[int] = K_MARKET
    kind: ClassVar[str] = "market"
    rule: ClassVar[str] = "Uxmal 2: market"
    help: ClassVar[str] = "buy, sell or stop"
    auto: ClassVar[bool] = True

    def details(self) -> dict[str, Any]:
        return {"bought": [RESOURCES[r] for r in range(3) if self.locks & (BOUGHT << r)],
                "sold": [RESOURCES[r] for r in range(3) if self.locks & (SOLD << r)]}

    def legal_actions(self, s: "TzolkinState") -> list[Any]:
        P = s.p[s.cur]
        locks = self.locks
        out: list[Any] = []
        for r in range(3):
            if trade_refusal(P, locks, True, r) is None:
                out.append(A.BUY[r])
            if trade_refusal(P, locks, False, r) is None:
                out.append(A.SELL[r])
        out.append(A.STOP)
        return out

    def refusal(self, s: "TzolkinState", a: Any) -> Optional[Refusal]:
        if isinstance(a, A.Trade):
            return trade_refusal(s.p[s.cur], self.locks, a.direction == "buy", RESOURCES.index(a.resource))
        return None if isinstance(a, A.Stop) else self.not_now(a)

    def apply(self, s: "TzolkinState", a: Any) -> None:
        if isinstance(a, A.Stop):
            s.stack.pop()
            return
        r = RESOURCES.index(a.resource)
        P = s.p[s.cur]
        if a.direction == "buy":
            gain_corn(s, P, -MARKET[r])
            P[WOOD + r] += 1
            s.stack[-1] = made(Market, self.locks | (BOUGHT << r))
        else:
            P[WOOD + r] -= 1
            gain_corn(s, P, MARKET[r])
            s.stack[-1] = made(Market, self.locks | (SOLD << r))


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class MirrorAction(Frame):
    """Uxmal 5 (and building A2-T4): pay 1 corn, then any action 1-5 of Palenque,
    Yaxchilan, Tikal or Uxmal (not the mirror itself). ``optional``: 1 from a building."""
    optional: int
    code: ClassVar[int] = K_MIRROR
    kind: ClassVar[str] = "mirror"
    rule: ClassVar[str] = "Uxmal 5: mirror"
    help: ClassVar[str] = "choose the mirrored action (or stop)"
    auto: ClassVar[bool] = True

    def legal_actions(self, s: "TzolkinState") -> list[Any]:
        seat = s.cur
        corn = s.p[seat][CORN] - MIRROR_CORN
        out: list[Any] = []
        if corn >= 0:
            for g in MIRROR_GEARS:
                for k in range(1, ACTIONS[g] + 1):
                    if (g, k) != (UXMAL, 5) and perform_refusal(s, seat, g, k, corn) is None:
                        out.append(A.DO[g][k])
        if self.optional:
            out.append(A.STOP)
        return out

    def refusal(self, s: "TzolkinState", a: Any) -> Optional[Refusal]:
        if isinstance(a, A.Do):
            return mirror_refusal(s, s.cur, a)
        if isinstance(a, A.Stop) and self.optional:
            return None
        return self.not_now(a)

    def apply(self, s: "TzolkinState", a: Any) -> None:
        s.stack.pop()
        if isinstance(a, A.Do):
            gain_corn(s, s.p[s.cur], -MIRROR_CORN)
            perform(s, GEARS.index(a.gear), a.space)


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class TheologyOffer(Frame):
    """Theology 2: after Chichen Itza, pay a block for a temple step (or not)."""
    code: ClassVar[int] = K_OFFER
    kind: ClassVar[str] = "offering"
    rule: ClassVar[str] = "Theology 2"
    help: ClassVar[str] = "offer a block to a temple, or stop"
    auto: ClassVar[bool] = True

    def legal_actions(self, s: "TzolkinState") -> list[Any]:
        P = s.p[s.cur]
        held = [r for r in range(3) if block_refusal(P, r, self.rule) is None]
        out: list[Any] = [A.OFFER[t][r] for t in range(3) if step_refusal(s, s.cur, t) is None
                          for r in held]
        out.append(A.STOP)
        return out

    def refusal(self, s: "TzolkinState", a: Any) -> Optional[Refusal]:
        if isinstance(a, A.Offer):
            return (block_refusal(s.p[s.cur], RESOURCES.index(a.pay), self.rule)
                    or step_refusal(s, s.cur, TEMPLES.index(a.temple)))
        return None if isinstance(a, A.Stop) else self.not_now(a)

    def apply(self, s: "TzolkinState", a: Any) -> None:
        s.stack.pop()
        if isinstance(a, A.Offer):
            s.p[s.cur][WOOD + RESOURCES.index(a.pay)] -= 1
            step_up(s, s.cur, TEMPLES.index(a.temple))


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class BuildStep(Frame):
    """Buildings: construct one from the row. ``mode``: Tikal (2 and 4, blocks), Uxmal 4
    (corn) or A1-T3's extra building; ``built`` buildings already in this action,
    ``architecture_used``: 1 once architecture applied to one of them, ``most``
    buildings the action allows, ``monument``: 1 when a monument may be built instead
    (Tikal 4, as its only construction), ``optional``: 1 when the player may stop."""
    mode: int
    built: int
    architecture_used: int
    most: int
    monument: int
    optional: int
    code: ClassVar[int] = K_BUILD
    kind: ClassVar[str] = "build"
    rule: ClassVar[str] = "Buildings"
    help: ClassVar[str] = "choose a building (or stop)"
    auto: ClassVar[bool] = True

    def details(self) -> dict[str, Any]:
        return {"mode": BUILD_MODES[self.mode], "built": self.built,
                "architecture_used": bool(self.architecture_used), "most": self.most,
                "monument": bool(self.monument)}

    def architecture_available(self, s: "TzolkinState", level: int) -> bool:
        """Whether the architecture effects can still apply to a building of this action."""
        if level == 0 or self.architecture_used:
            return False
        return self.mode != B_EXTRA or bool(s.options.get("a1t3_architecture", False))

    def _terms(self, s: "TzolkinState", P: list[int]) -> tuple[bool, bool]:
        """(a block is waived, architecture may be kept for the second building)."""
        level = P[TECH + ARCHITECTURE]
        avail = self.architecture_available(s, level)
        return (avail and bool(WAIVE[level]),
                avail and self.mode == B_TIKAL and self.most == 2 and self.built == 0)

    def legal_actions(self, s: "TzolkinState") -> list[Any]:
        P = s.p[s.cur]
        out: list[Any] = []
        if self.mode == B_UXMAL:
            out = [build_action(t) for t in row_types(s)
                   if uxmal_build_refusal(s, P, t, -1, True) is None]
        else:
            waive_ok, keep_ok = self._terms(s, P)
            extra = self.mode == B_EXTRA
            for t in row_types(s):
                for waive, arch in ((0, True), (1, True), (2, True), (-1, True), (-1, False)):
                    if block_build_refusal(P, t, waive, arch, waive_ok, keep_ok, extra) is None:
                        out.append(build_action(t, waive, arch))
            if self.monument:
                out += [BUILD_MON[m] for m in s.monument_row
                        if m >= 0 and monument_refusal(s, P, m) is None]
        if self.optional:
            out.append(A.STOP)
        return out

    def refusal(self, s: "TzolkinState", a: Any) -> Optional[Refusal]:
        P = s.p[s.cur]
        if isinstance(a, A.BuildMonument):
            if not self.monument:
                return "Monuments", "a monument can only be built with Tikal action 4, as its only construction"
            return monument_refusal(s, P, MONUMENT_INDEX[a.monument])
        if isinstance(a, A.Build):
            t = BUILDING_INDEX[a.building]
            if t not in row_types(s):
                return self.rule, f"{a.building} is not on offer"
            waive = RESOURCES.index(a.waive) if a.waive else -1
            if self.mode == B_UXMAL:
                return uxmal_build_refusal(s, P, t, waive, a.arch)
            waive_ok, keep_ok = self._terms(s, P)
            return block_build_refusal(P, t, waive, a.arch, waive_ok, keep_ok, self.mode == B_EXTRA)
        if isinstance(a, A.Stop) and self.optional:
            return None
        return self.not_now(a)

    def apply(self, s: "TzolkinState", a: Any) -> None:
        s.stack.pop()
        if isinstance(a, A.Stop):
            return
        seat = s.cur
        P = s.p[seat]
        if isinstance(a, A.BuildMonument):
            build_monument(s, seat, MONUMENT_INDEX[a.monument])
            return
        btype = BUILDING_INDEX[a.building]
        level = P[TECH + ARCHITECTURE]
        slot = next(i for i, inst in enumerate(s.display) if inst >= 0 and INSTANCE_TYPE[inst] == btype)
        if self.mode == B_UXMAL:
            apply_arch = level > 0
            gain_corn(s, P, -uxmal_price(s, btype, level))
        else:
            apply_arch = a.arch and self.architecture_available(s, level)
            cost = list(BCOST[btype])
            if apply_arch and a.waive:
                cost[RESOURCES.index(a.waive)] -= 1
            P[WOOD] -= cost[0]
            P[WOOD + 1] -= cost[1]
            P[WOOD + 2] -= cost[2]
        s.built[seat].append(s.display[slot])
        s.display[slot] = EMPTY
        if self.mode == B_TIKAL and self.built + 1 < self.most:
            s.stack.append(made(BuildStep, B_TIKAL, self.built + 1, int(self.architecture_used or apply_arch),
                                     self.most, 0, 1))
        if apply_arch:
            gain_corn(s, P, BUILD_CORN[level])
            P[VP] += BUILD_VP[level]
        gain_building(s, seat, btype)


# --- frames are made once per value: a frozen dataclass is slow to construct ----------
_MADE: dict[tuple[Any, ...], Frame] = {}


def made(cls: type[Frame], *fields: int) -> Any:
    """The frame ``cls(*fields)``, made once and shared (frames never change)."""
    key = (cls, *fields)
    frame = _MADE.get(key)
    if frame is None:
        frame = _MADE[key] = cls(*fields)
    return frame


# --- the frames without fields, and the common ones, made once -----------------------
DRAFT_TILES = DraftTiles()
TURN_START = TurnStart(0)
TURN_BEGGED = TurnStart(1)
PLACING = tuple((PlacingWorkers(n, 0), PlacingWorkers(n, 1)) for n in range(len(TARIFF) + 1))
PICKING = PickingWorkers()
CHOOSE = tuple(tuple(ChooseAction(g, pos) for pos in range(SPACES[g] + 1)) for g in range(len(GEARS)))
ANGER_GODS = AngerGods()
TEMPLE_STEP = TempleStep()
TWO_TEMPLES = TwoTemplesStep()
OFFERING_STEP = TheologyOffer()
CALENDAR_SPEED = CalendarSpeed()
MARKET_OPEN = made(Market, 0)

FRAME_TYPES: tuple[type[Frame], ...] = (
    DraftTiles, TurnStart, PlacingWorkers, PickingWorkers, ChooseAction, PalenqueHarvest,
    AngerGods, TempleStep, TwoTemplesStep, TechAdvance, PayBlocks, BuildStep, TakeBlocks, Market,
    MirrorAction, TheologyOffer, CalendarSpeed)
"""Every frame class, in the order of their ``code`` (``FRAME_NAMES``)."""


# ====================================================================================
# Turn flow (rules 6-8, 16)
# ====================================================================================
def start_turn(s: "TzolkinState", seat: int) -> None:
    s.cur = seat
    s.stack = [TURN_START]


def start_round(s: "TzolkinState") -> None:
    s.turn_index = 0
    start_turn(s, s.start_player)


def end_turn(s: "TzolkinState") -> None:
    """End of turn: refill the building row; the Starting Player Space corn is taken."""
    if EMPTY in s.display:
        refill_display(s)
    if s.sps == s.cur and s.sps_corn:
        s.p[s.cur][CORN] += s.sps_corn
        s.sps_corn = 0
    s.turn_index += 1
    if s.turn_index < s.num_players:
        s.cur = (s.start_player + s.turn_index) % s.num_players     # start_turn, inlined
        s.stack = [TURN_START]
    else:
        end_round(s)


def food_day_due(s: "TzolkinState") -> bool:
    """This round is a Food Day (also one skipped by a 2-day speed-up: it happens late)."""
    return s.food_done < 4 and s.day >= FOOD_DAYS[s.food_done]


def end_round(s: "TzolkinState") -> None:
    """After every turn: the Food Day, then the calendar advances (rules 8, 16)."""
    if s.food_done < 4 and s.day >= FOOD_DAYS[s.food_done]:     # food_day_due, inlined
        food_day(s)
    if s.food_done == 4:
        finish_game(s)
        return
    owner = s.sps
    if owner == EMPTY:
        s.sps_corn += 1            # 1 corn from the bank onto the current tooth
        s.corn_out += 1
        advance_days(s, 1)
        s.turn_index = 0           # start_round, inlined
        s.cur = s.start_player
        s.stack = [TURN_START]
        return
    take_start_player_worker(s)
    if s.p[owner][LIGHT] and speed_up_allowed(s):
        s.phase = SPEED
        s.cur = owner
        s.stack = [CALENDAR_SPEED]
        return
    advance_days(s, 1)
    s.turn_index = 0               # start_round, inlined
    s.cur = s.start_player
    s.stack = [TURN_START]


def take_start_player_worker(s: "TzolkinState") -> None:
    """The worker returns; its owner takes the Starting Player Marker, or passes it
    to the left when already holding it."""
    owner = s.sps
    s.sps = EMPTY
    s.p[owner][READY] += 1
    s.start_player = owner if owner != s.start_player else (owner + 1) % s.num_players


def speed_up_allowed(s: "TzolkinState") -> bool:
    """No player's worker may stand on space 6 (small gears) or 9 (Chichen Itza)."""
    for g, occ in enumerate(s.gears):
        if 0 <= occ[LAST_NORMAL[g]] < DUMMY:
            return False
    return True


def advance_days(s: "TzolkinState", days: int) -> None:
    """Turn the calendar: every worker moves up one space per day; a player's worker
    leaving the highest space returns to its owner; dummies ride round forever."""
    for _ in range(days):
        for g, occ in enumerate(s.gears):   # (enumerate, not zip with SPACES: measured faster)
            occ.insert(0, occ.pop())
            top = SPACES[g]
            who = occ[top]
            if 0 <= who < DUMMY:
                occ[top] = EMPTY
                s.at[who].remove(AT_LAST[g] - s.day)     # it stood on the last space
                P = s.p[who]
                P[READY] += 1
                P[ON_GEARS] -= 1
        s.day += 1


def finish_game(s: "TzolkinState") -> None:
    """After the last Food Day the gear turns once more (tie-break), then final scoring."""
    if s.sps != EMPTY:
        owner = s.sps
        s.sps = EMPTY
        s.p[owner][READY] += 1
    advance_days(s, 1)
    s.phase = OVER
    s.stack = []
    s.cur = EMPTY


def draft_order(s: "TzolkinState") -> list[int]:
    return [(s.start_player + i) % s.num_players for i in range(s.num_players)]


# ====================================================================================
# Workers
# ====================================================================================
def place_worker(s: "TzolkinState", g: int, placed: int) -> None:
    """Lowest free space; cost = space number + this worker's tariff."""
    seat = s.cur
    P = s.p[seat]
    occ = s.gears[g]
    i = occ.index(EMPTY)             # a legal placement: a free space below the last one
    cost = i + TARIFF[placed]
    P[CORN] -= cost
    s.corn_out -= cost
    occ[i] = seat
    insort(s.at[seat], AT_BASE[g] + i - s.day)
    P[READY] -= 1
    P[ON_GEARS] += 1
    s.stack[-1] = PLACING[placed + 1][0]


def place_on_start_space(s: "TzolkinState", placed: int) -> None:
    """As if an action space 0: only the tariff is paid."""
    P = s.p[s.cur]
    gain_corn(s, P, -TARIFF[placed])
    s.sps = s.cur
    P[READY] -= 1
    s.stack[-1] = PLACING[placed + 1][0]


def pick_worker(s: "TzolkinState", g: int, pos: int) -> None:
    P = s.p[s.cur]
    s.gears[g][pos] = EMPTY
    s.at[s.cur].remove(AT_BASE[g] + pos - s.day)
    P[READY] += 1
    P[ON_GEARS] -= 1
    s.stack.append(CHOOSE[g][pos])


# ====================================================================================
# Actions of the gears (rules 9)
# ====================================================================================
def perform(s: "TzolkinState", g: int, k: int) -> None:
    """Carry out action ``k`` of gear ``g`` for the current player."""
    seat = s.cur
    P = s.p[seat]
    if g == PALENQUE:
        if k == 1:      # fishing
            gain_corn(s, P, PAL_CORN[1] + FISHING_BONUS[P[TECH + AGRICULTURE]])
        elif k == 2:    # corn-only fields
            harvest_corn(s, P, 2)
        else:
            s.stack.append(made(PalenqueHarvest, k))
    elif g == YAXCHILAN:
        corn, wood, stone, gold, skull = YAX_GAIN[k - 1]
        ext = P[TECH + EXTRACTION]
        gain_corn(s, P, corn)
        for r, n in enumerate((wood, stone, gold)):
            if n:   # Extraction adds one of the same resource at Yaxchilan
                P[WOOD + r] += n + EXTRACT_BONUS[r][ext]
        if skull:   # Theology 3: one more skull here
            gain_skulls(s, P, skull + YAX_SKULL[P[TECH + THEOLOGY]])
    elif g == TIKAL:
        spec = ACT[TIKAL][k - 1]
        if spec["kind"] == "tech":
            s.stack.append(made(TechAdvance, 1, spec["advances"], 0))
        elif spec["kind"] == "build":
            s.stack.append(made(BuildStep, B_TIKAL, 0, 0, spec["buildings"], int(spec["monument"]), 0))
        else:
            s.stack.append(TWO_TEMPLES)
    elif g == UXMAL:
        if k == 1:
            gain_corn(s, P, -UXMAL_TEMPLE_CORN)
            s.stack.append(TEMPLE_STEP)
        elif k == 2:
            s.stack.append(MARKET_OPEN)
        elif k == 3:
            gain_workers(P, 1)
        elif k == 4:
            s.stack.append(made(BuildStep, B_UXMAL, 0, 0, 1, 0, 0))
        else:
            s.stack.append(made(MirrorAction, 0))
    else:
        perform_chichen(s, seat, k)


def perform_chichen(s: "TzolkinState", seat: int, k: int) -> None:
    """Leave a skull on the slot: VP, a temple step, maybe a block; Theology 2 offering."""
    P = s.p[seat]
    vp, temple, block = CHI[k]
    P[SKULL] -= 1
    s.skull_slots[k] = seat
    P[VP] += vp
    step_up(s, seat, temple)
    if OFFERING[P[TECH + THEOLOGY]]:
        s.stack.append(OFFERING_STEP)
    if block:
        s.stack.append(made(TakeBlocks, 1))


def harvest_corn(s: "TzolkinState", P: list[int], k: int) -> None:
    """Take a visible Corn Harvest Tile (or, with irrigation, just the corn)."""
    if s.jcorn[k] > s.jwood[k]:
        s.jcorn[k] -= 1
        P[CTILES] += 1
    gain_corn(s, P, PAL_CORN[k] + HARVEST_BONUS[P[TECH + AGRICULTURE]])


def build_monument(s: "TzolkinState", seat: int, m: int) -> None:
    """Pay the cost (never reduced by architecture); a skull in the cost stays on it."""
    P = s.p[seat]
    w, st, g = MCOST[m]
    P[WOOD] -= w
    P[WOOD + 1] -= st
    P[WOOD + 2] -= g
    P[SKULL] -= MSKULL[m]
    s.monument_skulls += MSKULL[m]
    s.monument_row[s.monument_row.index(m)] = EMPTY
    s.monuments[seat].append(m)


# ====================================================================================
# Technologies and buildings: effects that may leave choices (rules 11, 12)
# ====================================================================================
def advance_tech(s: "TzolkinState", seat: int, track: int) -> None:
    """Advance one level; at level 3 take the track's bonus instead (repeatable)."""
    P = s.p[seat]
    if P[TECH + track] < 3:
        P[TECH + track] += 1
        return
    kind, count = BONUS[track]
    if kind == "temple":          # Agriculture: a step on a temple of your choice
        for _ in range(count):
            s.stack.append(TEMPLE_STEP)
    elif kind == "blocks":        # Extraction: resource blocks of your choice
        s.stack.append(made(TakeBlocks, count))
    elif kind == "vp":            # Architecture
        P[VP] += count
    else:                         # Theology: crystal skulls from the supply
        gain_skulls(s, P, count)


def gain_building(s: "TzolkinState", seat: int, btype: int) -> None:
    """Everything a newly built building gives, now or as pending choices.

    Goods, VP, fixed temple steps and fixed technology advances happen at once;
    choices are pushed so that they resolve in the order: bonuses of fixed
    advances, temple steps of your choice, technology advances of your choice,
    market, mirror, and last the extra building (A1-T3).
    """
    eff = DATA.buildings[btype].effects
    P = s.p[seat]
    gain_goods(s, P, eff.get("gain", {}))
    P[VP] += eff.get("vp", 0)
    P[FARM_FREE] += eff.get("farm_free", 0)
    P[FARM_DISC] += eff.get("farm_discount", 0)
    if "workers" in eff:
        gain_workers(P, eff["workers"])
    if "build_another" in eff:
        s.stack.append(made(BuildStep, B_EXTRA, 0, 0, 1, 0, 1))
    if "mirror" in eff:
        s.stack.append(made(MirrorAction, 1))
    if "market" in eff:
        s.stack.append(MARKET_OPEN)
    if "any_tech" in eff:
        s.stack.append(made(TechAdvance, 0, eff["any_tech"], 0))
    for _ in range(eff.get("any_temple", 0)):
        s.stack.append(TEMPLE_STEP)
    for name, n in eff.get("temples", {}).items():
        for _ in range(n):
            step_up(s, seat, TEMPLES.index(name))
    for name, n in eff.get("techs", {}).items():
        for _ in range(n):
            advance_tech(s, seat, TRACKS.index(name))


# ====================================================================================
# Driving the stack
# ====================================================================================
def apply_action(s: "TzolkinState", a: Any) -> None:
    """Apply a legal action, then settle the forced steps that follow."""
    s.stack[-1].apply(s, a)
    settle(s)


def settle(s: "TzolkinState") -> None:
    """Resolve frames without a real choice and cache the legal actions of the next one."""
    while s.phase != OVER:
        fr = s.stack[-1]
        if not fr.auto:                  # a real decision (turn, placing, picking, ...)
            s._legal = fr.legal_actions(s)
            return
        if type(fr) is PayBlocks and blocks(s.p[s.cur]) == fr.blocks:
            P = s.p[s.cur]           # every block must go: no choice left
            P[1] = P[2] = P[3] = 0
            s.stack.pop()
            continue
        opts = fr.legal_actions(s)
        if len(opts) <= 1:
            if opts:
                fr.apply(s, opts[0])
            else:
                s.stack.pop()        # a privilege that cannot be used is wasted
            continue
        s._legal = opts
        return
    s._legal = []


def current_options(s: "TzolkinState") -> list[Any]:
    """Legal actions of the top frame without resolving anything (used on views)."""
    if s.phase == OVER or not s.stack:
        return []
    return s.stack[-1].legal_actions(s)


def explain(s: "TzolkinState", a: Any) -> IllegalAction:
    """The :class:`IllegalAction` naming the rule that refuses ``a`` now."""
    if s.phase == OVER or not s.stack:
        return IllegalAction("end of game", "the game is over", a)
    return s.stack[-1].why_illegal(s, a)

"""Why an action is illegal: the rule that forbids it, in words a player understands.

:func:`explain` is only called for an action that is not in the legal list; it
looks at the pending decision frame and names the rule (a section of the rulebook)
and the concrete reason (what it costs, what the player has, who holds the space).

>>> from mayagames.tzolkin.positions import blank, set_goods, put_worker
>>> s = blank(2)
>>> put_worker(s, 1, "tikal", 3)
>>> explain(s, s.parse_action("pick tikal 3"))
('Picking up workers', 'the worker on tikal space 3 belongs to P1; you may only pick up your own')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import actions as A
from .components import (ARCHITECTURE, BUILDING_INDEX, DATA, GEARS, MONUMENT_INDEX,
                         PALENQUE, RESOURCES, TEMPLES, TIKAL, TRACKS, UXMAL, YAXCHILAN)
from .effects import blocks, can_step_up
from .layout import (ACTIONS, B_EXTRA, B_UXMAL, CORN, DUMMY, EMPTY, IRRIGATION, K_ANGER, K_BUILD,
                     K_CHOOSE, K_DRAFT, K_GAIN, K_HARVEST, K_MARKET, K_MIRROR, K_OFFER, K_PAY,
                     K_PICKING, K_PLACING, K_SPEED, K_TECH, K_TEMPLE, K_TURN, K_TWO, MIRROR_GEARS,
                     ON_GEARS, OVER, READY, SKULL, SPACES, TECH, TECH_COST, TEMPLE, TEMPLE_TOP,
                     WOOD, WORKERS)
from .texts import cost_text as _short_cost
from .rules import (BCOST, MARKET, MCOST, MIRROR_CORN, MSKULL, TARIFF, UXMAL_TEMPLE_CORN,
                    action_costs, arch_available, lowest_free, may_beg, placement_options, row_types, special_case_options, uxmal_price)

if TYPE_CHECKING:
    from .state import TzolkinState

Frame = tuple[Any, ...]

FRAME_HELP = {
    K_DRAFT: "keep 2 starting tiles", K_TURN: "beg, place or pick up workers",
    K_PLACING: "place more workers or end", K_PICKING: "pick up more workers or end",
    K_CHOOSE: "choose the picked worker's action ('do GEAR N' or 'nothing')",
    K_HARVEST: "harvest corn, harvest wood or burn", K_ANGER: "choose a temple to step down on",
    K_TEMPLE: "choose a temple to step up on", K_TWO: "choose two temples and the block to pay",
    K_TECH: "choose a technology (or stop)", K_PAY: "pay a resource block",
    K_BUILD: "choose a building (or stop)", K_GAIN: "take a resource block",
    K_MARKET: "buy, sell or stop", K_MIRROR: "choose the mirrored action (or stop)",
    K_OFFER: "offer a block to a temple, or stop", K_SPEED: "advance the calendar 1 or 2 days",
}
# The rule each decision frame belongs to (named when an action of the wrong kind is tried).
FRAME_RULE = {
    K_DRAFT: "Setup: starting wealth tiles", K_TURN: "Turn", K_PLACING: "Placing workers",
    K_PICKING: "Picking up workers", K_CHOOSE: "Picking up workers", K_HARVEST: "Palenque",
    K_ANGER: "Angering the gods", K_TEMPLE: "Temples", K_TWO: "Tikal 5", K_TECH: "Technologies",
    K_PAY: "Technology cost", K_BUILD: "Buildings", K_GAIN: "Resource blocks",
    K_MARKET: "Uxmal 2: market", K_MIRROR: "Uxmal 5: mirror", K_OFFER: "Theology 2",
    K_SPEED: "Starting Player Space",
}


def who(code: int) -> str:
    return "a dummy worker" if code == DUMMY else f"P{code}"


def cost_text(cost: tuple[int, ...], skull: int = 0) -> str:
    """A cost in words for a message (:mod:`.texts`, long register)."""
    return _short_cost(cost, skull, short=False)


def goods_text(P: list[int]) -> str:
    return f"{P[WOOD]} wood, {P[WOOD + 1]} stone, {P[WOOD + 2]} gold"


# ====================================================================================
def explain(s: "TzolkinState", a: Any) -> tuple[str, str]:
    """(rule, message) saying why ``a`` is not legal now."""
    if s.phase == OVER:
        return "end of game", "the game is over"
    fr = s.stack[-1]
    kind = fr[0]
    special = EXPLAIN.get(kind)
    if special is not None:
        found = special(s, fr, a)
        if found is not None:
            return found
    if isinstance(a, A.Stop):
        return FRAME_RULE[kind], f"this choice cannot be skipped; now: {FRAME_HELP[kind]}"
    return FRAME_RULE[kind], f"not now; {FRAME_HELP[kind]}"


def explain_draft(s: "TzolkinState", fr: Frame, a: Any) -> tuple[str, str] | None:
    if not isinstance(a, A.Keep):
        return "Setup: starting wealth tiles", "first keep 2 of your 4 dealt starting tiles"
    return "Setup: starting wealth tiles", "you may only keep 2 of the 4 tiles dealt to you"


def explain_turn(s: "TzolkinState", fr: Frame, a: Any) -> tuple[str, str] | None:
    seat = s.cur
    P = s.p[seat]
    kind = fr[0]
    if isinstance(a, A.Beg):
        if kind != K_TURN or fr[1]:
            return "Begging for corn", "you may beg only once, at the start of your turn"
        if P[CORN] > DATA.beg_max_corn:
            return "Begging for corn", f"you have {P[CORN]} corn; begging needs 2 or fewer"
        return "Angering the gods", f"you are already on the bottom step of {a.temple}"
    if isinstance(a, (A.Place, A.PlaceStart)):
        return explain_place(s, fr, a)
    if isinstance(a, A.Pick):
        if kind == K_PLACING:
            return "Turn", "you cannot place and pick up workers in the same turn"
        g = GEARS.index(a.gear)
        if a.space >= SPACES[g]:
            return "Picking up workers", f"{a.gear} has no space {a.space}"
        occupant = s.gears[g][a.space]
        if occupant == EMPTY:
            return "Picking up workers", f"there is no worker on {a.gear} space {a.space}"
        return "Picking up workers", (f"the worker on {a.gear} space {a.space} belongs to "
                                      f"{who(occupant)}; you may only pick up your own")
    if isinstance(a, A.EndTurn):
        if kind == K_TURN and not P[ON_GEARS] and not placement_options(s, seat, 0) and may_beg(P, fr[1]):
            return "Begging for corn", "you cannot afford a worker and have none on the gears: beg first"
        return "Turn", "you must place or pick up at least one worker"
    return None


def explain_place(s: "TzolkinState", fr: Frame, a: Any) -> tuple[str, str]:
    seat = s.cur
    P = s.p[seat]
    kind = fr[0]
    if kind == K_PICKING:
        return "Turn", "you cannot place and pick up workers in the same turn"
    if kind == K_PLACING and fr[2]:
        return "Rare special case", "you may place exactly 1 worker"
    if P[READY] == 0:
        return "Placing workers", "you have no available worker (not on a gear, not in the bank)"
    if kind == K_TURN and not P[ON_GEARS] and not placement_options(s, seat, 0):
        if may_beg(P, fr[1]):
            return "Begging for corn", ("you cannot afford a worker and have none on the gears: "
                                        "you must beg for corn first")
        spaces = ", ".join(f"{x.gear} {lowest_free(s.gears[GEARS.index(x.gear)], SPACES[GEARS.index(x.gear)])}"
                           for x in special_case_options(s) if isinstance(x, A.Place))
        return "Rare special case", ("you cannot afford a worker: place exactly 1 worker on a "
                                     f"cheapest space ({spaces}) and give all your corn to the bank")
    placed = fr[1] if kind == K_PLACING else 0
    if isinstance(a, A.PlaceStart):
        if s.sps != EMPTY:
            return "Starting Player Space", f"it already holds a worker of {who(s.sps)}"
        return "Placement cost", f"this worker's tariff is {TARIFF[placed]} corn; you have {P[CORN]}"
    g = GEARS.index(a.gear)
    i = lowest_free(s.gears[g], SPACES[g])
    if i < 0:
        return "Placing workers", f"{a.gear} has no free space"
    return "Placement cost", (f"space {i} of {a.gear} costs {i + TARIFF[placed]} corn "
                              f"({i} + tariff {TARIFF[placed]}); you have {P[CORN]}")


def explain_choose(s: "TzolkinState", fr: Frame, a: Any) -> tuple[str, str] | None:
    if isinstance(a, A.EndTurn):
        return "Picking up workers", "first choose the picked worker's action (or 'nothing')"
    if not isinstance(a, A.Do):
        return None
    _, g, pos = fr
    P = s.p[s.cur]
    if a.gear != GEARS[g]:
        return "Picking up workers", f"the worker was on {GEARS[g]}: only its actions are possible"
    costs = dict(action_costs(P, g, pos))
    if a.space not in costs:
        return "Picking up workers", (f"from space {pos} you may use that action or a lower one, "
                                      "paying 1 corn per step (free choice spaces allow any)")
    if costs[a.space] > P[CORN]:
        return "Picking up workers", (f"stepping back to {a.space} costs {costs[a.space]} corn; "
                                      f"you have {P[CORN]}")
    return why_not_perform(s, g, a.space, P[CORN] - costs[a.space])


def why_not_perform(s: "TzolkinState", g: int, k: int, corn: int) -> tuple[str, str]:
    """The reason action ``k`` of gear ``g`` does nothing for the current player."""
    P = s.p[s.cur]
    name = f"{DATA.gears[g].title} {k}"
    if g == PALENQUE:
        return name, "no Corn Harvest Tile is visible there (Agriculture 2 would allow it) and no wood is left"
    if g == YAXCHILAN:
        return name, "no crystal skull is left in the supply"
    if g == TIKAL:
        if k in (1, 3):
            need = min(TECH_COST[min(P[TECH + t], 3)] for t in range(4))
            return "Technology cost", f"the cheapest advance costs {need} block(s); you have {blocks(P)}"
        if k in (2, 4):
            what = "building or monument" if k == 4 else "building"
            return "Buildings", f"no {what} on offer that you can pay for ({goods_text(P)})"
        return name, "you need 1 resource block to pay"
    if g == UXMAL:
        if k == 1:
            return name, f"a temple step costs {UXMAL_TEMPLE_CORN} corn; you have {corn}"
        if k == 2:
            return "Uxmal 2: market", "you have nothing to exchange (corn or resource blocks)"
        if k == 3:
            return name, f"you already have {P[WORKERS]} workers; the bank has none left for you"
        if k == 4:
            level = P[TECH + ARCHITECTURE]
            prices = [uxmal_price(s, t, level) for t in row_types(s)]
            cheapest = f"the cheapest costs {min(prices)} corn" if prices else "no building is on offer"
            return name, f"{cheapest}; you have {corn}"
        return name, f"the mirror costs {MIRROR_CORN} corn; you have {corn}"
    if not P[SKULL]:
        return name, "you need a crystal skull to leave on Chichen Itza"
    return name, f"its skull slot is already filled by {who(s.skull_slots[k])}"


def explain_mirror(s: "TzolkinState", fr: Frame, a: Any) -> tuple[str, str] | None:
    if not isinstance(a, A.Do):
        return None
    g = GEARS.index(a.gear)
    if g not in MIRROR_GEARS or (g, a.space) == (UXMAL, 5) or not 1 <= a.space <= ACTIONS[g]:
        return "Uxmal 5: mirror", ("the mirror performs one action 1-5 of Palenque, Yaxchilan, "
                                   "Tikal or Uxmal (not Chichen Itza, not the mirror itself)")
    corn = s.p[s.cur][CORN] - MIRROR_CORN
    if corn < 0:
        return "Uxmal 5: mirror", f"the mirror costs {MIRROR_CORN} corn; you have none"
    return why_not_perform(s, g, a.space, corn)


def explain_build(s: "TzolkinState", fr: Frame, a: Any) -> tuple[str, str] | None:
    if not isinstance(a, (A.Build, A.BuildMonument)):
        return None
    _, mode, built, _, _, monument_ok, _ = fr
    P = s.p[s.cur]
    if isinstance(a, A.BuildMonument):
        m = MONUMENT_INDEX[a.monument]
        if not monument_ok:
            return "Monuments", "a monument can only be built with Tikal action 4, as its only construction"
        if m not in s.monument_row:
            return "Monuments", f"{a.monument} is not on offer"
        return "Monuments", (f"{a.monument} costs {cost_text(MCOST[m], MSKULL[m])}; you have "
                             f"{goods_text(P)}, {P[SKULL]} skull(s)")
    t = BUILDING_INDEX[a.building]
    if t not in row_types(s):
        return "Buildings", f"{a.building} is not on offer"
    level = P[TECH + ARCHITECTURE]
    if mode == B_UXMAL:
        if a.waive or not a.arch:
            return "Uxmal 4", "at Uxmal 4 you pay corn; architecture applies as it is (no block to waive)"
        return "Uxmal 4", f"{a.building} costs {uxmal_price(s, t, level)} corn here; you have {P[CORN]}"
    avail = arch_available(s, fr, level)
    if a.waive and not (avail and level >= 3):
        return "Architecture", ("a block is waived only with Architecture 3, at Tikal, on one building "
                                "of the action" + (" (not A1-T3's extra building)" if mode == B_EXTRA else ""))
    if not a.arch and not (avail and built == 0 and fr[4] == 2):
        return "Architecture", "only the first building of Tikal 4 may keep architecture for the second"
    return "Buildings", f"{a.building} costs {cost_text(BCOST[t])}; you have {goods_text(P)}"


def explain_tech(s: "TzolkinState", fr: Frame, a: Any) -> tuple[str, str] | None:
    if not isinstance(a, A.Tech):
        return None
    P = s.p[s.cur]
    t = TRACKS.index(a.track)
    need = TECH_COST[min(P[TECH + t], 3)]
    what = f"the {a.track} bonus" if P[TECH + t] >= 3 else f"{a.track} level {P[TECH + t] + 1}"
    return "Technology cost", f"{what} costs {need} block(s); you have {blocks(P)}"


def explain_pay(s: "TzolkinState", fr: Frame, a: Any) -> tuple[str, str] | None:
    if isinstance(a, A.Pay):
        return "Technology cost", f"you have no {a.resource} to pay with"
    return None


def explain_market(s: "TzolkinState", fr: Frame, a: Any) -> tuple[str, str] | None:
    if not isinstance(a, A.Trade):
        return None
    P = s.p[s.cur]
    r = RESOURCES.index(a.resource)
    if a.direction == "buy":
        if P[CORN] < MARKET[r]:
            return "Uxmal 2: market", f"{a.resource} costs {MARKET[r]} corn; you have {P[CORN]}"
        return "Uxmal 2: market", f"you sold {a.resource} in this market; buying it back gains nothing"
    if not P[WOOD + r]:
        return "Uxmal 2: market", f"you have no {a.resource} to sell"
    return "Uxmal 2: market", f"you bought {a.resource} in this market; selling it back gains nothing"


def explain_temples(s: "TzolkinState", fr: Frame, a: Any) -> tuple[str, str] | None:
    P = s.p[s.cur]
    if isinstance(a, (A.TwoTemples, A.Offer)) and not P[WOOD + RESOURCES.index(a.pay)]:
        rule = "Tikal 5" if isinstance(a, A.TwoTemples) else "Theology 2"
        return rule, f"you have no {a.pay} to pay with"
    if isinstance(a, (A.Temple, A.Offer)):
        t = TEMPLES.index(a.temple)
        if not can_step_up(s, s.cur, t):
            held = "you are on its top step" if P[TEMPLE + t] == TEMPLE_TOP[t] else \
                "its top step is held by another player"
            return "Temples", f"you cannot climb {a.temple}: {held}"
    return None


def explain_anger(s: "TzolkinState", fr: Frame, a: Any) -> tuple[str, str] | None:
    if isinstance(a, A.Anger):
        return "Angering the gods", f"you are already on the bottom step of {a.temple}"
    return None


def explain_harvest(s: "TzolkinState", fr: Frame, a: Any) -> tuple[str, str] | None:
    if not isinstance(a, A.Harvest):
        return None
    k = fr[1]
    if a.mode == "corn":
        agri = IRRIGATION[s.p[s.cur][TECH]]
        return f"Palenque {k}", ("no Corn Harvest Tile is visible here (all covered by wood or taken)"
                                 + ("" if agri else "; Agriculture 2 would let you take the corn anyway"))
    if s.jwood[k] == 0:
        return f"Palenque {k}", "no Wood Harvest Tile is left here"
    return "Burn the forest", "you are on the bottom step of every temple and cannot anger the gods"


EXPLAIN = {
    K_DRAFT: explain_draft, K_TURN: explain_turn, K_PLACING: explain_turn, K_PICKING: explain_turn,
    K_CHOOSE: explain_choose, K_MIRROR: explain_mirror, K_BUILD: explain_build, K_TECH: explain_tech,
    K_PAY: explain_pay, K_MARKET: explain_market, K_TEMPLE: explain_temples, K_TWO: explain_temples,
    K_OFFER: explain_temples, K_ANGER: explain_anger, K_HARVEST: explain_harvest,
}

__all__ = ["FRAME_HELP", "FRAME_RULE", "explain", "why_not_perform"]

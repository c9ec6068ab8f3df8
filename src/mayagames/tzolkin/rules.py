"""The Tzolk'in forward model: the legal decisions of each frame and their effects.

A state holds a stack of pending decision frames (``layout.K_*``). The top frame
says what the current player decides now; :data:`OPTIONS` lists its legal actions
and :data:`HANDLERS` applies one. After every action :func:`settle` resolves frames
that need no real decision (a single forced choice, a wasted privilege, a payment
that must take every block) and caches the next legal list, so that ``apply``
validates by a membership test only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from . import actions as A
from .components import (ARCHITECTURE, AGRICULTURE, BUILDING_INDEX, CHICHEN, DATA, EXTRACTION,
                         GEARS, MONUMENT_INDEX, PALENQUE, RESOURCES, TEMPLES, THEOLOGY, TIKAL,
                         TILE_INDEX, TRACKS, UXMAL, YAXCHILAN)
from .effects import (advance_tech, blocks, can_anger, can_step_up, gain_building, gain_corn,
                      gain_skulls, gain_tile, gain_workers, step_up)
from .layout import (ACT, ACTIONS, B_EXTRA, B_TIKAL, B_UXMAL, BUILD_CORN, BUILD_VP, CHICHEN_AHEAD,
                     CORN, CTILES, DUMMY, EMPTY, EXTRACT_BONUS, FISHING_BONUS, FOOD_DAYS,
                     HARVEST_BONUS, INSTANCE_TYPE, IRRIGATION, K_ANGER, K_BUILD, K_CHOOSE,
                     K_DRAFT, K_GAIN, K_HARVEST, K_MARKET, K_MIRROR, K_OFFER, K_PAY, K_PICKING,
                     K_PLACING, K_SPEED, K_TECH, K_TEMPLE, K_TURN, K_TWO, LAST_NORMAL, LIGHT,
                     MIRROR_GEARS, OFFERING, ON_GEARS, OVER, PLAY, READY, SKULL, SPACES, SPEED,
                     TECH, TECH_COST, TEMPLE, UXMAL_DISCOUNT, VP, WAIVE, WOOD, WORKERS, WTILES,
                     YAX_SKULL)
from .scoring import food_day, refill_display

if TYPE_CHECKING:
    from .state import TzolkinState

Frame = tuple[Any, ...]
TARIFF = DATA.tariff
MARKET = DATA.market
BCOST = tuple(b.cost for b in DATA.buildings)
MCOST = tuple(m.cost for m in DATA.monuments)
MSKULL = tuple(m.skull_cost for m in DATA.monuments)
YAX_GAIN = tuple(tuple(a["gain"].get(k, 0) for k in ("corn", "wood", "stone", "gold", "skull"))
                 for a in ACT[YAXCHILAN])
PAL_CORN = tuple([0] + [a["corn"] for a in ACT[PALENQUE]])
PAL_WOOD = tuple([0] + [a.get("wood", 0) for a in ACT[PALENQUE]])
CHI = tuple([None] + [(a["vp"], TEMPLES.index(a["temple"]), a["block"]) for a in ACT[CHICHEN]])
UXMAL_PER_BLOCK = ACT[UXMAL][3]["corn_per_block"]
UXMAL_TEMPLE_CORN = ACT[UXMAL][0]["corn"]
MIRROR_CORN = ACT[UXMAL][4]["corn"]
BOUGHT, SOLD = 1, 8   # market locks: bit r (bought r) and bit r+3 (sold r)


# ====================================================================================
# Interned actions that depend on component ids
# ====================================================================================
_BUILD_CACHE: dict[tuple[int, int, bool], A.Build] = {}
BUILD_MON = tuple(A.BuildMonument(m.id) for m in DATA.monuments)


def build_action(btype: int, waive: int = -1, arch: bool = True) -> A.Build:
    key = (btype, waive, arch)
    act = _BUILD_CACHE.get(key)
    if act is None:
        act = _BUILD_CACHE[key] = A.Build(DATA.buildings[btype].id,
                                          RESOURCES[waive] if waive >= 0 else "", arch)
    return act


# ====================================================================================
# Turn flow
# ====================================================================================
def start_turn(s: "TzolkinState", seat: int) -> None:
    s.cur = seat
    s.stack = [(K_TURN, 0)]


def start_round(s: "TzolkinState") -> None:
    s.turn_index = 0
    start_turn(s, s.start_player)


def end_turn(s: "TzolkinState") -> None:
    """End of turn: refill the building row; the Starting Player Space corn is taken."""
    refill_display(s)
    if s.sps == s.cur and s.sps_corn:
        s.p[s.cur][CORN] += s.sps_corn
        s.sps_corn = 0
    s.turn_index += 1
    if s.turn_index < s.num_players:
        start_turn(s, (s.start_player + s.turn_index) % s.num_players)
    else:
        end_round(s)


def food_day_due(s: "TzolkinState") -> bool:
    """This round is a Food Day (also one skipped by a 2-day speed-up: it happens late)."""
    return s.food_done < 4 and s.day >= FOOD_DAYS[s.food_done]


def end_round(s: "TzolkinState") -> None:
    """After every turn: the Food Day, then the calendar advances (rules 8, 16)."""
    if food_day_due(s):
        food_day(s)
    if s.food_done == 4:
        finish_game(s)
        return
    owner = s.sps
    if owner == EMPTY:
        s.sps_corn += 1            # 1 corn from the bank onto the current tooth
        s.corn_out += 1
        advance_days(s, 1)
        start_round(s)
        return
    take_start_player_worker(s)
    if s.p[owner][LIGHT] and speed_up_allowed(s):
        s.phase = SPEED
        s.cur = owner
        s.stack = [(K_SPEED,)]
        return
    advance_days(s, 1)
    start_round(s)


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
        for g, occ in enumerate(s.gears):
            occ.insert(0, occ.pop())
            top = SPACES[g]
            who = occ[top]
            if 0 <= who < DUMMY:
                occ[top] = EMPTY
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


# ====================================================================================
# Feasibility helpers
# ====================================================================================
def lowest_free(occ: list[int], spaces: int) -> int:
    for i in range(spaces):
        if occ[i] == EMPTY:
            return i
    return -1


def payable(P: list[int], cost: tuple[int, int, int], waive: int = -1) -> bool:
    w, st, g = cost
    if waive == 0:
        w -= 1
    elif waive == 1:
        st -= 1
    elif waive == 2:
        g -= 1
    return P[1] >= w and P[2] >= st and P[3] >= g


def uxmal_price(s: "TzolkinState", btype: int, arch_level: int) -> int:
    """Uxmal 4: corn instead of blocks (2 per block, or market rates by option), less
    2 corn with Architecture 3."""
    cost = BCOST[btype]
    if s.options.get("uxmal4_price", "flat") == "market":
        price = cost[0] * MARKET[0] + cost[1] * MARKET[1] + cost[2] * MARKET[2]
    else:
        price = UXMAL_PER_BLOCK * (cost[0] + cost[1] + cost[2])
    return max(0, price - UXMAL_DISCOUNT[arch_level])


def row_types(s: "TzolkinState") -> list[int]:
    """Building types on offer (each once), in row order."""
    seen: list[int] = []
    for inst in s.display:
        if inst >= 0:
            t = INSTANCE_TYPE[inst]
            if t not in seen:
                seen.append(t)
    return seen


def can_afford_tech(P: list[int]) -> bool:
    have = blocks(P)
    return any(have >= TECH_COST[min(P[TECH + t], 3)] for t in range(4))


def can_build_any(s: "TzolkinState", P: list[int], monument: bool) -> bool:
    waive_ok = WAIVE[P[TECH + ARCHITECTURE]]
    for t in row_types(s):
        cost = BCOST[t]
        if payable(P, cost) or (waive_ok and any(payable(P, cost, r) for r in range(3) if cost[r])):
            return True
    if monument:
        return any(m >= 0 and payable(P, MCOST[m]) and P[SKULL] >= MSKULL[m] for m in s.monument_row)
    return False


def can_perform(s: "TzolkinState", seat: int, g: int, k: int, corn: int) -> bool:
    """Whether action ``k`` of gear ``g`` can be performed with ``corn`` left after paying
    to reach it (an action that could do nothing at all is not offered)."""
    P = s.p[seat]
    if g == PALENQUE:
        if k == 1:
            return True
        if s.jcorn[k] > s.jwood[k] or IRRIGATION[P[TECH + AGRICULTURE]]:
            return True
        return k > 2 and s.jwood[k] > 0
    if g == YAXCHILAN:
        return k != 4 or s.skulls > 0          # no skull left: the action gives nothing
    if g == TIKAL:
        if k in (1, 3):
            return can_afford_tech(P)
        if k == 2:
            return can_build_any(s, P, False)
        if k == 4:
            return can_build_any(s, P, True)
        return blocks(P) > 0
    if g == UXMAL:
        if k == 1:
            return corn >= UXMAL_TEMPLE_CORN
        if k == 2:   # the market needs something to exchange
            return corn >= min(MARKET) or blocks(P) > 0
        if k == 3:
            return P[WORKERS] < DATA.max_workers
        if k == 4:
            lvl = P[TECH + ARCHITECTURE]
            return any(uxmal_price(s, t, lvl) <= corn for t in row_types(s))
        if k == 5:
            return corn >= MIRROR_CORN      # fishing is always possible
        return True
    return P[SKULL] > 0 and s.skull_slots[k] == EMPTY


def action_costs(P: list[int], g: int, pos: int) -> list[tuple[int, int]]:
    """(action, corn to pay) reachable by a worker picked up from ``pos`` of gear ``g``:
    its own action, lower ones at 1 corn per step, all of them from a free-choice space,
    and with Theology 1 on Chichen Itza the action one space ahead for free."""
    acts = ACTIONS[g]
    if pos > acts:
        return [(k, 0) for k in range(1, acts + 1)]
    costs = {k: pos - k for k in range(1, pos + 1)}
    if g == CHICHEN and CHICHEN_AHEAD[P[TECH + THEOLOGY]]:
        if pos + 1 > acts:
            return [(k, 0) for k in range(1, acts + 1)]
        costs[pos + 1] = 0
    return sorted(costs.items())


def placement_options(s: "TzolkinState", seat: int, placed: int) -> list[Any]:
    """Gears (and the Starting Player Space) where the next worker can be afforded."""
    P = s.p[seat]
    if P[READY] == 0:
        return []
    corn = P[CORN]
    tariff = TARIFF[placed]
    out: list[Any] = []
    for g, occ in enumerate(s.gears):
        i = lowest_free(occ, SPACES[g])
        if i >= 0 and i + tariff <= corn:
            out.append(A.PLACE[g])
    if s.sps == EMPTY and tariff <= corn:
        out.append(A.PLACE_START)
    return out


def special_case_options(s: "TzolkinState") -> list[Any]:
    """Rare special case: place exactly 1 worker on a cheapest space (any corn given up)."""
    lows = [(lowest_free(occ, SPACES[g]), g) for g, occ in enumerate(s.gears)]
    lows = [(i, g) for i, g in lows if i >= 0]
    if not lows:
        return [A.END]   # every gear full: nothing can be placed (never seen in play)
    cheapest = min(i for i, _ in lows)
    return [A.PLACE[g] for i, g in lows if i == cheapest]


def must_use_special_case(s: "TzolkinState", seat: int, begged: int) -> bool:
    P = s.p[seat]
    if P[ON_GEARS] or placement_options(s, seat, 0):
        return False
    return not may_beg(P, begged)


def may_beg(P: list[int], begged: int) -> bool:
    """At the start of the turn with 2 corn or less, unless at the bottom of every temple."""
    return not begged and P[CORN] <= DATA.beg_max_corn and can_anger(P)


def pick_options(s: "TzolkinState", seat: int) -> list[Any]:
    out = []
    for g, occ in enumerate(s.gears):
        if seat in occ:
            picks = A.PICK[g]
            for pos in range(SPACES[g]):
                if occ[pos] == seat:
                    out.append(picks[pos])
    return out


# ====================================================================================
# Options of each frame
# ====================================================================================
def opt_draft(s: "TzolkinState", fr: Frame) -> list[Any]:
    hand = sorted(s.dealt[s.cur])
    if any(t < 0 for t in hand):
        return []          # another seat's hidden hand (only in a view)
    ids = [DATA.tiles[t].id for t in hand]
    return [A.Keep(ids[i], ids[j]) for i in range(len(ids)) for j in range(i + 1, len(ids))]


def opt_turn(s: "TzolkinState", fr: Frame) -> list[Any]:
    """Beg, place or pick up; begging is forced when you must place and cannot pay."""
    seat = s.cur
    P = s.p[seat]
    places = placement_options(s, seat, 0)
    beg = may_beg(P, fr[1])
    if not P[ON_GEARS] and not places:
        if beg:
            return [A.BEG[t] for t in range(3) if P[TEMPLE + t] > -1]
        return special_case_options(s)
    out: list[Any] = [A.BEG[t] for t in range(3) if P[TEMPLE + t] > -1] if beg else []
    out += places
    if P[ON_GEARS]:
        out += pick_options(s, seat)
    return out


def opt_placing(s: "TzolkinState", fr: Frame) -> list[Any]:
    if fr[2]:
        return [A.END]
    return placement_options(s, s.cur, fr[1]) + [A.END]


def opt_picking(s: "TzolkinState", fr: Frame) -> list[Any]:
    return pick_options(s, s.cur) + [A.END]


def opt_choose(s: "TzolkinState", fr: Frame) -> list[Any]:
    _, g, pos = fr
    seat = s.cur
    P = s.p[seat]
    corn = P[CORN]
    dos = A.DO[g]
    out: list[Any] = [dos[k] for k, cost in action_costs(P, g, pos)
                      if cost <= corn and can_perform(s, seat, g, k, corn - cost)]
    out.append(A.NOTHING)
    return out


def opt_harvest(s: "TzolkinState", fr: Frame) -> list[Any]:
    k = fr[1]
    P = s.p[s.cur]
    out = []
    if s.jcorn[k] > s.jwood[k] or IRRIGATION[P[TECH + AGRICULTURE]]:
        out.append(A.HARVEST[0])
    if s.jwood[k] > 0:
        out.append(A.HARVEST[1])
        if can_anger(P):
            out.append(A.HARVEST[2])
    return out


def opt_anger(s: "TzolkinState", fr: Frame) -> list[Any]:
    P = s.p[s.cur]
    return [A.ANGER[t] for t in range(3) if P[TEMPLE + t] > -1]


def opt_temple(s: "TzolkinState", fr: Frame) -> list[Any]:
    return [A.TEMPLE[t] for t in range(3) if can_step_up(s, s.cur, t)]


def opt_two(s: "TzolkinState", fr: Frame) -> list[Any]:
    P = s.p[s.cur]
    held = [r for r in range(3) if P[WOOD + r]]
    return [A.TWO_TEMPLES[(a, b, r)] for a in range(3) for b in range(a + 1, 3) for r in held]


def opt_tech(s: "TzolkinState", fr: Frame) -> list[Any]:
    _, paid, _, optional = fr
    P = s.p[s.cur]
    if paid:
        have = blocks(P)
        out: list[Any] = [A.TECH[t] for t in range(4) if have >= TECH_COST[min(P[TECH + t], 3)]]
    else:
        out = list(A.TECH)
    if optional:
        out.append(A.STOP)
    return out


def opt_pay(s: "TzolkinState", fr: Frame) -> list[Any]:
    P = s.p[s.cur]
    return [A.PAY[r] for r in range(3) if P[WOOD + r]]


def opt_gain(s: "TzolkinState", fr: Frame) -> list[Any]:
    return list(A.TAKE)


def opt_market(s: "TzolkinState", fr: Frame) -> list[Any]:
    """One exchange at a time; a resource bought in this market is not sold back in it
    (and vice versa), which loses nothing since both go at the same rate."""
    locks = fr[1]
    P = s.p[s.cur]
    out: list[Any] = []
    for r in range(3):
        if P[CORN] >= MARKET[r] and not locks & (SOLD << r):
            out.append(A.BUY[r])
        if P[WOOD + r] and not locks & (BOUGHT << r):
            out.append(A.SELL[r])
    out.append(A.STOP)
    return out


def opt_mirror(s: "TzolkinState", fr: Frame) -> list[Any]:
    """Uxmal 5 (and A2-T4): pay 1 corn, then any action 1-5 of Palenque, Yaxchilan,
    Tikal or Uxmal (not the mirror itself)."""
    seat = s.cur
    corn = s.p[seat][CORN] - MIRROR_CORN
    out: list[Any] = []
    if corn >= 0:
        for g in MIRROR_GEARS:
            for k in range(1, ACTIONS[g] + 1):
                if (g, k) != (UXMAL, 5) and can_perform(s, seat, g, k, corn):
                    out.append(A.DO[g][k])
    if fr[1]:
        out.append(A.STOP)
    return out


def opt_offer(s: "TzolkinState", fr: Frame) -> list[Any]:
    P = s.p[s.cur]
    held = [r for r in range(3) if P[WOOD + r]]
    out: list[Any] = [A.OFFER[t][r] for t in range(3) if can_step_up(s, s.cur, t) for r in held]
    out.append(A.STOP)
    return out


def opt_speed(s: "TzolkinState", fr: Frame) -> list[Any]:
    return list(A.ADVANCE)


def arch_available(s: "TzolkinState", fr: Frame, level: int) -> bool:
    """Whether the architecture effects can still apply to a building of this frame."""
    mode = fr[1]
    if level == 0 or fr[3]:
        return False
    return mode != B_EXTRA or bool(s.options.get("a1t3_architecture", False))


def opt_build(s: "TzolkinState", fr: Frame) -> list[Any]:
    _, mode, built, _, most, monument_ok, optional = fr
    P = s.p[s.cur]
    level = P[TECH + ARCHITECTURE]
    out: list[Any] = []
    if mode == B_UXMAL:
        out = [build_action(t) for t in row_types(s) if uxmal_price(s, t, level) <= P[CORN]]
    else:
        avail = arch_available(s, fr, level)
        waive = avail and WAIVE[level]
        keep_arch = avail and mode == B_TIKAL and most == 2 and built == 0
        for t in row_types(s):
            cost = BCOST[t]
            if waive:
                out += [build_action(t, r) for r in range(3) if cost[r] and payable(P, cost, r)]
            elif payable(P, cost):
                out.append(build_action(t))
            if keep_arch and payable(P, cost):
                out.append(build_action(t, -1, False))
        if monument_ok:
            out += [BUILD_MON[m] for m in s.monument_row
                    if m >= 0 and payable(P, MCOST[m]) and P[SKULL] >= MSKULL[m]]
    if optional:
        out.append(A.STOP)
    return out


OPTIONS: dict[int, Callable[["TzolkinState", Frame], list[Any]]] = {
    K_DRAFT: opt_draft, K_TURN: opt_turn, K_PLACING: opt_placing, K_PICKING: opt_picking,
    K_CHOOSE: opt_choose, K_HARVEST: opt_harvest, K_ANGER: opt_anger, K_TEMPLE: opt_temple,
    K_TWO: opt_two, K_TECH: opt_tech, K_PAY: opt_pay, K_BUILD: opt_build, K_GAIN: opt_gain,
    K_MARKET: opt_market, K_MIRROR: opt_mirror, K_OFFER: opt_offer, K_SPEED: opt_speed,
}
# Frames resolved automatically when only one choice remains (or popped when none).
AUTO = frozenset({K_HARVEST, K_ANGER, K_TEMPLE, K_TWO, K_TECH, K_PAY, K_BUILD, K_GAIN, K_MARKET,
                  K_MIRROR, K_OFFER})


# ====================================================================================
# Applying actions
# ====================================================================================
def do_place(s: "TzolkinState", g: int, placed: int) -> None:
    """Lowest free space; cost = space number + this worker's tariff."""
    P = s.p[s.cur]
    occ = s.gears[g]
    i = lowest_free(occ, SPACES[g])
    gain_corn(s, P, -(i + TARIFF[placed]))
    occ[i] = s.cur
    P[READY] -= 1
    P[ON_GEARS] += 1
    s.stack[-1] = (K_PLACING, placed + 1, 0)


def do_place_start(s: "TzolkinState", placed: int) -> None:
    """As if an action space 0: only the tariff is paid."""
    P = s.p[s.cur]
    gain_corn(s, P, -TARIFF[placed])
    s.sps = s.cur
    P[READY] -= 1
    s.stack[-1] = (K_PLACING, placed + 1, 0)


def do_pick(s: "TzolkinState", g: int, pos: int) -> None:
    P = s.p[s.cur]
    s.gears[g][pos] = EMPTY
    P[READY] += 1
    P[ON_GEARS] -= 1
    s.stack.append((K_CHOOSE, g, pos))


def on_turn(s: "TzolkinState", fr: Frame, a: Any) -> None:
    seat = s.cur
    P = s.p[seat]
    if isinstance(a, A.Beg):
        # Begging: discard all corn, take 3, step down on a temple.
        gain_corn(s, P, DATA.beg_corn_after - P[CORN])
        P[TEMPLE + TEMPLES.index(a.temple)] -= 1
        s.stack[-1] = (K_TURN, 1)
    elif isinstance(a, A.Place):
        g = GEARS.index(a.gear)
        if must_use_special_case(s, seat, fr[1]):
            # Rare special case: exactly 1 worker on a cheapest space; all corn to the bank.
            occ = s.gears[g]
            occ[lowest_free(occ, SPACES[g])] = seat
            P[READY] -= 1
            P[ON_GEARS] += 1
            gain_corn(s, P, -P[CORN])
            s.stack[-1] = (K_PLACING, 1, 1)
        else:
            do_place(s, g, 0)
    elif isinstance(a, A.PlaceStart):
        do_place_start(s, 0)
    elif isinstance(a, A.Pick):
        s.stack[-1] = (K_PICKING,)
        do_pick(s, GEARS.index(a.gear), a.space)
    else:
        end_turn(s)


def on_placing(s: "TzolkinState", fr: Frame, a: Any) -> None:
    if isinstance(a, A.Place):
        do_place(s, GEARS.index(a.gear), fr[1])
    elif isinstance(a, A.PlaceStart):
        do_place_start(s, fr[1])
    else:
        end_turn(s)


def on_picking(s: "TzolkinState", fr: Frame, a: Any) -> None:
    if isinstance(a, A.Pick):
        do_pick(s, GEARS.index(a.gear), a.space)
    else:
        end_turn(s)


def on_choose(s: "TzolkinState", fr: Frame, a: Any) -> None:
    s.stack.pop()
    if isinstance(a, A.Do):
        _, g, pos = fr
        P = s.p[s.cur]
        cost = dict(action_costs(P, g, pos))[a.space]
        gain_corn(s, P, -cost)
        perform(s, g, a.space)


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
            s.stack.append((K_HARVEST, k))
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
            s.stack.append((K_TECH, 1, spec["advances"], 0))
        elif spec["kind"] == "build":
            s.stack.append((K_BUILD, B_TIKAL, 0, 0, spec["buildings"], int(spec["monument"]), 0))
        else:
            s.stack.append((K_TWO,))
    elif g == UXMAL:
        if k == 1:
            gain_corn(s, P, -UXMAL_TEMPLE_CORN)
            s.stack.append((K_TEMPLE,))
        elif k == 2:
            s.stack.append((K_MARKET, 0))
        elif k == 3:
            gain_workers(P, 1)
        elif k == 4:
            s.stack.append((K_BUILD, B_UXMAL, 0, 0, 1, 0, 0))
        else:
            s.stack.append((K_MIRROR, 0))
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
        s.stack.append((K_OFFER,))
    if block:
        s.stack.append((K_GAIN, 1))


def harvest_corn(s: "TzolkinState", P: list[int], k: int) -> None:
    """Take a visible Corn Harvest Tile (or, with irrigation, just the corn)."""
    if s.jcorn[k] > s.jwood[k]:
        s.jcorn[k] -= 1
        P[CTILES] += 1
    gain_corn(s, P, PAL_CORN[k] + HARVEST_BONUS[P[TECH + AGRICULTURE]])


def on_harvest(s: "TzolkinState", fr: Frame, a: Any) -> None:
    s.stack.pop()
    k = fr[1]
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
        s.stack.append((K_ANGER,))


def on_anger(s: "TzolkinState", fr: Frame, a: Any) -> None:
    s.stack.pop()
    s.p[s.cur][TEMPLE + TEMPLES.index(a.temple)] -= 1


def on_temple(s: "TzolkinState", fr: Frame, a: Any) -> None:
    s.stack.pop()
    step_up(s, s.cur, TEMPLES.index(a.temple))


def on_two(s: "TzolkinState", fr: Frame, a: Any) -> None:
    s.stack.pop()
    s.p[s.cur][WOOD + RESOURCES.index(a.pay)] -= 1
    step_up(s, s.cur, TEMPLES.index(a.first))
    step_up(s, s.cur, TEMPLES.index(a.second))


def on_tech(s: "TzolkinState", fr: Frame, a: Any) -> None:
    s.stack.pop()
    if isinstance(a, A.Stop):
        return
    _, paid, remaining, _ = fr
    track = TRACKS.index(a.track)
    P = s.p[s.cur]
    cost = TECH_COST[min(P[TECH + track], 3)] if paid else 0
    if remaining > 1:   # Tikal 3: a second advance may follow (paid ones are optional)
        s.stack.append((K_TECH, paid, remaining - 1, paid))
    advance_tech(s, s.cur, track)
    if cost:            # pay before any bonus choice
        s.stack.append((K_PAY, cost))


def on_pay(s: "TzolkinState", fr: Frame, a: Any) -> None:
    s.p[s.cur][WOOD + RESOURCES.index(a.resource)] -= 1
    if fr[1] > 1:
        s.stack[-1] = (K_PAY, fr[1] - 1)
    else:
        s.stack.pop()


def on_gain(s: "TzolkinState", fr: Frame, a: Any) -> None:
    s.p[s.cur][WOOD + RESOURCES.index(a.resource)] += 1
    if fr[1] > 1:
        s.stack[-1] = (K_GAIN, fr[1] - 1)
    else:
        s.stack.pop()


def on_market(s: "TzolkinState", fr: Frame, a: Any) -> None:
    if isinstance(a, A.Stop):
        s.stack.pop()
        return
    r = RESOURCES.index(a.resource)
    P = s.p[s.cur]
    if a.direction == "buy":
        gain_corn(s, P, -MARKET[r])
        P[WOOD + r] += 1
        s.stack[-1] = (K_MARKET, fr[1] | (BOUGHT << r))
    else:
        P[WOOD + r] -= 1
        gain_corn(s, P, MARKET[r])
        s.stack[-1] = (K_MARKET, fr[1] | (SOLD << r))


def on_mirror(s: "TzolkinState", fr: Frame, a: Any) -> None:
    s.stack.pop()
    if isinstance(a, A.Do):
        gain_corn(s, s.p[s.cur], -MIRROR_CORN)
        perform(s, GEARS.index(a.gear), a.space)


def on_offer(s: "TzolkinState", fr: Frame, a: Any) -> None:
    s.stack.pop()
    if isinstance(a, A.Offer):
        s.p[s.cur][WOOD + RESOURCES.index(a.pay)] -= 1
        step_up(s, s.cur, TEMPLES.index(a.temple))


def on_build(s: "TzolkinState", fr: Frame, a: Any) -> None:
    s.stack.pop()
    if isinstance(a, A.Stop):
        return
    seat = s.cur
    P = s.p[seat]
    if isinstance(a, A.BuildMonument):
        build_monument(s, seat, MONUMENT_INDEX[a.monument])
        return
    _, mode, built, arch_used, most, _, _ = fr
    btype = BUILDING_INDEX[a.building]
    level = P[TECH + ARCHITECTURE]
    slot = next(i for i, inst in enumerate(s.display) if inst >= 0 and INSTANCE_TYPE[inst] == btype)
    if mode == B_UXMAL:
        apply_arch = level > 0
        gain_corn(s, P, -uxmal_price(s, btype, level))
    else:
        apply_arch = a.arch and arch_available(s, fr, level)
        cost = list(BCOST[btype])
        if apply_arch and a.waive:
            cost[RESOURCES.index(a.waive)] -= 1
        P[WOOD] -= cost[0]
        P[WOOD + 1] -= cost[1]
        P[WOOD + 2] -= cost[2]
    s.built[seat].append(s.display[slot])
    s.display[slot] = EMPTY
    if mode == B_TIKAL and built + 1 < most:
        s.stack.append((K_BUILD, B_TIKAL, built + 1, int(arch_used or apply_arch), most, 0, 1))
    if apply_arch:
        gain_corn(s, P, BUILD_CORN[level])
        P[VP] += BUILD_VP[level]
    gain_building(s, seat, btype)


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


def on_speed(s: "TzolkinState", fr: Frame, a: Any) -> None:
    """Advance 1 day, or 2 with the light side of the board, which then flips dark."""
    advance_days(s, a.days)
    if a.days == 2:
        s.p[s.cur][LIGHT] = 0
    s.phase = PLAY
    start_round(s)


def on_draft(s: "TzolkinState", fr: Frame, a: Any) -> None:
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


def draft_order(s: "TzolkinState") -> list[int]:
    return [(s.start_player + i) % s.num_players for i in range(s.num_players)]


HANDLERS: dict[int, Callable[["TzolkinState", Frame, Any], None]] = {
    K_DRAFT: on_draft, K_TURN: on_turn, K_PLACING: on_placing, K_PICKING: on_picking,
    K_CHOOSE: on_choose, K_HARVEST: on_harvest, K_ANGER: on_anger, K_TEMPLE: on_temple,
    K_TWO: on_two, K_TECH: on_tech, K_PAY: on_pay, K_BUILD: on_build, K_GAIN: on_gain,
    K_MARKET: on_market, K_MIRROR: on_mirror, K_OFFER: on_offer, K_SPEED: on_speed,
}


def apply_action(s: "TzolkinState", a: Any) -> None:
    """Apply a legal action, then settle the forced steps that follow."""
    fr = s.stack[-1]
    HANDLERS[fr[0]](s, fr, a)
    settle(s)


def settle(s: "TzolkinState") -> None:
    """Resolve frames without a real choice and cache the legal actions of the next one."""
    while s.phase != OVER:
        fr = s.stack[-1]
        kind = fr[0]
        if kind == K_PAY and blocks(s.p[s.cur]) == fr[1]:
            P = s.p[s.cur]           # every block must go: no choice left
            P[1] = P[2] = P[3] = 0
            s.stack.pop()
            continue
        opts = OPTIONS[kind](s, fr)
        if kind in AUTO and len(opts) <= 1:
            if opts:
                HANDLERS[kind](s, fr, opts[0])
            else:
                s.stack.pop()        # a privilege that cannot be used is wasted
            continue
        s.legal = opts
        return
    s.legal = []


def current_options(s: "TzolkinState") -> list[Any]:
    """Legal actions of the top frame without resolving anything (used on views)."""
    if s.phase == OVER or not s.stack:
        return []
    return OPTIONS[s.stack[-1][0]](s, s.stack[-1])


# ====================================================================================
# Explaining illegal actions
# ====================================================================================
def explain(s: "TzolkinState", a: Any) -> tuple[str, str]:
    """(rule, message) saying why ``a`` is not legal now."""
    if s.phase == OVER:
        return "end of game", "the game is over"
    fr = s.stack[-1]
    kind = fr[0]
    expected = FRAME_HELP[kind]
    if kind == K_DRAFT:
        if not isinstance(a, A.Keep):
            return "Setup: starting wealth tiles", "first keep 2 of your 4 dealt starting tiles"
        return "Setup: starting wealth tiles", "you may only keep 2 of the 4 tiles dealt to you"
    if kind in (K_TURN, K_PLACING, K_PICKING):
        return explain_turn(s, fr, a)
    if kind == K_CHOOSE and isinstance(a, A.Do):
        return explain_do(s, fr, a)
    if kind == K_BUILD and isinstance(a, (A.Build, A.BuildMonument)):
        return explain_build(s, fr, a)
    if kind == K_MARKET and isinstance(a, A.Trade):
        return ("Uxmal 2: market", "not enough corn or goods for that exchange, or that resource "
                "was already traded the other way in this market")
    if kind == K_TECH and isinstance(a, A.Tech):
        return "Technology cost", "you cannot pay the blocks that advance costs"
    if kind in (K_TEMPLE, K_OFFER, K_TWO) and isinstance(a, (A.Temple, A.Offer, A.TwoTemples)):
        return "Temples", "you cannot climb there (top reached or held), or lack the block to pay"
    if kind in (K_ANGER,) and isinstance(a, A.Anger):
        return "Angering the gods", "you are already on the bottom step of that temple"
    return "Turn order", f"now: {expected}"


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


def explain_turn(s: "TzolkinState", fr: Frame, a: Any) -> tuple[str, str]:
    seat = s.cur
    P = s.p[seat]
    kind = fr[0]
    if isinstance(a, A.Beg):
        if kind != K_TURN or fr[1]:
            return "Begging for corn", "you may beg only at the start of your turn"
        if P[CORN] > DATA.beg_max_corn:
            return "Begging for corn", f"you have {P[CORN]} corn; begging needs 2 or fewer"
        return "Angering the gods", "you cannot step down on that temple"
    if isinstance(a, (A.Place, A.PlaceStart)):
        if kind == K_PICKING:
            return "Turn", "you cannot place and pick up workers in the same turn"
        if kind == K_PLACING and fr[2]:
            return "Rare special case", "you may place exactly 1 worker"
        if kind == K_TURN and not P[ON_GEARS] and not placement_options(s, seat, 0):
            return "Begging for corn", "you cannot afford a worker: you must beg for corn first"
        if P[READY] == 0:
            return "Placing workers", "you have no available worker"
        if isinstance(a, A.PlaceStart):
            if s.sps != EMPTY:
                return "Starting Player Space", "it already holds a worker"
            return "Placement cost", "you cannot pay this worker's tariff"
        g = GEARS.index(a.gear)
        i = lowest_free(s.gears[g], SPACES[g])
        if i < 0:
            return "Placing workers", f"{a.gear} has no free space"
        placed = fr[1] if kind == K_PLACING else 0
        return "Placement cost", (f"space {i} of {a.gear} costs {i + TARIFF[placed]} corn "
                                  f"({i} + tariff {TARIFF[placed]}); you have {P[CORN]}")
    if isinstance(a, A.Pick):
        if kind == K_PLACING:
            return "Turn", "you cannot place and pick up workers in the same turn"
        return "Picking up workers", f"you have no worker on {a.gear} space {a.space}"
    if isinstance(a, A.EndTurn):
        return "Turn", "you must place or pick up at least one worker"
    return "Turn order", f"now: {FRAME_HELP[kind]}"


def explain_do(s: "TzolkinState", fr: Frame, a: Any) -> tuple[str, str]:
    _, g, pos = fr
    P = s.p[s.cur]
    if a.gear != GEARS[g]:
        return "Picking up workers", f"the worker was on {GEARS[g]}: only its actions are possible"
    costs = dict(action_costs(P, g, pos))
    if a.space not in costs:
        return "Picking up workers", (f"from space {pos} you may use that action or a lower one "
                                      "(free choice spaces allow any)")
    if costs[a.space] > P[CORN]:
        return "Picking up workers", f"stepping back costs {costs[a.space]} corn; you have {P[CORN]}"
    return f"{GEARS[g].title()} {a.space}", "you cannot perform that action now (cost or supply)"


def explain_build(s: "TzolkinState", fr: Frame, a: Any) -> tuple[str, str]:
    if isinstance(a, A.BuildMonument):
        if not fr[5]:
            return "Monuments", "a monument can only be built with Tikal action 4, as its only build"
        if MONUMENT_INDEX[a.monument] not in s.monument_row:
            return "Monuments", f"{a.monument} is not on offer"
        return "Monuments", "you cannot pay its cost"
    if BUILDING_INDEX[a.building] not in row_types(s):
        return "Buildings", f"{a.building} is not on offer"
    if a.waive or not a.arch:
        return "Architecture", "that architecture choice is not available for this building"
    return "Buildings", "you cannot pay its cost"


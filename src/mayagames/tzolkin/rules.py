"""The Tzolk'in legality checks: each decides whether something may be done and, when
it may not, says why.

Every check returns ``None`` when the thing is allowed and otherwise a :data:`Refusal`,
``(rule, message)``: the section of the rulebook and the concrete reason in words a
player understands (what it costs, what the player has, who holds the space). The
decision frames (:mod:`mayagames.tzolkin.flow`) build their legal-action lists from
these checks and answer "why is this illegal?" with the same checks, so the two can
never disagree (``tests/tzolkin/test_explain.py`` checks it over the whole action space).

>>> from mayagames.tzolkin.positions import blank, put_worker
>>> s = blank(2)
>>> put_worker(s, 1, "tikal", 3)
>>> words(pick_refusal(s, 0, GEARS.index("tikal"), 3))
('Picking up workers', 'the worker on tikal space 3 belongs to P1; you may only pick up your own')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from . import actions as A
from .actions import PLACE
from .components import (ARCHITECTURE, AGRICULTURE, CHICHEN, DATA, GEARS, PALENQUE, RESOURCES,
                         TEMPLES, THEOLOGY, TIKAL, TRACKS, UXMAL, YAXCHILAN)
from .effects import blocks, can_anger, can_step_up
from .model import (ACT, ACTIONS, CHICHEN_AHEAD, CORN, DUMMY, EMPTY, INSTANCE_TYPE, IRRIGATION,
                    MIRROR_GEARS, ON_GEARS, READY, SKULL, SPACES, TECH, TECH_COST, TEMPLE,
                    TEMPLE_TOP, UXMAL_DISCOUNT, WAIVE, WOOD, WORKERS)
from .texts import cost_text as _short_cost
from ..core.errors import Refusal, refusal_words

if TYPE_CHECKING:
    from .state import TzolkinState

# The refusal type is core's, shared with Tikal (issue 25); ``Reason`` is its name here
# before that, kept for code written against it.
Reason = Refusal
words = refusal_words

TARIFF = DATA.tariff
MARKET = DATA.market
BCOST = tuple(b.cost for b in DATA.buildings)
MCOST = tuple(m.cost for m in DATA.monuments)
MSKULL = tuple(m.skull_cost for m in DATA.monuments)
YAX_GAIN = tuple(tuple(a["gain"].get(k, 0) for k in ("corn", "wood", "stone", "gold", "skull"))
                 for a in ACT[YAXCHILAN])
PAL_CORN = tuple([0] + [a["corn"] for a in ACT[PALENQUE]])
PAL_WOOD = tuple([0] + [a.get("wood", 0) for a in ACT[PALENQUE]])
# CHI[k]: (VP, temple, block?) of Chichen Itza space k (k counts from 1; CHI[0] is unused)
CHI: tuple[tuple[int, int, int], ...] = ((0, 0, 0), *((a["vp"], TEMPLES.index(a["temple"]), a["block"])
                                                    for a in ACT[CHICHEN]))
UXMAL_PER_BLOCK = ACT[UXMAL][3]["corn_per_block"]
UXMAL_TEMPLE_CORN = ACT[UXMAL][0]["corn"]
MIRROR_CORN = ACT[UXMAL][4]["corn"]
MOST_TECH_COST = max(TECH_COST)
ACTION_NAMES = tuple(tuple(f"{gear.title} {k}" for k in range(gear.spaces + 1)) for gear in DATA.gears)
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
# Words for reasons
# ====================================================================================
def who(code: int) -> str:
    return "a dummy worker" if code == DUMMY else f"P{code}"


def cost_text(cost: tuple[int, ...], skull: int = 0) -> str:
    """A cost in words for a message (:mod:`.texts`, long register)."""
    return _short_cost(cost, skull, short=False)


def goods_text(P: list[int]) -> str:
    return f"{P[WOOD]} wood, {P[WOOD + 1]} stone, {P[WOOD + 2]} gold"


# ====================================================================================
# Small facts
# ====================================================================================
def lowest_free(occ: list[int], spaces: int) -> int:
    """The lowest empty space below ``spaces`` (-1 when every one is taken)."""
    try:
        return occ.index(EMPTY, 0, spaces)
    except ValueError:
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


def cheapest_advance(P: list[int]) -> int:
    """Blocks the cheapest technology advance (or level-3 bonus) costs the player."""
    return min(TECH_COST[min(P[TECH + t], 3)] for t in range(4))


def can_afford_tech(P: list[int]) -> bool:
    have = P[1] + P[2] + P[3]
    if have >= MOST_TECH_COST:
        return True
    return have >= cheapest_advance(P)


def tech_refusal(P: list[int], track: int) -> Optional[Refusal]:
    """Technologies: an advance (or the bonus at level 3) costs blocks by level."""
    level = P[TECH + track]
    need = TECH_COST[level if level < 3 else 3]
    if P[1] + P[2] + P[3] >= need:
        return None
    return "Technology cost", lambda: (
        (f"the {TRACKS[track]} bonus" if level >= 3 else f"{TRACKS[track]} level {level + 1}")
        + f" costs {need} block(s); you have {blocks(P)}")


def can_build_any(s: "TzolkinState", P: list[int], monument: bool) -> bool:
    """Whether a building on offer can be paid in blocks (Architecture 3 waives one block
    of the cost: then one block short is enough), or a monument when ``monument``."""
    short_ok = 1 if WAIVE[P[TECH + ARCHITECTURE]] else 0
    w, st, g = P[1], P[2], P[3]
    for inst in s.display:
        if inst >= 0:
            cw, cs, cg = BCOST[INSTANCE_TYPE[inst]]
            short = (cw - w if cw > w else 0) + (cs - st if cs > st else 0) + (cg - g if cg > g else 0)
            if short <= short_ok:
                return True
    if monument:
        skulls = P[SKULL]     # monument_refusal's test, without writing its refusal
        return any(m >= 0 and skulls >= MSKULL[m] and payable(P, MCOST[m]) for m in s.monument_row)
    return False


# ====================================================================================
# Actions on the gears
# ====================================================================================
def perform_refusal(s: "TzolkinState", seat: int, g: int, k: int, corn: int) -> Optional[Refusal]:
    """Why action ``k`` of gear ``g`` cannot be performed with ``corn`` left after paying
    to reach it (an action that could do nothing at all is not offered); ``None`` if it can."""
    return GEAR_CHECKS[g](s, s.p[seat], k, corn)


def palenque_refusal(s: "TzolkinState", P: list[int], k: int, corn: int) -> Optional[Refusal]:
    """Palenque: fishing always; fields need a visible Corn Harvest Tile (any with
    Agriculture 2), or for 3-5 a Wood Harvest Tile left."""
    if k == 1 or s.jcorn[k] > s.jwood[k] or IRRIGATION[P[TECH + AGRICULTURE]]:
        return None
    if k > 2 and s.jwood[k] > 0:
        return None
    return (ACTION_NAMES[PALENQUE][k],
            "no Corn Harvest Tile is visible there (Agriculture 2 would allow it) and no wood is left")


def yaxchilan_refusal(s: "TzolkinState", P: list[int], k: int, corn: int) -> Optional[Refusal]:
    """Yaxchilan 4 gives a crystal skull: none left, it gives nothing."""
    if k != 4 or s.skulls > 0:
        return None
    return ACTION_NAMES[YAXCHILAN][k], "no crystal skull is left in the supply"


def tikal_refusal(s: "TzolkinState", P: list[int], k: int, corn: int) -> Optional[Refusal]:
    """Tikal: an advance you can pay for (1, 3), a building (2) or building or monument
    (4) you can pay for, a block to pay for two temple steps (5)."""
    if k == 1 or k == 3:
        if can_afford_tech(P):
            return None
        return "Technology cost", lambda: (f"the cheapest advance costs {cheapest_advance(P)} "
                                           f"block(s); you have {blocks(P)}")
    if k == 2 or k == 4:
        if can_build_any(s, P, k == 4):
            return None
        return "Buildings", lambda: (f"no {'building or monument' if k == 4 else 'building'} on "
                                     f"offer that you can pay for ({goods_text(P)})")
    if P[1] or P[2] or P[3]:
        return None
    return ACTION_NAMES[TIKAL][k], "you need 1 resource block to pay"


def chichen_refusal(s: "TzolkinState", P: list[int], k: int, corn: int) -> Optional[Refusal]:
    """Chichen Itza: a crystal skull to leave, on an empty skull slot."""
    if not P[SKULL]:
        return ACTION_NAMES[CHICHEN][k], "you need a crystal skull to leave on Chichen Itza"
    if s.skull_slots[k] != EMPTY:
        return ACTION_NAMES[CHICHEN][k], lambda: f"its skull slot is already filled by {who(s.skull_slots[k])}"
    return None


def action_name(g: int, k: int) -> str:
    """The rule of action ``k`` of gear ``g`` ("Uxmal 3")."""
    return ACTION_NAMES[g][k]




def uxmal_refusal(s: "TzolkinState", P: list[int], k: int, corn: int) -> Optional[Refusal]:
    name = action_name(UXMAL, k)
    if k == 1:
        if corn >= UXMAL_TEMPLE_CORN:
            return None
        return name, lambda: f"a temple step costs {UXMAL_TEMPLE_CORN} corn; you have {corn}"
    if k == 2:   # the market needs something to exchange
        if corn >= min(MARKET) or blocks(P) > 0:
            return None
        return "Uxmal 2: market", "you have nothing to exchange (corn or resource blocks)"
    if k == 3:
        if P[WORKERS] < DATA.max_workers:
            return None
        return name, lambda: f"you already have {P[WORKERS]} workers; the bank has none left for you"
    if k == 4:
        lvl = P[TECH + ARCHITECTURE]
        prices = [uxmal_price(s, t, lvl) for t in row_types(s)]
        if any(price <= corn for price in prices):
            return None
        return name, lambda: (f"the cheapest costs {min(prices)} corn" if prices
                              else "no building is on offer") + f"; you have {corn}"
    if k == 5:
        if corn >= MIRROR_CORN:      # fishing is always possible
            return None
        return name, lambda: f"the mirror costs {MIRROR_CORN} corn; you have {corn}"
    return None


GEAR_CHECKS = (palenque_refusal, yaxchilan_refusal, tikal_refusal, uxmal_refusal, chichen_refusal)
"""The check of an action of each gear, by gear index: (state, player, action, corn left)."""


# --- the same checks, listing the performable actions of a picked worker at once -------
# (no reason is made for what is refused; ``tests/tzolkin/test_explain.py`` checks that
# they agree with GEAR_CHECKS over the whole action space)
Costs = tuple[tuple[int, int], ...]
MIN_MARKET = min(MARKET)


def palenque_dos(s: "TzolkinState", P: list[int], costs: Costs, corn: int) -> list[Any]:
    """:func:`palenque_refusal` for every reachable action."""
    dos = A.DO[PALENQUE]
    jcorn, jwood = s.jcorn, s.jwood
    irrigation = IRRIGATION[P[TECH + AGRICULTURE]]
    return [dos[k] for k, cost in costs if cost <= corn and (
        k == 1 or irrigation or jcorn[k] > jwood[k] or (k > 2 and jwood[k] > 0))]


def yaxchilan_dos(s: "TzolkinState", P: list[int], costs: Costs, corn: int) -> list[Any]:
    """:func:`yaxchilan_refusal` for every reachable action."""
    dos = A.DO[YAXCHILAN]
    skull_left = s.skulls > 0
    return [dos[k] for k, cost in costs if cost <= corn and (k != 4 or skull_left)]


def tikal_dos(s: "TzolkinState", P: list[int], costs: Costs, corn: int) -> list[Any]:
    """:func:`tikal_refusal` for every reachable action (each test made once)."""
    dos = A.DO[TIKAL]
    out: list[Any] = []
    tech: Optional[bool] = None
    for k, cost in costs:
        if cost > corn:
            continue
        if k == 1 or k == 3:
            if tech is None:
                tech = can_afford_tech(P)
            ok = tech
        elif k == 2 or k == 4:
            ok = can_build_any(s, P, k == 4)
        else:
            ok = bool(P[1] or P[2] or P[3])
        if ok:
            out.append(dos[k])
    return out


def uxmal_dos(s: "TzolkinState", P: list[int], costs: Costs, corn: int) -> list[Any]:
    """:func:`uxmal_refusal` for every reachable action, with the corn left after
    reaching it."""
    dos = A.DO[UXMAL]
    out: list[Any] = []
    for k, cost in costs:
        left = corn - cost
        if left < 0:
            continue
        if k == 1:
            ok = left >= UXMAL_TEMPLE_CORN
        elif k == 2:
            ok = left >= MIN_MARKET or P[1] + P[2] + P[3] > 0
        elif k == 3:
            ok = P[WORKERS] < DATA.max_workers
        elif k == 4:
            lvl = P[TECH + ARCHITECTURE]
            ok = any(uxmal_price(s, t, lvl) <= left for t in row_types(s))
        elif k == 5:
            ok = left >= MIRROR_CORN
        else:
            ok = True
        if ok:
            out.append(dos[k])
    return out


def chichen_dos(s: "TzolkinState", P: list[int], costs: Costs, corn: int) -> list[Any]:
    """:func:`chichen_refusal` for every reachable action."""
    if not P[SKULL]:
        return []
    dos = A.DO[CHICHEN]
    slots = s.skull_slots
    return [dos[k] for k, cost in costs if cost <= corn and slots[k] == EMPTY]


GEAR_DOS = (palenque_dos, yaxchilan_dos, tikal_dos, uxmal_dos, chichen_dos)
"""By gear index: (state, player, reachable (action, corn) pairs, corn) -> the actions
that :data:`GEAR_CHECKS` accepts, in the order of the pairs."""


def can_perform(s: "TzolkinState", seat: int, g: int, k: int, corn: int) -> bool:
    """Whether action ``k`` of gear ``g`` can be performed (see :func:`perform_refusal`)."""
    return perform_refusal(s, seat, g, k, corn) is None


def _costs(g: int, pos: int, ahead: bool) -> tuple[tuple[int, int], ...]:
    acts = ACTIONS[g]
    if pos > acts:
        return tuple((k, 0) for k in range(1, acts + 1))
    costs = {k: pos - k for k in range(1, pos + 1)}
    if ahead:
        if pos + 1 > acts:
            return tuple((k, 0) for k in range(1, acts + 1))
        costs[pos + 1] = 0
    return tuple(sorted(costs.items()))


# (action, corn) pairs by gear, space and whether Theology 1 reaches one space ahead
ACTION_COSTS = tuple(tuple((_costs(g, pos, False), _costs(g, pos, g == CHICHEN))
                           for pos in range(SPACES[g] + 1)) for g in range(len(GEARS)))
# ACTION_COSTS as {action: corn} maps, indexed alike (what a chosen action costs, looked up)
COST_OF: tuple[tuple[tuple[dict[int, int], ...], ...], ...] = tuple(
    tuple(tuple(dict(costs) for costs in pair) for pair in gear) for gear in ACTION_COSTS)


def reach(P: list[int], g: int, pos: int) -> tuple[tuple[int, int], ...]:
    """(action, corn to pay) reachable by a worker picked up from ``pos`` of gear ``g``:
    its own action, lower ones at 1 corn per step, all of them from a free-choice space,
    and with Theology 1 on Chichen Itza the action one space ahead for free."""
    return ACTION_COSTS[g][pos][g == CHICHEN and bool(CHICHEN_AHEAD[P[TECH + THEOLOGY]])]


def action_costs(P: list[int], g: int, pos: int) -> list[tuple[int, int]]:
    """:func:`reach` as a list."""
    return list(reach(P, g, pos))


def do_refusal(s: "TzolkinState", seat: int, g: int, pos: int, a: A.Do) -> Optional[Refusal]:
    """Picking up workers: the action of a worker picked up from ``pos`` of gear ``g``."""
    P = s.p[seat]
    if a.gear != GEARS[g]:
        return "Picking up workers", f"the worker was on {GEARS[g]}: only its actions are possible"
    costs = dict(reach(P, g, pos))
    if a.space not in costs:
        return "Picking up workers", (f"from space {pos} you may use that action or a lower one, "
                                      "paying 1 corn per step (free choice spaces allow any)")
    if costs[a.space] > P[CORN]:
        return "Picking up workers", (f"stepping back to {a.space} costs {costs[a.space]} corn; "
                                      f"you have {P[CORN]}")
    return perform_refusal(s, seat, g, a.space, P[CORN] - costs[a.space])


def mirror_refusal(s: "TzolkinState", seat: int, a: A.Do) -> Optional[Refusal]:
    """Uxmal 5 (and A2-T4): pay 1 corn, then any action 1-5 of Palenque, Yaxchilan, Tikal
    or Uxmal (not the mirror itself)."""
    g = GEARS.index(a.gear)
    if g not in MIRROR_GEARS or (g, a.space) == (UXMAL, 5) or not 1 <= a.space <= ACTIONS[g]:
        return "Uxmal 5: mirror", ("the mirror performs one action 1-5 of Palenque, Yaxchilan, "
                                   "Tikal or Uxmal (not Chichen Itza, not the mirror itself)")
    corn = s.p[seat][CORN] - MIRROR_CORN
    if corn < 0:
        return "Uxmal 5: mirror", f"the mirror costs {MIRROR_CORN} corn; you have none"
    return perform_refusal(s, seat, g, a.space, corn)


# ====================================================================================
# Placing and picking up workers
# ====================================================================================
def place_refusal(s: "TzolkinState", seat: int, g: int, placed: int) -> Optional[Refusal]:
    """Placement cost: the lowest free space of gear ``g`` plus this worker's tariff
    (:func:`placement_options` makes the same test for every gear at once)."""
    i = lowest_free(s.gears[g], SPACES[g])
    if i < 0:
        return "Placing workers", f"{GEARS[g]} has no free space"
    corn = s.p[seat][CORN]
    if i + TARIFF[placed] > corn:
        return "Placement cost", (f"space {i} of {GEARS[g]} costs {i + TARIFF[placed]} corn "
                                  f"({i} + tariff {TARIFF[placed]}); you have {corn}")
    return None


def start_space_refusal(s: "TzolkinState", seat: int, placed: int) -> Optional[Refusal]:
    """The Starting Player Space: free, and only the tariff is paid."""
    if s.sps != EMPTY:
        return "Starting Player Space", f"it already holds a worker of {who(s.sps)}"
    corn = s.p[seat][CORN]
    if TARIFF[placed] > corn:
        return "Placement cost", f"this worker's tariff is {TARIFF[placed]} corn; you have {corn}"
    return None


def placement_options(s: "TzolkinState", seat: int, placed: int) -> list[Any]:
    """Gears (and the Starting Player Space) where the next worker can be afforded: the
    tests of :func:`place_refusal` and :func:`start_space_refusal` (a free space, whose
    number plus the tariff is at most the player's corn), made for every gear at once."""
    P = s.p[seat]
    if P[READY] == 0:
        return []
    room = P[CORN] - TARIFF[placed]          # the highest space number the player can pay
    if room < 0:
        return []
    out: list[Any] = []
    for g, occ in enumerate(s.gears):        # (enumerate, not zip with SPACES: measured faster)
        try:
            i = occ.index(EMPTY)             # the lowest free hole: a space if below the last
        except ValueError:                   # every hole taken (never seen in play)
            continue
        if i <= room and i < SPACES[g]:
            out.append(PLACE[g])
    if s.sps == EMPTY:
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


BEG_MAX_CORN = DATA.beg_max_corn
# BEGS[mask]: the begging actions on the temples whose bit is set in mask (bit t: above
# the bottom step of temple t), in temple order
BEGS = tuple(tuple(A.BEG[t] for t in range(3) if mask >> t & 1) for mask in range(8))


def may_beg(P: list[int], begged: int) -> bool:
    """At the start of the turn with 2 corn or less, unless at the bottom of every temple."""
    return not begged and P[CORN] <= BEG_MAX_CORN and (P[TEMPLE] > -1 or P[TEMPLE + 1] > -1
                                                       or P[TEMPLE + 2] > -1)


def beg_refusal(P: list[int], begged: int, t: int) -> Optional[Refusal]:
    """Begging for corn: once, at the start of the turn, with 2 corn or less, stepping
    down on a temple where you are above the bottom step."""
    if begged:
        return "Begging for corn", "you may beg only once, at the start of your turn"
    if P[CORN] > DATA.beg_max_corn:
        return "Begging for corn", f"you have {P[CORN]} corn; begging needs 2 or fewer"
    return anger_refusal(P, t)


def anger_refusal(P: list[int], t: int) -> Optional[Refusal]:
    """Angering the gods: one step down on a temple where you are above the bottom."""
    if P[TEMPLE + t] > -1:
        return None
    return "Angering the gods", lambda: f"you are already on the bottom step of {TEMPLES[t]}"


def pick_refusal(s: "TzolkinState", seat: int, g: int, space: int) -> Optional[Refusal]:
    """Picking up workers: only your own, from a space of the gear."""
    if not 0 <= space < SPACES[g]:
        return "Picking up workers", f"{GEARS[g]} has no space {space}"
    occupant = s.gears[g][space]
    if occupant == seat:
        return None
    if occupant == EMPTY:
        return "Picking up workers", f"there is no worker on {GEARS[g]} space {space}"
    return "Picking up workers", (f"the worker on {GEARS[g]} space {space} belongs to "
                                  f"{who(occupant)}; you may only pick up your own")


# Where each seat's workers stand (``TzolkinState.at``): per seat a sorted list of keys
# ``AT_BASE[g] + space - day``; as every worker moves one space a day, a calendar turn
# leaves the keys as they are (only a worker pushed off the gear leaves the list).
# ``PICK_AT[key + day]`` is the pick-up action of the worker with ``key``.
AT_STRIDE, AT_OFFSET = 128, 64                 # day <= 64 (a game lasts 26 days and one turn)
AT_BASE = tuple(g * AT_STRIDE + AT_OFFSET for g in range(len(GEARS)))
PICK_AT = tuple(A.PICK[g][i - AT_OFFSET] if g < len(GEARS) and AT_OFFSET <= i < AT_OFFSET + SPACES[g]
                else None
                for g in range(len(GEARS)) for i in range(AT_STRIDE))


def worker_keys(s: "TzolkinState") -> list[list[int]]:
    """:attr:`TzolkinState.at` worked out from the gears (after a state was edited)."""
    day = s.day
    at: list[list[int]] = [[] for _ in range(s.num_players)]
    for base, occ, spaces in zip(AT_BASE, s.gears, SPACES):
        for i in range(spaces):
            if 0 <= occ[i] < DUMMY:
                at[occ[i]].append(base + i - day)
    return at


def pick_options(s: "TzolkinState", seat: int) -> list[Any]:
    """The player's workers on the gears, gear by gear, lowest space first (the spaces
    :func:`pick_refusal` accepts; a player's worker never stands above the last space),
    read from the seat's worker keys (:func:`worker_keys`)."""
    day = s.day
    return [PICK_AT[k + day] for k in s.at[seat]]


def scan_picks(s: "TzolkinState", seat: int) -> list[Any]:
    """:func:`pick_options` found by scanning the gears (the invariants compare both)."""
    out: list[Any] = []
    left = s.p[seat][ON_GEARS]               # stop once every worker on the gears is found
    for occ, picks in zip(s.gears, A.PICK):
        if not left:
            break
        n = occ.count(seat)
        if n:
            left -= n
            i = occ.index(seat)
            out.append(picks[i])
            while n > 1:
                i = occ.index(seat, i + 1)
                out.append(picks[i])
                n -= 1
    return out


# ====================================================================================
# Buildings and monuments
# ====================================================================================
def monument_refusal(s: "TzolkinState", P: list[int], m: int) -> Optional[Refusal]:
    """Monuments: on offer, paid in blocks and skulls (never reduced by architecture)."""
    if m not in s.monument_row:
        return "Monuments", lambda: f"{DATA.monuments[m].id} is not on offer"
    if payable(P, MCOST[m]) and P[SKULL] >= MSKULL[m]:
        return None
    return "Monuments", lambda: (f"{DATA.monuments[m].id} costs {cost_text(MCOST[m], MSKULL[m])}; you have "
                         f"{goods_text(P)}, {P[SKULL]} skull(s)")


def block_build_refusal(P: list[int], t: int, waive: int, arch: bool, waive_ok: bool,
                        keep_ok: bool, extra: bool) -> Optional[Refusal]:
    """A building paid in blocks (Tikal 2 and 4, A1-T3's extra building). ``waive_ok``:
    Architecture 3 applies (one block of the cost is waived, and must be named);
    ``keep_ok``: the first building of Tikal 4 may leave architecture for the second."""
    cost = BCOST[t]
    name = DATA.buildings[t].id
    if waive >= 0:
        if not waive_ok:
            return "Architecture", ("a block is waived only with Architecture 3, at Tikal, on one "
                                    "building of the action"
                                    + (" (not A1-T3's extra building)" if extra else ""))
        if not cost[waive]:
            return "Architecture", lambda: f"{name} costs no {RESOURCES[waive]} to waive"
        if not arch:
            return "Architecture", "a waived block is architecture: it cannot also be kept for the second building"
    elif not arch:
        if not keep_ok:
            return "Architecture", "only the first building of Tikal 4 may keep architecture for the second"
    elif waive_ok:
        return "Architecture", ("with Architecture 3 you waive one block of the cost: name it "
                                f"('build {name} waive wood')")
    if payable(P, cost, waive if arch else -1):
        return None
    return "Buildings", lambda: f"{name} costs {cost_text(cost)}; you have {goods_text(P)}"


def uxmal_build_refusal(s: "TzolkinState", P: list[int], t: int, waive: int,
                        arch: bool) -> Optional[Refusal]:
    """Uxmal 4: a building for corn; architecture applies as it is."""
    if waive >= 0 or not arch:
        return "Uxmal 4", "at Uxmal 4 you pay corn; architecture applies as it is (no block to waive)"
    price = uxmal_price(s, t, P[TECH + ARCHITECTURE])
    if price <= P[CORN]:
        return None
    return "Uxmal 4", lambda: f"{DATA.buildings[t].id} costs {price} corn here; you have {P[CORN]}"


# ====================================================================================
# Temples, market, blocks
# ====================================================================================
def step_refusal(s: "TzolkinState", seat: int, t: int) -> Optional[Refusal]:
    """Temples: a step up is possible unless at the top, or the top is held by another player."""
    if can_step_up(s, seat, t):
        return None
    held = ("you are on its top step" if s.p[seat][TEMPLE + t] >= TEMPLE_TOP[t]
            else "its top step is held by another player")
    return "Temples", lambda: f"you cannot climb {TEMPLES[t]}: {held}"


def block_refusal(P: list[int], r: int, rule: str) -> Optional[Refusal]:
    """A block paid from the player's own supply."""
    if P[WOOD + r]:
        return None
    return rule, lambda: f"you have no {RESOURCES[r]} to pay with"


def trade_refusal(P: list[int], locks: int, buy: bool, r: int) -> Optional[Refusal]:
    """Uxmal 2: one exchange at a time; a resource bought in this market is not sold
    back in it (and vice versa), which loses nothing since both go at the same rate."""
    name = RESOURCES[r]
    if buy:
        if P[CORN] < MARKET[r]:
            return "Uxmal 2: market", lambda: f"{name} costs {MARKET[r]} corn; you have {P[CORN]}"
        if locks & (SOLD << r):
            return "Uxmal 2: market", lambda: f"you sold {name} in this market; buying it back gains nothing"
        return None
    if not P[WOOD + r]:
        return "Uxmal 2: market", lambda: f"you have no {name} to sell"
    if locks & (BOUGHT << r):
        return "Uxmal 2: market", lambda: f"you bought {name} in this market; selling it back gains nothing"
    return None


def harvest_refusal(s: "TzolkinState", P: list[int], k: int, mode: int) -> Optional[Refusal]:
    """Palenque 3-5: corn (a visible Corn Harvest Tile, or any with Agriculture 2), wood
    (a Wood Harvest Tile left), or burning the forest (wood left, and a temple to anger)."""
    if mode == 0:
        if s.jcorn[k] > s.jwood[k] or IRRIGATION[P[TECH + AGRICULTURE]]:
            return None
        return ACTION_NAMES[PALENQUE][k], ("no Corn Harvest Tile is visible here (all covered by wood or taken)"
                                 "; Agriculture 2 would let you take the corn anyway")
    if s.jwood[k] == 0:
        return ACTION_NAMES[PALENQUE][k], "no Wood Harvest Tile is left here"
    if mode == 2 and not can_anger(P):
        return "Burn the forest", "you are on the bottom step of every temple and cannot anger the gods"
    return None

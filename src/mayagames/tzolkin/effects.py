"""Effects shared by actions, buildings, technologies and start tiles.

One interpreter (:func:`gain_building`) reads a building's effect parameters from
the data; choices it needs are pushed as decision frames on the state's stack. The
other functions are the small named behaviours the rules refer to: temple steps,
technology advances, goods from the bank.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .components import DATA, GOODS, TEMPLES, TRACKS
from .layout import (B_EXTRA, BONUS, CORN, FARM_DISC, FARM_FREE, K_BUILD, K_GAIN, K_MARKET,
                     K_MIRROR, K_TECH, K_TEMPLE, LIGHT, READY, SKULL, TECH, TEMPLE, TEMPLE_TOP, VP,
                     WORKERS)

if TYPE_CHECKING:
    from .state import TzolkinState


# --- goods ---------------------------------------------------------------------------
def gain_corn(s: "TzolkinState", P: list[int], n: int) -> None:
    """Take ``n`` corn from the bank (negative: pay it back)."""
    P[CORN] += n
    s.corn_out += n


def gain_skulls(s: "TzolkinState", P: list[int], n: int) -> int:
    """Take up to ``n`` crystal skulls from the limited supply (rules 15: as many as remain)."""
    n = min(n, s.skulls)
    P[SKULL] += n
    s.skulls -= n
    return n


def gain_workers(P: list[int], n: int) -> None:
    """Take up to ``n`` workers from the bank (at most 6 in play)."""
    n = min(n, DATA.max_workers - P[WORKERS])
    P[WORKERS] += n
    P[READY] += n


def blocks(P: list[int]) -> int:
    """Resource blocks held (wood + stone + gold)."""
    return P[1] + P[2] + P[3]


# --- temples (rules 10) ------------------------------------------------------------------
def top_taken_by_other(s: "TzolkinState", seat: int, t: int) -> bool:
    top = TEMPLE_TOP[t]
    return any(P[TEMPLE + t] == top for i, P in enumerate(s.p) if i != seat)


def can_step_up(s: "TzolkinState", seat: int, t: int) -> bool:
    """A step up is possible unless at the top, or the top is held by another player."""
    pos = s.p[seat][TEMPLE + t]
    top = TEMPLE_TOP[t]
    if pos >= top:
        return False
    return pos + 1 < top or not top_taken_by_other(s, seat, t)


def step_up(s: "TzolkinState", seat: int, t: int) -> bool:
    """Climb one step (wasted when impossible); reaching the top turns the board light side up."""
    if not can_step_up(s, seat, t):
        return False
    P = s.p[seat]
    P[TEMPLE + t] += 1
    if P[TEMPLE + t] == TEMPLE_TOP[t]:
        P[LIGHT] = 1
    return True


def can_anger(P: list[int]) -> bool:
    """Angering the gods needs a temple where you are above the bottom step."""
    return P[TEMPLE] > -1 or P[TEMPLE + 1] > -1 or P[TEMPLE + 2] > -1


# --- technologies (rules 11) ------------------------------------------------------------------
def advance_tech(s: "TzolkinState", seat: int, track: int) -> None:
    """Advance one level; at level 3 take the track's bonus instead (repeatable)."""
    P = s.p[seat]
    if P[TECH + track] < 3:
        P[TECH + track] += 1
        return
    kind, count = BONUS[track]
    if kind == "temple":          # Agriculture: a step on a temple of your choice
        for _ in range(count):
            s.stack.append((K_TEMPLE,))
    elif kind == "blocks":        # Extraction: resource blocks of your choice
        s.stack.append((K_GAIN, count))
    elif kind == "vp":            # Architecture
        P[VP] += count
    else:                         # Theology: crystal skulls from the supply
        gain_skulls(s, P, count)


# --- buildings: the effect interpreter (rules 12) --------------------------------------------
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
        s.stack.append((K_BUILD, B_EXTRA, 0, 0, 1, 0, 1))
    if "mirror" in eff:
        s.stack.append((K_MIRROR, 1))
    if "market" in eff:
        s.stack.append((K_MARKET, 0))
    if "any_tech" in eff:
        s.stack.append((K_TECH, 0, eff["any_tech"], 0))
    for _ in range(eff.get("any_temple", 0)):
        s.stack.append((K_TEMPLE,))
    for name, n in eff.get("temples", {}).items():
        for _ in range(n):
            step_up(s, seat, TEMPLES.index(name))
    for name, n in eff.get("techs", {}).items():
        for _ in range(n):
            advance_tech(s, seat, TRACKS.index(name))


def gain_goods(s: "TzolkinState", P: list[int], goods: dict[str, int]) -> None:
    """Corn, blocks and skulls from the bank (skulls limited by the supply)."""
    for name, n in goods.items():
        if name == "corn":
            gain_corn(s, P, n)
        elif name == "skull":
            gain_skulls(s, P, n)
        else:
            P[GOODS.index(name)] += n


# --- starting wealth tiles (rules 14) ------------------------------------------------------------
def gain_tile(s: "TzolkinState", seat: int, tile: int) -> None:
    """The items of a kept starting tile; temple steps and advances are free."""
    spec = DATA.tiles[tile]
    P = s.p[seat]
    gain_goods(s, P, dict(zip(GOODS, spec.gain)))
    for t, n in enumerate(spec.temples):
        for _ in range(n):
            step_up(s, seat, t)
    for track, n in enumerate(spec.techs):
        P[TECH + track] = min(3, P[TECH + track] + n)
    gain_workers(P, spec.workers)
    P[FARM_FREE] += spec.farm_free

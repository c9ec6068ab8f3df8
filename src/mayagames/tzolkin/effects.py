"""Effects shared by actions, buildings, technologies and start tiles that leave no
choice: goods from the bank, temple steps, the items of a starting tile.

Effects that may leave a choice (a technology bonus, a building's effects) push
decision frames and live with them in :mod:`mayagames.tzolkin.flow`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .components import DATA, GOODS
from .model import (CORN, FARM_FREE, LIGHT, READY, SKULL, TECH, TEMPLE, TEMPLE_TOP, WORKERS)

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
# per starting tile: its temple steps (a temple once per step) and its (track, levels)
TILE_STEPS = tuple(tuple(t for t, n in enumerate(spec.temples) for _ in range(n)) for spec in DATA.tiles)
TILE_TECHS = tuple(tuple((track, n) for track, n in enumerate(spec.techs) if n) for spec in DATA.tiles)


def gain_tile(s: "TzolkinState", seat: int, tile: int) -> None:
    """The items of a kept starting tile; temple steps and advances are free."""
    spec = DATA.tiles[tile]
    P = s.p[seat]
    corn, wood, stone, gold, skull = spec.gain      # GOODS order
    gain_corn(s, P, corn)
    P[1] += wood
    P[2] += stone
    P[3] += gold
    if skull:
        gain_skulls(s, P, skull)
    for t in TILE_STEPS[tile]:
        step_up(s, seat, t)
    for track, n in TILE_TECHS[tile]:
        P[TECH + track] = min(3, P[TECH + track] + n)
    if spec.workers:
        gain_workers(P, spec.workers)
    P[FARM_FREE] += spec.farm_free

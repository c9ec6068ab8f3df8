"""Plain-words summaries of what an action would give a seat now (its technologies and
the board included): the terminal shows them next to placements and pick-ups, and a
client may show them as tooltips.

>>> from mayagames.tzolkin.positions import blank, set_tech
>>> s = blank(2)
>>> set_tech(s, 0, "extraction", 3)
>>> action_summary(s, 0, YAXCHILAN, 5)
'2 stone (incl. +1 Extraction) + 2 gold (incl. +1 Extraction) + 2 corn'
>>> placement_costs(s, 0, placed=1)[:2]
[('palenque', 0, 1), ('yaxchilan', 0, 1)]
"""

from __future__ import annotations

from typing import Any

from .components import (AGRICULTURE, ARCHITECTURE, CHICHEN, DATA, EXTRACTION, GEARS, PALENQUE,
                         THEOLOGY, TIKAL, UXMAL, YAXCHILAN)
from .model import (ACT, ACTIONS, EMPTY, EXTRACT_BONUS, FISHING_BONUS,
                     HARVEST_BONUS, IRRIGATION, SPACES, TECH, UXMAL_DISCOUNT, WORKERS, YAX_SKULL)
from .rules import MARKET, TARIFF, lowest_free



def _bonus(n: int, tech: str) -> str:
    return f" (incl. +{n} {tech})" if n else ""


def harvest_options(s: Any, seat: int, k: int) -> dict[str, str]:
    """Palenque 2-5: what harvesting corn, wood, or burning would give (only the possible ones)."""
    P = s.p[seat]
    agri = P[TECH + AGRICULTURE]
    spec = ACT[PALENQUE][k - 1]
    corn = f"{spec['corn'] + HARVEST_BONUS[agri]} corn" + _bonus(HARVEST_BONUS[agri], "Agriculture")
    out = {}
    if s.jcorn[k] > s.jwood[k]:
        out["corn"] = f"{corn} + a Corn Harvest Tile"
    elif IRRIGATION[agri]:
        out["corn"] = f"{corn}, no tile (none visible: Agriculture 2)"
    if s.jwood[k]:
        ext = EXTRACT_BONUS[0][P[TECH + EXTRACTION]]
        out["wood"] = f"{spec['wood'] + ext} wood" + _bonus(ext, "Extraction") + " + a Wood Harvest Tile"
        out["burn"] = f"{corn} + a Corn Harvest Tile, then 1 temple down"
    return out


def palenque_summary(s: Any, seat: int, k: int) -> str:
    if k == 1:
        agri = s.p[seat][TECH + AGRICULTURE]
        bonus = FISHING_BONUS[agri]
        return f"fishing: {ACT[PALENQUE][0]['corn'] + bonus} corn" + _bonus(bonus, "Agriculture")
    parts = harvest_options(s, seat, k)
    if not parts:
        return "nothing left to harvest here"
    if list(parts) == ["corn"]:
        return parts["corn"]
    return " | ".join(f"{mode}: {text}" for mode, text in parts.items())


def yaxchilan_summary(s: Any, seat: int, k: int) -> str:
    P = s.p[seat]
    gain = ACT[YAXCHILAN][k - 1]["gain"]
    parts = []
    for r, name in enumerate(("wood", "stone", "gold")):
        if gain.get(name):
            ext = EXTRACT_BONUS[r][P[TECH + EXTRACTION]]
            parts.append(f"{gain[name] + ext} {name}" + _bonus(ext, "Extraction"))
    if gain.get("skull"):
        extra = YAX_SKULL[P[TECH + THEOLOGY]]
        n = min(gain["skull"] + extra, s.skulls)
        parts.append(f"{n} crystal skull" + _bonus(extra if n > 1 else 0, "Theology")
                     + (" (supply empty)" if not s.skulls else ""))
    if gain.get("corn"):
        parts.append(f"{gain['corn']} corn")
    return " + ".join(parts)


TIKAL_TEXT = {1: "advance 1 technology (pay its blocks)", 2: "build 1 building",
              3: "advance up to 2 technologies (pay their blocks)",
              4: "build up to 2 buildings, or 1 monument", 5: "pay 1 block: +1 step on two temples"}


def uxmal_summary(s: Any, seat: int, k: int) -> str:
    P = s.p[seat]
    spec = ACT[UXMAL][k - 1]
    if k == 1:
        return f"pay {spec['corn']} corn: +1 step on a temple"
    if k == 2:
        return "market: " + ", ".join(f"{name} {rate} corn" for name, rate in
                                      zip(("wood", "stone", "gold"), MARKET))
    if k == 3:
        return "+1 worker" if P[WORKERS] < DATA.max_workers else "+1 worker (none left for you)"
    if k == 4:
        less = UXMAL_DISCOUNT[P[TECH + ARCHITECTURE]]
        return f"build 1 building paying {spec['corn_per_block']} corn per block" + (
            f", {less} corn less (Architecture 3)" if less else "")
    return f"pay {spec['corn']} corn: any action of Palenque, Yaxchilan, Tikal or Uxmal"


def chichen_summary(s: Any, seat: int, k: int) -> str:
    spec = ACT[CHICHEN][k - 1]
    if s.skull_slots[k] != EMPTY:
        return "skull slot filled"
    text = f"leave a skull: {spec['vp']} VP + 1 {spec['temple']}"
    return text + (" + a block of your choice" if spec["block"] else "")


def action_summary(s: Any, seat: int, g: int, k: int) -> str:
    """What action ``k`` of gear ``g`` gives ``seat`` now (``k`` 0: none; above the regular
    actions: free choice)."""
    if k == 0:
        return "no action"
    if k > ACTIONS[g]:
        return "free choice: any action of this gear"
    if g == PALENQUE:
        return palenque_summary(s, seat, k)
    if g == YAXCHILAN:
        return yaxchilan_summary(s, seat, k)
    if g == TIKAL:
        return TIKAL_TEXT[k]
    if g == UXMAL:
        return uxmal_summary(s, seat, k)
    return chichen_summary(s, seat, k)


def placement_costs(s: Any, seat: int, placed: int) -> list[tuple[str, int, int]]:
    """(gear, space, corn) of the next worker's placement on each gear that has room
    (``"start"`` with space 0 for the Starting Player Space when it is free)."""
    tariff = TARIFF[placed] if placed < len(TARIFF) else TARIFF[-1]
    out = []
    for g, occ in enumerate(s.gears):
        i = lowest_free(occ, SPACES[g])
        if i >= 0:
            out.append((GEARS[g], i, i + tariff))
    if s.sps == EMPTY:
        out.append(("start", 0, tariff))
    return out


__all__ = ["action_summary", "harvest_options", "placement_costs"]

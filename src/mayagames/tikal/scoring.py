"""Scoring (rule 8): the same count for an In-Game (volcano) Scoring and the Final Scoring.

A player scores, on the current board:

* **temples**: the level of each temple they control (majority, or their Guardian);
* **tallest**: +5/+6/+8/+10 per controlled temple of level 7/8/9/10;
* **volcanoes**: 10 PP per Volcano tile where they have the majority;
* **jungles**: (Jungle hexes with their majority) x (temples they control);
* **lakes_ruins**: (gold masks visible on Ruins with their majority) x (Lakes with their
  majority); a Ruin still holding treasures shows 1 mask, an emptied one all its masks;
* **treasures**: per type held, 1/2/3/4/5 tokens score 1/3/6/10/15.

Majority is strict (gap A11): more presence (Leader 3, Explorer 1) than every other player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .model import JUNGLE, LAKE, RUINS, TEMPLE, VOLCANO

if TYPE_CHECKING:
    from .state import TikalState

CATEGORIES = ("temples", "tallest", "volcanoes", "jungles", "lakes_ruins", "treasures")


def TREASURE_SET_VALUE(s: TikalState, n: int) -> int:
    values = s.C.set_values
    return values[min(n, len(values) - 1)]


def majority_hexes(s: TikalState, seat: int, kind: int) -> list[int]:
    """Hexes of ``kind`` where ``seat`` has the majority (ascending; a majority needs one
    of the seat's EMs there, so only those hexes are weighed)."""
    base = seat * s.H
    ex = s.explorers
    ld = s.leaders
    majority = s.majority
    return [h for h in s.hexes_by_kind[kind] if (ex[base + h] or ld[base + h]) and majority(h) == seat]


def controlled_temple_levels(s: TikalState, seat: int, guardians: bool = True) -> list[int]:
    """Levels of the temples ``seat`` controls (majority, or Guardian when ``guardians``)."""
    levels = []
    base = seat * s.H
    ex = s.explorers
    ld = s.leaders
    guardian = s.guardian
    for h in s.hexes_by_kind[TEMPLE]:
        g = guardian[h]
        if g >= 0:
            if guardians and g == seat:
                levels.append(s.level[h])
        elif (ex[base + h] or ld[base + h]) and s.majority(h) == seat:
            levels.append(s.level[h])
    return levels


def treasure_points(s: TikalState, seat: int) -> int:
    T = len(s.C.treasure_types)
    values = s.C.set_values
    last = len(values) - 1  # :func:`TREASURE_SET_VALUE`, inlined
    return sum([values[n if n < last else last] for n in s.museum[seat * T:(seat + 1) * T]])


def score_breakdown(s: TikalState, seat: int) -> dict[str, Any]:
    """What ``seat`` would score now, per category, with the ``total``."""
    temples = controlled_temple_levels(s, seat)
    volcanoes = majority_hexes(s, seat, VOLCANO)
    jungles = majority_hexes(s, seat, JUNGLE)
    ruins = majority_hexes(s, seat, RUINS)
    lakes = majority_hexes(s, seat, LAKE)
    part = {
        "temples": sum(temples),
        "tallest": sum(s.C.tallest_bonus.get(level, 0) for level in temples),
        "volcanoes": s.C.volcano_pp * len(volcanoes),
        "jungles": len(jungles) * len(temples),
        "lakes_ruins": sum(s.visible_masks(h) for h in ruins) * len(lakes),
        "treasures": treasure_points(s, seat),
    }
    part["total"] = sum(part[c] for c in CATEGORIES)
    return part


def score_if_now(s: TikalState) -> list[int]:
    """Each seat's score if a scoring happened now."""
    return [score_breakdown(s, seat)["total"] for seat in range(s.num_players)]

"""Food Days, temple rewards, monuments and final scoring (rules 10, 13, 16, 18)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .components import CATEGORIES, DATA
from .deferred import AGE_1, deal_deferred
from .effects import gain_corn
from .model import (CORN, CTILES, EMPTY, FARM_DISC, FARM_FREE, FOOD_AGE, FOOD_KIND, GOLD,
                     INSTANCE_TYPE, SKULL, STONE, TECH, TEMPLE, TEMPLE_REWARD, TEMPLE_TOP,
                     TEMPLE_VP, VP, WOOD, WORKERS, WTILES)

if TYPE_CHECKING:
    from .state import TzolkinState


# --- Food Days ---------------------------------------------------------------------------
def feeding_cost(P: list[int]) -> tuple[int, int]:
    """(workers that need corn, corn each) after farms; no worker needs less than 0."""
    need = max(0, P[WORKERS] - P[FARM_FREE])
    return need, max(0, DATA.corn_per_worker - P[FARM_DISC])


def feed(s: "TzolkinState", P: list[int]) -> int:
    """Feed as many workers as possible; -3 VP per unfed worker. Returns unfed workers."""
    need, each = feeding_cost(P)
    if each == 0 or need == 0:
        return 0
    fed = min(need, P[CORN] // each)
    gain_corn(s, P, -fed * each)
    unfed = need - fed
    P[VP] += unfed * DATA.unfed_vp
    return unfed


def food_day(s: "TzolkinState") -> None:
    """The Food Day after everyone's turn: feed, change buildings (end of Age 1), rewards."""
    index = s.food_done
    s.last_unfed = [feed(s, P) for P in s.p]
    if FOOD_KIND[index] == "end" and FOOD_AGE[index] == 1:
        change_age(s)
    if FOOD_KIND[index] == "middle":
        middle_of_age_rewards(s)
    else:
        end_of_age_rewards(s, FOOD_AGE[index])
    s.food_done += 1


def change_age(s: "TzolkinState") -> None:
    """End of Age 1: remaining Age 1 buildings leave; six Age 2 buildings are dealt."""
    for slot, inst in enumerate(s.display):
        if inst != EMPTY:
            s.building_box.append(inst)
            s.display[slot] = EMPTY
    if s.deferred is not None:
        deal_deferred(s, AGE_1)      # a search's world: the stack's order, as drawn
    s.building_box.extend(s.stacks[0])
    s.stacks[0] = []
    s.age = 2
    refill_display(s)


def refill_display(s: "TzolkinState") -> None:
    """Fill empty building spaces from the current age's stack (blank when it is empty)."""
    if s.deferred is not None:
        deal_deferred(s, s.age - 1)  # a search's world shuffles the stack when it is drawn
    stack = s.stacks[s.age - 1]
    for slot, inst in enumerate(s.display):
        if inst == EMPTY and stack:
            s.display[slot] = stack.pop()
            s.draws += 1


def middle_of_age_rewards(s: "TzolkinState") -> None:
    """Resources and skulls of your step and every step below; if the supply cannot give
    every eligible player a skull, nobody gets one."""
    rewards = [[TEMPLE_REWARD[t][P[TEMPLE + t] + 1] for t in range(3)] for P in s.p]
    skulls = sum(r[3] for row in rewards for r in row)
    give_skulls = skulls <= s.skulls
    for P, row in zip(s.p, rewards):
        for wood, stone, gold, skull in row:
            P[WOOD] += wood
            P[STONE] += stone
            P[GOLD] += gold
            if give_skulls and skull:
                P[SKULL] += skull
                s.skulls -= skull


def end_of_age_rewards(s: "TzolkinState", age: int) -> None:
    """VP of your current step on each temple; the highest player gets the age bonus,
    tied highest players half of it each."""
    vp0, vp1, vp2 = TEMPLE_VP
    for P in s.p:
        P[VP] += vp0[P[TEMPLE] + 1] + vp1[P[TEMPLE + 1] + 1] + vp2[P[TEMPLE + 2] + 1]
    for t, spec in enumerate(DATA.temples):
        steps = [P[TEMPLE + t] for P in s.p]
        best = max(steps)
        bonus = spec.bonus[age - 1]
        share = bonus if steps.count(best) == 1 else bonus // 2
        for P, step in zip(s.p, steps):
            if step == best:
                P[VP] += share


# --- monuments (rules 13) ------------------------------------------------------------------
def owned_categories(s: "TzolkinState", seat: int) -> dict[str, int]:
    """How many buildings and monuments of each category ``seat`` owns."""
    counts = dict.fromkeys(CATEGORIES, 0)
    for inst in s.built[seat]:
        counts[DATA.buildings[INSTANCE_TYPE[inst]].category] += 1
    for m in s.monuments[seat]:
        counts[DATA.monuments[m].category] += 1
    return counts


def monument_vp(s: "TzolkinState", seat: int, m: int) -> int:
    """End-game VP of monument ``m`` for ``seat``."""
    sc = DATA.monuments[m].scoring
    kind = sc["kind"]
    P = s.p[seat]
    if kind == "per_category":
        return sc["vp"] * owned_categories(s, seat)[sc["category"]]
    if kind == "per_building":
        return sc["vp"] * (len(s.built[seat]) + len(s.monuments[seat]))
    if kind == "per_corn_tile":
        return sc["vp"] * P[CTILES]
    if kind == "per_wood_tile":
        return sc["vp"] * P[WTILES]
    if kind == "per_monument_built":
        return sc["vp_by_players"][str(s.num_players)] * sum(len(ms) for ms in s.monuments)
    if kind == "techs_at_level3":
        return sc["vp_by_count"][sum(1 for t in range(4) if P[TECH + t] >= 3)]
    if kind == "per_tech_level":
        return sc["vp"] * sum(P[TECH:TECH + 4])
    if kind == "workers_in_play":
        return sc["vp_by_workers"].get(str(P[WORKERS]), 0)
    if kind == "temples_again":
        return sum(TEMPLE_VP[t][P[TEMPLE + t] + 1] for t in range(3))
    if kind == "highest_temple_steps":
        return sc["vp"] * max(0, max(P[TEMPLE:TEMPLE + 3]))
    if kind == "skulls_on_chichen":
        return sc["vp"] * sum(1 for x in s.skull_slots[1:] if x != EMPTY)
    raise ValueError(f"unknown monument scoring {kind!r}")


# --- final scoring (rules 18) -------------------------------------------------------------------
def corn_value(P: list[int]) -> int:
    """Corn plus resources converted at the market rate."""
    return P[CORN] + sum(P[WOOD + r] * DATA.market[r] for r in range(3))


def final_breakdown(s: "TzolkinState", seat: int) -> dict[str, Any]:
    """The final score of ``seat``, item by item."""
    P = s.p[seat]
    corn = corn_value(P)
    if s.options.get("corn_vp", "exact") == "floor":
        corn_vp: float = float(corn // DATA.corn_per_vp)
    else:
        corn_vp = corn / DATA.corn_per_vp
    monuments = {DATA.monuments[m].id: monument_vp(s, seat, m) for m in s.monuments[seat]}
    skulls = P[SKULL] * DATA.skull_vp
    total = P[VP] + corn_vp + skulls + sum(monuments.values())
    return {"vp_track": P[VP], "corn_after_conversion": corn, "corn_vp": corn_vp,
            "skulls_vp": skulls, "monuments": monuments, "total": total}


def check_top_unique(s: "TzolkinState") -> list[str]:
    """Invariant: at most one player on the top step of each temple."""
    return [f"several players on the top of {DATA.temples[t].name}" for t in range(3)
            if sum(1 for P in s.p if P[TEMPLE + t] == TEMPLE_TOP[t]) > 1]

"""A game-specific estimate of each seat's FINAL score, for bots (leaf evaluation).

``estimate_scores(state)`` works on a full state or on any seat's view: it reads
only public information (goods, workers, temples, technologies, buildings,
monuments, the calendar, the gears). At the end of the game it returns the exact
final scores.

The estimate of a seat is the sum of:

* **banked points**: VP on the track, the final value of goods (corn and blocks at
  the market rate, 1/4 VP per corn; 3 VP per skull) and monuments scored as if the
  game ended now;
* **goods in play** (:func:`goods_outlook`): while there is time to use them,
  resource blocks and corn are worth more than their final value (blocks build
  buildings and pay for technologies, corn pays for workers): a premium per unit
  (:data:`GOODS_PREMIUM`) scaled by the share of the game left;
* **temples**: for each end-of-age Food Day still to come, the VP of the current
  step plus the leader bonus (half when tied); for each middle-of-age Food Day to
  come, the goods of the current step and below at their final value;
* **feeding** (:func:`feeding_outlook`): the corn still owed at future Food Days
  (after farms) at 1/4 VP each, and, for the next Food Day, the unfed penalty of
  the workers that the corn held *plus the corn on its way* (workers on Palenque)
  cannot feed, weighted by how close that Food Day is (:data:`HUNGER_WEIGHT`);
* **workers on the gears** (:func:`gear_outlook`): a worker waiting on a gear is
  worth what its eventual action is worth (:data:`GEAR_VALUE`, by gear and space:
  the longer it rode, the better the action it reaches), fading in the last rounds,
  when it may not be picked up in time; a worker in front of its owner is worth
  :data:`READY_VP` (it can be placed next turn);
* **time left**: each worker in play is worth :data:`WORKER_VP_PER_ROUND` for every
  round left, each technology level :data:`TECH_VP_PER_ROUND`, a skull still held
  is expected to reach Chichen Itza (:data:`SKULL_ACTION_VP`) while there is time.

The gear values and the premiums make the one-ply greedy bot play Tzolk'in's
timing: placing a worker costs corn now and pays later, picking one up early
wastes its ride, and corn must be on its way before a Food Day. The weights are
hand-set and documented here (see ``docs/bots.md`` for how they were checked:
win rates against random and against the previous estimate).
"""

from __future__ import annotations

from typing import Any

from .components import CHICHEN, DATA, PALENQUE, THEOLOGY
from .flow import ChooseAction
from .model import (CHICHEN_AHEAD, CORN, FARM_DISC, FARM_FREE, FOOD_DAYS, FOOD_KIND, GOLD, ON_GEARS, OVER, READY,
                     SKULL, SPACES, STONE, TECH, TEMPLE, TEMPLE_REWARD, TEMPLE_VP, VP, WOOD, WORKERS)
from .scoring import corn_value, feeding_cost, monument_vp

LAST_DAY = FOOD_DAYS[-1]
GAME_ROUNDS = LAST_DAY - 1          # rounds after the first one
WORKER_VP_PER_ROUND = 0.45      # what one worker's actions add per remaining round
TECH_VP_PER_ROUND = 0.12        # what one technology level adds per remaining round
SKULL_ACTION_VP = 7.0           # a skull left on Chichen Itza (average of its spaces, plus a step)
GOODS_VP = (0.5, 0.75, 1.0, 3.0)  # final value of a wood, stone, gold, skull from a temple
GOODS_PREMIUM = (0.15, 0.5, 0.6, 0.7)  # extra VP per corn, wood, stone, gold while the game is young
READY_VP = 0.6                  # a worker in front of its owner (it can be placed again)
HUNGER_WEIGHT = (1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.7)  # by days to the next Food Day (0, 1, 2...)
HUNGER_FAR = 0.5                # weight when the next Food Day is further away
# A typical decisive final margin (MCTS temperature, ``easy`` noise unit), fitted on heuristic
# self-play: sigmoid(estimated margin / SCORE_SCALE) predicts the 2-player winner best between
# 10 (last third of the game) and 25 (first two thirds), nearly flat from 12 to 30.
SCORE_SCALE = 12.0
# estimate_scores reads only public information, so a full state gives the same estimate as
# any seat's view of it (tests/equivalence checks this); bots may skip building the view.
PUBLIC_ESTIMATE = True
# every action whose result depends on hidden parts says so in reveals_information (a drawn
# building, a draft pick: ``TzolkinState.reveals_information``); bots may value the others
# once for all sampled worlds (tests/equivalence checks it)
CHANCE_IS_REVEALED = True
GREEDY_DEPTH = 3                # own consecutive decisions the heuristic bot looks through (a turn)

# VP a worker brings when it is picked up from each space of each gear NOW (space 0 is the
# entry; spaces above the last action are free choice): roughly the in-play value of the
# action there, read with this estimate's own prices (corn 0.4, wood 1, stone 1.35, gold
# 1.7, a skull 7 while it can still reach Chichen Itza). Same order as ``DATA.gears``.
PICK_VALUE: tuple[tuple[float, ...], ...] = (
    (0.0, 1.2, 1.6, 2.0, 2.8, 3.6, 3.6, 3.6),               # Palenque: corn 3, 4, 5, 7, 9 (or wood)
    (0.0, 1.0, 1.75, 2.5, 4.5, 3.9, 4.5, 4.5),              # Yaxchilan: wood; stone; gold; skull; 3 goods
    (0.0, 2.0, 1.5, 3.0, 3.0, 4.0, 4.0, 4.0),               # Tikal: tech; build; 2 techs; builds; temples
    (0.0, 1.3, 0.3, 5.0, 1.5, 2.0, 5.0, 5.0),               # Uxmal: temple; market; worker; build; mirror
    (0.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 9.0, 9.0, 9.0),  # Chichen Itza: a skull for VP 4..13
)
# Corn a worker on Palenque brings, by space, when it is picked up (fishing at best below 2).
PALENQUE_CORN: tuple[int, ...] = (3, 3, 4, 5, 7, 9, 9, 9)
WAIT_VP = 0.45                  # what a worker loses for each more day it waits on a gear


def rounds_left(s: Any) -> int:
    """Rounds still to play after this one (0 in the last round)."""
    return max(0, LAST_DAY - s.day)


def share_left(s: Any) -> float:
    """Share of the game still to play: 1 at the start, 0 in the last round."""
    return min(1.0, rounds_left(s) / GAME_ROUNDS)


# VP value of the middle-of-age reward of each step of each temple (goods at final value).
MIDDLE_VP = tuple(tuple(sum(n * v for n, v in zip(reward, GOODS_VP)) for reward in rewards)
                  for rewards in TEMPLE_REWARD)


def temple_leaders(s: Any) -> list[tuple[int, int]]:
    """(highest step, players on it) of each temple."""
    out = []
    for t in range(3):
        steps = [Q[TEMPLE + t] for Q in s.p]
        best = max(steps)
        out.append((best, steps.count(best)))
    return out


def temple_outlook(s: Any, seat: int, leaders: list[tuple[int, int]] | None = None) -> float:
    """VP still to come from the temples at the remaining Food Days (rules 10): at an
    end-of-age day the VP of the current step and the leader's bonus (half when tied),
    at a middle-of-age day the goods of the step and below."""
    P = s.p[seat]
    leaders = leaders or temple_leaders(s)
    key = (s.food_done, P[TEMPLE], P[TEMPLE + 1], P[TEMPLE + 2], *leaders)
    found = _TEMPLE_OUTLOOK.get(key)
    if found is None:  # a pure function of the key: remembered (a few hundred keys at most)
        found = _TEMPLE_OUTLOOK[key] = _temple_outlook(s.food_done, P, leaders)
    return found


_TEMPLE_OUTLOOK: dict[tuple, float] = {}


def _temple_outlook(food_done: int, P: list[int], leaders: list[tuple[int, int]]) -> float:
    total = 0.0
    steps = [P[TEMPLE + t] + 1 for t in range(3)]
    for index in range(food_done, 4):
        if FOOD_KIND[index] == "end":
            age = 1 if index < 2 else 2
            total += TEMPLE_VP[0][steps[0]] + TEMPLE_VP[1][steps[1]] + TEMPLE_VP[2][steps[2]]
            for t, spec in enumerate(DATA.temples):
                best, count = leaders[t]
                if steps[t] - 1 == best:
                    total += spec.bonus[age - 1] / (1 if count == 1 else 2)
        else:
            total += MIDDLE_VP[0][steps[0]] + MIDDLE_VP[1][steps[1]] + MIDDLE_VP[2][steps[2]]
    return total


_UNSET: Any = object()  # an optional argument not given: computed from the state


def picked_worker(s: Any, seat: int) -> tuple[int, int] | None:
    """(gear, space) of the worker ``seat`` has just picked up and not yet used."""
    top = s.stack[-1] if s.stack else None
    if s.cur == seat and isinstance(top, ChooseAction):
        return top.gear, top.space
    return None


def corn_on_the_way(s: Any, seat: int, picked: Any = _UNSET) -> int:
    """Corn the seat's workers on Palenque bring when picked up (rules 3: its spaces),
    the one just picked up there included (``picked``: :func:`picked_worker`, if known)."""
    occ = s.gears[PALENQUE]
    corn = 0
    if seat in occ:
        corn = sum([PALENQUE_CORN[pos] for pos in range(SPACES[PALENQUE]) if occ[pos] == seat])
    if picked is _UNSET:
        picked = picked_worker(s, seat)
    if picked is not None and picked[0] == PALENQUE:
        corn += PALENQUE_CORN[picked[1]]
    return corn


def waiting_value(g: int, pos: int, rounds: int) -> float:
    """What a worker on space ``pos`` of gear ``g`` is worth if its owner picks it up at
    the best later moment (at most ``rounds`` days on, and before it falls off the top)."""
    found = _WAITING.get((g, pos, rounds))
    if found is None:  # a pure function of small integers: remembered
        found = _WAITING[g, pos, rounds] = _waiting_value(g, pos, rounds)
    return found


_WAITING: dict[tuple[int, int, int], float] = {}


def _waiting_value(g: int, pos: int, rounds: int) -> float:
    values = PICK_VALUE[g]
    last = min(len(values) - 1, pos + rounds)
    return max(values[q] - WAIT_VP * (q - pos) for q in range(pos, last + 1))


def hunger_weight(days: int) -> float:
    return HUNGER_WEIGHT[days] if 0 <= days < len(HUNGER_WEIGHT) else HUNGER_FAR


def feeding_outlook(s: Any, seat: int, share: float | None = None, picked: Any = _UNSET) -> float:
    """VP lost to feeding at the remaining Food Days (rules 8): the corn owed (after
    farms) at 1/4 VP each, and the unfed penalty (3 VP and the corn a worker would
    have eaten) of the workers that the corn held and on its way cannot feed at the
    next Food Day, weighted by how close it is. (``share``: :func:`share_left`,
    ``picked``: :func:`picked_worker`, when the caller knows them.)"""
    P = s.p[seat]
    days = 4 - s.food_done
    need, each = feeding_cost(P)
    owed = days * need * each
    penalty = 0.0
    if days and each:
        short = need * each - P[CORN] - corn_on_the_way(s, seat, picked)
        if short > 0:
            unfed = -(-short // each)
            weight = hunger_weight(FOOD_DAYS[s.food_done] - s.day)
            penalty = weight * unfed * (DATA.unfed_vp - each / DATA.corn_per_vp)
    if share is None:
        share = share_left(s)
    corn_vp = 1 / DATA.corn_per_vp + GOODS_PREMIUM[0] * share  # corn eaten is not spent
    return -owed * corn_vp + penalty


def banked(s: Any, seat: int) -> float:
    """What the seat would score if the game ended now (before Food Days still due)."""
    P = s.p[seat]
    built = s.monuments[seat]
    monuments = sum([monument_vp(s, seat, m) for m in built]) if built else 0
    return P[VP] + corn_value(P) / DATA.corn_per_vp + P[SKULL] * DATA.skull_vp + monuments


def goods_outlook(s: Any, seat: int, share: float | None = None) -> float:
    """The premium of goods held while they can still be used (corn, wood, stone, gold)."""
    P = s.p[seat]
    corn, wood, stone, gold = GOODS_PREMIUM
    return (share_left(s) if share is None else share) * (P[CORN] * corn + P[WOOD] * wood + P[STONE] * stone + P[GOLD] * gold)


def gear_outlook(s: Any, seat: int, left: int | None = None, picked: Any = _UNSET) -> float:
    """Workers on the gears (by the action they reach) and workers ready to be placed
    (``left``: :func:`rounds_left`, ``picked``: :func:`picked_worker`, if known)."""
    P = s.p[seat]
    if left is None:
        left = rounds_left(s)
    total = P[READY] * READY_VP
    ahead = CHICHEN_AHEAD[P[TECH + THEOLOGY]]  # Theology 1: one Chichen space ahead
    if P[ON_GEARS]:
        known = _WAITING
        for g, occ in enumerate(s.gears):
            if g == CHICHEN or seat not in occ:  # (the membership test only saves time)
                continue
            for pos in range(SPACES[g]):
                if occ[pos] == seat:
                    value = known.get((g, pos, left))
                    total += waiting_value(g, pos, left) if value is None else value
        if P[SKULL]:  # each skull needs a worker on Chichen Itza: the best ones count
            occ = s.gears[CHICHEN]
            last = SPACES[CHICHEN] - 1
            chichen = sorted([waiting_value(CHICHEN, min(pos + ahead, last), left)
                              for pos in range(SPACES[CHICHEN]) if occ[pos] == seat], reverse=True)
            total += sum(chichen[:P[SKULL]])
    if picked is _UNSET:
        picked = picked_worker(s, seat)
    if picked is not None:  # about to act: worth its action now
        g, pos = picked
        if g == CHICHEN:
            pos = min(pos + ahead, SPACES[g] - 1) if P[SKULL] else 0
        total += PICK_VALUE[g][pos]
    return total


def time_outlook(s: Any, seat: int, left: int | None = None) -> float:
    """Value of workers, technologies and skulls over the rounds left."""
    P = s.p[seat]
    if left is None:
        left = rounds_left(s)
    techs = sum(P[TECH:TECH + 4])
    skull_gain = max(0.0, SKULL_ACTION_VP - DATA.skull_vp) * min(P[SKULL], left // 2)
    return left * (P[WORKERS] * WORKER_VP_PER_ROUND + techs * TECH_VP_PER_ROUND) + skull_gain


def estimate_by_parts(state: Any) -> list[float]:
    """:func:`estimate_scores` as the sum of its named parts (the reference it is checked
    against, bit for bit)."""
    if state.phase == OVER:
        return state.scores()
    leaders = temple_leaders(state)
    left = rounds_left(state)  # what every seat's terms share, computed once
    share = min(1.0, left / GAME_ROUNDS)
    mover = state.cur
    moving = picked_worker(state, mover)
    out = []
    for seat in range(state.num_players):
        picked = moving if seat == mover else None
        out.append(banked(state, seat) + goods_outlook(state, seat, share) + temple_outlook(state, seat, leaders)
                   + feeding_outlook(state, seat, share, picked) + gear_outlook(state, seat, left, picked)
                   + time_outlook(state, seat, left))
    return out


SKULL_GAIN: float = max(0.0, SKULL_ACTION_VP - DATA.skull_vp)  # a held skull's worth on Chichen Itza


def estimate_scores(state: Any) -> list[float]:
    """Estimated final score of every seat (exact once the game is over): the parts of
    :func:`estimate_by_parts` (banked, goods, temples, feeding, gears, time), the small
    ones written inline, added in the same order (the same floats; a search calls this at
    the end of every rollout)."""
    s = state
    if s.phase == OVER:
        return s.scores()
    leaders = temple_leaders(s)
    left = max(0, LAST_DAY - s.day)                  # rounds_left
    share = min(1.0, left / GAME_ROUNDS)
    mover = s.cur
    moving = picked_worker(s, mover)
    food_done = s.food_done
    days = 4 - food_done
    per_vp = DATA.corn_per_vp
    corn_vp = 1 / per_vp + GOODS_PREMIUM[0] * share  # feeding_outlook: corn eaten is not spent
    corn, wood, stone, gold = GOODS_PREMIUM
    m_wood, m_stone, m_gold = DATA.market
    out = []
    for seat in range(s.num_players):
        P = s.p[seat]
        picked = moving if seat == mover else None
        built = s.monuments[seat]                    # banked
        monuments = sum([monument_vp(s, seat, m) for m in built]) if built else 0
        value = (P[CORN] + (P[WOOD] * m_wood + P[STONE] * m_stone + P[GOLD] * m_gold)) / per_vp
        total = P[VP] + value + P[SKULL] * DATA.skull_vp + monuments
        total += share * (P[CORN] * corn + P[WOOD] * wood + P[STONE] * stone + P[GOLD] * gold)
        total += temple_outlook(s, seat, leaders)
        need = max(0, P[WORKERS] - P[FARM_FREE])    # feeding_outlook (feeding_cost inlined)
        each = max(0, DATA.corn_per_worker - P[FARM_DISC])
        penalty = 0.0
        if days and each:
            short = need * each - P[CORN] - corn_on_the_way(s, seat, picked)
            if short > 0:
                unfed = -(-short // each)
                weight = hunger_weight(FOOD_DAYS[food_done] - s.day)
                penalty = weight * unfed * (DATA.unfed_vp - each / per_vp)
        total += -(days * need * each) * corn_vp + penalty
        total += gear_outlook(s, seat, left, picked)
        techs = P[TECH] + P[TECH + 1] + P[TECH + 2] + P[TECH + 3]   # time_outlook
        total += (left * (P[WORKERS] * WORKER_VP_PER_ROUND + techs * TECH_VP_PER_ROUND)
                  + SKULL_GAIN * min(P[SKULL], left // 2))
        out.append(total)
    return out


# --- the estimate v2 of issue 21 (``eval=v2``; the ``medium`` level's until the learned one) ---
# v1 (``estimate_scores``, named ``v1``: the game's default, used by MCTS, reviews and hints)
# corrected where the audit (benchmarks/bench_audit.py) found v1's greedy bots losing points:
# they starved (9 unfed workers a game: v1 weighs a shortfall at a Food Day more than a week
# away by half and ignores the Food Day after it, so the corn came too late). In MCTS's
# rollout cut-offs v2 gained nothing measurable (docs/bots.md), so the default stays v1.
# The learned estimate (``learned.py``, ``eval=learned``, now ``medium``'s) is v2 plus a fitted correction.
V2 = {
    "hunger_far": 1.0,        # weight of the next Food Day's shortfall whatever its distance
    "hunger_next": 0.6,       # weight of the shortfall at the Food Day after it
    "unfed_extra": 1.0,       # VP a starving worker costs beyond the 3 VP (its actions lost)
    "worker_round": 0.45,     # v1's WORKER_VP_PER_ROUND (0.3 fed the workers better, won less)
    "temple_step": 0.0,       # VP per temple step above the bottom, times the share of the game left
    "tech_level": 0.0,        # VP per technology level, times the share of the game left
    "building": 0.0,          # VP per building or monument built, times the share of the game left
}


def estimate_scores_v2(state: Any) -> list[float]:
    """Estimated final score of every seat (exact once the game is over): v1
    (:func:`estimate_scores`) plus the corrections of :func:`v2_correction`."""
    s = state
    if s.phase == OVER:
        return s.scores()
    base = estimate_scores(s)
    return [v + v2_correction(s, seat) for seat, v in enumerate(base)]


def v2_correction(s: Any, seat: int, w: dict[str, float] = V2) -> float:
    """What v2 adds to v1's estimate of ``seat`` (the game not over)."""
    P = s.p[seat]
    food_done = s.food_done
    days = 4 - food_done
    total = 0.0
    left = max(0, LAST_DAY - s.day)
    total += left * P[WORKERS] * (w["worker_round"] - WORKER_VP_PER_ROUND)
    share = min(1.0, left / GAME_ROUNDS)
    total += share * (w["temple_step"] * (P[TEMPLE] + P[TEMPLE + 1] + P[TEMPLE + 2] + 3)
                      + w["tech_level"] * (P[TECH] + P[TECH + 1] + P[TECH + 2] + P[TECH + 3])
                      + w["building"] * (len(s.built[seat]) + len(s.monuments[seat])))
    need, each = feeding_cost(P)
    if not (days and each and need):
        return total
    picked = picked_worker(s, seat) if s.cur == seat else None
    have = P[CORN] + corn_on_the_way(s, seat, picked)
    per_worker = -DATA.unfed_vp + each / DATA.corn_per_vp
    to_day = FOOD_DAYS[food_done] - s.day
    v1_weight = hunger_weight(to_day)
    short = need * each - have
    unfed = -(-short // each) if short > 0 else 0
    # the next Food Day: full weight (v1 gave it v1_weight), and what starving costs beyond 3 VP
    total -= unfed * (per_worker * (max(v1_weight, w["hunger_far"]) - v1_weight) + w["unfed_extra"])
    if days > 1:  # the Food Day after: corn for both, what the first leaves unfed excepted
        short2 = 2 * need * each - have
        unfed2 = (-(-short2 // each) if short2 > 0 else 0) - unfed
        total -= unfed2 * (per_worker + w["unfed_extra"]) * w["hunger_next"]
    return total


def tie_break_workers(state: Any) -> list[int]:
    """Workers on the gears per seat (the final tie-break, for bots that need it)."""
    return [P[ON_GEARS] for P in state.p]

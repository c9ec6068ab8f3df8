"""A game-specific estimate of each seat's FINAL score, for bots (leaf evaluation).

``estimate_scores(state)`` works on a full state or on any seat's view: it reads
only public information (goods, workers, temples, technologies, buildings,
monuments, the calendar). At the end of the game it returns the exact final scores.

The estimate of a seat is the sum of:

* **banked points**: VP on the track, the final value of goods (corn and blocks at
  the market rate, 1/4 VP per corn; 3 VP per skull) and monuments scored as if the
  game ended now;
* **temples**: for each end-of-age Food Day still to come, the VP of the current
  step plus the leader bonus (half when tied); for each middle-of-age Food Day to
  come, the goods of the current step and below at their final value;
* **feeding**: the corn still owed at future Food Days (after farms) at 1/4 VP
  each, and 3 VP per worker that the goods held cannot feed at an imminent Food Day;
* **time left**: each worker in play is worth :data:`WORKER_VP_PER_ROUND` for every
  round left, each technology level :data:`TECH_VP_PER_ROUND`, a skull still held
  is expected to reach Chichen Itza (:data:`SKULL_ACTION_VP`) while there is time.

The weights are rough and documented here, not tuned; bots may scale them.
"""

from __future__ import annotations

from typing import Any

from .components import DATA
from .layout import (FOOD_DAYS, FOOD_KIND, ON_GEARS, OVER, SKULL, TECH, TEMPLE, TEMPLE_REWARD,
                     TEMPLE_VP, VP, WORKERS)
from .scoring import corn_value, feeding_cost, monument_vp

LAST_DAY = FOOD_DAYS[-1]
WORKER_VP_PER_ROUND = 0.45      # what one worker's actions add per remaining round
TECH_VP_PER_ROUND = 0.08        # what one technology level adds per remaining round
SKULL_ACTION_VP = 7.0           # a skull left on Chichen Itza (average of its spaces, plus a step)
GOODS_VP = (0.5, 0.75, 1.0, 3.0)  # final value of a wood, stone, gold, skull from a temple
HUNGER_HORIZON = 2              # days before a Food Day when a shortfall counts as unfed


def rounds_left(s: Any) -> int:
    """Rounds still to play after this one (0 in the last round)."""
    return max(0, LAST_DAY - s.day)


def temple_outlook(s: Any, seat: int) -> float:
    """VP still to come from the temples at the remaining Food Days."""
    P = s.p[seat]
    total = 0.0
    for index in range(s.food_done, 4):
        if FOOD_KIND[index] == "end":
            age = 1 if index < 2 else 2
            total += sum(TEMPLE_VP[t][P[TEMPLE + t] + 1] for t in range(3))
            for t, spec in enumerate(DATA.temples):
                best = max(Q[TEMPLE + t] for Q in s.p)
                if P[TEMPLE + t] == best:
                    leaders = sum(1 for Q in s.p if Q[TEMPLE + t] == best)
                    total += spec.bonus[age - 1] / (1 if leaders == 1 else 2)
        else:
            for t in range(3):
                reward = TEMPLE_REWARD[t][P[TEMPLE + t] + 1]
                total += sum(n * v for n, v in zip(reward, GOODS_VP))
    return total


def feeding_outlook(s: Any, seat: int) -> float:
    """VP lost to feeding at the remaining Food Days: the corn owed (after farms) at
    1/4 VP each, and the unfed penalty when the next Food Day is at most
    :data:`HUNGER_HORIZON` days away and the goods held cannot cover it."""
    P = s.p[seat]
    days = 4 - s.food_done
    need, each = feeding_cost(P)
    owed = days * need * each
    penalty = 0.0
    if days and FOOD_DAYS[s.food_done] - s.day <= HUNGER_HORIZON:
        short = need * each - corn_value(P)
        if short > 0:
            unfed = -(-short // each)
            penalty = unfed * DATA.unfed_vp + unfed * each / DATA.corn_per_vp
    return -owed / DATA.corn_per_vp + penalty


def banked(s: Any, seat: int) -> float:
    """What the seat would score if the game ended now (before Food Days still due)."""
    P = s.p[seat]
    monuments = sum(monument_vp(s, seat, m) for m in s.monuments[seat])
    return P[VP] + corn_value(P) / DATA.corn_per_vp + P[SKULL] * DATA.skull_vp + monuments


def time_outlook(s: Any, seat: int) -> float:
    """Value of workers, technologies and skulls over the rounds left."""
    P = s.p[seat]
    left = rounds_left(s)
    techs = sum(P[TECH:TECH + 4])
    skull_gain = max(0.0, SKULL_ACTION_VP - DATA.skull_vp) * min(P[SKULL], left // 2)
    return left * (P[WORKERS] * WORKER_VP_PER_ROUND + techs * TECH_VP_PER_ROUND) + skull_gain


def estimate_scores(state: Any) -> list[float]:
    """Estimated final score of every seat (exact once the game is over)."""
    if state.phase == OVER:
        return state.scores()
    return [banked(state, seat) + temple_outlook(state, seat) + feeding_outlook(state, seat)
            + time_outlook(state, seat) for seat in range(state.num_players)]


def tie_break_workers(state: Any) -> list[int]:
    """Workers on the gears per seat (the final tie-break, for bots that need it)."""
    return [P[ON_GEARS] for P in state.p]

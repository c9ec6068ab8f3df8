"""What a sensible beginner never does in Tzolk'in (the ``easy`` bot's guard rails).

``sensible_actions(view, legal)`` keeps the moves a careful beginner would consider; the
``easy`` bot (``heuristic:...,sensible=1``) chooses among them only, so its careless and
noisy choices stay sensible. Two rules:

* **Keep corn for the next Food Day** (rules 10: 2 corn per worker, 3 VP per unfed
  worker): no move (a placement, a lower action paid in corn, a market buy, a new worker)
  may leave less corn, counting the corn its workers on Palenque will bring, than the next
  Food Day eats, unless it leaves that balance no worse than before or places a worker on
  Palenque (where corn comes from).
* **Bring the corn in before a Food Day**: when the next Food Day is at most 2 days away
  and the corn held does not feed everyone, a worker waiting on a Palenque action space is
  picked up first; when it is at most 7 days away and the corn held and on its way does
  not feed everyone, workers are placed on Palenque only.
* **A picked-up worker acts**: ``nothing`` is dropped when the worker has an action.

Public information only (works on a view). Never returns an empty list.
"""

from __future__ import annotations

from typing import Any, Sequence

from . import actions as A
from .heuristic import corn_on_the_way
from .model import CORN, FOOD_DAYS
from .scoring import feeding_cost


HARVEST_DAYS = 2   # pick up Palenque workers when the Food Day is this close and corn is short
SOW_DAYS = 7       # place workers only on Palenque when this close and the corn (on its way) is short
MAX_CHECKED = 24  # longer lists (rare) are left as they are: each check plays the move


def food_reserve(s: Any, seat: int) -> int:
    """Corn the next Food Day eats (after farms), or 0 after the last one."""
    if s.food_done >= 4:
        return 0
    need, each = feeding_cost(s.p[seat])
    return need * each


def corn_balance(s: Any, seat: int) -> int:
    """Corn held and on its way, less what the next Food Day eats."""
    return s.p[seat][CORN] + corn_on_the_way(s, seat) - food_reserve(s, seat)


def keeps_reserve(s: Any, seat: int, action: Any) -> bool:
    """Whether ``action`` still leaves the corn the next Food Day needs (or costs none of it)."""
    if isinstance(action, (A.Keep, A.EndTurn)) or (isinstance(action, A.Place) and action.gear == "palenque"):
        return True
    after = s.clone()
    after.apply_unchecked(action)
    if after.food_done != s.food_done or after.cur != seat:
        return True
    balance = corn_balance(after, seat)
    return balance >= 0 or balance >= corn_balance(s, seat)


def sensible_actions(view: Any, legal: Sequence[Any]) -> list[Any]:
    seat = view.current_player
    keep = list(legal)
    if any(isinstance(a, A.Do) for a in keep):
        keep = [a for a in keep if not isinstance(a, A.Nothing)]
    if seat is not None and view.food_done < len(FOOD_DAYS):
        days = FOOD_DAYS[view.food_done] - view.day
        harvest = [a for a in keep if isinstance(a, A.Pick) and a.gear == "palenque"
                   and a.space >= 1]
        if days <= HARVEST_DAYS and harvest and view.p[seat][CORN] < food_reserve(view, seat):
            keep = harvest
        to_palenque = [a for a in keep if isinstance(a, A.Place) and a.gear == "palenque"]
        if days <= SOW_DAYS and to_palenque and corn_balance(view, seat) < 0:
            keep = [a for a in keep if not isinstance(a, (A.Place, A.PlaceStart))
                    or a in to_palenque]
    if seat is not None and len(keep) <= MAX_CHECKED:
        keep = [a for a in keep if keeps_reserve(view, seat, a)]
    return keep or list(legal)

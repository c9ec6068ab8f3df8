"""What a sensible beginner never does in Tzolk'in (the ``easy`` bot's guard rails).

``sensible_actions(view, legal)`` keeps the moves a careful beginner would consider; the
``easy`` bot (``heuristic:...,sensible=1``) chooses among them only, so its careless and
noisy choices stay sensible. Two rules:

* **Keep corn for the next Food Day** (rules 10: 2 corn per worker, 3 VP per unfed
  worker): no move (a placement, a lower action paid in corn, a market buy, a new worker)
  may leave less corn, counting the corn its workers on Palenque will bring and the corn
  the Starting Player Space gives it at the end of the turn (stop 42), than the next
  Food Day eats, unless it leaves that balance no worse than before or places a worker on
  Palenque (where corn comes from).
* **Bring the corn in before a Food Day**: when the next Food Day is at most 2 days away
  and the corn held does not feed everyone, a worker waiting on a Palenque action space is
  picked up first; when it is at most 7 days away and the corn held and on its way does
  not feed everyone, workers are placed on Palenque only.
* **A picked-up worker acts**: ``nothing`` is dropped when the worker has an action
  that keeps the corn reserve.
* **Look through an action**: an action whose every follow-up choice breaks the reserve
  (Uxmal 1, whose temple step costs 3 corn) breaks it too.
* **Corn that comes too late does not count**: on the day of a Food Day (it comes at the
  end of that day), a placement cannot also bring workers back from Palenque, so the corn
  on its way counts for nothing when a placement is judged, and a placement on Palenque
  is judged like any other.
* **Build something**: while the seat has no building nor monument, a picked-up worker
  that can build (a Tikal action with a building it can pay for) builds; from day
  :data:`BUILD_FROM` on, holding blocks enough for a building and no worker on Tikal,
  a placement goes to Tikal.

Public information only (works on a view). Never returns an empty list.
"""

from __future__ import annotations

from typing import Any, Sequence

from . import actions as A
from .heuristic import corn_on_the_way
from .model import CORN, FOOD_DAYS, GEAR_INDEX, RES
from .scoring import feeding_cost


HARVEST_DAYS = 2   # pick up Palenque workers when the Food Day is this close and corn is short
SOW_DAYS = 7       # place workers only on Palenque when this close and the corn (on its way) is short
MAX_CHECKED = 24  # longer lists (rare) are left as they are: each check plays the move
BUILD_FROM = 6     # from this day a seat without a building sends a worker to Tikal
BUILD_BLOCKS = 2   # ... if it holds at least this many resource blocks (wood, stone, gold)
TIKAL = GEAR_INDEX["tikal"]


def food_reserve(s: Any, seat: int) -> int:
    """Corn the next Food Day eats (after farms), or 0 after the last one."""
    if s.food_done >= 4:
        return 0
    need, each = feeding_cost(s.p[seat])
    return need * each


def days_to_food(s: Any) -> int | None:
    """Days until the next Food Day (0: at the end of this day); None after the last."""
    if s.food_done >= len(FOOD_DAYS):
        return None
    return FOOD_DAYS[s.food_done] - s.day


def corn_waiting(s: Any, seat: int) -> int:
    """The corn on the Starting Player Space that ``seat`` takes at the end of this turn
    (rules 8: the player who placed a worker there this turn takes all of it then, before
    any Food Day at the end of the day; 0 once taken, or for anyone else)."""
    return s.sps_corn if s.sps == seat else 0


def corn_balance(s: Any, seat: int, arriving: bool = True) -> int:
    """Corn held, waiting on the Starting Player Space for the seat and (``arriving``) on its
    way from Palenque, less what the next Food Day eats."""
    return (s.p[seat][CORN] + corn_waiting(s, seat) + (corn_on_the_way(s, seat) if arriving else 0)
            - food_reserve(s, seat))


def keeps_reserve(s: Any, seat: int, action: Any, look_through: bool = True) -> bool:
    """Whether ``action`` still leaves the corn the next Food Day needs (or costs none of it).

    ``look_through``: an action that asks for a follow-up choice of the same seat (what to
    do with an action, which temple...) keeps the reserve only if some follow-up does."""
    if isinstance(action, (A.Keep, A.EndTurn)):
        return True
    if isinstance(action, A.Place) and action.gear == "palenque" and days_to_food(s) != 0:
        return True  # where corn comes from (not on the Food Day's own day: too late)
    after = s.clone()
    after.apply_unchecked(action)
    if after.food_done != s.food_done or after.cur != seat:
        return True
    # on the Food Day's own day a placement turn brings nobody back from Palenque
    arriving = not (isinstance(action, (A.Place, A.PlaceStart)) and days_to_food(s) == 0)
    balance = corn_balance(after, seat, arriving)
    if balance < 0 and balance < corn_balance(s, seat, arriving):
        return False
    if look_through and is_follow_up(after, action):
        follow = after.legal_actions()
        return len(follow) > MAX_CHECKED or any(keeps_reserve(after, seat, a, False) for a in follow)
    return True


def is_follow_up(after: Any, action: Any) -> bool:
    """Whether ``action`` left a choice that belongs to it (not the next worker or the end)."""
    if not isinstance(action, A.Do):
        return False
    return not any(isinstance(a, (A.Pick, A.EndTurn, A.Place, A.PlaceStart)) for a in after.legal_actions())


def has_built(s: Any, seat: int) -> bool:
    return bool(s.built[seat] or s.monuments[seat])


def builds(s: Any, action: Any) -> bool:
    """Whether ``action`` (a worker's action) lets the seat construct something it can pay."""
    if not isinstance(action, A.Do):
        return False
    after = s.clone()
    after.apply_unchecked(action)
    return any(isinstance(a, (A.Build, A.BuildMonument)) for a in after.legal_actions())


def wants_a_building(s: Any, seat: int) -> bool:
    """No building yet, blocks enough for one, no worker on Tikal, past the first days."""
    return (not has_built(s, seat) and s.day >= BUILD_FROM
            and sum(s.p[seat][r] for r in RES) >= BUILD_BLOCKS
            and seat not in s.gears[TIKAL])


def sensible_actions(view: Any, legal: Sequence[Any]) -> list[Any]:
    seat = view.current_player
    keep = list(legal)
    checked = seat is not None and len(keep) <= MAX_CHECKED
    if checked:
        keep = [a for a in keep if keeps_reserve(view, seat, a)] or keep
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
    if seat is not None and not has_built(view, seat):
        if checked:
            building = [a for a in keep if builds(view, a)]
            if building:
                keep = building
        to_tikal = [a for a in keep if isinstance(a, A.Place) and a.gear == "tikal"]
        if to_tikal and wants_a_building(view, seat):
            keep = [a for a in keep if not isinstance(a, (A.Place, A.PlaceStart))
                    or a in to_tikal]
    return keep or list(legal)

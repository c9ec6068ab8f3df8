"""Shuffles of a search's worlds made when a rule first reads the shuffled pile.

A search samples thousands of worlds behind one view (``TzolkinState.search_determinizer``)
and plays each for a few dozen decisions. Most of them never draw a building, and no rule
ever reads the box of buildings, the box of monuments or the start tiles once the draft
is over; yet shuffling those piles was a third of sampling a world. Such a world deals each
hidden pile in the unshuffled order of its pool and records the shuffle it owes (a
:class:`Deferred`: the generator's state when the shuffle was due, the pool, the places to
fill); the search's generator skips the draws (:meth:`~mayagames.core.rng.Rng.skip`), so its
later draws are the same. :func:`deal_deferred` makes the shuffle, with those very draws,
when a building is about to be drawn from a stack (:func:`.scoring.refill_display`), when the
Age 1 stack goes to the box, and before the world is shown or viewed: a world always plays
and reads as the eagerly shuffled one would.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..core.rng import Rng

if TYPE_CHECKING:
    from .state import TzolkinState

AGE_1, AGE_2, TILES, MONUMENTS = range(4)   # the piles a world may owe a shuffle for


class Deferred:
    """A shuffle a world owes: ``pool`` shuffled by a generator in state ``rng_state``,
    then popped into the places ``slots`` lists (per pile of :func:`piles`, in order)."""

    __slots__ = ("rng_state", "pool", "slots")

    def __init__(self, rng_state: int, pool: tuple[int, ...],
                 slots: tuple[tuple[int, ...], ...]) -> None:
        self.rng_state: int = rng_state
        self.pool: tuple[int, ...] = pool
        self.slots: tuple[tuple[int, ...], ...] = slots


NOTHING_DEFERRED: tuple[Optional[Deferred], ...] = (None, None, None, None)


def piles(s: "TzolkinState", kind: int) -> list[list[int]]:
    """The lists a shuffle of ``kind`` fills, in the order the eager sampler fills them."""
    if kind == AGE_1:
        return [s.stacks[0], s.building_box]
    if kind == AGE_2:
        return [s.stacks[1]]
    if kind == TILES:
        return [*s.dealt, s.tile_box]
    return [s.monument_box]


def defer(s: "TzolkinState", kind: int, rng: Rng, pool: list[int],
          slots: tuple[tuple[int, ...], ...]) -> None:
    """Deal ``pool`` unshuffled into the ``slots`` of ``kind``'s piles and record the
    shuffle owed; ``rng`` skips the draws the shuffle will take."""
    deferred = Deferred(rng.state, tuple(pool), slots)
    rng.skip(max(len(pool) - 1, 0))    # the draws of a Fisher-Yates shuffle
    for pile, places in zip(piles(s, kind), slots):
        for i in places:
            pile[i] = pool.pop()
    owed = list(s.deferred)
    owed[kind] = deferred
    s.deferred = tuple(owed)


def deal_deferred(s: "TzolkinState", kind: int) -> None:
    """Make the shuffle ``kind`` owes (if any): the same draws, the same places."""
    deferred = s.deferred[kind]
    if deferred is None:
        return
    pool = list(deferred.pool)
    Rng(deferred.rng_state).shuffle(pool)
    for pile, places in zip(piles(s, kind), deferred.slots):
        for i in places:
            pile[i] = pool.pop()
    owed = list(s.deferred)
    owed[kind] = None
    s.deferred = tuple(owed) if any(owed) else NOTHING_DEFERRED   # (tested by identity)


def deal_all(s: "TzolkinState") -> None:
    """Make every shuffle the world still owes (before it is shown, viewed or checked)."""
    for kind in range(len(NOTHING_DEFERRED)):
        deal_deferred(s, kind)

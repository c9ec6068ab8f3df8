"""Shuffles of a search's worlds made when a rule first reads the shuffled pile.

A search samples thousands of worlds behind one view (``TzolkinState.search_determinizer``)
and plays each for a few dozen decisions. Most of them never draw a building, and no rule
ever reads the box of buildings, the box of monuments or the start tiles once the draft
is over; yet shuffling those piles was a third of sampling a world. Such a world deals each
hidden pile in the unshuffled order of its pool and records the shuffles it owes (a
:class:`Deferred`: the generator's state when they were due and, per pile, a
:class:`Shuffle`); the search's generator skips their draws
(:meth:`~mayagames.core.rng.Rng.skip`), so its later draws are the same. :func:`deal_deferred`
makes a pile's shuffle, with those very draws, when a building is about to be drawn from a
stack (:func:`.scoring.refill_display`), when the Age 1 stack goes to the box, and before the
world is shown or viewed: a world always plays and reads as the eagerly shuffled one would.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..core.rng import Rng

if TYPE_CHECKING:
    from .state import TzolkinState

AGE_1, AGE_2, TILES, MONUMENTS = range(4)   # the piles a world may owe a shuffle for
KINDS = 4


class Shuffle:
    """A pile's shuffle in a search's worlds (the same for every world of one view): the
    ``pool`` shuffled by the generator ``draws`` draws after the worlds' owed state, then
    popped into ``places`` (per list of :func:`piles`, in order)."""

    __slots__ = ("draws", "pool", "places")

    def __init__(self, draws: int, pool: tuple[int, ...], places: tuple[tuple[int, ...], ...]) -> None:
        self.draws: int = draws
        self.pool: tuple[int, ...] = pool
        self.places: tuple[tuple[int, ...], ...] = places


class Deferred:
    """The shuffles a world owes: ``rng_state``, the generator's state when the first
    was due, and per pile kind (:data:`AGE_1` ...) its :class:`Shuffle` or ``None``."""

    __slots__ = ("rng_state", "owed")

    def __init__(self, rng_state: int, owed: tuple[Optional[Shuffle], ...]) -> None:
        self.rng_state: int = rng_state
        self.owed: tuple[Optional[Shuffle], ...] = owed


def piles(s: "TzolkinState", kind: int) -> list[list[int]]:
    """The lists a shuffle of ``kind`` fills, in the order the eager sampler fills them."""
    if kind == AGE_1:
        return [s.stacks[0], s.building_box]
    if kind == AGE_2:
        return [s.stacks[1]]
    if kind == TILES:
        return [*s.dealt, s.tile_box]
    return [s.monument_box]


def deal_unshuffled(s: "TzolkinState", kind: int, shuffle: Shuffle) -> None:
    """Fill the places of ``kind``'s piles from the pool in its own order."""
    _fill(s, kind, shuffle, list(shuffle.pool))


def _fill(s: "TzolkinState", kind: int, shuffle: Shuffle, pool: list[int]) -> None:
    """Pop ``pool`` into the shuffle's places of ``kind``'s piles (in the eager order)."""
    for pile, places in zip(piles(s, kind), shuffle.places):
        for i in places:
            pile[i] = pool.pop()


def deal_deferred(s: "TzolkinState", kind: int) -> None:
    """Make the shuffle of ``kind`` the world owes (if any): the same draws, the same places."""
    deferred = s.deferred
    if deferred is None:
        return
    shuffle = deferred.owed[kind]
    if shuffle is None:
        return
    pool = list(shuffle.pool)
    rng = Rng(deferred.rng_state)
    rng.skip(shuffle.draws)            # the generator as it was when this shuffle was due
    rng.shuffle(pool)
    _fill(s, kind, shuffle, pool)
    owed = list(deferred.owed)
    owed[kind] = None
    s.deferred = Deferred(deferred.rng_state, tuple(owed)) if any(owed) else None


def deal_all(s: "TzolkinState") -> None:
    """Make every shuffle the world still owes (before it is shown, viewed or checked)."""
    while s.deferred is not None:
        deal_deferred(s, next(k for k, owed in enumerate(s.deferred.owed) if owed is not None))

"""Determinization: a full Tikal state consistent with a view.

What a seat cannot see (rule 2 and the component rules): the order of the action-card deck,
the AP tokens in the bag (and, with 2 players, the 12 removed unseen), the order of each
letter's terrain-tile pile, and the face-down treasures (the green supply and the stacks on
the Ruins). Everything else is public: the display, campsites, museums, the discard pile,
the board. The unseen components are what the data says exists minus what is visible; they
are shuffled into the hidden places, keeping each place's size.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from collections import Counter

from ..core.rng import Rng
from .data import DRAWN_LETTERS

if TYPE_CHECKING:
    from .state import TikalState


def _unseen_cards(s: TikalState) -> list[int]:
    seen = set(s.display + s.discard + s.box)
    for seat in range(s.num_players):
        seen.update(s.right[seat] + s.left[seat])
    return [c for c in s.C.cards_for(s.num_players) if c not in seen]


def _unseen_ap(s: TikalState) -> list[int]:
    pool = Counter(s.C.ap_tokens)
    pool.subtract(s.ap_display + s.ap_used + [v for v in s.ap_token if v])
    return sorted(pool.elements())


def _seen_tiles(s: TikalState) -> set[int]:
    seen = set(s.tile_display + s.tiles_out + [t for t in s.tile_on if t >= 0])
    for seat in range(s.num_players):
        seen.update(s.camp_tiles[seat])
    return seen


def _unseen_tiles(s: TikalState, letter: str, seen: set[int] | None = None) -> list[int]:
    if seen is None:
        seen = _seen_tiles(s)
    return [t for t in s.C.tiles_with_back(letter) if t not in seen]


def _unseen_treasures(s: TikalState) -> list[int]:
    T = len(s.C.treasure_types)
    per_type = s.C.green_per_type + s.C.blue_per_type
    pool: list[int] = []
    for t in range(T):
        seen = s.blue[t] + sum(s.museum[o * T + t] for o in range(s.num_players))
        pool += [t] * (per_type - seen)
    return pool


def determinize(view: TikalState, rng: Rng) -> TikalState:
    """Sample the hidden parts of ``view`` from ``rng`` (a true state: a clone, fresh generator)."""
    return determinizer(view)(rng)


def determinizer(view: TikalState) -> Callable[[Rng], TikalState]:
    """:func:`determinize` of ``view`` as a function of the generator: what is unseen
    (cards, AP tokens, each letter's tiles, treasures) is worked out once; each call copies
    those pools and shuffles them in the same order as before (the same worlds)."""
    if not view.redacted:
        return lambda rng: _full(view, rng)
    cards = _unseen_cards(view)
    ap = _unseen_ap(view)
    seen_tiles = _seen_tiles(view)
    tiles = [(letter, _unseen_tiles(view, letter, seen_tiles)) for letter in DRAWN_LETTERS]
    treasures = _unseen_treasures(view)
    bag = len(view.bag)
    green = len(view.green)
    ruins = [(h, len(stack)) for h, stack in view.ruin.items()]
    # The mover's legal actions do not depend on what is hidden (the conformance suite's
    # check_views): the worlds of the mover's own view share its list (worked out once)
    # instead of each listing them again (cached lists are never mutated in place).
    mover = view.current_player
    legal = view.legal_cached() if mover is not None and mover == view.viewer else None

    def sample(rng: Rng) -> TikalState:
        full = view.clone()
        full.viewer = None
        full.redacted = False
        full._legal = legal
        deck = cards[:]
        rng.shuffle(deck)
        full.deck = deck
        tokens = ap[:]
        rng.shuffle(tokens)
        full.bag, full.ap_removed = tokens[:bag], tokens[bag:]
        for letter, unseen in tiles:
            pile = unseen[:]
            rng.shuffle(pile)
            full.piles[letter] = pile
        left = treasures[:]
        rng.shuffle(left)
        full.green = [left.pop() for _ in range(green)]
        full.ruin = {h: [left.pop() for _ in range(size)] for h, size in ruins}
        full.rng = rng.spawn()
        return full
    return sample


def _full(view: TikalState, rng: Rng) -> TikalState:
    """A true state given as a view: a clone with a fresh generator."""
    full = view.clone()
    full.viewer = None
    full.redacted = False
    full._legal = None
    full.rng = rng.spawn()
    return full

"""Helpers to build Tikal positions by hand (for tests, examples and researchers' scenarios).

Public API (``mayagames.tikal.positions``; ``mayagames.tikal.testing`` re-exports every
name, for scenarios written before). The same module as Tzolk'in's ``positions.py``.

Every helper moves components from where they are to where the test wants them, so the
conservation laws (``state.invariants()``) keep holding::

    s = fresh(2)
    lay_tile(s, "c4", "A-1")                # the temple tile A-1 on hex c4
    put(s, 0, "c4", explorers=2, leaders=1)  # red figures there
    raise_temple(s, "c4", 5)                 # clear floors up to level 5
    ap_turn(s, 0, 10)                        # red now spends 10 AP (an AP-token activation)

Every helper keeps what the engine derives from the fields (the hexes-by-kind index, the
cached legal actions, an AP turn's kept lists) true by calling :func:`refresh`. A scenario
that writes fields directly (``s.kind[h] = LAKE``, ``s.explorers[i] += 1``,
``s.pending.points = 7``) calls ``refresh(s)`` afterwards, as Tzolk'in's ``positions.refresh``.
"""

from __future__ import annotations

from typing import Any

from ..core.rng import Rng
from .flow import ACTION, ApTurn, edge_between, place_tile, set_camp
from .setup_game import new_tikal_game
from .state import JUNGLE, TikalState


def fresh(players: int = 2, seed: int = 0, **options: Any) -> TikalState:
    """A new game with default options (overridden by keyword)."""
    from . import INFO
    return new_tikal_game(players, seed, INFO.resolve_options(options))


def refresh(s: TikalState) -> TikalState:
    """Re-derive the hex index and drop the cached legal actions after editing a state
    (:meth:`TikalState.refresh`)."""
    s.refresh()
    return s


def hx(s: TikalState, name: str) -> int:
    return s.hex_index(name)


def _take_tile(s: TikalState, t: int) -> None:
    for place in [*s.piles.values(), s.tile_display, s.symbol_supply, s.tiles_out, *s.camp_tiles]:
        if t in place:
            place.remove(t)
            return
    raise ValueError(f"tile {s.C.tiles[t].id} is not available (already on the board?)")


def lay_tile(s: TikalState, hex_name: str, tile_id: str, rotation: int = 0) -> int:
    """Put tile ``tile_id`` on the Jungle hex ``hex_name`` (taken from wherever it is)."""
    h, t = hx(s, hex_name), s.C.tile_index[tile_id]
    if s.kind[h] != JUNGLE:
        raise ValueError(f"{hex_name} is not Jungle")
    _take_tile(s, t)
    place_tile(s, t, h, rotation)
    refresh(s)
    return h


def free_jungle(s: TikalState, dotted: bool = False) -> list[str]:
    return [s.hex_name(h) for h in range(s.H) if s.kind[h] == JUNGLE and s.C.board.hexes[h].dotted == dotted]


def put(s: TikalState, seat: int, hex_name: str, explorers: int = 0, leaders: int = 0) -> None:
    """Place figures of ``seat`` on a hex, from the Available then the Unavailable Supply."""
    h = hx(s, hex_name)
    for _ in range(explorers):
        src = s.avail_explorers if s.avail_explorers[seat] else s.unavail_explorers
        if not src[seat]:
            raise ValueError("no explorer left")
        src[seat] -= 1
        s.explorers[seat * s.H + h] += 1
    for _ in range(leaders):
        src = s.avail_leaders if s.avail_leaders[seat] else s.unavail_leaders
        if not src[seat]:
            raise ValueError("no leader left")
        src[seat] -= 1
        s.leaders[seat * s.H + h] += 1
    refresh(s)


def raise_temple(s: TikalState, hex_name: str, level: int) -> None:
    """Clear floors (from the supply) until the temple is at ``level``."""
    h = hx(s, hex_name)
    while s.level[h] < level:
        s.level[h] += 1
        s.floors[s.level[h]] -= 1
    refresh(s)


def give_treasures(s: TikalState, seat: int, counts: dict[str, int]) -> None:
    """Move treasures into a museum: from the green supply, then the Ruins, then the blue pairs."""
    T = len(s.C.treasure_types)
    for name, n in counts.items():
        t = s.C.treasure_types.index(name)
        for _ in range(n):
            if t in s.green:
                s.green.remove(t)
            elif any(t in st for st in s.ruin.values()):
                next(st for st in s.ruin.values() if t in st).remove(t)
            elif s.blue[t]:
                s.blue[t] -= 1
            else:
                raise ValueError(f"no {name} left")
            s.museum[seat * T + t] += 1
    refresh(s)


def give_card(s: TikalState, seat: int, name: str, kept: bool = False) -> int:
    """Put a card called ``name`` (from the deck, display or discard) on a campsite."""
    for place in (s.deck, s.display, s.discard):
        for c in place:
            if s.C.cards[c].name == name:
                place.remove(c)
                (s.left if kept else s.right)[seat].append(c)
                refresh(s)
                return c
    raise ValueError(f"no card {name} available")


def give_tile(s: TikalState, seat: int, tile_id: str) -> int:
    t = s.C.tile_index[tile_id]
    _take_tile(s, t)
    s.camp_tiles[seat].append(t)
    refresh(s)
    return t


def give_camp(s: TikalState, seat: int, hex_name: str) -> None:
    set_camp(s, seat, hx(s, hex_name), -1)
    refresh(s)


def action_phase(s: TikalState, seat: int, ap_tokens: dict[int, int] | None = None) -> TikalState:
    """Skip Round Management: every seat has a statuette space; ``seat`` is to act.

    ``ap_tokens`` gives AP tokens to campsites (taken from the bag). Campsites are otherwise
    empty, so players may pass at once.
    """
    n = s.num_players
    s.next_order = list(s.order)
    for p, value in (ap_tokens or {}).items():
        pool = s.bag if value in s.bag else s.ap_display
        pool.remove(value)
        s.ap_token[p] = value
    for p in range(n):
        s.rm_ap[p] = True
    s.phase = ACTION
    s.passed = [False] * n
    s.turn = seat
    s.stack = []
    refresh(s)
    return s


def ap_turn(s: TikalState, seat: int, points: int, ctx: str = "token") -> ApTurn:
    """Open an AP sub-turn of ``points`` AP for ``seat`` (in the action phase)."""
    if s.phase != ACTION:
        action_phase(s, seat)
    s.turn = seat
    frame = ApTurn(seat, ctx, points, ends_turn=ctx in ("token", "moves"))
    s.stack.append(frame)
    refresh(s)
    return frame


def play(s: TikalState, *moves: str) -> TikalState:
    """Apply moves given in notation (each checked for legality)."""
    for text in moves:
        s.apply(s.parse_action(text))
    return s


def legal_texts(s: TikalState) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def random_moves(s: TikalState, n: int, seed: int = 0) -> TikalState:
    rng = Rng(seed)
    for _ in range(n):
        if s.is_terminal:
            break
        legal = s.legal_actions()
        s.apply(legal[rng.randbelow(len(legal))])
    return s


def print_stones(s: TikalState, hex_name: str, stones: tuple[int, ...] | list[int]) -> None:
    """Override the printed Trail Stones of a hex (board orientation, sides ne e se sw w nw)."""
    s._print_stones(hx(s, hex_name), tuple(stones))
    refresh(s)


def edge_cost(s: TikalState, a: str, b: str) -> int:
    return s.cost[edge_between(s, hx(s, a), hx(s, b))]


def strip_board(s: TikalState) -> TikalState:
    """Zero every printed Trail Stone (tests then print exactly the stones they need)."""
    for h in range(s.H):
        s._print_stones(h, (0,) * 6)
    refresh(s)
    return s


__all__ = ["fresh", "refresh", "hx", "lay_tile", "free_jungle", "put", "raise_temple", "give_treasures", "give_card",
           "give_tile", "give_camp", "action_phase", "ap_turn", "play", "legal_texts", "random_moves",
           "print_stones", "edge_cost", "strip_board"]

"""Museum Director powers (rule 9): one power once per game, free, on your action-phase turn.

Readings (gap A16, ``docs/tikal_rules_notes.md``): a power is used at the start of (or
between) your turn's decisions, before the turn's action, never in the 10-AP scoring
turns; scoring powers score at once on the current board; a power is offered only when it
can do something (the scoring ones always: they may score 0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from .actions import END, At, Choose, Move, TakeCard, make
from .cards import camp_playable
from .rules import (Apply, EXPLORER, LEADER, Legal, deploy_figure, distinct_names, finish, first_card, move_figure,
                    push, spend_actions, trade_takes)
from . import scoring as _scoring
from .model import JUNGLE, LAKE, VOLCANO, Frame

if TYPE_CHECKING:
    from .state import TikalState

Usable = Callable[["TikalState", int], bool]
Use = Callable[["TikalState", int], None]


def _params(s: TikalState, power: str) -> dict:
    return s.C.powers[power].params


def _explorer_hexes(s: TikalState, seat: int, terrain_only: bool = False) -> list[int]:
    base = seat * s.H
    return [h for h in range(s.H) if s.explorers[base + h] and not (terrain_only and s.kind[h] == JUNGLE)]


def _leader_hexes(s: TikalState, seat: int) -> list[int]:
    base = seat * s.H
    return [h for h in range(s.H) if s.leaders[base + h]]


# --- scoring powers -------------------------------------------------------------------------
def volcanologist(s: TikalState, seat: int) -> None:
    """2 PP per Volcano tile where you have the majority, at most 8."""
    p = _params(s, "volcanologist")
    s.pp[seat] += min(p["max"], p["per"] * len(_scoring.majority_hexes(s, seat, VOLCANO)))


def adventurer(s: TikalState, seat: int) -> None:
    """3 PP per Jungle hex where you have the majority, at most 9."""
    p = _params(s, "adventurer")
    s.pp[seat] += min(p["max"], p["per"] * len(_scoring.majority_hexes(s, seat, JUNGLE)))


def builder(s: TikalState, seat: int) -> None:
    """PP equal to the lowest temple where you have the majority (option: or a Guardian)."""
    levels = _scoring.controlled_temple_levels(s, seat, guardians=bool(s.options.get("builder_counts_guardian")))
    s.pp[seat] += min(levels) if levels else 0


def collector(s: TikalState, seat: int) -> None:
    """PP equal to your least valuable treasure set (its value 1/3/6/10/15), 0 with none."""
    T = len(s.C.treasure_types)
    held = [n for n in s.museum[seat * T:(seat + 1) * T] if n > 0]
    s.pp[seat] += min(_scoring.TREASURE_SET_VALUE(s, n) for n in held) if held else 0


# --- movement powers ------------------------------------------------------------------------
def tracker_moves(s: TikalState, seat: int, moved: dict[int, int] | None = None) -> list:
    """An Explorer one step onto an adjacent terrain tile, free, stones or not.

    ``moved[h]``: Explorers the Tracker already moved onto ``h``; each Explorer steps once
    (rule 9: "move 2 of your Explorers", gap A16: each one step), so they may not go on."""
    B = s.C.board
    acts = []
    for h in _explorer_hexes(s, seat):
        if moved and s.explorers[seat * s.H + h] <= moved.get(h, 0):
            continue
        for i in range(h * 6, h * 6 + 6):
            nb = B.neighbour[i]
            if nb >= 0 and s.kind[nb] != JUNGLE:
                acts.append(make(Move, EXPLORER, B.hexes[h].name, B.hexes[nb].name))
    return acts


def tracker_usable(s: TikalState, seat: int) -> bool:
    return bool(tracker_moves(s, seat))


def tracker(s: TikalState, seat: int) -> None:
    n = int(_params(s, "tracker")["explorers"])
    push(s, Frame("tracker", seat, left=n, a=n, ends_turn=False))


def tracker_legal(s: TikalState, f: Frame) -> list:
    acts = tracker_moves(s, f.seat, f.counts)
    if f.left < f.a:
        acts.append(END)
    return acts


def tracker_apply(s: TikalState, f: Frame, a: object) -> None:
    if isinstance(a, Move):
        to = s.hex_index(a.to_hex)
        move_figure(s, f.seat, EXPLORER, s.hex_index(a.from_hex), to)
        f.counts[to] = f.counts.get(to, 0) + 1
        f.left -= 1
        if f.left > 0 and tracker_moves(s, f.seat, f.counts):
            return
    finish(s, f)




def _jungles(s: TikalState) -> list[int]:
    return [h for h in range(s.H) if s.kind[h] == JUNGLE]


def hunter_usable(s: TikalState, seat: int) -> bool:
    return bool(_explorer_hexes(s, seat, terrain_only=True)) and bool(_jungles(s))


def hunter(s: TikalState, seat: int) -> None:
    push(s, Frame("relocate", seat, ctx="hunter", step="from", ends_turn=False))


def driver_usable(s: TikalState, seat: int) -> bool:
    return bool(_leader_hexes(s, seat))


def driver(s: TikalState, seat: int) -> None:
    push(s, Frame("relocate", seat, ctx="driver", step="from", ends_turn=False))


def relocate_legal(s: TikalState, f: Frame) -> list:
    """Hunter: an Explorer from a terrain tile to any Jungle hex. Driver: a Leader anywhere."""
    names = s.C.board.hexes
    if f.step == "from":
        hexes = _explorer_hexes(s, f.seat, terrain_only=True) if f.ctx == "hunter" else _leader_hexes(s, f.seat)
    else:
        hexes = _jungles(s) if f.ctx == "hunter" else list(range(s.H))
        hexes = [h for h in hexes if h != f.a]
    return [make(At, names[h].name) for h in hexes]


def relocate_apply(s: TikalState, f: Frame, a: object) -> None:
    assert isinstance(a, At)
    h = s.hex_index(a.hex)
    if f.step == "from":
        f.a = h
        f.step = "to"
        return
    move_figure(s, f.seat, EXPLORER if f.ctx == "hunter" else LEADER, f.a, h)
    finish(s, f)




def scout(s: TikalState, seat: int) -> None:
    """5 extra AP to move or deploy EMs, spent now (gap A16)."""
    push(s, Frame("ap", seat, ctx="scout", points=int(_params(s, "scout")["points"]), ends_turn=False))


def scout_usable(s: TikalState, seat: int) -> bool:
    """Offered only if the 5 AP can buy a deploy, a move or a Base-Camp trip now."""
    acts: list = []
    spend_actions(s, Frame("ap", seat, ctx="scout", points=int(_params(s, "scout")["points"])), acts)
    return bool(acts)


# --- Fisher: an Explorer onto a Lake ------------------------------------------------------
def _lakes(s: TikalState) -> list[int]:
    return [h for h in range(s.H) if s.kind[h] == LAKE]


def _fisher_from_board(s: TikalState) -> bool:
    return s.options.get("fisher_source") == "supply_or_board"


def fisher_usable(s: TikalState, seat: int) -> bool:
    lakes = _lakes(s)
    on_board = _fisher_from_board(s) and any(lakes != [h] for h in _explorer_hexes(s, seat))
    return bool(lakes) and (s.avail_explorers[seat] > 0 or on_board)


def fisher(s: TikalState, seat: int) -> None:
    step = "from" if _fisher_from_board(s) else "to"
    push(s, Frame("fisher", seat, step=step, a=-1, ends_turn=False))


def fisher_legal(s: TikalState, f: Frame) -> list:
    names = s.C.board.hexes
    if f.step == "from":
        lakes = _lakes(s)
        acts: list = [make(Choose, "supply")] if s.avail_explorers[f.seat] else []
        return acts + [make(At, names[h].name) for h in _explorer_hexes(s, f.seat) if lakes != [h]]
    return [make(At, names[h].name) for h in _lakes(s) if h != f.a]


def fisher_apply(s: TikalState, f: Frame, a: object) -> None:
    if f.step == "from":
        f.a = -1 if isinstance(a, Choose) else s.hex_index(a.hex)  # type: ignore[union-attr]
        f.step = "to"
        return
    assert isinstance(a, At)
    h = s.hex_index(a.hex)
    if f.a >= 0:
        move_figure(s, f.seat, EXPLORER, f.a, h)
    else:
        deploy_figure(s, f.seat, EXPLORER, h)
    finish(s, f)




# --- card and camp powers -------------------------------------------------------------------
def journalist_usable(s: TikalState, seat: int) -> bool:
    return bool(s.display)


def journalist(s: TikalState, seat: int) -> None:
    push(s, Frame("journalist", seat, ends_turn=False))


def journalist_legal(s: TikalState, f: Frame) -> list:
    return [make(TakeCard, name) for name in distinct_names(s, s.display)]


def journalist_apply(s: TikalState, f: Frame, a: object) -> None:
    """The extra card goes to the right of the campsite, like a newly taken card."""
    assert isinstance(a, TakeCard)
    c = first_card(s, s.display, a.card)
    s.display.remove(c)
    s.right[f.seat].append(c)
    finish(s, f)




def nomad_usable(s: TikalState, seat: int) -> bool:
    return camp_playable(s, seat)


def nomad(s: TikalState, seat: int) -> None:
    push(s, Frame("camp", seat, ctx="nomad", ends_turn=False))


def merchant_usable(s: TikalState, seat: int) -> bool:
    return bool(trade_takes(s, seat, merchant=True))


def merchant(s: TikalState, seat: int) -> None:
    push(s, Frame("trade", seat, ctx="merchant", step="take", ends_turn=False))


def always(s: TikalState, seat: int) -> bool:
    return True


POWER_RULES: dict[str, tuple[Usable, Use]] = {
    "score_volcanoes": (always, volcanologist),
    "tracker": (tracker_usable, tracker),
    "hunter": (hunter_usable, hunter),
    "scout": (scout_usable, scout),
    "builder": (always, builder),
    "journalist": (journalist_usable, journalist),
    "score_jungles": (always, adventurer),
    "nomad": (nomad_usable, nomad),
    "merchant": (merchant_usable, merchant),
    "fisher": (fisher_usable, fisher),
    "driver": (driver_usable, driver),
    "collector": (always, collector),
}


def power_usable(s: TikalState, seat: int, power: str) -> bool:
    return POWER_RULES[s.C.powers[power].effect][0](s, seat)


def use_power(s: TikalState, seat: int, power: str) -> None:
    POWER_RULES[s.C.powers[power].effect][1](s, seat)


__all__ = ["power_usable", "use_power", "POWER_RULES"]


# The frames of this module: kind -> (legal actions, transition).
FRAMES: dict[str, tuple[Legal, Apply]] = {
    "tracker": (tracker_legal, tracker_apply),
    "relocate": (relocate_legal, relocate_apply),
    "fisher": (fisher_legal, fisher_apply),
    "journalist": (journalist_legal, journalist_apply),
}

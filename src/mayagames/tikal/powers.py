"""Museum Director powers (rule 9): one power once per game, free, on your action-phase turn.

Readings (gap A16, ``docs/tikal_rules_notes.md``): a power is used at the start of (or
between) your turn's decisions, before the turn's action, never in the 10-AP scoring
turns; scoring powers score at once on the current board; a power is offered only when it
can do something (the scoring ones always: they may score 0).
"""

from __future__ import annotations

from itertools import compress
from typing import TYPE_CHECKING, Callable, Optional

from ..core.compiling import mypyc_attr
from .actions import END, At, Choose, Move, TakeCard, make
from .cards import BaseCampSetup, camp_playable
from .flow import (EXPLORER, LEADER, ApTurn, Refusal, TreasureTrade, can_move, can_transfer, deploy_figure,
                    distinct_names, finish, first_card, move_figure, push, trade_takes)
from . import scoring as _scoring
from .model import JUNGLE, LAKE, VOLCANO, TikalFrame, count_up

if TYPE_CHECKING:
    from .state import TikalState

Usable = Callable[["TikalState", int], bool]
Use = Callable[["TikalState", int], None]


def _params(s: TikalState, power: str) -> dict:
    return s.C.powers[power].params


def _explorer_hexes(s: TikalState, seat: int, terrain_only: bool = False) -> list[int]:
    base, H = seat * s.H, s.H
    hexes = list(compress(range(H), s.explorers[base:base + H]))
    if terrain_only:
        kind = s.kind
        return [h for h in hexes if kind[h] != JUNGLE]
    return hexes


def _leader_hexes(s: TikalState, seat: int) -> list[int]:
    base, H = seat * s.H, s.H
    return list(compress(range(H), s.leaders[base:base + H]))


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
    """Whether :func:`tracker_moves` offers anything: an Explorer next to a terrain tile."""
    neighbour, kind = s.C.board.neighbour, s.kind
    for h in _explorer_hexes(s, seat):
        for i in range(h * 6, h * 6 + 6):
            nb = neighbour[i]
            if nb >= 0 and kind[nb] != JUNGLE:
                return True
    return False


def tracker(s: TikalState, seat: int) -> None:
    push(s, TrackerMoves(seat, int(_params(s, "tracker")["explorers"])))


@mypyc_attr(native_class=False)
class TrackerMoves(TikalFrame):
    """The Tracker: up to ``explorers`` Explorers one step each onto an adjacent terrain
    tile (``left`` to go; ``counts``: Explorers moved onto each hex, which may not go on)."""

    __slots__ = ("left", "explorers", "counts")
    kind = "tracker"
    rule = "9: Tracker"
    ends_turn = False
    prompts = {"": "move an Explorer onto an adjacent terrain tile, or end"}

    def __init__(self, seat: int, explorers: int) -> None:
        self.seat, self.left, self.explorers = seat, explorers, explorers
        self.counts: dict[int, int] = {}

    @property
    def initial(self) -> int:
        return self.explorers

    def legal_actions(self, s: TikalState) -> list:
        acts = tracker_moves(s, self.seat, self.counts)
        if self.left < self.explorers:
            acts.append(END)
        return acts

    def apply(self, s: TikalState, a: object) -> None:
        if isinstance(a, Move):
            to = s.hex_index(a.to_hex)
            move_figure(s, self.seat, EXPLORER, s.hex_index(a.from_hex), to)
            self.counts = count_up(self.counts, to)
            self.left -= 1
            if self.left > 0 and tracker_moves(s, self.seat, self.counts):
                return
        finish(s, self)




def _jungles(s: TikalState) -> list[int]:
    return list(s.hexes_by_kind[JUNGLE])


def hunter_usable(s: TikalState, seat: int) -> bool:
    return bool(_explorer_hexes(s, seat, terrain_only=True)) and bool(_jungles(s))


def hunter(s: TikalState, seat: int) -> None:
    push(s, Relocation(seat, "hunter"))


def driver_usable(s: TikalState, seat: int) -> bool:
    return bool(_leader_hexes(s, seat))


def driver(s: TikalState, seat: int) -> None:
    push(s, Relocation(seat, "driver"))


@mypyc_attr(native_class=False)
class Relocation(TikalFrame):
    """The Hunter (``ctx`` ``hunter``: an Explorer from a terrain tile to any Jungle hex) or
    the Driver (``driver``: a Leader anywhere): first the figure's hex (step ``from``, then
    ``from_hex``), then where it goes (``to``)."""

    __slots__ = ("ctx", "step", "from_hex")
    kind = "relocate"
    ends_turn = False
    prompts = {"from": "choose the hex of the figure to move", "to": "choose where it goes"}

    def __init__(self, seat: int, ctx: str) -> None:
        self.seat, self.ctx, self.step, self.from_hex = seat, ctx, "from", -1

    def rule_name(self) -> str:
        return "9: Hunter" if self.ctx == "hunter" else "9: Driver"

    def targets(self) -> tuple[list[int], list[int], list[int], list[int]]:
        return ([self.from_hex] if self.step == "to" and self.from_hex >= 0 else []), [], [], []

    def legal_actions(self, s: TikalState) -> list:
        names = s.C.board.hexes
        if self.step == "from":
            hexes = (_explorer_hexes(s, self.seat, terrain_only=True) if self.ctx == "hunter"
                     else _leader_hexes(s, self.seat))
        else:
            hexes = _jungles(s) if self.ctx == "hunter" else list(range(s.H))
            hexes = [h for h in hexes if h != self.from_hex]
        return [make(At, names[h].name) for h in hexes]

    def apply(self, s: TikalState, a: object) -> None:
        assert isinstance(a, At)
        h = s.hex_index(a.hex)
        if self.step == "from":
            self.from_hex = h
            self.step = "to"
            return
        move_figure(s, self.seat, EXPLORER if self.ctx == "hunter" else LEADER, self.from_hex, h)
        finish(s, self)




def scout(s: TikalState, seat: int) -> None:
    """5 extra AP to move or deploy EMs, spent now (gap A16)."""
    push(s, ApTurn(seat, "scout", int(_params(s, "scout")["points"]), ends_turn=False))


def scout_usable(s: TikalState, seat: int) -> bool:
    """Offered only if the 5 AP can buy a deploy, a move or a Base-Camp trip now (what
    :func:`~.flow.spend_actions` offers a Scout turn)."""
    points, cost = int(_params(s, "scout")["points"]), s.C.ap_costs
    return ((points >= cost["deploy"] and (s.avail_explorers[seat] > 0 or s.avail_leaders[seat] > 0))
            or can_move(s, seat, points) or (points >= cost["transfer"] and can_transfer(s, seat)))


# --- Fisher: an Explorer onto a Lake ------------------------------------------------------
def _lakes(s: TikalState) -> list[int]:
    return list(s.hexes_by_kind[LAKE])


def _fisher_from_board(s: TikalState) -> bool:
    return s.options.get("fisher_source") == "supply_or_board"


def fisher_usable(s: TikalState, seat: int) -> bool:
    lakes = _lakes(s)
    on_board = _fisher_from_board(s) and any(lakes != [h] for h in _explorer_hexes(s, seat))
    return bool(lakes) and (s.avail_explorers[seat] > 0 or on_board)


def fisher(s: TikalState, seat: int) -> None:
    push(s, FisherPlacement(seat, "from" if _fisher_from_board(s) else "to"))


@mypyc_attr(native_class=False)
class FisherPlacement(TikalFrame):
    """The Fisher: an Explorer onto a Lake, from the supply (or, with the option
    ``fisher_source=supply_or_board``, from a hex: step ``from``, then ``from_hex``)."""

    __slots__ = ("step", "from_hex")
    kind = "fisher"
    rule = "9: Fisher"
    ends_turn = False
    prompts = {"from": "choose where the Explorer comes from", "to": "choose the Lake for the Explorer"}

    def __init__(self, seat: int, step: str) -> None:
        self.seat, self.step, self.from_hex = seat, step, -1

    def targets(self) -> tuple[list[int], list[int], list[int], list[int]]:
        return ([self.from_hex] if self.step == "to" and self.from_hex >= 0 else []), [], [], []

    def legal_actions(self, s: TikalState) -> list:
        names = s.C.board.hexes
        if self.step == "from":
            lakes = _lakes(s)
            acts: list = [make(Choose, "supply")] if s.avail_explorers[self.seat] else []
            return acts + [make(At, names[h].name) for h in _explorer_hexes(s, self.seat) if lakes != [h]]
        return [make(At, names[h].name) for h in _lakes(s) if h != self.from_hex]

    def apply(self, s: TikalState, a: object) -> None:
        if self.step == "from":
            self.from_hex = -1 if isinstance(a, Choose) else s.hex_index(a.hex)  # type: ignore[attr-defined]
            self.step = "to"
            return
        assert isinstance(a, At)
        h = s.hex_index(a.hex)
        if self.from_hex >= 0:
            move_figure(s, self.seat, EXPLORER, self.from_hex, h)
        else:
            deploy_figure(s, self.seat, EXPLORER, h)
        finish(s, self)




# --- card and camp powers -------------------------------------------------------------------
def journalist_usable(s: TikalState, seat: int) -> bool:
    return bool(s.display)


def journalist(s: TikalState, seat: int) -> None:
    push(s, JournalistPick(seat))


@mypyc_attr(native_class=False)
class JournalistPick(TikalFrame):
    """The Journalist: an extra card from the display, to the right of the campsite (like a
    newly taken card)."""

    __slots__ = ()
    kind = "journalist"
    rule = "9: Journalist"
    ends_turn = False
    prompts = {"": "choose the extra action card"}

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def legal_actions(self, s: TikalState) -> list:
        return [make(TakeCard, name) for name in distinct_names(s, s.display)]

    def apply(self, s: TikalState, a: object) -> None:
        assert isinstance(a, TakeCard)
        c = first_card(s, s.display, a.card)
        s.display.remove(c)
        s.right[self.seat].append(c)
        finish(s, self)




def nomad_usable(s: TikalState, seat: int) -> bool:
    return camp_playable(s, seat)


def nomad(s: TikalState, seat: int) -> None:
    push(s, BaseCampSetup(seat, "nomad", ends_turn=False))


def merchant_usable(s: TikalState, seat: int) -> bool:
    return bool(trade_takes(s, seat, merchant=True))


def merchant(s: TikalState, seat: int) -> None:
    push(s, TreasureTrade(seat, "merchant"))


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


def power_refusal(s: TikalState, seat: int, power: str) -> Optional[Refusal]:
    """Rule 9: a Museum Director's power once per game, one of its own, when it can do
    something (gap A16)."""
    director = s.C.directors[s.director[seat]]
    if s.power_used[seat]:
        return "9: Museum Director", f"your director's power was used ({s.power_used[seat]}); once per game"
    if power not in director.powers:
        return "9: Museum Director", f"{director.name}'s powers are {', '.join(director.powers)}"
    if not power_usable(s, seat, power):
        return f"9: {power}", f"{power} cannot do anything now ({s.C.powers[power].text})"
    return None


def use_power(s: TikalState, seat: int, power: str) -> None:
    POWER_RULES[s.C.powers[power].effect][1](s, seat)


__all__ = ["power_usable", "power_refusal", "use_power", "POWER_RULES"]


#: this module's sub-decisions
FRAME_CLASSES = (TrackerMoves, Relocation, FisherPlacement, JournalistPick)

"""Action card effects (rule 10): one small rule per ``effect`` of ``data/cards.json``.

A card that takes decisions pushes a typed sub-decision (:class:`RuinDeployment`,
:class:`TreasureDig`, :class:`TempleBaseDeployment`, :class:`FloorClearing`,
:class:`BaseCampSetup`, :class:`RecruitChoice`, :class:`ExplorerRecruitment`; card 12 an
:class:`~.flow.ApTurn`, 13 a :class:`~.flow.StonePlacement`, 16-18 a
:class:`~.flow.TilePlacement`).

Each effect has ``playable(state, seat, card)`` (a card may be played only if some part of
its effect can be done; gap A18 reading) and ``start(state, seat, card) -> bool`` (True if it
opened a sub-decision frame; the turn then ends when that frame closes).

Per-turn limits apply within one card play as within one AP activation (gap A14).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional

from ..core.compiling import mypyc_attr
from ..core.errors import IllegalAction
from .actions import END, At, Camp, Choose, Clear, End, Unearth, make
from .data import CardDef
from .flow import (CLEAR, EXPLORER, LEADER, UNEARTH, ApTurn, Refusal, TilePlacement, any_free_hex, camp_actions,
                    camp_refusal, can_move, can_transfer, clear_floor, clear_ok, clear_refusal, deploy_figure,
                    finish, push, recruit, refused, set_camp, start_stone, unearth, unearth_ok, unearth_refusal)
from .model import CLEARING, RUINS, TEMPLE, TikalFrame, count_up

if TYPE_CHECKING:
    from .state import TikalState

Playable = Callable[["TikalState", int, CardDef], bool]
Start = Callable[["TikalState", int, CardDef], bool]


def _ruins_with_tokens(s: TikalState) -> list[int]:
    ruin = s.ruin
    return [h for h in s.hexes_by_kind[RUINS] if ruin.get(h)]


def _temples(s: TikalState) -> tuple[int, ...]:
    return s.hexes_by_kind[TEMPLE]


# --- card 1: a blue-back treasure pair --------------------------------------------------
def pair_playable(s: TikalState, seat: int, card: CardDef) -> bool:
    return s.blue[s.C.treasure_types.index(card.params["treasure"])] > 0


def pair_start(s: TikalState, seat: int, card: CardDef) -> bool:
    t = s.C.treasure_types.index(card.params["treasure"])
    s.museum[seat * len(s.C.treasure_types) + t] += s.blue[t]
    s.blue[t] = 0
    return False


# --- cards 2, 3: Explorers from the campsite onto a Ruin with treasures --------------------
def to_ruin_playable(s: TikalState, seat: int, card: CardDef) -> bool:
    if s.avail_explorers[seat] <= 0:
        return False
    ruin = s.ruin
    for h in s.hexes_by_kind[RUINS]:
        if ruin.get(h):
            return True
    return False


def to_ruin_start(s: TikalState, seat: int, card: CardDef) -> bool:
    push(s, RuinDeployment(seat, int(card.params["explorers"])))
    return True


@mypyc_attr(native_class=False)
class RuinDeployment(TikalFrame):
    """Cards 2, 3: ``left`` Explorers from the campsite onto one Ruin with treasures."""

    __slots__ = ("left",)
    kind = "ruin_place"
    rule = "10: action card (Explorers onto a Ruin)"
    prompts = {"": "choose a Ruin with treasures for your Explorers"}

    def __init__(self, seat: int, left: int) -> None:
        self.seat, self.left = seat, left

    def legal_actions(self, s: TikalState) -> list:
        names = s.C.board.hexes
        return [make(At, names[h].name) for h in _ruins_with_tokens(s)]

    def apply(self, s: TikalState, a: object) -> None:
        assert isinstance(a, At)
        h = s.hex_index(a.hex)
        for _ in range(min(self.left, s.avail_explorers[self.seat])):  # as many as the supply holds
            deploy_figure(s, self.seat, EXPLORER, h)
        finish(s, self)




# --- cards 4, 5, 6: take the top treasure of a Ruin where you have an EM, 1-3 times ----------
def dig_playable(s: TikalState, seat: int, card: CardDef) -> bool:
    """A Ruin with treasures and one of your EMs (:func:`~.flow.unearth_refusal` with none
    taken this turn)."""
    if s.C.limits["treasures_per_ruin"] <= 0:
        return False
    base, ex, ld, ruin = seat * s.H, s.explorers, s.leaders, s.ruin
    for h in s.hexes_by_kind[RUINS]:  # unearth_ok(s, seat, h, 0): tokens left and an EM there
        if (ex[base + h] or ld[base + h]) and ruin.get(h):
            return True
    return False


def dig_start(s: TikalState, seat: int, card: CardDef) -> bool:
    push(s, TreasureDig(seat, int(card.params["times"])))
    return True


@mypyc_attr(native_class=False)
class TreasureDig(TikalFrame):
    """Cards 4-6: the top treasure of a Ruin where you have an EM, ``times`` times (``left``
    to go; after the first, the rest is optional); per-turn limits as for AP (A14)."""

    __slots__ = ("left", "times", "counts")
    kind = "dig"
    rule = "10: action card (take treasures)"
    prompts = {"": "choose a Ruin to unearth a treasure, or end"}

    def __init__(self, seat: int, times: int) -> None:
        self.seat, self.left, self.times = seat, times, times
        self.counts: dict[int, int] = {}

    @property
    def initial(self) -> int:
        return self.times

    def legal_actions(self, s: TikalState) -> list:
        names = s.C.board.hexes
        acts: list = [make(Unearth, names[h].name) for h in _ruins_with_tokens(s)
                      if unearth_ok(s, self.seat, h, self.counts.get(h, 0))]
        if self.left < self.times:  # after the first treasure the rest is optional
            acts.append(END)
        return acts

    def apply(self, s: TikalState, a: object) -> None:
        if isinstance(a, Unearth):
            h = s.hex_index(a.hex)
            self.counts = count_up(self.counts, h)
            unearth(s, self.seat, h)
            self.left -= 1
            if self.left > 0 and any(isinstance(x, Unearth) for x in self.legal_actions(s)):
                return
        finish(s, self)

    def why_illegal(self, s: TikalState, a: object) -> IllegalAction:
        if isinstance(a, End) and self.left == self.times:
            return self.refuse("take the first treasure; the others are optional", a)
        if isinstance(a, Unearth):
            h = s.hex_index(a.hex)
            if s.kind[h] != RUINS:
                return refused((UNEARTH, f"{a.hex} is not a Ruin"), a)
            refusal = unearth_refusal(s, self.seat, h, self.counts.get(h, 0))
            if refusal:
                return refused(refusal, a)
        return super().why_illegal(s, a)




# --- card 7: up to 2 Explorers from the campsite to the base of one or two Temples ----------
def to_temples_playable(s: TikalState, seat: int, card: CardDef) -> bool:
    return s.avail_explorers[seat] > 0 and bool(s.hexes_by_kind[TEMPLE])


def to_temples_start(s: TikalState, seat: int, card: CardDef) -> bool:
    push(s, TempleBaseDeployment(seat, int(card.params["explorers"])))
    return True


@mypyc_attr(native_class=False)
class TempleBaseDeployment(TikalFrame):
    """Card 7: up to ``explorers`` Explorers from the campsite to the base of Temples
    (``left`` to go; after the first, the rest is optional)."""

    __slots__ = ("left", "explorers")
    kind = "temple_base"
    rule = "10: action card (Explorers to Temples)"
    prompts = {"": "choose a Temple for an Explorer, or end"}

    def __init__(self, seat: int, explorers: int) -> None:
        self.seat, self.left, self.explorers = seat, explorers, explorers

    @property
    def initial(self) -> int:
        return self.explorers

    def legal_actions(self, s: TikalState) -> list:
        names = s.C.board.hexes
        acts: list = [make(At, names[h].name) for h in _temples(s)]
        if self.left < self.explorers:
            acts.append(END)
        return acts

    def apply(self, s: TikalState, a: object) -> None:
        if isinstance(a, At):
            deploy_figure(s, self.seat, EXPLORER, s.hex_index(a.hex))
            self.left -= 1
            if self.left > 0 and s.avail_explorers[self.seat] > 0:
                return
        finish(s, self)

    def why_illegal(self, s: TikalState, a: object) -> IllegalAction:
        if isinstance(a, At):
            return self.refuse(f"{a.hex} is not a Temple: choose a Temple for the Explorer", a)
        return super().why_illegal(s, a)




# --- card 8: clear up to 2 floors on one Temple ----------------------------------------------
def clear_playable(s: TikalState, seat: int, card: CardDef) -> bool:
    """A Temple where :func:`~.flow.clear_refusal` allows a floor (one of your EMs there first)."""
    base, ex, ld = seat * s.H, s.explorers, s.leaders
    for h in s.hexes_by_kind[TEMPLE]:
        if (ex[base + h] or ld[base + h]) and clear_ok(s, seat, h, 0):
            return True
    return False


def clear_start(s: TikalState, seat: int, card: CardDef) -> bool:
    push(s, FloorClearing(seat, int(card.params["floors"])))
    return True


@mypyc_attr(native_class=False)
class FloorClearing(TikalFrame):
    """Card 8: clear up to ``left`` floors of one Temple (``temple``, once chosen)."""

    __slots__ = ("left", "temple", "counts")
    kind = "clear"
    rule = "10: action card (clear floors)"
    prompts = {"": "choose the Temple to clear a floor of, or end"}

    def __init__(self, seat: int, floors: int) -> None:
        self.seat, self.left, self.temple = seat, floors, -1
        self.counts: dict[int, int] = {}

    def targets(self) -> tuple[list[int], list[int], list[int], list[int]]:
        return ([self.temple] if self.temple >= 0 else []), [], [], []

    def legal_actions(self, s: TikalState) -> list:
        names = s.C.board.hexes
        temples = [self.temple] if self.temple >= 0 else _temples(s)
        acts: list = [make(Clear, names[h].name) for h in temples
                      if clear_ok(s, self.seat, h, self.counts.get(h, 0))]
        if self.temple >= 0:
            acts.append(END)
        return acts

    def apply(self, s: TikalState, a: object) -> None:
        if isinstance(a, Clear):
            h = s.hex_index(a.hex)
            self.temple = h
            self.counts = count_up(self.counts, h)
            clear_floor(s, h)
            self.left -= 1
            if self.left > 0 and clear_ok(s, self.seat, h, self.counts[h]):
                return
        finish(s, self)

    def why_illegal(self, s: TikalState, a: object) -> IllegalAction:
        if isinstance(a, Clear):
            h = s.hex_index(a.hex)
            if s.kind[h] != TEMPLE:
                return refused((CLEAR, f"{a.hex} is not a temple"), a)
            if self.temple >= 0 and h != self.temple:
                return self.refuse(f"the floors are cleared on one temple: {s.hex_name(self.temple)}", a)
            refusal = clear_refusal(s, self.seat, h, self.counts.get(h, 0))
            if refusal:
                return refused(refusal, a)
        return super().why_illegal(s, a)




# --- cards 9, 10 (and the Nomad power): a Base Camp on a Clearing for free ------------------
def camp_playable(s: TikalState, seat: int, card: CardDef | None = None) -> bool:
    """Some Clearing without a camp, and a camp to put there (what :func:`camp_actions` offers)."""
    if not s.camps[seat] and s.C.per_player["base_camps"] <= 0:
        return False
    camp = s.camp
    for h in s.hexes_by_kind[CLEARING]:
        if camp[h] == -1:
            return True
    return False


def camp_start(s: TikalState, seat: int, card: CardDef) -> bool:
    push(s, BaseCampSetup(seat, "card_em" if card.params.get("with_em") else "card"))
    return True


@mypyc_attr(native_class=False)
class BaseCampSetup(TikalFrame):
    """Cards 9, 10 (``ctx`` ``card``, ``card_em``) and the Nomad power (``nomad``): a Base
    Camp on a Clearing for free; card 10 then sends an EM there (step ``figure`` when
    both kinds are available; ``hex``: the new camp)."""

    __slots__ = ("ctx", "step", "hex", "ends_turn")
    kind = "camp"
    prompts = {"": "choose the Clearing for a Base Camp", "figure": "choose the EM that goes with the Base Camp"}

    def __init__(self, seat: int, ctx: str, ends_turn: bool = True) -> None:
        self.seat, self.ctx, self.step, self.hex, self.ends_turn = seat, ctx, "", -1, ends_turn

    def rule_name(self) -> str:
        return "9: Nomad" if self.ctx == "nomad" else "10: action card (Base Camp)"

    def targets(self) -> tuple[list[int], list[int], list[int], list[int]]:
        return ([self.hex] if self.step == "figure" else []), [], [], []

    def legal_actions(self, s: TikalState) -> list:
        if self.step == "figure":
            return [make(Choose, EXPLORER), make(Choose, LEADER)]
        acts: list = []
        camp_actions(s, self.seat, acts)
        return acts

    def apply(self, s: TikalState, a: object) -> None:
        seat = self.seat
        if isinstance(a, Camp):
            h = s.hex_index(a.hex)
            set_camp(s, seat, h, s.hex_index(a.from_hex) if a.from_hex else -1)
            self.hex = h
            if self.ctx == "card_em":  # card 10: 1 EM from the campsite goes with it
                has_e, has_l = s.avail_explorers[seat] > 0, s.avail_leaders[seat] > 0
                if has_e and has_l:
                    self.step = "figure"
                    return
                if has_e or has_l:
                    deploy_figure(s, seat, EXPLORER if has_e else LEADER, h)
        elif isinstance(a, Choose):
            deploy_figure(s, seat, a.option, self.hex)
        finish(s, self)

    def why_illegal(self, s: TikalState, a: object) -> IllegalAction:
        if isinstance(a, Camp) and self.step == "":
            refusal = camp_refusal(s, self.seat, a)
            if refusal:
                return refused(refusal, a)
        return super().why_illegal(s, a)




# --- card 11: a Leader and/or an Explorer from Unavailable ----------------------------------
def recruit_playable(s: TikalState, seat: int, card: CardDef) -> bool:
    return s.unavail_leaders[seat] > 0 or s.unavail_explorers[seat] > 0


def recruit_start(s: TikalState, seat: int, card: CardDef) -> bool:
    push(s, RecruitChoice(seat))
    return True


@mypyc_attr(native_class=False)
class RecruitChoice(TikalFrame):
    """Card 11: a Leader and/or an Explorer from the Unavailable to the Available Supply."""

    __slots__ = ()
    kind = "recruit"
    rule = "10: action card (Unavailable Supply)"
    prompts = {"": "choose what to take from your Unavailable Supply"}

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def legal_actions(self, s: TikalState) -> list:
        lead, expl = s.unavail_leaders[self.seat] > 0, s.unavail_explorers[self.seat] > 0
        acts = [make(Choose, "both")] if lead and expl else []
        if lead:
            acts.append(make(Choose, LEADER))
        if expl:
            acts.append(make(Choose, EXPLORER))
        return acts

    def apply(self, s: TikalState, a: object) -> None:
        assert isinstance(a, Choose)
        if a.option in (LEADER, "both"):
            recruit(s, self.seat, LEADER)
        if a.option in (EXPLORER, "both"):
            recruit(s, self.seat, EXPLORER)
        finish(s, self)




# --- card 19: up to 4 Explorers from Unavailable -------------------------------------------
def explorers_playable(s: TikalState, seat: int, card: CardDef) -> bool:
    return s.unavail_explorers[seat] > 0


def explorers_start(s: TikalState, seat: int, card: CardDef) -> bool:
    push(s, ExplorerRecruitment(seat, int(card.params["explorers"])))
    return True


@mypyc_attr(native_class=False)
class ExplorerRecruitment(TikalFrame):
    """Card 19: up to ``left`` Explorers from the Unavailable to the Available Supply."""

    __slots__ = ("left",)
    kind = "explorers"
    rule = "10: action card (up to 4 Explorers)"
    prompts = {"": "choose how many Explorers to take from your Unavailable Supply"}

    def __init__(self, seat: int, left: int) -> None:
        self.seat, self.left = seat, left

    def legal_actions(self, s: TikalState) -> list:
        most = min(self.left, s.unavail_explorers[self.seat])
        return [make(Choose, str(k)) for k in range(most, 0, -1)]

    def apply(self, s: TikalState, a: object) -> None:
        assert isinstance(a, Choose)
        recruit(s, self.seat, EXPLORER, int(a.option))
        finish(s, self)




# --- card 12: up to 5 moves; card 13: a Trail Stone; cards 16-18: a symbol tile ---------------
def moves_playable(s: TikalState, seat: int, card: CardDef) -> bool:
    return can_move(s, seat, int(card.params["points"])) or can_transfer(s, seat)


def moves_start(s: TikalState, seat: int, card: CardDef) -> bool:
    push(s, ApTurn(seat, "moves", int(card.params["points"])))
    return True


def stone_start(s: TikalState, seat: int, card: CardDef) -> bool:
    start_stone(s, seat, ends_turn=True)
    return True


def symbol_playable(s: TikalState, seat: int, card: CardDef) -> bool:
    t = s.C.tile_index[card.params["tile"]]
    return t in s.symbol_supply and any_free_hex(s, dotted=True)


def symbol_start(s: TikalState, seat: int, card: CardDef) -> bool:
    push(s, TilePlacement(seat, "card", s.C.tile_index[card.params["tile"]]))
    return True


def never(s: TikalState, seat: int, card: CardDef) -> bool:
    return False


def always(s: TikalState, seat: int, card: CardDef) -> bool:
    return True


CARD_RULES: dict[str, tuple[Playable, Start]] = {
    "treasure_pair": (pair_playable, pair_start),
    "explorers_to_ruin": (to_ruin_playable, to_ruin_start),
    "unearth": (dig_playable, dig_start),
    "explorers_to_temples": (to_temples_playable, to_temples_start),
    "clear_floors": (clear_playable, clear_start),
    "base_camp": (camp_playable, camp_start),
    "recruit": (recruit_playable, recruit_start),
    "moves": (moves_playable, moves_start),
    "trail_stone": (always, stone_start),
    "bonus_ap": (never, never),  # permanent: used, not played (see rules.use_alone)
    "symbol_tile": (symbol_playable, symbol_start),
    "recruit_explorers": (explorers_playable, explorers_start),
}


def card_playable(s: TikalState, seat: int, card: CardDef) -> bool:
    return CARD_RULES[card.effect][0](s, seat, card)


def start_card(s: TikalState, seat: int, card: CardDef) -> bool:
    return CARD_RULES[card.effect][1](s, seat, card)


def card_refusal(s: TikalState, seat: int, card: CardDef) -> Optional[Refusal]:
    """Rule 10 / A18: a card is played only if some part of its effect can be done now."""
    if CARD_RULES[card.effect][0](s, seat, card):
        return None
    return f"10: action card {card.name}", f"its effect cannot be done now ({card.text})"


#: this module's sub-decisions
FRAME_CLASSES = (RuinDeployment, TreasureDig, TempleBaseDeployment, FloorClearing, BaseCampSetup, RecruitChoice,
                 ExplorerRecruitment)

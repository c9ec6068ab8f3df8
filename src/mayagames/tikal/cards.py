"""Action card effects (rule 10): one small rule per ``effect`` of ``data/cards.json``.

Each effect has ``playable(state, seat, card)`` (a card may be played only if some part of
its effect can be done; gap A18 reading) and ``start(state, seat, card) -> bool`` (True if it
opened a sub-decision frame; the turn then ends when that frame closes).

Per-turn limits apply within one card play as within one AP activation (gap A14).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from .actions import END, At, Camp, Choose, Clear, Unearth, make
from .data import CardDef
from .rules import (Apply, EXPLORER, LEADER, Legal, camp_actions, clear_ok, deploy_figure, finish, free_hexes,
                    move_actions, push, recruit, set_camp, start_stone, transfer_actions, unearth,
                    unearth_ok, clear_floor)
from .model import RUINS, TEMPLE, Frame

if TYPE_CHECKING:
    from .state import TikalState

Playable = Callable[["TikalState", int, CardDef], bool]
Start = Callable[["TikalState", int, CardDef], bool]


def _ruins_with_tokens(s: TikalState) -> list[int]:
    return [h for h in range(s.H) if s.kind[h] == RUINS and s.ruin.get(h)]


def _temples(s: TikalState) -> list[int]:
    return [h for h in range(s.H) if s.kind[h] == TEMPLE]


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
    return s.avail_explorers[seat] > 0 and bool(_ruins_with_tokens(s))


def to_ruin_start(s: TikalState, seat: int, card: CardDef) -> bool:
    push(s, Frame("ruin_place", seat, left=int(card.params["explorers"])))
    return True


def ruin_place_legal(s: TikalState, f: Frame) -> list:
    names = s.C.board.hexes
    return [make(At, names[h].name) for h in _ruins_with_tokens(s)]


def ruin_place_apply(s: TikalState, f: Frame, a: object) -> None:
    assert isinstance(a, At)
    h = s.hex_index(a.hex)
    for _ in range(min(f.left, s.avail_explorers[f.seat])):  # as many as the supply holds
        deploy_figure(s, f.seat, EXPLORER, h)
    finish(s, f)




# --- cards 4, 5, 6: take the top treasure of a Ruin where you have an EM, 1-3 times ----------
def dig_playable(s: TikalState, seat: int, card: CardDef) -> bool:
    return any(unearth_ok(s, seat, h, 0) for h in _ruins_with_tokens(s))


def dig_start(s: TikalState, seat: int, card: CardDef) -> bool:
    push(s, Frame("dig", seat, left=int(card.params["times"]), a=int(card.params["times"])))
    return True


def dig_legal(s: TikalState, f: Frame) -> list:
    names = s.C.board.hexes
    acts = [make(Unearth, names[h].name) for h in _ruins_with_tokens(s)
            if unearth_ok(s, f.seat, h, f.counts.get(h, 0))]
    if f.left < f.a:  # after the first treasure the rest is optional
        acts.append(END)
    return acts


def dig_apply(s: TikalState, f: Frame, a: object) -> None:
    if isinstance(a, Unearth):
        h = s.hex_index(a.hex)
        f.counts[h] = f.counts.get(h, 0) + 1
        unearth(s, f.seat, h)
        f.left -= 1
        if f.left > 0 and any(isinstance(x, Unearth) for x in dig_legal(s, f)):
            return
    finish(s, f)




# --- card 7: up to 2 Explorers from the campsite to the base of one or two Temples ----------
def to_temples_playable(s: TikalState, seat: int, card: CardDef) -> bool:
    return s.avail_explorers[seat] > 0 and bool(_temples(s))


def to_temples_start(s: TikalState, seat: int, card: CardDef) -> bool:
    n = int(card.params["explorers"])
    push(s, Frame("temple_base", seat, left=n, a=n))
    return True


def temple_base_legal(s: TikalState, f: Frame) -> list:
    names = s.C.board.hexes
    acts: list = [make(At, names[h].name) for h in _temples(s)]
    if f.left < f.a:
        acts.append(END)
    return acts


def temple_base_apply(s: TikalState, f: Frame, a: object) -> None:
    if isinstance(a, At):
        deploy_figure(s, f.seat, EXPLORER, s.hex_index(a.hex))
        f.left -= 1
        if f.left > 0 and s.avail_explorers[f.seat] > 0:
            return
    finish(s, f)




# --- card 8: clear up to 2 floors on one Temple ----------------------------------------------
def clear_playable(s: TikalState, seat: int, card: CardDef) -> bool:
    return any(clear_ok(s, seat, h, 0) for h in _temples(s))


def clear_start(s: TikalState, seat: int, card: CardDef) -> bool:
    push(s, Frame("clear", seat, left=int(card.params["floors"]), a=-1))
    return True


def clear_legal(s: TikalState, f: Frame) -> list:
    names = s.C.board.hexes
    temples = [f.a] if f.a >= 0 else _temples(s)
    acts: list = [make(Clear, names[h].name) for h in temples if clear_ok(s, f.seat, h, f.counts.get(h, 0))]
    if f.a >= 0:
        acts.append(END)
    return acts


def clear_apply(s: TikalState, f: Frame, a: object) -> None:
    if isinstance(a, Clear):
        h = s.hex_index(a.hex)
        f.a = h
        f.counts[h] = f.counts.get(h, 0) + 1
        clear_floor(s, h)
        f.left -= 1
        if f.left > 0 and clear_ok(s, f.seat, h, f.counts[h]):
            return
    finish(s, f)




# --- cards 9, 10 (and the Nomad power): a Base Camp on a Clearing for free ------------------
def camp_playable(s: TikalState, seat: int, card: CardDef | None = None) -> bool:
    acts: list = []
    camp_actions(s, seat, acts)
    return bool(acts)


def camp_start(s: TikalState, seat: int, card: CardDef) -> bool:
    push(s, Frame("camp", seat, ctx="card_em" if card.params.get("with_em") else "card"))
    return True


def camp_legal(s: TikalState, f: Frame) -> list:
    if f.step == "figure":
        return [make(Choose, EXPLORER), make(Choose, LEADER)]
    acts: list = []
    camp_actions(s, f.seat, acts)
    return acts


def camp_apply(s: TikalState, f: Frame, a: object) -> None:
    seat = f.seat
    if isinstance(a, Camp):
        h = s.hex_index(a.hex)
        set_camp(s, seat, h, s.hex_index(a.from_hex) if a.from_hex else -1)
        f.b = h
        if f.ctx == "card_em":  # card 10: 1 EM from the campsite goes with it
            has_e, has_l = s.avail_explorers[seat] > 0, s.avail_leaders[seat] > 0
            if has_e and has_l:
                f.step = "figure"
                return
            if has_e or has_l:
                deploy_figure(s, seat, EXPLORER if has_e else LEADER, h)
    elif isinstance(a, Choose):
        deploy_figure(s, seat, a.option, f.b)
    finish(s, f)




# --- card 11: a Leader and/or an Explorer from Unavailable ----------------------------------
def recruit_playable(s: TikalState, seat: int, card: CardDef) -> bool:
    return s.unavail_leaders[seat] > 0 or s.unavail_explorers[seat] > 0


def recruit_start(s: TikalState, seat: int, card: CardDef) -> bool:
    push(s, Frame("recruit", seat))
    return True


def recruit_legal(s: TikalState, f: Frame) -> list:
    lead, expl = s.unavail_leaders[f.seat] > 0, s.unavail_explorers[f.seat] > 0
    acts = [make(Choose, "both")] if lead and expl else []
    if lead:
        acts.append(make(Choose, LEADER))
    if expl:
        acts.append(make(Choose, EXPLORER))
    return acts


def recruit_apply(s: TikalState, f: Frame, a: object) -> None:
    assert isinstance(a, Choose)
    if a.option in (LEADER, "both"):
        recruit(s, f.seat, LEADER)
    if a.option in (EXPLORER, "both"):
        recruit(s, f.seat, EXPLORER)
    finish(s, f)




# --- card 19: up to 4 Explorers from Unavailable -------------------------------------------
def explorers_playable(s: TikalState, seat: int, card: CardDef) -> bool:
    return s.unavail_explorers[seat] > 0


def explorers_start(s: TikalState, seat: int, card: CardDef) -> bool:
    push(s, Frame("explorers", seat, left=int(card.params["explorers"])))
    return True


def explorers_legal(s: TikalState, f: Frame) -> list:
    most = min(f.left, s.unavail_explorers[f.seat])
    return [make(Choose, str(k)) for k in range(most, 0, -1)]


def explorers_apply(s: TikalState, f: Frame, a: object) -> None:
    assert isinstance(a, Choose)
    recruit(s, f.seat, EXPLORER, int(a.option))
    finish(s, f)




# --- card 12: up to 5 moves; card 13: a Trail Stone; cards 16-18: a symbol tile ---------------
def moves_playable(s: TikalState, seat: int, card: CardDef) -> bool:
    acts: list = []
    move_actions(s, seat, int(card.params["points"]), acts)
    if not acts:
        transfer_actions(s, seat, acts)
    return bool(acts)


def moves_start(s: TikalState, seat: int, card: CardDef) -> bool:
    push(s, Frame("ap", seat, ctx="moves", points=int(card.params["points"])))
    return True


def stone_start(s: TikalState, seat: int, card: CardDef) -> bool:
    start_stone(s, seat, ends_turn=True)
    return True


def symbol_playable(s: TikalState, seat: int, card: CardDef) -> bool:
    t = s.C.tile_index[card.params["tile"]]
    return t in s.symbol_supply and bool(free_hexes(s, dotted=True))


def symbol_start(s: TikalState, seat: int, card: CardDef) -> bool:
    push(s, Frame("tile", seat, ctx="card", step="hex", a=s.C.tile_index[card.params["tile"]]))
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


# The frames of this module: kind -> (legal actions, transition).
FRAMES: dict[str, tuple[Legal, Apply]] = {
    "ruin_place": (ruin_place_legal, ruin_place_apply),
    "dig": (dig_legal, dig_apply),
    "temple_base": (temple_base_legal, temple_base_apply),
    "clear": (clear_legal, clear_apply),
    "camp": (camp_legal, camp_apply),
    "recruit": (recruit_legal, recruit_apply),
    "explorers": (explorers_legal, explorers_apply),
}

"""Why an action is illegal: the rule that forbids it, in words a player understands.

Only called for actions outside ``legal_actions()`` (``apply`` checks membership only), so
these checks can be thorough rather than fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import IllegalAction
from .actions import (Activate, At, Camp, Choose, Clear, Deploy, Discard, End, Give, Guardian, Keep, Move, Pass,
                      PlaceTile, Play, Power, Recruit, Rotate, Side, Stone, Take, TakeAP, TakeCard, TakeStatuette,
                      TakeTile, Token, Trade, Transfer, Unearth, Use)
from .data import SIDES
from .cards import card_playable
from .model import CLEARING, OVER, ROUND_MANAGEMENT, RUINS, TEMPLE
from .powers import power_usable
from .rules import can_pass, edge_between
from .serialize import prompt

if TYPE_CHECKING:
    from .state import TikalState

RM_TYPES = (TakeStatuette, TakeAP, TakeTile, TakeCard)
AP_TYPES = (Deploy, Move, Transfer, Camp, Stone, Recruit, Clear, Guardian, Unearth, Trade)
ANSWER_TYPES = (At, Side, Rotate, Choose, Token, Discard, Give, Take)  # answers to sub-decisions


def _err(rule: str, message: str, action: object) -> IllegalAction:
    return IllegalAction(f"Tikal {rule}", message, action)


def explain(s: TikalState, a: object) -> IllegalAction:
    try:
        for name in ("hex", "from_hex", "to_hex"):
            value = getattr(a, name, "")
            if value:
                s.hex_index(value)  # an unknown hex name is reported first
        if s.phase == OVER:
            return _err("11: Final Scoring", "the game is over", a)
        if s.stack:
            return _explain_frame(s, a)
        if s.phase == ROUND_MANAGEMENT:
            return _explain_rm(s, a)
        return _explain_turn(s, a)
    except IllegalAction as exc:  # e.g. an unknown hex name
        return IllegalAction(exc.rule, exc.message, a)


# --- round management ---------------------------------------------------------------------
def _explain_rm(s: TikalState, a: object) -> IllegalAction:
    seat, rules = s.turn, s.setup_rules
    rule = "4: Round Management"
    if not isinstance(a, RM_TYPES):
        return _err(rule, "each turn of Round Management takes one item: 'take statuette N', "
                          "'take ap N', 'take tile X' or 'take card X'", a)
    if isinstance(a, TakeStatuette):
        if seat in s.next_order:
            return _err(rule, "your statuette is already on a turn-order space", a)
        if not 1 <= a.space <= len(s.next_order) or s.next_order[a.space - 1] >= 0:
            return _err(rule, f"turn-order space {a.space} is not free", a)
    if isinstance(a, TakeAP):
        if s.rm_ap[seat]:
            return _err(rule, "one AP token per round", a)
        return _err(rule, f"no AP token {a.value} on offer (offered: {sorted(s.ap_display)})", a)
    if isinstance(a, TakeTile):
        if s.rm_tiles[seat] >= rules["tiles_each"]:
            return _err(rule, f"you already took {rules['tiles_each']} terrain tile(s) this round", a)
        offered = ", ".join(s.C.tiles[t].id for t in s.tile_display) or "none"
        return _err(rule, f"tile {a.tile} is not on offer (on offer: {offered}; tile ids look like B-3)", a)
    if isinstance(a, TakeCard):
        if s.rm_cards[seat] >= rules["cards_each"]:
            return _err(rule, f"you already took {rules['cards_each']} action cards this round", a)
        return _err(rule, f"no card {a.card!r} on display", a)
    return _err(rule, "not an item you may take now", a)


# --- a turn of the action phase ----------------------------------------------------------
def _card_on(s: TikalState, cards: list[int], name: str) -> list[int]:
    return [c for c in cards if s.card_name(c) == name]


def _explain_turn(s: TikalState, a: object) -> IllegalAction:
    seat = s.turn
    if isinstance(a, RM_TYPES):
        return _err("5: Action phase", "Round Management is over; items are taken at the start of a round", a)
    if isinstance(a, AP_TYPES) or isinstance(a, End):
        return _err("5.3: Activate the AP token", "AP actions are spent by activating your AP token "
                                                  "('activate') or a card first", a)
    if isinstance(a, ANSWER_TYPES):
        return _err("5: Action phase", f"no question is open: '{a}' answers one (asked after 'place', 'stone', "
                                       "'trade', 'keep' with the kept spaces full, a card or a power)", a)
    if isinstance(a, Pass) and not can_pass(s, seat):
        left = []
        if s.camp_tiles[seat]:
            left.append("a terrain tile to place")
        if s.ap_token[seat]:
            left.append("your AP token to activate")
        if any(not s.down[c] for c in s.right[seat]):
            left.append("action cards on the right to play or keep")
        return _err("5: passing", "you may pass only when your campsite is used: " + ", ".join(left), a)
    if isinstance(a, Keep) and not _card_on(s, s.right[seat], a.card):
        return _err("5.1: Move an action card", f"no card {a.card!r} on the right of your campsite", a)
    if isinstance(a, (Play, Use)):
        cards = _card_on(s, s.left[seat] if a.kept else s.right[seat], a.card)
        where = "left (kept)" if a.kept else "right"
        if not cards:
            return _err("5.2: Play an action card", f"no card {a.card!r} on the {where} of your campsite", a)
        card = s.C.cards[cards[0]]
        if isinstance(a, Play) and card.permanent:
            return _err("5: permanent cards", f"{a.card} is permanent: 'use' it (alone or with your AP token)", a)
        if isinstance(a, Use) and not card.permanent:
            return _err("5.2: Play an action card", f"{a.card} is not permanent: 'play' it", a)
        if isinstance(a, Use):
            return _err("5: permanent cards", f"{a.card} was already used this round (face down)", a)
        if not card_playable(s, seat, card):
            return _err(f"10: action card {a.card}", f"its effect cannot be done now ({card.text})", a)
    if isinstance(a, Activate) and not s.ap_token[seat]:
        return _err("5.3: Activate the AP token", "your AP token is already used (or you have none)", a)
    if isinstance(a, PlaceTile) and a.tile not in [s.C.tiles[t].id for t in s.camp_tiles[seat]]:
        mine = ", ".join(s.C.tiles[t].id for t in s.camp_tiles[seat]) or "none"
        return _err("7: Playing a terrain tile", f"tile {a.tile} is not on your campsite (yours: {mine})", a)
    if isinstance(a, Power):
        director = s.C.directors[s.director[seat]]
        if s.power_used[seat]:
            return _err("9: Museum Director", f"your director's power was used ({s.power_used[seat]}); once per game", a)
        if a.power not in director.powers:
            return _err("9: Museum Director", f"{director.name}'s powers are {', '.join(director.powers)}", a)
        if not power_usable(s, seat, a.power):
            return _err(f"9: {a.power}", f"{a.power} cannot do anything now ({s.C.powers[a.power].text})", a)
    return _err("5: Action phase", "not one of the legal actions now", a)


# --- sub-decisions -------------------------------------------------------------------------
def _explain_frame(s: TikalState, a: object) -> IllegalAction:
    f = s.stack[-1]
    if f.kind == "ap" and isinstance(a, AP_TYPES + (Use,)):
        return _explain_ap(s, a)
    if f.kind == "stone" and isinstance(a, (At, Side, Token)):
        return _err("6: Place a Trail Stone", _stone_reason(s, a), a)
    if f.kind == "tile" and isinstance(a, (At, Rotate)):
        return _err("7: Playing a terrain tile", _tile_reason(s, f, a), a)
    if f.kind == "trade" and isinstance(a, (Take, Give)):
        return _err("6: Trade Treasures" if f.ctx != "merchant" else "9: Merchant", _trade_reason(s, f, a), a)
    return _err(_frame_rule(s, f), f"now {prompt(f)}", a)


# the rule that opened each kind of sub-decision (an AP spending is rule 6 or its origin)
FRAME_RULE_NAMES = {
    "discard": "5.1: Move an action card", "ruin_place": "10: action card (Explorers onto a Ruin)",
    "dig": "10: action card (take treasures)", "temple_base": "10: action card (Explorers to Temples)",
    "clear": "10: action card (clear floors)", "recruit": "10: action card (Unavailable Supply)",
    "explorers": "10: action card (up to 4 Explorers)", "tracker": "9: Tracker", "fisher": "9: Fisher",
    "journalist": "9: Journalist", "stone": "6: Place a Trail Stone", "tile": "7: Playing a terrain tile",
    "trade": "6: Trade Treasures",
}
AP_ORIGINS = {"token": "6: AP actions", "alone": "5: permanent cards", "volcano": "8: In-Game Scoring",
              "final": "11: Final Scoring", "moves": "10: card moves-5", "scout": "9: Scout"}


def _frame_rule(s: TikalState, f) -> str:
    if f.kind == "ap":
        return AP_ORIGINS.get(f.ctx, "6: AP actions")
    if f.kind == "relocate":
        return "9: Hunter" if f.ctx == "hunter" else "9: Driver"
    if f.kind == "camp":
        return "9: Nomad" if f.ctx == "nomad" else "10: action card (Base Camp)"
    if f.kind == "trade" and f.ctx == "merchant":
        return "9: Merchant"
    return FRAME_RULE_NAMES.get(f.kind, "5: compound turn")


def _explain_ap(s: TikalState, a: object) -> IllegalAction:
    f = s.stack[-1]
    seat, p, C = f.seat, f.points, s.C
    cost = C.ap_costs
    if f.ctx in ("moves", "scout") and not isinstance(a, (Move, Transfer, Deploy)):
        rule = "10: card moves-5" if f.ctx == "moves" else "9: Scout"
        return _err(rule, "these points only move (or deploy) EMs", a)
    if f.ctx == "moves" and isinstance(a, Deploy):
        return _err("10: card moves-5", "the card's points move EMs; they do not deploy new ones", a)
    if isinstance(a, Use):
        if f.ctx != "token":
            return _err("5: permanent cards", "a permanent card adds AP only to an AP-token activation", a)
        return _err("5: permanent cards", f"no face-up {a.card} on your campsite", a)
    if isinstance(a, Move):
        x, y = s.hex_index(a.from_hex), s.hex_index(a.to_hex)
        arr = s.explorers if a.figure == "explorer" else s.leaders
        if not arr[seat * s.H + x]:
            return _err("6: Move an EM", f"you have no {a.figure} on {a.from_hex}", a)
        e = edge_between(s, x, y)
        if e < 0:
            return _err("6: Move an EM", f"{a.from_hex} and {a.to_hex} are not adjacent", a)
        if s.cost[e] == 0:
            return _err("6: Move an EM", f"no Trail Stone on the edge between {a.from_hex} and {a.to_hex}: no passage", a)
        return _err("6: Move an EM", f"crossing costs {s.cost[e] * cost['move_per_stone']} AP; you have {p}", a)
    if isinstance(a, Deploy):
        supply = s.avail_explorers if a.figure == "explorer" else s.avail_leaders
        if not supply[seat]:
            return _err("6: Deploy a new EM", f"no {a.figure} in your Available Supply", a)
        if s.hex_index(a.hex) not in [s.common_camp] + s.camps[seat]:
            return _err("6: Deploy a new EM", "new EMs go onto the Common Base Camp or one of your Base Camps", a)
        return _err("6: Deploy a new EM", f"deploying costs {cost['deploy']} AP; you have {p}", a)
    if isinstance(a, Transfer):
        camps = [s.common_camp] + s.camps[seat]
        if s.hex_index(a.from_hex) not in camps or s.hex_index(a.to_hex) not in camps or a.from_hex == a.to_hex:
            return _err("6: Move an EM between Base Camps", "only between the Common Base Camp and yours, or two of yours", a)
        return _err("6: Move an EM between Base Camps", f"you have no {a.figure} on {a.from_hex} or too few AP", a)
    if isinstance(a, Camp):
        h = s.hex_index(a.hex)
        if s.kind[h] != CLEARING:
            return _err("6: Set up a Base Camp", f"{a.hex} is not a Clearing", a)
        if s.camp[h] != -1:
            return _err("6: Set up a Base Camp", f"{a.hex} already holds a Base Camp", a)
        if p < cost["base_camp"]:
            return _err("6: Set up a Base Camp", f"a Base Camp costs {cost['base_camp']} AP; you have {p}", a)
        return _err("6: Set up a Base Camp", "place a camp from your reserve; move one only when both are out (A20)", a)
    if isinstance(a, Recruit):
        supply = s.unavail_explorers if a.figure == "explorer" else s.unavail_leaders
        key = "recruit_explorer" if a.figure == "explorer" else "recruit_leader"
        if not supply[seat]:
            return _err("6: Add to Available Supply", f"no {a.figure} left in your Unavailable Supply", a)
        return _err("6: Add to Available Supply", f"it costs {cost[key]} AP; you have {p}", a)
    if isinstance(a, Clear):
        return _err("6: Clear a Temple Floor", _clear_reason(s, f, a), a)
    if isinstance(a, Guardian):
        return _err("6: Place a Guardian", _guardian_reason(s, seat, a), a)
    if isinstance(a, Unearth):
        return _err("6: Unearth a Treasure", _unearth_reason(s, f, a), a)
    if isinstance(a, Trade):
        if p < cost["trade"]:
            return _err("6: Trade Treasures", f"a trade costs {cost['trade']} AP; you have {p}", a)
        return _err("6: Trade Treasures", "no opponent has a type of which you hold at least as many, "
                                          "or you have nothing to give back", a)
    if isinstance(a, Stone):
        return _err("6: Place a Trail Stone", f"it costs {cost['trail_stone']} AP; you have {p}", a)
    return _err("6: AP actions", "not possible now", a)


def _clear_reason(s: TikalState, f, a: Clear) -> str:
    h = s.hex_index(a.hex)
    if s.kind[h] != TEMPLE:
        return f"{a.hex} is not a temple"
    if s.guardian[h] >= 0:
        return "a guarded temple cannot be cleared"
    if s.level[h] >= s.C.max_level:
        return f"the temple is at the top level {s.C.max_level}"
    if s.floors[s.level[h] + 1] == 0:
        return f"no unbuilt floor of level {s.level[h] + 1} is left in the supply"
    done = f.counts.get(h, 0)
    if done >= s.C.limits["floors_per_temple"]:
        return f"at most {s.C.limits['floors_per_temple']} floors per temple per turn"
    if s.figures(f.seat, h) <= done:
        return "you need one of your EMs at the temple per floor cleared this turn"
    return f"clearing costs {s.C.ap_costs['clear_floor']} AP; you have {f.points}"


def _guardian_reason(s: TikalState, seat: int, a: Guardian) -> str:
    h = s.hex_index(a.hex)
    if s.kind[h] != TEMPLE:
        return f"{a.hex} is not a temple"
    if s.guardians[seat] >= s.C.per_player["max_guardians"]:
        return f"you already have {s.C.per_player['max_guardians']} Guardians"
    if s.guardian[h] >= 0:
        return "that temple already has a Guardian"
    if s.majority(h) != seat:
        return "you need the majority presence on the temple (Leader 3, Explorer 1, strictly more than each other player)"
    return f"you have no {a.figure} there, or fewer than {s.C.ap_costs['guardian']} AP"


def _unearth_reason(s: TikalState, f, a: Unearth) -> str:
    h = s.hex_index(a.hex)
    if s.kind[h] != RUINS:
        return f"{a.hex} is not a Ruin"
    if not s.ruin.get(h):
        return "that Ruin has no treasure left"
    done = f.counts.get(h, 0)
    if done >= s.C.limits["treasures_per_ruin"]:
        return f"at most {s.C.limits['treasures_per_ruin']} treasures per Ruin per turn"
    if s.figures(f.seat, h) <= done:
        return "you need one of your EMs on the Ruin per treasure unearthed this turn"
    return f"unearthing costs {s.C.ap_costs['unearth']} AP; you have {f.points}"


def _stone_reason(s: TikalState, a: object) -> str:
    f = s.stack[-1]
    if isinstance(a, Token):
        return "choose a Trail Stone token that is on the board (as listed: the hex and side it was placed on)"
    if f.step == "token":
        return "both tokens are on the board: first choose the one to move ('token HEX SIDE')"
    if isinstance(a, Side) and f.step == "side":
        return f"side {a.side} of {s.hex_name(f.b)} is the board's edge (or where the token already is)"
    if f.step == "side":
        return f"choose a side: {' '.join(SIDES)}"
    return "choose a hex of the board ('at HEX')"


def _tile_reason(s: TikalState, f, a: object) -> str:
    if isinstance(a, At) and f.step == "hex":
        h = s.hex_index(a.hex)
        if s.kind[h] != 0:
            return f"{a.hex} is not Jungle: a tile goes on an empty hex"
        if f.ctx == "card":
            return "a symbol tile goes on a dotted border hex"
        return "a terrain tile from the campsite may not go on a dotted border hex"
    if f.step == "hex":
        return "choose the hex first ('at HEX')"
    return "choose a rotation 'rotate 0'..'rotate 5' (rotations that look the same are listed once)"


def _trade_reason(s: TikalState, f, a: object) -> str:
    if f.step == "give" and isinstance(a, Take):
        return "now choose what to give back ('give TYPE')"
    if f.step == "take" and isinstance(a, Give):
        return "first choose what to take ('take COLOUR TYPE COUNT')"
    if isinstance(a, Give):
        return "give a type you hold, other than the one you take"
    assert isinstance(a, Take)
    if a.player == f.seat or not 0 <= a.player < s.num_players:
        return "take from an opponent"
    if f.ctx == "merchant":
        return "the Merchant swaps one token of a type the opponent holds, for one of another type of yours"
    return ("take 1 or 2 tokens of one type that the opponent holds, of which you hold at least as many, "
            "and have as many tokens of other types to give back (A13)")


__all__ = ["explain"]

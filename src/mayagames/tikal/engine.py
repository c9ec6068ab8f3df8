"""The Tikal Legend forward model's entry points: legal actions, transitions and why an
action is illegal, by phase; and the turn step that plays cards and uses director powers.

It is the top of the rules (docs/design.md, "Import order"): ``flow`` (round
management, AP actions, scorings and their frames), ``cards`` (card effects) and
``powers`` (director powers) define the typed sub-decisions (:mod:`.frames`); an open one
answers for itself. This module adds what needs all three (a turn offers cards and
powers). Nothing below imports it, so the package has no import cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from ..core.compiling import mypyc_attr
from ..core.errors import IllegalAction
from ..core.frames import SubDecision
from ..core.game import unwritable
from .actions import (ACTIVATE, PASS, Activate, At, Camp, Choose, Clear, Deploy, Discard, End, Give, Guardian,
                      Keep, Move, Pass, PlaceTile, Play, Power, Recruit, Rotate, Side, Stone, Take, TakeAP,
                      TakeCard, TakeStatuette, TakeTile, Token, Trade, Transfer, Unearth, Use)
from .cards import CARD_RULES, card_refusal, start_card
from .model import OVER
from .powers import power_refusal, power_usable, use_power
from .flow import (ROUND_MANAGEMENT_FRAME, Refusal, activate_token, can_pass, distinct_cards, end_turn, first_card,
                   keep_card, pass_refusal, pass_turn, place_from_campsite, refused, tables, use_alone)

if TYPE_CHECKING:
    from .state import TikalState


def legal_actions(s: "TikalState") -> list:
    """The legal actions of the frame that decides now (:func:`deciding_frame`)."""
    stack = s.stack
    return (stack[-1] if stack else PHASE_FRAMES[s.phase]).legal_actions(s)


def apply_action(s: "TikalState", action: object) -> None:
    """Play a legal action on the frame that decides now (:func:`deciding_frame`)."""
    stack = s.stack
    (stack[-1] if stack else PHASE_FRAMES[s.phase]).apply(s, action)


def deciding_frame(s: "TikalState") -> SubDecision["TikalState"]:
    """The top frame of the stack or, the stack empty, the phase's frame (Round Management,
    the action phase's turn step; the game's end answers nothing)."""
    return s.stack[-1] if s.stack else PHASE_FRAMES[s.phase]


# ============================================================================ 5. Action phase: a turn
def turn_legal(s: "TikalState") -> list:
    """Rule 5: keep a card, play or use one, activate the AP token, place a tile, use a
    director power, or pass."""
    seat = s.turn
    C = s.C
    T = tables(C)
    cards, down, permanent, name_of = C.cards, s.down, T.permanent, T.name_of
    right, left = s.right[seat], s.left[seat]
    acts: list = distinct_cards(right, T.keep)
    seen: set[int] = set()  # name index * 2 + kept: each (side, name) offered once
    playable: dict[int, bool] = {}  # by card name: copies have the same effect
    for kept, side in ((0, right), (1, left)):
        for c in side:
            name = name_of[c]
            key = name * 2 + kept
            if key in seen:
                continue
            if permanent[c]:
                if not down[c]:
                    seen.add(key)
                    acts.append(T.use[c][kept])
                continue
            ok = playable.get(name)
            if ok is None:
                card = cards[c]
                ok = playable[name] = CARD_RULES[card.effect][0](s, seat, card)  # card_playable, inlined
            if ok:
                seen.add(key)
                acts.append(T.play[c][kept])
    if s.ap_token[seat]:
        acts.append(ACTIVATE)
    for t in s.camp_tiles[seat]:
        acts.append(T.place_tile[t])
    if not s.power_used[seat]:
        for p in C.directors[s.director[seat]].powers:
            if power_usable(s, seat, p):
                acts.append(T.power[p])
    if can_pass(s, seat):  # pass_refusal(s, seat) is None
        acts.append(PASS)
    return acts


def turn_apply(s: "TikalState", a: object) -> None:
    seat = s.turn
    if isinstance(a, Keep):
        keep_card(s, seat, a.card)
    elif isinstance(a, Play):
        play_card(s, seat, a.card, a.kept)
    elif isinstance(a, Use):
        use_alone(s, seat, a.card, a.kept)
    elif a is ACTIVATE or isinstance(a, Activate):
        activate_token(s, seat)
    elif isinstance(a, PlaceTile):
        place_from_campsite(s, seat, s.C.tile_index[a.tile])
    elif isinstance(a, Power):
        s.power_used[seat] = a.power
        use_power(s, seat, a.power)
    elif a is PASS or isinstance(a, Pass):
        pass_turn(s, seat)


def play_card(s: "TikalState", seat: int, name: str, kept: bool) -> None:
    """Rule 5.2: play a non-permanent card, discard it and apply its effect."""
    side = s.left[seat] if kept else s.right[seat]
    c = first_card(s, side, name)
    side.remove(c)
    s.discard.append(c)
    if not start_card(s, seat, s.C.cards[c]):
        end_turn(s)


RM_TYPES = (TakeStatuette, TakeAP, TakeTile, TakeCard)
AP_TYPES = (Deploy, Move, Transfer, Camp, Stone, Recruit, Clear, Guardian, Unearth, Trade, End)
ANSWER_TYPES = (At, Side, Rotate, Choose, Token, Discard, Give, Take)  # answers to sub-decisions
TURN = "5: Action phase"


def turn_refusal(s: "TikalState", a: object) -> Optional[Refusal]:
    """Why a turn of the action phase refuses ``a`` (None: it is one of :func:`turn_legal`)."""
    seat = s.turn
    if isinstance(a, RM_TYPES):
        return TURN, "Round Management is over; items are taken at the start of a round"
    if isinstance(a, AP_TYPES):
        return "5.3: Activate the AP token", "AP actions are spent by activating your AP token ('activate') or a card first"
    if isinstance(a, ANSWER_TYPES):
        return TURN, (f"no question is open: '{a}' answers one (asked after 'place', 'stone', "
                      "'trade', 'keep' with the kept spaces full, a card or a power)")
    if isinstance(a, Pass):
        return pass_refusal(s, seat)
    if isinstance(a, Keep):
        if not any(s.card_name(c) == a.card for c in s.right[seat]):
            return "5.1: Move an action card", f"no card {a.card!r} on the right of your campsite"
        return None
    if isinstance(a, (Play, Use)):
        return card_use_refusal(s, seat, a)
    if isinstance(a, Activate):
        return None if s.ap_token[seat] else ("5.3: Activate the AP token",
                                              "your AP token is already used (or you have none)")
    if isinstance(a, PlaceTile):
        mine = [s.C.tiles[t].id for t in s.camp_tiles[seat]]
        if a.tile in mine:
            return None
        return "7: Playing a terrain tile", f"tile {a.tile} is not on your campsite (yours: {', '.join(mine) or 'none'})"
    if isinstance(a, Power):
        return power_refusal(s, seat, a.power)
    return TURN, "not one of the legal actions now"


def card_use_refusal(s: "TikalState", seat: int, a: Play | Use) -> Optional[Refusal]:
    """Rules 5, 5.2: play a non-permanent card (if its effect can be done), use a permanent
    one that is face up."""
    cards = [c for c in (s.left[seat] if a.kept else s.right[seat]) if s.card_name(c) == a.card]
    if not cards:
        where = "left (kept)" if a.kept else "right"
        return "5.2: Play an action card", f"no card {a.card!r} on the {where} of your campsite"
    card = s.C.cards[cards[0]]
    if isinstance(a, Play):
        if card.permanent:
            return "5: permanent cards", f"{a.card} is permanent: 'use' it (alone or with your AP token)"
        return card_refusal(s, seat, card)
    if not card.permanent:
        return "5.2: Play an action card", f"{a.card} is not permanent: 'play' it"
    if all(s.down[c] for c in cards):
        return "5: permanent cards", f"{a.card} was already used this round (face down)"
    return None


@mypyc_attr(native_class=False)
class ActionTurn(SubDecision["TikalState"]):
    """Rule 5 as a frame: a turn of the action phase (keep, play or use a card, activate the
    AP token, place a tile, use a director power, or pass). A *phase frame* like
    :class:`.flow.RoundManagement`: never on ``state.stack``; it answers when the stack is
    empty in the action phase. The cards and powers it offers are above :mod:`.flow`, so it
    lives here."""

    __slots__ = ()
    kind = "action"

    def legal_actions(self, state: "TikalState") -> list:
        return turn_legal(state)

    def apply(self, state: "TikalState", action: Any) -> None:
        turn_apply(state, action)

    def why_illegal(self, state: "TikalState", action: Any) -> IllegalAction:
        return refused(turn_refusal(state, action) or (TURN, "not one of the legal actions now"), action)


@mypyc_attr(native_class=False)
class GameEnd(ActionTurn):
    """Under an empty stack once the game is over (and in the final scoring, whose turns are
    always on the stack): no action; its other answers are the turn step's, as before."""

    __slots__ = ()
    kind = "over"

    def legal_actions(self, state: "TikalState") -> list:
        return []

    def why_illegal(self, state: "TikalState", action: Any) -> IllegalAction:
        return refused(turn_refusal(state, action) or ("4: Round Management", "not an item you may take now"),
                       action)


#: the frame under the stack in each phase (by phase number: Round Management, action,
#: final scoring, over); none is ever pushed on ``state.stack``
PHASE_FRAMES: tuple[SubDecision["TikalState"], ...] = (ROUND_MANAGEMENT_FRAME, ActionTurn(), GameEnd(), GameEnd())


def explain_illegal(s: "TikalState", a: object) -> IllegalAction:
    """Why ``a`` is not a legal action now: the first check that refuses it, naming its rule."""
    found = unwritable(s, a)
    if found is not None:
        return found
    return why_illegal(s, a)


def why_illegal(s: "TikalState", a: object) -> IllegalAction:
    """:func:`explain_illegal` of an action that some notation writes: an unknown hex name,
    the end of the game, the top frame's refusal, or the phase's outside the stack."""
    try:
        for name in ("hex", "from_hex", "to_hex"):
            value = getattr(a, name, "")
            if value:
                s.hex_index(value)  # an unknown hex name is reported first
        if s.phase == OVER:
            return refused(("11: Final Scoring", "the game is over"), a)
        return deciding_frame(s).why_illegal(s, a)
    except IllegalAction as exc:  # e.g. an unknown hex name
        return IllegalAction(exc.rule, exc.message, a)


def reveals_information(s: "TikalState", a: object) -> bool:
    """Chance or hidden information: unearthing shows a token, a Ruin draws face-down tokens,
    the last pass of a round draws cards, AP tokens and tiles."""
    return isinstance(a, (Unearth, Rotate, Pass))

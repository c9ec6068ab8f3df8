"""The Tikal Legend compound turn's dispatch: every frame kind's legal actions and
transition, and the turn step that plays cards and uses director powers.

It is the top of the rules (docs/design.md, "Import order"): ``rules`` (round
management, AP actions, scorings and their frames), ``cards`` (card effects) and
``powers`` (director powers) each export a ``FRAMES`` table; this module joins them into
:data:`FRAME_RULES` and adds what needs all three (a turn offers cards and powers).
Nothing below imports it, so the package has no import cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import IllegalAction
from ..core.game import unwritable
from . import cards, powers, rules
from .actions import ACTIVATE, PASS, Activate, Keep, Pass, PlaceTile, Play, Power, Rotate, Unearth, Use, make
from .cards import card_playable, start_card
from .explain import explain
from .model import ACTION, ROUND_MANAGEMENT
from .powers import power_usable, use_power
from .rules import (Apply, Legal, activate_token, can_pass, end_turn, first_card, keep_card, pass_turn,
                    place_from_campsite, rm_apply, rm_legal, use_alone)

if TYPE_CHECKING:
    from .state import TikalState

#: kind of an open sub-decision -> (its legal actions, its transition)
FRAME_RULES: dict[str, tuple[Legal, Apply]] = {**rules.FRAMES, **cards.FRAMES, **powers.FRAMES}


def legal_actions(s: "TikalState") -> list:
    if s.stack:
        f = s.stack[-1]
        return FRAME_RULES[f.kind][0](s, f)
    if s.phase == ROUND_MANAGEMENT:
        return rm_legal(s)
    if s.phase == ACTION:
        return turn_legal(s)
    return []


def apply_action(s: "TikalState", action: object) -> None:
    if s.stack:
        f = s.stack[-1]
        FRAME_RULES[f.kind][1](s, f, action)
    elif s.phase == ROUND_MANAGEMENT:
        rm_apply(s, action)
    else:
        turn_apply(s, action)


# ============================================================================ 5. Action phase: a turn
def turn_legal(s: "TikalState") -> list:
    seat = s.turn
    C = s.C
    acts: list = []
    right, left = s.right[seat], s.left[seat]
    seen: set = set()
    for c in right:
        name = C.cards[c].name
        if ("keep", name) not in seen:
            seen.add(("keep", name))
            acts.append(make(Keep, name))
    for kept, cards in ((False, right), (True, left)):
        for c in cards:
            card = C.cards[c]
            key = (kept, card.name)
            if key in seen:
                continue
            if card.permanent:
                if not s.down[c]:
                    seen.add(key)
                    acts.append(make(Use, card.name, kept))
            elif card_playable(s, seat, card):
                seen.add(key)
                acts.append(make(Play, card.name, kept))
    if s.ap_token[seat]:
        acts.append(ACTIVATE)
    for t in s.camp_tiles[seat]:
        acts.append(make(PlaceTile, C.tiles[t].id))
    if not s.power_used[seat]:
        for p in C.directors[s.director[seat]].powers:
            if power_usable(s, seat, p):
                acts.append(make(Power, p))
    if can_pass(s, seat):
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


def explain_illegal(s: "TikalState", a: object) -> IllegalAction:
    return unwritable(s, a) or explain(s, a)


def reveals_information(s: "TikalState", a: object) -> bool:
    """Chance or hidden information: unearthing shows a token, a Ruin draws face-down tokens,
    the last pass of a round draws cards, AP tokens and tiles."""
    return isinstance(a, (Unearth, Rotate, Pass))

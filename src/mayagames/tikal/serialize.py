"""``TikalState.to_dict()``: the JSON description clients draw from (see ``docs/tikal_state.md``).

Hexes, tiles, cards and treasures appear by name, seats by number (with their colour).
In a view (``viewer`` set), hidden parts appear as counts: the deck, the AP bag, the tile
piles, the face-down treasures. The full state also lists them and the generator state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import COLOURS
from .data import SIDES
from . import scoring as _scoring
from .frames import (BaseCampSetup, FisherPlacement, FloorClearing, KeepDiscard, Relocation, StonePlacement,
                     TilePlacement, TreasureTrade)
from .model import COMMON, KIND_NAMES, PHASE_NAMES, TikalFrame

if TYPE_CHECKING:
    from .state import TikalState

FIGURE_NAMES = ("explorer", "leader")

def prompt(f: TikalFrame) -> str:
    """The question a sub-decision asks now (its own text: ``f.prompt``)."""
    return f.prompt


def question(s: TikalState) -> str:
    """What the current player is asked now, in words (shown above the list of moves)."""
    if s.stack:
        f = s.stack[-1]
        text = prompt(f)
        if f.kind == "ap":
            label = {"token": "AP token", "alone": "permanent card", "volcano": "volcano scoring",
                     "final": "final scoring", "moves": "card moves-5", "scout": "Scout"}.get(f.ctx, f.ctx)
            text += f" ({f.points} AP left, {label})"
        return text
    if s.phase == 0:
        return "Round Management: take one item for your campsite"
    if s.phase == 1:
        return ("your turn: one action (keep or play a card, activate your AP token, place a tile) or pass; "
                "'use' of a permanent card and 'power' are free")
    return ""


def describe_frame(s: TikalState, f: TikalFrame) -> dict[str, Any]:
    """An open sub-decision, with its values by name."""
    d: dict[str, Any] = {"kind": f.kind, "seat": f.seat, "step": f.step, "context": f.ctx,
                         "prompt": f.prompt}
    if f is s.stack[-1]:
        d["question"] = question(s)
    name = s.hex_name
    kind = f.kind
    if kind == "ap":
        d["points"] = f.points
    if f.counts:
        d["this_turn"] = {name(h): n for h, n in sorted(f.counts.items())}
    if kind in ("ruin_place", "dig", "temple_base", "clear", "tracker", "explorers"):
        d["left"] = f.left
    if isinstance(f, StonePlacement):
        d["moving_token"] = _edge_name(s, f.moving) if f.moving >= 0 else None
        d["hex"] = name(f.hex) if f.hex >= 0 else None
    elif isinstance(f, TilePlacement):
        d["tile"] = s.C.tiles[f.tile].id
        d["hex"] = name(f.hex) if f.hex >= 0 else None
    elif isinstance(f, KeepDiscard):
        d["keeping"] = s.card_name(f.keeping)
    elif isinstance(f, TreasureTrade) and f.step == "give":
        d["from_player"], d["treasure"] = f.from_player, s.C.treasure_types[f.treasure]
        d["left"] = f.left
    elif isinstance(f, FloorClearing):
        d["temple"] = name(f.temple) if f.temple >= 0 else None
    elif isinstance(f, (Relocation, FisherPlacement)):
        d["from_hex"] = name(f.from_hex) if f.from_hex >= 0 else None
    elif isinstance(f, BaseCampSetup):
        d["from_hex"] = None
        d["hex"] = name(f.hex) if f.hex >= 0 else None
    return d


def _edge_name(s: TikalState, e: int) -> dict[str, Any]:
    a, sa, b, sb = s.C.board.edge_ends[e]
    return {"hex": s.hex_name(a), "side": SIDES[sa], "other_hex": s.hex_name(b), "other_side": SIDES[sb]}


def _hex(s: TikalState, h: int) -> dict[str, Any]:
    hd = s.C.board.hexes[h]
    n, H = s.num_players, s.H
    camp = s.camp[h]
    g = s.guardian[h]
    d: dict[str, Any] = {
        "name": hd.name, "q": hd.q, "r": hd.r, "dotted": hd.dotted, "kind": KIND_NAMES[s.kind[h]],
        "tile": s.C.tiles[s.tile_on[h]].id if s.tile_on[h] >= 0 else None, "rotation": s.rot[h],
        "stones": s.printed[h * 6:h * 6 + 6],
        "ems": [{"explorers": s.explorers[p * H + h], "leaders": s.leaders[p * H + h]} for p in range(n)],
        "majority": _none(s.majority(h)),
        "camp": "common" if camp == COMMON else (camp if camp >= 0 else None),
    }
    if s.kind[h] == 2:  # temple
        d.update(level=s.level[h], printed_level=s.base_level[h], guardian=_none(g),
                 guardian_figure=FIGURE_NAMES[s.guardian_figure[h]] if g >= 0 else None)
    if s.kind[h] == 4:  # ruins
        d.update(masks=s.masks[h], visible_masks=s.visible_masks(h), treasures=len(s.ruin.get(h, [])))
        if not s.redacted:
            d["treasure_stack"] = [s.C.treasure_types[t] for t in s.ruin.get(h, [])]
    return d


def _none(x: int) -> int | None:
    return x if x >= 0 else None


def _cards(s: TikalState, cards: list[int]) -> list[str]:
    return [s.card_name(c) for c in cards]


def _campsite_cards(s: TikalState, cards: list[int]) -> list[dict[str, Any]]:
    return [{"card": s.card_name(c), "permanent": s.C.cards[c].permanent, "face_down": s.down[c]} for c in cards]


def _player(s: TikalState, seat: int) -> dict[str, Any]:
    T = len(s.C.treasure_types)
    director = s.C.directors[s.director[seat]]
    space = s.next_order.index(seat) + 1 if seat in s.next_order else None
    return {
        "seat": seat, "colour": COLOURS[seat], "prestige": s.pp[seat],
        "available": {"explorers": s.avail_explorers[seat], "leaders": s.avail_leaders[seat]},
        "unavailable": {"explorers": s.unavail_explorers[seat], "leaders": s.unavail_leaders[seat]},
        "removed": {"explorers": s.removed_explorers[seat], "leaders": s.removed_leaders[seat]},
        "base_camps": [s.hex_name(h) for h in s.camps[seat]],
        "camps_in_reserve": s.C.per_player["base_camps"] - len(s.camps[seat]),
        "guardians": s.guardians[seat],
        "museum": {s.C.treasure_types[t]: s.museum[seat * T + t] for t in range(T)},
        "campsite": {"statuette_space": space, "ap_token": s.ap_token[seat] or None,
                     "tiles": [s.C.tiles[t].id for t in s.camp_tiles[seat]],
                     "right": _campsite_cards(s, s.right[seat]), "left": _campsite_cards(s, s.left[seat])},
        "director": {"tile": director.id, "name": director.name, "powers": list(director.powers),
                     "used": s.power_used[seat] or None},
        "passed": s.passed[seat] if s.phase == 1 else None,
        "score_if_now": _scoring.score_breakdown(s, seat),
    }


def _hidden(s: TikalState, items: list[int], show: Any) -> Any:
    return len(items) if s.redacted else [show(x) for x in items]


def state_to_dict(s: TikalState) -> dict[str, Any]:
    C = s.C
    types = C.treasure_types
    d: dict[str, Any] = {
        "game": "tikal", "viewer": s.viewer, "num_players": s.num_players, "colours": list(COLOURS[:s.num_players]),
        "round": s.round, "rounds": s.setup_rules["rounds"], "phase": PHASE_NAMES[s.phase],
        "current_player": s.current_player, "turn": s.turn,
        "order": list(s.order), "next_order": [_none(x) for x in s.next_order],
        "scores": list(s.pp),
        "board": {
            "hexes": [_hex(s, h) for h in range(s.H)],
            "edges": [{"hexes": [s.hex_name(a), s.hex_name(b)], "sides": [SIDES[sa], SIDES[sb]],
                       "tokens": s.tokens[e], "cost": s.cost[e]}
                      for e, (a, sa, b, sb) in enumerate(C.board.edge_ends)],
        },
        "supply": {
            "trail_stones": s.stone_supply, "volcanoes": s.volcano_supply,
            "floors": {str(level): s.floors[level] for level in range(2, len(s.floors))},
            "blue_treasures": {types[t]: s.blue[t] for t in range(len(types))},
            "face_down_treasures": _hidden(s, s.green, lambda t: types[t]),
            "symbol_tiles": [C.tiles[t].id for t in s.symbol_supply],
            "unused_tiles": [C.tiles[t].id for t in s.unused_tiles],
            "discarded_tiles": [C.tiles[t].id for t in s.tiles_out],
        },
        "cards": {"display": _cards(s, s.display), "deck": _hidden(s, s.deck, s.card_name),
                  "discard": _cards(s, s.discard), "removed": _cards(s, s.box)},
        "ap_tokens": {"display": list(s.ap_display), "bag": _hidden(s, s.bag, int),
                      "removed_unseen": _hidden(s, s.ap_removed, int), "used": list(s.ap_used)},
        "tiles": {"display": [C.tiles[t].id for t in s.tile_display],
                  "piles": {k: _hidden(s, p, lambda t: C.tiles[t].id) for k, p in s.piles.items()}},
        "players": [_player(s, seat) for seat in range(s.num_players)],
        "pending": describe_frame(s, s.stack[-1]) if s.stack else None,
        "stack": [describe_frame(s, f) for f in s.stack],
        "scoring": {"kind": s.scoring_kind or None, "queue": list(s.scoring_queue),
                    "volcano_placer": _none(s.volcano_placer)},
        "scorings": [dict(entry) for entry in s.last_scoring],
        "options": dict(s.options),
    }
    if not s.redacted:
        d["rng"] = s.rng.state
    return d

"""Encoding of Tikal Legend (1-4 players; 1 is the solo score attack).

Actions (:class:`TikalCodec`): a fixed table per player count. Most entries are
action values (``pass``, ``take card dig-2``, ``clear e4``...); four kinds are
numbered relative to the position, from the acting seat's view, so the space
stays small and means the same thing at every seat:

* ``move FIGURE A B`` -> (figure, A, side of A towards B): moves cross one edge;
* ``transfer FIGURE A B`` -> (figure, camp slot of A, camp slot of B), slot 0 the
  Common Base Camp, 1 and 2 the acting player's own camps in the order set up;
* ``camp HEX [from H]`` -> (hex, source slot): 0 from reserve, 1/2 moving own camp 1/2;
* ``take COLOUR TYPE N`` -> (seat after the actor, treasure type, count).

Observation (:class:`TikalObserver`): the public board, supplies, Round Management
board, every seat's campsite and the pending sub-decision, scaled into [0, 1], seats
numbered from the viewer. Tikal has no private hands: a view hides the order of the
deck, the AP bag, the tile piles and the face-down treasures, of which only counts
are used.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Sequence

from ..core.errors import IllegalAction
from ..core.game import Action, State
from . import actions as A
from .data import DRAWN_LETTERS, SIDES, default_components
from .frames import FRAME_CLASSES
from .state import COMMON, KIND_NAMES, PHASE_NAMES, TikalState
from ..rl.encoding import (ActionCodec, Canvas, CanvasEncoder, EncodingError, Field, GameEncoding,
                           IdentityIndex, Layout, register_encoding, scaled, unknown_index)

C = default_components()
B = C.board
H = B.size
E = len(B.edge_ends)
N_TILES = len(C.tiles)
CARD_NAMES = C.card_names
CARD_OF_ID = tuple(CARD_NAMES.index(card.name) for card in C.cards)
TREASURES = C.treasure_types
POWERS = tuple(C.powers)
AP_VALUES = tuple(sorted(set(C.ap_tokens)))
CAMP_SLOTS = 1 + C.per_player["base_camps"]  # the Common Base Camp, then one's own camps
SLOT_NAMES = ("common", *(f"camp{k}" for k in range(1, CAMP_SLOTS)))
MAX_COPIES = max(Counter(c.name for c in C.cards).values())
MAX_RECRUIT = max(int(c.params.get("explorers", 0)) for c in C.cards if c.effect == "recruit_explorers")
CHOICES = ("both", "explorer", "leader", "supply", *(str(k) for k in range(1, MAX_RECRUIT + 1)))
FRAME_KINDS = tuple(sorted(FRAME_CLASSES))
CONTEXTS = ("", "token", "alone", "volcano", "final", "moves", "scout", "campsite", "card", "card_em",
            "nomad", "merchant", "hunter", "driver")
STEPS = ("", "token", "hex", "side", "rotation", "from", "to", "take", "give", "figure")
PILE_SIZE = tuple(len(C.tiles_with_back(letter)) for letter in DRAWN_LETTERS)
FIGURES = A.FIGURES
SCORE_SCALE = 50.0  # a wide winning margin in Prestige Points
PRESTIGE_TOP = 200
FIGURE_TOP_LIST = (30, 2, 30, 2, 30, 2)  # explorers, leaders per supply
N_KINDS = len(KIND_NAMES)
AP_INDEX = {v: k for k, v in enumerate(AP_VALUES)}
FRAME_INDEX = {kind: k for k, kind in enumerate(FRAME_KINDS)}
CONTEXT_INDEX = {ctx: k for k, ctx in enumerate(CONTEXTS)}
STEP_INDEX = {step: k for k, step in enumerate(STEPS)}
ONES = [1.0] * (10 * H)  # slices of it: the values of one-hot entries
NEIGHBOUR_SIDE = {(B.neighbour[h * 6 + d], h): d for h in range(H) for d in range(6) if B.neighbour[h * 6 + d] >= 0}


# --- actions ---------------------------------------------------------------------------------
class TikalCodec(ActionCodec):
    """A fixed table of action keys; positional keys are resolved against the actor's view."""

    def __init__(self, num_players: int) -> None:
        super().__init__(num_players)
        self.keys = tuple(self.enumerate_keys())
        self.index = {key: i for i, key in enumerate(self.keys)}
        #: the index of every action whose key does not depend on the position (see
        #: legal_index_seat): by identity, then by value
        self.by_identity: IdentityIndex = IdentityIndex()
        self._fixed: dict[Action, int] = {}

    def enumerate_keys(self) -> list:
        n, names = self.num_players, [h.name for h in B.hexes]
        tiles = [t.id for t in C.tiles]
        keys: list = [A.make(A.TakeStatuette, k) for k in range(1, n + 1)]
        keys += [A.make(A.TakeAP, v) for v in AP_VALUES]
        keys += [A.make(A.TakeTile, t) for t in tiles]
        keys += [A.make(cls, c) for cls in (A.TakeCard, A.Keep, A.Discard) for c in CARD_NAMES]
        keys += [A.make(cls, c, kept) for cls in (A.Play, A.Use) for kept in (False, True) for c in CARD_NAMES]
        keys += [A.ACTIVATE, A.PASS, A.STONE, A.TRADE, A.END]
        keys += [A.make(A.PlaceTile, t) for t in tiles]
        keys += [A.make(A.Power, p) for p in POWERS]
        keys += [A.make(A.At, h) for h in names]
        keys += [A.make(A.Side, side) for side in SIDES]
        keys += [A.make(A.Rotate, k) for k in range(6)]
        keys += [A.make(A.Choose, option) for option in CHOICES]
        keys += [A.make(A.Recruit, fig) for fig in FIGURES]
        keys += [A.make(A.Deploy, fig, h) for fig in FIGURES for h in names]
        keys += [("move", fig, h, d) for fig in FIGURES for h in range(H) for d in range(6)
                 if B.neighbour[h * 6 + d] >= 0]
        keys += [("transfer", fig, a, b) for fig in FIGURES for a in range(CAMP_SLOTS)
                 for b in range(CAMP_SLOTS) if a != b]
        keys += [("camp", h, slot) for h in range(H) for slot in range(CAMP_SLOTS)]
        keys += [A.make(A.Token, h, side) for h in names for d, side in enumerate(SIDES)
                 if B.neighbour[B.by_name[h] * 6 + d] >= 0]
        keys += [A.make(A.Clear, h) for h in names]
        keys += [A.make(A.Guardian, h, fig) for h in names for fig in FIGURES]
        keys += [A.make(A.Unearth, h) for h in names]
        keys += [("take", rel, t, k) for rel in range(1, n) for t in TREASURES
                 for k in range(1, max(C.limits["trade_tokens"], 1) + 1)]
        keys += [A.make(A.Give, t) for t in TREASURES]
        return keys

    @property
    def size(self) -> int:
        return len(self.keys)

    # keys read only the acting seat's camps, the Common Base Camp and seat numbers
    public = True

    def legal_index(self, view: State, legal: Sequence[Action]) -> dict[int, Action]:
        return self.legal_index_seat(view, view.viewer, legal)

    def legal_index_seat(self, state: State, seat: int, legal: Sequence[Action]) -> dict[int, Action]:
        """As :meth:`ActionCodec.legal_index`, remembering the index of every action whose
        key does not depend on the position (all but transfers, camps and trades)."""
        table = self.by_identity.table(legal, lambda action: self._first_index(action, state, seat))
        return super().legal_index(state.view(seat), legal) if table is None else table

    def _first_index(self, action: Action, state: State, seat: int) -> int:
        """The index of an action not yet seen by identity; remembered unless its key
        depends on the position."""
        if isinstance(action, VIEW_DEPENDENT):
            return self.encode_seat(action, state, seat)
        index = self._fixed.get(action)
        if index is None:
            index = self._fixed[action] = self.encode_seat(action, state, seat)
        self.by_identity.remember(action, index)
        return index

    def encode(self, action: Action, view: State) -> int:
        return self.encode_seat(action, view, view.viewer)

    def encode_seat(self, action: Action, state: State, seat: int) -> int:
        key = self.key_of(action, state, seat)
        try:
            return self.index[key]
        except KeyError:
            raise EncodingError(f"{action!r} (key {key!r}) is not in the Tikal action table") from None

    def key_of(self, action: Action, view: State, seat: int | None = None) -> object:
        """The table key of ``action`` for the acting ``seat`` (default: the view's viewer)."""
        assert isinstance(view, TikalState)
        if seat is None:
            seat = view.viewer
        if isinstance(action, A.Move):
            frm, to = B.by_name[action.from_hex], B.by_name[action.to_hex]
            return ("move", action.figure, frm, NEIGHBOUR_SIDE.get((to, frm), -1))
        if isinstance(action, A.Transfer):
            slots = camp_slots(view, seat)
            return ("transfer", action.figure, slot_of(slots, action.from_hex), slot_of(slots, action.to_hex))
        if isinstance(action, A.Camp):
            source = slot_of(camp_slots(view, seat), action.from_hex) if action.from_hex else 0
            return ("camp", B.by_name[action.hex], source)
        if isinstance(action, A.Take):
            return ("take", (action.player - seat) % self.num_players, action.treasure, action.count)
        return action

    def decode(self, index: int, view: State) -> Action:
        if not 0 <= index < len(self.keys):
            raise unknown_index(index, self)
        key = self.keys[index]
        if not isinstance(key, tuple):
            return key
        assert isinstance(view, TikalState)
        kind, *rest = key
        if kind == "move":
            fig, h, d = rest
            return A.make(A.Move, fig, B.hexes[h].name, B.hexes[B.neighbour[h * 6 + d]].name)
        if kind == "transfer":
            fig, a, b = rest
            return A.make(A.Transfer, fig, self.slot_hex(view, a, index), self.slot_hex(view, b, index))
        if kind == "camp":
            h, slot = rest
            return A.make(A.Camp, B.hexes[h].name, self.slot_hex(view, slot, index) if slot else "")
        rel, treasure, count = rest
        return A.make(A.Take, (view.viewer + rel) % self.num_players, treasure, count)

    def slot_hex(self, view: TikalState, slot: int, index: int) -> str:
        slots = camp_slots(view)
        if slot >= len(slots):
            raise IllegalAction("6: Base Camps", f"index {index} names camp slot {slot}, "
                                "but you have no such Base Camp")
        return B.hexes[slots[slot]].name

    def label(self, index: int) -> str:
        key = self.keys[index]
        if not isinstance(key, tuple):
            return str(key)
        kind, *rest = key
        if kind == "move":
            return f"move {rest[0]} {B.hexes[rest[1]].name} {SIDES[rest[2]]}"
        if kind == "transfer":
            return f"transfer {rest[0]} {SLOT_NAMES[rest[1]]} {SLOT_NAMES[rest[2]]}"
        if kind == "camp":
            source = f" from {SLOT_NAMES[rest[1]]}" if rest[1] else ""
            return f"camp {B.hexes[rest[0]].name}{source}"
        return f"take seat+{rest[0]} {rest[1]} {rest[2]}"

    def blocks(self) -> list[tuple[int, int, str]]:
        out: list[tuple[int, int, str]] = []
        start = 0
        for i in range(1, len(self.keys) + 1):
            if i == len(self.keys) or key_kind(self.keys[i]) != key_kind(self.keys[start]):
                first, last = self.label(start), self.label(i - 1)
                span = f"`{first}`" if i - 1 == start else f"`{first}` .. `{last}`"
                out.append((start, i - 1, f"{key_kind(self.keys[start])}: {span}"))
                start = i
        return out


VIEW_DEPENDENT = (A.Transfer, A.Camp, A.Take)  # their keys are relative to the actor's camps and seat


def key_kind(key: object) -> str:
    return f"{key[0]} (positional)" if isinstance(key, tuple) else type(key).__name__


def camp_slots(view: TikalState, seat: int | None = None) -> list[int]:
    """Hexes of the acting seat's camp slots (default: the viewer's): the Common Base
    Camp, then its own camps."""
    return [view.common_camp, *view.camps[view.viewer if seat is None else seat]]


def slot_of(slots: list[int], hex_name: str) -> int:
    h = B.by_name[hex_name]
    return slots.index(h) if h in slots else -1


# --- observation -------------------------------------------------------------------------------
class TikalObserver(CanvasEncoder):
    def build_layout(self) -> Layout:
        n = self.num_players
        return Layout([
            # the board
            Field("hex_kind", H * len(KIND_NAMES), "per hex (board data order): one-hot " + ", ".join(KIND_NAMES)),
            Field("temple_level", H, f"per hex: temple level (top floor) / {C.max_level}"),
            Field("guardian", H * n, "per hex: one-hot seat (from the viewer) of its Guardian"),
            Field("camp", H * (n + 1), "per hex: the Common Base Camp, then one-hot seat owning a camp"),
            Field("ruin", H * 2, "per hex: visible gold masks / 4, face-down treasures left / 2"),
            Field("explorers", n * H, "per seat (from the viewer), per hex: Explorers there / 10"),
            Field("leaders", n * H, "per seat, per hex: Leaders there / 2"),
            Field("edge_cost", E, "per edge (board data order): AP to cross / 4 (0: no passage)"),
            Field("edge_tokens", E, "per edge: Trail Stone tokens placed on it / 2"),
            # round and turn
            Field("phase", len(PHASE_NAMES), "one-hot: " + ", ".join(PHASE_NAMES)),
            Field("round", 1, "round / number of rounds"),
            Field("turn", n, "one-hot: seat (from the viewer) whose turn it is"),
            Field("order", n * n, "per turn-order position: one-hot seat this round"),
            Field("next_order", n * n, "per next-round space 1..n: one-hot seat on it (zero: free)"),
            Field("passed", n, "per seat: passed in this action phase"),
            Field("scoring", 2, "a volcano scoring, the final scoring is under way"),
            Field("scoring_queue", n, "per seat: still to take its scoring turn"),
            # supplies and the Round Management board
            Field("supplies", 3, "Trail Stone tokens, 3D volcanoes, face-down treasures left / initial"),
            Field("floors", len(C.floors), "per level 0..10: unbuilt floors left / initial (0 if none)"),
            Field("blue_treasures", len(TREASURES), f"per type: blue-back tokens left / {C.blue_per_type}"),
            Field("card_display", len(CARD_NAMES), f"per card name: copies on display / {MAX_COPIES}"),
            Field("card_discard", len(CARD_NAMES), f"per card name: copies discarded / {MAX_COPIES}"),
            Field("card_removed", len(CARD_NAMES), f"per card name: copies removed at a reshuffle / {MAX_COPIES}"),
            Field("deck_size", 1, f"cards left in the deck / {len(C.cards)}"),
            Field("ap_display", len(AP_VALUES), "per AP value " + "/".join(map(str, AP_VALUES)) + ": tokens on offer / 4"),
            Field("ap_used", len(AP_VALUES), "per AP value: tokens used so far / 4"),
            Field("ap_bag", 2, f"tokens in the bag, left out unseen / {len(C.ap_tokens)}"),
            Field("tile_display", N_TILES, "per tile: 1 if on offer"),
            Field("tile_piles", len(DRAWN_LETTERS), "per pile " + "/".join(DRAWN_LETTERS) + ": tiles left / initial"),
            Field("symbol_tiles", N_TILES, "per tile: 1 if a symbol tile still in the supply"),
            # every seat's campsite, from the viewer
            Field("prestige", n, f"per seat: Prestige Points / {PRESTIGE_TOP}"),
            Field("figures", 6 * n, "per seat: Explorers, Leaders available / 30, 2; unavailable / 30, 2; "
                                    "removed / 30, 2"),
            Field("camps_guardians", 2 * n, "per seat: camps in reserve / 2, Guardians placed / 2"),
            Field("museum", len(TREASURES) * n, "per seat, per treasure type: count / 4"),
            Field("director", len(C.directors) * n, "per seat: one-hot Museum Director tile"),
            Field("power_used", len(POWERS) * n, "per seat: one-hot director power used (zero: unused)"),
            Field("campsite_ap", n, f"per seat: AP token value / {max(AP_VALUES)} (0: none)"),
            Field("management", 3 * n, "per seat: took its AP token, tiles / per-round, cards / per-round"),
            Field("campsite_tiles", N_TILES * n, "per seat, per tile: 1 if in its campsite"),
            Field("cards_right", len(CARD_NAMES) * n, f"per seat, per card name: copies on the right / {MAX_COPIES}"),
            Field("cards_left", len(CARD_NAMES) * n, f"per seat, per card name: copies kept (left) / {MAX_COPIES}"),
            Field("cards_down", len(CARD_NAMES) * n, f"per seat, per card name: permanent copies used this "
                                                      f"round / {MAX_COPIES}"),
            Field("own_camp_slots", (CAMP_SLOTS - 1) * H, "the viewer's own camp slots 1, 2 "
                                                          "(the transfer/camp action slots): one-hot hex"),
            # the pending sub-decision
            Field("frame_kind", len(FRAME_KINDS), "one-hot: open sub-decision (top): " + ", ".join(FRAME_KINDS)),
            Field("frame_stack", len(FRAME_KINDS), "multi-hot: kinds of every open sub-decision"),
            Field("frame_context", len(CONTEXTS), "one-hot: its context (" + ", ".join(c or "none" for c in CONTEXTS) + ")"),
            Field("frame_step", len(STEPS), "one-hot: its step (" + ", ".join(s or "none" for s in STEPS) + ")"),
            Field("frame_numbers", 3, "AP points left / 13, repetitions left / 4, initial count / 4"),
            Field("frame_hex", H, "one-hot: the hex the sub-decision is about (tile, stone side, "
                                  "relocation, fisher, clear, camp figure)"),
            Field("frame_tile", N_TILES, "one-hot: the tile being placed"),
            Field("frame_edge", E, "one-hot: the Trail Stone token being moved"),
            Field("frame_card", len(CARD_NAMES), "one-hot: the card being kept (discard to make room)"),
            Field("frame_trade", n + len(TREASURES), "trade being given for: one-hot seat (from the "
                                                     "viewer), one-hot treasure type"),
            Field("frame_counts", H, "per hex: floors cleared / treasures unearthed there this turn / 2"),
        ])

    # The observation reads only what every seat sees (hidden lists by their lengths):
    # the true state with a viewer gives the same observation as that seat's view, bit
    # for bit (tests/equivalence checks it), so the environments skip building the view
    # (CanvasEncoder.public).

    def paint(self, s: State, viewer: int, canvas: Canvas) -> None:
        """Draw every field group of ``s`` seen by ``viewer`` on ``canvas``; each group is
        keyed by what it reads, so an unchanged group costs one comparison. Offsets come
        from the layout, precomputed once."""
        assert isinstance(s, TikalState)
        seats, rel = self._seats(viewer)
        self._dense(s, viewer, canvas)
        group = canvas.group
        canvas.item_lists("hexes", (s.kind, s.guardian, s.camp), self._board_items(viewer))
        group("ruin", (s.masks, tuple(s.ruin), tuple(map(len, s.ruin.values()))), lambda a, v: self._ruins(s, a, v))
        group("round", (s.phase, s.round, s.turn, s.order, s.next_order, s.passed, s.scoring_kind,
                        s.scoring_queue, s.setup_rules["rounds"]),
              lambda a, v: self._round(s, a, v, seats, rel))
        group("stock", (s.stone_supply, s.volcano_supply, len(s.green), s.floors, s.blue),
              lambda a, v: self._stock(s, a, v))
        group("cards", (s.display, s.discard, s.box, len(s.deck)), lambda a, v: self._cards(s, a, v))
        group("ap", (s.ap_display, s.ap_used, len(s.bag), len(s.ap_removed)), lambda a, v: self._ap(s, a, v))
        group("tiles", (s.tile_display, tuple(map(len, s.piles.values())), s.symbol_supply),
              lambda a, v: self._tiles(s, a, v))
        # every seat's campsite: its per-seat lists item by item (only the lists that
        # changed), its tiles and its cards keyed by the whole per-seat lists they read
        canvas.item_lists("campsites", (s.pp, s.ap_token, s.avail_explorers, s.avail_leaders,
                                        s.unavail_explorers, s.unavail_leaders, s.removed_explorers,
                                        s.removed_leaders, s.camps, s.guardians, s.museum, s.director,
                                        s.power_used, s.rm_ap, s.rm_tiles, s.rm_cards),
                          self._campsite_items(viewer, s.setup_rules))
        group("campsite_tiles", s.camp_tiles,
              lambda a, v: [self._campsite_tiles(s, a, v, k, seat) for k, seat in enumerate(seats)])
        group("campsite_cards", (s.right, s.left, s.down),
              lambda a, v: [self._campsite_cards(s, a, v, k, seat) for k, seat in enumerate(seats)])
        group("own_camp_slots", s.camps[viewer], lambda a, v: self._own_camps(s, viewer, a, v))
        canvas.redraw("frame", lambda a, v: self._frame(s, a, v, rel))

    def _seats(self, viewer: int) -> tuple[list[int], dict[int, int]]:
        """The seats in turn order from ``viewer``, and each seat's place in that order."""
        if not hasattr(self, "_seat_order"):
            self._offsets()
            n = self.num_players
            orders = [[(v + k) % n for k in range(n)] for v in range(n)]
            self._seat_order = [(order, {seat: k for k, seat in enumerate(order)}) for order in orders]
        return self._seat_order[viewer]

    def _own_camps(self, s: TikalState, viewer: int, at: list[int], val: list[float]) -> None:
        o = self._off["own_camp_slots"]
        camps = s.camps[viewer]
        at += [o + k * H + h for k, h in enumerate(camps)]
        val += ONES[:len(camps)]

    def _offsets(self) -> dict[str, int]:
        if not hasattr(self, "_off"):
            self._precompute()
        return self._off

    def _precompute(self) -> None:
        """Field offsets, and for the dense board fields (temple levels, figures per seat
        and hex, edge costs and tokens, as the state lists them) how one item is drawn
        for each viewer (see :meth:`_dense`)."""
        n, lay = self.num_players, self.layout
        self._off = lay.offsets
        self._frame_off = FrameOffsets(lay.offsets)
        self._dense_draw: dict[int, list[tuple[Callable, bool]]] = {}
        for viewer in range(n):
            draws = []
            for name, field, divisor, clip in (("level", "temple_level", C.max_level, False),
                                               ("explorers", "explorers", 10, True), ("leaders", "leaders", 2, True),
                                               ("cost", "edge_cost", 4, True), ("tokens", "edge_tokens", 2, True)):
                start = lay.slice(field).start
                if name in ("explorers", "leaders"):  # seat-major lists: seats from the viewer
                    target = [start + ((seat - viewer) % n) * H + h for seat in range(n) for h in range(H)]
                else:
                    target = [start + i for i in range(lay.slice(field).stop - start)]
                draws.append((dense_item(target, divisor, clip), True))
            self._dense_draw[viewer] = draws

    def _dense(self, s: TikalState, viewer: int, canvas: Canvas) -> None:
        """The dense integer board fields (temple level / max level; explorers / 10 and
        leaders / 2, clipped at 1; edge cost / 4 and tokens / 2, clipped at 1): only the
        items that changed are written."""
        canvas.item_lists("dense", (s.level, s.explorers, s.leaders, s.cost, s.tokens), self._dense_draw[viewer])

    def _board_items(self, viewer: int) -> list[tuple[Callable, bool]]:
        """Per hex, drawn item by item: its kind (one-hot), its Guardian's seat from the
        viewer (one-hot), its camp (the Common Base Camp, then one-hot seat owning it)."""
        if not hasattr(self, "_board_draws"):
            self._board_draws: dict[int, list] = {}
        found = self._board_draws.get(viewer)
        if found is None:
            found = self._board_draws[viewer] = board_items(self._off, self._seats(viewer)[1], self.num_players)
        return found

    def _ruins(self, s: TikalState, at: list[int], val: list[float]) -> None:
        """Per Ruin: visible gold masks / 4, face-down treasures left / 2."""
        o = self._off["ruin"]
        for h, stack in s.ruin.items():
            at += (o + 2 * h, o + 2 * h + 1)
            val += (scaled(s.visible_masks(h), 4), scaled(len(stack), 2))

    def _round(self, s: TikalState, at: list[int], val: list[float], seats: list[int],
               rel: dict[int, int]) -> None:
        off, n = self._off, self.num_players
        at += (off["phase"] + s.phase, off["round"], off["turn"] + rel[s.turn])
        val += (1.0, scaled(s.round, s.setup_rules["rounds"]), 1.0)
        o = off["order"]
        for k, seat in enumerate(s.order):
            at.append(o + k * n + rel[seat])
            val.append(1.0)
        o = off["next_order"]
        for k, seat in enumerate(s.next_order):
            if seat >= 0:
                at.append(o + k * n + rel[seat])
                val.append(1.0)
        o = off["passed"]
        for k, seat in enumerate(seats):
            if s.passed[seat]:
                at.append(o + k)
                val.append(1.0)
        if s.scoring_kind in ("volcano", "final"):
            at.append(off["scoring"] + (s.scoring_kind == "final"))
            val.append(1.0)
        o = off["scoring_queue"]
        for k, seat in enumerate(seats):
            if seat in s.scoring_queue:
                at.append(o + k)
                val.append(1.0)

    def _stock(self, s: TikalState, at: list[int], val: list[float]) -> None:
        """Trail Stones, volcanoes, green-back treasures, floors and blue-back treasures."""
        off = self._off
        o = off["supplies"]
        at += (o, o + 1, o + 2)
        val += (scaled(s.stone_supply, C.trail_stone_tokens), scaled(s.volcano_supply, C.volcanoes_3d),
                scaled(len(s.green), C.green_per_type * len(TREASURES)))
        o = off["floors"]
        for level, (left, top) in enumerate(zip(s.floors, C.floors)):
            if top and left:
                at.append(o + level)
                val.append(scaled(left, top))
        o = off["blue_treasures"]
        for t, left in enumerate(s.blue):
            at.append(o + t)
            val.append(left / C.blue_per_type)

    def _cards(self, s: TikalState, at: list[int], val: list[float]) -> None:
        """The card display, discard pile, removed cards and the deck's size."""
        off = self._off
        put_card_counts(at, val, off["card_display"], s.display)
        put_card_counts(at, val, off["card_discard"], s.discard)
        put_card_counts(at, val, off["card_removed"], s.box)
        at.append(off["deck_size"])
        val.append(len(s.deck) / len(C.cards))

    def _ap(self, s: TikalState, at: list[int], val: list[float]) -> None:
        """AP tokens on offer, used, in the bag and left out."""
        off = self._off
        put_ap_counts(at, val, off["ap_display"], s.ap_display)
        put_ap_counts(at, val, off["ap_used"], s.ap_used)
        o = off["ap_bag"]
        at += (o, o + 1)
        val += (len(s.bag) / len(C.ap_tokens), len(s.ap_removed) / len(C.ap_tokens))

    def _tiles(self, s: TikalState, at: list[int], val: list[float]) -> None:
        """Tiles on offer, the piles' sizes and the symbol tiles left."""
        off = self._off
        o = off["tile_display"]
        at += [o + t for t in s.tile_display]
        val += ONES[:len(s.tile_display)]
        o = off["tile_piles"]
        for k, (letter, size) in enumerate(zip(DRAWN_LETTERS, PILE_SIZE)):
            at.append(o + k)
            val.append(len(s.piles[letter]) / size)
        o = off["symbol_tiles"]
        at += [o + t for t in s.symbol_supply]
        val += ONES[:len(s.symbol_supply)]

    def _campsite_items(self, viewer: int, rules: dict) -> list[tuple[Callable, bool]]:
        """Every seat's campsite (seats from ``viewer``) as per-seat lists of the state, each
        drawn item by item (``Canvas.items``): (list name, how seat ``i``'s value is
        drawn, whether its offsets are fixed). Prestige / 200, AP token / its top value,
        figures available, unavailable and removed / 30 and 2, camps in reserve and
        Guardians / 2, museum counts / 4, one-hot director and power used, Round
        Management (took its AP token, tiles / per round, cards / per round)."""
        cache_key = (viewer, rules["tiles_each"], rules["cards_each"])
        if not hasattr(self, "_campsite_draws"):
            self._campsite_draws: dict[tuple, list] = {}
        found = self._campsite_draws.get(cache_key)
        if found is None:
            found = self._campsite_draws[cache_key] = campsite_items(
                self._off, self._seats(viewer)[1], max(rules["tiles_each"], 1), max(rules["cards_each"], 1))
        return found

    def _campsite_tiles(self, s: TikalState, at: list[int], val: list[float], k: int, seat: int) -> None:
        o = self._off["campsite_tiles"] + k * N_TILES
        at += [o + t for t in s.camp_tiles[seat]]
        val += ONES[:len(s.camp_tiles[seat])]

    def _campsite_cards(self, s: TikalState, at: list[int], val: list[float], k: int, seat: int) -> None:
        """Cards on the right, kept on the left, and those used this turn (down)."""
        off, width = self._off, len(CARD_NAMES)
        right, left = s.right[seat], s.left[seat]
        put_card_counts(at, val, off["cards_right"] + k * width, right)
        put_card_counts(at, val, off["cards_left"] + k * width, left)
        put_card_counts(at, val, off["cards_down"] + k * width, [c for c in right + left if s.down[c]])

    def _frame(self, s: TikalState, at: list[int], val: list[float], rel: dict[int, int]) -> None:
        """The open sub-decision: its kind, the kinds of every open one, its context and
        step, its numbers, what it is about, a trade's giver and treasure, its per-hex
        counts (zeros are left out: the canvas clears the last drawing's entries)."""
        stack = s.stack
        if not stack:
            return
        f = stack[-1]
        o = self._frame_off
        kind = FRAME_INDEX[f.kind]
        ctx = CONTEXT_INDEX.get(f.ctx)
        step = STEP_INDEX.get(f.step)
        if ctx is None or step is None:
            known(CONTEXTS, f.ctx, "context")  # raises, naming what the encoding lacks
            known(STEPS, f.step, "step")
        at += (o.kind + kind, o.context + ctx, o.step + step)
        val += (1.0, 1.0, 1.0)
        if len(stack) == 1:
            at.append(o.stack + kind)
            val.append(1.0)
        else:
            kinds = sorted({FRAME_INDEX[fr.kind] for fr in stack})
            at += [o.stack + k for k in kinds]
            val += ONES[:len(kinds)]
        numbers = (scaled(f.points, 13), scaled(f.left, 4), scaled(f.initial, 4))
        for j, x in enumerate(numbers):
            if x:
                at.append(o.numbers + j)
                val.append(x)
        hexes, tiles, edges, cards = f.targets()
        for base, targets in ((o.hex, hexes), (o.tile, tiles), (o.edge, edges)):
            if targets:
                at += [base + x for x in targets]
                val += ONES[:len(targets)]
        if cards:
            at += [o.card + CARD_OF_ID[c] for c in cards]
            val += ONES[:len(cards)]
        if f.kind == "trade" and f.step == "give":
            at += (o.trade + rel[f.from_player], o.trade + self.num_players + f.treasure)
            val += (1.0, 1.0)
        counts = f.counts
        if counts:
            for h, count in counts.items():
                at.append(o.counts + h)
                val.append(scaled(count, 2))


class FrameOffsets:
    """Where each field of the open sub-decision starts (read at every observation)."""

    __slots__ = ("kind", "stack", "context", "step", "numbers", "hex", "tile", "edge", "card", "trade",
                 "counts")

    def __init__(self, off: dict[str, int]) -> None:
        self.kind: int = off["frame_kind"]
        self.stack: int = off["frame_stack"]
        self.context: int = off["frame_context"]
        self.step: int = off["frame_step"]
        self.numbers: int = off["frame_numbers"]
        self.hex: int = off["frame_hex"]
        self.tile: int = off["frame_tile"]
        self.edge: int = off["frame_edge"]
        self.card: int = off["frame_card"]
        self.trade: int = off["frame_trade"]
        self.counts: int = off["frame_counts"]


def board_items(off: dict[str, int], rel: dict[int, int], n: int) -> list[tuple[Callable, bool]]:
    """See :meth:`TikalObserver._board_items`."""
    def kind(h: int, k: int, at: list[int], val: list[float]) -> None:
        at.append(off["hex_kind"] + h * N_KINDS + k)
        val.append(1.0)

    def guardian(h: int, g: int, at: list[int], val: list[float]) -> None:
        if g >= 0:
            at.append(off["guardian"] + h * n + rel[g])
            val.append(1.0)

    def camp(h: int, c: int, at: list[int], val: list[float]) -> None:
        if c != -1:
            at.append(off["camp"] + h * (n + 1) + (0 if c == COMMON else 1 + rel[c]))
            val.append(1.0)
    return [(kind, False), (guardian, False), (camp, False)]  # s.kind, s.guardian, s.camp


def campsite_items(off: dict[str, int], rel: dict[int, int], tiles_each: int,
                   cards_each: int) -> list[tuple[str, Callable, bool]]:
    """See :meth:`TikalObserver._campsite_items` (``rel``: each seat's place from the viewer)."""
    T, top_ap, base_camps = len(TREASURES), max(AP_VALUES), C.per_player["base_camps"]
    n_directors, n_powers = len(C.directors), len(POWERS)

    def scalar(field: str, step: int, at_step: int, value_of: Callable[[object], float]) -> Callable:
        o = off[field] + at_step

        def draw(i: int, value: object, at: list[int], val: list[float]) -> None:
            at.append(o + step * rel[i])
            val.append(value_of(value))
        return draw

    def figure(j: int, top: int) -> Callable:
        o = off["figures"] + j

        def draw(i: int, value: int, at: list[int], val: list[float]) -> None:
            if value:
                at.append(o + 6 * rel[i])
                val.append(min(value / top, 1.0))
        return draw

    def museum(i: int, count: int, at: list[int], val: list[float]) -> None:
        if count:
            seat, t = divmod(i, T)
            at.append(off["museum"] + T * rel[seat] + t)
            val.append(min(count / 4, 1.0))

    def director(i: int, tile: int, at: list[int], val: list[float]) -> None:
        at.append(off["director"] + rel[i] * n_directors + tile)
        val.append(1.0)

    def power(i: int, used: str, at: list[int], val: list[float]) -> None:
        if used:
            at.append(off["power_used"] + rel[i] * n_powers + POWERS.index(used))
            val.append(1.0)

    figures = ("avail_explorers", "avail_leaders", "unavail_explorers", "unavail_leaders",
               "removed_explorers", "removed_leaders")
    rows = [
        ("pp", scalar("prestige", 1, 0, lambda v: scaled(v, PRESTIGE_TOP)), True),
        ("ap_token", scalar("campsite_ap", 1, 0, lambda v: v / top_ap), True),
        *((name, figure(j, top), False) for j, (name, top) in enumerate(zip(figures, FIGURE_TOP_LIST))),
        ("camps", scalar("camps_guardians", 2, 0, lambda v: scaled(base_camps - len(v), 2)), True),
        ("guardians", scalar("camps_guardians", 2, 1, lambda v: scaled(v, 2)), True),
        ("museum", museum, False),
        ("director", director, False),
        ("power_used", power, False),
        ("rm_ap", scalar("management", 3, 0, float), True),
        ("rm_tiles", scalar("management", 3, 1, lambda v: scaled(v, tiles_each)), True),
        ("rm_cards", scalar("management", 3, 2, lambda v: scaled(v, cards_each)), True),
    ]
    assert tuple(name for name, _, _ in rows) == CAMPSITE_LISTS
    return [(draw, fixed) for _, draw, fixed in rows]


#: the per-seat lists of the state that every seat's campsite is drawn from, in the order
#: of :func:`campsite_items` (and of the tuple :meth:`TikalObserver.paint` hands the canvas)
CAMPSITE_LISTS = ("pp", "ap_token", "avail_explorers", "avail_leaders", "unavail_explorers", "unavail_leaders",
                  "removed_explorers", "removed_leaders", "camps", "guardians", "museum", "director",
                  "power_used", "rm_ap", "rm_tiles", "rm_cards")


def dense_item(target: list[int], divisor: float, clip: bool) -> Callable[[int, int, list[int], list[float]], None]:
    """How item ``i`` of a dense integer field is drawn: ``value / divisor`` (clipped at 1)
    at ``target[i]``. Python divides in double precision; stored as float32 the quotient is
    the float32 quotient, bit for bit (double rounding is exact for a division)."""
    if clip:
        def draw(i: int, value: int, at: list[int], val: list[float]) -> None:
            at.append(target[i])
            val.append(min(value / divisor, 1.0))
    else:
        def draw(i: int, value: int, at: list[int], val: list[float]) -> None:
            at.append(target[i])
            val.append(value / divisor)
    return draw


def known(names: tuple[str, ...], value: str, what: str) -> int:
    if value not in names:
        raise EncodingError(f"Tikal frame {what} {value!r} is not in the encoding; add it to "
                            f"mayagames/tikal/encoding.py")
    return names.index(value)


def put_card_counts(at: list[int], val: list[float], offset: int, card_ids: list[int]) -> None:
    """Copies of each card name among card ids (hidden cards skipped) / MAX_COPIES, as
    (offset, value) entries."""
    counts: dict[int, int] = {}
    for c in card_ids:
        if c >= 0:
            name = CARD_OF_ID[c]
            counts[name] = counts.get(name, 0) + 1
    for name, count in counts.items():
        at.append(offset + name)
        val.append(count / MAX_COPIES)


def put_ap_counts(at: list[int], val: list[float], offset: int, values: list[int]) -> None:
    """Tokens of each AP value among ``values`` (hidden ones skipped) / 4, clipped at 1."""
    counts: dict[int, int] = {}
    for v in values:
        if v > 0:
            k = AP_INDEX[v]
            counts[k] = counts.get(k, 0) + 1
    for k, count in counts.items():
        at.append(offset + k)
        val.append(min(count / 4, 1.0))


ENCODING = register_encoding(GameEncoding(
    game="tikal", codec=TikalCodec, observer=TikalObserver, score_scale=SCORE_SCALE,
    doc="Tikal Legend: positional codec for moves, camps, transfers and trades (see docs/rl.md).",
))

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

import numpy as np

from ...core.errors import IllegalAction
from ...core.game import Action, State
from ...tikal import actions as A
from ...tikal.data import DRAWN_LETTERS, SIDES, default_components
from ...tikal.rules import FRAME_RULES
from ...tikal.state import COMMON, KIND_NAMES, PHASE_NAMES, TikalState
from ..encoding import (ActionCodec, EncodingError, Field, GameEncoding, Layout, ObservationEncoder,
                        register_encoding, scaled, unknown_index)

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
FRAME_KINDS = tuple(sorted(FRAME_RULES))
CONTEXTS = ("", "token", "alone", "volcano", "final", "moves", "scout", "campsite", "card", "card_em",
            "nomad", "merchant", "hunter", "driver")
STEPS = ("", "token", "hex", "side", "rotation", "from", "to", "take", "give", "figure")
PILE_SIZE = tuple(len(C.tiles_with_back(letter)) for letter in DRAWN_LETTERS)
FIGURES = A.FIGURES
SCORE_SCALE = 50.0  # a wide winning margin in Prestige Points
PRESTIGE_TOP = 200
FIGURE_TOPS = np.array([30, 2, 30, 2, 30, 2], dtype=np.float32)  # explorers, leaders per supply
NEIGHBOUR_SIDE = {(B.neighbour[h * 6 + d], h): d for h in range(H) for d in range(6) if B.neighbour[h * 6 + d] >= 0}


# --- actions ---------------------------------------------------------------------------------
class TikalCodec(ActionCodec):
    """A fixed table of action keys; positional keys are resolved against the actor's view."""

    def __init__(self, num_players: int) -> None:
        super().__init__(num_players)
        self.keys = tuple(self.enumerate_keys())
        self.index = {key: i for i, key in enumerate(self.keys)}

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

    def encode(self, action: Action, view: State) -> int:
        key = self.key_of(action, view)
        try:
            return self.index[key]
        except KeyError:
            raise EncodingError(f"{action!r} (key {key!r}) is not in the Tikal action table") from None

    def key_of(self, action: Action, view: State) -> object:
        assert isinstance(view, TikalState)
        if isinstance(action, A.Move):
            frm, to = B.by_name[action.from_hex], B.by_name[action.to_hex]
            return ("move", action.figure, frm, NEIGHBOUR_SIDE.get((to, frm), -1))
        if isinstance(action, A.Transfer):
            slots = camp_slots(view)
            return ("transfer", action.figure, slot_of(slots, action.from_hex), slot_of(slots, action.to_hex))
        if isinstance(action, A.Camp):
            source = slot_of(camp_slots(view), action.from_hex) if action.from_hex else 0
            return ("camp", B.by_name[action.hex], source)
        if isinstance(action, A.Take):
            return ("take", (action.player - view.viewer) % self.num_players, action.treasure, action.count)
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


def key_kind(key: object) -> str:
    return f"{key[0]} (positional)" if isinstance(key, tuple) else type(key).__name__


def camp_slots(view: TikalState) -> list[int]:
    """Hexes of the acting seat's camp slots: the Common Base Camp, then its own camps."""
    return [view.common_camp, *view.camps[view.viewer]]


def slot_of(slots: list[int], hex_name: str) -> int:
    h = B.by_name[hex_name]
    return slots.index(h) if h in slots else -1


# --- observation -------------------------------------------------------------------------------
class TikalObserver(ObservationEncoder):
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

    def fill(self, view: State, obs: np.ndarray) -> None:
        assert isinstance(view, TikalState)
        n = self.num_players
        seats = [(view.viewer + k) % n for k in range(n)]
        rel = {seat: k for k, seat in enumerate(seats)}
        self._board(view, obs, seats, rel)
        self._round(view, obs, seats, rel)
        self._supplies(view, obs)
        self._campsites(view, obs, seats)
        self._frame(view, obs, rel)

    def _board(self, s: TikalState, obs: np.ndarray, seats: list[int], rel: dict[int, int]) -> None:
        lay, n = self.layout, self.num_players
        put_one_hot(obs, lay, "hex_kind", np.arange(H) * len(KIND_NAMES) + np.asarray(s.kind))
        lay.put(obs, "temple_level", np.asarray(s.level, dtype=np.float32) / C.max_level)
        guards = [h * n + rel[g] for h, g in enumerate(s.guardian) if g >= 0]
        put_one_hot(obs, lay, "guardian", guards)
        camps = [h * (n + 1) + (0 if c == COMMON else 1 + rel[c]) for h, c in enumerate(s.camp) if c != -1]
        put_one_hot(obs, lay, "camp", camps)
        ruin = np.zeros((H, 2), dtype=np.float32)
        for h, stack in s.ruin.items():
            ruin[h] = (scaled(s.visible_masks(h), 4), scaled(len(stack), 2))
        lay.put(obs, "ruin", ruin.ravel())
        order = np.asarray(seats)
        explorers = np.asarray(s.explorers, dtype=np.float32).reshape(n, H)[order]
        leaders = np.asarray(s.leaders, dtype=np.float32).reshape(n, H)[order]
        lay.put(obs, "explorers", np.minimum(explorers / 10, 1.0).ravel())
        lay.put(obs, "leaders", np.minimum(leaders / 2, 1.0).ravel())
        lay.put(obs, "edge_cost", np.minimum(np.asarray(s.cost, dtype=np.float32) / 4, 1.0))
        lay.put(obs, "edge_tokens", np.minimum(np.asarray(s.tokens, dtype=np.float32) / 2, 1.0))

    def _round(self, s: TikalState, obs: np.ndarray, seats: list[int], rel: dict[int, int]) -> None:
        lay, n = self.layout, self.num_players
        obs[lay.slice("phase").start + s.phase] = 1.0
        lay.put(obs, "round", scaled(s.round, s.setup_rules["rounds"]))
        obs[lay.slice("turn").start + rel[s.turn]] = 1.0
        put_one_hot(obs, lay, "order", [k * n + rel[seat] for k, seat in enumerate(s.order)])
        put_one_hot(obs, lay, "next_order", [k * n + rel[seat] for k, seat in enumerate(s.next_order) if seat >= 0])
        lay.put(obs, "passed", [float(s.passed[seat]) for seat in seats])
        lay.put(obs, "scoring", [float(s.scoring_kind == "volcano"), float(s.scoring_kind == "final")])
        lay.put(obs, "scoring_queue", [float(seat in s.scoring_queue) for seat in seats])

    def _supplies(self, s: TikalState, obs: np.ndarray) -> None:
        lay = self.layout
        green_total = C.green_per_type * len(TREASURES)
        lay.put(obs, "supplies", [scaled(s.stone_supply, C.trail_stone_tokens),
                                  scaled(s.volcano_supply, C.volcanoes_3d), scaled(len(s.green), green_total)])
        lay.put(obs, "floors", [scaled(left, top) if top else 0.0 for left, top in zip(s.floors, C.floors)])
        lay.put(obs, "blue_treasures", np.asarray(s.blue, dtype=np.float32) / C.blue_per_type)
        lay.put(obs, "card_display", card_counts(s.display))
        lay.put(obs, "card_discard", card_counts(s.discard))
        lay.put(obs, "card_removed", card_counts(s.box))
        lay.put(obs, "deck_size", len(s.deck) / len(C.cards))
        lay.put(obs, "ap_display", ap_counts(s.ap_display))
        lay.put(obs, "ap_used", ap_counts(s.ap_used))
        lay.put(obs, "ap_bag", [len(s.bag) / len(C.ap_tokens), len(s.ap_removed) / len(C.ap_tokens)])
        put_one_hot(obs, lay, "tile_display", s.tile_display)
        lay.put(obs, "tile_piles", [len(s.piles[k]) / size for k, size in zip(DRAWN_LETTERS, PILE_SIZE)])
        put_one_hot(obs, lay, "symbol_tiles", s.symbol_supply)

    def _campsites(self, s: TikalState, obs: np.ndarray, seats: list[int]) -> None:
        lay, T = self.layout, len(TREASURES)
        rules = s.setup_rules
        lay.put(obs, "prestige", [scaled(s.pp[seat], PRESTIGE_TOP) for seat in seats])
        order = np.asarray(seats)
        figures = np.array([s.avail_explorers, s.avail_leaders, s.unavail_explorers, s.unavail_leaders,
                            s.removed_explorers, s.removed_leaders], dtype=np.float32).T[order]
        lay.put(obs, "figures", np.minimum(figures / FIGURE_TOPS, 1.0).ravel())
        lay.put(obs, "camps_guardians", [v for seat in seats for v in (
            scaled(C.per_player["base_camps"] - len(s.camps[seat]), 2), scaled(s.guardians[seat], 2))])
        museum = np.asarray(s.museum, dtype=np.float32).reshape(self.num_players, T)[order]
        lay.put(obs, "museum", np.minimum(museum / 4, 1.0).ravel())
        put_one_hot(obs, lay, "director", [k * len(C.directors) + s.director[seat] for k, seat in enumerate(seats)])
        put_one_hot(obs, lay, "power_used", [k * len(POWERS) + POWERS.index(s.power_used[seat])
                                             for k, seat in enumerate(seats) if s.power_used[seat]])
        lay.put(obs, "campsite_ap", [s.ap_token[seat] / max(AP_VALUES) for seat in seats])
        lay.put(obs, "management", [v for seat in seats for v in (
            float(s.rm_ap[seat]), scaled(s.rm_tiles[seat], max(rules["tiles_each"], 1)),
            scaled(s.rm_cards[seat], max(rules["cards_each"], 1)))])
        put_one_hot(obs, lay, "campsite_tiles", [k * N_TILES + t for k, seat in enumerate(seats)
                                                 for t in s.camp_tiles[seat]])
        lay.put(obs, "cards_right", np.concatenate([card_counts(s.right[seat]) for seat in seats]))
        lay.put(obs, "cards_left", np.concatenate([card_counts(s.left[seat]) for seat in seats]))
        lay.put(obs, "cards_down", np.concatenate([
            card_counts([c for c in s.right[seat] + s.left[seat] if s.down[c]]) for seat in seats]))
        put_one_hot(obs, lay, "own_camp_slots", [k * H + h for k, h in enumerate(s.camps[s.viewer])])

    def _frame(self, s: TikalState, obs: np.ndarray, rel: dict[int, int]) -> None:
        lay = self.layout
        if not s.stack:
            return
        f = s.stack[-1]
        obs[lay.slice("frame_kind").start + FRAME_KINDS.index(f.kind)] = 1.0
        put_one_hot(obs, lay, "frame_stack", sorted({FRAME_KINDS.index(fr.kind) for fr in s.stack}))
        obs[lay.slice("frame_context").start + known(CONTEXTS, f.ctx, "context")] = 1.0
        obs[lay.slice("frame_step").start + known(STEPS, f.step, "step")] = 1.0
        initial = f.a if f.kind in ("tracker", "temple_base", "dig") else 0
        lay.put(obs, "frame_numbers", [scaled(f.points, 13), scaled(f.left, 4), scaled(initial, 4)])
        hexes, tiles, edges, cards = frame_targets(f)
        put_one_hot(obs, lay, "frame_hex", hexes)
        put_one_hot(obs, lay, "frame_tile", tiles)
        put_one_hot(obs, lay, "frame_edge", edges)
        put_one_hot(obs, lay, "frame_card", [CARD_OF_ID[c] for c in cards])
        if f.kind == "trade" and f.step == "give":
            player, treasure = f.a
            put_one_hot(obs, lay, "frame_trade", [rel[player], self.num_players + treasure])
        base = lay.slice("frame_counts").start
        for h, count in f.counts.items():
            obs[base + h] = scaled(count, 2)


def frame_targets(f) -> tuple[list[int], list[int], list[int], list[int]]:
    """Hexes, tiles, edges and cards a sub-decision is about (see rules/cards/powers)."""
    hexes: list[int] = []
    if f.kind == "tile":
        hexes = [f.b] if f.step == "rotation" else []
        return hexes, [f.a], [], []
    if f.kind == "stone":
        return ([f.b] if f.step == "side" else []), [], ([f.a] if f.a >= 0 else []), []
    if f.kind in ("relocate", "fisher") and f.step == "to" and f.a >= 0:
        hexes = [f.a]
    elif f.kind == "clear" and f.a >= 0:
        hexes = [f.a]
    elif f.kind == "camp" and f.step == "figure":
        hexes = [f.b]
    elif f.kind == "discard":
        return [], [], [], [f.a]
    return hexes, [], [], []


def known(names: tuple[str, ...], value: str, what: str) -> int:
    if value not in names:
        raise EncodingError(f"Tikal frame {what} {value!r} is not in the encoding; add it to "
                            f"mayagames/rl/encoders/tikal.py")
    return names.index(value)


def put_one_hot(obs: np.ndarray, lay: Layout, name: str, positions) -> None:
    """Set 1.0 at ``positions`` (offsets inside field ``name``)."""
    positions = np.asarray(list(positions), dtype=np.int64)
    if positions.size:
        obs[lay.slice(name).start + positions] = 1.0


def card_counts(card_ids: list[int]) -> np.ndarray:
    """Copies of each card name among card ids (hidden cards skipped) / MAX_COPIES."""
    counts = np.zeros(len(CARD_NAMES), dtype=np.float32)
    for c in card_ids:
        if c >= 0:
            counts[CARD_OF_ID[c]] += 1
    return counts / MAX_COPIES


def ap_counts(values: list[int]) -> np.ndarray:
    counts = np.zeros(len(AP_VALUES), dtype=np.float32)
    for v in values:
        if v > 0:
            counts[AP_VALUES.index(v)] += 1
    return np.minimum(counts / 4, 1.0)


ENCODING = register_encoding(GameEncoding(
    game="tikal", codec=TikalCodec, observer=TikalObserver, score_scale=SCORE_SCALE,
    doc="Tikal Legend: positional codec for moves, camps, transfers and trades (see docs/rl.md).",
))

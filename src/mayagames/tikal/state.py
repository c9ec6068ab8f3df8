"""The Tikal Legend game state: flat lists and ints, cheap to copy.

State is data; the rules (``flow.py``, ``cards.py``, ``powers.py``, ``scoring.py``) are
functions over it. Hexes, edges, seats, treasure types and cards are small integers:

* ``kind[h]`` (``JUNGLE``, ``BASE_CAMP``, ``TEMPLE``, ...), ``tile_on[h]`` (tile index or -1),
  ``level[h]`` (temple level), ``masks[h]`` (Ruin masks), ``ruin[h]`` (face-down treasure
  stack, top last), ``guardian[h]`` (seat or -1), ``camp[h]`` (owner seat, ``COMMON`` or -1);
* ``printed[h*6+side]`` (Trail Stones printed on that side), ``tokens[e]`` (placed Trail
  Stone tokens on edge e) and ``cost[e]`` (their sum with both sides' printed stones: the
  AP to cross; 0 = no passage);
* ``explorers[s*H+h]`` and ``leaders[s*H+h]``: figures of seat s on hex h.

A compound turn is a stack of typed sub-decisions (:class:`~.model.TikalFrame` subclasses,
listed in :mod:`.frames`: an AP turn, the choice of a hex for a tile, ...). With the stack
empty, the phase's frame answers (Round Management, a turn of the action phase: frames kept
off the stack, :meth:`TikalState.deciding_frame`). The current player is the seat of the top
frame, or the seat whose turn it is. The protocol methods and ``clone()`` are
:class:`~mayagames.core.framestack.FrameStackState`'s.
"""

from __future__ import annotations

from bisect import insort

from typing import Any

from ..core.errors import IllegalAction
from ..core.framestack import FrameStackState
from ..core.rng import Rng
from . import engine as _engine
from . import hidden as _hidden
from . import invariants as _invariants
from . import serialize as _serialize
from .data import DRAWN_LETTERS, Components, default_components
from .model import (ACTION, BASE_CAMP, CLEARING, COMMON, FINAL, HIDDEN, JUNGLE, KIND_NAMES,  # noqa: F401
                    KIND_OF_TYPE, LAKE, OVER, PHASE_NAMES, ROUND_MANAGEMENT, RUINS, TEMPLE, VOLCANO, TikalFrame,
                    index_kinds)


class TikalState(FrameStackState):
    """A Tikal Legend game (or a seat's view of one). Create with :func:`new_tikal_game`."""

    # never mutated in place: the legal-action cache is replaced (and handed out as a
    # copy), the setup rules are component data, a scoring's entries are written once
    # (the list itself is copied), the hex index (tuples and a frozenset) is replaced
    shared_on_clone = ("options", "_legal", "setup_rules", "last_scoring", "hexes_by_kind", "temples_and_ruins")

    # --- the declared fields (FrameStackState.clone copies from them; invariants() checks them)
    shared_fields = (
        "C", "H", "redacted", "setup_rules", "hexes_by_kind", "temples_and_ruins", "stone_supply",
        "volcano_supply", "common_camp", "start_order", "round", "phase", "turn", "scoring_kind",
        "volcano_placer")
    list_fields = (
        "kind", "tile_on", "rot", "level", "base_level", "masks", "guardian", "guardian_figure", "camp",
        "printed", "tokens", "cost", "floors", "blue", "green", "deck", "display", "discard", "box", "down",
        "bag", "ap_removed", "ap_display", "ap_used", "tile_display", "symbol_supply", "unused_tiles",
        "tiles_out", "explorers", "leaders", "avail_explorers", "avail_leaders", "unavail_explorers",
        "unavail_leaders", "removed_explorers", "removed_leaders", "guardians", "museum", "pp", "director",
        "power_used", "ap_token", "rm_ap", "rm_tiles", "rm_cards", "order", "next_order", "passed",
        "scoring_queue", "last_scoring")
    nested_fields = ("camps", "right", "left", "camp_tiles")
    dict_fields = ("ruin", "piles")

    # --- construction -----------------------------------------------------------------------
    def __init__(self, num_players: int, seed: int, options: dict[str, Any],
                 components: Components | None = None) -> None:
        comps = components or default_components()
        self.C = comps
        self.num_players = num_players
        self.seed = seed
        self.options = options
        self.viewer: int | None = None
        self.redacted = False  # True for a view: hidden parts are placeholders
        self.rng = Rng(seed)
        self.setup_rules = comps.setup[num_players]
        self._legal: list | None = None
        self._init_board()
        self._init_supplies()
        self._init_players()

    def _init_board(self) -> None:
        C, B = self.C, self.C.board
        H = B.size
        self.H = H
        self.kind = [JUNGLE] * H
        self.tile_on = [-1] * H
        self.rot = [0] * H
        self.level = [0] * H
        self.base_level = [0] * H
        self.masks = [0] * H
        self.guardian = [-1] * H
        self.guardian_figure = [0] * H
        self.camp = [-1] * H
        self.ruin: dict[int, list[int]] = {}
        self.printed = [0] * (6 * H)
        self.tokens = [0] * len(B.edge_ends)
        self.cost = [0] * len(B.edge_ends)
        self.stone_supply = C.trail_stone_tokens
        self.volcano_supply = C.volcanoes_3d
        self.common_camp = -1
        for pre in B.preprinted:
            self.kind[pre.hex] = KIND_OF_TYPE[pre.type]
            if pre.type == "temple":
                self.level[pre.hex] = self.base_level[pre.hex] = pre.value
            if pre.type == "base_camp":
                self.common_camp = pre.hex
                self.camp[pre.hex] = COMMON
            self._print_stones(pre.hex, pre.stones)
        self._index_kinds()

    def refresh(self) -> None:
        """Bring what the engine keeps about the position up to date after fields were
        written directly (a scenario, a test): the hexes-by-kind index is re-derived from
        ``kind`` and the cached legal actions (with an AP turn's kept lists) are dropped.

        The engine keeps both true through its own writes (only :func:`.flow.place_tile`
        changes ``kind``, and it updates the index), so it never compares ``kind`` with the
        index on its own; the position helpers (:mod:`.positions`) call this themselves."""
        self._index_kinds()
        self._legal = None

    def refresh_index(self) -> None:
        """Re-derive the hexes-by-kind index from ``kind`` (:meth:`refresh` does it too)."""
        self._index_kinds()

    def _index_kinds(self) -> None:
        """Derive the hexes of each kind from ``kind`` (call after a hex changes kind).

        ``hexes_by_kind[k]``: the hexes of kind k, ascending; ``temples_and_ruins``: the
        sites of the temple and ruin AP actions. Both immutable (shared by copies)."""
        by_kind, sites = index_kinds(self.kind)
        self.hexes_by_kind: tuple[tuple[int, ...], ...] = by_kind
        self.temples_and_ruins: frozenset[int] = sites

    def _reindex_hex(self, h: int, was: int) -> None:
        """Hex ``h`` changed from kind ``was`` to ``kind[h]``: update the index (a tile laid)."""
        k = self.kind[h]
        if k == was:
            return
        by_kind = list(self.hexes_by_kind)
        left = list(by_kind[was])
        left.remove(h)
        by_kind[was] = tuple(left)
        grown = list(by_kind[k])
        insort(grown, h)
        by_kind[k] = tuple(grown)
        self.hexes_by_kind = tuple(by_kind)
        if k == TEMPLE or k == RUINS:
            self.temples_and_ruins = self.temples_and_ruins | {h}

    def _init_supplies(self) -> None:
        C, n = self.C, self.num_players
        self.floors = list(C.floors)
        self.blue = [C.blue_per_type] * len(C.treasure_types)
        self.green = [t for t in range(len(C.treasure_types)) for _ in range(C.green_per_type)]
        self.deck = C.cards_for(n)
        self.display: list[int] = []
        self.discard: list[int] = []
        self.box: list[int] = []  # cards removed from the reshuffle (rule 11)
        self.down = [False] * len(C.cards)  # permanent card used this round (face down)
        self.bag = list(C.ap_tokens)
        self.ap_removed: list[int] = []
        self.ap_display: list[int] = []
        self.ap_used: list[int] = []
        self.piles = {letter: C.tiles_with_back(letter) for letter in DRAWN_LETTERS}
        self.tile_display: list[int] = []
        self.symbol_supply = C.tiles_with_back("symbol")
        self.unused_tiles = C.tiles_with_back("unused")
        self.tiles_out: list[int] = []  # discarded: no free hex, or untaken in the solo variant

    def _init_players(self) -> None:
        C, n, H = self.C, self.num_players, self.H
        pp = C.per_player
        self.explorers = [0] * (n * H)
        self.leaders = [0] * (n * H)
        self.avail_explorers = [pp["available_explorers"]] * n
        self.avail_leaders = [pp["available_leaders"]] * n
        self.unavail_explorers = [pp["explorers"] - pp["available_explorers"]] * n
        self.unavail_leaders = [pp["leaders"] - pp["available_leaders"]] * n
        self.removed_explorers = [0] * n
        self.removed_leaders = [0] * n
        self.camps: list[list[int]] = [[] for _ in range(n)]
        self.guardians = [0] * n
        self.museum = [0] * (n * len(C.treasure_types))
        self.pp = [0] * n
        self.director = [0] * n
        self.power_used = [""] * n
        self.right: list[list[int]] = [[] for _ in range(n)]
        self.left: list[list[int]] = [[] for _ in range(n)]
        self.camp_tiles: list[list[int]] = [[] for _ in range(n)]
        self.ap_token = [0] * n
        self.rm_ap = [False] * n
        self.rm_tiles = [0] * n
        self.rm_cards = [0] * n
        self.order = list(range(n))
        self.start_order: tuple[int, ...] = tuple(range(n))  # round 1 turn order
        self.next_order = [-1] * n
        self.passed = [False] * n
        self.round = 1
        self.phase = ROUND_MANAGEMENT
        self.turn = 0
        self.stack: list[TikalFrame] = []
        self.scoring_kind = ""
        self.scoring_queue: list[int] = []
        self.volcano_placer = -1
        self.last_scoring: list[dict[str, Any]] = []

    # --- board helpers ---------------------------------------------------------------------
    def _print_stones(self, h: int, stones: tuple[int, ...]) -> None:
        """Set the printed stones of hex ``h`` (board orientation) and update edge costs."""
        first = h * 6
        if len(stones) < 6:
            raise IndexError("a hex has six sides of stones")
        self.printed[first:first + 6] = stones[:6]
        self._recost(*[e for e in self.C.board.edge[first:first + 6] if e >= 0])

    def _recost(self, *edges: int) -> None:
        """Update the crossing cost of ``edges``: both sides' printed stones and the tokens."""
        ends, printed, tokens, cost = self.C.board.edge_ends, self.printed, self.tokens, self.cost
        for e in edges:
            a, sa, b, sb = ends[e]
            cost[e] = printed[a * 6 + sa] + printed[b * 6 + sb] + tokens[e]

    def hex_name(self, h: int) -> str:
        return self.C.board.hexes[h].name

    def hex_index(self, name: str) -> int:
        h = self.C.board.by_name.get(name)
        if h is None:
            raise IllegalAction("Tikal: site board", f"there is no hex {name!r} on the board")
        return h

    def figures(self, seat: int, h: int) -> int:
        """How many of ``seat``'s EMs stand on ``h`` (a Leader counts as one figure)."""
        i = seat * self.H + h
        return self.explorers[i] + self.leaders[i]

    def strength(self, seat: int, h: int) -> int:
        """Presence of ``seat`` on ``h``: Leader 3, Explorer 1 (rule 8)."""
        i = seat * self.H + h
        return self.leaders[i] * self.C.leader_strength + self.explorers[i] * self.C.explorer_strength

    def majority(self, h: int) -> int:
        """The seat with strictly more presence on ``h`` than every other, or -1 (rule 8, gap A11)."""
        best, owner, tie = 0, -1, False
        H, ls, es = self.H, self.C.leader_strength, self.C.explorer_strength
        for s in range(self.num_players):
            i = s * H + h
            v = self.leaders[i] * ls + self.explorers[i] * es
            if v > best:
                best, owner, tie = v, s, False
            elif v == best and v > 0:
                tie = True
        return -1 if tie else owner

    def controls_temple(self, seat: int, h: int) -> bool:
        """A Guardian gives its temple to its owner; else the majority does (rule 6, gap A11)."""
        g = self.guardian[h]
        return g == seat if g >= 0 else self.majority(h) == seat

    def visible_masks(self, h: int) -> int:
        """A Ruin still holding treasures shows 1 mask, an emptied one all of them (rule 8)."""
        return 1 if self.ruin.get(h) else self.masks[h]

    def treasure_count(self, seat: int, t: int) -> int:
        return self.museum[seat * len(self.C.treasure_types) + t]

    def card_name(self, c: int) -> str:
        return self.C.cards[c].name

    # --- protocol ----------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        if self.stack:
            return self.stack[-1].seat
        return None if self.phase == OVER else self.turn

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    # --- the frame-stack hooks (:class:`~mayagames.core.framestack.FrameStackState`) ----------
    #: frames change in place (an AP turn counts its points and tallies down): a copy
    #: copies each one (docs/design.md, "Why mutable frames")
    frames_mutable = True
    game_over = ("11: Final Scoring", "the game is over")
    over_phase = OVER

    def deciding_frame(self) -> Any:
        """The top frame or, the stack empty, the phase's frame (:data:`.engine.PHASE_FRAMES`:
        :class:`.flow.RoundManagement`, :class:`.engine.ActionTurn`), never on the stack."""
        return _engine.deciding_frame(self)

    def _list_legal(self) -> list:
        """The deciding frame's legal actions (:func:`.engine.legal_actions`)."""
        return _engine.legal_actions(self)

    def _advance(self, action: Any) -> None:
        """A legal action played on the deciding frame (:func:`.engine.apply_action`); the
        next legal list is worked out when asked."""
        self._legal = None
        _engine.apply_action(self, action)

    def _why_illegal(self, action: Any) -> IllegalAction:
        """Unknown hex names first, the end of the game, then the deciding frame
        (:func:`.engine.why_illegal`)."""
        return _engine.why_illegal(self, action)

    def scores(self) -> list[float]:
        return [float(p) for p in self.pp]

    def reveals_information(self, action: Any) -> bool:
        return _engine.reveals_information(self, action)

    def game_invariants(self) -> list[str]:
        return _invariants.broken_invariants(self)

    # --- copies (:meth:`FrameStackState.clone`, from the field lists below) ----------------
    def view(self, seat: int | None) -> "TikalState":
        """What ``seat`` may see: deck order, the AP bag, tile piles and face-down treasures hidden."""
        v = self.clone()
        v.viewer = seat
        v.redacted = True
        v.seed = 0  # the seed would regenerate every hidden shuffle
        v.rng = Rng(0)  # the true generator would reveal future draws
        v.deck = [HIDDEN] * len(self.deck)
        v.bag = [HIDDEN] * len(self.bag)
        v.ap_removed = [HIDDEN] * len(self.ap_removed)
        v.piles = {k: [HIDDEN] * len(p) for k, p in self.piles.items()}
        v.green = [HIDDEN] * len(self.green)
        v.ruin = {h: [HIDDEN] * len(s) for h, s in self.ruin.items()}
        return v

    def determinize(self, rng: Rng) -> "TikalState":
        return _hidden.determinize(self, rng)

    def determinizer(self) -> Any:
        return _hidden.determinizer(self)

    def to_dict(self) -> dict[str, Any]:
        return _serialize.state_to_dict(self)


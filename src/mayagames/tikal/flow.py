"""The Tikal Legend forward model (``flow``): legal actions and transitions, phase by phase.

Section numbers refer to the restated rules (``shared/rules/tikal_legend.md``); ``A``
numbers to the readings of ``tikal_legend_gaps.md`` (see ``docs/tikal_rules_notes.md``).

A turn that takes several decisions pushes a typed sub-decision (a
:class:`~.model.TikalFrame`: an open question) on ``state.stack``. This module's kinds are
:class:`ApTurn`, :class:`StonePlacement`, :class:`TilePlacement`, :class:`KeepDiscard` and
:class:`TreasureTrade`; each owns its fields, legal actions, transition and refusals.

Legality is written once: each check returns ``None`` (allowed) or the reason it refuses
(:data:`Refusal`, with the rule's name); the legal-action lists keep what no check
refuses, and ``why_illegal`` reports the first refusal. Card effects live in ``cards.py``, director powers in ``powers.py``; both use
the primitives here (``rules`` is this module's first name, kept as a re-export). The dispatch over every frame kind, and the turn step that plays cards
and powers, are :mod:`.engine` (above all three, so nothing here imports them).
"""

from __future__ import annotations

from bisect import insort
from itertools import compress
from typing import TYPE_CHECKING, Any, Optional

from ..core.compiling import mypyc_attr
from ..core.frames import SubDecision
from .actions import (END, STONE, TRADE, At, Camp, Clear, Deploy, Discard, End, Give, Guardian, Keep, Move,
                      PlaceTile, Play, Power, Recruit, Rotate, Side, Stone, Take, TakeAP, TakeCard, TakeStatuette,
                      TakeTile, Token,
                      Trade, Transfer, Unearth, Use, make)
from . import scoring as _scoring
from .data import DRAWN_LETTERS, SIDES
from .model import (ACTION, CLEARING, FINAL, JUNGLE, KIND_OF_TYPE, OVER, ROUND_MANAGEMENT, RUINS, TEMPLE,
                    VOLCANO, TikalFrame, count_up)
from ..core.errors import IllegalAction, Refusal, refused as core_refused

if TYPE_CHECKING:
    from .state import TikalState

EXPLORER, LEADER = "explorer", "leader"
# AP-turn contexts: which actions a points pool may buy
GENERAL = ("token", "alone", "volcano", "final")  # every AP action (rule 6)
SCOUT = "scout"  # director power Scout: deploy, move, Base-Camp trips (gap A16)
SPECIAL_TURNS = ("volcano", "final")  # the 10-AP turns of a scoring (rules 8, 11)

def refused(refusal: Refusal, action: object) -> IllegalAction:
    """The :class:`IllegalAction` of a check's refusal (core's :data:`Refusal`, shared with
    Tzolk'in; a check returns ``None`` when it allows the action)."""
    return core_refused(refusal, action, "Tikal")


def push(s: TikalState, frame: TikalFrame) -> None:
    s.stack.append(frame)


def finish(s: TikalState, frame: TikalFrame) -> None:
    """Close the top frame; if it was the turn's action, the turn ends."""
    s.stack.pop()
    if frame.ends_turn:
        end_turn(s)


# ============================================================================ 4. Round Management
def rm_wants(s: TikalState, seat: int) -> bool:
    """Whether ``seat``'s campsite still has room for an item on offer (rule 4, gap A17)."""
    rules = s.setup_rules
    return (seat not in s.next_order
            or (not s.rm_ap[seat] and bool(s.ap_display))
            or (s.rm_tiles[seat] < rules["tiles_each"] and bool(s.tile_display))
            or (s.rm_cards[seat] < rules["cards_each"] and bool(s.display)))


RM = "4: Round Management"


def statuette_refusal(s: TikalState, seat: int) -> Optional[Refusal]:
    return (RM, "your statuette is already on a turn-order space") if seat in s.next_order else None


def ap_token_refusal(s: TikalState, seat: int) -> Optional[Refusal]:
    return (RM, "one AP token per round") if s.rm_ap[seat] else None


def tile_quota_refusal(s: TikalState, seat: int) -> Optional[Refusal]:
    each = s.setup_rules["tiles_each"]
    return (RM, f"you already took {each} terrain tile(s) this round") if s.rm_tiles[seat] >= each else None


def card_quota_refusal(s: TikalState, seat: int) -> Optional[Refusal]:
    each = s.setup_rules["cards_each"]
    return (RM, f"you already took {each} action cards this round") if s.rm_cards[seat] >= each else None


def rm_legal(s: TikalState) -> list:
    """Rule 4: one item per turn: a statuette space, an AP token, a tile or a card."""
    seat = s.turn
    acts: list = []
    T = tables(s.C)
    rules = s.setup_rules
    next_order = s.next_order
    if seat not in next_order:  # statuette_refusal(s, seat) is None, and so on
        acts += [T.take_statuette[i] for i, x in enumerate(next_order) if x < 0]
    if not s.rm_ap[seat] and s.ap_display:
        acts += [T.take_ap.get(v) or make(TakeAP, v) for v in sorted(set(s.ap_display))]
    if s.rm_tiles[seat] < rules["tiles_each"]:
        acts += map(T.take_tile.__getitem__, s.tile_display)
    if s.rm_cards[seat] < rules["cards_each"]:
        acts += distinct_cards(s.display, T.take_card)
    return acts


def distinct_cards(cards: list[int], table: list) -> list:
    """``table[c]`` of the cards, each action once, in order (copies of a card share one)."""
    return list({id(a): a for a in map(table.__getitem__, cards)}.values())


def rm_refusal(s: TikalState, a: object) -> Optional[Refusal]:
    """Why Round Management refuses ``a`` (None: it is one of :func:`rm_legal`)."""
    seat = s.turn
    if isinstance(a, TakeStatuette):
        if not 1 <= a.space <= len(s.next_order) or s.next_order[a.space - 1] >= 0:
            return statuette_refusal(s, seat) or (RM, f"turn-order space {a.space} is not free")
        return statuette_refusal(s, seat)
    if isinstance(a, TakeAP):
        return ap_token_refusal(s, seat) or (
            None if a.value in s.ap_display else (RM, f"no AP token {a.value} on offer (offered: {sorted(s.ap_display)})"))
    if isinstance(a, TakeTile):
        if tile_quota_refusal(s, seat) or a.tile in [s.C.tiles[t].id for t in s.tile_display]:
            return tile_quota_refusal(s, seat)
        offered = ", ".join(s.C.tiles[t].id for t in s.tile_display) or "none"
        return (RM, f"tile {a.tile} is not on offer (on offer: {offered}; tile ids look like B-3)")
    if isinstance(a, TakeCard):
        return card_quota_refusal(s, seat) or (
            None if a.card in distinct_names(s, s.display) else (RM, f"no card {a.card!r} on display"))
    return (RM, "each turn of Round Management takes one item: 'take statuette N', "
                "'take ap N', 'take tile X' or 'take card X'")


def distinct_names(s: TikalState, cards: list[int]) -> list[str]:
    names: list[str] = []
    for c in cards:
        name = s.C.cards[c].name
        if name not in names:
            names.append(name)
    return names


def first_card(s: TikalState, cards: list[int], name: str, prefer_up: bool | None = None) -> int:
    """The first card called ``name`` in ``cards`` (preferring face-up or face-down copies)."""
    found = [c for c in cards if s.C.cards[c].name == name]
    if prefer_up is not None:
        found.sort(key=lambda c: s.down[c] == prefer_up)
    return found[0]


def rm_apply(s: TikalState, a: object) -> None:
    seat = s.turn
    if isinstance(a, TakeStatuette):
        s.next_order[a.space - 1] = seat
    elif isinstance(a, TakeAP):
        s.ap_display.remove(a.value)
        s.ap_token[seat] = a.value
        s.rm_ap[seat] = True
    elif isinstance(a, TakeTile):
        t = s.C.tile_index[a.tile]
        s.tile_display.remove(t)
        s.camp_tiles[seat].append(t)
        s.rm_tiles[seat] += 1
    elif isinstance(a, TakeCard):
        c = first_card(s, s.display, a.card)
        s.display.remove(c)
        s.right[seat].append(c)
        s.rm_cards[seat] += 1
    rm_next(s)


def rm_next(s: TikalState) -> None:
    """In turn order, the next player with room on their campsite takes an item (rule 4)."""
    n = len(s.order)
    i = s.order.index(s.turn)
    for k in range(1, n + 1):
        seat = s.order[(i + k) % n]
        if rm_wants(s, seat):
            s.turn = seat
            return
    start_action_phase(s)


def start_action_phase(s: TikalState) -> None:
    if s.setup_rules.get("discard_untaken_tiles"):  # solo variant: untaken tiles leave the game
        s.tiles_out += s.tile_display
        s.tile_display = []
    s.phase = ACTION
    s.passed = [False] * s.num_players
    s.turn = s.order[0]


@mypyc_attr(native_class=False)
class RoundManagement(SubDecision["TikalState"]):
    """Rule 4 as a frame: the seat whose turn it is takes one item (a statuette space, an AP
    token, a tile or a card). It is a *phase frame*: never on ``state.stack`` (what the
    stack, ``to_dict()`` and the encoders show is unchanged), it answers when the stack is
    empty and the phase is Round Management (:data:`.engine.PHASE_FRAMES`)."""

    __slots__ = ()
    kind = "round_management"

    def legal_actions(self, state: TikalState) -> list:
        return rm_legal(state)

    def apply(self, state: TikalState, action: Any) -> None:
        rm_apply(state, action)

    def why_illegal(self, state: TikalState, action: Any) -> IllegalAction:
        return refused(rm_refusal(state, action) or (RM, "not an item you may take now"), action)


ROUND_MANAGEMENT_FRAME = RoundManagement()


# ============================================================================ 5. Action phase: a turn
def pass_refusal(s: TikalState, seat: int) -> Optional[Refusal]:
    """Rule 5: pass only with everything on the campsite used: tiles placed, AP token used,
    right cards played or kept."""
    if can_pass(s, seat):
        return None
    left = []
    if s.camp_tiles[seat]:
        left.append("a terrain tile to place")
    if s.ap_token[seat]:
        left.append("your AP token to activate")
    if any(not s.down[c] for c in s.right[seat]):
        left.append("action cards on the right to play or keep")
    return ("5: passing", "you may pass only when your campsite is used: " + ", ".join(left))


def can_pass(s: TikalState, seat: int) -> bool:
    """Whether :func:`pass_refusal` lets ``seat`` pass (without building its message)."""
    return not s.camp_tiles[seat] and not s.ap_token[seat] and all(map(s.down.__getitem__, s.right[seat]))


def keep_card(s: TikalState, seat: int, name: str) -> None:
    """Rule 5.1: move a card right -> left; with the left full, first discard one there."""
    c = first_card(s, s.right[seat], name, prefer_up=False)
    if len(s.left[seat]) >= kept_spaces(s):
        push(s, KeepDiscard(seat, keeping=c))
        return
    s.right[seat].remove(c)
    s.left[seat].append(c)
    end_turn(s)


def kept_spaces(s: TikalState) -> int:
    return int(s.options.get("kept_card_spaces", s.C.kept_card_spaces))


def use_alone(s: TikalState, seat: int, name: str, kept: bool) -> None:
    """Rule 5 / gap A9: a permanent card used alone gives its AP to spend now and flips.

    Rule 5 plays it "alone as an action"; gap A9 makes it free (no turn) when the card is on
    the left (kept, passive). Used alone from the right it is the turn's action."""
    side = s.left[seat] if kept else s.right[seat]
    c = first_card(s, side, name, prefer_up=True)
    s.down[c] = True
    push(s, ApTurn(seat, "alone", int(s.C.cards[c].params["ap"]), ends_turn=not kept))


def activate_token(s: TikalState, seat: int) -> None:
    """Rule 5.3: spend the AP token's AP (plus permanent-card bonuses) on AP actions."""
    value = s.ap_token[seat]
    s.ap_token[seat] = 0
    s.ap_used.append(value)
    push(s, ApTurn(seat, "token", value))


def free_hexes(s: TikalState, dotted: bool) -> list[int]:
    """Jungle hexes a tile may cover: non-dotted for campsite tiles, dotted for symbol tiles (rule 7)."""
    T = tables(s.C)
    jungle = s.hexes_by_kind[JUNGLE]
    return list(compress(jungle, map((T.dotted if dotted else T.undotted).__getitem__, jungle)))


def any_free_hex(s: TikalState, dotted: bool) -> bool:
    T = tables(s.C)
    return any(map((T.dotted if dotted else T.undotted).__getitem__, s.hexes_by_kind[JUNGLE]))


def place_from_campsite(s: TikalState, seat: int, t: int) -> None:
    """Rule 7: choose a Jungle hex and a rotation; with no free hex the tile is discarded (A18)."""
    if not any_free_hex(s, dotted=False):
        s.camp_tiles[seat].remove(t)
        s.tiles_out.append(t)
        end_turn(s)
        return
    push(s, TilePlacement(seat, "campsite", t))


def pass_turn(s: TikalState, seat: int) -> None:
    """Rule 5: pass; a permanent card used but left on the right is discarded (gap A9)."""
    s.passed[seat] = True
    used = [c for c in s.right[seat] if s.down[c]]
    s.right[seat] = [c for c in s.right[seat] if not s.down[c]]
    for c in used:
        discard_card(s, c)
    end_turn(s)


def discard_card(s: TikalState, c: int) -> None:
    s.down[c] = False
    s.discard.append(c)


def end_turn(s: TikalState) -> None:
    """The next player in turn order who has not passed; the phase ends when all have passed."""
    if s.phase != ACTION:
        return
    n = len(s.order)
    i = s.order.index(s.turn)
    for k in range(1, n + 1):
        seat = s.order[(i + k) % n]
        if not s.passed[seat]:
            s.turn = seat
            return
    end_action_phase(s)


def end_action_phase(s: TikalState) -> None:
    if s.round >= s.setup_rules["rounds"]:
        start_final_scoring(s)
    else:
        upkeep(s)


# ============================================================================ 11. Upkeep
def upkeep(s: TikalState) -> None:
    """Rule 11, in order: round counter, statuettes, permanent cards, cards, AP tokens, tiles."""
    s.round += 1
    s.order = [x for x in s.next_order if x >= 0]
    s.next_order = [-1] * s.num_players
    for seat in range(s.num_players):
        for c in s.left[seat]:
            s.down[c] = False
    refill_display(s)
    for _ in range(s.setup_rules["ap_drawn"]):
        if s.bag:
            s.ap_display.append(s.bag.pop())
    draw_tiles(s)
    s.rm_ap = [False] * s.num_players
    s.rm_tiles = [0] * s.num_players
    s.rm_cards = [0] * s.num_players
    s.phase = ROUND_MANAGEMENT
    s.turn = s.order[0]
    if not rm_wants(s, s.turn):
        rm_next(s)


def refill_display(s: TikalState) -> None:
    """Refill the card row; an empty deck takes the discard pile, less cards 1, 16-18 (A22)."""
    while len(s.display) < s.C.display_cards:
        if not s.deck:
            s.box += [c for c in s.discard if s.C.cards[c].removed_on_reshuffle]
            s.deck = [c for c in s.discard if not s.C.cards[c].removed_on_reshuffle]
            s.discard = []
            s.rng.shuffle(s.deck)
            if not s.deck:
                return
        s.display.append(s.deck.pop())


def draw_tiles(s: TikalState) -> None:
    """Draw the round's terrain tiles in letter order: A first, then B, ... up to E (rule 11)."""
    for _ in range(s.setup_rules["tiles_drawn"]):
        for letter in DRAWN_LETTERS:
            if s.piles[letter]:
                s.tile_display.append(s.piles[letter].pop())
                break


# ============================================================================ 8. Scoring turns
def start_volcano_scoring(s: TikalState, placer: int) -> None:
    """Rule 8: the placer, then every other player in turn order: 10 AP, then score (A15)."""
    others = [x for x in s.order if x != placer]
    if s.options.get("volcano_order") == "after_placer":
        i = s.order.index(placer)
        others = [s.order[(i + k) % len(s.order)] for k in range(1, len(s.order))]
    s.scoring_kind = "volcano"
    s.volcano_placer = placer
    s.scoring_queue = [placer] + others
    next_scoring_turn(s)


def start_final_scoring(s: TikalState) -> None:
    """Rule 11: each player, in next-round order (statuettes on the right), 10 AP then scores."""
    s.phase = FINAL
    s.scoring_kind = "final"
    s.scoring_queue = [x for x in s.next_order if x >= 0]
    for seat in range(s.num_players):  # a seat without a statuette space scores last
        if seat not in s.scoring_queue:
            s.scoring_queue.append(seat)
    next_scoring_turn(s)


def next_scoring_turn(s: TikalState) -> None:
    seat = s.scoring_queue.pop(0)
    push(s, ApTurn(seat, s.scoring_kind, s.C.special_turn_ap, ends_turn=False))


def score_now(s: TikalState, seat: int) -> None:
    part = _scoring.score_breakdown(s, seat)
    s.pp[seat] += part["total"]
    s.last_scoring.append({"round": s.round, "kind": s.scoring_kind, "seat": seat, **part})


def finish_scoring_turn(s: TikalState) -> None:
    if s.scoring_queue:
        next_scoring_turn(s)
    elif s.scoring_kind == "volcano":
        s.scoring_kind = ""
        s.turn = s.volcano_placer
        s.volcano_placer = -1
        end_turn(s)  # A15e: the placer's turn ends after the sequence
    else:
        for seat in range(s.num_players):
            if not s.power_used[seat]:  # rule 11: an unused Museum Director scores 5 PP
                s.pp[seat] += s.C.unused_director_bonus
        s.scoring_kind = ""
        s.phase = OVER


# ============================================================================ 6. AP actions
def camp_hexes(s: TikalState, seat: int) -> list[int]:
    """The Common Base Camp and the seat's own Base Camps."""
    return [s.common_camp] + s.camps[seat]


class ActionTables:
    """The interned actions of one board, indexed by hex (or hex*6+side): legal-action lists
    are built by indexing, without creating objects."""

    def __init__(self, C: Any) -> None:
        B = C.board
        names = [h.name for h in B.hexes]
        self.names = names

        def per_side(fig: str) -> list:
            return [make(Move, fig, names[i // 6], names[B.neighbour[i]]) if B.neighbour[i] >= 0 else None
                    for i in range(6 * B.size)]

        self.move_explorer, self.move_leader = per_side(EXPLORER), per_side(LEADER)
        self.deploy_explorer = [make(Deploy, EXPLORER, n) for n in names]
        self.deploy_leader = [make(Deploy, LEADER, n) for n in names]
        self.clear = [make(Clear, n) for n in names]
        self.unearth = [make(Unearth, n) for n in names]
        self.guardian_explorer = [make(Guardian, n, EXPLORER) for n in names]
        self.guardian_leader = [make(Guardian, n, LEADER) for n in names]
        self.at = [make(At, n) for n in names]
        self.dotted = tuple(h.dotted for h in B.hexes)
        self.undotted = tuple(not h.dotted for h in B.hexes)
        self.stones: dict[tuple[int, int], tuple[int, ...]] = {}  # (tile, turns) -> its stones per board side
        self.recruit_explorer, self.recruit_leader = make(Recruit, EXPLORER), make(Recruit, LEADER)
        self.transfer: dict[tuple[int, int], list] = {}  # (figure 0/1, from) -> row by destination (None: not made yet)
        self.camp: dict[int, list] = {}  # moved camp (-1: from the reserve) -> row by hex (None: not made yet)
        self.stone_hexes: dict[int, list] = {}  # moving edge -> At actions of hexes with another edge
        self.rotations: dict[int, list] = {}  # tile -> Rotate actions of its distinct rotations
        # per card id: keep, (play, play kept), (use, use kept)
        self.keep = [make(Keep, c.name) for c in C.cards]
        self.play = [(make(Play, c.name, False), make(Play, c.name, True)) for c in C.cards]
        self.use = [(make(Use, c.name, False), make(Use, c.name, True)) for c in C.cards]
        self.take_card = [make(TakeCard, c.name) for c in C.cards]
        self.place_tile = [make(PlaceTile, t.id) for t in C.tiles]  # per tile index
        self.take_tile = [make(TakeTile, t.id) for t in C.tiles]
        self.power = {p: make(Power, p) for p in C.powers}
        self.permanent = [c.permanent for c in C.cards]
        self.name_of = [C.card_names.index(c.name) for c in C.cards]  # card id -> name index
        # per hex: (index h*6+side, edge) of its sides that have an edge
        self.sides = [tuple((i, B.edge[i]) for i in range(h * 6, h * 6 + 6) if B.edge[i] >= 0)
                      for h in range(B.size)]
        self.hex_edges = [frozenset(e for _, e in self.sides[h]) for h in range(B.size)]  # distinct edges per hex
        # id of an interned move -> (from, to, edge): a move is applied without name look-ups
        # (the tables keep the actions alive, so their ids are not reused)
        self.move_step = {id(self.move_explorer[i] if fig == 0 else self.move_leader[i]): (h, B.neighbour[i], e)
                          for h in range(B.size) for i, e in self.sides[h] for fig in (0, 1)}
        self.take_ap = {v: make(TakeAP, v) for v in C.ap_tokens}
        self.take_statuette = [make(TakeStatuette, i + 1) for i in range(8)]

    def transfer_action(self, fig: int, a: int, b: int) -> Transfer:
        """``transfer FIGURE a b`` (``fig`` 0: Explorer, 1: Leader), made on first use: a row
        per origin, filled only where asked (a whole row cost more than the listings it served)."""
        row = self.transfer.get((fig, a))
        if row is None:
            row = self.transfer[(fig, a)] = [None] * len(self.names)
        action = row[b]
        if action is None:
            action = row[b] = make(Transfer, LEADER if fig else EXPLORER, self.names[a], self.names[b])
        return action

    def camp_action(self, source: int, h: int) -> Camp:
        """``camp HEX [from source]`` (``source`` -1: from the reserve), made on first use."""
        row = self.camp.get(source)
        if row is None:
            row = self.camp[source] = [None] * len(self.names)
        action = row[h]
        if action is None:
            action = row[h] = make(Camp, self.names[h], self.names[source] if source >= 0 else "")
        return action


_TABLES: dict[int, tuple[Any, ActionTables]] = {}
_LAST: list = [None, None]  # the component set asked last and its tables (one board in a process, as a rule)


def tables(C: Any) -> ActionTables:
    """The action tables of a component set (built once; the entry keeps ``C`` alive)."""
    if C is _LAST[0]:
        return _LAST[1]
    entry = _TABLES.get(id(C))
    if entry is None or entry[0] is not C:
        entry = _TABLES[id(C)] = (C, ActionTables(C))
    _LAST[0], _LAST[1] = entry
    return entry[1]


def occupied(s: TikalState, seat: int) -> list[int]:
    """The hexes where ``seat`` has an EM, ascending."""
    base = seat * s.H
    end, hexes = base + s.H, range(s.H)
    found = list(compress(hexes, s.explorers[base:end]))
    leaders = s.leaders[base:end]
    if any(leaders):  # few Leaders: merged into the Explorers' hexes
        for h in compress(hexes, leaders):
            if h not in found:
                insort(found, h)
    return found


def deploy_actions(s: TikalState, seat: int, acts: list) -> None:
    """Rule 6: an EM from the Available Supply onto the Common Base Camp or one of yours."""
    T = tables(s.C)
    camps = s.camps[seat]
    if s.avail_explorers[seat]:
        table = T.deploy_explorer
        acts.append(table[s.common_camp])
        for h in camps:
            acts.append(table[h])
    if s.avail_leaders[seat]:
        table = T.deploy_leader
        acts.append(table[s.common_camp])
        for h in camps:
            acts.append(table[h])


def move_actions(s: TikalState, seat: int, points: int, acts: list, where: list[int] | None = None) -> None:
    """Rule 6: to an adjacent hex across at least one Trail Stone, 1 AP per stone (A5).
    ``where``: :func:`occupied` if known."""
    T = tables(s.C)
    move_e, move_l, sides = T.move_explorer, T.move_leader, T.sides
    cost, per = s.cost, s.C.ap_costs["move_per_stone"]
    base = seat * s.H
    ex, ld = s.explorers, s.leaders
    for h in (occupied(s, seat) if where is None else where):
        ne, nl = ex[base + h], ld[base + h]
        for i, e in sides[h]:
            if 1 <= cost[e] * per <= points:
                if ne:
                    acts.append(move_e[i])
                if nl:
                    acts.append(move_l[i])


def can_move(s: TikalState, seat: int, points: int) -> bool:
    """Whether :func:`move_actions` offers anything (without building the list)."""
    sides, cost, per = tables(s.C).sides, s.cost, s.C.ap_costs["move_per_stone"]
    for h in occupied(s, seat):
        for _, e in sides[h]:
            if 1 <= cost[e] * per <= points:
                return True
    return False


def can_transfer(s: TikalState, seat: int) -> bool:
    """Whether :func:`transfer_actions` offers anything: an EM on one of two or more camps."""
    if not s.camps[seat]:
        return False
    base = seat * s.H
    return any(s.explorers[base + h] or s.leaders[base + h] for h in camp_hexes(s, seat))


def transfer_actions(s: TikalState, seat: int, acts: list) -> None:
    """Rule 6: an EM between the Common Base Camp and your camp, or between your two camps."""
    if not s.camps[seat]:
        return
    camps = camp_hexes(s, seat)
    T = tables(s.C)
    base, ex, ld = seat * s.H, s.explorers, s.leaders
    for a in camps:
        if ex[base + a]:
            for b in camps:
                if b != a:
                    acts.append(T.transfer_action(0, a, b))
        if ld[base + a]:
            for b in camps:
                if b != a:
                    acts.append(T.transfer_action(1, a, b))


def camp_actions(s: TikalState, seat: int, acts: list) -> None:
    """Rule 6 / A20: a camp from reserve onto a Clearing without a camp, else move one of yours."""
    camp = s.camp
    targets = [h for h in s.hexes_by_kind[CLEARING] if camp[h] == -1]
    if not targets:
        return
    reserve = s.C.per_player["base_camps"] - len(s.camps[seat])
    sources = [-1] if reserve > 0 else s.camps[seat]
    T = tables(s.C)
    for h in targets:
        for src in sources:
            acts.append(T.camp_action(src, h))


def clear_refusal(s: TikalState, seat: int, h: int, done: int) -> Optional[Refusal]:
    """Rule 6 Clear a Temple Floor: no Guardian, below 10, floor in stock, max 2 per turn,
    one EM there per floor (``done``: floors cleared there this turn)."""
    level = s.level[h]
    if s.guardian[h] >= 0:
        return CLEAR, "a guarded temple cannot be cleared"
    if level >= s.C.max_level:
        return CLEAR, f"the temple is at the top level {s.C.max_level}"
    if s.floors[level + 1] <= 0:
        return CLEAR, f"no unbuilt floor of level {level + 1} is left in the supply"
    if done >= s.C.limits["floors_per_temple"]:
        return CLEAR, f"at most {s.C.limits['floors_per_temple']} floors per temple per turn"
    if s.figures(seat, h) <= done:
        return CLEAR, "you need one of your EMs at the temple per floor cleared this turn"
    return None


def clear_ok(s: TikalState, seat: int, h: int, done: int) -> bool:
    """Whether :func:`clear_refusal` allows it (the same tests, without writing a refusal)."""
    level = s.level[h]
    i = seat * s.H + h
    return (s.guardian[h] < 0 and level < s.C.max_level and s.floors[level + 1] > 0
            and done < s.C.limits["floors_per_temple"] and s.explorers[i] + s.leaders[i] > done)


def unearth_refusal(s: TikalState, seat: int, h: int, done: int) -> Optional[Refusal]:
    """Rule 6 Unearth: tokens left, max 2 per Ruin per turn, one EM per token (A14)."""
    if not s.ruin.get(h):
        return UNEARTH, "that Ruin has no treasure left"
    if done >= s.C.limits["treasures_per_ruin"]:
        return UNEARTH, f"at most {s.C.limits['treasures_per_ruin']} treasures per Ruin per turn"
    if s.figures(seat, h) <= done:
        return UNEARTH, "you need one of your EMs on the Ruin per treasure unearthed this turn"
    return None


def unearth_ok(s: TikalState, seat: int, h: int, done: int) -> bool:
    """Whether :func:`unearth_refusal` allows it (the same tests, without writing a refusal)."""
    i = seat * s.H + h
    return (bool(s.ruin.get(h)) and done < s.C.limits["treasures_per_ruin"]
            and s.explorers[i] + s.leaders[i] > done)


def guardian_refusal(s: TikalState, seat: int, h: int) -> Optional[Refusal]:
    """Rule 6 Place a Guardian: fewer than 2 of yours out, temple not guarded, majority (A11)."""
    if s.guardians[seat] >= s.C.per_player["max_guardians"]:
        return GUARDIAN, f"you already have {s.C.per_player['max_guardians']} Guardians"
    if s.guardian[h] >= 0:
        return GUARDIAN, "that temple already has a Guardian"
    if s.majority(h) != seat:
        return GUARDIAN, ("you need the majority presence on the temple (Leader 3, Explorer 1, strictly more "
                          "than each other player)")
    return None


def guardian_ok(s: TikalState, seat: int, h: int) -> bool:
    """Whether :func:`guardian_refusal` allows it (the same tests, without writing a refusal)."""
    return (s.guardians[seat] < s.C.per_player["max_guardians"] and s.guardian[h] < 0
            and s.majority(h) == seat)


def trade_takes(s: TikalState, seat: int, merchant: bool = False) -> list:
    """Trades on offer: 1 or 2 tokens of one type T from one opponent, if you hold at least as
    many T as they do (A13), giving back as many tokens of other types. Merchant: 1-for-1, no
    condition (gap A16)."""
    T = len(s.C.treasure_types)
    mine = s.museum[seat * T:(seat + 1) * T]
    total = sum(mine)
    acts = []
    for o in range(s.num_players):
        if o == seat:
            continue
        for t in range(T):
            theirs = s.museum[o * T + t]
            if theirs == 0 or (not merchant and mine[t] < theirs):
                continue
            most = 1 if merchant else min(s.C.limits["trade_tokens"], theirs)
            for k in range(1, most + 1):
                if total - mine[t] >= k:
                    acts.append(make(Take, o, s.C.treasure_types[t], k))
    return acts


def can_trade(s: TikalState, seat: int) -> bool:
    """Whether :func:`trade_takes` offers anything (without building the list)."""
    T = len(s.C.treasure_types)
    museum = s.museum
    mine = museum[seat * T:(seat + 1) * T]
    total = sum(mine)
    for o in range(s.num_players):
        if o != seat:
            for t in range(T):
                theirs = museum[o * T + t]
                if theirs and mine[t] >= theirs and total - mine[t] >= 1:
                    return True
    return False


# ---------------------------------------------------------------------------- the AP turn
CLEAR, UNEARTH, GUARDIAN = "6: Clear a Temple Floor", "6: Unearth a Treasure", "6: Place a Guardian"
MOVE, DEPLOY, TRANSFER = "6: Move an EM", "6: Deploy a new EM", "6: Move an EM between Base Camps"
CAMP, RECRUIT, TRADE_RULE = "6: Set up a Base Camp", "6: Add to Available Supply", "6: Trade Treasures"
PERMANENT = "5: permanent cards"
#: the rule that gives the points of an AP turn, by its context
AP_ORIGINS = {"token": "6: AP actions", "alone": "5: permanent cards", "volcano": "8: In-Game Scoring",
              "final": "11: Final Scoring", "moves": "10: card moves-5", "scout": "9: Scout"}
AP_ACTIONS = (Deploy, Move, Transfer, Camp, Stone, Recruit, Clear, Guardian, Unearth, Trade, Use, End)


@mypyc_attr(native_class=False)
class ApTurn(TikalFrame):
    """Rule 6: spend action points on AP actions, then end (unspent AP are lost).

    ``ctx`` says what gave the ``points``: the AP token (``token``), a permanent card used
    alone (``alone``), a scoring's 10-AP turn (``volcano``, ``final``), card moves-5
    (``moves``: moves only) or the Scout (``scout``: moves and deploys); ``counts``: floors
    cleared and treasures unearthed per hex this turn (at most 2 each, gap A14).
    """

    __slots__ = ("ctx", "points", "counts", "ends_turn")
    kind = "ap"
    prompts = {"": "spend your AP on AP actions, or end"}

    def __init__(self, seat: int, ctx: str, points: int, ends_turn: bool = True) -> None:
        self.seat, self.ctx, self.points, self.ends_turn = seat, ctx, points, ends_turn
        self.counts: dict[int, int] = {}

    def rule_name(self) -> str:
        return AP_ORIGINS.get(self.ctx, "6: AP actions")

    def legal_actions(self, s: TikalState) -> list:
        acts: list = [END]
        if self.points > 0:
            spend_actions(s, self, acts)
        if self.ctx == "token":  # rule 5: permanent cards add AP when the AP token is used (A9), at any point
            bonus_actions(s, self.seat, acts)
        return acts

    def apply(self, s: TikalState, a: object) -> None:
        ap_apply(s, self, a)

    def why_illegal(self, s: TikalState, a: object) -> IllegalAction:
        if not isinstance(a, AP_ACTIONS):
            return self.refuse(f"now {self.prompt}", a)
        return refused(ap_refusal(s, self, a) or ("6: AP actions", "not possible now"), a)


def ap_refusal(s: TikalState, f: ApTurn, a: object) -> Optional[Refusal]:
    """Why the AP turn ``f`` refuses the AP action ``a`` (None: it may be bought now)."""
    seat, p, ctx, cost = f.seat, f.points, f.ctx, s.C.ap_costs
    if ctx in ("moves", SCOUT) and not isinstance(a, (Move, Transfer, Deploy, End)):
        return AP_ORIGINS[ctx], "these points only move (or deploy) EMs"
    if ctx == "moves" and isinstance(a, Deploy):
        return AP_ORIGINS[ctx], "the card's points move EMs; they do not deploy new ones"
    if isinstance(a, End):
        return None
    if isinstance(a, Use):
        if ctx != "token":
            return PERMANENT, "a permanent card adds AP only to an AP-token activation"
        if not any(s.C.cards[c].permanent and not s.down[c] and s.C.cards[c].name == a.card
                   for c in (s.left[seat] if a.kept else s.right[seat])):
            return PERMANENT, f"no face-up {a.card} on your campsite"
        return None
    if isinstance(a, Move):
        return move_refusal(s, seat, a, p)
    if isinstance(a, Deploy):
        supply = s.avail_explorers if a.figure == EXPLORER else s.avail_leaders
        if not supply[seat]:
            return DEPLOY, f"no {a.figure} in your Available Supply"
        if s.hex_index(a.hex) not in camp_hexes(s, seat):
            return DEPLOY, "new EMs go onto the Common Base Camp or one of your Base Camps"
        return afford(DEPLOY, "deploying", cost["deploy"], p)
    if isinstance(a, Transfer):
        camps = camp_hexes(s, seat)
        x, y = s.hex_index(a.from_hex), s.hex_index(a.to_hex)
        if x not in camps or y not in camps or x == y:
            return TRANSFER, "only between the Common Base Camp and yours, or two of yours"
        if not (s.explorers if a.figure == EXPLORER else s.leaders)[seat * s.H + x]:
            return TRANSFER, f"you have no {a.figure} on {a.from_hex}"
        return afford(TRANSFER, "a transfer", cost["transfer"], p)
    if isinstance(a, Camp):
        return camp_refusal(s, seat, a, cost["base_camp"], p)
    if isinstance(a, Recruit):
        supply = s.unavail_explorers if a.figure == EXPLORER else s.unavail_leaders
        if not supply[seat]:
            return RECRUIT, f"no {a.figure} left in your Unavailable Supply"
        return afford(RECRUIT, "it", cost["recruit_explorer" if a.figure == EXPLORER else "recruit_leader"], p)
    if isinstance(a, Clear):
        h = s.hex_index(a.hex)
        if s.kind[h] != TEMPLE:
            return CLEAR, f"{a.hex} is not a temple"
        return clear_refusal(s, seat, h, f.counts.get(h, 0)) or afford(CLEAR, "clearing", cost["clear_floor"], p)
    if isinstance(a, Guardian):
        h = s.hex_index(a.hex)
        if s.kind[h] != TEMPLE:
            return GUARDIAN, f"{a.hex} is not a temple"
        if not (s.explorers if a.figure == EXPLORER else s.leaders)[seat * s.H + h]:
            return guardian_refusal(s, seat, h) or (GUARDIAN, f"you have no {a.figure} there")
        return guardian_refusal(s, seat, h) or afford(GUARDIAN, "a Guardian", cost["guardian"], p)
    if isinstance(a, Unearth):
        h = s.hex_index(a.hex)
        if s.kind[h] != RUINS:
            return UNEARTH, f"{a.hex} is not a Ruin"
        return unearth_refusal(s, seat, h, f.counts.get(h, 0)) or afford(UNEARTH, "unearthing", cost["unearth"], p)
    if isinstance(a, Trade):
        if p < cost["trade"]:
            return afford(TRADE_RULE, "a trade", cost["trade"], p)
        if not trade_takes(s, seat):
            return TRADE_RULE, ("no opponent has a type of which you hold at least as many, "
                                "or you have nothing to give back")
        return None
    if isinstance(a, Stone):
        return afford("6: Place a Trail Stone", "it", cost["trail_stone"], p)
    return "6: AP actions", "not possible now"


def afford(rule: str, what: str, price: int, points: int) -> Optional[Refusal]:
    """Rule 6: an AP action costs its price in AP."""
    return None if points >= price else (rule, f"{what} costs {price} AP; you have {points}")


def move_refusal(s: TikalState, seat: int, a: Move, points: int) -> Optional[Refusal]:
    """Rule 6: to an adjacent hex across at least one Trail Stone, 1 AP per stone (A5)."""
    x, y = s.hex_index(a.from_hex), s.hex_index(a.to_hex)
    if not (s.explorers if a.figure == EXPLORER else s.leaders)[seat * s.H + x]:
        return MOVE, f"you have no {a.figure} on {a.from_hex}"
    e = edge_between(s, x, y)
    if e < 0:
        return MOVE, f"{a.from_hex} and {a.to_hex} are not adjacent"
    if s.cost[e] == 0:
        return MOVE, f"no Trail Stone on the edge between {a.from_hex} and {a.to_hex}: no passage"
    price = s.cost[e] * s.C.ap_costs["move_per_stone"]
    return None if price <= points else (MOVE, f"crossing costs {price} AP; you have {points}")


def camp_refusal(s: TikalState, seat: int, a: Camp, price: int = 0, points: int = 0) -> Optional[Refusal]:
    """Rule 6 / A20: onto a Clearing without a camp, paying ``price`` AP; from reserve, or
    moving one of yours when both are out (what :func:`camp_actions` offers)."""
    h = s.hex_index(a.hex)
    if s.kind[h] != CLEARING:
        return CAMP, f"{a.hex} is not a Clearing"
    if s.camp[h] != -1:
        return CAMP, f"{a.hex} already holds a Base Camp"
    if points < price:
        return afford(CAMP, "a Base Camp", price, points)
    reserve = s.C.per_player["base_camps"] - len(s.camps[seat])
    if (a.from_hex != "") if reserve > 0 else (not a.from_hex or s.hex_index(a.from_hex) not in s.camps[seat]):
        return CAMP, "place a camp from your reserve; move one only when both are out (A20)"
    return None


def spend_actions(s: TikalState, f: ApTurn, acts: list) -> None:
    """The AP actions (rule 6) the frame's points may buy, appended to ``acts``."""
    seat, p, ctx = f.seat, f.points, f.ctx
    general = ctx in GENERAL
    cost = s.C.ap_costs
    where = occupied(s, seat)
    if (general or ctx == SCOUT) and p >= cost["deploy"]:
        deploy_actions(s, seat, acts)
    move_actions(s, seat, p, acts, where)
    if p >= cost["transfer"]:
        transfer_actions(s, seat, acts)
    if not general:
        return
    T = tables(s.C)
    if p >= cost["base_camp"]:
        camp_actions(s, seat, acts)
    if p >= cost["trail_stone"]:
        acts.append(STONE)
    if p >= cost["recruit_explorer"] and s.unavail_explorers[seat]:
        acts.append(T.recruit_explorer)
    if p >= cost["recruit_leader"] and s.unavail_leaders[seat]:
        acts.append(T.recruit_leader)
    kinds = s.kind
    base = seat * s.H
    ex, ld = s.explorers, s.leaders
    can_clear, can_guard, can_dig = p >= cost["clear_floor"], p >= cost["guardian"], p >= cost["unearth"]
    counts = f.counts
    sites = s.temples_and_ruins
    for h in where:  # every temple and ruin action needs one of your EMs there
        if h not in sites:
            continue
        if kinds[h] == TEMPLE:
            if can_clear and clear_ok(s, seat, h, counts.get(h, 0)):
                acts.append(T.clear[h])
            if can_guard and guardian_ok(s, seat, h):
                if ex[base + h]:
                    acts.append(T.guardian_explorer[h])
                if ld[base + h]:
                    acts.append(T.guardian_leader[h])
        elif can_dig and unearth_ok(s, seat, h, counts.get(h, 0)):
            acts.append(T.unearth[h])
    if p >= cost["trade"] and can_trade(s, seat):
        acts.append(TRADE)


def bonus_actions(s: TikalState, seat: int, acts: list) -> None:
    """The face-up permanent cards (right or left) that may add their AP to the AP token."""
    use, down, permanent = tables(s.C).use, s.down, tables(s.C).permanent
    added: list = []  # the list had no Use action before
    for kept, cards in ((False, s.right[seat]), (True, s.left[seat])):
        for c in cards:
            if permanent[c] and not down[c]:
                u = use[c][kept]
                if not any(x is u for x in added):
                    added.append(u)
    acts += added


def edge_between(s: TikalState, a: int, b: int) -> int:
    B = s.C.board
    for i in range(a * 6, a * 6 + 6):
        if B.neighbour[i] == b:
            return B.edge[i]
    return -1


def move_figure(s: TikalState, seat: int, fig: str, a: int, b: int) -> None:
    arr = s.explorers if fig == EXPLORER else s.leaders
    arr[seat * s.H + a] -= 1
    arr[seat * s.H + b] += 1


def deploy_figure(s: TikalState, seat: int, fig: str, h: int) -> None:
    """From the Available Supply onto hex ``h``."""
    if fig == EXPLORER:
        s.avail_explorers[seat] -= 1
        s.explorers[seat * s.H + h] += 1
    else:
        s.avail_leaders[seat] -= 1
        s.leaders[seat * s.H + h] += 1


def set_camp(s: TikalState, seat: int, h: int, from_hex: int) -> None:
    """Set up a Base Camp on Clearing ``h`` (moving the one on ``from_hex`` if >= 0; A20)."""
    if from_hex >= 0:
        s.camps[seat].remove(from_hex)
        s.camp[from_hex] = -1
    s.camps[seat].append(h)
    s.camp[h] = seat


def place_guardian(s: TikalState, seat: int, h: int, fig: str) -> None:
    """Rule 6: the figure goes on top for good; the guarding player's other EMs there are
    removed from the game (option ``guardian_removal=all``: every colour's EMs)."""
    i = seat * s.H + h
    if fig == EXPLORER:
        s.explorers[i] -= 1
    else:
        s.leaders[i] -= 1
    s.guardian[h] = seat
    s.guardian_figure[h] = 0 if fig == EXPLORER else 1
    s.guardians[seat] += 1
    scope = range(s.num_players) if s.options.get("guardian_removal") == "all" else (seat,)
    for o in scope:
        j = o * s.H + h
        s.removed_explorers[o] += s.explorers[j]
        s.removed_leaders[o] += s.leaders[j]
        s.explorers[j] = s.leaders[j] = 0


def clear_floor(s: TikalState, h: int) -> None:
    """Take the unbuilt floor of value (top + 1) from the supply onto the temple."""
    s.level[h] += 1
    s.floors[s.level[h]] -= 1


def unearth(s: TikalState, seat: int, h: int) -> None:
    """The Ruin's top token goes face up into the museum."""
    t = s.ruin[h].pop()
    s.museum[seat * len(s.C.treasure_types) + t] += 1


def ap_apply(s: TikalState, f: ApTurn, a: object) -> None:
    seat = f.seat
    cost = s.C.ap_costs
    if isinstance(a, Move):  # the commonest first
        step = tables(s.C).move_step.get(id(a))  # an interned move (from a legal-action list)
        if step is None:
            x, y = s.hex_index(a.from_hex), s.hex_index(a.to_hex)
            e = edge_between(s, x, y)
        else:
            x, y, e = step
        f.points -= s.cost[e] * cost["move_per_stone"]
        move_figure(s, seat, a.figure, x, y)
    elif isinstance(a, End):
        end_ap_turn(s, f)
    elif isinstance(a, Deploy):
        f.points -= cost["deploy"]
        deploy_figure(s, seat, a.figure, s.hex_index(a.hex))
    elif isinstance(a, Transfer):
        f.points -= cost["transfer"]
        move_figure(s, seat, a.figure, s.hex_index(a.from_hex), s.hex_index(a.to_hex))
    elif isinstance(a, Camp):
        f.points -= cost["base_camp"]
        set_camp(s, seat, s.hex_index(a.hex), s.hex_index(a.from_hex) if a.from_hex else -1)
    elif isinstance(a, Stone):
        f.points -= cost["trail_stone"]
        start_stone(s, seat, ends_turn=False)
    elif isinstance(a, Recruit):
        recruit(s, seat, a.figure)
        f.points -= cost["recruit_explorer" if a.figure == EXPLORER else "recruit_leader"]
    elif isinstance(a, Clear):
        h = s.hex_index(a.hex)
        f.points -= cost["clear_floor"]
        f.counts = count_up(f.counts, h)
        clear_floor(s, h)
    elif isinstance(a, Guardian):
        f.points -= cost["guardian"]
        place_guardian(s, seat, s.hex_index(a.hex), a.figure)
    elif isinstance(a, Unearth):
        h = s.hex_index(a.hex)
        f.points -= cost["unearth"]
        f.counts = count_up(f.counts, h)
        unearth(s, seat, h)
    elif isinstance(a, Trade):
        f.points -= cost["trade"]
        push(s, TreasureTrade(seat, ""))
    elif isinstance(a, Use):
        c = first_card(s, s.left[seat] if a.kept else s.right[seat], a.card, prefer_up=True)
        s.down[c] = True
        f.points += int(s.C.cards[c].params["ap"])


def recruit(s: TikalState, seat: int, fig: str, count: int = 1) -> None:
    """From the Unavailable to the Available Supply."""
    if fig == EXPLORER:
        s.unavail_explorers[seat] -= count
        s.avail_explorers[seat] += count
    else:
        s.unavail_leaders[seat] -= count
        s.avail_leaders[seat] += count


def end_ap_turn(s: TikalState, f: ApTurn) -> None:
    """Unspent AP are lost. A scoring turn is followed by that player's scoring (rule 8)."""
    s.stack.pop()
    if f.ctx in SPECIAL_TURNS:
        score_now(s, f.seat)
        finish_scoring_turn(s)
    elif f.ends_turn:
        end_turn(s)


# ============================================================================ Trail Stone tokens
def start_stone(s: TikalState, seat: int, ends_turn: bool) -> None:
    """Place a token from the supply; with none left, move one already on the board (rule 6, A7)."""
    step = "hex" if s.stone_supply > 0 else "token"
    push(s, StonePlacement(seat, step, ends_turn))


def placed_tokens(s: TikalState) -> list[int]:
    return [e for e, n in enumerate(s.tokens) if n > 0]


STONE_RULE = "6: Place a Trail Stone"


def stone_hexes(s: TikalState, moving: int) -> list:
    """``at HEX`` for every hex with an edge other than ``moving`` (the board's, built once)."""
    T = tables(s.C)
    acts = T.stone_hexes.get(moving)
    if acts is None:  # a hex with two distinct edges, or one that is not ``moving``
        acts = T.stone_hexes[moving] = [T.at[h] for h, edges in enumerate(T.hex_edges)
                                        if len(edges) > 1 or (edges and moving not in edges)]
    return acts


@mypyc_attr(native_class=False)
class StonePlacement(TikalFrame):
    """Rule 6 / A7: place a Trail Stone token on an edge: first the token to move when
    both are on the board (step ``token``: ``moving`` is its edge), then the ``hex``, then
    its side."""

    __slots__ = ("step", "moving", "hex", "ends_turn")
    kind = "stone"
    rule = STONE_RULE
    prompts = {"token": "both Trail Stone tokens are on the board: choose the one to move",
               "hex": "choose the hex whose edge gets the Trail Stone",
               "side": "choose the side of that hex for the Trail Stone"}

    def __init__(self, seat: int, step: str, ends_turn: bool) -> None:
        self.seat, self.step, self.ends_turn = seat, step, ends_turn
        self.moving, self.hex = -1, -1

    def targets(self) -> tuple[list[int], list[int], list[int], list[int]]:
        return ([self.hex] if self.step == "side" else []), [], ([self.moving] if self.moving >= 0 else []), []

    def legal_actions(self, s: TikalState) -> list:
        B = s.C.board
        if self.step == "token":
            return [make(Token, B.hexes[B.edge_ends[e][0]].name, SIDES[B.edge_ends[e][1]])
                    for e in placed_tokens(s)]
        if self.step == "hex":
            return list(stone_hexes(s, self.moving))
        h = self.hex
        return [make(Side, SIDES[d]) for d in range(6)
                if B.edge[h * 6 + d] >= 0 and B.edge[h * 6 + d] != self.moving]

    def apply(self, s: TikalState, a: object) -> None:
        B = s.C.board
        if isinstance(a, Token):
            self.moving = B.edge[s.hex_index(a.hex) * 6 + SIDES.index(a.side)]
            self.step = "hex"
        elif isinstance(a, At):
            self.hex = s.hex_index(a.hex)
            self.step = "side"
        elif isinstance(a, Side):
            e = B.edge[self.hex * 6 + SIDES.index(a.side)]
            if self.moving >= 0:
                s.tokens[self.moving] -= 1
                s._recost(self.moving)
            else:
                s.stone_supply -= 1
            s.tokens[e] += 1
            s._recost(e)
            finish(s, self)

    def why_illegal(self, s: TikalState, a: object) -> IllegalAction:
        if not isinstance(a, (At, Side, Token)):
            return self.refuse(f"now {self.prompt}", a)
        if isinstance(a, Token):
            why = "choose a Trail Stone token that is on the board (as listed: the hex and side it was placed on)"
        elif self.step == "token":
            why = "both tokens are on the board: first choose the one to move ('token HEX SIDE')"
        elif isinstance(a, Side) and self.step == "side":
            why = f"side {a.side} of {s.hex_name(self.hex)} is the board's edge (or where the token already is)"
        elif self.step == "side":
            why = f"choose a side: {' '.join(SIDES)}"
        else:
            why = "choose a hex of the board ('at HEX')"
        return self.refuse(why, a)


# ============================================================================ 7. Terrain tiles
def distinct_rotations(s: TikalState, t: int) -> list[int]:
    tile = s.C.tiles[t]
    seen, turns = set(), []
    for k in range(6):
        r = tile.rotated(k)
        if r not in seen:
            seen.add(r)
            turns.append(k)
    return turns


def place_tile(s: TikalState, t: int, h: int, turns: int) -> None:
    """Lay tile ``t`` on hex ``h``; EMs and tokens there end up on it (rule 7)."""
    tile = s.C.tiles[t]
    was = s.kind[h]
    s.kind[h] = KIND_OF_TYPE[tile.type]
    s.tile_on[h] = t
    s.rot[h] = turns
    if tile.type == "temple":
        s.level[h] = s.base_level[h] = tile.value
    elif tile.type == "ruins":
        s.masks[h] = tile.masks
        s.ruin[h] = [s.green.pop() for _ in range(min(tile.masks, len(s.green)))]  # A18
    elif tile.type == "volcano" and s.volcano_supply > 0:
        s.volcano_supply -= 1  # a 3D volcano goes on it
    T = tables(s.C)
    stones = T.stones.get((t, turns))
    if stones is None:
        stones = T.stones[(t, turns)] = tile.rotated(turns)
    s._print_stones(h, stones)
    s._reindex_hex(h, was)


TILE_RULE = "7: Playing a terrain tile"


@mypyc_attr(native_class=False)
class TilePlacement(TikalFrame):
    """Rule 7: choose a Jungle ``hex`` for ``tile`` (non-dotted for a campsite tile, dotted
    for a symbol tile of cards 16-18: ``ctx`` ``campsite`` or ``card``), then its rotation."""

    __slots__ = ("ctx", "step", "tile", "hex")
    kind = "tile"
    rule = TILE_RULE
    prompts = {"hex": "choose the hex for the tile", "rotation": "choose the rotation of the tile"}

    def __init__(self, seat: int, ctx: str, tile: int) -> None:
        self.seat, self.ctx, self.step, self.tile, self.hex = seat, ctx, "hex", tile, -1

    def targets(self) -> tuple[list[int], list[int], list[int], list[int]]:
        return ([self.hex] if self.step == "rotation" else []), [self.tile], [], []

    def legal_actions(self, s: TikalState) -> list:
        if self.step == "hex":
            at = tables(s.C).at
            return [at[h] for h in free_hexes(s, dotted=self.ctx == "card")]
        T = tables(s.C)
        acts = T.rotations.get(self.tile)
        if acts is None:
            acts = T.rotations[self.tile] = [make(Rotate, k) for k in distinct_rotations(s, self.tile)]
        return list(acts)

    def apply(self, s: TikalState, a: object) -> None:
        if isinstance(a, At):
            self.hex = s.hex_index(a.hex)
            self.step = "rotation"
            return
        assert isinstance(a, Rotate)
        place_tile(s, self.tile, self.hex, a.turns)
        if self.ctx == "card":
            s.symbol_supply.remove(self.tile)
        else:
            s.camp_tiles[self.seat].remove(self.tile)
        if self.ctx == "campsite" and s.kind[self.hex] == VOLCANO:
            s.stack.pop()  # rule 7: a Volcano from a campsite triggers an In-Game Scoring
            start_volcano_scoring(s, self.seat)
        else:
            finish(s, self)

    def why_illegal(self, s: TikalState, a: object) -> IllegalAction:
        if not isinstance(a, (At, Rotate)):
            return self.refuse(f"now {self.prompt}", a)
        if isinstance(a, At) and self.step == "hex":
            h = s.hex_index(a.hex)
            if s.kind[h] != JUNGLE:
                why = f"{a.hex} is not Jungle: a tile goes on an empty hex"
            elif self.ctx == "card":
                why = "a symbol tile goes on a dotted border hex"
            else:
                why = "a terrain tile from the campsite may not go on a dotted border hex"
        elif self.step == "hex":
            why = "choose the hex first ('at HEX')"
        else:
            why = "choose a rotation 'rotate 0'..'rotate 5' (rotations that look the same are listed once)"
        return self.refuse(why, a)


# ============================================================================ small shared frames
@mypyc_attr(native_class=False)
class KeepDiscard(TikalFrame):
    """Rule 5.1: the kept spaces are full: discard a card on the left (even a permanent one),
    then the card ``keeping`` moves left."""

    __slots__ = ("keeping",)
    kind = "discard"
    rule = "5.1: Move an action card"
    prompts = {"": "your kept cards are full: choose one to discard"}

    def __init__(self, seat: int, keeping: int) -> None:
        self.seat, self.keeping = seat, keeping

    def targets(self) -> tuple[list[int], list[int], list[int], list[int]]:
        return [], [], [], [self.keeping]

    def legal_actions(self, s: TikalState) -> list:
        return [make(Discard, name) for name in distinct_names(s, s.left[self.seat])]

    def apply(self, s: TikalState, a: object) -> None:
        seat = self.seat
        assert isinstance(a, Discard)
        c = first_card(s, s.left[seat], a.card, prefer_up=False)
        s.left[seat].remove(c)
        discard_card(s, c)
        s.right[seat].remove(self.keeping)
        s.left[seat].append(self.keeping)
        finish(s, self)


@mypyc_attr(native_class=False)
class TreasureTrade(TikalFrame):
    """Rule 6 Trade Treasures (``ctx`` ``merchant``: the Merchant power): take tokens of one
    type from an opponent (step ``take``), then give back as many of other types (``give``:
    ``left`` to give, to ``from_player``; ``treasure`` is the type taken)."""

    __slots__ = ("ctx", "step", "from_player", "treasure", "left")
    kind = "trade"
    ends_turn = False
    prompts = {"take": "choose the treasures to take", "give": "choose a treasure to give"}

    def __init__(self, seat: int, ctx: str) -> None:
        self.seat, self.ctx, self.step = seat, ctx, "take"
        self.from_player, self.treasure, self.left = -1, -1, 0

    def rule_name(self) -> str:
        return "9: Merchant" if self.ctx == "merchant" else TRADE_RULE

    def legal_actions(self, s: TikalState) -> list:
        if self.step == "take":
            return trade_takes(s, self.seat, merchant=self.ctx == "merchant")
        T = len(s.C.treasure_types)
        return [make(Give, s.C.treasure_types[t]) for t in range(T)
                if t != self.treasure and s.museum[self.seat * T + t] > 0]

    def apply(self, s: TikalState, a: object) -> None:
        T = len(s.C.treasure_types)
        if isinstance(a, Take):
            t = s.C.treasure_types.index(a.treasure)
            s.museum[a.player * T + t] -= a.count
            s.museum[self.seat * T + t] += a.count
            self.from_player, self.treasure = a.player, t
            self.left = a.count
            self.step = "give"
            return
        assert isinstance(a, Give)
        t = s.C.treasure_types.index(a.treasure)
        s.museum[self.seat * T + t] -= 1
        s.museum[self.from_player * T + t] += 1
        self.left -= 1
        if self.left == 0:
            finish(s, self)

    def why_illegal(self, s: TikalState, a: object) -> IllegalAction:
        if not isinstance(a, (Take, Give)):
            return self.refuse(f"now {self.prompt}", a)
        if self.step == "give" and isinstance(a, Take):
            why = "now choose what to give back ('give TYPE')"
        elif self.step == "take" and isinstance(a, Give):
            why = "first choose what to take ('take COLOUR TYPE COUNT')"
        elif isinstance(a, Give):
            why = "give a type you hold, other than the one you take"
        elif a.player == self.seat or not 0 <= a.player < s.num_players:
            why = "take from an opponent"
        elif self.ctx == "merchant":
            why = "the Merchant swaps one token of a type the opponent holds, for one of another type of yours"
        else:
            why = ("take 1 or 2 tokens of one type that the opponent holds, of which you hold at least as many, "
                   "and have as many tokens of other types to give back (A13)")
        return self.refuse(why, a)

"""Conservation laws of Tikal Legend, checked after every move by the property tests.

Every component is somewhere exactly once: EMs (available, unavailable, on the board, as
Guardians, removed), Base Camps, temple floors (supply + cleared), treasures (face-down
supply, ruins, museums, blue pairs), action cards, terrain tiles, AP tokens, Trail Stone
tokens and 3D volcanoes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from collections import Counter

from .model import HIDDEN, JUNGLE, TEMPLE, VOLCANO, index_kinds

if TYPE_CHECKING:
    from .state import TikalState


def _figures(s: TikalState, problems: list[str]) -> None:
    pp, H = s.C.per_player, s.H
    for seat in range(s.num_players):
        on_board_e = sum(s.explorers[seat * H:(seat + 1) * H])
        on_board_l = sum(s.leaders[seat * H:(seat + 1) * H])
        guard_e = sum(1 for h in range(H) if s.guardian[h] == seat and s.guardian_figure[h] == 0)
        guard_l = sum(1 for h in range(H) if s.guardian[h] == seat and s.guardian_figure[h] == 1)
        e = s.avail_explorers[seat] + s.unavail_explorers[seat] + on_board_e + guard_e + s.removed_explorers[seat]
        l_ = s.avail_leaders[seat] + s.unavail_leaders[seat] + on_board_l + guard_l + s.removed_leaders[seat]
        if e != pp["explorers"] or l_ != pp["leaders"]:
            problems.append(f"seat {seat}: {e} explorers and {l_} leaders accounted for")
        counts = (s.avail_explorers[seat], s.unavail_explorers[seat], s.avail_leaders[seat], s.unavail_leaders[seat])
        if min(counts) < 0 or min(s.explorers[seat * H:(seat + 1) * H] + s.leaders[seat * H:(seat + 1) * H]) < 0:
            problems.append(f"seat {seat}: a negative figure count")
        if guard_e + guard_l != s.guardians[seat] or s.guardians[seat] > pp["max_guardians"]:
            problems.append(f"seat {seat}: guardian count {s.guardians[seat]} is wrong")
        owned = [h for h in range(H) if s.camp[h] == seat]
        if sorted(owned) != sorted(s.camps[seat]) or len(owned) > pp["base_camps"]:
            problems.append(f"seat {seat}: base camps {s.camps[seat]} vs board {owned}")


def _floors(s: TikalState, problems: list[str]) -> None:
    used = [0] * len(s.floors)
    for h in range(s.H):
        if s.kind[h] == TEMPLE:
            for level in range(s.base_level[h] + 1, s.level[h] + 1):
                used[level] += 1
    if [a + b for a, b in zip(s.floors, used)] != list(s.C.floors):
        problems.append(f"temple floors not conserved: supply {s.floors} + cleared {used}")


def _treasures(s: TikalState, problems: list[str]) -> None:
    T = len(s.C.treasure_types)
    per_type = s.C.green_per_type + s.C.blue_per_type
    hidden = len(s.green) + sum(len(st) for st in s.ruin.values())
    known = Counter(t for t in s.green if t != HIDDEN)
    for st in s.ruin.values():
        known.update(t for t in st if t != HIDDEN)
    unknown_total = 0
    for t in range(T):
        seen = sum(s.museum[o * T + t] for o in range(s.num_players)) + s.blue[t]
        if min(s.museum[o * T + t] for o in range(s.num_players)) < 0:
            problems.append(f"a museum holds a negative number of {s.C.treasure_types[t]}")
        if s.viewer is None and seen + known[t] != per_type:
            problems.append(f"treasure {s.C.treasure_types[t]}: {seen + known[t]} of {per_type}")
        unknown_total += per_type - seen
    if unknown_total != hidden:
        problems.append(f"{hidden} face-down treasures where {unknown_total} are unaccounted for")


def _cards(s: TikalState, problems: list[str]) -> None:
    places = s.deck + s.display + s.discard + s.box
    for seat in range(s.num_players):
        places += s.right[seat] + s.left[seat]
    known = sorted(c for c in places if c != HIDDEN)
    deck = sorted(s.C.cards_for(s.num_players))
    if len(places) != len(deck) or len(set(known)) != len(known) or not set(known) <= set(deck):
        problems.append(f"action cards not conserved ({len(places)} of {len(deck)})")
    if len(s.display) > s.C.display_cards:
        problems.append("more cards on display than spaces")
    if any(s.down[c] and not s.C.cards[c].permanent for c in range(len(s.down))):
        problems.append("a non-permanent card is face down")


def _tiles(s: TikalState, problems: list[str]) -> None:
    places = [t for p in s.piles.values() for t in p] + s.tile_display + s.symbol_supply + s.unused_tiles + s.tiles_out
    for seat in range(s.num_players):
        places += s.camp_tiles[seat]
    places += [t for t in s.tile_on if t >= 0]
    known = [t for t in places if t != HIDDEN]
    if len(places) != len(s.C.tiles) or len(set(known)) != len(known):
        problems.append(f"terrain tiles not conserved ({len(places)} of {len(s.C.tiles)})")
    for h in range(s.H):
        if (s.tile_on[h] >= 0) and s.kind[h] == JUNGLE:
            problems.append(f"hex {s.hex_name(h)} holds a tile but is Jungle")
    if (s.hexes_by_kind, s.temples_and_ruins) != index_kinds(s.kind):
        problems.append("the hexes-by-kind index is out of date (call refresh after writing kind)")
    volcanoes = sum(1 for h in range(s.H) if s.kind[h] == VOLCANO)
    if volcanoes + s.volcano_supply != s.C.volcanoes_3d:
        problems.append(f"3D volcanoes: {volcanoes} on the board + {s.volcano_supply} spare")


def _ap_and_stones(s: TikalState, problems: list[str]) -> None:
    tokens = s.bag + s.ap_removed + s.ap_display + s.ap_used + [v for v in s.ap_token if v]
    known = Counter(v for v in tokens if v != HIDDEN)
    if len(tokens) != len(s.C.ap_tokens) or known - Counter(s.C.ap_tokens):
        problems.append(f"AP tokens not conserved ({len(tokens)} of {len(s.C.ap_tokens)})")
    if s.stone_supply + sum(s.tokens) != s.C.trail_stone_tokens or s.stone_supply < 0:
        problems.append(f"Trail Stone tokens: {s.stone_supply} + {sum(s.tokens)} placed")
    for e, (a, sa, b, sb) in enumerate(s.C.board.edge_ends):
        if s.cost[e] != s.printed[a * 6 + sa] + s.printed[b * 6 + sb] + s.tokens[e]:
            problems.append(f"edge {e} cost out of date")
            break


def broken_invariants(s: TikalState) -> list[str]:
    problems: list[str] = []
    _figures(s, problems)
    _floors(s, problems)
    _treasures(s, problems)
    _cards(s, problems)
    _tiles(s, problems)
    _ap_and_stones(s, problems)
    return problems

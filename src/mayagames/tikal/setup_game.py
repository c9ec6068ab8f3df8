"""Setup (rule 2): a new Tikal Legend game for 1 (solo variant) to 4 players."""

from __future__ import annotations

from typing import Any

from .data import DRAWN_LETTERS, Components
from .flow import draw_tiles, place_tile, refill_display
from .state import TikalState


def new_tikal_game(num_players: int, seed: int, options: dict[str, Any],
                   components: Components | None = None) -> TikalState:
    """Set up a game: rule 2, steps 1-11, with the counts of ``components.json``."""
    s = TikalState(num_players, seed, options, components)
    rng, C, rules = s.rng, s.C, s.setup_rules
    rng.shuffle(s.green)  # 2.8: green-back treasures face down
    for fixed in C.board.fixed_tiles:  # 2.5, 2.7, 2.8: F and G tiles, 3D volcanoes, 2 treasures per Ruin
        place_tile(s, fixed.tile, fixed.hex, fixed.rotation)
        s.tile_on[fixed.hex] = fixed.tile
    rng.shuffle(s.deck)  # 2.2: shuffle the (2-player or full) deck, deal 10 face up
    refill_display(s)
    rng.shuffle(s.bag)  # 2.3: with 2 players 12 tokens leave unseen; draw one per player
    s.ap_removed = [s.bag.pop() for _ in range(rules["ap_removed"])]
    s.ap_display = [s.bag.pop() for _ in range(rules["ap_drawn"])]
    for letter in DRAWN_LETTERS:  # 2.4: each letter pile shuffled; tiles drawn in letter order
        rng.shuffle(s.piles[letter])
    draw_tiles(s)
    tiles = list(range(len(C.directors)))  # 2.10: a random Museum Director per player
    rng.shuffle(tiles)
    s.director = tiles[:num_players]
    first = rng.randbelow(num_players)  # 2.11: random first player, then clockwise
    s.order = [(first + i) % num_players for i in range(num_players)]
    literal = options.get("starting_prestige", "turn_order") == "turn_order"
    for position, seat in enumerate(s.order):  # A4: prestige markers on spaces 1, 2, 3, 4
        s.pp[seat] = C.starting_prestige[position] if literal else 0
    s.start_order = tuple(s.order)
    s.turn = s.order[0]
    return s

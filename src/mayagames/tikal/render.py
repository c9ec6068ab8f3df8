"""A readable text picture of a Tikal Legend view (Rich markup).

The site board is drawn as rows of hexes (odd rows shifted by half a hex). Each hex shows
its name and terrain, the EMs of each colour, and camps, Guardians or treasures. The AP cost
to cross each edge is drawn on the edge: a digit is the number of Trail Stones (printed on
both sides plus tokens), ``-`` means no passage. Below the board: turn order, each player's
campsite and museum, the items on offer, the supplies and the open question.
"""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from .actions import COLOURS
from .data import SIDES
from .scoring import score_breakdown
from .serialize import prompt
from .state import (BASE_CAMP, CLEARING, COMMON, JUNGLE, LAKE, PHASE_NAMES, RUINS, TEMPLE, VOLCANO,
                    TikalState)

CELL = 12  # characters per hex (even)
HALF = CELL // 2
STYLE = {0: "red", 1: "blue", 2: "yellow", 3: "green"}
KIND_STYLE = {TEMPLE: "bold magenta", VOLCANO: "bold red", LAKE: "cyan", RUINS: "bold yellow",
              CLEARING: "green", BASE_CAMP: "bold white", JUNGLE: "dim"}


class Canvas:
    """A grid of (character, style) cells, written out as Rich markup."""

    def __init__(self, width: int, height: int) -> None:
        self.cells = [[(" ", "")] * width for _ in range(height)]

    def put(self, x: int, y: int, text: str, style: str = "") -> None:
        row = self.cells[y]
        for i, ch in enumerate(text):
            if 0 <= x + i < len(row):
                row[x + i] = (ch, style)

    def markup(self) -> str:
        lines = []
        for row in self.cells:
            out, run, style = [], "", None
            for ch, st in row + [("", "END")]:
                if st != style:
                    if run:
                        out.append(f"[{style}]{escape(run)}[/]" if style else escape(run))
                    run, style = "", st
                run += ch
            lines.append("".join(out).rstrip())
        return "\n".join(lines)


def terrain_label(s: TikalState, h: int) -> str:
    k = s.kind[h]
    if k == TEMPLE:
        label = f"T{s.level[h]}"
        return label + (f" G{COLOURS[s.guardian[h]][0]}" if s.guardian[h] >= 0 else "")
    if k == RUINS:
        return f"R{s.masks[h]}:{len(s.ruin.get(h, []))}"
    if k == JUNGLE:
        return "::" if s.C.board.hexes[h].dotted else "~"
    return {VOLCANO: "V", LAKE: "L", CLEARING: "C", BASE_CAMP: "BC"}[k]


def _positions(s: TikalState) -> dict[int, tuple[int, int]]:
    """Hex -> (x, row) on the canvas, from axial coordinates (odd rows shifted right)."""
    cols = {}
    for hd in s.C.board.hexes:
        cols[hd.index] = (hd.q + (hd.r - (hd.r & 1)) // 2, hd.r)
    min_c = min(c for c, _ in cols.values())
    min_r = min(r for _, r in cols.values())
    return {h: ((c - min_c) * CELL + ((r & 1) * HALF), r - min_r) for h, (c, r) in cols.items()}


# where each side's mark goes, relative to the hex's top-left: (dy, dx, wall character)
SIDE_MARKS = {0: (-1, 9, "\\"), 1: (1, CELL, "|"), 2: (3, 9, "/"), 3: (3, 3, "\\"), 4: (1, 0, "|"),
              5: (-1, 3, "/")}


def _edge_mark(s: TikalState, h: int, side: int) -> tuple[str, str]:
    """The AP to cross (a digit), or a wall where there is no passage or no neighbour."""
    e = s.C.board.edge[h * 6 + side]
    c = s.cost[e] if e >= 0 else 0
    return (str(c), "bold") if c else (SIDE_MARKS[side][2], "dim")


def draw_board(s: TikalState) -> str:
    pos = _positions(s)
    width = max(x for x, _ in pos.values()) + CELL + 2
    height = (max(r for _, r in pos.values()) + 1) * 4 + 1
    cv = Canvas(width, height)
    for h, (x, row) in pos.items():
        y = row * 4 + 1
        _draw_hex(s, cv, h, x, y)
        for side, (dy, dx, wall) in SIDE_MARKS.items():
            mark, style = _edge_mark(s, h, side)
            cv.put(x + dx, y + dy, mark, style)
            if wall == "|":  # vertical sides: a wall on all three lines, or an opening
                for extra in (0, 2):
                    cv.put(x + dx, y + extra, "|" if mark == "|" else " ", "dim")
    return cv.markup()


def ems_text(s: TikalState, seat: int, h: int) -> str:
    """``r2``: 2 red Explorers; ``R2``: a red Leader and 2 Explorers; ``RR``: two Leaders."""
    i = seat * s.H + h
    e, ld = s.explorers[i], s.leaders[i]
    if not (e or ld):
        return ""
    letter = COLOURS[seat][0]
    return (letter.upper() * ld if ld else letter) + (str(e) if e else "")


def _draw_hex(s: TikalState, cv: Canvas, h: int, x: int, y: int) -> None:
    k = s.kind[h]
    name = s.hex_name(h)
    cv.put(x + 2, y, name, "dim")
    cv.put(x + 3 + len(name), y, terrain_label(s, h), KIND_STYLE[k])
    parts = [(ems_text(s, seat, h), STYLE[seat]) for seat in range(s.num_players)]
    parts = [(text, style) for text, style in parts if text]
    gap = 1 if sum(len(t) + 1 for t, _ in parts) <= CELL - 1 else 0
    col = x + 2
    for text, style in parts:
        cv.put(col, y + 1, text, style)
        col += len(text) + gap
    camp = s.camp[h]
    if camp == COMMON:
        cv.put(x + 2, y + 2, "common", "bold white")
    elif camp >= 0:
        cv.put(x + 2, y + 2, f"camp {COLOURS[camp][0]}", STYLE[camp])
    elif k == TEMPLE and s.guardian[h] >= 0:
        cv.put(x + 2, y + 2, f"guard {COLOURS[s.guardian[h]][0]}", STYLE[s.guardian[h]])


def tile_text(s: TikalState, t: int) -> str:
    tile = s.C.tiles[t]
    kind = {"temple": f"temple {tile.value}", "ruins": f"ruins {tile.masks} masks"}.get(tile.type, tile.type)
    stones = " ".join(f"{SIDES[i]}{n}" for i, n in enumerate(tile.stones))
    return f"{tile.id.lower()} {kind} [{stones}]"


def _seat(seat: int) -> str:
    return f"[{STYLE[seat]}]{COLOURS[seat]}[/]"


def _cards(s: TikalState, cards: list[int]) -> str:
    return ", ".join(s.card_name(c) + (" (used)" if s.down[c] else "") for c in cards) or "-"


def _player_lines(s: TikalState, seat: int) -> list[str]:
    T = len(s.C.treasure_types)
    director = s.C.directors[s.director[seat]]
    museum = ", ".join(f"{s.C.treasure_types[t]} {n}" for t in range(T)
                       if (n := s.museum[seat * T + t])) or "empty"
    used = s.power_used[seat] or "unused"
    now = score_breakdown(s, seat)
    tiles = "; ".join(tile_text(s, t) for t in s.camp_tiles[seat]) or "-"
    space = s.next_order.index(seat) + 1 if seat in s.next_order else "-"
    return [
        f"{_seat(seat)}: [bold]{s.pp[seat]} PP[/bold] (a scoring now: +{now['total']})"
        + ("  [dim]passed[/dim]" if s.phase == 1 and s.passed[seat] else ""),
        f"   supply: {s.avail_explorers[seat]} explorers {s.avail_leaders[seat]} leader(s) available, "
        f"{s.unavail_explorers[seat]}+{s.unavail_leaders[seat]} unavailable; camps "
        f"{', '.join(s.hex_name(h) for h in s.camps[seat]) or '-'} "
        f"({s.C.per_player['base_camps'] - len(s.camps[seat])} in reserve); guardians {s.guardians[seat]}",
        f"   campsite: statuette {space}, AP token {s.ap_token[seat] or '-'}, tiles {escape(tiles)}",
        f"   cards new: {_cards(s, s.right[seat])} | kept: {_cards(s, s.left[seat])}",
        f"   museum: {museum} | director {director.name} ({', '.join(director.powers)}): {used}",
    ]


def _offer_lines(s: TikalState) -> list[str]:
    types = s.C.treasure_types
    floors = " ".join(f"{lv}:{s.floors[lv]}" for lv in range(2, len(s.floors)))
    blue = ", ".join(t for i, t in enumerate(types) if s.blue[i]) or "none"
    return [
        f"cards on display: {', '.join(s.card_name(c) for c in s.display) or '-'} "
        f"[dim](deck {len(s.deck)}, discard {len(s.discard)})[/dim]",
        f"AP tokens on offer: {', '.join(map(str, sorted(s.ap_display))) or '-'} [dim](bag {len(s.bag)})[/dim]",
        f"tiles on offer: {escape('; '.join(tile_text(s, t) for t in s.tile_display)) or '-'} "
        f"[dim](piles {' '.join(f'{k}:{len(p)}' for k, p in s.piles.items())})[/dim]",
        f"supply: floors {floors}; Trail Stone tokens {s.stone_supply}; blue pairs {blue}; "
        f"symbol tiles {len(s.symbol_supply)}",
    ]


def _pending_lines(s: TikalState) -> list[str]:
    if not s.stack:
        return []
    f = s.stack[-1]
    line = f"{_seat(f.seat)}: {escape(prompt(f))}"
    if f.kind == "ap":
        line += f" - [bold]{f.points} AP[/bold] left ({f.ctx})"
    lines = [line]
    if f.kind == "tile":
        lines.append("   tile " + escape(tile_text(s, f.a)) + " (stones per side, printed orientation)")
        if f.step == "rotation":
            tile = s.C.tiles[f.a]
            from .rules import distinct_rotations
            for k in distinct_rotations(s, f.a):
                rotated = tile.rotated(k)
                lines.append(f"   rotate {k}: " + " ".join(f"{SIDES[i]}{n}" for i, n in enumerate(rotated)))
    return lines


def render(state: Any, seat: int | None) -> str:
    s: TikalState = state
    rounds = s.setup_rules["rounds"]
    whose = s.current_player
    head = (f"[bold]Tikal Legend[/bold] - round {s.round}/{rounds} - {PHASE_NAMES[s.phase].replace('_', ' ')}"
            + (f" - {_seat(whose)} to play" if whose is not None else ""))
    order = " ".join(COLOURS[x] for x in s.order)
    nxt = " ".join(COLOURS[x] if x >= 0 else "_" for x in s.next_order)
    lines = [head, draw_board(s),
             "[dim]T5 temple level 5 (Gr: red Guardian), R3:2 ruins of 3 masks with 2 treasures, V volcano, "
             "L lake, C clearing, BC base camp, ~ jungle, :: dotted jungle; r2 = 2 red explorers, "
             "R2 = red leader + 2 explorers; a digit on an edge = AP to cross it, a wall = no passage[/dim]",
             f"turn order: {order} | next round: {nxt}"]
    for p in range(s.num_players):
        lines += _player_lines(s, p)
    lines += _offer_lines(s)
    if s.scoring_kind:
        waiting = ", ".join(COLOURS[x] for x in s.scoring_queue) or "-"
        lines.append(f"[bold]{s.scoring_kind} scoring[/bold]: still to play {waiting}")
    lines += _pending_lines(s)
    return "\n".join(lines)

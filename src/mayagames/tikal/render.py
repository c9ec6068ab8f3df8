"""A readable text picture of a Tikal Legend view (Rich markup).

The site board is drawn as rows of hexes (odd rows shifted by half a hex). Each hex shows
its name and terrain, the EMs of each colour, and camps, Guardians or treasures. The AP cost
to cross each edge is drawn on the edge: a digit is the number of Trail Stones (printed on
both sides plus tokens), a wall means no passage. Below the board: turn order, each player's
campsite and museum, the items on offer, the supplies and the open question.

Colour helps but is never needed: terrain labels (``T5``, ``R3:2``, ``V``, ``L``, ``C``, ``BC``)
are drawn on a background of their own (temples magenta, volcanoes orange, lakes cyan, ruins
brown, clearings pale green) and EMs as bold letters in their player's colour (``r2``, ``B1``),
so the picture reads the same in black and white. Every line fits in :data:`WIDTH` columns.
"""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from .actions import COLOURS
from .data import SIDES
from .scoring import score_breakdown
from .flow import TilePlacement, distinct_rotations
from .serialize import prompt
from .state import (BASE_CAMP, CLEARING, COMMON, JUNGLE, LAKE, PHASE_NAMES, RUINS, TEMPLE, VOLCANO,
                    TikalState)

CELL = 12  # characters per hex (even)
HALF = CELL // 2
WIDTH = 128  # every line of the picture fits (the terminal is asked for ~130 columns)
STYLE = {0: "bold bright_red", 1: "bold bright_blue", 2: "bold bright_yellow", 3: "bold bright_green"}
# terrain on backgrounds of its own, so that it never looks like a player's EMs (foreground colours)
KIND_STYLE = {TEMPLE: "bold white on magenta", VOLCANO: "bold white on dark_orange3",
              LAKE: "bold black on cyan", RUINS: "bold white on orange4",
              CLEARING: "black on dark_sea_green2", BASE_CAMP: "bold black on white", JUNGLE: "green"}
DOTTED_STYLE = "dim"


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
    style = DOTTED_STYLE if k == JUNGLE and s.C.board.hexes[h].dotted else KIND_STYLE[k]
    cv.put(x + 3 + len(name), y, terrain_label(s, h), style)
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
    """``B-3 ruins 4 masks [1 1 1 0 2 1]``: id, kind, printed stones (sides ne e se sw w nw)."""
    tile = s.C.tiles[t]
    kind = {"temple": f"temple {tile.value}", "ruins": f"ruins {tile.masks} masks"}.get(tile.type, tile.type)
    return f"{tile.id} {kind} [{' '.join(map(str, tile.stones))}]"


def wrap(head: str, items: list[str], tail: str = "", width: int = WIDTH) -> list[str]:
    """``head`` then the plain-text ``items`` (comma-separated), wrapped to ``width`` columns
    with an indent; each item is escaped for Rich markup. ``head`` and ``tail`` are markup."""
    from rich.text import Text
    lines: list[str] = []
    line, used = head, len(Text.from_markup(head).plain)
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if used + 1 + len(piece) > width and used > 4:
            lines.append(line)
            line, used = "    ", 4
        line += " " + escape(piece)
        used += 1 + len(piece)
    if not items:
        line, used = line + " -", used + 2
    if tail:
        plain = len(Text.from_markup(tail).plain)
        if used + 1 + plain > width:
            lines.append(line)
            line = "    "
        line += " " + tail
    lines.append(line)
    return lines


def _seat(seat: int) -> str:
    return f"[{STYLE[seat]}]{COLOURS[seat]}[/]"


def _card_names(s: TikalState, cards: list[int]) -> list[str]:
    return [s.card_name(c) + (" (used)" if s.down[c] else "") for c in cards]


def _player_lines(s: TikalState, seat: int) -> list[str]:
    T = len(s.C.treasure_types)
    director = s.C.directors[s.director[seat]]
    museum = [f"{s.C.treasure_types[t]} {n}" for t in range(T) if (n := s.museum[seat * T + t])]
    now = score_breakdown(s, seat)
    space = s.next_order.index(seat) + 1 if seat in s.next_order else "-"
    camps = ", ".join(s.hex_name(h) for h in s.camps[seat]) or "-"
    return [
        f"{_seat(seat)}: [bold]{s.pp[seat]} PP[/bold] (a scoring now: +{now['total']})"
        + ("  [dim]passed[/dim]" if s.phase == 1 and s.passed[seat] else ""),
        f"   supply: {s.avail_explorers[seat]} explorers {s.avail_leaders[seat]} leader(s) available, "
        f"{s.unavail_explorers[seat]}+{s.unavail_leaders[seat]} unavailable; camps {camps} "
        f"({s.C.per_player['base_camps'] - len(s.camps[seat])} in reserve); guardians {s.guardians[seat]}",
        *wrap(f"   campsite: statuette {space}, AP token {s.ap_token[seat] or '-'}, tiles",
              [tile_text(s, t) for t in s.camp_tiles[seat]]),
        *side_by_side(wrap("   cards new:", _card_names(s, s.right[seat])),
                      wrap("kept:", _card_names(s, s.left[seat]))),
        *side_by_side(wrap("   museum:", museum),
                      [f"director {escape(director.name)} ({', '.join(director.powers)}): "
                       f"{s.power_used[seat] or 'unused'}"]),
    ]


def side_by_side(first: list[str], second: list[str]) -> list[str]:
    """Two one-line parts joined by `` | `` when they fit in :data:`WIDTH`, else one under the other."""
    from rich.text import Text
    if len(first) == len(second) == 1:
        joined = f"{first[0]} | {second[0]}"
        if len(Text.from_markup(joined).plain) <= WIDTH:
            return [joined]
    return first + ["   " + line for line in second]


def _offer_lines(s: TikalState) -> list[str]:
    types = s.C.treasure_types
    floors = " ".join(f"{lv}:{s.floors[lv]}" for lv in range(2, len(s.floors)))
    piles = " ".join(f"{k}:{len(p)}" for k, p in s.piles.items())
    return [
        *wrap("cards on display:", [s.card_name(c) for c in s.display],
              f"[dim](deck {len(s.deck)}, discard {len(s.discard)})[/dim]"),
        f"AP tokens on offer: {', '.join(map(str, sorted(s.ap_display))) or '-'} [dim](bag {len(s.bag)})[/dim]",
        *wrap("tiles on offer:", [tile_text(s, t) for t in s.tile_display], f"[dim](piles {piles})[/dim]"),
        f"supply: floors {floors}; Trail Stone tokens {s.stone_supply}; symbol tiles {len(s.symbol_supply)}",
        *wrap("   blue treasure pairs:", [t for i, t in enumerate(types) if s.blue[i]]),
    ]


def _pending_lines(s: TikalState) -> list[str]:
    if not s.stack:
        return []
    f = s.stack[-1]
    line = f"{_seat(f.seat)}: {escape(prompt(f))}"
    if f.kind == "ap":
        line += f" - [bold]{f.points} AP[/bold] left ({f.ctx})"
    lines = [line]
    if isinstance(f, TilePlacement):
        lines.append("   tile " + escape(tile_text(s, f.tile)) + " (stones on ne e se sw w nw, printed orientation)")
        if f.step == "rotation":
            tile = s.C.tiles[f.tile]
            for k in distinct_rotations(s, f.tile):
                rotated = tile.rotated(k)
                lines.append(f"   rotate {k}: " + " ".join(f"{SIDES[i]}{n}" for i, n in enumerate(rotated)))
    return lines


LEGEND = ("[dim]T5 temple of level 5 (Gr: red Guardian), R3:2 ruins of 3 masks with 2 treasures, V volcano, "
          "L lake, C clearing,[/dim]",
          "[dim]BC base camp, ~ jungle, :: dotted jungle; r2 = 2 red Explorers, R2 = a red Leader and "
          "2 Explorers; [stones] ne e se sw w nw;[/dim]",
          "[dim]a digit on an edge = the AP to cross it (its Trail Stones), a wall = no passage[/dim]")


def render(state: Any, seat: int | None) -> str:
    s: TikalState = state
    rounds = s.setup_rules["rounds"]
    whose = s.current_player
    head = (f"[bold]Tikal Legend[/bold] - round {s.round}/{rounds} - {PHASE_NAMES[s.phase].replace('_', ' ')}"
            + (f" - {_seat(whose)} to play" if whose is not None else ""))
    order = " ".join(COLOURS[x] for x in s.order)
    nxt = " ".join(COLOURS[x] if x >= 0 else "_" for x in s.next_order)
    lines = [head, draw_board(s), *(escape_brackets(x) for x in LEGEND),
             f"turn order: {order} | next round: {nxt}"]
    for p in range(s.num_players):
        lines += _player_lines(s, p)
    lines += _offer_lines(s)
    if s.scoring_kind:
        waiting = ", ".join(COLOURS[x] for x in s.scoring_queue) or "-"
        lines.append(f"[bold]{s.scoring_kind} scoring[/bold]: still to play {waiting}")
    lines += _pending_lines(s)
    return "\n".join(lines)


def escape_brackets(markup: str) -> str:
    """Escape the literal ``[stones]`` of the legend (the style tags stay markup)."""
    return markup.replace("[stones]", escape("[stones]"))

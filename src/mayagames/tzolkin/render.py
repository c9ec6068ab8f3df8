"""A readable text picture of a Tzolk'in view, in Rich markup (terminal play)."""

from __future__ import annotations

from typing import Any, Mapping

from rich.markup import escape

from ..core.game import State
from .components import DATA, GEARS, RESOURCES, TEMPLES, TRACKS
from .layout import (CORN, CTILES, DUMMY, EMPTY, FOOD_KIND, HIDDEN, INSTANCE_TYPE, LIGHT,
                     ON_GEARS, OVER, READY, SKULL, SPACES, TECH, TEMPLE, TEMPLE_TOP, VP, WOOD,
                     WORKERS, WTILES)
from .rules import FRAME_HELP

SEAT_COLOURS = ("red", "green", "blue", "magenta")
SHORT_GOODS = {"corn": "corn", "wood": "wood", "stone": "stone", "gold": "gold", "skull": "skull"}


def seat_tag(seat: int) -> str:
    return f"[bold {SEAT_COLOURS[seat]}]P{seat}[/]"


def cost_text(cost: tuple[int, ...], skull: int = 0) -> str:
    parts = [f"{n} {RESOURCES[r]}" for r, n in enumerate(cost) if n]
    if skull:
        parts.append(f"{skull} skull")
    return " + ".join(parts)


def effects_text(eff: Mapping[str, Any]) -> str:
    """A short description of a building's effects (from its data)."""
    parts = []
    if "farm_free" in eff:
        parts.append(f"farm: {eff['farm_free']} worker(s) fed free")
    if "farm_discount" in eff:
        parts.append("farm: each worker needs 1 corn less")
    parts += [f"+{n} {k}" for k, n in eff.get("gain", {}).items()]
    parts += [f"{k} +{n}" for k, n in eff.get("temples", {}).items()]
    parts += [f"{k} +{n}" for k, n in eff.get("techs", {}).items()]
    if "any_temple" in eff:
        parts.append("any temple +1")
    if "any_tech" in eff:
        parts.append(f"{eff['any_tech']} free tech advance(s)")
    if "workers" in eff:
        parts.append("+1 worker")
    if "market" in eff:
        parts.append("market")
    if "mirror" in eff:
        parts.append("1 corn: mirror action")
    if "build_another" in eff:
        parts.append("build another")
    if "vp" in eff:
        parts.append(f"{eff['vp']} VP")
    return ", ".join(parts)


def scoring_text(sc: Mapping[str, Any]) -> str:
    kind = sc["kind"]
    texts = {
        "per_category": lambda: f"{sc.get('vp')} VP per {sc.get('category')} building/monument",
        "per_building": lambda: f"{sc.get('vp')} VP per building/monument",
        "per_corn_tile": lambda: f"{sc.get('vp')} VP per corn tile",
        "per_wood_tile": lambda: f"{sc.get('vp')} VP per wood tile",
        "per_monument_built": lambda: "VP per monument built by anyone",
        "techs_at_level3": lambda: "9/20/33 VP for 1/2/3+ techs at level 3",
        "per_tech_level": lambda: f"{sc.get('vp')} VP per tech level",
        "workers_in_play": lambda: "0/6/12/18 VP for 3/4/5/6 workers",
        "temples_again": lambda: "temple VP again",
        "highest_temple_steps": lambda: f"{sc.get('vp')} VP per step on highest temple",
        "skulls_on_chichen": lambda: f"{sc.get('vp')} VP per skull on Chichen Itza",
    }
    return texts[kind]()


def gear_line(s: Any, g: int) -> str:
    occ = s.gears[g]
    cells = []
    for pos, who in enumerate(occ):
        if who == EMPTY:
            mark = "."
        elif who == DUMMY:
            mark = "[dim]D[/]"
        else:
            mark = seat_tag(who)
        label = str(pos) if pos < SPACES[g] else "~"
        cells.append(f"{label}:{mark}")
    return f"  {DATA.gears[g].title:<13}" + " ".join(cells)


def header(s: Any) -> list[str]:
    nxt = s.next_food_day()
    kind = f" ({FOOD_KIND[s.food_done]} of age)" if nxt else ""
    if nxt and nxt <= s.day:
        kind += ": this round"
    sps = "empty" if s.sps == EMPTY else seat_tag(s.sps)
    return [
        f"[bold]Tzolk'in[/] day {s.day} of 27, age {s.age}; next Food Day: "
        f"{'day ' + str(nxt) + kind if nxt else 'none'}",
        f"Starting player {seat_tag(s.start_player)}; Starting Player Space: {sps}, "
        f"{s.sps_corn} corn waiting; skulls in supply: {s.skulls}",
    ]


def board_lines(s: Any) -> list[str]:
    lines = ["[bold]Gears[/] (space:occupant, D = dummy, ~ = dead arc)"]
    lines += [gear_line(s, g) for g in range(len(GEARS))]
    slots = " ".join(f"{k}:{'.' if s.skull_slots[k] == EMPTY else seat_tag(s.skull_slots[k])}"
                     for k in range(1, 10))
    lines.append(f"  Chichen Itza skulls  {slots}")
    jungle = "  ".join(f"{k}: {s.jcorn[k]} corn/{s.jwood[k]} wood" for k in DATA.jungle_spaces)
    lines.append(f"  Jungle (Palenque)   {jungle}")
    lines.append("[bold]Temples[/] (step of each player; -1 bottom, top shown)")
    for t, spec in enumerate(DATA.temples):
        steps = "  ".join(f"{seat_tag(i)} {P[TEMPLE + t]}" for i, P in enumerate(s.p))
        lines.append(f"  {spec.title:<13} top {TEMPLE_TOP[t]}:  {steps}")
    return lines


def offer_lines(s: Any) -> list[str]:
    lines = [f"[bold]Buildings on offer[/] (age {s.age}; {len(s.stacks[s.age - 1])} left in the stack)"]
    for inst in s.display:
        if inst == EMPTY:
            lines.append("  (empty)")
        elif inst == HIDDEN:
            lines.append("  (unknown)")
        else:
            b = DATA.buildings[INSTANCE_TYPE[inst]]
            lines.append(f"  {b.id} {b.category:<5} cost {cost_text(b.cost)}: {escape(effects_text(b.effects))}")
    lines.append("[bold]Monuments on offer[/]")
    for m in s.monument_row:
        if m != EMPTY:
            mon = DATA.monuments[m]
            lines.append(f"  {mon.id} {mon.category:<5} cost {cost_text(mon.cost, mon.skull_cost)}: "
                         f"{scoring_text(mon.scoring)}")
    return lines


def player_lines(s: Any, seat: int | None) -> list[str]:
    lines = ["[bold]Players[/]"]
    for i, P in enumerate(s.p):
        me = " (you)" if i == seat else ""
        board = "light" if P[LIGHT] else "dark"
        techs = " ".join(f"{TRACKS[t][:4]} {P[TECH + t]}" for t in range(4))
        kept = [DATA.tiles[t].id if t >= 0 else "?" for t in s.kept[i]]
        buildings = [DATA.buildings[INSTANCE_TYPE[b]].id for b in s.built[i]]
        monuments = [DATA.monuments[m].id for m in s.monuments[i]]
        lines.append(
            f"  {seat_tag(i)}{me} board {board}: {P[CORN]} corn, {P[WOOD]} wood, {P[WOOD + 1]} stone, "
            f"{P[WOOD + 2]} gold, {P[SKULL]} skulls; {P[VP]} VP; workers {P[WORKERS]} "
            f"({P[READY]} ready, {P[ON_GEARS]} on gears)")
        lines.append(f"      techs: {techs}; tiles: {P[CTILES]} corn, {P[WTILES]} wood; "
                     f"start tiles: {' '.join(kept) or '-'}")
        if buildings or monuments:
            lines.append(f"      built: {' '.join(buildings + monuments)}")
    if seat is not None and 0 <= seat < len(s.p) and not s.revealed:
        hand = [DATA.tiles[t] for t in s.dealt[seat] if t >= 0]
        lines.append("[bold]Your starting tiles[/]")
        for tile in hand:
            lines.append(f"  {tile.id}: {tile_text(tile)}")
    return lines


def tile_text(tile: Any) -> str:
    parts = [f"{n} {name}" for name, n in zip(SHORT_GOODS, tile.gain) if n]
    parts += [f"{TEMPLES[t]} +{n}" for t, n in enumerate(tile.temples) if n]
    parts += [f"{TRACKS[t]} +{n}" for t, n in enumerate(tile.techs) if n]
    if tile.workers:
        parts.append(f"+{tile.workers} worker")
    if tile.farm_free:
        parts.append("1 worker always fed")
    return ", ".join(parts)


def render(state: State, seat: int | None) -> str:
    s: Any = state
    lines = header(s) + board_lines(s) + offer_lines(s) + player_lines(s, seat)
    if s.phase == OVER:
        scores = s.scores()
        lines.append("[bold]Final scores[/]: " + ", ".join(
            f"{seat_tag(i)} {score:g}" for i, score in enumerate(scores)))
    else:
        lines.append(f"[bold]Now[/]: {seat_tag(s.cur)} — {FRAME_HELP[s.stack[-1][0]]}")
    return "\n".join(lines)

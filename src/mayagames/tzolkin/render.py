"""A readable text picture of a Tzolk'in view, in Rich markup (terminal play)."""

from __future__ import annotations

from typing import Any, Mapping

from rich.markup import escape

from ..core.game import State
from .components import DATA, GEARS, TRACKS
from .model import (CORN, CTILES, DUMMY, EMPTY, FOOD_KIND, HIDDEN, INSTANCE_TYPE, LIGHT,
                     ON_GEARS, OVER, READY, SKULL, SPACES, TECH, TEMPLE, TEMPLE_TOP, VP, WOOD,
                     WORKERS, WTILES)
from .flow import BuildStep, ChooseAction, MirrorAction, PalenqueHarvest, PlacingWorkers, TurnStart
from .actions import Build, Do, Harvest
from .components import ARCHITECTURE, BUILDING_INDEX
from .model import TEMPLE_VP, B_UXMAL
from .rules import MIRROR_CORN, TARIFF, action_costs, uxmal_price
from .summary import action_summary, harvest_options, placement_costs
from .texts import building_effect, cost_text, monument_scoring, start_tile


def effects_text(eff: Mapping[str, Any]) -> str:
    """A short description of a building's effects (:mod:`.texts`, short register)."""
    return building_effect(eff, short=True)


def scoring_text(sc: Mapping[str, Any], players: int = 4) -> str:
    """A monument's scoring in a few words (:mod:`.texts`, short register)."""
    return monument_scoring(sc, players, short=True)


def tile_text(tile: Any) -> str:
    """A start tile's contents in a few words (:mod:`.texts`, short register)."""
    return start_tile(tile, short=True)

SEAT_COLOURS = ("red", "green", "blue", "magenta")


def seat_tag(seat: int) -> str:
    return f"[bold {SEAT_COLOURS[seat]}]P{seat}[/]"


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
    lines.append("[bold]Temples[/] (step of each player and its VP; -1 bottom, top shown)")
    for t, spec in enumerate(DATA.temples):
        steps = "  ".join(f"{seat_tag(i)} {P[TEMPLE + t]} ({TEMPLE_VP[t][P[TEMPLE + t] + 1]} VP)"
                          for i, P in enumerate(s.p))
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
                         f"{scoring_text(mon.scoring, s.num_players)}")
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


# --- what the player deciding now needs to see -------------------------------------------------
def workers_lines(s: Any, seat: int) -> list[str]:
    """The seat's workers on the gears and what each space's action gives now."""
    lines = []
    for g, occ in enumerate(s.gears):
        for pos in range(SPACES[g]):
            if occ[pos] == seat:
                lines.append(f"  {DATA.gears[g].title} {pos}: {escape(action_summary(s, seat, g, pos))}")
    return ["[bold]Your workers on the gears[/] (pick up: this action, a lower one for 1 corn "
            "per step, or nothing)"] + lines if lines else []


def placement_lines(s: Any, seat: int, placed: int) -> list[str]:
    """Where the next worker would go on each gear and what it costs (space + tariff)."""
    cells = []
    for gear, space, corn in placement_costs(s, seat, placed):
        if gear == "start":
            waiting = f", {s.sps_corn} corn waiting there" if s.sps_corn else ""
            cells.append(f"Starting Player Space {corn}{waiting}")
        else:
            cells.append(f"{gear} {space} → {corn}")
    if not cells:
        return []
    return [f"[bold]Next worker[/] (space number + tariff {TARIFF[placed]}, in corn): " + "; ".join(cells)]


def choice_lines(s: Any, seat: int) -> list[str]:
    """The options of the pending decision with what each gives (action choices, harvest,
    Uxmal 4 prices)."""
    fr = s.stack[-1]
    legal = s.legal_actions()
    if isinstance(fr, (ChooseAction, MirrorAction)):
        choose = isinstance(fr, ChooseAction)
        costs = dict(action_costs(s.p[seat], fr.gear, fr.space)) if choose else {}
        out = []
        for a in legal:
            if isinstance(a, Do):
                paid = costs.get(a.space, 0) if choose else MIRROR_CORN
                price = f" (pay {paid} corn)" if paid else ""
                summary = action_summary(s, seat, GEARS.index(a.gear), a.space)
                out.append(f"  {a}{price}: {escape(summary)}")
        return out
    if isinstance(fr, PalenqueHarvest):
        options = harvest_options(s, seat, fr.space)
        return [f"  {a}: {escape(options[a.mode])}" for a in legal if isinstance(a, Harvest)]
    if isinstance(fr, BuildStep) and fr.mode == B_UXMAL:
        level = s.p[seat][TECH + ARCHITECTURE]
        return [f"  {a}: {uxmal_price(s, BUILDING_INDEX[a.building], level)} corn"
                for a in legal if isinstance(a, Build)]
    return []


def now_lines(s: Any, seat: int | None) -> list[str]:
    top = s.stack[-1]
    lines = [f"[bold]Now[/]: {seat_tag(s.cur)} — {top.help}"]
    if seat is None or seat != s.cur:
        return lines
    can_place = s.p[seat][READY] > 0
    if isinstance(top, TurnStart):
        lines = workers_lines(s, seat) + (placement_lines(s, seat, 0) if can_place else []) + lines
    elif isinstance(top, PlacingWorkers) and not top.special_case and can_place:
        lines = placement_lines(s, seat, top.placed) + lines
    return lines + choice_lines(s, seat)


def render(state: State, seat: int | None) -> str:
    s: Any = state
    lines = header(s) + board_lines(s) + offer_lines(s) + player_lines(s, seat)
    if s.phase == OVER:
        scores = s.scores()
        lines.append("[bold]Final scores[/]: " + ", ".join(
            f"{seat_tag(i)} {score:g}" for i, score in enumerate(scores)))
    else:
        lines += now_lines(s, seat)
    return "\n".join(lines)


def decision_details(state: State, seat: int | None) -> str:
    """The pending decision with what each option gives (shown by the terminal between
    the steps of a turn, when the whole board is not redrawn)."""
    s: Any = state
    return "" if s.phase == OVER else "\n".join(now_lines(s, seat))

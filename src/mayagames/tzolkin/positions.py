"""Build Tzolk'in positions by hand (tests, puzzles, bot debugging).

Every helper keeps the state's conservation laws (``invariants()`` stays empty):
goods come from the bank ledger, workers from the player's own supply, buildings
and monuments from the stacks and boxes.

>>> from mayagames.tzolkin.positions import blank, legal, play, put_worker, set_goods
>>> s = blank(2)
>>> set_goods(s, 0, corn=5)
>>> put_worker(s, 0, "yaxchilan", 2)
>>> play(s, "pick yaxchilan 2")
>>> legal(s)
['do yaxchilan 1', 'do yaxchilan 2', 'nothing']
"""

from __future__ import annotations

from typing import Any

from .components import BUILDING_INDEX, DATA, GEARS, MONUMENT_INDEX, TEMPLES, TRACKS
from .model import (CORN, DUMMY, EMPTY, FARM_DISC, FARM_FREE, GOLD, INSTANCE_TYPE, LIGHT,
                     ON_GEARS, PLAY, READY, SKULL, STONE, TECH, TEMPLE, VP, WOOD, WORKERS)
from . import flow
from .rules import worker_keys
from .state import TzolkinState


def blank(players: int = 2, seed: int = 0, options: dict[str, Any] | None = None,
          dummies: bool = False) -> TzolkinState:
    """A game at the start of round 1 (seat 0 to play) where nobody has anything yet.

    The draft is over with each seat keeping its first two dealt tiles, but their
    items are *not* given, so every seat starts with 0 corn and 3 workers. Dummy
    workers are removed unless ``dummies``.
    """
    from . import INFO

    s = TzolkinState(players, seed, INFO.resolve_options(options))
    s.kept = [sorted(hand[:2]) for hand in s.dealt]
    s.revealed = True
    if not dummies:
        s.gears = [[EMPTY] * len(occ) for occ in s.gears]
        s.dummies = 0
    s.phase = PLAY
    s.at = worker_keys(s)
    flow.start_round(s)
    flow.settle(s)
    return s


def refresh(s: TzolkinState) -> None:
    """Recompute where workers stand and the pending decision's legal actions after
    editing a state."""
    s.at = worker_keys(s)
    flow.settle(s)


def set_goods(s: TzolkinState, seat: int, corn: int | None = None, wood: int | None = None,
              stone: int | None = None, gold: int | None = None, skulls: int | None = None,
              vp: int | None = None) -> None:
    """Set a player's goods (corn from/to the bank ledger, skulls from the supply)."""
    P = s.p[seat]
    if corn is not None:
        s.corn_out += corn - P[CORN]
        P[CORN] = corn
    for field, value in ((WOOD, wood), (STONE, stone), (GOLD, gold)):
        if value is not None:
            P[field] = value
    if skulls is not None:
        s.skulls -= skulls - P[SKULL]
        P[SKULL] = skulls
    if vp is not None:
        P[VP] = vp
    refresh(s)


def set_temple(s: TzolkinState, seat: int, temple: str, step: int) -> None:
    s.p[seat][TEMPLE + TEMPLES.index(temple)] = step
    refresh(s)


def set_tech(s: TzolkinState, seat: int, track: str, level: int) -> None:
    s.p[seat][TECH + TRACKS.index(track)] = level
    refresh(s)


def set_board(s: TzolkinState, seat: int, light: bool) -> None:
    s.p[seat][LIGHT] = int(light)
    refresh(s)


def set_workers(s: TzolkinState, seat: int, in_play: int) -> None:
    """Workers in play (the difference goes to / comes from the player's ready workers)."""
    P = s.p[seat]
    P[READY] += in_play - P[WORKERS]
    P[WORKERS] = in_play
    refresh(s)


def put_worker(s: TzolkinState, seat: int, gear: str, space: int) -> None:
    """Move one of ``seat``'s ready workers onto ``gear`` at ``space`` (must be free)."""
    g = GEARS.index(gear)
    P = s.p[seat]
    assert s.gears[g][space] == EMPTY, f"{gear} {space} is occupied"
    assert P[READY] > 0, f"seat {seat} has no ready worker"
    s.gears[g][space] = seat
    P[READY] -= 1
    P[ON_GEARS] += 1
    refresh(s)


def put_dummy(s: TzolkinState, gear: str, space: int) -> None:
    g = GEARS.index(gear)
    assert s.gears[g][space] == EMPTY
    s.gears[g][space] = DUMMY
    s.dummies += 1
    refresh(s)


def put_start_worker(s: TzolkinState, seat: int) -> None:
    """A worker of ``seat`` on the Starting Player Space."""
    assert s.sps == EMPTY and s.p[seat][READY] > 0
    s.sps = seat
    s.p[seat][READY] -= 1
    refresh(s)


def _take_instance(s: TzolkinState, building: str) -> int:
    """Remove an instance of ``building`` from the stacks, box or row; returns it."""
    t = BUILDING_INDEX[building]
    for pile in (*s.stacks, s.building_box):
        for i, inst in enumerate(pile):
            if INSTANCE_TYPE[inst] == t:
                return pile.pop(i)
    for slot, inst in enumerate(s.display):
        if inst >= 0 and INSTANCE_TYPE[inst] == t:
            s.display[slot] = EMPTY
            return inst
    raise ValueError(f"no {building} left outside the players' hands")


def set_row(s: TzolkinState, buildings: list[str]) -> None:
    """Put exactly these buildings in the row (the rest back on their age's stack)."""
    for slot, inst in enumerate(s.display):
        if inst >= 0:
            s.stacks[DATA.buildings[INSTANCE_TYPE[inst]].age - 1].insert(0, inst)
            s.display[slot] = EMPTY
    for slot, name in enumerate(buildings):
        s.display[slot] = _take_instance(s, name)
    refresh(s)


def give_building(s: TzolkinState, seat: int, building: str) -> None:
    """``seat`` owns ``building`` (no cost paid, no effect gained)."""
    s.built[seat].append(_take_instance(s, building))
    refresh(s)


def give_farm(s: TzolkinState, seat: int, building: str) -> None:
    """Own a farm building with its feeding effect."""
    give_building(s, seat, building)
    eff = DATA.building(building).effects
    s.p[seat][FARM_FREE] += eff.get("farm_free", 0)
    s.p[seat][FARM_DISC] += eff.get("farm_discount", 0)


def set_monument_row(s: TzolkinState, monuments: list[str]) -> None:
    pool = [m for m in s.monument_row if m >= 0] + s.monument_box
    wanted = [MONUMENT_INDEX[m] for m in monuments]
    s.monument_row = wanted
    s.monument_box = [m for m in pool if m not in wanted]
    refresh(s)


def give_monument(s: TzolkinState, seat: int, monument: str) -> None:
    m = MONUMENT_INDEX[monument]
    if m in s.monument_row:
        s.monument_row[s.monument_row.index(m)] = EMPTY
    else:
        s.monument_box.remove(m)
    s.monuments[seat].append(m)
    refresh(s)


def set_day(s: TzolkinState, day: int) -> None:
    """Jump the calendar to ``day`` (Food Days before it count as done)."""
    from .model import FOOD_DAYS
    s.day = day
    s.food_done = sum(1 for d in FOOD_DAYS if d < day)
    if s.food_done >= 2 and s.age == 1:
        from .scoring import change_age
        change_age(s)
    refresh(s)


def set_turn(s: TzolkinState, seat: int, start_player: int | None = None) -> None:
    """Start ``seat``'s turn (the turn index follows from the starting player)."""
    if start_player is not None:
        s.start_player = start_player
    s.turn_index = (seat - s.start_player) % s.num_players
    s.cur = seat
    s.stack = [flow.TURN_START]
    s.phase = PLAY
    refresh(s)


def place_skull(s: TzolkinState, seat: int, space: int) -> None:
    """A skull already left on Chichen Itza ``space`` (taken from the supply)."""
    assert s.skull_slots[space] == EMPTY
    s.skulls -= 1
    s.skull_slots[space] = seat
    refresh(s)


def play(s: TzolkinState, *moves: str) -> None:
    """Apply moves written in notation (legality checked)."""
    for text in moves:
        s.apply(s.parse_action(text))


def legal(s: TzolkinState) -> list[str]:
    """The legal actions as notation."""
    return [str(a) for a in s.legal_actions()]


def goods(s: TzolkinState, seat: int) -> dict[str, int]:
    P = s.p[seat]
    return {"corn": P[CORN], "wood": P[WOOD], "stone": P[STONE], "gold": P[GOLD],
            "skulls": P[SKULL], "vp": P[VP]}


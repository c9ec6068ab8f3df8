"""``to_dict`` of a Tzolk'in state or view: the JSON the web client draws from.

The layout is documented in ``docs/tzolkin_state.md``; keep both in step. Hidden
items appear as ``"?"`` (or only as a count), never as their true value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .components import DATA, GEARS, RESOURCES, TEMPLES, TRACKS
from .model import (CORN, CTILES, DUMMY, EMPTY, FARM_DISC, FARM_FREE, FOOD_AGE, FOOD_DAYS,
                     FOOD_KIND, HIDDEN, INSTANCE_TYPE, LIGHT, ON_GEARS, OVER, READY, SKULL,
                     SPACES, TECH, TEMPLE, TEMPLE_TOP, VP, WOOD, WORKERS, WTILES)
from .scoring import final_breakdown

if TYPE_CHECKING:
    from .state import TzolkinState

FORMAT = "tzolkin-state/1"


def occupant(code: int) -> int | str | None:
    """A gear hole's occupant: a seat number, ``"dummy"`` or ``None``."""
    if code == EMPTY:
        return None
    return "dummy" if code == DUMMY else code


def building_id(inst: int) -> str | None:
    if inst == EMPTY:
        return None
    return "?" if inst == HIDDEN else DATA.buildings[INSTANCE_TYPE[inst]].id


def tile_id(tile: int) -> str:
    return "?" if tile == HIDDEN else DATA.tiles[tile].id


def describe_gears(s: "TzolkinState") -> list[dict[str, Any]]:
    out = []
    for g, occ in enumerate(s.gears):
        out.append({
            "name": GEARS[g], "title": DATA.gears[g].title,
            "spaces": [occupant(x) for x in occ[:SPACES[g]]],
            "dead_arc": [occupant(x) for x in occ[SPACES[g]:]],
            "actions": DATA.gears[g].actions,
        })
    return out


def describe_player(s: "TzolkinState", seat: int) -> dict[str, Any]:
    P = s.p[seat]
    return {
        "seat": seat,
        "corn": P[CORN], "wood": P[WOOD], "stone": P[WOOD + 1], "gold": P[WOOD + 2],
        "skulls": P[SKULL], "vp": P[VP],
        "workers": {"in_play": P[WORKERS], "ready": P[READY], "on_gears": P[ON_GEARS],
                    "on_start_space": s.sps == seat, "bank": DATA.max_workers - P[WORKERS]},
        "techs": {TRACKS[t]: P[TECH + t] for t in range(4)},
        "temples": {TEMPLES[t]: P[TEMPLE + t] for t in range(3)},
        "board": "light" if P[LIGHT] else "dark",
        "harvest_tiles": {"corn": P[CTILES], "wood": P[WTILES]},
        "farms": {"free_workers": P[FARM_FREE], "discount": P[FARM_DISC]},
        "buildings": [building_id(i) for i in s.built[seat]],
        "monuments": [DATA.monuments[m].id for m in s.monuments[seat]],
        "start_tiles": {"dealt": [tile_id(t) for t in s.dealt[seat]],
                        "kept": [tile_id(t) for t in s.kept[seat]],
                        "chosen": bool(s.kept[seat])},
    }


def describe(s: "TzolkinState") -> dict[str, Any]:
    """The whole state (or view) as JSON-ready data."""
    over = s.phase == OVER
    data: dict[str, Any] = {
        "format": FORMAT,
        "game": "tzolkin",
        "viewer": s.viewer,
        "num_players": s.num_players,
        "options": dict(s.options),
        "phase": s.phase_name,
        "current_player": None if over else s.cur,
        "decision": s.decision(),
        "calendar": {
            "day": s.day, "tooth": (s.day - 1) % DATA.teeth, "teeth": DATA.teeth, "age": s.age,
            "food_days": [{"day": d, "kind": k, "age": a, "done": i < s.food_done}
                          for i, (d, k, a) in enumerate(zip(FOOD_DAYS, FOOD_KIND, FOOD_AGE))],
            "next_food_day": s.next_food_day(),
        },
        "starting_player": s.start_player,
        "turn_index": s.turn_index,
        "starting_player_space": {"worker": None if s.sps == EMPTY else s.sps, "corn": s.sps_corn},
        "gears": describe_gears(s),
        "skull_slots": {str(k): (None if s.skull_slots[k] == EMPTY else s.skull_slots[k])
                        for k in range(1, 10)},
        "skulls_supply": s.skulls,
        "jungle": [{"space": k, "corn": s.jcorn[k], "wood": s.jwood[k]} for k in DATA.jungle_spaces],
        "burned_wood_tiles": s.burned,
        "temples": [{"name": TEMPLES[t], "top": TEMPLE_TOP[t],
                     "steps": [s.p[seat][TEMPLE + t] for seat in range(s.num_players)]}
                    for t in range(3)],
        "buildings": {
            "row": [building_id(i) for i in s.display],
            "stacks": [[building_id(i) for i in st] for st in s.stacks],
            "box": [building_id(i) for i in s.building_box],
        },
        "monuments": {
            "row": [None if m == EMPTY else DATA.monuments[m].id for m in s.monument_row],
            "box": ["?" if m == HIDDEN else DATA.monuments[m].id for m in s.monument_box],
        },
        "start_tiles": {
            "revealed": s.revealed,
            "dummy_tiles": [tile_id(t) for t in s.dummy_tiles],
            "box": [tile_id(t) for t in s.tile_box],
        },
        "dummies": s.dummies,
        "players": [describe_player(s, seat) for seat in range(s.num_players)],
        "last_food_day_unfed": list(s.last_unfed),
        "market": dict(zip(RESOURCES, DATA.market)),
        "scores": s.scores(),
    }
    if over:
        data["final"] = [final_breakdown(s, seat) for seat in range(s.num_players)]
        data["winners"] = s.winners()
    return data


def shown_view(view: dict[str, Any]) -> dict[str, Any]:
    """What a table shows of a view (``GamePlugin.shown_view``): the dealt starting tiles
    only during the draft; after it the unkept ones are back in the box, out of the game,
    so a hot-seat device needs no hand-over for them."""
    if view.get("phase") == "draft":
        return view
    players = [{**p, "start_tiles": {k: v for k, v in p["start_tiles"].items() if k != "dealt"}}
               for p in view.get("players", [])]
    return {**view, "players": players}

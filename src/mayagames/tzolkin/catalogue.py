"""What each Tzolk'in component is and does, in words: the game's catalogue.

Served by ``GET /api/games/tzolkin/catalogue`` for the browser's boards; built once
from the component data files (``data/*.json``), so it cannot disagree with the rules
engine. The phrasings themselves are :mod:`mayagames.tzolkin.texts`, shared with the
terminal's rendering. Public, static information only.

>>> catalogue()["buildings"]["a1-t1"]["cost"]
{'wood': 2, 'stone': 1}
"""

from __future__ import annotations

from typing import Any, Mapping

from ..core.words import plural
from .components import DATA
from .texts import BLOCKS, amounts, building_effect, cost_dict, monument_scoring, start_tile


def tz_action(gear: Any, spec: Mapping[str, Any], titles: Mapping[str, str]) -> str:
    """One regular action of a gear (gears.json kinds, rules sections 3-7), base yields."""
    kind = spec["kind"]
    if kind == "fishing":
        return f"Fishing: {spec['corn']} corn"
    if kind == "harvest":
        corn = f"Harvest {spec['corn']} corn + a Corn Harvest Tile"
        if not spec.get("wood"):
            return corn
        return (f"{corn}, or {spec['wood']} wood + a Wood Harvest Tile, or burn the forest "
                "(the corn, then 1 temple step down)")
    if kind == "gain":
        return "Take " + amounts(spec["gain"])
    if kind == "tech":
        n = spec["advances"]
        return ("Advance 1 technology level, paying its cost in resource blocks" if n == 1 else
                f"Advance up to {n} technology levels, paying each one's cost in resource blocks")
    if kind == "build":
        if spec.get("monument"):
            return f"Build up to {spec['buildings']} buildings, or 1 monument, paying their costs"
        return "Build 1 building, paying its cost"
    if kind == "temples":
        return f"Pay {plural(spec['blocks'], 'resource block')}: +1 step on two different temples"
    if kind == "temple":
        return f"Pay {spec['corn']} corn: +1 step on a temple of your choice"
    if kind == "market":
        return "Market: buy or sell wood, stone and gold for corn, any number of times"
    if kind == "worker":
        return "Take 1 more worker from the bank"
    if kind == "corn_build":
        return f"Build 1 building paying {spec['corn_per_block']} corn per resource block instead"
    if kind == "mirror":
        names = [g.capitalize() for g in spec["gears"]]
        gears = ", ".join(names[:-1]) + " or " + names[-1]
        return f"Pay {spec['corn']} corn: perform any action of {gears}"
    if kind == "skull":
        text = f"Place a crystal skull here: {spec['vp']} VP and +1 on {titles[spec['temple']]}"
        return text + (" + 1 resource block of your choice" if spec.get("block") else "")
    raise ValueError(f"unknown action kind {kind!r} on {gear.name}")


def tz_space_texts(gear: Any, titles: Mapping[str, str]) -> list[str]:
    """What each numbered space of a gear does (0: entry; above the actions: free choice)."""
    texts = ["Entry space: no action"]
    texts += [tz_action(gear, spec, titles) for spec in gear.action_list]
    texts += ["Free choice: any action of this gear"] * (gear.spaces - 1 - gear.actions)
    return texts


def tz_tech_bonus(kind: str, n: int) -> str:
    """What advancing beyond level 3 gives (techs.json bonus, rules section 11)."""
    return {"temple": f"+{n} on a temple of your choice", "blocks": f"take {plural(n, 'resource block')}",
            "vp": f"{n} VP", "skull": f"take {plural(n, 'crystal skull')}"}[kind]


def catalogue() -> dict[str, Any]:
    """Every Tzolk'in component id in words (see :mod:`mayagames.web.catalogue`)."""
    titles = {t.name: t.title for t in DATA.temples} | {t.name: t.title for t in DATA.tracks}
    return {
        "game": "tzolkin",
        "rounds": DATA.food_days[-1][0],
        "gears": {g.name: {"title": g.title, "spaces": tz_space_texts(g, titles)} for g in DATA.gears},
        "buildings": {b.id: {"age": b.age, "category": b.category, "cost": cost_dict(b.cost),
                             "effect": building_effect(b.effects)} for b in DATA.buildings},
        "monuments": {m.id: {"category": m.category, "cost": cost_dict(m.cost, m.skull_cost),
                             "effect": monument_scoring(m.scoring)} for m in DATA.monuments},
        "start_tiles": {t.id: {"gear": t.gear, "space": t.space, "effect": start_tile(t)}
                        for t in DATA.tiles},
        "temples": {t.name: {"title": t.title, "vp": list(t.vp), "bonus": list(t.bonus),
                             "rewards": [dict(zip(("wood", "stone", "gold", "skull"), r)) for r in t.rewards]}
                    for t in DATA.temples},
        "techs": {t.name: {"title": t.title, "levels": list(t.levels),
                           "bonus": tz_tech_bonus(t.bonus_kind, t.bonus_count)}
                  for t in DATA.tracks},
        "tech_cost": list(DATA.tech_cost),
        "market": dict(zip(BLOCKS, DATA.market)),
        "tariff": list(DATA.tariff),
        "food": {"corn_per_worker": DATA.corn_per_worker, "unfed_vp": DATA.unfed_vp},
    }

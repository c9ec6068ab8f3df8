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
from .components import DATA, TEMPLES, TRACKS

TZOLKIN_BLOCKS = ("wood", "stone", "gold")


def tz_amounts(amounts: Mapping[str, int]) -> str:
    """``{"stone": 1, "corn": 2}`` -> ``1 stone + 2 corn`` (skulls spelled out)."""
    words = {"skull": "crystal skull"}
    return " + ".join(plural(n, words[k]) if k in words else f"{n} {k}"
                      for k, n in amounts.items() if n)


def tz_cost(cost: tuple[int, ...], skulls: int = 0) -> dict[str, int]:
    out = {name: n for name, n in zip(TZOLKIN_BLOCKS, cost) if n}
    if skulls:
        out["skull"] = skulls
    return out


def tz_effect(eff: Mapping[str, Any], titles: Mapping[str, str]) -> str:
    """A building's effects (buildings.json keys, rules section 12) in words."""
    parts: list[str] = []
    if "farm_free" in eff:
        parts.append(f"Farm: at every Food Day {plural(eff['farm_free'], 'worker')} "
                     f"{'needs' if eff['farm_free'] == 1 else 'need'} no corn")
    if "farm_discount" in eff:
        parts.append(f"Farm: at every Food Day each worker needs {eff['farm_discount']} corn less")
    if eff.get("gain"):
        parts.append("take " + tz_amounts(eff["gain"]))
    parts += [f"+{n} on {titles[t]}" for t, n in eff.get("temples", {}).items()]
    if "any_temple" in eff:
        parts.append(f"+{eff['any_temple']} on a temple of your choice")
    parts += [f"+{n} {titles[t]} (free)" for t, n in eff.get("techs", {}).items()]
    if "any_tech" in eff:
        parts.append(f"{plural(eff['any_tech'], 'free technology advance')} of your choice")
    if "workers" in eff:
        parts.append(f"+{plural(eff['workers'], 'worker')} from the bank")
    if "market" in eff:
        parts.append("trade at the market (as Uxmal 2)")
    if "mirror" in eff:
        parts.append("pay 1 corn: any action of Palenque, Yaxchilan, Tikal or Uxmal (as Uxmal 5)")
    if "build_another" in eff:
        parts.append("then you may build one more building, paying its cost")
    if "vp" in eff:
        parts.append(f"{eff['vp']} VP")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:]


def tz_scoring(sc: Mapping[str, Any]) -> str:
    """A monument's end-of-game scoring (monuments.json kinds, rules section 13)."""
    kind = sc["kind"]
    if kind == "per_category":
        return f"{sc['vp']} VP per {sc['category']} building and monument you own (this one counts)"
    if kind == "per_building":
        return f"{sc['vp']} VP per building and monument you own"
    if kind == "per_corn_tile":
        return f"{sc['vp']} VP per Corn Harvest Tile you collected"
    if kind == "per_wood_tile":
        return f"{sc['vp']} VP per Wood Harvest Tile you collected (burned ones do not count)"
    if kind == "per_monument_built":
        by = sc["vp_by_players"]
        return ("VP per monument built by all players: " +
                ", ".join(f"{vp} with {n} players" for n, vp in sorted(by.items())))
    if kind == "techs_at_level3":
        return "Technologies at level 3: 1 -> 9 VP, 2 -> 20 VP, 3 or 4 -> 33 VP"
    if kind == "per_tech_level":
        return f"{sc['vp']} VP per technology level (all four tracks)"
    if kind == "workers_in_play":
        return "Workers in play: 3/4/5/6 -> 0/6/12/18 VP"
    if kind == "temples_again":
        return "Score again the VP of your step on each temple"
    if kind == "highest_temple_steps":
        return f"{sc['vp']} VP per step above the start on your highest temple"
    if kind == "skulls_on_chichen":
        return f"{sc['vp']} VP per crystal skull on Chichen Itza (everyone's)"
    raise ValueError(f"unknown monument scoring {kind!r}")


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
        return "Take " + tz_amounts(spec["gain"])
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


def tz_tile(tile: Any, titles: Mapping[str, str]) -> str:
    """A start tile's contents (start_tiles.json, rules section 14)."""
    goods = dict(zip(("corn", "wood", "stone", "gold", "skull"), tile.gain))
    parts = [tz_amounts(goods)] if any(goods.values()) else []
    parts += [f"+{n} on {titles[t]}" for t, n in zip(TEMPLES, tile.temples) if n]
    parts += [f"+{n} {titles[t]}" for t, n in zip(TRACKS, tile.techs) if n]
    if tile.workers:
        parts.append(f"+{plural(tile.workers, 'worker')}")
    if tile.farm_free:
        parts.append("1 of your workers always needs no corn")
    return "; ".join(parts)


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
        "buildings": {b.id: {"age": b.age, "category": b.category, "cost": tz_cost(b.cost),
                             "effect": tz_effect(b.effects, titles)} for b in DATA.buildings},
        "monuments": {m.id: {"category": m.category, "cost": tz_cost(m.cost, m.skull_cost),
                             "effect": tz_scoring(m.scoring)} for m in DATA.monuments},
        "start_tiles": {t.id: {"gear": t.gear, "space": t.space, "effect": tz_tile(t, titles)}
                        for t in DATA.tiles},
        "temples": {t.name: {"title": t.title, "vp": list(t.vp), "bonus": list(t.bonus),
                             "rewards": [dict(zip(("wood", "stone", "gold", "skull"), r)) for r in t.rewards]}
                    for t in DATA.temples},
        "techs": {t.name: {"title": t.title, "levels": list(t.levels),
                           "bonus": tz_tech_bonus(t.bonus_kind, t.bonus_count)}
                  for t in DATA.tracks},
        "tech_cost": list(DATA.tech_cost),
        "market": dict(zip(TZOLKIN_BLOCKS, DATA.market)),
        "tariff": list(DATA.tariff),
        "food": {"corn_per_worker": DATA.corn_per_worker, "unfed_vp": DATA.unfed_vp},
    }

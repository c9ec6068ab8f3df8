"""What Tzolk'in's components do, in words: the one table of phrasings.

Every text is written from the component data (``data/*.json``), never from values
copied here, in two registers: ``long`` for the browser's catalogue (whole sentences, a
player's first look) and ``short`` for the terminal's board (one line per component).
:mod:`.catalogue` and :mod:`.render` both read these tables, so a building or monument
is described once.

>>> from .components import DATA
>>> m07 = next(m for m in DATA.monuments if m.id == "m07")
>>> monument_scoring(m07.scoring)
'Technologies at level 3: 1 -> 9 VP, 2 -> 20 VP, 3 or 4 -> 33 VP'
>>> monument_scoring(m07.scoring, short=True)
'9/20/33 VP for 1/2/3+ techs at level 3'
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..core.words import plural
from .components import DATA, RESOURCES, TEMPLES, TRACKS

GOODS = ("corn", "wood", "stone", "gold", "skull")
BLOCKS = ("wood", "stone", "gold")
#: temple and technology names -> their titles ("chaac" -> "Chaac")
TITLES: dict[str, str] = ({t.name: t.title for t in DATA.temples}
                          | {t.name: t.title for t in DATA.tracks})


def amounts(goods: Mapping[str, int]) -> str:
    """``{"stone": 1, "corn": 2}`` -> ``1 stone + 2 corn`` (skulls spelled out)."""
    words = {"skull": "crystal skull"}
    return " + ".join(plural(n, words[k]) if k in words else f"{n} {k}"
                      for k, n in goods.items() if n)


def cost_text(cost: tuple[int, ...], skull: int = 0, short: bool = True) -> str:
    """A cost in resource blocks (and crystal skulls): ``2 wood + 1 stone``."""
    parts = [f"{n} {RESOURCES[r]}" for r, n in enumerate(cost) if n]
    if skull:
        parts.append(f"{skull} skull" if short else f"{skull} crystal skull")
    return " + ".join(parts) if short else " + ".join(parts) or "nothing"


def cost_dict(cost: tuple[int, ...], skulls: int = 0) -> dict[str, int]:
    """A cost as ``{"wood": 2, "stone": 1}`` (for clients)."""
    out = {name: n for name, n in zip(BLOCKS, cost) if n}
    if skulls:
        out["skull"] = skulls
    return out


# --- buildings (buildings.json effects, rules section 12) ----------------------------
Phrase = Callable[[Any], "list[str]"]

#: effect key -> (long phrasing, short phrasing); each returns the parts it adds
BUILDING_EFFECTS: dict[str, tuple[Phrase, Phrase]] = {
    "farm_free": (lambda n: [f"Farm: at every Food Day {plural(n, 'worker')} "
                             f"{'needs' if n == 1 else 'need'} no corn"],
                  lambda n: [f"farm: {n} worker(s) fed free"]),
    "farm_discount": (lambda n: [f"Farm: at every Food Day each worker needs {n} corn less"],
                      lambda n: [f"farm: each worker needs {n} corn less"]),
    "gain": (lambda g: ["take " + amounts(g)] if g else [],
             lambda g: [f"+{n} {k}" for k, n in g.items()]),
    "temples": (lambda t: [f"+{n} on {TITLES[k]}" for k, n in t.items()],
                lambda t: [f"{k} +{n}" for k, n in t.items()]),
    "any_temple": (lambda n: [f"+{n} on a temple of your choice"],
                   lambda n: [f"any temple +{n}"]),
    "techs": (lambda t: [f"+{n} {TITLES[k]} (free)" for k, n in t.items()],
              lambda t: [f"{k} +{n}" for k, n in t.items()]),
    "any_tech": (lambda n: [f"{plural(n, 'free technology advance')} of your choice"],
                 lambda n: [f"{n} free tech advance(s)"]),
    "workers": (lambda n: [f"+{plural(n, 'worker')} from the bank"],
                lambda n: [f"+{n} worker"]),
    "market": (lambda _: ["trade at the market (as Uxmal 2)"], lambda _: ["market"]),
    "mirror": (lambda _: ["pay 1 corn: any action of Palenque, Yaxchilan, Tikal or Uxmal (as Uxmal 5)"],
               lambda _: ["1 corn: mirror action"]),
    "build_another": (lambda _: ["then you may build one more building, paying its cost"],
                      lambda _: ["build another"]),
    "vp": (lambda n: [f"{n} VP"], lambda n: [f"{n} VP"]),
}
# the order effects are told in: long, each fixed step before the free choice of its kind;
# short, the fixed steps first
EFFECT_ORDER = {False: ("farm_free", "farm_discount", "gain", "temples", "any_temple", "techs", "any_tech",
                        "workers", "market", "mirror", "build_another", "vp"),
                True: ("farm_free", "farm_discount", "gain", "temples", "techs", "any_temple", "any_tech",
                       "workers", "market", "mirror", "build_another", "vp")}


def building_effect(effects: Mapping[str, Any], short: bool = False) -> str:
    """A building's effects in words: ``Take 1 gold; +1 on Chaac`` / ``+1 gold, chaac +1``."""
    parts: list[str] = []
    for key in EFFECT_ORDER[short]:
        if key in effects:
            parts += BUILDING_EFFECTS[key][short](effects[key])
    if short:
        return ", ".join(parts)
    text = "; ".join(parts)
    return text[:1].upper() + text[1:]


# --- monuments (monuments.json scoring kinds, rules section 13) ----------------------
def _by_count(vp: list[int]) -> str:
    """``[0, 9, 20, 33, 33]`` -> ``1 -> 9 VP, 2 -> 20 VP, 3 or 4 -> 33 VP`` (0 left out)."""
    groups: list[tuple[list[int], int]] = []
    for n, v in enumerate(vp):
        if n == 0:
            continue
        if groups and groups[-1][1] == v:
            groups[-1][0].append(n)
        else:
            groups.append(([n], v))
    return ", ".join(f"{' or '.join(map(str, ns))} -> {v} VP" for ns, v in groups)


def _levels3_short(vp: list[int]) -> str:
    values = sorted(set(vp[1:]), key=vp.index)
    counts = [str(vp.index(v)) for v in values]
    counts[-1] += "+" if vp.count(values[-1]) > 1 else ""
    return f"{'/'.join(map(str, values))} VP for {'/'.join(counts)} techs at level 3"


def _workers(by: Mapping[str, int]) -> tuple[str, str]:
    keys = sorted(by, key=int)
    return "/".join(keys), "/".join(str(by[k]) for k in keys)


Scoring = Callable[[Mapping[str, Any], int], str]

#: scoring kind -> (long phrasing, short phrasing for ``players`` players)
MONUMENT_SCORING: dict[str, tuple[Scoring, Scoring]] = {
    "per_category": (lambda sc, p: f"{sc['vp']} VP per {sc['category']} building and monument you own (this one counts)",
                     lambda sc, p: f"{sc['vp']} VP per {sc['category']} building/monument"),
    "per_building": (lambda sc, p: f"{sc['vp']} VP per building and monument you own",
                     lambda sc, p: f"{sc['vp']} VP per building/monument"),
    "per_corn_tile": (lambda sc, p: f"{sc['vp']} VP per Corn Harvest Tile you collected",
                      lambda sc, p: f"{sc['vp']} VP per corn tile"),
    "per_wood_tile": (lambda sc, p: f"{sc['vp']} VP per Wood Harvest Tile you collected (burned ones do not count)",
                      lambda sc, p: f"{sc['vp']} VP per wood tile"),
    "per_monument_built": (
        lambda sc, p: "VP per monument built by all players: " + ", ".join(
            f"{vp} with {n} players" for n, vp in sorted(sc["vp_by_players"].items())),
        lambda sc, p: f"{sc['vp_by_players'][str(p)]} VP per monument built by anyone"),
    "techs_at_level3": (lambda sc, p: "Technologies at level 3: " + _by_count(sc["vp_by_count"]),
                        lambda sc, p: _levels3_short(sc["vp_by_count"])),
    "per_tech_level": (lambda sc, p: f"{sc['vp']} VP per technology level (all four tracks)",
                       lambda sc, p: f"{sc['vp']} VP per tech level"),
    "workers_in_play": (lambda sc, p: "Workers in play: {} -> {} VP".format(*_workers(sc["vp_by_workers"])),
                        lambda sc, p: "{1} VP for {0} workers".format(*_workers(sc["vp_by_workers"]))),
    "temples_again": (lambda sc, p: "Score again the VP of your step on each temple",
                      lambda sc, p: "temple VP again"),
    "highest_temple_steps": (lambda sc, p: f"{sc['vp']} VP per step above the start on your highest temple",
                             lambda sc, p: f"{sc['vp']} VP per step on highest temple"),
    "skulls_on_chichen": (lambda sc, p: f"{sc['vp']} VP per crystal skull on Chichen Itza (everyone's)",
                          lambda sc, p: f"{sc['vp']} VP per skull on Chichen Itza"),
}


def monument_scoring(scoring: Mapping[str, Any], players: int = 4, short: bool = False) -> str:
    """A monument's end-of-game scoring in words (``players``: for the short form's VP)."""
    phrasings = MONUMENT_SCORING.get(scoring["kind"])
    if phrasings is None:
        raise ValueError(f"unknown monument scoring {scoring['kind']!r}")
    return phrasings[short](scoring, players)


# --- starting wealth tiles (start_tiles.json, rules section 14) -----------------------
def start_tile(tile: Any, short: bool = False) -> str:
    """A start tile's contents: ``2 corn; +1 on Chaac`` / ``2 corn, chaac +1``."""
    goods = dict(zip(GOODS, tile.gain))
    if short:
        parts = [f"{n} {name}" for name, n in goods.items() if n]
        parts += [f"{TEMPLES[t]} +{n}" for t, n in enumerate(tile.temples) if n]
        parts += [f"{TRACKS[t]} +{n}" for t, n in enumerate(tile.techs) if n]
        if tile.workers:
            parts.append(f"+{tile.workers} worker")
        if tile.farm_free:
            parts.append("1 worker always fed")
        return ", ".join(parts)
    parts = [amounts(goods)] if any(goods.values()) else []
    parts += [f"+{n} on {TITLES[t]}" for t, n in zip(TEMPLES, tile.temples) if n]
    parts += [f"+{n} {TITLES[t]}" for t, n in zip(TRACKS, tile.techs) if n]
    if tile.workers:
        parts.append(f"+{plural(tile.workers, 'worker')}")
    if tile.farm_free:
        parts.append("1 of your workers always needs no corn")
    return "; ".join(parts)

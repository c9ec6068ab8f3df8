"""What each Tikal Legend component is and does, in words: the game's catalogue.

Served by ``GET /api/games/tikal/catalogue`` for the browser's boards; built once from
the component data files (``data/*.json``), so it cannot disagree with the rules
engine. Public, static information only (what a card does, never where it is).

>>> catalogue()["cards"]["moves-5"]["title"]
'5 free moves'
"""

from __future__ import annotations

from typing import Any, Mapping

from ..core.words import plural
from .data import SIDES, default_components

# Short titles of the 19 card kinds (rulebook section 10), filled from each card's params.
TIKAL_CARD_TITLES = {
    "pair": "Treasure pair: {treasure}",
    "ruin-2": "{explorers} Explorers to a Ruin",
    "ruin-3": "{explorers} Explorers to a Ruin",
    "dig-1": "Dig 1 treasure",
    "dig-2": "Dig 2 treasures",
    "dig-3": "Dig 3 treasures",
    "temple-base": "{explorers} Explorers to Temples",
    "clear-2": "Clear {floors} Temple floors",
    "camp": "Free Base Camp",
    "camp-em": "Free Base Camp + EM",
    "recruit": "Recruit Leader + Explorer",
    "moves-5": "{points} free moves",
    "stone": "Trail Stone",
    "ap-1": "+{ap} AP (permanent)",
    "ap-2": "+{ap} AP (permanent)",
    "temple": "Temple tile {tile}",
    "lake": "Lake tile {tile}",
    "volcano": "Volcano tile {tile}",
    "explorers-4": "{explorers} Explorers from the box",
}

# What each kind of hex is for (rulebook sections 6-8), shown when a hex is pointed at.
TIKAL_TERRAIN = {
    "jungle": "Jungle: each Jungle hex where you have the majority scores 1 PP per Temple "
              "you hold (majority or Guardian)",
    "base_camp": "Base Camp: deploy new EMs here (1 AP each); move between Base Camps for 1 AP",
    "temple": "Temple: the majority (Leader 3, Explorer 1) or its Guardian scores its level; "
              "clear floors (2 AP) to raise it; levels 7-10 score a tallest-temple bonus",
    "clearing": "Clearing: a Base Camp may be set up here (5 AP)",
    "ruins": "Ruins: unearth its treasures (3 AP, an EM per token); the majority scores its "
             "visible masks times the Lakes it holds",
    "lake": "Lake: each Lake where you have the majority multiplies your Ruin masks",
    "volcano": "Volcano: 10 PP to the majority at every scoring; placing a Volcano tile "
               "starts an In-Game Scoring",
}

TIKAL_TILE_TYPES = {"temple": "Temple", "clearing": "Clearing", "ruins": "Ruins",
                    "lake": "Lake", "volcano": "Volcano"}


def tikal_tile_title(tile: Any) -> str:
    """``Temple, level 3`` / ``Ruins, 4 masks`` / ``Lake``."""
    name = TIKAL_TILE_TYPES[tile.type]
    if tile.type == "temple":
        return f"{name}, level {tile.value}"
    if tile.type == "ruins":
        return f"{name}, {plural(tile.masks, 'mask')}"
    return name


def tikal_card_title(card: Any, tiles: Mapping[str, Any]) -> str:
    kind = card.name.split("-")[0] if card.effect in ("treasure_pair", "symbol_tile") else card.name
    title = TIKAL_CARD_TITLES[kind].format(**card.params)
    tile = card.params.get("tile")
    if tile and tiles[tile].type == "temple":
        title += f" (level {tiles[tile].value})"
    return title


def catalogue() -> dict[str, Any]:
    """Every Tikal component id in words (see :mod:`mayagames.web.catalogue`)."""
    c = default_components()
    tiles = {t.id: t for t in c.tiles}
    cards: dict[str, Any] = {}
    for card in c.cards:
        cards.setdefault(card.name, {
            "title": tikal_card_title(card, tiles), "text": card.text,
            "permanent": card.permanent, "removed_on_reshuffle": card.removed_on_reshuffle,
            # what it does, as the data file says (the browser draws its icons from these)
            "effect": card.effect, "params": dict(card.params)})
    return {
        "game": "tikal",
        "cards": cards,
        "powers": {name: {"title": name.capitalize(), "text": p.text} for name, p in c.powers.items()},
        "unused_director_bonus": c.unused_director_bonus,
        "tiles": {t.id: {"title": tikal_tile_title(t), "type": t.type, "value": t.value,
                         "masks": t.masks, "back": t.back, "stones": list(t.stones)}
                  for t in c.tiles},
        "sides": list(SIDES),
        "terrain": dict(TIKAL_TERRAIN),
        "treasure_sets": list(c.set_values),
        "ap_costs": dict(c.ap_costs),
    }

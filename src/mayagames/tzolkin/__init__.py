"""Tzolk'in: The Mayan Calendar (CGE 2012), the complete base game for 2-4 players.

>>> from mayagames.core import new_game
>>> state = new_game("tzolkin", 2, seed=1)
>>> state.phase_name, len(state.legal_actions())      # the start-tile draft: 6 pairs
('draft', 6)

Rules: ``/work/shared/rules/tzolkin.md`` summarised in ``docs/tzolkin_rules_notes.md``
(with every reading taken on a gap); the ``to_dict`` layout is ``docs/tzolkin_state.md``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.game import GameInfo, GamePlugin, Lazy, OptionSpec
from ..core.registry import register
from . import heuristic
from .actions import ACTION_TYPES, parse_action
from .components import DATA
from .narrate import narrate
from .render import decision_details, render
from .state import TzolkinState

OPTIONS = (
    OptionSpec("dummy_placement", "opposite",
               "2-3 players: a dummy on the space of each revealed start tile, plus the opposite "
               "hole for the first dummy of each small gear ('opposite'), or only one per tile ('single')",
               ("opposite", "single"),
               label="Neutral workers (2-3 players)", explain="How the neutral workers that block "
               "spaces in a 2- or 3-player game are set up.",
               choice_labels={"opposite": "one per revealed tile, plus one opposite on each small gear",
                              "single": "one per revealed tile only"}),
    OptionSpec("jungle_tiles", "players",
               "harvest tiles per jungle group: as many as players ('players') or always 4 ('four')",
               ("players", "four"),
               label="Jungle tiles", explain="How many corn and wood tiles each part of the Palenque "
               "jungle holds.",
               choice_labels={"players": "as many as players", "four": "always 4"}),
    OptionSpec("monuments", "players_plus_two",
               "monuments dealt: players + 2 ('players_plus_two') or always 6 ('six')",
               ("players_plus_two", "six"),
               label="Monuments on offer", explain="How many monuments are dealt at the start.",
               choice_labels={"players_plus_two": "players + 2", "six": "always 6"}),
    OptionSpec("corn_vp", "exact",
               "final scoring of corn: exact 1/4 VP each ('exact') or rounded down ('floor')",
               ("exact", "floor"),
               label="Corn at the end", explain="How leftover corn scores at the end: 1/4 point each.",
               choice_labels={"exact": "exact quarters", "floor": "rounded down to whole points"}),
    OptionSpec("uxmal4_price", "flat",
               "Uxmal 4 price: 2 corn per block ('flat') or the market rate of each block ('market')",
               ("flat", "market"),
               label="Building for corn (Uxmal 4)", explain="What a building costs in corn at Uxmal 4.",
               choice_labels={"flat": "2 corn per resource", "market": "each resource at its market price"}),
    OptionSpec("a1t3_architecture", False,
               "whether architecture applies to the extra building of A1-T3", (False, True),
               label="Architecture on A1-T3's extra building", explain="Whether your Architecture level "
               "also helps with the extra building that building A1-T3 lets you construct.",
               choice_labels={"False": "no", "True": "yes"}),
)


def new_game(num_players: int, seed: int, options: dict[str, Any]) -> TzolkinState:
    """A new game at the start-tile draft (options already resolved)."""
    return TzolkinState(num_players, seed, options)


def seat_features(state: Any) -> list[dict[str, Any]]:
    """Per-seat categorical features for balance reports: seat, first player, and
    ``tiles``, the two starting wealth tiles kept, a list ("?" where unknown to a view):
    the report counts the seat under each of them."""
    out = []
    for seat in range(state.num_players):
        kept = sorted(DATA.tiles[t].id if t >= 0 else "?" for t in state.kept[seat])
        kept += ["?"] * (2 - len(kept))
        out.append({"seat": str(seat), "starting_player": str(seat == 0).lower(), "tiles": kept})
    return out


INFO = register(GameInfo(
    name="tzolkin", title="Tzolk'in: The Mayan Calendar", version="1.0",
    min_players=2, max_players=4, new_game=new_game, parse_action=parse_action, render=render,
    actions=ACTION_TYPES,
    options=OPTIONS, max_decisions=20_000,
    doc="Worker placement on the gears of the Maya calendar (base game).",
    plugin=GamePlugin(
        estimate_scores=heuristic.estimate_scores, score_scale=heuristic.SCORE_SCALE,
        estimate_variants={"v1": heuristic.estimate_scores, "v2": heuristic.estimate_scores_v2,
                           "learned": Lazy("mayagames.tzolkin.learned:estimate_scores_learned"),
                           "learned1": Lazy("mayagames.tzolkin.learned:estimate_scores_learned_first"),
                           "learned3": Lazy("mayagames.tzolkin.learned:estimate_scores_learned_third"),
                           "learned4": Lazy("mayagames.tzolkin.learned:estimate_scores_learned_fourth"),
                           "learned5": Lazy("mayagames.tzolkin.learned:estimate_scores_learned_fifth"),
                           "learned6": Lazy("mayagames.tzolkin.learned:estimate_scores_learned_sixth"),
                           "learned7": Lazy("mayagames.tzolkin.learned:estimate_scores_learned_seventh"),
                           "learned6t": Lazy("mayagames.tzolkin.learned:estimate_scores_learned_sixth_trees")},
        review_sharpness=Lazy("mayagames.tzolkin.learned:review_sharpness"),
        review_stage=Lazy("mayagames.tzolkin.learned:era"),
        greedy_depth=heuristic.GREEDY_DEPTH, public_estimate=heuristic.PUBLIC_ESTIMATE,
        chance_is_revealed=heuristic.CHANCE_IS_REVEALED,
        seat_features=seat_features, details=decision_details,
        catalogue=Lazy("mayagames.tzolkin.catalogue:catalogue"),
        encoding=Lazy("mayagames.tzolkin.encoding:ENCODING"),
        sensible_actions=Lazy("mayagames.tzolkin.sensible:sensible_actions"),
        shown_view=Lazy("mayagames.tzolkin.describe:shown_view"),
        settled_choice=Lazy("mayagames.tzolkin.settled:settled_choice")),
    narrator=narrate,
    rules_page=(Path(__file__).parent / "rules_page.md").read_text(encoding="utf-8"),
))
TzolkinState.info = INFO

__all__ = ["INFO", "TzolkinState", "new_game", "parse_action", "render", "seat_features"]

"""Tikal Legend (M. Kiesling & W. Kramer; Super Meeple): the complete rules engine.

>>> from mayagames.core import new_game
>>> state = new_game("tikal", 3, seed=7)
>>> state.phase_name, state.current_player in range(3)
('round_management', True)
>>> str(state.legal_actions()[0]).startswith("take ")
True

Rules: ``shared/rules/tikal_legend.md``; readings on its gaps and the options that offer
the other reading: ``docs/tikal_rules_notes.md``; component data (a documented
reconstruction where the rulebook text is silent): ``data/*.json`` and ``docs/tikal_data.md``;
``to_dict()`` layout: ``docs/tikal_state.md``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.game import GameInfo, GamePlugin, Lazy, OptionSpec
from ..core.registry import register
from . import heuristic
from .actions import ACTION_TYPES, parse_action
from .data import DataError, default_components, load_components
from .narrate import narrate
from .render import render
from .serialize import question
from .setup_game import new_tikal_game
from .state import PHASE_NAMES, TikalState

VERSION = "1.0"

OPTIONS = (
    OptionSpec("guardian_removal", "own",
               "whose other EMs leave the game when a Guardian is placed: 'own' (the rulebook's example, "
               "gap A12) or 'all' (every colour, the bullet text read literally)", ("own", "all"),
               label="Guardian removes", explain="When you place a Guardian on a temple, whose other "
               "figures on that temple leave the game.",
               choice_labels={"own": "only your own figures", "all": "everyone's figures"}),
    OptionSpec("starting_prestige", "turn_order",
               "starting Prestige: 'turn_order' (markers on spaces 1, 2, 3, 4 in turn order, gap A4) or 'zero'",
               ("turn_order", "zero"),
               label="Starting points", explain="Where the Prestige markers start.",
               choice_labels={"turn_order": "1, 2, 3, 4 in turn order (as printed)",
                              "zero": "everyone on 0"}),
    OptionSpec("volcano_order", "turn_order",
               "after the volcano's placer, the other players' 10-AP turns go 'turn_order' (statuettes left "
               "to right) or 'after_placer' (from the next player on)", ("turn_order", "after_placer"),
               label="Volcano scoring order", explain="After the player who laid a volcano, in which order "
               "the others take their 10-AP turn and score.",
               choice_labels={"turn_order": "this round's turn order",
                              "after_placer": "from the next player on"}),
    OptionSpec("builder_counts_guardian", False,
               "whether the Builder power counts temples you hold by a Guardian (gap A16: majority only)",
               (False, True),
               label="Builder counts Guardian temples", explain="Whether the Builder power may score a "
               "temple you hold with a Guardian, not only by majority.",
               choice_labels={"False": "no, majority only", "True": "yes"}),
    OptionSpec("fisher_source", "supply",
               "the Fisher power's Explorer comes from the 'supply' (gap A16) or 'supply_or_board'",
               ("supply", "supply_or_board"),
               label="Fisher's Explorer comes from", explain="Where the Explorer the Fisher power puts on "
               "a Lake may come from.",
               choice_labels={"supply": "your supply", "supply_or_board": "your supply or the board"}),
    OptionSpec("kept_card_spaces", 3, "card spaces on the left of a campsite (gap A10: 3)", (1, 2, 3, 4, 5, 6),
               label="Kept-card spaces", explain="How many cards you may keep on the left of your "
               "campsite for later rounds."),
)


def seat_features(state: TikalState) -> list[dict[str, str]]:
    """Per seat categorical features for balance reports."""
    C = state.C
    first_order = list(state.start_order)
    return [{"director": C.directors[state.director[seat]].name,
             "director_tile": str(C.directors[state.director[seat]].id),
             "director_power": state.power_used[seat] or "unused",
             "starting_position": str(first_order.index(seat) + 1),
             "colour": ("red", "blue", "yellow", "green")[seat]}
            for seat in range(state.num_players)]


def _new_game(num_players: int, seed: int, options: dict[str, Any]) -> TikalState:
    return new_tikal_game(num_players, seed, options)


INFO = register(GameInfo(
    name="tikal", title="Tikal Legend", version=VERSION, min_players=1, max_players=4,
    new_game=_new_game, parse_action=parse_action, render=render,
    actions=ACTION_TYPES, options=OPTIONS,
    max_decisions=20_000,
    doc="Explore the jungle, clear temples, unearth treasures. 1 player = the solo score-attack variant.",
    plugin=GamePlugin(
        estimate_scores=heuristic.estimate_scores, score_scale=heuristic.SCORE_SCALE,
        public_estimate=heuristic.PUBLIC_ESTIMATE,
        chance_is_revealed=heuristic.CHANCE_IS_REVEALED,
        seat_features=seat_features, prompt=question,
        catalogue=Lazy("mayagames.tikal.catalogue:catalogue"),
        encoding=Lazy("mayagames.tikal.encoding:ENCODING")),
    narrator=narrate,
    rules_page=(Path(__file__).parent / "rules_page.md").read_text(encoding="utf-8"),
))
TikalState.info = INFO

__all__ = ["INFO", "TikalState", "new_tikal_game", "parse_action", "render", "DataError",
           "load_components", "default_components", "PHASE_NAMES", "seat_features"]

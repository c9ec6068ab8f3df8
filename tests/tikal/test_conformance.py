"""The conformance suite with Tikal's options (every player count runs from the registry
in tests/test_conformance.py)."""

import pytest

from mayagames.core import conformance


@pytest.mark.parametrize("options", [{"guardian_removal": "all", "volcano_order": "after_placer"},
                                     {"fisher_source": "supply_or_board", "kept_card_spaces": 1,
                                      "starting_prestige": "zero", "builder_counts_guardian": True}])
def test_random_games_with_options(options):
    for players in (2, 4):
        conformance.check_random_games("tikal", players, games=3, seed=7, options=options)

"""The small test games of the server tests are valid games."""

from __future__ import annotations


def test_the_test_games_pass_the_core_conformance_suite(support):
    """The server's test games obey the protocol like real games (views, clones, records)."""
    from mayagames.core import conformance

    for game in ("toysecret", "tally"):
        for players in (2, 3):
            conformance.run_all(game, players, games=3, seed=1)

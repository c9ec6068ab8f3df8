"""Issue 21: a bot may be told which of the game's estimates to use (``eval=v1``: the
baseline kept for strength matches), and MCTS may keep to the game's sensible moves."""

from __future__ import annotations

import pytest

from mayagames.agents import LEVELS, HeuristicAgent, MCTSAgent, make_agent
from mayagames.core import Rng, new_game
from mayagames.tzolkin import heuristic as H
from mayagames.tzolkin.positions import blank, play, set_goods
from mayagames.tzolkin.sensible import sensible_actions


def positions(players: int = 2, count: int = 4, seed: int = 3):
    """Positions with a choice from a seeded random Tzolk'in game."""
    s, rng, out = new_game("tzolkin", players, seed=seed), Rng(seed), []
    step = 0
    while not s.is_terminal and len(out) < count:
        legal = s.legal_actions()
        if len(legal) > 2 and step % 17 == 5:
            out.append(s.clone())
        s.apply(legal[rng.randbelow(len(legal))])
        step += 1
    return out


def test_eval_settings_are_parsed_and_checked():
    assert make_agent("heuristic:eval=v1").eval == "v1"
    assert make_agent("mcts:10i,eval=v1,sensible=1").eval == "v1"
    assert make_agent("mcts:10i,sensible=1").sensible
    assert make_agent("heuristic").eval is None and not make_agent("mcts:10i").sensible
    s = positions(count=1)[0]
    with pytest.raises(ValueError, match="no estimate 'v0'.*v1"):
        make_agent("heuristic:eval=v0").act(s.view(s.current_player), s.legal_actions())


def test_eval_v1_uses_the_v1_estimate():
    """The baseline's values are v1's: a heuristic bot given the v1 function decides the same."""
    for i, s in enumerate(positions()):
        view, legal = s.view(s.current_player), s.legal_actions()
        named = make_agent("heuristic:eval=v1", i).action_values(view, legal)
        given = HeuristicAgent(i, estimate=H.estimate_scores_v1).action_values(view, legal)
        assert named == pytest.approx(given)


@pytest.mark.parametrize("spec", ["medium", "heuristic:eval=v1", "mcts:60i,sensible=1",
                                  "mcts:60i,eval=v1"])
def test_decisions_are_deterministic_under_a_seed(spec):
    for s in positions(count=3):
        view, legal = s.view(s.current_player), s.legal_actions()
        assert make_agent(spec, 7).act(view, legal) == make_agent(spec, 7).act(view, legal)


def test_mcts_sensible_searches_and_plays_only_sensible_moves():
    s = blank(2)                      # 3 workers: the Food Day of day 8 eats 6 corn
    set_goods(s, 0, corn=7)
    play(s, "place tikal", "place yaxchilan")
    legal = s.legal_actions()
    kept = sensible_actions(s, legal)
    assert len(kept) < len(legal)
    agent = MCTSAgent(1, iterations=80, sensible=True)
    action = agent.act(s.view(0), legal)
    assert action in kept
    assert {r["action"] for r in agent.last.root} <= {str(a) for a in kept}


def test_levels_keep_the_guard_rails():
    assert "sensible=1" in LEVELS["medium"][0] and LEVELS["hard"][0].startswith("mcts:1s")
    assert make_agent("hard").sensible and make_agent("medium").sensible

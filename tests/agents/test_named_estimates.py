"""Issue 21: a bot may be told which of the game's estimates to use (``eval=v2``: the
estimate of the ``medium`` level; ``eval=v1``: the default), and MCTS may keep to the game's sensible moves."""

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
    assert make_agent("heuristic:eval=v2").eval == "v2"
    assert make_agent("mcts:10i,eval=v1,sensible=1").eval == "v1"
    assert make_agent("mcts:10i,sensible=1").sensible
    assert make_agent("heuristic").eval is None and not make_agent("mcts:10i").sensible
    s = positions(count=1)[0]
    with pytest.raises(ValueError, match="no estimate 'v0'.*v1"):
        make_agent("heuristic:eval=v0").act(s.view(s.current_player), s.legal_actions())


def test_eval_names_the_estimate():
    """A heuristic bot told ``eval=v2`` values actions as one given the v2 function, and
    ``eval=v1`` as the default (v1 stays the game's estimate)."""
    for i, s in enumerate(positions()):
        view, legal = s.view(s.current_player), s.legal_actions()
        named = make_agent("heuristic:eval=v2", i).action_values(view, legal)
        given = HeuristicAgent(i, estimate=H.estimate_scores_v2).action_values(view, legal)
        assert named == pytest.approx(given)
        assert (make_agent("heuristic:eval=v1", i).action_values(view, legal)
                == make_agent("heuristic", i).action_values(view, legal))


def test_a_game_without_named_estimates_uses_its_one_estimate():
    """``medium`` (``eval=v2``) plays games that name no estimate (Tikal, the toy)."""
    from mayagames.agents.hooks import estimator
    from mayagames.core import get_game
    for game in ("tikal", "toy"):
        info = get_game(game)
        assert estimator(info, "v2") is estimator(info)
        s = new_game(game, 2, seed=1)
        assert make_agent("medium", 1).act(s.view(s.current_player), s.legal_actions()) in s.legal_actions()


@pytest.mark.parametrize("spec", ["medium", "heuristic", "mcts:60i,sensible=1",
                                  "mcts:60i,eval=v2"])
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


def test_levels():
    assert LEVELS["medium"][0] == "heuristic:sensible=1,eval=learned3" and LEVELS["hard"][0] == "mcts:1s"
    assert make_agent("medium").sensible and make_agent("medium").eval == "learned3"

"""Issue 21: a bot may be told which of the game's estimates to use (``eval=v2``: the
estimate of the ``medium`` level; ``eval=v1``: the default), and MCTS may keep to the game's sensible moves."""

from __future__ import annotations

import pytest

from mayagames.agents import LEVELS, HeuristicAgent, MCTSAgent, make_agent
from mayagames.agents.mcts import Node
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
    assert LEVELS["medium"][0] == "heuristic:sensible=1,eval=learned4" and LEVELS["hard"][0] == "mcts:1s"
    assert make_agent("medium").sensible and make_agent("medium").eval == "learned4"


def rails_position():
    """Tzolk'in, 2 players, 3 workers, 7 corn: the Food Day of day 8 eats 6 corn, so the guard
    rails refuse some of the moves (those that spend the corn the workers need)."""
    s = blank(2)
    set_goods(s, 0, corn=7)
    play(s, "place tikal", "place yaxchilan")
    legal = s.legal_actions()
    kept = sensible_actions(s, legal)
    assert 0 < len(kept) < len(legal)
    return s, legal, kept


def root_of(visits_and_means: dict) -> Node:
    root = Node()
    for action, (visits, mean) in visits_and_means.items():
        child = root.children[action] = Node()
        child.visits, child.value = visits, visits * mean
    return root


def test_mcts_rails_takes_a_kept_move_only_when_it_is_nearly_as_good():
    """``rails=D``: after the search, a move the rails refuse gives way to the most visited move
    they keep whose mean is within D and which had a tenth of its visits; else it stands."""
    s, legal, kept = rails_position()
    refused = next(a for a in legal if a not in kept)
    near, far, rare = kept[0], kept[-1], kept[len(kept) // 2]
    agent = MCTSAgent(1, iterations=10, rails=0.05)
    view = s.view(0)
    close = root_of({refused: (100, 0.60), near: (40, 0.57), far: (60, 0.50)})
    assert agent._within_rails(view, legal, close, refused) == near       # 0.03 below: taken
    too_low = root_of({refused: (100, 0.60), near: (40, 0.54)})
    assert agent._within_rails(view, legal, too_low, refused) == refused  # 0.06 below: not
    few = root_of({refused: (100, 0.60), rare: (9, 0.70)})
    assert agent._within_rails(view, legal, few, refused) == refused      # 9 visits of 100: too few
    assert agent._within_rails(view, legal, close, near) == near          # a kept move stands


def test_mcts_rails_plays_legal_deterministic_moves_and_keeps_the_search():
    s, legal, kept = rails_position()
    view = s.view(0)
    plain, railed = MCTSAgent(3, iterations=120), MCTSAgent(3, iterations=120, rails=0.05)
    a, b = plain.act(view, legal), railed.act(view, legal)
    assert b in legal and b == MCTSAgent(3, iterations=120, rails=0.05).act(view, legal)
    assert plain.last.root == railed.last.root          # the same search; only the pick may differ
    if a != b:
        assert a not in kept and b in kept

"""Issue 21: the learned Tzolk'in estimate (``eval=learned``): the shipped weights load and are
checked, a damaged file is refused clearly, and bots using it decide deterministically.
(The fit itself, ``benchmarks/train_eval.py``, is not run here.)"""

from __future__ import annotations

import json
import math

import pytest

from mayagames.agents import HeuristicAgent, make_agent
from mayagames.core import Rng, new_game
from mayagames.tzolkin import heuristic as H
from mayagames.tzolkin import learned as L


def random_positions(players: int, count: int = 6, seed: int = 11):
    """Positions spread over a seeded random Tzolk'in game."""
    s, rng, out, step = new_game("tzolkin", players, seed=seed), Rng(seed), [], 0
    while not s.is_terminal:
        legal = s.legal_actions()
        if step % 23 == 7:
            out.append(s.clone())
        s.apply(legal[rng.randbelow(len(legal))])
        step += 1
    spread = max(1, len(out) // count)
    return out[::spread][:count], s


def test_the_shipped_weights_load_and_match_the_features():
    w = L.load_weights()
    assert len(w.eras) == L.ERAS
    assert all(len(v) == len(L.FEATURES) and all(math.isfinite(x) for x in v) for v in w.eras)
    assert w.meta["games"] > 0 and w.meta["positions"] > w.meta["games"]
    assert isinstance(w.meta["seed"], int) and w.meta["trained"]


def write(tmp_path, doc) -> str:
    path = tmp_path / "weights.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return str(path)


def test_a_damaged_weights_file_is_refused_with_a_clear_error(tmp_path):
    good = json.loads(L.WEIGHTS_FILE.read_text())
    with pytest.raises(L.LearnedWeightsError, match="cannot read"):
        L.load_weights(write(tmp_path, '{"features": ['))
    with pytest.raises(L.LearnedWeightsError, match="cannot read"):
        L.load_weights(tmp_path / "absent.json")
    renamed = dict(good, features=["rice" if f == "corn" else f for f in good["features"]])
    refused = r"other features \(missing \['corn'\], unknown \['rice'\]\).*train_eval"
    with pytest.raises(L.LearnedWeightsError, match=refused):
        L.load_weights(write(tmp_path, renamed))
    short = dict(good, eras=good["eras"][:3])
    with pytest.raises(L.LearnedWeightsError, match="'eras' must list 4"):
        L.load_weights(write(tmp_path, short))
    bad = [list(v) for v in good["eras"]]
    bad[2][5] = "NaN"
    with pytest.raises(L.LearnedWeightsError, match="era 2 must hold"):
        L.load_weights(write(tmp_path, dict(good, eras=bad)))
    L.load_weights(write(tmp_path, good))  # the same document, undamaged, loads


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_learned_estimate_is_finite_and_exact_at_the_end(players):
    positions, final = random_positions(players)
    assert positions
    for s in positions:
        values = L.estimate_scores_learned(s)
        assert len(values) == players and all(math.isfinite(v) for v in values)
        assert L.estimate_scores_learned(s.view(s.current_player)) == values  # public information only
    assert L.estimate_scores_learned(final) == final.scores()


def test_with_zero_weights_it_is_the_v2_estimate(monkeypatch):
    """The features carry v2's parts: with no correction the estimate is v2's."""
    zero = L.LearnedWeights(tuple((0.0,) * len(L.FEATURES) for _ in range(L.ERAS)), {})
    monkeypatch.setattr(L, "_LOADED", [zero])
    for players in (2, 4):
        for s in random_positions(players)[0]:
            assert L.estimate_scores_learned(s) == pytest.approx(H.estimate_scores_v2(s))


def test_eval_learned_names_the_learned_estimate():
    s = random_positions(2)[0][2]
    view, legal = s.view(s.current_player), s.legal_actions()
    named = make_agent("heuristic:eval=learned", 3).action_values(view, legal)
    given = HeuristicAgent(3, estimate=L.estimate_scores_learned).action_values(view, legal)
    assert named == pytest.approx(given)


@pytest.mark.parametrize("spec", ["heuristic:sensible=1,eval=learned", "mcts:60i,eval=learned"])
def test_a_bot_on_the_learned_estimate_decides_deterministically(spec):
    for s in random_positions(2, count=3, seed=5)[0]:
        view, legal = s.view(s.current_player), s.legal_actions()
        first = make_agent(spec, 7).act(view, legal)
        assert first in legal
        assert make_agent(spec, 7).act(view, legal) == first

"""Boosted trees on top of a linear Tzolk'in estimate (stop 41, ``learned.LearnedTrees``):
the features the estimate reads are the ones the fit (``benchmarks/train_trees.py``) reads, a
fitted file walks to the fit's own values, a damaged file is refused clearly. (The fits of
docs/bots.md are not run here: a few random games stand in for the data.)"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from mayagames.core import Rng, new_game
from mayagames.tzolkin import learned as L


@pytest.fixture(scope="module")
def train_trees(load_script):
    return load_script("benchmarks/train_trees.py")


def random_game(players: int, seed: int) -> dict:
    """A seeded random game as train_eval.py records one (its moves as indices, its scores)."""
    s, rng, moves = new_game("tzolkin", players, seed=seed), Rng(seed), []
    while not s.is_terminal:
        legal = s.legal_actions()
        moves.append(rng.randbelow(len(legal)))
        s.apply(legal[moves[-1]])
    return {"index": seed, "seed": seed, "seats": ["random"] * players, "moves": moves, "scores": s.scores()}


def replayed(game: dict, every: int) -> list:
    """The positions of ``game`` that train_eval.build reads (every ``every``-th, not over)."""
    s, out = new_game("tzolkin", len(game["seats"]), seed=game["seed"]), []
    for step, move in enumerate(game["moves"]):
        if step % every == 0 and not s.is_terminal:
            out.append(s.clone())
        s.apply(s.legal_actions()[move])
    return out


def test_the_trees_read_the_features_the_fit_reads(train_trees):
    """``learned.tree_features`` of every seat of every position (its lead: its linear estimate
    less the table's mean) is the row ``train_trees.tree_matrix`` builds from the fit's
    features, for 2 and 4 players."""
    base = L.load_weights(L.SIXTH_FIT_FILE)
    for players, seed in ((2, 3), (4, 5)):
        game = random_game(players, seed)
        d = train_trees.T.build([game], 3)
        Z, linear = train_trees.tree_matrix(d, base)
        rows = []
        for s in replayed(game, 3):
            estimate = L.estimate_scores_with(s, L.SIXTH_FIT_FILE)
            mean = sum(estimate) / len(estimate)
            rows += [L.tree_features(s, seat, v - mean) for seat, v in enumerate(estimate)]
        assert len(rows) == len(Z) > 50
        for built, row in zip(Z.tolist(), rows):
            assert built == pytest.approx(row, rel=1e-9, abs=1e-9)
        assert {row[L.TREE_FEATURES.index("era")] for row in rows} >= {0.0, 3.0}
        assert any(row[L.TREE_FEATURES.index("corn_short")] > 0 for row in rows)


def test_a_fitted_file_gives_the_fits_own_values(train_trees, tmp_path):
    """A small fit on random games writes a file that loads, whose trees the estimate walks to
    the values the fit computed (``predict``), and whose estimate is the base's plus them."""
    base = tmp_path / "eval_learned_6.json"
    shutil.copy(L.SIXTH_FIT_FILE, base)
    data = tmp_path / "games.jsonl"
    data.write_text("".join(json.dumps(random_game(2 + (seed % 3 == 0), seed)) + "\n" for seed in range(1, 13)))
    out = tmp_path / "eval_trees_6.json"
    # no held-out choice on 12 random games: a fixed count (--trees with --keep) is fitted
    train_trees.main(["--base", str(base), "--out", str(out), "--data", str(data), "--trees", "4",
                      "--keep", "--min-leaf", "20", "--l2", "1", "--rate", "0.5", "--every", "4"])
    fitted = L.load_trees(out)
    assert fitted.count == 4 and fitted.base == "eval_learned_6.json" and fitted.depth == 3
    assert any(f >= 0 for f in fitted.features)            # the trees split
    doc = json.loads(out.read_text())
    game = random_game(2, 99)
    for s in replayed(game, 25):
        linear = L.estimate_scores_with(s, base)
        mean = sum(linear) / len(linear)
        rows = [L.tree_features(s, seat, v - mean) for seat, v in enumerate(linear)]
        walked = [L.trees_value(fitted, x) for x in rows]
        by_fit = sum(train_trees.predict(t, np.array(rows), 3) for t in doc["trees"])
        assert walked == pytest.approx(by_fit.tolist(), rel=1e-9, abs=1e-9)
        assert L.estimate_scores_trees(s, out) == pytest.approx([v + t for v, t in zip(linear, walked)])
    final = new_game("tzolkin", 2, seed=99)
    for move in game["moves"]:
        final.apply(final.legal_actions()[move])
    assert L.estimate_scores_trees(final, out) == final.scores()   # exact once the game is over


def test_the_fit_is_the_same_twice(train_trees, tmp_path):
    """``train_trees.py`` on the same data and settings writes the same trees (no randomness:
    the training is reproducible by its command), and the same held-out figures."""
    shutil.copy(L.SIXTH_FIT_FILE, tmp_path / "eval_learned_6.json")
    data = tmp_path / "games.jsonl"
    data.write_text("".join(json.dumps(random_game(2, seed)) + "\n" for seed in range(20, 30)))
    docs = []
    for name in ("a", "b"):
        out = tmp_path / f"eval_trees_{name}.json"
        train_trees.main(["--base", str(tmp_path / "eval_learned_6.json"), "--out", str(out),
                          "--data", str(data), "--trees", "3", "--keep", "--min-leaf", "20", "--every", "4"])
        docs.append(json.loads(out.read_text()))
    assert docs[0]["trees"] and docs[0]["held_out"] == docs[1]["held_out"]
    assert docs[0]["trees"] == docs[1]["trees"]


def tree_file(tmp_path: Path, **changes) -> Path:
    """A valid one-tree file of depth 1 beside a copy of the sixth fit, with ``changes``."""
    shutil.copy(L.SIXTH_FIT_FILE, tmp_path / "eval_learned_6.json")
    doc = {"format": L.TREES_FORMAT, "name": "t", "base": "eval_learned_6.json",
           "features": list(L.TREE_FEATURES), "depth": 1,
           "trees": [{"features": [L.TREE_FEATURES.index("corn_short")], "thresholds": [2.0],
                      "leaves": [0.5, -3.0]}]}
    doc.update(changes)
    path = tmp_path / "eval_trees_x.json"
    path.write_text(json.dumps(doc))
    return path


def test_a_tree_splits_at_its_threshold_at_or_above_going_right(tmp_path):
    fitted = L.load_trees(tree_file(tmp_path))
    x = [0.0] * len(L.TREE_FEATURES)
    at = L.TREE_FEATURES.index("corn_short")
    assert L.trees_value(fitted, x) == 0.5
    x[at] = 2.0
    assert L.trees_value(fitted, x) == -3.0
    no_split = L.load_trees(tree_file(tmp_path, trees=[{"features": [-1], "thresholds": [0], "leaves": [1, 9]}]))
    assert L.trees_value(no_split, x) == 1.0


def test_the_generated_walk_is_the_reference_walk_to_the_bit(tmp_path):
    """``learned.tree_walker`` (the trees as generated Python, what the estimate calls) gives
    ``trees_value``'s floats exactly: on the shipped trees at every seat of a random game's
    positions, and on a tree whose root does not split (it goes left)."""
    shipped = L.trees(L.SIXTH_TREES_FILE)
    walk = L.tree_walker(shipped)
    game = random_game(4, 11)
    checked = 0
    for s in replayed(game, 3):
        linear = L.estimate_scores_learned_sixth(s)
        mean = sum(linear) / len(linear)
        for seat, v in enumerate(linear):
            x = L.tree_features(s, seat, v - mean)
            assert walk(x) == L.trees_value(shipped, x)
            checked += 1
    assert checked > 100
    odd = L.load_trees(tree_file(tmp_path, depth=2, trees=[
        {"features": [-1, L.TREE_FEATURES.index("corn_short"), 0], "thresholds": [0, 1.5, 0.5],
         "leaves": [1.0, 2.0, 4.0, 8.0]}]))
    for corn_short in (0.0, 1.5, 3.0):
        x = [0.0] * len(L.TREE_FEATURES)
        x[L.TREE_FEATURES.index("corn_short")] = corn_short
        assert L.tree_walker(odd)(x) == L.trees_value(odd, x) == (2.0 if corn_short >= 1.5 else 1.0)


@pytest.mark.parametrize("changes, says", [
    ({"format": "other"}, "format"),
    ({"features": list(L.TREE_FEATURES)[:-1]}, "other features"),
    ({"base": "../eval_learned_6.json"}, "'base'"),
    ({"base": "eval_learned_9.json"}, "'base'"),
    ({"depth": 0}, "'depth'"),
    ({"depth": True}, "'depth'"),
    ({"trees": {}}, "'trees'"),
    ({"trees": [{"features": [len(L.TREE_FEATURES)], "thresholds": [0], "leaves": [0, 0]}]}, "tree 0"),
    ({"trees": [{"features": [0], "thresholds": [0], "leaves": [0]}]}, "tree 0"),
    ({"trees": [{"features": [0], "thresholds": ["1"], "leaves": [0, 0]}]}, "tree 0"),
    ({"trees": [{"features": [0.5], "thresholds": [1], "leaves": [0, 0]}]}, "tree 0"),
])
def test_a_damaged_trees_file_is_refused_with_a_clear_error(tmp_path, changes, says):
    with pytest.raises(L.LearnedWeightsError, match=says):
        L.load_trees(tree_file(tmp_path, **changes))


def test_a_trees_file_that_is_no_json_is_refused(tmp_path):
    path = tmp_path / "eval_trees_x.json"
    path.write_text('{"format": ')
    with pytest.raises(L.LearnedWeightsError, match="cannot read"):
        L.load_trees(path)
    path.write_text('{"format": "mayagames-trees/1", "x": NaN}')
    with pytest.raises(L.LearnedWeightsError):
        L.load_trees(path)


def test_learned6t_is_the_sixth_fit_plus_trees_on_the_search_games():
    """``eval=learned6t``: the shipped trees on the sixth fit, fitted on the seventh generation
    (the search on the sixth fit), named in its file with their held-out figures; the estimate
    differs from ``learned6``'s, is exact at the end, and a search on it decides the same twice
    under a seed."""
    from mayagames.agents import make_agent
    from mayagames.core.registry import get_game

    fitted = L.trees(L.SIXTH_TREES_FILE)
    assert fitted.meta["name"] == "learned6t" and fitted.base == L.SIXTH_FIT_FILE.name
    assert [d["file"] for d in fitted.meta["data"]] == ["gen7.jsonl"]
    assert fitted.meta["data"][0]["specs"] == ["mcts:700i,eval=learned6,rollout=0"]
    held = fitted.meta["held_out"]
    assert fitted.count > 0 and held["r2_relative_trees"] > held["r2_relative_base"]
    assert "learned6t" in get_game("tzolkin").plugin.estimate_variants
    game = random_game(2, 8)
    positions = replayed(game, 1)
    s = positions[60]
    assert L.estimate_scores_learned_sixth_trees(s) != pytest.approx(L.estimate_scores_learned_sixth(s), rel=1e-6)
    view, legal = s.view(s.current_player), s.legal_actions()
    first, again = (make_agent("mcts:200i,eval=learned6t,rollout=0", 5) for _ in range(2))
    assert first.act(view, legal) == again.act(view, legal)
    assert first.last.root == again.last.root

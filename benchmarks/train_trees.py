"""Fit boosted regression trees on top of a linear Tzolk'in estimate (issue 21, stop 41).

    .venv/bin/python benchmarks/train_trees.py --base src/mayagames/tzolkin/data/eval_learned_6.json \
        --out src/mayagames/tzolkin/data/eval_trees_6.json --name learned6t \
        --data runs/train_eval/gen7.jsonl runs/train_eval/gen6.jsonl runs/train_eval/gen5.jsonl

The linear fits (``train_eval.py``) price each feature alone, one weight per era. This fit
adds to the linear estimate of ``--base`` the sum of small regression trees
(:class:`mayagames.tzolkin.learned.LearnedTrees`), fitted by gradient boosting on what the base
misses of each seat's final score against the table's mean (the base's own target), on the
games of ``--data`` (self-play files of ``train_eval.py``, replayed; a game in two files once).

* The trees read :data:`mayagames.tzolkin.learned.TREE_FEATURES` (the raw board, the workers
  on each space, the moment of the game, the corn short of the next Food Day, the seat's lead
  by the base), each cut into at most ``--bins`` quantile bins; each tree is ``--depth`` deep,
  a leaf holds at least ``--min-leaf`` positions and its value is shrunk by ``--l2`` and
  ``--rate``.
* The number of trees is chosen on the held-out games (every 5th block of 5, as
  ``train_eval.py``'s): the count up to ``--trees`` with the best held-out R2 of the score
  against the table's mean (none, if no count is better than the base alone; ``--keep``: all
  ``--trees``); the trees are then fitted again on every game with that count.
* NumPy only; deterministic (no sampling). The file records the data, the command, the
  held-out figures and the time the fit took.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_eval as T  # noqa: E402  (the games, their replay and the held-out split)

from mayagames.tzolkin import learned as L  # noqa: E402


def tree_matrix(d: dict[str, Any], base: Any) -> tuple[Any, Any]:
    """(the rows of :data:`L.TREE_FEATURES`, the base's estimate) of the positions ``d``
    (``train_eval.build``'s), with ``base`` the linear weights the trees correct."""
    X, eras = d["X"], d["era"]
    at = {name: k for k, name in enumerate(L.FEATURES)}
    parts = [at[p] for p in L.PARTS]
    v2 = X[:, parts].sum(axis=1)
    W = np.array(base.eras)                      # one weight vector per era
    linear = v2 + np.einsum("ij,ij->i", X, W[eras])
    lead = T.centred(linear, d)
    count = {c: X[:, at[c]] for c in L.COUNTS}
    short = np.maximum(0.0, np.maximum(0.0, count["workers"] - count["farm_free"])
                       * np.maximum(0.0, L.CORN_PER_WORKER - count["farm_discount"]) - count["corn"])
    columns = [X[:, at[name]] for name in L.CONTEXT[1:] + L.COUNTS + L.ON_SPACES]
    columns += [eras.astype(float), short, lead]
    return np.column_stack(columns), linear


def quantile_bins(Z: Any, bins: int) -> tuple[Any, list[Any]]:
    """Each column cut at its quantiles: (bin numbers, the cut points of each column); bin
    ``b`` of a column holds the values below its cut ``b`` and at or above cut ``b - 1``."""
    cuts, B = [], np.empty(Z.shape, dtype=np.int32)
    for f in range(Z.shape[1]):
        q = np.unique(np.quantile(Z[:, f], np.linspace(0, 1, bins + 1)[1:-1]))
        cuts.append(q)
        B[:, f] = np.searchsorted(q, Z[:, f], side="right")
    return B, cuts


def fit_tree(B: Any, cuts: list[Any], g: Any, rows: Any, args: argparse.Namespace) -> dict[str, list[Any]]:
    """One regression tree on the gradient ``g`` of the positions ``rows``, in the heap layout
    of :class:`L.LearnedTrees` (leaves times ``--rate``)."""
    depth, nb, F = args.depth, args.bins, B.shape[1]
    inner = (1 << depth) - 1
    features, thresholds, leaves = [-1] * inner, [0.0] * inner, [0.0] * (inner + 1)
    offsets = (np.arange(F) * nb)[None, :]

    def fill(node: int, level: int, value: float) -> None:
        if level == depth:
            leaves[node - inner] = value * args.rate
            return
        features[node] = -1
        fill(2 * node + 1, level + 1, value)
        fill(2 * node + 2, level + 1, value)

    def grow(idx: Any, node: int, level: int) -> None:
        value = float(g[idx].sum() / (len(idx) + args.l2))
        if level == depth or len(idx) < 2 * args.min_leaf:
            fill(node, level, value)
            return
        flat = (B[idx] + offsets).ravel()
        s = np.bincount(flat, weights=np.repeat(g[idx], F), minlength=F * nb).reshape(F, nb).cumsum(1)
        c = np.bincount(flat, minlength=F * nb).reshape(F, nb).astype(float).cumsum(1)
        S, C = s[:, -1:], c[:, -1:]
        gain = s ** 2 / (c + args.l2) + (S - s) ** 2 / (C - c + args.l2) - S ** 2 / (C + args.l2)
        gain[(c < args.min_leaf) | (C - c < args.min_leaf)] = -1.0
        f, b = np.unravel_index(int(np.argmax(gain)), gain.shape)
        if gain[f, b] <= 0:
            fill(node, level, value)
            return
        features[node], thresholds[node] = int(f), float(cuts[f][b])   # bin <= b: below cut b
        right = B[idx, f] > b
        grow(idx[~right], 2 * node + 1, level + 1)
        grow(idx[right], 2 * node + 2, level + 1)

    grow(rows, 0, 0)
    return {"features": features, "thresholds": thresholds, "leaves": leaves}


def predict(tree: dict[str, list[Any]], Z: Any, depth: int) -> Any:
    """One tree's value at every row of ``Z`` (as :func:`L.trees_value` walks it)."""
    inner = (1 << depth) - 1
    f, t, v = np.array(tree["features"]), np.array(tree["thresholds"]), np.array(tree["leaves"])
    node = np.zeros(len(Z), dtype=np.int64)
    rows = np.arange(len(Z))
    for _ in range(depth):
        feature = f[node]
        right = (feature >= 0) & (Z[rows, np.maximum(feature, 0)] >= t[node])
        node = 2 * node + np.where(right, 2, 1)
    return v[node - inner]


def boost(Z: Any, B: Any, cuts: list[Any], target: Any, d: dict[str, Any], rows: Any, count: int,
          args: argparse.Namespace, score: Callable[[Any], float] | None = None
          ) -> tuple[list[dict[str, list[Any]]], list[float]]:
    """``count`` trees on ``rows``, each on what the trees before it miss of ``target`` (each
    seat's, against the table's mean; a seat's trees count against the table's mean too);
    with ``score``, its figure of the trees' sum (every seat) after each tree."""
    trees, figures = [], []
    F = np.zeros(len(target))
    for _ in range(count):
        tree = fit_tree(B, cuts, target - T.centred(F, d), rows, args)
        trees.append(tree)
        F += predict(tree, Z, args.depth)
        if score is not None:
            figures.append(score(F))
    return trees, figures


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--base", required=True, help="the linear weights file the trees correct (eval_learned_*.json)")
    p.add_argument("--data", nargs="+", required=True, help="self-play games files of train_eval.py")
    p.add_argument("--out", required=True, help="the trees file to write (beside --base)")
    p.add_argument("--name", default="learned6t", help="the estimate's name written in --out")
    p.add_argument("--trees", type=int, default=300, help="at most this many trees")
    p.add_argument("--keep", action="store_true", help="fit --trees trees, not the held-out games' best count")
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--rate", type=float, default=0.05, help="each tree's shrinkage")
    p.add_argument("--min-leaf", type=int, default=400, help="positions a leaf holds at least")
    p.add_argument("--l2", type=float, default=100.0, help="a leaf's value: sum / (count + l2)")
    p.add_argument("--bins", type=int, default=32)
    p.add_argument("--every", type=int, default=2, help="use every N-th position of a game")
    args = p.parse_args(argv)
    started = time.time()
    base_path, out = Path(args.base), Path(args.out)
    if base_path.resolve().parent != out.resolve().parent:
        raise SystemExit("--out must be beside --base (the trees file names its base by file name)")
    base = L.load_weights(base_path)
    files = [(path, T.read_games(Path(path))) for path in args.data]
    games, repeated = T.once_each(sorted((g for _, read in files for g in read), key=lambda g: g["seed"]))
    if not games:
        raise SystemExit(f"no games in {args.data}")
    d = T.build(games, args.every)
    Z, linear = tree_matrix(d, base)
    final = d["y"] + d["X"][:, [L.FEATURES.index(q) for q in L.PARTS]].sum(axis=1)
    target = T.centred(final - linear, d)          # what the base misses, against the table's mean
    relative_final = T.centred(final, d)
    held = d["game"] // 5 % 5 == 0
    B, cuts = quantile_bins(Z, args.bins)
    print(f"{len(games)} games ({repeated} repeats fitted once), {len(target)} seat positions "
          f"({held.sum()} held out), built in {time.time() - started:.0f} s", flush=True)
    linear_relative = T.centred(linear, d)

    def held_out(F: Any) -> float:   # R2 of the score against the table's mean, held-out games
        return T.r2(T.centred(linear + F, d)[held], relative_final[held])

    base_r2 = held_out(np.zeros(len(target)))
    _, curve = boost(Z, B, cuts, target, d, np.nonzero(~held)[0], args.trees, args, held_out)
    best = int(np.argmax(curve)) + 1 if curve and max(curve) > base_r2 else 0
    if args.keep:
        best = args.trees
    print(f"held-out R2 against the table's mean: the base {base_r2:.4f}; with trees: "
          + ", ".join(f"{k} {curve[k - 1]:.4f}" for k in sorted({1, 10, 25, 50, 100, 200, len(curve), best})
                      if 0 < k <= len(curve)), flush=True)
    print(f"{best} trees ({'--keep' if args.keep else 'the best held-out figure'}); fitting them on every game",
          flush=True)
    trees, _ = boost(Z, B, cuts, target, d, np.arange(len(target)), best, args)
    by_era = []
    held_trees = np.zeros(len(target))
    if best:   # the held-out figures by era, of the trees fitted without the held-out games
        fitted, _ = boost(Z, B, cuts, target, d, np.nonzero(~held)[0], best, args)
        held_trees = sum(predict(t, Z, args.depth) for t in fitted)
    for e in range(L.ERAS):
        m = held & (d["era"] == e)
        by_era.append({"era": e, "positions": int(m.sum()),
                       "r2_relative_base": round(T.r2(linear_relative[m], relative_final[m]), 4),
                       "r2_relative_trees": round(T.r2(T.centred(linear + held_trees, d)[m], relative_final[m]), 4)})
    figures = {"held_out_games": int(len(set(d["table"][held]))), "held_out_positions": int(held.sum()),
               "r2_relative_base": round(base_r2, 4),
               "r2_relative_trees": round(curve[best - 1], 4) if best else round(base_r2, 4),
               "curve": {str(k): round(curve[k - 1], 4) for k in (1, 10, 25, 50, 100, 200, 300, 500)
                         if k <= len(curve)},
               "by_era": by_era}
    print(json.dumps(figures, indent=1), flush=True)
    data = [T.describe_data(Path(path), read) for path, read in files]
    doc = {"format": L.TREES_FORMAT, "name": args.name, "base": base_path.name,
           "target": "final score minus the base's estimate, both less the table's mean (gradient boosting)",
           "features": list(L.TREE_FEATURES), "depth": args.depth,
           "settings": {"rate": args.rate, "min_leaf": args.min_leaf, "l2": args.l2, "bins": args.bins,
                        "every": args.every, "most_trees": args.trees},
           "games": len(games), "positions": int(len(target)),
           "players": {str(n): sum(len(g["seats"]) == n for g in games) for n in (2, 3, 4)},
           "trained": datetime.date.today().isoformat(),
           "self_play_cpu_seconds": round(sum(g.get("cpu", 0.0) for g in games)),
           "fit_seconds": round(time.time() - started), "held_out": figures, "data": data,
           "command": "python benchmarks/train_trees.py " + " ".join(sys.argv[1:] if argv is None else argv),
           "trees": [{"features": t["features"], "thresholds": [round(x, 6) for x in t["thresholds"]],
                      "leaves": [round(x, 6) for x in t["leaves"]]} for t in trees]}
    out.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    L.load_trees(out)  # the file reads back
    print(f"wrote {out} ({out.stat().st_size} bytes, {len(trees)} trees) in {time.time() - started:.0f} s")

if __name__ == "__main__":
    main()

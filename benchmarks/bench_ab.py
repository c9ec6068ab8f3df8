"""In-process A/B of MCTS searches or random play: a base commit against the working tree.

``bench_speedup.py`` times each tree in its own subprocess, which is right for the headline
ratios but moves by about ±6 % between runs on a loaded machine: too coarse to see a step of
a few per cent. This script imports both trees into ONE process (the base commit's package
renamed ``mayagames_old``), checks that they decide the same, then alternates them on the
same workload and reports the ratio of CPU times (old / new; above 1 is faster). Load
changes hit both alike within a round; runs of a tree against itself give 0.98-1.02.

    .venv/bin/python benchmarks/bench_ab.py --base HEAD --game tzolkin --rounds 10
    .venv/bin/python benchmarks/bench_ab.py --base 5c3cb8b --game tikal --iterations 150
    .venv/bin/python benchmarks/bench_ab.py --base HEAD --game tzolkin --kind random --size 20

The workloads are ``bench_speedup.py``'s (MCTS at 4 positions of one seeded random game;
seeded random games to the end), built from each tree's own public API.
"""

from __future__ import annotations

import argparse
import importlib
import io
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Callable

from bench_speedup import POSITIONS, spread_positions  # the same search positions (this folder)

REPO = Path(__file__).resolve().parent.parent
OLD = "mayagames_old"


def extract_renamed(commit: str, into: Path) -> Path:
    """The commit's package under ``into/src/mayagames_old`` with its absolute imports renamed."""
    data = subprocess.run(["git", "-C", str(REPO), "archive", commit, "src/mayagames"], check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    package = into / "src" / OLD
    (into / "src" / "mayagames").rename(package)
    for path in package.rglob("*.py"):
        text = path.read_text()
        renamed = re.sub(r"\bmayagames(?=[. ])", OLD, text)
        if renamed != text:
            path.write_text(renamed)
    return into / "src"


def workload(package: str, game: str, kind: str, size: int) -> Callable[[], list[str]]:
    """A function running the workload in ``package`` and returning what it decided."""
    core = importlib.import_module(f"{package}.core")
    rng_module = importlib.import_module(f"{package}.core.rng")
    agents = importlib.import_module(f"{package}.agents")
    importlib.import_module(f"{package}.{game}.heuristic")
    Rng = rng_module.Rng
    if kind == "random":
        def play() -> list[str]:
            out = []
            for g in range(size):
                state, rng = core.new_game(game, 2, 1000 + g), Rng(g)
                while state.current_player is not None:
                    legal = state.legal_actions()
                    state.apply_unchecked(legal[rng.randbelow(len(legal))])
                out.append(repr(state.scores()))
            return out
        return play
    positions = spread_positions(core.new_game, Rng, game, POSITIONS, seed=3)

    def search() -> list[str]:
        out = []
        for i, state in enumerate(positions):
            agent = agents.MCTSAgent(seed=i, iterations=size)
            out.append(str(agent.act(state.view(state.current_player), state.legal_actions())))
        return out
    return search


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default="HEAD", help="the commit to compare with")
    parser.add_argument("--game", default="tzolkin", choices=("tikal", "tzolkin"))
    parser.add_argument("--kind", default="mcts", choices=("mcts", "random"))
    parser.add_argument("--size", type=int, help="iterations per search (mcts) or games (random)")
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    size = args.size or {"mcts": 400 if args.game == "tzolkin" else 150, "random": 10}[args.kind]
    with tempfile.TemporaryDirectory(prefix="bench-ab-") as tmp:
        sys.path.insert(0, str(extract_renamed(args.base, Path(tmp))))
        sys.path.insert(0, str(REPO / "src"))
        old = workload(OLD, args.game, args.kind, size)
        new = workload("mayagames", args.game, args.kind, size)
        if old() != new():
            sys.exit("the two trees decide differently: no speed comparison")
        times: dict[str, list[float]] = {"old": [], "new": []}
        for r in range(args.rounds):
            order = [("old", old), ("new", new)] if r % 2 else [("new", new), ("old", old)]
            for label, run in order:
                start = time.process_time()
                run()
                times[label].append(time.process_time() - start)
    ratios = [o / n for o, n in zip(times["old"], times["new"])]
    print(f"{args.game}-{args.kind} {args.base} -> working tree, {args.rounds} rounds: "
          f"median ratio {statistics.median(ratios):.3f}, total {sum(times['old']) / sum(times['new']):.3f}, "
          f"best {min(times['old']) / min(times['new']):.3f} (same decisions)")


if __name__ == "__main__":
    main()

"""Speed-up against a base commit, measured side by side (issue 16).

Extracts the base commit's ``src/`` (``git archive``) into a temporary directory and
times the same workloads in both trees, alternating old and new in fresh subprocesses
(``PYTHONPATH=<tree>/src``), so that the load of a shared machine hits both alike.
Each run measures the CPU time of its own process (``time.process_time``) around the
timed part only; the table gives per tree the median rate and the median of the
per-round ratios new/old. Every run also prints a digest of what it decided or
observed (bot decisions, observation and mask bytes), and the table says whether
both trees agree ("same").

    .venv/bin/python benchmarks/bench_speedup.py                  # all workloads, 3 rounds
    .venv/bin/python benchmarks/bench_speedup.py --rounds 5 --only tikal-random,tikal-mcts
    .venv/bin/python benchmarks/bench_speedup.py --base 5c3cb8b --scale 0.5
    .venv/bin/python benchmarks/bench_speedup.py --new-src build/compiled/src   # the compiled build
    .venv/bin/python benchmarks/bench_speedup.py --old-src /tmp/before/src --new-src build/compiled/src \
        --only tzolkin-hard,tzolkin-mcts     # two compiled builds (tools/build_compiled.py --out)

``--new-src`` times another tree than the working tree's ``src/`` as "new", e.g. the
compiled engine built by ``tools/build_compiled.py``; the header says how many of its
modules each run loaded compiled (the script fails if a compiled tree's runs loaded none).
``--old-src`` likewise times another tree as "old" in place of the base commit's ``src/``.

The workloads use only APIs the base commit has (``legal_actions``, ``apply_unchecked``,
``MCTSAgent``, ``HeuristicAgent``, ``mayagames.rl.env``), 2 players, fixed seeds; but
``tzolkin-hard`` (the ``hard`` level's search, by ``level_spec``), which a tree without it
reports as failed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import io
import time
from pathlib import Path

BASE = "5c3cb8b"  # today's main when issue 16 was opened
REPO = Path(__file__).resolve().parent.parent

# name -> (kind, game, size): the size is scaled by --scale; the rate unit is per CPU second.
WORKLOADS: dict[str, tuple[str, str, int]] = {
    "tikal-random": ("random", "tikal", 30),  # games
    "tzolkin-random": ("random", "tzolkin", 80),
    "tikal-mcts": ("mcts", "tikal", 150),  # iterations per position (4 positions)
    "tzolkin-mcts": ("mcts", "tzolkin", 400),
    "tikal-heuristic": ("heuristic", "tikal", 100),  # decisions
    "tzolkin-heuristic": ("heuristic", "tzolkin", 40),
    "tzolkin-hard": ("hard", "tzolkin", 400),  # iterations per position of the hard level's search
    "tikal-aec": ("aec", "tikal", 1500),  # steps
    "tzolkin-aec": ("aec", "tzolkin", 3000),
}
UNITS = {"random": "decisions/s", "mcts": "iterations/s", "hard": "iterations/s", "heuristic": "decisions/s",
         "aec": "steps/s"}
POSITIONS = 4  # MCTS search positions, spread over a random game


# --- the worker (runs inside the tree under test) -------------------------------------
def sample_positions(game: str, count: int, seed: int) -> list:
    """Positions at evenly spread depths of one seeded random game, each with a choice."""
    from mayagames.core import new_game
    from mayagames.core.rng import Rng

    return spread_positions(new_game, Rng, game, count, seed)


def spread_positions(new_game, Rng, game: str, count: int, seed: int) -> list:
    """:func:`sample_positions` with the tree's ``new_game`` and ``Rng`` given (``bench_ab.py``
    holds two trees in one process)."""
    probe, rng, length = new_game(game, 2, seed), Rng(seed), 0
    while not probe.is_terminal:
        probe.apply_unchecked(rng.choice(probe.legal_actions()))
        length += 1
    positions = []
    state, walk, done = new_game(game, 2, seed), Rng(seed), 0
    for k in range(count):
        target = int(length * (k + 0.5) / count)
        while done < target and not state.is_terminal:
            state.apply_unchecked(walk.choice(state.legal_actions()))
            done += 1
        probe = state.clone()
        while not probe.is_terminal and len(probe.legal_actions()) < 2:
            probe.apply_unchecked(probe.legal_actions()[0])
        if not probe.is_terminal:
            positions.append(probe)
    return positions


def work_random(game: str, size: int, digest) -> int:
    from mayagames.core import new_game
    from mayagames.core.rng import Rng

    decisions = 0
    for g in range(size):
        state, rng = new_game(game, 2, 1000 + g), Rng(g)
        while state.current_player is not None:
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randbelow(len(legal))])
            decisions += 1
        digest.update(repr(state.scores()).encode())
    return decisions


def work_mcts(game: str, size: int, digest, positions: list) -> int:
    from mayagames.agents import MCTSAgent

    for i, state in enumerate(positions):
        seat = state.current_player
        action = MCTSAgent(seed=i, iterations=size).act(state.view(seat), state.legal_actions())
        digest.update(str(action).encode())
    return size * len(positions)


def work_hard(game: str, size: int, digest, positions: list) -> int:
    """The ``hard`` level's search with ``size`` iterations in place of its time budget (the
    agent re-budgeted as the server's limits do; Tzolk'in: the search on the learned
    estimate, no random plies)."""
    from mayagames.agents import level_spec, make_agent

    for i, state in enumerate(positions):
        agent = make_agent(level_spec("hard", game), seed=i)
        agent.iterations, agent.seconds = size, None
        action = agent.act(state.view(state.current_player), state.legal_actions())
        digest.update(str(action).encode())
    return size * len(positions)


def work_heuristic(game: str, size: int, digest, positions: list) -> int:
    from mayagames.agents import HeuristicAgent

    for i in range(size):
        state = positions[i % len(positions)]
        seat = state.current_player
        action = HeuristicAgent(seed=i).act(state.view(seat), state.legal_actions())
        digest.update(str(action).encode())
    return size


def work_aec(game: str, size: int, digest) -> int:
    """A masked uniformly random policy stepping the PettingZoo AEC environment; the
    digest covers every observation and mask (a cheap CRC, so that the harness costs
    little next to the environment)."""
    import random
    import zlib

    from mayagames.rl import env

    environment = env(game, num_players=2)
    pick = random.Random(0).random
    steps, episode, crc = 0, 0, 0
    environment.reset(seed=episode)
    while steps < size:
        obs, _, terminated, truncated, _ = environment.last()
        crc = zlib.crc32(obs["action_mask"], zlib.crc32(obs["observation"], crc))
        if terminated or truncated:
            episode += 1
            environment.reset(seed=episode)
            continue
        legal = obs["action_mask"].nonzero()[0]
        environment.step(int(legal[int(pick() * len(legal))]))
        steps += 1
    digest.update(crc.to_bytes(4, "big"))
    return steps


def warm_up(game: str) -> None:
    """Import what the workloads use (module loading is not the work measured)."""
    import importlib

    for module in ("mayagames.core", "mayagames.agents", "mayagames.rl", "numpy",
                   f"mayagames.{game}", f"mayagames.{game}.heuristic"):
        importlib.import_module(module)
    from mayagames.core import new_game
    from mayagames.rl import env

    new_game(game, 2, 0).legal_actions()
    env(game, num_players=2).reset(seed=0)


def worker(name: str, scale: float) -> None:
    """Run one workload in this process and print its JSON figures."""
    kind, game, size = WORKLOADS[name]
    size = max(1, round(size * scale))
    digest = hashlib.sha256()
    extra = []
    if kind in ("mcts", "hard", "heuristic"):
        extra = [sample_positions(game, 8 if kind == "heuristic" else POSITIONS, seed=3)]
    work = {"random": work_random, "mcts": work_mcts, "hard": work_hard, "heuristic": work_heuristic,
            "aec": work_aec}[kind]
    warm_up(game)
    start = time.process_time()
    count = work(game, size, digest, *extra)
    cpu = time.process_time() - start
    import mayagames

    compiled = len(mayagames.compiled()) if hasattr(mayagames, "compiled") else 0
    print(json.dumps({"count": count, "cpu": cpu, "digest": digest.hexdigest()[:16], "compiled": compiled}))


# --- the driver -------------------------------------------------------------------------
def extract(commit: str, into: Path) -> Path:
    """The commit's ``src/`` tree under ``into`` (via ``git archive``; no worktree)."""
    data = subprocess.run(["git", "-C", str(REPO), "archive", commit, "src"], check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def run_once(src: Path, name: str, scale: float) -> dict:
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    out = subprocess.run([sys.executable, __file__, "--worker", name, "--scale", str(scale)],
                         env=env, check=True, capture_output=True, text=True, timeout=600).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default=BASE, help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every workload size")
    parser.add_argument("--only", help="comma-separated workload names")
    parser.add_argument("--json", help="write the figures to this file")
    parser.add_argument("--new-src", type=Path, default=REPO / "src",
                        help="the tree timed as new (default: the working tree's src/)")
    parser.add_argument("--old-src", type=Path,
                        help="the tree timed as old in place of the base commit's src/ (e.g. the "
                             "compiled build of the commit before)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.scale)
        return
    names = args.only.split(",") if args.only else list(WORKLOADS)
    new_src = args.new_src.resolve()
    expect_compiled = any(new_src.rglob("*.so"))
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-speedup-") as tmp:
        old_src = args.old_src.resolve() if args.old_src else extract(args.base, Path(tmp))
        label = "working tree" if new_src == REPO / "src" else str(new_src)
        base = str(old_src) if args.old_src else args.base
        print(f"base {base} vs {label}; {args.rounds} rounds; CPU time per process")
        print(f"{'workload':18} {'unit':13} {'base':>10} {'new':>10} {'ratio':>6} {'same':>5}")
        for name in names:
            old_rates, new_rates, ratios, same = [], [], [], True
            for r in range(args.rounds):
                order = [("old", old_src), ("new", new_src)]
                if r % 2:
                    order.reverse()
                try:
                    got = {label: run_once(src, name, args.scale) for label, src in order}
                except subprocess.CalledProcessError as failed:  # e.g. a base without the hard level's spec
                    print(f"{name:18} failed in a tree: {failed.stderr.strip().splitlines()[-1:]}")
                    break
                old_rate = got["old"]["count"] / got["old"]["cpu"]
                new_rate = got["new"]["count"] / got["new"]["cpu"]
                old_rates.append(old_rate)
                new_rates.append(new_rate)
                ratios.append(new_rate / old_rate)
                same = same and got["old"]["digest"] == got["new"]["digest"]
                if expect_compiled and not got["new"]["compiled"]:
                    raise SystemExit(f"{new_src} has extension modules but the run loaded none compiled")
                compiled = got["new"]["compiled"]
            if not ratios:
                continue
            kind = WORKLOADS[name][0]
            row = {"workload": name, "unit": UNITS[kind], "base": round(statistics.median(old_rates), 1),
                   "new": round(statistics.median(new_rates), 1),
                   "ratio": round(statistics.median(ratios), 2), "ratios": [round(x, 2) for x in ratios],
                   "same": same, "compiled": compiled}
            rows.append(row)
            print(f"{name:18} {row['unit']:13} {row['base']:>10,.0f} {row['new']:>10,.0f} "
                  f"{row['ratio']:>5.2f}x {'yes' if same else 'NO':>5}"
                  + (f"  (compiled modules: {compiled})" if compiled else ""), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()

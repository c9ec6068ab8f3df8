"""Traces that pin what the engines, bots and RL encoders compute (issue 16: speed-ups
must change no result).

Each trace is a small, seeded computation whose output (moves, decisions, search visit
counts, digests of observation and mask bytes) is stored in ``traces.json``. The stored
file was generated from commit 5c3cb8b, the code before the speed work, with::

    git archive 5c3cb8b src | tar -x -C /tmp/base
    PYTHONPATH=/tmp/base/src .venv/bin/python tests/equivalence/traces.py --write

``test_equivalence.py`` recomputes every trace with the code under test and compares.
Only the public APIs of that commit are used (``legal_actions``, ``apply_unchecked``,
``view``, ``MCTSAgent.search``, ``HeuristicAgent.act``, ``mayagames.rl.env``).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any, Callable

FIXTURE = Path(__file__).with_name("traces.json")


def sample_positions(game: str, players: int, count: int, seed: int) -> list:
    """Positions at evenly spread depths of one seeded random game, each with a choice."""
    from mayagames.core import new_game
    from mayagames.core.rng import Rng

    probe, rng, length = new_game(game, players, seed), Rng(seed), 0
    while not probe.is_terminal:
        probe.apply_unchecked(rng.choice(probe.legal_actions()))
        length += 1
    positions = []
    state, walk, done = new_game(game, players, seed), Rng(seed), 0
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


def random_games(game: str, players: int, seeds: range) -> list[dict[str, Any]]:
    """Seeded random games: length, final scores, digest of the moves and legal counts."""
    from mayagames.core import new_game
    from mayagames.core.rng import Rng

    out = []
    for seed in seeds:
        state, rng, digest, n = new_game(game, players, seed), Rng(seed + 7), hashlib.sha256(), 0
        while state.current_player is not None:
            legal = state.legal_actions()
            action = legal[rng.randbelow(len(legal))]
            digest.update(f"{len(legal)} {action};".encode())
            state.apply_unchecked(action)
            n += 1
        out.append({"seed": seed, "decisions": n, "scores": state.scores(),
                    "moves_sha256": digest.hexdigest()})
    return out


def heuristic_decisions(game: str, players: int, count: int, **options: Any) -> list[str]:
    """The heuristic bot's decision at ``count`` positions of a seeded random game."""
    from mayagames.agents import HeuristicAgent

    decisions = []
    for i, state in enumerate(sample_positions(game, players, count, seed=11 + players)):
        seat = state.current_player
        agent = HeuristicAgent(seed=i, **options)
        decisions.append(str(agent.act(state.view(seat), state.legal_actions())))
    return decisions


def mcts_searches(game: str, players: int, count: int, iterations: int,
                  **options: Any) -> list[dict[str, Any]]:
    """MCTS decisions under an iteration budget, with the root's visit counts."""
    from mayagames.agents import MCTSAgent

    out = []
    for i, state in enumerate(sample_positions(game, players, count, seed=21 + players)):
        seat = state.current_player
        agent = MCTSAgent(seed=i, iterations=iterations, **options)
        action, stats = agent.search(state.view(seat), state.legal_actions())
        out.append({"action": str(action), "nodes": stats.nodes, "max_depth": stats.max_depth,
                    "visits": [[r["action"], r["visits"]] for r in stats.root]})
    return out


def observations(game: str, players: int, seeds: range) -> list[dict[str, Any]]:
    """Seeded masked-random AEC episodes: a digest of the acting seat's observation and
    mask at every step, and of every seat's (``observe``) every 25 steps."""
    import numpy as np
    from mayagames.rl import env

    environment = env(game, num_players=players)
    out = []
    for seed in seeds:
        environment.reset(seed=seed)
        rng = np.random.default_rng(seed)
        digest, steps = hashlib.sha256(), 0
        for agent in environment.agent_iter():
            obs, reward, terminated, truncated, _ = environment.last()
            digest.update(obs["observation"].tobytes())
            digest.update(obs["action_mask"].tobytes())
            digest.update(repr((agent, reward, terminated, truncated)).encode())
            if steps % 25 == 0:
                for other in environment.agents:
                    seen = environment.observe(other)
                    digest.update(seen["observation"].tobytes())
                    digest.update(seen["action_mask"].tobytes())
            if terminated or truncated:
                environment.step(None)
                continue
            environment.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        out.append({"seed": seed, "steps": steps, "sha256": digest.hexdigest()})
    return out


# name -> the computation (all cheap enough for CI: about a second each at most)
TRACES: dict[str, Callable[[], Any]] = {
    "tikal random 2p": lambda: random_games("tikal", 2, range(3)),
    "tikal random 4p": lambda: random_games("tikal", 4, range(2)),
    "tikal random 1p": lambda: random_games("tikal", 1, range(2)),
    "tzolkin random 2p": lambda: random_games("tzolkin", 2, range(3)),
    "tzolkin random 4p": lambda: random_games("tzolkin", 4, range(2)),
    "tikal heuristic 2p": lambda: heuristic_decisions("tikal", 2, 10),
    "tikal heuristic 4p": lambda: heuristic_decisions("tikal", 4, 4),
    "tikal heuristic noisy 2p": lambda: heuristic_decisions("tikal", 2, 4, noise=0.5, samples=2),
    "tzolkin heuristic 2p": lambda: heuristic_decisions("tzolkin", 2, 8),
    "tzolkin heuristic 4p": lambda: heuristic_decisions("tzolkin", 4, 3),
    "tikal mcts 2p": lambda: mcts_searches("tikal", 2, 3, 120),
    "tikal mcts 3p worlds": lambda: mcts_searches("tikal", 3, 2, 80, worlds=4),
    "tzolkin mcts 2p": lambda: mcts_searches("tzolkin", 2, 3, 200),
    "tzolkin mcts 4p to the end": lambda: mcts_searches("tzolkin", 4, 1, 40, rollout_plies=None),
    "tzolkin heuristic noisy 2p": lambda: heuristic_decisions("tzolkin", 2, 3, noise=0.5, samples=2),
    "tzolkin mcts 3p worlds": lambda: mcts_searches("tzolkin", 3, 2, 80, worlds=4),
    "tikal observations 2p": lambda: observations("tikal", 2, range(2)),
    "tikal observations 3p": lambda: observations("tikal", 3, range(1)),
    "tzolkin observations 4p": lambda: observations("tzolkin", 4, range(1)),
    "tikal observations 4p": lambda: observations("tikal", 4, range(1)),
    "tzolkin observations 2p": lambda: observations("tzolkin", 2, range(2)),
    "tzolkin observations 3p": lambda: observations("tzolkin", 3, range(1)),
}


def compute(name: str) -> Any:
    """A trace as JSON would store it (tuples become lists)."""
    return json.loads(json.dumps(TRACES[name]()))


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        raise SystemExit(__doc__)
    FIXTURE.write_text(json.dumps({name: compute(name) for name in TRACES}, indent=1) + "\n")
    print(f"wrote {FIXTURE}")

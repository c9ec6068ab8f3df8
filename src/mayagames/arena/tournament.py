"""Tournaments: seeded games between agents, with rotating seats, run in parallel.

A run is a list of :class:`MatchTask`, each fully determined by the run seed and
its index (:func:`plan_matches`), so the records do not depend on how many
processes play them nor in which order they finish. Game ``i`` rotates the agent
list by ``i`` seats: over every ``n`` consecutive games each agent plays each
seat once. With ``duplicate=True`` the ``n`` games of a rotation share one seed
(the same deal played from every seat), which lowers the variance of
comparisons. Searches with a *time* budget depend on the machine's speed; only
iteration budgets make a run bit-for-bit reproducible.

Backends: in-process (``jobs=1``), a pool of ``jobs`` processes, or Ray
(``ray_address="local"`` or a cluster address; Ray is an optional extra).
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..agents import make_agent
from ..core.errors import MayaGamesError
from ..core.game import State
from ..core.record import GameRecord, Seat
from ..core.registry import get_game
from ..core.rng import derive_seed
from .parallel import ArenaError, default_jobs, import_ray, run_each  # noqa: F401 (re-exported)


@dataclass(frozen=True)
class MatchTask:
    """One game to play: everything needed to play it anywhere."""

    index: int
    game: str
    seed: int
    agents: tuple[str, ...]  # agent spec per seat
    options: tuple[tuple[str, Any], ...] = ()
    run_seed: int = 0
    rotation: int = 0


@dataclass
class MatchResult:
    """A played (or failed) game: its record as JSON-ready data."""

    index: int
    record: dict[str, Any]
    seconds: float
    error: str | None = None
    agent_stats: list[dict[str, Any]] = field(default_factory=list)


def rotate(agents: Sequence[str], shift: int) -> tuple[str, ...]:
    """Seat ``s`` gets ``agents[(s + shift) % n]``."""
    n = len(agents)
    return tuple(agents[(seat + shift) % n] for seat in range(n))


def check_agents(game: str, agents: Sequence[str]) -> None:
    """Fail early (ArenaError) on a bad player count or agent spec."""
    info = get_game(game)
    try:
        info.check_players(len(agents))
    except MayaGamesError as exc:
        raise ArenaError(f"{exc} (--players lists one agent per seat)") from exc
    for spec in agents:
        if spec.strip().lower() == "human":
            raise ArenaError("simulate plays bots only; 'human' cannot take a seat")
        try:
            make_agent(spec)
        except ValueError as exc:
            raise ArenaError(str(exc)) from exc


def game_seed(run_seed: int, index: int, num_players: int, duplicate: bool) -> int:
    """The seed of game ``index``: from the run seed and the index (or its rotation group)."""
    if duplicate:
        return derive_seed(run_seed, "deal", index // num_players)
    return derive_seed(run_seed, "game", index)


def plan_matches(game: str, agents: Sequence[str], games: int, seed: int,
                 options: dict[str, Any] | None = None, duplicate: bool = False) -> list[MatchTask]:
    """The games of a run: rotating seats, seeds derived from ``seed`` and the index."""
    if games < 1:
        raise ArenaError("--games must be at least 1")
    agents = [a.strip() for a in agents]
    check_agents(game, agents)
    info = get_game(game)
    resolved = tuple(sorted(info.resolve_options(options).items()))
    n = len(agents)
    return [MatchTask(index=i, game=info.name, seed=game_seed(seed, i, n, duplicate),
                      agents=rotate(agents, i % n), options=resolved, run_seed=seed,
                      rotation=i % n)
            for i in range(games)]


def agent_seed(task: MatchTask, seat: int) -> int:
    return derive_seed(task.seed, "agent", seat, task.agents[seat])


def play_match(task: MatchTask) -> MatchResult:
    """Play one game; never raises (a failure is returned with the partial record)."""
    start = time.perf_counter()
    record = GameRecord.start(task.game, len(task.agents), task.seed, dict(task.options),
                              [Seat(name=spec, agent=spec) for spec in task.agents])
    record.meta["arena"] = {"run_seed": task.run_seed, "index": task.index,
                            "rotation": task.rotation}
    think = [0.0] * len(task.agents)
    decisions = [0] * len(task.agents)
    agents: list[Any] = []
    error = None
    try:
        agents = [make_agent(spec, agent_seed(task, s)) for s, spec in enumerate(task.agents)]
        state = record.new_state()
        limit = get_game(task.game).max_decisions
        while (seat := state.current_player) is not None:
            if len(record.moves) >= limit:
                raise ArenaError(f"no end after {limit} decisions (the game's max_decisions); "
                                 "stopped so that the run goes on")
            legal = state.legal_actions()
            t0 = time.perf_counter()
            action = agents[seat].act(state.view(seat), legal)
            think[seat] += time.perf_counter() - t0
            decisions[seat] += 1
            if action not in legal:
                raise ArenaError(f"agent {task.agents[seat]!r} chose an illegal action {action}")
            state.apply(action)
            record.moves.append(str(action))
        record.finish(state)
        record.meta["features"] = final_features(state)
    except Exception:  # a crash in an engine or agent must not lose the other games
        error = traceback.format_exc(limit=8)
        record.meta["error"] = error
    stats = [{"agent": spec, "decisions": decisions[s], "think_seconds": round(think[s], 4),
              **(agents[s].summary() if s < len(agents) and hasattr(agents[s], "summary") else {})}
             for s, spec in enumerate(task.agents)]
    record.meta["agents"] = stats
    seconds = time.perf_counter() - start
    record.meta["seconds"] = round(seconds, 4)
    return MatchResult(task.index, record.to_dict(), seconds, error, stats)


def final_features(state: State) -> list[dict[str, str]] | None:
    """The game's seat features of a finished game (None if the game defines none)."""
    from ..agents.hooks import seat_features

    features = seat_features(state.info)
    return features(state) if features else None


# --- backends ------------------------------------------------------------------
OnResult = Callable[[MatchResult], None]


def run_matches(tasks: Sequence[MatchTask], jobs: int = 1, ray_address: str | None = None,
                on_result: OnResult | None = None) -> list[MatchResult]:
    """Play every task; results in task order whatever the backend and ``jobs``."""
    results = run_each(play_match, [(task,) for task in tasks], jobs, ray_address, on_result)
    return sorted(results, key=lambda r: r.index)

"""Run independent jobs in this process, a process pool, or on Ray: one runner for the arena.

Tournaments (``simulate``) and game reviews (``analyze``) both run many independent,
deterministic jobs (a game, a decision's analysis). :func:`run_each` runs ``fn(*args)`` for
every argument tuple on the chosen backend and reports each result as it arrives; callers
sort the results themselves (each job carries its index), so the outcome is the same
whatever the backend and the number of jobs.
"""

from __future__ import annotations

import logging
import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from typing import Any, Callable, Iterable, Sequence, TypeVar

from ..core.errors import MayaGamesError

R = TypeVar("R")


class ArenaError(MayaGamesError):
    """A tournament that cannot be run as asked (bad agents, players, backend)."""


def default_jobs() -> int:
    return os.cpu_count() or 1


def import_ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise ArenaError("the Ray backend needs Ray: pip install 'mayagames[ray]' "
                         f"(import failed: {exc})") from exc
    return ray


def run_each(fn: Callable[..., R], jobs_args: Sequence[tuple[Any, ...]], jobs: int = 1,
             ray_address: str | None = None,
             on_result: Callable[[R], None] | None = None) -> list[R]:
    """``fn(*args)`` for every tuple of ``jobs_args``: in this process (``jobs`` ≤ 1), in a
    pool of ``jobs`` processes, or on Ray (``ray_address``: ``local`` or a cluster's
    address). ``on_result`` sees each result as it arrives; the list is in arrival order."""
    callback = on_result or (lambda result: None)
    if ray_address:
        runs: Iterable[R] = _on_ray(fn, jobs_args, ray_address, jobs)
    elif jobs <= 1 or len(jobs_args) <= 1:
        runs = (fn(*args) for args in jobs_args)
    else:
        runs = _in_pool(fn, jobs_args, jobs)
    results = []
    for result in runs:
        callback(result)
        results.append(result)
    return results


def _in_pool(fn: Callable[..., R], jobs_args: Sequence[tuple[Any, ...]], jobs: int) -> Iterable[R]:
    # 'spawn': safe alongside a progress bar's thread (fork would copy its locks).
    with ProcessPoolExecutor(max_workers=min(jobs, len(jobs_args)),
                             mp_context=get_context("spawn")) as pool:
        futures = [pool.submit(fn, *args) for args in jobs_args]
        for future in as_completed(futures):
            yield future.result()


def _on_ray(fn: Callable[..., R], jobs_args: Sequence[tuple[Any, ...]], address: str,
            jobs: int) -> Iterable[R]:
    ray = import_ray()
    import mayagames

    local = address == "local"
    # py_modules ships this package to every worker, so cluster nodes need only its dependencies.
    ray.init(address=None if local else address, num_cpus=jobs if local else None,
             runtime_env={"py_modules": [mayagames]}, include_dashboard=False,
             ignore_reinit_error=True, log_to_driver=False, logging_level=logging.WARNING)
    try:
        remote = ray.remote(fn)
        pending = [remote.remote(*args) for args in jobs_args]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        ray.shutdown()

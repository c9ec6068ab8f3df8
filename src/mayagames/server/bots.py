"""Where bot seats think, off the event loop.

A search bot (MCTS, the heuristic bot) is CPU-bound Python: in a thread it would hold
the interpreter lock most of the time and slow every request down (and two bots in
two threads would share one core). So the agents of the ``mayagames`` package that
search think in **worker processes** (``--bot-processes``, forkserver/spawn): each
decision sends the agent, the view and the legal actions there and gets back the
chosen index and the agent, whose state (its random generator) thus carries on from
decision to decision exactly as in a thread. Cheap agents (random) and agents that
live outside the package (test doubles, plug-ins that may not be importable in a
fresh process) think in threads. If the process pool breaks, the decision is taken
in a thread and a new pool is started for the next one. Workers end with the server:
its shutdown waits for them (at most one decision's budget), and each worker also
holds the reading end of a pipe whose only writer is the server, so that it ends as
soon as the server's process is gone, even killed.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..agents import RandomAgent
from ..core.game import Action, State
from ..core.rng import Rng

log = logging.getLogger("mayagames.server")

# Modules a worker process imports once at start (forkserver), not at its first decision.
PRELOAD = ["mayagames.agents", "mayagames.core", "mayagames.tikal", "mayagames.tzolkin"]


def decide(agent: Any, view: State, legal: list[Action]) -> tuple[Action, str | None]:
    """The agent's choice, and None; a failing agent gets a random legal move and what
    went wrong (the caller marks the bot broken and logs it once)."""
    try:
        action = agent.act(view, legal)
        if action in legal:
            return action, None
        failure = f"it chose {str(action)[:80]!r}, not a legal action"
    except Exception as exc:
        failure = f"{type(exc).__name__}: {str(exc)[:200]}"
    return legal[Rng(len(legal)).randbelow(len(legal))], failure


def decide_in_worker(agent: Any, view: State, legal: list[Action]) -> tuple[int, Any, str | None]:
    """Run in a worker process: the index of the chosen action, the agent as it is now,
    and what went wrong (None: nothing)."""
    action, failure = decide(agent, view, legal)
    return legal.index(action), agent, failure


def watch_server(alive: Any) -> None:
    """In a worker process: end it when the server's end of the ``alive`` pipe closes
    (the server stopped or was killed: the system closes a dead process's pipes)."""
    def watch() -> None:
        try:
            alive.recv()  # the server never writes: this returns only at end of file
        except (EOFError, OSError):
            pass
        os._exit(0)
    threading.Thread(target=watch, name="watch-server", daemon=True).start()


def thinks_hard(agent: Any) -> bool:
    """Whether a decision of ``agent`` goes to a worker process: the package's own agents,
    except the random one (instant: a process round trip would only slow it down)."""
    return type(agent).__module__.startswith("mayagames.") and not isinstance(agent, RandomAgent)


def process_context() -> Any:
    """forkserver where the platform has it (no copy of the server's threads), else spawn."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if context.get_start_method() == "forkserver":
        context.set_forkserver_preload(PRELOAD)
    return context


class BotPool:
    """Threads for every agent, plus worker processes for those that think hard."""

    def __init__(self, threads: int = 2, processes: int = 0) -> None:
        self.threads = ThreadPoolExecutor(max(1, threads), thread_name_prefix="bot")
        self.processes_wanted = processes
        self.processes: Executor | None = None
        self.in_process = thinks_hard  # which agents go to the processes (tests may widen it)
        self.alive: Any = None  # the server's (writing) end of the workers' pipe

    def process_pool(self) -> Executor:
        if self.processes is None:
            context = process_context()
            if self.alive is None:
                self.reader, self.alive = context.Pipe(duplex=False)
            self.processes = ProcessPoolExecutor(self.processes_wanted, mp_context=context,
                                                 initializer=watch_server, initargs=(self.reader,))
        return self.processes

    async def decide(self, agent: Any, view: State,
                     legal: list[Action]) -> tuple[Action, Any, str | None]:
        """The action chosen for ``view``, the agent to use next time (the same object
        after a thread, its updated copy after a worker process) and what went wrong
        (None: the agent chose)."""
        loop = asyncio.get_running_loop()
        if self.processes_wanted and self.in_process(agent):
            try:
                index, agent, failure = await loop.run_in_executor(
                    self.process_pool(), decide_in_worker, agent, view, legal)
                return legal[index], agent, failure
            except (BrokenProcessPool, pickle.PicklingError, AttributeError, ImportError) as exc:
                log.warning("bot %s could not think in a worker process (%s); using a thread",
                            getattr(agent, "name", agent), exc)
                if isinstance(exc, BrokenProcessPool):
                    self.processes = None  # a fresh pool next time
        action, failure = await loop.run_in_executor(self.threads, decide, agent, view, legal)
        return action, agent, failure

    def shutdown(self, grace: float = 2.0) -> None:
        """Stop taking decisions and end the worker processes: a decision under way gets
        ``grace`` seconds, then its worker is terminated, so that none outlives the
        server (and a stop takes seconds, whatever a bot was asked to think)."""
        self.threads.shutdown(wait=False, cancel_futures=True)
        if self.processes is not None:
            pool, self.processes = self.processes, None
            workers = list(getattr(pool, "_processes", {}).values())  # no public accessor (3.11)
            pool.shutdown(wait=False, cancel_futures=True)
            deadline = time.monotonic() + grace
            for worker in workers:
                worker.join(max(0.0, deadline - time.monotonic()))
            for worker in workers:
                if worker.is_alive():
                    worker.terminate()
            for worker in workers:
                worker.join(1.0)
                if worker.is_alive():
                    worker.kill()
        if self.alive is not None:
            self.alive.close()
            self.reader.close()
            self.alive = None

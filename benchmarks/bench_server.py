"""Server benchmark: move round-trip latency over WebSocket with many concurrent games.

Starts ``mayagames serve`` in a subprocess (SQLite in a temporary folder, bots off),
creates ``--games`` tables of the test game with two human seats, connects one
WebSocket per seat, and has every game play random legal moves, pausing ``--think``
seconds on average between moves (0: as fast as possible, a saturation test). The
round trip is measured from sending a ``move`` to receiving its acknowledged
``state`` (so it includes validation, the database write and the fan-out). Bots are
not involved, so no bot thinking is measured. Finished games are replaced by new ones.

    .venv/bin/python benchmarks/bench_server.py --games 200 --seconds 30 --think 0.5
    .venv/bin/python benchmarks/bench_server.py --games 200 --seconds 30 --think 0

Figures are printed (and written as JSON with ``--json``); nothing is asserted. Set
``MAYAGAMES_PROFILE_SERVER=FILE`` to run the server under cProfile (stats in FILE).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

SRC = Path(__file__).resolve().parents[1] / "src"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, folder: str, database_url: str | None) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    url = database_url or f"sqlite:///{folder}/bench.db"
    profile = os.environ.get("MAYAGAMES_PROFILE_SERVER")  # a file: run the server under cProfile
    runner = [sys.executable] + (["-m", "cProfile", "-o", profile] if profile else [])
    return subprocess.Popen([*runner, "-m", "mayagames.cli", "serve", "--port", str(port),
                             "--database-url", url, "--bot-delay", "0", "--test-games",
                             "--log-level", "warning", "--no-rate-limits", "--allow-fixed-seed"], env=env)


async def wait_up(base: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(base_url=base) as http:
        while True:
            try:
                if (await http.get("/api/health")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start")
            await asyncio.sleep(0.1)


class Seat:
    """One seat's socket: keeps its latest state and resolves move acknowledgements."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.state: dict | None = None
        self.waiting: dict[int, asyncio.Future] = {}
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        async for raw in self.ws:
            message = json.loads(raw)
            if message["type"] == "state":
                self.state = message
                self.changed.set()
            rid = message.get("ack", message.get("rid"))
            future = self.waiting.pop(rid, None) if rid is not None else None
            if future is not None and not future.done():
                future.set_result(message)

    async def request(self, message: dict) -> dict:
        future = asyncio.get_running_loop().create_future()
        self.waiting[message["rid"]] = future
        await self.ws.send(json.dumps(message))
        return await future

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()


async def play_games(base: str, ws_base: str, http: httpx.AsyncClient, until: float, think: float,
                     rtts: list[float], errors: list[str], slot: int) -> int:
    """Play games back to back in one slot until the time is up; returns games finished."""
    rng, finished, rid = random.Random(slot), 0, 0
    while time.monotonic() < until:
        created = (await http.post("/api/tables", json={"game": "toy", "players": 2})).json()
        seats = []
        for seat in created["seats"]:
            ws = await connect(f"{ws_base}/ws/tables/{created['table']}", max_size=2**22)
            s = Seat(ws)
            await ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
            seats.append(s)
        while any(s.state is None for s in seats):
            await asyncio.sleep(0.005)
        while time.monotonic() < until:
            state = max((s.state for s in seats), key=lambda m: m["move_number"])
            if state["terminal"]:
                finished += 1
                break
            mover = seats[state["current_player"]]
            while mover.state["move_number"] != state["move_number"]:
                mover.changed.clear()
                await mover.changed.wait()
            legal = mover.state["legal"]
            plays = [a for a in legal if a["kind"] != "Swap"] or legal
            action = rng.choice(plays if rng.random() < 0.8 else legal)
            if think:
                await asyncio.sleep(rng.expovariate(1 / think))
            rid += 1
            started = time.perf_counter()
            answer = await mover.request({"type": "move", "move_number": mover.state["move_number"],
                                          "action_id": action["id"], "rid": rid})
            rtts.append(time.perf_counter() - started)
            if answer["type"] == "error":
                errors.append(answer["error"])
        for s in seats:
            await s.close()
    return finished


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process so far (Linux /proc), else None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(args: argparse.Namespace) -> dict:
    port = free_port()
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(port, folder, args.database_url)
        try:
            await wait_up(base)
            rtts: list[float] = []
            errors: list[str] = []
            limits = httpx.Limits(max_connections=50)
            async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as http:
                started = time.monotonic()
                cpu_before = cpu_seconds(server.pid)
                client_before = resource.getrusage(resource.RUSAGE_SELF)
                until = started + args.seconds
                done = await asyncio.gather(*(play_games(base, ws_base, http, until, args.think,
                                                         rtts, errors, slot)
                                              for slot in range(args.games)))
                elapsed = time.monotonic() - started
                cpu_after = cpu_seconds(server.pid)
                client_after = resource.getrusage(resource.RUSAGE_SELF)
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=30)
    ms = [r * 1000 for r in rtts]
    return {
        "python": platform.python_version(), "cpus": os.cpu_count(),
        "database": "postgresql" if args.database_url else "sqlite",
        "concurrent_games": args.games, "think_s": args.think, "seconds": round(elapsed, 1),
        "moves": len(ms), "moves_per_s": round(len(ms) / elapsed, 1), "games_finished": sum(done),
        "errors": len(errors),
        "server_cpu_ms_per_move": (round((cpu_after - cpu_before) * 1000 / len(ms), 3)
                                   if ms and cpu_before is not None and cpu_after is not None
                                   else None),
        "client_cpu_ms_per_move": round(
            (client_after.ru_utime + client_after.ru_stime - client_before.ru_utime
             - client_before.ru_stime) * 1000 / len(ms), 3) if ms else None,
        "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        "rtt_ms": {"p50": round(percentile(ms, 0.50), 2), "p95": round(percentile(ms, 0.95), 2),
                   "p99": round(percentile(ms, 0.99), 2), "max": round(max(ms), 2),
                   "mean": round(statistics.fmean(ms), 2)} if ms else {},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="concurrent games")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to play")
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean pause between a game's moves in seconds (0: saturate)")
    parser.add_argument("--database-url", default=None, help="default: a temporary SQLite file")
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    figures = asyncio.run(run(args))
    print(json.dumps(figures, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()

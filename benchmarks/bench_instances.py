"""Several server instances on one PostgreSQL database: throughput and NOTIFY fan-out.

For each instance count (``--instances 1,2,3``) it starts that many ``mayagames serve``
processes on a fresh schema of ``$DATABASE_URL`` (the schema is dropped afterwards) and:

* **throughput**: closed-loop REST clients, each playing its own table of the test game
  (two human seats; a finished game is replaced), every move sent through the next
  instance in turn, so nearly every move lands on an instance other than the one that
  stored the previous move (the instance catches up from the notification, or from the
  database when the notification has not arrived yet). Concurrency rises
  (``--clients 1,2,4,8,16,32``) for ``--seconds`` each; the figure reported is the
  largest moves/s whose p95 latency (request sent -> answer received) is <= 100 ms.
* **fan-out** (2 or more instances): a spectator's WebSocket on instance B while moves
  are posted through instance A, one at a time: the delay from sending the move on A to
  the spectator's receiving the new state on B (which crosses A's write, the database's
  NOTIFY, B's listener and B's fan-out), beside the same delay for a spectator on A
  itself. p50 and p95 over ``--fanout-moves`` moves.

    DATABASE_URL=postgresql://... .venv/bin/python benchmarks/bench_instances.py
    DATABASE_URL=postgresql://... .venv/bin/python benchmarks/bench_instances.py \\
        --instances 1,2,3 --clients 1,2,4,8,16 --seconds 5 --json out.json

Figures are printed (and written with ``--json``); nothing is asserted. The clients run
on the same machine as the servers and the database, so on a small machine the figures
measure the machine: expect them flat in the number of instances (the point of several
instances is correctness with more cores or hosts, not speed on two cores).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import free_port, percentile, start_server, wait_up  # noqa: E402

P95_GOAL_MS = 100.0


def schema_url(base: str, schema: str) -> str:
    option = quote(f"-csearch_path={schema}")
    return f"{base}{'&' if '?' in base else '?'}options={option}"


class Cluster:
    """``count`` instances on a fresh schema (created and dropped here)."""

    def __init__(self, base_url: str, count: int, folder: str) -> None:
        from mayagames.server.db import Database

        self.schema = f"bench_{uuid.uuid4().hex[:10]}"
        self.db = Database(base_url, schema=self.schema)
        self.db.create_schema()
        url = schema_url(base_url, self.schema)
        self.ports = [free_port() for _ in range(count)]
        self.processes = [start_server(port, folder, url) for port in self.ports]
        self.bases = [f"http://127.0.0.1:{port}" for port in self.ports]

    async def wait(self) -> None:
        await asyncio.gather(*(wait_up(base, 180) for base in self.bases))

    def close(self) -> None:
        for process in self.processes:
            process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except Exception:
                process.kill()
        self.db.drop_schema()
        self.db.dispose()


async def new_table(http: httpx.AsyncClient, base: str) -> dict:
    created = (await http.post(f"{base}/api/tables", json={"game": "toy", "players": 2})).json()
    created["tokens"] = {s["seat"]: s["token"] for s in created["seats"]}
    return created


async def client_loop(http: httpx.AsyncClient, bases: list[str], slot: int, until: float,
                      latencies: list[float], errors: list[str]) -> None:
    """Play tables back to back, each move through the next instance, until ``until``."""
    turn = slot
    while time.monotonic() < until:
        table = await new_table(http, bases[turn % len(bases)])
        state = (await http.get(f"{bases[turn % len(bases)]}/api/tables/{table['table']}",
                                headers={"Authorization": f"Bearer {table['tokens'][0]}"})).json()
        while time.monotonic() < until and not state["terminal"]:
            turn += 1
            seat = state["current_player"]
            base = bases[turn % len(bases)]
            started = time.perf_counter()
            answer = await http.post(
                f"{base}/api/tables/{table['table']}/moves",
                headers={"Authorization": f"Bearer {table['tokens'][seat]}"},
                json={"move_number": state["move_number"], "action_id": 0})
            latencies.append((time.perf_counter() - started) * 1000)
            if answer.status_code != 200:
                errors.append(answer.text[:200])
                break
            moved = answer.json()
            # the answer is the mover's view: the next seat reads its own through another instance
            nxt = moved["current_player"]
            if moved["terminal"] or nxt is None:
                break
            state = (await http.get(f"{bases[(turn + 1) % len(bases)]}/api/tables/{table['table']}",
                                    headers={"Authorization": f"Bearer {table['tokens'][nxt]}"})).json()


async def throughput(bases: list[str], clients: int, seconds: float) -> dict:
    latencies: list[float] = []
    errors: list[str] = []
    limits = httpx.Limits(max_connections=clients * 2 + 4)
    async with httpx.AsyncClient(timeout=30, limits=limits) as http:
        await asyncio.gather(*(client_loop(http, bases, slot, time.monotonic() + 1.0, [], [])
                               for slot in range(min(clients, 2))))  # warm-up
        started = time.monotonic()
        await asyncio.gather(*(client_loop(http, bases, slot, started + seconds, latencies,
                                           errors) for slot in range(clients)))
        elapsed = time.monotonic() - started
    return {"clients": clients, "moves": len(latencies),
            "moves_per_s": round(len(latencies) / elapsed, 1),
            "p50_ms": round(percentile(latencies, 0.5), 1),
            "p95_ms": round(percentile(latencies, 0.95), 1), "errors": len(errors),
            "first_error": errors[0] if errors else None}


async def spectate(base: str, table: str, arrivals: dict[int, float]) -> asyncio.Task:
    ws = await connect(f"{base.replace('http', 'ws')}/ws/tables/{table}")
    await ws.send(json.dumps({"type": "hello", "token": None}))

    async def read() -> None:
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "state":
                arrivals.setdefault(message["move_number"], time.perf_counter())

    return asyncio.create_task(read())


async def fanout(bases: list[str], moves: int) -> dict:
    """Delay from sending a move on instance A to a spectator's state on B (and on A)."""
    far: list[float] = []
    near: list[float] = []
    async with httpx.AsyncClient(timeout=30) as http:
        while len(far) < moves:
            table = await new_table(http, bases[0])
            on_b: dict[int, float] = {}
            on_a: dict[int, float] = {}
            readers = [await spectate(bases[1], table["table"], on_b),
                       await spectate(bases[0], table["table"], on_a)]
            await asyncio.sleep(0.2)
            state = (await http.get(f"{bases[0]}/api/tables/{table['table']}",
                                    headers={"Authorization": f"Bearer {table['tokens'][0]}"})).json()
            while not state["terminal"] and len(far) < moves:
                seat = state["current_player"]
                sent = time.perf_counter()
                answer = await http.post(
                    f"{bases[0]}/api/tables/{table['table']}/moves",
                    headers={"Authorization": f"Bearer {table['tokens'][seat]}"},
                    json={"move_number": state["move_number"], "action_id": 0})
                state = answer.json()
                number = state["move_number"]
                deadline = time.monotonic() + 5
                while (number not in on_b or number not in on_a) and time.monotonic() < deadline:
                    await asyncio.sleep(0.001)
                if number in on_b and number in on_a:
                    far.append((on_b[number] - sent) * 1000)
                    near.append((on_a[number] - sent) * 1000)
                await asyncio.sleep(0.02)
                if state["current_player"] is not None and not state["terminal"]:
                    state = (await http.get(
                        f"{bases[0]}/api/tables/{table['table']}",
                        headers={"Authorization": f"Bearer {table['tokens'][state['current_player']]}"})).json()
            for reader in readers:
                reader.cancel()
    return {"moves": len(far),
            "other_instance_p50_ms": round(percentile(far, 0.5), 1),
            "other_instance_p95_ms": round(percentile(far, 0.95), 1),
            "same_instance_p50_ms": round(percentile(near, 0.5), 1),
            "same_instance_p95_ms": round(percentile(near, 0.95), 1)}


async def run(args: argparse.Namespace) -> dict:
    base_url = os.environ.get("DATABASE_URL")
    if not base_url or not base_url.startswith("postgres"):
        raise SystemExit("set DATABASE_URL to a PostgreSQL database")
    results: dict = {"load_average_before": os.getloadavg(), "runs": []}
    with tempfile.TemporaryDirectory() as folder:
        for count in [int(n) for n in args.instances.split(",")]:
            cluster = Cluster(base_url, count, folder)
            try:
                await cluster.wait()
                levels = []
                for clients in [int(c) for c in args.clients.split(",")]:
                    level = await throughput(cluster.bases, clients, args.seconds)
                    levels.append(level)
                    print(f"{count} instance(s), {clients:3d} clients: {level['moves_per_s']:7.1f} "
                          f"moves/s  p50 {level['p50_ms']:6.1f} ms  p95 {level['p95_ms']:6.1f} ms"
                          f"  errors {level['errors']}", flush=True)
                within = [lv for lv in levels if lv["p95_ms"] <= P95_GOAL_MS]
                best = max(within, key=lambda lv: lv["moves_per_s"]) if within else None
                run_ = {"instances": count, "levels": levels,
                        "moves_per_s_at_p95_le_100ms": best["moves_per_s"] if best else None}
                if count >= 2:
                    run_["fanout"] = await fanout(cluster.bases, args.fanout_moves)
                    print(f"{count} instances, fan-out: {run_['fanout']}", flush=True)
                results["runs"].append(run_)
                print(f"{count} instance(s): {run_['moves_per_s_at_p95_le_100ms']} moves/s at "
                      "p95 <= 100 ms", flush=True)
            finally:
                cluster.close()
    results["load_average_after"] = os.getloadavg()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--instances", default="1,2,3")
    parser.add_argument("--clients", default="1,2,4,8,16")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--fanout-moves", type=int, default=100)
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    results = asyncio.run(run(args))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()

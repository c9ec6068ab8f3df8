"""Server benchmark with search bots: how long a bot seat takes per move, and how fast
the server answers other requests while bots think.

Starts ``mayagames serve`` in a subprocess (SQLite in a temporary folder, no bot delay)
with ``--bot-processes P``, creates ``--tables`` tables of a game whose seats are all
bots of ``--bot`` (``hard`` by default), and for ``--seconds`` polls each table and
``GET /api/health`` (the time of each answer is a request's latency while the bots
think). A bot move's time is the gap between two changes of a table's move number.
Run it once with ``--bot-processes 0`` (bots in threads) and once with 2 to compare.

    .venv/bin/python benchmarks/bench_server_bots.py --game tikal --tables 2 --bot-processes 2
    .venv/bin/python benchmarks/bench_server_bots.py --game tikal --tables 2 --bot-processes 0

Figures are printed (JSON with ``--json``); nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import free_port, percentile  # noqa: E402

SRC = Path(__file__).resolve().parents[1] / "src"


def start_server(port: int, folder: str, processes: int) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    return subprocess.Popen([sys.executable, "-m", "mayagames.cli", "serve", "--port", str(port),
                             "--database-url", f"sqlite:///{folder}/bench.db", "--bot-delay", "0",
                             "--bot-processes", str(processes), "--log-level", "warning",
                             "--no-rate-limits", "--allow-fixed-seed"], env=env)


def wait_up(http: httpx.Client, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if http.get("/api/health").status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.1)


def run(args: argparse.Namespace) -> dict:
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(port, folder, args.bot_processes)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
                wait_up(http)
                tables = []
                for i in range(args.tables):
                    answer = http.post("/api/tables", json={
                        "game": args.game, "players": args.players, "seed": i + 1,
                        "seats": [{"agent": args.bot}] * args.players})
                    answer.raise_for_status()
                    tables.append(answer.json()["table"])
                latencies: list[float] = []
                seen = {t: (0, time.monotonic()) for t in tables}
                gaps: list[float] = []
                end = time.monotonic() + args.seconds
                while time.monotonic() < end:
                    for table in tables:
                        asked = time.perf_counter()
                        number = http.get(f"/api/tables/{table}").json()["move_number"]
                        latencies.append(time.perf_counter() - asked)
                        if number != seen[table][0]:
                            now = time.monotonic()
                            gaps.append(now - seen[table][1])
                            seen[table] = (number, now)
                    asked = time.perf_counter()
                    http.get("/api/health")
                    latencies.append(time.perf_counter() - asked)
                    time.sleep(0.02)
        finally:
            server.terminate()
            server.wait(timeout=20)
    return {
        "game": args.game, "players": args.players, "bot": args.bot, "tables": args.tables,
        "bot_processes": args.bot_processes, "seconds": args.seconds,
        "moves": sum(n for n, _ in seen.values()),
        # a gap: the time between two changes of a table's move number (one searched
        # decision, plus any forced ones the bot plays at once after it)
        "gap_between_moves_s": {"p50": round(statistics.median(gaps), 3) if gaps else None,
                                "max": round(max(gaps), 3) if gaps else None},
        "moves_per_table_per_s": round(sum(n for n, _ in seen.values()) / args.tables / args.seconds, 2),
        "request_ms": {"p50": round(1000 * statistics.median(latencies), 1),
                       "p95": round(1000 * percentile(latencies, 0.95), 1),
                       "max": round(1000 * max(latencies), 1)},
        "cpus": os.cpu_count(), "python": platform.python_version(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tikal")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--tables", type=int, default=2)
    parser.add_argument("--bot-processes", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    figures = run(args)
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()

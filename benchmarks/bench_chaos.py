"""Chaos: three ``mayagames serve`` instances on one PostgreSQL database while things break.

It starts a PostgreSQL server of its own (``tests/server/private_postgres.py``: ``initdb``
in a temporary folder, its own port; the shared server is never touched) and three
instances (the test launcher ``tests/server/serve_test_games.py``, whose clock the
benchmark can move on). REST clients play ``--tables`` tables of the test game ``tally``
(two people's seats, hot-seat: one client per table, each request through a random live
instance, an undo now and then); a finished table is replaced. A quarter of the tables
are timed (``realtime:1+0``, zombie ``easy``), and two more timed tables are created and
never opened again. Meanwhile:

* every ``--kill-every`` seconds a random instance is killed (``kill -9``) and a new one
  started (clients use it once it answers);
* at 40 % of the run PostgreSQL is stopped for ``--db-down`` seconds and started again;
* at 55 % one instance's LISTEN connection is cut (``pg_terminate_backend``) again and
  again for 4 s, and meanwhile every instance's clock jumps 61 s ahead: each timed table's
  seat to move runs out of time, and its client keeps trying to move for that seat.

At the end (after the instances had a few seconds to settle) it prints: acknowledged
moves and undos; **lost** moves (acknowledged, not undone by an acknowledged undo, and
not stored as acknowledged); **duplicated** or missing move numbers in the database;
stored moves whose answer never arrived (the instance died first: not an error);
**stalls** (a table whose game did not move on, by its client or its zombie bot, for more
than 10 s); **stale-seat
moves** (a person's move acknowledged for a seat the database already gave the zombie
bot) beside the refusals (``403 bot_seat``); the time-outs of the unwatched tables and
how long after the clock jump; the answers by status (5xx by error code) and connection
errors; tables answering ``500 broken_table`` afterwards on any instance; instances
disagreeing with the database at the end.

    .venv/bin/python benchmarks/bench_chaos.py --seconds 90
    .venv/bin/python benchmarks/bench_chaos.py --seconds 120 --tables 16 --json out.json

Needs the PostgreSQL server binaries (``initdb``, ``pg_ctl``); as root it runs them as
the ``postgres`` user. Nothing is asserted; the figures are the result.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import importlib.util
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

ROOT = Path(__file__).resolve().parent.parent
LAUNCHER = ROOT / "tests" / "server" / "serve_test_games.py"
STALL_SECONDS = 10.0


def load_private_postgres() -> Any:
    """tests/server/private_postgres.py (by path: the tests folder is not a package)."""
    name = "mayagames_private_postgres"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, ROOT / "tests" / "server" / "private_postgres.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[name] = module
    return sys.modules[name]


class Fleet:
    """The instances: started, killed, replaced; ``live`` are those answering."""

    def __init__(self, url: str, folder: Path, clock_file: Path, bot_delay: float) -> None:
        self.url, self.folder, self.bot_delay = url, folder, bot_delay
        self.env = {**os.environ, "MAYAGAMES_TEST_CLOCK": str(clock_file),
                    "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.live: list[str] = []
        self.started = 0
        self.kills = 0

    def spawn(self) -> str:
        private = load_private_postgres()
        port = private.free_port()
        base = f"http://127.0.0.1:{port}"
        self.started += 1
        with open(self.folder / f"instance-{self.started}.log", "ab") as log:
            self.processes[base] = subprocess.Popen(
                [sys.executable, str(LAUNCHER), "serve", "--port", str(port), "--database-url",
                 self.url, "--bot-delay", str(self.bot_delay), "--bot-processes", "0",
                 "--log-level", "warning", "--allow-fixed-seed", "--no-rate-limits"],
                stdout=log, stderr=subprocess.STDOUT, env=self.env, start_new_session=True)
        return base

    async def wait_up(self, base: str, http: httpx.AsyncClient, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.processes[base].poll() is not None:
                return  # it died (killed while starting)
            try:
                if (await http.get(f"{base}/api/health", timeout=2)).status_code == 200:
                    self.live.append(base)
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.2)

    def kill(self, base: str) -> None:
        if base in self.live:
            self.live.remove(base)
        process = self.processes.pop(base)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        self.kills += 1

    def instance_id(self, base: str) -> str | None:
        try:
            return httpx.get(f"{base}/api/health", timeout=5).json()["instance"]
        except (httpx.HTTPError, ValueError, KeyError):
            return None

    def close(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)


@dataclass
class Table:
    id: str
    tokens: dict[int, str]
    timed: bool
    acked: dict[int, str] = field(default_factory=dict)  # move number -> notation
    seen: int = 0  # the last move number the client saw
    last_progress: float = field(default_factory=time.monotonic)
    longest_gap: float = 0.0  # the longest time the game did not move on

    def progress(self, number: int, acked: bool = False) -> None:
        """The game moved on if its move number changed (a move or undo by anyone, the
        zombie bot's too) or the client's own action was acknowledged."""
        if acked or number != self.seen:
            now = time.monotonic()
            self.longest_gap = max(self.longest_gap, now - self.last_progress)
            self.seen, self.last_progress = number, now


@dataclass
class Tally:
    """What the clients saw."""

    answers: collections.Counter[str] = field(default_factory=collections.Counter)
    moves: int = 0
    undos: int = 0
    transport_errors: int = 0
    stale_seat_moves: int = 0
    bot_seat_refusals: int = 0
    tables: list[Table] = field(default_factory=list)
    zombies: dict[str, set[int]] = field(default_factory=dict)  # seen in the database

    def count(self, answer: httpx.Response) -> None:
        key = str(answer.status_code)
        if answer.status_code >= 500:
            try:
                key += f" {answer.json().get('error')}"
            except ValueError:
                key += " (not JSON)"
        self.answers[key] += 1


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


async def new_table(http: httpx.AsyncClient, fleet: Fleet, timed: bool, tally: Tally) -> Table:
    body: dict[str, Any] = {"game": "tally", "players": 2,
                            "seats": [{"name": "A", "agent": "human"},
                                      {"name": "B", "agent": "human"}]}
    if timed:
        body.update(speed="realtime:1+0", zombie="easy")
    while True:
        try:
            answer = await http.post(f"{random.choice(fleet.live)}/api/tables", json=body)
            tally.count(answer)
            if answer.status_code == 201:
                data = answer.json()
                table = Table(data["table"], {s["seat"]: s["token"] for s in data["seats"]},
                              timed)
                tally.tables.append(table)
                return table
        except (httpx.HTTPError, IndexError):
            tally.transport_errors += 1
        await asyncio.sleep(0.3)


async def play(http: httpx.AsyncClient, fleet: Fleet, timed: bool, tally: Tally,
               stop: asyncio.Event) -> None:
    """One client: plays its table (both seats) through random live instances."""
    table = await new_table(http, fleet, timed, tally)
    while not stop.is_set():
        await asyncio.sleep(random.uniform(0.02, 0.1))
        try:
            base = random.choice(fleet.live)
        except IndexError:
            continue
        try:
            seen = await http.get(f"{base}/api/tables/{table.id}")
            tally.count(seen)
            if seen.status_code != 200:
                await asyncio.sleep(0.3)
                continue
            view = seen.json()
            table.progress(view["move_number"])
            if view["terminal"]:
                table = await new_table(http, fleet, timed, tally)
                continue
            seat, number = view["current_player"], view["move_number"]
            mine = await http.get(f"{base}/api/tables/{table.id}",
                                  headers=bearer(table.tokens[seat]))
            tally.count(mine)
            if mine.status_code != 200:
                continue
            mine_view = mine.json()
            legal = [a["text"] for a in mine_view["legal"]]
            if mine_view["can_undo"] and random.random() < 0.05:
                path, body = "undo", {"move_number": mine_view["move_number"]}
            elif legal:
                path, body = "moves", {"move_number": mine_view["move_number"],
                                       "action": random.choice(legal)}
            else:  # a bot (the zombie) plays the seat here: a person tries anyway
                path, body = "moves", {"move_number": number, "action_id": 0}
            zombie_known = seat in tally.zombies.get(table.id, set())
            answer = await http.post(f"{base}/api/tables/{table.id}/{path}", json=body,
                                     headers=bearer(table.tokens[seat]))
            tally.count(answer)
        except httpx.HTTPError:
            tally.transport_errors += 1
            await asyncio.sleep(0.2)
            continue
        if answer.status_code == 200:
            done = answer.json()
            n = done["move_number"]
            if path == "moves":
                tally.moves += 1
                table.acked[n] = done["log"][-1]["text"] if done["log"] else "?"
                if zombie_known:
                    tally.stale_seat_moves += 1
            else:
                tally.undos += 1
            for k in [k for k in table.acked if k > n]:
                del table.acked[k]
            table.progress(n, acked=True)
        elif answer.status_code == 403 and answer.json().get("error") == "bot_seat":
            tally.bot_seat_refusals += 1


def cut_listen(pg_url: str, instance: str, seconds: float) -> int:
    """Terminate ``instance``'s LISTEN connection whenever it is there, for ``seconds``."""
    import psycopg

    cuts = 0
    until = time.monotonic() + seconds
    with psycopg.connect(pg_url, autocommit=True) as conn:
        while time.monotonic() < until:
            row = conn.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                               "WHERE application_name = %s",
                               (f"mayagames-listen {instance}"[:63],)).fetchone()
            cuts += int(row[0]) if row else 0
            time.sleep(0.05)
    return cuts


async def watch_zombies(store: Any, tally: Tally, since: float, times: dict[str, float],
                        stop: asyncio.Event) -> None:
    """Note, from the database, the seats the zombie bot took (and when)."""
    while not stop.is_set():
        for table in list(tally.tables):
            if not table.timed:
                continue
            try:
                meta = await asyncio.to_thread(store.load_meta, table.id)
            except Exception:  # the database is being restarted
                continue
            if meta is not None and meta.zombies:
                if table.id not in tally.zombies:
                    times[table.id] = time.monotonic() - since
                tally.zombies[table.id] = set(meta.zombies)
        await asyncio.sleep(0.3)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    private = load_private_postgres()
    reason = private.why_not_available()
    if reason:
        raise SystemExit(f"cannot start a private PostgreSQL: {reason}")
    folder = Path(tempfile.mkdtemp(prefix="mayagames-chaos-"))
    pg = private.PrivatePostgres()
    from mayagames.server.db import Database
    from mayagames.server.playerstore import PlayerStore

    schema = f"chaos_{uuid.uuid4().hex[:8]}"
    db = Database(pg.url, schema=schema)
    db.create_schema()
    store = PlayerStore(db)
    clock_file = folder / "clock.json"
    clock_file.write_text("{}")
    fleet = Fleet(f"{pg.url}?options={quote(f'-csearch_path={schema}')}", folder, clock_file,
                  args.bot_delay)
    tally = Tally()
    events: dict[str, Any] = {"db_down_s": None, "listen_cuts": 0}
    zombie_times: dict[str, float] = {}
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=50)
    try:
        async with httpx.AsyncClient(timeout=30, limits=limits) as http:
            bases = [fleet.spawn() for _ in range(3)]
            await asyncio.gather(*(fleet.wait_up(b, http) for b in bases))
            timed_count = max(1, args.tables // 4)
            clients = [asyncio.create_task(play(http, fleet, i < timed_count, tally, stop))
                       for i in range(args.tables)]
            unwatched = [await new_table(http, fleet, True, tally) for _ in range(2)]
            start = time.monotonic()
            jump_at: list[float] = []

            async def chaos() -> None:
                next_kill = start + 5.0
                db_at, cut_at = start + 0.40 * args.seconds, start + 0.55 * args.seconds
                while time.monotonic() < start + args.seconds:
                    now = time.monotonic()
                    if now >= next_kill and len(fleet.live) >= 2:
                        victim = random.choice(fleet.live)
                        fleet.kill(victim)
                        fresh = fleet.spawn()
                        asyncio.create_task(fleet.wait_up(fresh, http))
                        next_kill = now + args.kill_every
                    if db_at and now >= db_at:
                        db_at = 0.0
                        began = time.monotonic()
                        await asyncio.to_thread(pg.stop)
                        await asyncio.sleep(args.db_down)
                        await asyncio.to_thread(pg.start)
                        events["db_down_s"] = round(time.monotonic() - began, 1)
                    if cut_at and now >= cut_at and fleet.live:
                        cut_at = 0.0
                        target = await asyncio.to_thread(fleet.instance_id, fleet.live[0])
                        cutting = asyncio.to_thread(cut_listen, pg.url, target or "?", 4.0)
                        cutter = asyncio.create_task(cutting)
                        await asyncio.sleep(0.5)
                        clock_file.write_text(json.dumps({"*": 61.0}))  # every clock jumps
                        jump_at.append(time.monotonic())
                        events["listen_cuts"] = await cutter
                    await asyncio.sleep(0.1)

            watcher: asyncio.Task[None] | None = None

            async def start_watcher() -> None:
                nonlocal watcher
                while not jump_at and time.monotonic() < start + args.seconds:
                    await asyncio.sleep(0.1)
                if jump_at:
                    watcher = asyncio.create_task(watch_zombies(store, tally, jump_at[0],
                                                                zombie_times, stop))
            await asyncio.gather(chaos(), start_watcher())
            stop.set()
            await asyncio.gather(*clients, return_exceptions=True)
            if watcher is not None:
                await watcher
            await asyncio.sleep(args.settle)  # let the instances catch up
            report = await check(http, fleet, db, tally, unwatched, zombie_times, events)
    finally:
        fleet.close()
        try:
            db.drop_schema()
            db.dispose()
        finally:
            pg.close()
    report["logs"] = str(folder)
    return report


async def check(http: httpx.AsyncClient, fleet: Fleet, db: Any, tally: Tally,
                unwatched: list[Table], zombie_times: dict[str, float],
                events: dict[str, Any]) -> dict[str, Any]:
    lost = duplicated = unacked = broken = disagree = 0
    for table in tally.tables:
        with db.engine.connect() as conn:
            from sqlalchemy import select

            from mayagames.server.db import MoveRow
            rows = conn.execute(select(MoveRow.number, MoveRow.text)
                                .where(MoveRow.table_id == table.id)
                                .order_by(MoveRow.number)).all()
        numbers = [r[0] for r in rows]
        if numbers != list(range(1, len(numbers) + 1)):
            duplicated += 1
        stored = {r[0]: r[1] for r in rows}
        lost += sum(1 for n, text in table.acked.items() if stored.get(n) != text)
        unacked += sum(1 for n in stored if n not in table.acked)
        for base in list(fleet.live):
            try:
                answer = await http.get(f"{base}/api/tables/{table.id}")
            except httpx.HTTPError:
                continue
            if answer.status_code == 500:
                broken += 1
            elif answer.status_code == 200 and answer.json()["move_number"] != len(numbers):
                disagree += 1
    stalls = [t.longest_gap for t in tally.tables if t.longest_gap > STALL_SECONDS]
    fives = {k: v for k, v in sorted(tally.answers.items()) if k.startswith("5")}
    return {
        "instances_started": fleet.started, "kills": fleet.kills, **events,
        "tables": len(tally.tables), "acknowledged_moves": tally.moves,
        "acknowledged_undos": tally.undos, "lost_moves": lost,
        "tables_with_duplicated_or_missing_numbers": duplicated,
        "stored_without_acknowledgement": unacked,
        "stalls_over_10s": len(stalls),
        "longest_wait_s": round(max((t.longest_gap for t in tally.tables), default=0.0), 1),
        "zombie_seats": sum(len(s) for s in tally.zombies.values()),
        "stale_seat_moves": tally.stale_seat_moves,
        "bot_seat_refusals": tally.bot_seat_refusals,
        "unwatched_timed_out": sum(1 for t in unwatched if t.id in zombie_times),
        "unwatched_timeout_after_s": [round(zombie_times[t.id], 1) for t in unwatched
                                      if t.id in zombie_times],
        "answers": dict(sorted(tally.answers.items())), "answers_5xx": fives,
        "transport_errors": tally.transport_errors,
        "broken_table_answers_after": broken, "instances_disagreeing_after": disagree,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=90.0)
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--kill-every", type=float, default=10.0)
    parser.add_argument("--db-down", type=float, default=3.0)
    parser.add_argument("--bot-delay", type=float, default=2.0)
    parser.add_argument("--settle", type=float, default=8.0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    report = asyncio.run(run(args))
    for key, value in report.items():
        print(f"{key:44} {value}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()

"""Faults of a PostgreSQL deployment (issue 24), each with real ``mayagames serve``
processes on a PostgreSQL server of the test module's own (:mod:`private_postgres`: it
is stopped and started here, never the shared one):

* a database blip does not break a table: while PostgreSQL is down a table not in memory
  answers ``503`` with ``Retry-After`` (not ``500 broken_table``, remembered until a
  restart), and once it is back the same instance serves it and accepts its moves;
* while PostgreSQL restarts, reads of tables in memory and the lobby answer ``503`` with
  ``Retry-After`` (not ``500``) and recover by themselves;
* 30 simultaneous wrong passwords for one name through three instances: exactly the
  limit (5) is checked, the others are refused (429) before any password check;
* an instance that missed a seat's time-out (its LISTEN connection cut, as by a network
  blip) refuses a person's move for the seat the zombie bot took (``403 bot_seat``): the
  time-out raised the table's version, which the move's write compares;
* an expired clock of a table that no instance holds (its instance was killed) is timed
  out by another instance within seconds, without any request for the table.

Time is moved on through the launcher's test clock (``serve_test_games.py``,
``MAYAGAMES_TEST_CLOCK``), per instance or for all.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import threading
import time
import uuid
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterator
from urllib.parse import quote

import httpx
import pytest

HERE = Path(__file__).parent


def load(name: str) -> ModuleType:
    """A helper module of this folder, by path (the tests use importlib import mode)."""
    key = f"mayagames_faults_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, HERE / f"{name}.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


private = load("private_postgres")
inst = load("test_instances")
HTTP, create_table, state, move, race = inst.HTTP, inst.create_table, inst.state, inst.move, inst.race
CLOCK_ENV = "MAYAGAMES_TEST_CLOCK"
PASSWORD = "correct horse battery"

pytestmark = [pytest.mark.postgres,
              pytest.mark.skipif(private.why_not_available() is not None,
                                 reason=str(private.why_not_available()))]


@pytest.fixture(scope="module")
def pg() -> Iterator[Any]:
    server = private.PrivatePostgres()
    server.running = True
    try:
        yield server
    finally:
        server.close()


class Group:
    """Instances of ``serve`` on a fresh schema of the private PostgreSQL server."""

    def __init__(self, pg: Any, folder: Path, clock_file: Path) -> None:
        from mayagames.server.db import Database
        from mayagames.server.playerstore import PlayerStore

        self.pg, self.folder, self.clock_file = pg, folder, clock_file
        self.schema = f"faults_{uuid.uuid4().hex[:10]}"
        self.url = f"{pg.url}?options={quote(f'-csearch_path={self.schema}')}"
        self.db = Database(pg.url, schema=self.schema)
        self.db.create_schema()
        self.store = PlayerStore(self.db)
        self.instances: list[Any] = []

    def start(self, count: int, bot_delay: float = 0.0) -> list[Any]:
        started = [inst.Instance(self.url, self.folder / f"{self.schema}-{len(self.instances) + i}.log",
                                 bot_delay) for i in range(count)]
        self.instances += started
        for instance in started:
            instance.wait_up()
        return started

    def skew(self, seconds: dict[str, float]) -> None:
        """Move the instances' clocks on: ``{"*": s}`` for all, ``{str(port): s}`` for one."""
        self.clock_file.write_text(json.dumps(seconds))

    def stop_database(self) -> None:
        self.pg.running = False
        self.pg.stop()

    def start_database(self) -> None:
        self.pg.start()
        self.pg.running = True

    def close(self) -> None:
        for instance in self.instances:
            instance.stop()
        if not self.pg.running:
            self.start_database()
        self.db.drop_schema()
        self.db.dispose()


@pytest.fixture
def group(pg: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Group]:
    clock_file = tmp_path / "clock.json"
    clock_file.write_text("{}")
    monkeypatch.setenv(CLOCK_ENV, str(clock_file))
    made = Group(pg, tmp_path, clock_file)
    try:
        yield made
    finally:
        made.close()


def wait_for(check: Callable[[], Any], what: str, timeout: float = 30.0) -> Any:
    """Poll ``check`` until it returns something true; fail naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, f"not within {timeout:.0f} s: {what}"
        time.sleep(0.2)


def get(url: str) -> Any:
    return HTTP.get(url, timeout=20)


def unavailable(answer: Any) -> bool:
    return (answer.status_code == 503 and answer.json()["error"] == "database_unavailable"
            and int(answer.headers["Retry-After"]) > 0)


# --- the tests ------------------------------------------------------------------------
def test_a_database_blip_does_not_break_a_table(group):
    made, other = group.start(2)
    table = create_table(made, ["human", "human"], seed=3)
    seat = state(made, table)["current_player"]
    action = inst.legal_texts(state(made, table, seat))[0]
    group.stop_database()
    try:
        during = get(f"{other.url}/api/tables/{table['table']}")
        assert unavailable(during), during.text  # not 500 broken_table
        refused = move(other, table, seat, 0, action)
        assert unavailable(refused), refused.text
    finally:
        group.start_database()
    back = wait_for(lambda: (a := get(f"{other.url}/api/tables/{table['table']}"))
                    .status_code == 200 and a, "the table served again after the blip")
    assert back.json()["move_number"] == 0
    moved = move(other, table, seat, 0, action)
    assert moved.status_code == 200, moved.text
    assert state(made, table)["move_number"] == 1
    listed = get(f"{other.url}/api/tables")  # (a private table is listed to no one else)
    assert listed.status_code == 200 and "broken" not in {t["status"] for t in listed.json()["tables"]}


def test_reads_answer_503_while_postgres_restarts_and_recover(group):
    (server,) = group.start(1)
    table = create_table(server, ["human", "human"], seed=7)
    socket = inst.Socket(server, table["table"], None)  # a spectator, through the restart
    reads = [f"/api/tables/{table['table']}", "/api/tables", "/api/tables?open=true",
             f"/api/tables/{table['table']}/replay?step=0"]
    try:
        group.stop_database()
        try:
            for path in reads:
                answer = get(server.url + path)
                assert unavailable(answer), (path, answer.status_code, answer.text)
            assert get(f"{server.url}/api/health").status_code == 200
        finally:
            group.start_database()
        for path in reads:
            wait_for(lambda: get(server.url + path).status_code == 200, f"{path} served again")
        seat = state(server, table)["current_player"]
        action = inst.legal_texts(state(server, table, seat))[0]
        assert move(server, table, seat, 0, action).status_code == 200
        assert socket.until_move(1, timeout=20)["move_number"] == 1
    finally:
        socket.close()


def test_concurrent_wrong_passwords_are_checked_at_most_the_limit(group):
    instances = group.start(3)
    made = httpx.post(f"{instances[0].url}/api/accounts", timeout=30,
                      json={"name": "Ixchel", "password": PASSWORD})
    assert made.status_code == 201, made.text
    with httpx.Client(timeout=60) as client:  # no session cookie
        answers = race([lambda i=i: client.post(f"{instances[i % 3].url}/api/login",
                                                json={"name": "Ixchel",
                                                      "password": f"guess {i:04d}"})
                        for i in range(30)])
        codes = sorted(a.status_code for a in answers)
        assert codes == [401] * 5 + [429] * 25, codes  # the limit per name is 5
        assert all(int(a.headers["Retry-After"]) > 0 for a in answers if a.status_code == 429)
        locked = client.post(f"{instances[1].url}/api/login",
                             json={"name": "Ixchel", "password": PASSWORD})
        assert locked.status_code == 429  # the right password too, until the window passed


class ListenCutter:
    """Keeps cutting one instance's LISTEN connection (``pg_terminate_backend``), as a
    flaky network would: it misses the notifications sent meanwhile."""

    def __init__(self, group: Group, instance: Any) -> None:
        import psycopg

        self.conn = psycopg.connect(group.pg.url, autocommit=True)
        self.name = f"mayagames-listen {instance.id}"[:63]
        self.cuts = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while not self.stopping.is_set():
            cut = self.conn.execute("SELECT count(pg_terminate_backend(pid)) FROM "
                                    "pg_stat_activity WHERE application_name = %s",
                                    (self.name,)).fetchone()
            self.cuts += int(cut[0]) if cut else 0
            self.stopping.wait(0.02)

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=5)
        self.conn.close()


def test_an_instance_that_missed_a_time_out_refuses_the_zombies_seat(group):
    """Instance X holds a timed table but hears nothing (its LISTEN connection keeps being
    cut) while instance Y times the seat to move out: a person's move for that seat
    through X is refused (``403 bot_seat``, nothing stored), and X shows the zombie."""
    x, y = group.start(2, bot_delay=60.0)  # the zombie bot waits: its seat stays to move
    body = {"game": "toy", "players": 2, "seed": 5, "speed": "realtime:1+0", "zombie": "easy",
            "seats": [{"name": "P0", "agent": "human"}, {"name": "P1", "agent": "human"}]}
    made = HTTP.post(f"{y.url}/api/tables", json=body)
    assert made.status_code == 201, made.text
    table = made.json()
    table["tokens"] = {s["seat"]: s["token"] for s in table["seats"] if s["token"]}
    seen = state(x, table, 0)  # now in X's memory too
    state(y, table, 1)  # both players came: the clock runs (a private table's waits for them)
    seat = seen["current_player"]
    action = inst.legal_texts(state(x, table, seat))[0]
    cutter = ListenCutter(group, x)
    try:
        wait_for(lambda: cutter.cuts > 0, "X's LISTEN connection cut")
        group.skew({str(y.port): 61.0})  # Y's clock passes the deadline (X's does not)
        wait_for(lambda: seat in (group.store.load_meta(table["table"]).zombies),
                 "Y timed the seat out", timeout=20)
        refused = move(x, table, seat, 0, action)
        assert refused.status_code == 403 and refused.json()["error"] == "bot_seat", refused.text
        assert group.db.count_moves(table["table"]) == 0
    finally:
        cutter.stop()
    shown = wait_for(lambda: (s := state(x, table))["players"][seat]["zombie"] and s,
                     "X shows the zombie", timeout=20)
    assert shown["move_number"] == 0


def test_an_expired_clock_nobody_holds_is_timed_out(group):
    """The instance holding a timed table is killed; nobody opens the table: another
    instance times the seat out when the deadline passes (the zombie bot then moves)."""
    holder, other = group.start(2, bot_delay=0.2)
    body = {"game": "toy", "players": 2, "seed": 9, "speed": "realtime:1+0", "zombie": "easy",
            "seats": [{"name": "P0", "agent": "human"}, {"name": "P1", "agent": "human"}]}
    made = HTTP.post(f"{holder.url}/api/tables", json=body)
    assert made.status_code == 201, made.text
    table_id = made.json()["table"]
    for token in [s["token"] for s in made.json()["seats"] if s["token"]]:  # both came: the
        HTTP.get(f"{holder.url}/api/tables/{table_id}",  # clock runs (a private table's
                 headers={"Authorization": f"Bearer {token}"})  # waits for its players)
    seat = HTTP.get(f"{holder.url}/api/tables/{table_id}").json()["current_player"]
    holder.kill()
    group.skew({"*": 61.0})
    wait_for(lambda: seat in group.store.load_meta(table_id).zombies,
             "the seat timed out without a request", timeout=20)
    wait_for(lambda: group.db.count_moves(table_id) >= 1, "the zombie bot moved", timeout=20)
    assert group.db.move_numbers(table_id)[0] == 1

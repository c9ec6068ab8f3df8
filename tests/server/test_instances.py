"""Several real ``mayagames serve`` processes on one PostgreSQL database (issue 11).

Clients are spread over the instances: moves alternate between them, racing moves and
undos go through different instances (exactly one wins; the stored move numbers never
have a gap or a duplicate), WebSocket subscribers of one instance see the moves made
through another, a bot whose instance is killed (``kill -9``) is moved by another one,
and every acknowledged move survives a restart of all instances. Each cluster works in
a PostgreSQL schema of its own (``search_path`` in the URL), so parallel test workers
never meet. Also: a second server on one SQLite file is refused.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import quote

import httpx
import pytest
from websockets.sync.client import connect

needs_postgres = [pytest.mark.postgres,
                  pytest.mark.skipif(not os.environ.get("DATABASE_URL"),
                                     reason="DATABASE_URL is not set (no PostgreSQL)")]
BIN = Path(sys.executable).with_name("mayagames")
LEASE_SECONDS = 4.0  # service.LEASE_SECONDS
HTTP = httpx.Client(timeout=30)  # one client for every request (each new one costs ~0.1 s)


LAUNCHER = Path(__file__).with_name("serve_test_games.py")


def serve_command(port: int, url: str, bot_delay: float, test_games: bool = True,
                  extra: tuple[str, ...] = ()) -> list[str]:
    """The ``mayagames serve`` command line (with the test games registered: the same
    command through :mod:`serve_test_games`)."""
    if test_games:
        program = [sys.executable, str(LAUNCHER)]
    else:
        program = [str(BIN)] if BIN.exists() else [sys.executable, "-m", "mayagames.cli"]
    return [*program, "serve", "--port", str(port), "--database-url", url,
            "--bot-delay", str(bot_delay), "--bot-processes", "0", "--log-level", "warning",
            "--allow-fixed-seed", "--no-rate-limits", *extra]  # the tests fix seeds and race


class Instance:
    """One ``mayagames serve`` subprocess (its own process group, its log in a file)."""

    def __init__(self, url: str, log_path: Path, bot_delay: float, test_games: bool = True,
                 extra: tuple[str, ...] = ()) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        with open(log_path, "ab") as log:
            self.process = subprocess.Popen(serve_command(self.port, url, bot_delay, test_games,
                                                          extra),
                                            stdout=log, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        self.id = ""

    def wait_up(self, timeout: float = 150.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"instance exited: {self.log_path.read_text()[-2000:]}")
            try:
                self.id = HTTP.get(f"{self.url}/api/health", timeout=2).json()["instance"]
                return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"instance did not start: {self.log_path.read_text()[-2000:]}")

    def kill(self) -> None:
        """``kill -9`` the instance (and anything it started)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


class Cluster:
    """Instances on one fresh PostgreSQL schema."""

    def __init__(self, folder: Path, bot_delay: float = 0.0) -> None:
        from mayagames.server.db import Database

        self.schema = f"inst_{uuid.uuid4().hex[:12]}"
        base = os.environ["DATABASE_URL"]
        option = quote(f"-csearch_path={self.schema}")
        self.url = f"{base}{'&' if '?' in base else '?'}options={option}"
        self.db = Database(base, schema=self.schema)
        self.db.create_schema()
        self.folder, self.bot_delay = folder, bot_delay
        self.instances: list[Instance] = []

    def start(self, count: int) -> list[Instance]:
        started = [Instance(self.url, self.folder / f"{self.schema}-{len(self.instances) + i}.log",
                            self.bot_delay) for i in range(count)]
        self.instances += started
        for instance in started:
            instance.wait_up()
        return started

    def __getitem__(self, index: int) -> Instance:
        return self.instances[index]

    def __iter__(self) -> Iterator[Instance]:
        return iter(self.instances)

    def close(self) -> None:
        for instance in self.instances:
            instance.stop()
        self.db.drop_schema()
        self.db.dispose()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Three instances shared by the tests that neither kill nor restart them."""
    if not os.environ.get("DATABASE_URL"):
        pytest.skip("DATABASE_URL is not set (no PostgreSQL)")
    group = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        group.start(3)
        yield group
    finally:
        group.close()


@pytest.fixture
def own_cluster(tmp_path: Path) -> Iterator[Any]:
    """A cluster for one test, which starts (and kills) its instances itself."""
    made: list[Cluster] = []

    def make(bot_delay: float = 0.0) -> Cluster:
        made.append(Cluster(tmp_path, bot_delay))
        return made[-1]

    yield make
    for group in made:
        group.close()


# --- helpers ------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def create_table(instance: Instance, agents: list[str], seed: int,
                 game: str = "toy", client: httpx.Client = HTTP) -> dict[str, Any]:
    body = {"game": game, "players": len(agents), "seed": seed,
            "seats": [{"name": f"P{i}", "agent": a} for i, a in enumerate(agents)]}
    response = client.post(f"{instance.url}/api/tables", json=body, timeout=10)
    assert response.status_code == 201, response.text
    data = response.json()
    data["tokens"] = {s["seat"]: s["token"] for s in data["seats"] if s["token"]}
    return data


def state(instance: Instance, table: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    token = table["tokens"].get(seat) if seat is not None else None
    response = HTTP.get(f"{instance.url}/api/tables/{table['table']}", headers=bearer(token),
                         timeout=10)
    assert response.status_code == 200, response.text
    return response.json()


def move(instance: Instance, table: dict[str, Any], seat: int, number: int,
         action: str) -> httpx.Response:
    return HTTP.post(f"{instance.url}/api/tables/{table['table']}/moves", timeout=20,
                      headers=bearer(table["tokens"][seat]),
                      json={"move_number": number, "action": action})


def undo(instance: Instance, table: dict[str, Any], seat: int, number: int) -> httpx.Response:
    return HTTP.post(f"{instance.url}/api/tables/{table['table']}/undo", timeout=20,
                      headers=bearer(table["tokens"][seat]), json={"move_number": number})


def race(calls: list[Any]) -> list[httpx.Response]:
    """Run the calls at the same moment, one thread each; their answers in order."""
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        answers[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return answers


def legal_texts(message: dict[str, Any]) -> list[str]:
    return [a["text"] for a in message["legal"]]


def assert_consistent(group: Cluster, instances: list[Instance], table: dict[str, Any]) -> int:
    """Every instance shows the same game, and the stored move numbers are exactly 1..n."""
    views = [state(i, table) for i in instances]
    assert all(v == views[0] for v in views[1:])
    count = views[0]["move_number"]
    assert group.db.move_numbers(table["table"]) == list(range(1, count + 1))
    return count


class Socket:
    """A WebSocket client of one instance, seeing as ``token``'s seat."""

    def __init__(self, instance: Instance, table: str, token: str | None) -> None:
        self.ws = connect(f"ws://127.0.0.1:{instance.port}/ws/tables/{table}",
                          open_timeout=10).__enter__()
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.state = self.next_state()

    def next_state(self, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = json.loads(self.ws.recv(timeout=max(0.01, deadline - time.monotonic())))
            if message["type"] == "state":
                self.state = message
                return message

    def until_move(self, number: int, timeout: float = 10.0) -> dict[str, Any]:
        while self.state["move_number"] != number:
            self.next_state(timeout)
        return self.state

    def close(self) -> None:
        self.ws.close()


def on_postgres(test: Any) -> Any:
    for mark in needs_postgres:
        test = mark(test)
    return test


# --- the tests ------------------------------------------------------------------------
@on_postgres
def test_alternating_moves_lobby_replay_and_record_across_instances(cluster):
    """Each move goes through the next instance, each read through yet another one (which
    must already show the move); at the end all agree on the log, the lobby, replays and
    the record."""
    owner = httpx.Client(timeout=30)  # an account: the lobby lists its private table to it
    made = owner.post(f"{cluster[0].url}/api/accounts",
                      json={"name": "Owner", "password": "correct horse battery"})
    assert made.status_code == 201, made.text
    table = create_table(cluster[0], ["human", "human"], seed=5, client=owner)
    number, k = 0, 0
    while True:
        reader = cluster[(k + 1) % 3]
        seen = state(reader, table, 0)
        assert seen["move_number"] == number  # the previous move, made through another instance
        if seen["terminal"]:
            break
        seat = seen["current_player"]
        mine = state(reader, table, seat)
        answer = move(cluster[k % 3], table, seat, number, legal_texts(mine)[-1])
        assert answer.status_code == 200, answer.text
        number, k = answer.json()["move_number"], k + 1
    assert number >= 6
    group_db_numbers = [state(i, table)["log"] for i in cluster]
    assert all(log == group_db_numbers[0] for log in group_db_numbers)
    assert [e["n"] for e in group_db_numbers[0]] == list(range(1, number + 1))
    for instance in cluster:
        listed = owner.get(f"{instance.url}/api/tables?status=finished&limit=500").json()["tables"]
        assert [(t["move_count"], t["status"]) for t in listed
                if t["table"] == table["table"]] == [(number, "finished")]
        frame = HTTP.get(f"{instance.url}/api/tables/{table['table']}/replay",
                          params={"step": number // 2, "perspective": "all"}).json()
        assert frame["step"] == number // 2 and frame["total"] == number
    frames = [HTTP.get(f"{i.url}/api/tables/{table['table']}/replay",
                        params={"step": 3, "perspective": "all"}).json() for i in cluster]
    records = [HTTP.get(f"{i.url}/api/tables/{table['table']}/record").json() for i in cluster]
    assert all(f == frames[0] for f in frames) and all(r == records[0] for r in records)
    assert len(records[0]["moves"]) == number


@on_postgres
def test_racing_moves_through_different_instances_exactly_one_wins(cluster):
    """Six requests for the same turn, two per instance: one is stored, five are stale."""
    table = create_table(cluster[1], ["human", "human"], seed=11)
    for round_ in range(6):
        seen = state(cluster[round_ % 3], table)
        seat, number = seen["current_player"], seen["move_number"]
        texts = legal_texts(state(cluster[0], table, seat))
        answers = race([lambda i=i: move(cluster[i % 3], table, seat, number,
                                         texts[i % len(texts)]) for i in range(6)])
        codes = sorted(a.status_code for a in answers)
        assert codes == [200] + [409] * 5, [a.text for a in answers]
        winner = next(a for a in answers if a.status_code == 200).json()
        losers = {"stale", "game_over"} if winner["terminal"] else {"stale"}  # the last move
        assert all(a.json()["error"] in losers for a in answers if a.status_code == 409)
        assert winner["move_number"] == number + 1
        for instance in cluster:
            assert state(instance, table)["move_number"] == number + 1
        assert cluster.db.move_numbers(table["table"]) == list(range(1, number + 2))
        if winner["terminal"]:
            break


@on_postgres
def test_racing_undos_and_moves_through_different_instances(cluster):
    """After an undoable step (tally: ``add 1``), an undo through one instance races an undo
    and a move through the others: exactly one of the three is stored, and no move number
    is ever missing or doubled."""
    table = create_table(cluster[2], ["human"] * 3, seed=21, game="tally")
    winners = []
    for round_ in range(4):
        seen = state(cluster[round_ % 3], table)
        seat, number = seen["current_player"], seen["move_number"]
        assert move(cluster[round_ % 3], table, seat, number, "add 1").status_code == 200
        number += 1
        answers = race([lambda: undo(cluster[0], table, seat, number),
                        lambda: undo(cluster[1], table, seat, number),
                        lambda: move(cluster[2], table, seat, number, "end")])
        ok = [i for i, a in enumerate(answers) if a.status_code == 200]
        assert len(ok) == 1, [a.text for a in answers]
        assert all(a.status_code == 409 and a.json()["error"] == "stale"
                   for a in answers if a.status_code != 200), [a.text for a in answers]
        winners.append("move" if ok == [2] else "undo")
        expected = number + 1 if ok == [2] else number - 1
        views = [state(i, table) for i in cluster]
        assert [v["move_number"] for v in views] == [expected] * 3
        assert all(v == views[0] for v in views)
        assert cluster.db.move_numbers(table["table"]) == list(range(1, expected + 1))
    assert len(winners) == 4  # which one wins each time is up to the race


@on_postgres
def test_websocket_subscribers_of_other_instances_see_moves_and_undos(cluster):
    table = create_table(cluster[0], ["human", "human"], seed=31, game="tally")
    seat0 = Socket(cluster[0], table["table"], table["tokens"][0])
    seat1 = Socket(cluster[1], table["table"], table["tokens"][1])
    spectator = Socket(cluster[2], table["table"], None)
    try:
        assert move(cluster[2], table, 0, 0, "add 1").status_code == 200
        for client in (seat0, seat1, spectator):
            update = client.until_move(1)
            assert update["log"][-1] == {**update["log"][-1], "n": 1, "seat": 0, "text": "add 1"}
        assert seat0.state["legal"] and not seat1.state["legal"] and seat0.state["can_undo"]
        assert move(cluster[1], table, 0, 1, "add 2").status_code == 200
        for client in (seat0, seat1, spectator):
            assert client.until_move(2)["view"]["totals"] == [3, 0]
        assert undo(cluster[2], table, 0, 2).status_code == 200  # through a third instance
        for client in (seat0, seat1, spectator):
            back = client.until_move(1)
            assert back["view"]["totals"] == [1, 0] and len(back["log"]) + back["log_from"] == 1
        seat0.ws.send(json.dumps({"type": "move", "move_number": 1, "action": "end",
                                  "rid": "e"}))
        assert seat0.until_move(2).get("ack") == "e"
        assert seat1.until_move(2)["legal"] and spectator.until_move(2)["current_player"] == 1
    finally:
        for client in (seat0, seat1, spectator):
            client.close()


@on_postgres
def test_secrets_stay_secret_when_a_move_crosses_instances(cluster):
    """A secret swap made through one instance reaches the other instances' subscribers
    as each of them may read it (``swap ?`` for the others) and with their own view."""
    table = create_table(cluster[0], ["human", "human"], seed=71, game="toysecret")
    seat1 = Socket(cluster[1], table["table"], table["tokens"][1])
    spectator = Socket(cluster[2], table["table"], None)
    try:
        mine = state(cluster[0], table, 0)
        swap = next(t for t in legal_texts(mine) if t.startswith("swap"))
        assert move(cluster[0], table, 0, 0, swap).status_code == 200
        for client in (seat1, spectator):
            update = client.until_move(1)
            assert update["log"][-1]["text"] == "swap ?"
            assert update["view"]["hands"][0] == [0, 0]  # seat 0's cards stay hidden
            assert swap not in json.dumps(update["log"])
        assert state(cluster[1], table, 0)["log"][-1]["text"] == swap  # its own seat reads it
    finally:
        seat1.close()
        spectator.close()


def lease_owner(group: Cluster, table_id: str) -> str | None:
    leases = group.db.bot_leases()
    return leases[table_id][0] if table_id in leases else None


@on_postgres
def test_bot_of_a_killed_instance_moves_from_another(own_cluster):
    """kill -9 the instance that holds a bot's lease while the bot waits to move: the lease
    expires and the other instance moves the bot."""
    group = own_cluster(bot_delay=3.0)
    first, second = group.start(2)
    table = create_table(first, ["human", "random"], seed=41)
    texts = legal_texts(state(first, table, 0))
    play = next(t for t in texts if t.startswith("play"))  # a play ends the turn
    assert move(first, table, 0, 0, play).status_code == 200
    deadline = time.monotonic() + 10
    while (owner := lease_owner(group, table["table"])) is None:
        assert time.monotonic() < deadline, "no instance took the bot's lease"
        time.sleep(0.05)
    holder, other = (first, second) if owner == first.id else (second, first)
    assert owner == holder.id
    holder.kill()
    killed_at = time.monotonic()
    assert group.db.count_moves(table["table"]) == 1  # killed before its bot moved
    other_state = state(other, table)
    deadline = time.monotonic() + 20
    while other_state["move_number"] < 2:
        assert time.monotonic() < deadline, "the bot never moved after its instance died"
        time.sleep(0.1)
        other_state = state(other, table)
    took = time.monotonic() - killed_at
    print(f"the bot moved {took:.1f} s after its instance was killed (bot delay 3 s)")
    assert other_state["log"][1]["seat"] == 1
    assert lease_owner(group, table["table"]) in (other.id, None)
    assert took < LEASE_SECONDS + 3.0 + 8.0  # lease expiry + bot delay + slack for a busy machine
    assert group.db.move_numbers(table["table"]) == [1, 2]


@on_postgres
def test_restart_of_every_instance_keeps_every_acknowledged_move(own_cluster):
    group = own_cluster()
    instances = group.start(2)
    tables = [create_table(instances[i], ["human", "human"], seed=50 + i) for i in range(2)]
    acknowledged: dict[str, list[str]] = {t["table"]: [] for t in tables}
    for k in range(16):
        table = tables[k % 2]
        seen = state(instances[k % 2], table)
        if seen["terminal"]:
            continue
        seat, number = seen["current_player"], seen["move_number"]
        texts = legal_texts(state(instances[k % 2], table, seat))
        answers = race([lambda: move(instances[0], table, seat, number, texts[0]),
                        lambda: move(instances[1], table, seat, number, texts[-1])])
        won = [a for a in answers if a.status_code == 200]
        assert len(won) == 1, [a.text for a in answers]
        acknowledged[table["table"]].append(won[0].json()["log"][-1]["text"])
    for instance in instances:
        instance.kill()
    restarted = group.start(2)
    for table in tables:
        for instance in restarted:
            seen = state(instance, table, 0)
            assert [e["text"] for e in seen["log"]] == acknowledged[table["table"]]
        assert_consistent(group, restarted, table)


def test_second_server_on_one_sqlite_file_is_refused(tmp_path):
    url = f"sqlite:///{tmp_path / 'one.db'}"
    first = Instance(url, tmp_path / "first.log", 0.0)
    try:
        first.wait_up()
        second = subprocess.run(serve_command(free_port(), url, 0.0, test_games=False),
                                capture_output=True,
                                text=True, timeout=150)
        assert second.returncode == 1
        assert "already serving the SQLite database" in second.stderr
        assert "PostgreSQL" in second.stderr
        assert HTTP.get(f"{first.url}/api/health").status_code == 200
    finally:
        first.stop()
    again = Instance(url, tmp_path / "again.log", 0.0)  # the lock ends with its server
    try:
        again.wait_up()
    finally:
        again.stop()


@on_postgres
def test_serve_with_workers_runs_several_instances_on_one_port(own_cluster, tmp_path):
    """``serve --workers 2``: two instances behind one port (the kernel spreads the
    connections); a game played over fresh connections stays whole."""
    group = own_cluster()
    server = Instance(group.url, tmp_path / "workers.log", 0.0, test_games=False,
                      extra=("--workers", "2"))
    group.instances.append(server)
    server.wait_up()
    seen: set[str] = set()
    deadline = time.monotonic() + 90  # the second worker may still be starting
    while len(seen) < 2 and time.monotonic() < deadline:
        with httpx.Client(timeout=30) as fresh:  # a new connection: any worker may take it
            seen.add(fresh.get(f"{server.url}/api/health").json()["instance"])
        time.sleep(0.05)
    assert len(seen) == 2
    table = create_table(server, ["human", "human"], seed=61)
    while True:
        with httpx.Client(timeout=30) as fresh:
            now = fresh.get(f"{server.url}/api/tables/{table['table']}").json()
            if now["terminal"]:
                break
            seat = now["current_player"]
            mine = fresh.get(f"{server.url}/api/tables/{table['table']}",
                             headers=bearer(table["tokens"][seat])).json()
        with httpx.Client(timeout=30) as fresh:
            answer = fresh.post(f"{server.url}/api/tables/{table['table']}/moves",
                                headers=bearer(table["tokens"][seat]),
                                json={"move_number": now["move_number"],
                                      "action": legal_texts(mine)[0]})
            assert answer.status_code == 200, answer.text
    count = state(server, table)["move_number"]
    assert count >= 4 and group.db.move_numbers(table["table"]) == list(range(1, count + 1))


def test_workers_need_postgres(tmp_path):
    refused = subprocess.run([*serve_command(free_port(), f"sqlite:///{tmp_path / 'w.db'}", 0.0,
                                             test_games=False), "--workers", "2"],
                             capture_output=True, text=True, timeout=150)
    assert refused.returncode == 1 and "--workers needs PostgreSQL" in refused.stderr

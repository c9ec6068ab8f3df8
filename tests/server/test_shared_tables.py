"""Two instances (live servers in one process) on one PostgreSQL schema: what changes a
table besides its moves (a seat joined, a clock running out and the zombie bot taking
over, a re-issued link) reaches the sockets of the other instance at once, and a seat
timed out by both instances' clock keepers is timed out once."""

from __future__ import annotations

import os
import uuid

import httpx
import pytest

from mayagames.server import create_app
from mayagames.server.db import Database
from mayagames.server.limits import ServerLimits

pytestmark = [pytest.mark.postgres,
              pytest.mark.skipif(not os.environ.get("DATABASE_URL"),
                                 reason="DATABASE_URL is not set (no PostgreSQL)")]


@pytest.fixture
def two_instances(support, fake_clock):
    schema = f"test_{uuid.uuid4().hex[:12]}"

    def app():
        return create_app(db=Database(os.environ["DATABASE_URL"], schema=schema),
                          list_test_games=True, time_source=fake_clock,
                          fast_password_hashes=True, clock_tick=0.02,
                          limits=ServerLimits(allow_fixed_seed=True).without_rate_limits())

    try:
        with support.LiveServer(app()) as a, support.LiveServer(app()) as b:
            yield a, b
    finally:
        cleanup = Database(os.environ["DATABASE_URL"], schema=schema)
        cleanup.drop_schema()
        cleanup.dispose()


def account(server, name: str, password: str) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=10)
    made = client.post("/api/accounts", json={"name": name, "password": password})
    assert made.status_code == 201, made.text
    return client


def test_seats_clocks_and_zombies_reach_the_other_instance(two_instances, support, fake_clock):
    a, b = two_instances
    ana, ben = account(a, "Ana", support.PASSWORD), account(a, "Ben", support.PASSWORD)
    table = ana.post("/api/tables", json={"game": "toy", "players": 2, "seed": 3, "public": True,
                                          "speed": "realtime:1+0", "zombie": "easy"}).json()["table"]
    watcher = support.WsClient(b, table)  # a spectator on the other instance
    assert watcher.state["lobby"]["waiting"] and watcher.state["clock"]["running"] is None
    assert ben.post(f"/api/tables/{table}/join", json={"seat": 1}).status_code == 200
    joined = watcher.until(lambda m: m["type"] == "state" and not m["lobby"]["waiting"])
    assert joined["players"][1]["account"] == "Ben" and joined["seats"][1]["name"] == "Ben"
    seat = joined["current_player"]
    running = watcher.until(lambda m: m["type"] == "state" and m["clock"]["running"] == seat)
    assert running["clock"]["deadline"] == pytest.approx(fake_clock.now + 60)

    # a move through instance a charges the mover's clock: b's sockets see it (and the
    # other seat's clock start) without a reload
    mover = {0: ana, 1: ben}[seat]
    fake_clock.advance(10)
    moved = mover.post(f"/api/tables/{table}/moves", json={"move_number": joined["move_number"],
                                                          "action_id": 0})
    assert moved.status_code == 200, moved.text
    charged = watcher.until(lambda m: m["type"] == "state" and m["clock"]["running"] == 1 - seat)
    assert charged["current_player"] == 1 - seat and charged["move_number"] == 1
    assert charged["clock"]["left"] == pytest.approx([50, 60] if seat == 0 else [60, 50])
    seat = 1 - seat

    fake_clock.advance(61)  # both instances' keepers see the deadline pass
    zombie = watcher.until(lambda m: m["type"] == "state" and m["players"][seat]["zombie"])
    assert zombie["players"][1 - seat]["zombie"] is False
    lines = httpx.get(f"{b.url}/api/tables/{table}/chat").json()["chat"]
    assert [line["text"] for line in lines if line["system"]] == [
        f"{joined['seats'][seat]['name']} ran out of time: the easy bot plays seat {seat + 1} "
        "from now on."]  # once, though two instances watched the clock
    for server in (a, b):
        state = httpx.get(f"{server.url}/api/tables/{table}").json()
        assert state["players"][seat]["zombie"]
    watcher.close()


def test_a_reissued_link_works_on_the_other_instance_at_once(two_instances, support):
    a, b = two_instances
    ana = account(a, "Ana", support.PASSWORD)
    created = ana.post("/api/tables", json={"game": "toy", "players": 2, "seed": 3}).json()
    table, old = created["table"], created["seats"][1]["token"]
    holder = support.WsClient(b, table, old)  # the old link's holder, on the other instance
    assert holder.state["seat"] == 1
    fresh = ana.post(f"/api/tables/{table}/seats/1/invite").json()["token"]
    import websockets

    with pytest.raises(websockets.exceptions.ConnectionClosed):  # sent away
        holder.until(lambda m: False, timeout=10)
    assert httpx.get(f"{b.url}/api/tables/{table}",
                     headers=support.bearer(old)).status_code == 401
    assert httpx.get(f"{b.url}/api/tables/{table}",
                     headers=support.bearer(fresh)).json()["seat"] == 1

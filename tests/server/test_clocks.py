"""Speeds and clocks with a fake time source: real-time (minutes + increment per turn),
turn-based (hours per turn), the zombie bot taking over a seat whose time ran out,
clocks that survive a restart, and bad speeds refused."""

from __future__ import annotations

import time

import pytest

from mayagames.server.clocks import after_move, new_clock, parse_speed, run_for
from mayagames.server.rooms import ServerError


def timed_table(client, speed, agents=("human", "human"), zombie="easy"):
    """A tally table (turns of several decisions) created by a guest: tokens for every seat."""
    body = {"game": "tally", "players": len(agents), "seed": 1, "speed": speed, "zombie": zombie,
            "seats": [{"agent": a} for a in agents]}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    tokens = {s["seat"]: s["token"] for s in data["seats"] if s["token"]}
    for seat, token in tokens.items():  # each invited player opens the table: the clock starts
        client.get(f"/api/tables/{data['table']}", headers={"Authorization": f"Bearer {token}"})
    return data["table"], tokens


def play(client, table, token, text):
    number = client.get(f"/api/tables/{table}").json()["move_number"]
    response = client.post(f"/api/tables/{table}/moves", json={"move_number": number, "action": text},
                           headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text
    return response.json()


def wait_for(client, table, predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        data = client.get(f"/api/tables/{table}").json()
        if predicate(data):
            return data
        time.sleep(0.03)
    raise AssertionError(f"not reached: {data['clock']} {data['players']} move {data['move_number']}")


@pytest.mark.parametrize("text, kind, seconds", [
    (None, "untimed", 0), ("untimed", "untimed", 0), ("realtime:5+10", "realtime", 300),
    ("turn:24h", "turn", 86400), ("turn:3d", "turn", 3 * 86400)])
def test_speeds(text, kind, seconds):
    speed = parse_speed(text)
    assert speed.kind == kind
    assert (speed.initial or speed.per_turn) == seconds


@pytest.mark.parametrize("text", ["fast", "realtime:0+5", "realtime:5", "turn:0h", "turn:15d",
                                  "realtime:200+0", "turn:24"])
def test_bad_speeds_are_refused(pclient, text):
    with pytest.raises(ServerError):
        parse_speed(text)
    response = pclient.post("/api/tables", json={"game": "tally", "players": 2, "speed": text})
    assert response.status_code == 422 and response.json()["error"] == "bad_speed"
    assert pclient.get("/api/tables").json()["tables"] == []


def test_clock_arithmetic_by_hand():
    speed = parse_speed("realtime:1+5")
    clock = new_clock(speed, 2)
    run_for(clock, speed, 0, 100.0)
    assert clock["deadline"] == 160.0
    after_move(clock, speed, 0, 0, {0, 1}, 110.0)  # a decision within the turn
    assert clock["remaining"][0] == 50.0 and clock["deadline"] == 160.0
    after_move(clock, speed, 0, 1, {0, 1}, 120.0)  # the turn passes: +5 s
    assert clock["remaining"] == [45.0, 60.0] and clock["running"] == 1 and clock["deadline"] == 180.0
    after_move(clock, speed, 1, 0, {0}, 130.0)  # seat 1 is a bot now: its clock is not charged...
    assert clock["running"] == 0 and clock["deadline"] == 175.0
    after_move(clock, speed, 0, 1, {0}, 131.0)  # ...and does not run
    assert clock["running"] is None and clock["deadline"] is None


def test_realtime_timeout_hands_the_seat_to_a_bot(pclient, fake_clock):
    table, tokens = timed_table(pclient, "realtime:1+5")
    fake_clock.advance(10)
    play(pclient, table, tokens[0], "add 1")
    fake_clock.advance(10)
    data = play(pclient, table, tokens[0], "end")
    assert data["clock"]["left"] == [45.0, 60.0] and data["clock"]["running"] == 1
    fake_clock.advance(59)
    assert pclient.app.state.players.deadlines[table] > fake_clock()
    time.sleep(0.1)  # the keeper ticks: nothing is late yet
    assert pclient.get(f"/api/tables/{table}").json()["players"][1]["zombie"] is False
    fake_clock.advance(2)
    data = wait_for(pclient, table, lambda d: d["players"][1]["zombie"] and d["current_player"] == 0)
    assert data["move_number"] >= 4  # the bot played seat 1's turn (at least one step and end)
    assert data["clock"]["running"] == 0 and data["clock"]["left"][1] == 0.0
    chat = pclient.get(f"/api/tables/{table}/chat",  # a private table's chat: its seats'
                       headers={"Authorization": f"Bearer {tokens[0]}"}).json()["chat"]
    assert chat[-1]["system"] and "ran out of time" in chat[-1]["text"] and "easy bot" in chat[-1]["text"]
    refused = pclient.post(f"/api/tables/{table}/moves", json={"move_number": data["move_number"],
                           "action": "add 1"}, headers={"Authorization": f"Bearer {tokens[1]}"})
    assert refused.status_code == 403  # the zombie's seat is the bot's now


def test_a_private_clock_starts_when_every_seat_is_taken(pclient, fake_clock):
    """Issue 23.7: the friend opens the link 5 minutes later; no time of anyone's is gone."""
    body = {"game": "tally", "players": 3, "seed": 1, "speed": "realtime:10+0",
            "seats": [{"agent": "human"}, {"agent": "human"}, {"agent": "human"}]}
    data = pclient.post("/api/tables", json=body).json()
    table, tokens = data["table"], {s["seat"]: s["token"] for s in data["seats"]}
    opened = pclient.get(f"/api/tables/{table}", headers={"Authorization": f"Bearer {tokens[0]}"})
    clock = opened.json()["clock"]
    assert clock["running"] is None and clock["waiting"] == [1, 2]
    fake_clock.advance(300)
    clock = pclient.get(f"/api/tables/{table}",
                        headers={"Authorization": f"Bearer {tokens[1]}"}).json()["clock"]
    assert clock["running"] is None and clock["waiting"] == [2] and clock["left"] == [600.0] * 3
    fake_clock.advance(300)
    assert pclient.app.state.players.deadlines.get(table) is None
    clock = pclient.get(f"/api/tables/{table}",
                        headers={"Authorization": f"Bearer {tokens[2]}"}).json()["clock"]
    assert clock["running"] == 0 and clock["waiting"] == [] and clock["left"] == [600.0] * 3
    fake_clock.advance(20)
    assert pclient.get(f"/api/tables/{table}").json()["clock"]["left"][0] == 580.0


def test_turn_based_deadline_is_per_turn(pclient, fake_clock):
    table, tokens = timed_table(pclient, "turn:24h")
    fake_clock.advance(23 * 3600)
    play(pclient, table, tokens[0], "add 2")  # within the turn: the deadline stays
    data = pclient.get(f"/api/tables/{table}").json()
    assert data["clock"]["left"][0] == pytest.approx(3600, abs=1)
    fake_clock.advance(3601)
    data = wait_for(pclient, table, lambda d: d["players"][0]["zombie"] and d["current_player"] == 1)
    assert data["clock"]["running"] == 1 and data["clock"]["left"][1] == pytest.approx(86400, abs=1)


def test_no_clock_runs_for_a_bot(pclient, fake_clock):
    table, tokens = timed_table(pclient, "realtime:1+0", agents=("human", "random"))
    play(pclient, table, tokens[0], "add 1")
    play(pclient, table, tokens[0], "end")
    data = wait_for(pclient, table, lambda d: d["current_player"] == 0)
    assert data["clock"]["running"] == 0 and data["players"][1]["zombie"] is False


def test_clocks_resume_after_a_restart(players_app, fake_clock):
    from fastapi.testclient import TestClient

    with TestClient(players_app()) as client:
        table, tokens = timed_table(client, "realtime:1+0")
        fake_clock.advance(10)
        play(client, table, tokens[0], "add 1")
        play(client, table, tokens[0], "end")
        assert client.get(f"/api/tables/{table}").json()["clock"]["left"] == [50.0, 60.0]
    fake_clock.advance(30)  # the server is down for 30 s: seat 1's clock ran on
    with TestClient(players_app()) as client:
        data = client.get(f"/api/tables/{table}").json()
        assert data["clock"]["running"] == 1 and data["clock"]["left"] == [50.0, 30.0]
        fake_clock.advance(31)
        data = wait_for(client, table, lambda d: d["players"][1]["zombie"] and d["current_player"] == 0)
        assert data["clock"]["running"] == 0
    fake_clock.advance(3600)  # expired while down: timed out at start-up
    with TestClient(players_app()) as client:
        data = wait_for(client, table, lambda d: d["players"][0]["zombie"])
        assert data["players"][1]["zombie"]


def test_an_expired_clock_times_out_without_any_request(players_app, fake_clock):
    """A table nobody opens (not in memory: no bot seat, no request since the restart):
    its stored deadline passes and the clock keeper times the seat out all the same."""
    from fastapi.testclient import TestClient

    with TestClient(players_app()) as client:
        table, _ = timed_table(client, "realtime:1+0")
    fake_clock.advance(61)
    with TestClient(players_app()) as client:
        store = client.app.state.players.store
        deadline = time.monotonic() + 10
        while not store.load_meta(table).zombies:
            assert time.monotonic() < deadline, "the seat was not timed out"
            time.sleep(0.03)
        assert store.load_meta(table).zombies == [0]


def test_a_clocked_table_reuses_its_state_messages(pclient, fake_clock):
    """The state message of a timed table is built once per position and seat (as on an
    untimed one); only the clock is computed for each message."""
    table, tokens = timed_table(pclient, "realtime:1+5")
    room = pclient.app.state.service.rooms[table]
    first = room.message(0)
    fake_clock.advance(7)
    second = room.message(0)
    assert second["view"] is first["view"] and second["log"] is first["log"]  # reused
    assert second["clock"]["server_time"] == first["clock"]["server_time"] + 7  # fresh
    assert second["clock"]["left"][0] == pytest.approx(first["clock"]["left"][0] - 7)
    play(pclient, table, tokens[0], "add 1")
    moved = room.message(0)
    assert moved["move_number"] == 1 and moved["view"] is not first["view"]
    zombie_before = moved["players"]
    fake_clock.advance(120)
    wait_for(pclient, table, lambda d: d["players"][0]["zombie"])
    assert room.message(0)["players"] is not zombie_before  # new header parts: built again
    assert room.message(0)["players"][0]["zombie"] and room.message(0)["legal"] == []

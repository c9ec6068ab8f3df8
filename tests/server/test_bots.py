"""Bot seats move server-side in a worker thread; the server keeps answering meanwhile."""

from __future__ import annotations

import time

from mayagames.core import GameRecord, verify


def wait_until(predicate, timeout=20.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_bots_play_a_whole_game(client, support):
    data = support.create_table(client, players=3, agents=["random"] * 3, seed=12)
    assert data["tokens"] == {}
    wait_until(lambda: client.get(f"/api/tables/{data['table']}").json()["terminal"])
    final = client.get(f"/api/tables/{data['table']}").json()
    record = GameRecord.from_dict(client.get(f"/api/tables/{data['table']}/record").json())
    assert verify(record).scores() == final["scores"]
    assert [s.agent for s in record.seats] == ["random"] * 3


def test_server_answers_while_a_bot_thinks(client, support):
    data = support.create_table(client, agents=["slow:3", "human"], seed=1)
    table = data["table"]
    health = client.get("/api/health")
    state = client.get(f"/api/tables/{table}").json()
    other = support.create_table(client, seed=2)  # other tables work meanwhile
    assert health.status_code == 200 and other["table"]
    assert state["move_number"] == 0 and state["current_player"] == 0  # still thinking
    wait_until(lambda: client.get(f"/api/tables/{table}").json()["move_number"] >= 1)


def test_failing_bot_falls_back_to_a_legal_move(client, support):
    data = support.create_table(client, agents=["human", "broken"], seed=3)
    token = data["tokens"][0]
    client.post(f"/api/tables/{data['table']}/moves", headers=support.bearer(token),
                json={"move_number": 0, "action_id": 0})
    wait_until(lambda: client.get(f"/api/tables/{data['table']}").json()["current_player"] == 0)
    log = client.get(f"/api/tables/{data['table']}").json()["log"]
    assert log[1]["seat"] == 1


def test_bot_seats_cannot_be_taken_by_people(client, support):
    data = support.create_table(client, agents=["slow:5", "human"], seed=1)
    response = client.post(f"/api/tables/{data['table']}/moves", headers=support.bearer(data["tokens"][1]),
                           json={"move_number": 0, "action_id": 0})
    assert response.status_code == 403 and response.json()["error"] == "not_your_turn"


"""WebSocket protocol on a live uvicorn server: hello/resync, moves and acks, fan-out,
bad messages, hot-seat, and races for the same turn (exactly one move applies)."""

from __future__ import annotations

import json
import threading

import httpx
import pytest


@pytest.fixture
def table(live, support):
    with httpx.Client(base_url=live.url) as http:
        return support.create_table(http, seed=9)


def test_hello_gives_full_state_per_seat(live, support, table):
    seat0 = support.WsClient(live, table["table"], table["tokens"][0])
    spectator = support.WsClient(live, table["table"], None)
    assert seat0.state["seat"] == 0 and seat0.state["log_from"] == 0
    assert seat0.state["legal"] and seat0.state["view"]["hands"][1] == [0, 0]
    assert spectator.state["seat"] is None and spectator.state["legal"] == []
    assert spectator.state["view"]["hands"] == [[0, 0], [0, 0]]


def test_move_is_acknowledged_and_fanned_out(live, support, table):
    seat0 = support.WsClient(live, table["table"], table["tokens"][0])
    seat1 = support.WsClient(live, table["table"], table["tokens"][1])
    spectator = support.WsClient(live, table["table"])
    played = seat0.state["legal"][0]["text"]
    seat0.move(0, rid="m1")
    ack = seat0.until(lambda m: m["type"] == "state")
    assert ack["ack"] == "m1" and ack["move_number"] == 1
    for other in (seat1, spectator):
        update = other.until(lambda m: m["type"] == "state")
        assert "ack" not in update and update["move_number"] == 1
        assert update["log_from"] == 0 and [(e["n"], e["seat"], e["text"], e["turn"])
                                             for e in update["log"]] == [(1, 0, played, 1)]
        assert update["log"][0]["sentence"]
    assert seat1.state["legal"] and seat1.state["seat"] == 1
    assert seat1.state["view"]["hands"][0] == [0, 0]  # seat 0's new card stays hidden


def test_bad_messages_get_errors_and_keep_the_connection(live, support, table):
    c = support.WsClient(live, table["table"], hello=False)
    c.ws.send("{oops")
    assert c.recv()["error"] == "bad_json"
    c.send(type="dance")
    assert c.recv()["error"] == "bad_request"
    c.send(type="move", move_number=0, action_id=0)
    assert c.recv()["error"] == "hello_first"
    c.send(type="hello", token="forged")
    assert c.recv()["error"] == "bad_token"
    c.send(type="hello", token=table["tokens"][0], extra=1)
    assert c.recv()["error"] == "bad_request"
    state = c.hello(table["tokens"][0])
    c.send(type="move", move_number="zero", action_id=0)
    assert c.recv()["error"] == "bad_request"
    c.send(type="ping", rid=5)
    assert c.recv() == {"type": "pong", "rid": 5}
    assert state["seat"] == 0


def test_spectator_and_wrong_seat_cannot_move(live, support, table):
    spectator = support.WsClient(live, table["table"])
    spectator.move(0, rid=1)
    error = spectator.recv()
    assert error["error"] == "spectator" and error["rid"] == 1
    seat1 = support.WsClient(live, table["table"], table["tokens"][1])
    seat1.move(0)
    assert seat1.recv()["error"] == "not_your_turn"


def test_stale_move_gets_error_then_resync(live, support, table):
    seat0 = support.WsClient(live, table["table"], table["tokens"][0])
    seat0.move(0, number=4, rid=2)
    error = seat0.recv()
    assert error["error"] == "stale" and error["rid"] == 2
    resync = seat0.recv()
    assert resync["type"] == "state" and resync["log_from"] == 0 and resync["move_number"] == 0


def test_reconnect_resyncs_fully(live, support, table):
    seat0 = support.WsClient(live, table["table"], table["tokens"][0])
    seat0.move(0)
    seat0.until(lambda m: m["type"] == "state")
    seat0.close()
    again = support.WsClient(live, table["table"], table["tokens"][0])
    with httpx.Client(base_url=live.url) as http:
        rest = http.get(f"/api/tables/{table['table']}", headers=support.bearer(table["tokens"][0])).json()
    assert again.state == rest and again.state["move_number"] == 1 and len(again.state["log"]) == 1


def test_hot_seat_switches_perspective_on_one_socket(live, support, table):
    device = support.WsClient(live, table["table"], table["tokens"][0])
    device.move(0)
    after = device.until(lambda m: m["type"] == "state")
    assert after["current_player"] == 1 and after["legal"] == []
    as_seat1 = device.hello(table["tokens"][1])
    assert as_seat1["seat"] == 1 and as_seat1["legal"]
    assert as_seat1["view"]["hands"][0] == [0, 0] and as_seat1["view"]["hands"][1] != [0, 0]


def test_unknown_table_closes(live, support):
    from websockets.exceptions import ConnectionClosed

    c = support.WsClient(live, "nosuchtable", hello=False)
    assert c.recv()["error"] == "no_table"
    with pytest.raises(ConnectionClosed) as info:
        c.recv()
    assert info.value.rcvd.code == 4404


def test_race_on_websockets_exactly_one_applies(live, support, table):
    tabs = [support.WsClient(live, table["table"], table["tokens"][0]) for _ in range(6)]
    for i, tab in enumerate(tabs):
        tab.move(i % len(tab.state["legal"]), rid=i)
    answers = [tab.until(lambda m: m.get("rid") == i or m.get("ack") == i) for i, tab in enumerate(tabs)]
    acks = [a for a in answers if a["type"] == "state"]
    errors = [a for a in answers if a["type"] == "error"]
    assert len(acks) == 1 and len(errors) == 5
    assert {e["error"] for e in errors} == {"stale"}
    with httpx.Client(base_url=live.url) as http:
        final = http.get(f"/api/tables/{table['table']}").json()
    assert final["move_number"] == 1 and final["log"][0]["text"] == acks[0]["log"][0]["text"]


def test_race_on_rest_exactly_one_applies(live, support, table):
    barrier = threading.Barrier(8)
    statuses: list[int] = []

    def attempt(i: int) -> None:
        with httpx.Client(base_url=live.url) as http:
            barrier.wait()
            response = http.post(f"/api/tables/{table['table']}/moves",
                                 headers=support.bearer(table["tokens"][0]),
                                 json={"move_number": 0, "action_id": i % 2})
            statuses.append(response.status_code)

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(statuses) == [200] + [409] * 7
    with httpx.Client(base_url=live.url) as http:
        assert http.get(f"/api/tables/{table['table']}").json()["move_number"] == 1


def test_bot_answers_over_the_socket(live, support):
    with httpx.Client(base_url=live.url) as http:
        data = support.create_table(http, agents=["human", "random"], seed=4)
    me = support.WsClient(live, data["table"], data["tokens"][0])
    me.move(0)
    back = me.until(lambda m: m["type"] == "state" and m["current_player"] == 0, timeout=10)
    assert back["move_number"] >= 2 and {e["seat"] for e in back["log"]} == {1}
    assert back["legal"]


def test_messages_are_plain_json_objects(live, support, table):
    c = support.WsClient(live, table["table"], table["tokens"][0])
    assert json.loads(json.dumps(c.state)) == c.state


def test_an_engine_failure_is_reported_and_the_socket_lives(live, support, table, monkeypatch):
    from mayagames.core.toy import ToyState

    c = support.WsClient(live, table["table"], table["tokens"][0])
    with monkeypatch.context() as patch:
        patch.setattr(ToyState, "_apply", lambda self, action: 1 / 0)
        c.move(0, rid="boom")
        assert c.until(lambda m: m.get("rid") == "boom")["error"] == "server_error"
    c.move(0, rid="ok")
    assert c.until(lambda m: m.get("ack") == "ok")["move_number"] == 1

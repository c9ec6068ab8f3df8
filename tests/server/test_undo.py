"""Undo (Board Game Arena policy): one's own moves, within one's turn, while nothing hidden
was revealed and no chance was involved. Undo replays the record without the last move."""

from __future__ import annotations

from fastapi.testclient import TestClient

from mayagames.core import new_game


def act(client, support, data, seat, text):
    state = client.get(f"/api/tables/{data['table']}", headers=support.bearer(data["tokens"][seat])).json()
    response = client.post(f"/api/tables/{data['table']}/moves", headers=support.bearer(data["tokens"][seat]),
                           json={"move_number": state["move_number"], "action": text})
    assert response.status_code == 200, response.text
    return response.json()


def undo(client, support, data, seat, number=None):
    if number is None:
        number = client.get(f"/api/tables/{data['table']}").json()["move_number"]
    return client.post(f"/api/tables/{data['table']}/undo", headers=support.bearer(data["tokens"][seat]),
                       json={"move_number": number})


def test_undo_steps_back_within_the_turn(client, support):
    data = support.create_table(client, game="tally", seed=1)
    assert act(client, support, data, 0, "add 1")["can_undo"] is True
    act(client, support, data, 0, "add 2")
    first = undo(client, support, data, 0)
    assert first.status_code == 200
    assert first.json()["move_number"] == 1 and first.json()["view"]["totals"] == [1, 0]
    back = undo(client, support, data, 0).json()
    assert back["move_number"] == 0 and back["log"] == [] and back["can_undo"] is False
    assert back["view"] == new_game("tally", 2, seed=1).view(0).to_dict()


def test_undo_refused_after_chance(client, support):
    data = support.create_table(client, game="tally", seed=1)
    act(client, support, data, 0, "add 1")
    state = act(client, support, data, 0, "draw")
    assert state["can_undo"] is False
    response = undo(client, support, data, 0)
    assert response.status_code == 403 and response.json()["error"] == "no_undo"
    assert "revealed" in response.json()["message"]


def test_undo_refused_once_the_turn_passed(client, support):
    data = support.create_table(client, game="tally", seed=1)
    act(client, support, data, 0, "add 1")
    act(client, support, data, 0, "end")
    for seat in (0, 1):
        response = undo(client, support, data, seat)
        assert response.status_code == 403 and response.json()["error"] == "no_undo"
    assert client.get(f"/api/tables/{data['table']}").json()["move_number"] == 2


def test_undo_needs_a_token_and_the_current_move_number(client, support):
    data = support.create_table(client, game="tally", seed=1)
    act(client, support, data, 0, "add 1")
    stale = undo(client, support, data, 0, number=0)
    assert stale.status_code == 409 and stale.json()["error"] == "stale"
    anonymous = client.post(f"/api/tables/{data['table']}/undo", json={"move_number": 1})
    assert anonymous.status_code == 401
    assert client.get(f"/api/tables/{data['table']}").json()["move_number"] == 1


def test_undo_is_persisted(make_app, support):
    with TestClient(make_app()) as client:
        data = support.create_table(client, game="tally", seed=1)
        act(client, support, data, 0, "add 2")
        act(client, support, data, 0, "add 1")
        assert undo(client, support, data, 0).status_code == 200
        act(client, support, data, 0, "add 2")
    with TestClient(make_app()) as client:
        state = client.get(f"/api/tables/{data['table']}").json()
        assert state["move_number"] == 2 and state["view"]["totals"] == [4, 0]
        assert [e["text"] for e in state["log"]] == ["add 2", "add 2"]


def test_undo_is_broadcast(live, support):
    import httpx

    with httpx.Client(base_url=live.url) as http:
        data = support.create_table(http, game="tally", seed=1)
    me = support.WsClient(live, data["table"], data["tokens"][0])
    other = support.WsClient(live, data["table"], data["tokens"][1])
    me.move(0)
    me.wait_for(1)
    other.wait_for(1)
    me.send(type="undo", move_number=1, rid="u")
    mine = me.until(lambda m: m.get("ack") == "u")
    assert mine["move_number"] == 0 and mine["log_from"] == 0 and mine["log"] == []
    theirs = other.wait_for(0)
    assert theirs["log_from"] == 0 and theirs["log"] == []
    other.send(type="undo", move_number=0, rid="x")
    assert other.until(lambda m: m.get("rid") == "x")["error"] == "no_undo"

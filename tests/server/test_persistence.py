"""Persistence: a move is stored before it is acknowledged; a restarted server resumes every
game exactly (tokens, logs, bots); a failed write or a corrupt record loses nothing else."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from mayagames.server.db import Database


def play_moves(client, support, data, count):
    for _ in range(count):
        state = client.get(f"/api/tables/{data['table']}").json()
        token = data["tokens"][state["current_player"]]
        mine = client.get(f"/api/tables/{data['table']}", headers=support.bearer(token)).json()
        response = client.post(f"/api/tables/{data['table']}/moves", headers=support.bearer(token),
                               json={"move_number": mine["move_number"], "action_id": 0})
        assert response.status_code == 200, response.text


def snapshot(client, support, data):
    table = data["table"]
    views = {seat: client.get(f"/api/tables/{table}", headers=support.bearer(tok)).json()
             for seat, tok in data["tokens"].items()}
    views[None] = client.get(f"/api/tables/{table}").json()
    return views


def test_restart_resumes_every_game_exactly(make_app, support):
    with TestClient(make_app()) as client:
        games = [support.create_table(client, players=n, seed=n) for n in (2, 3, 4)]
        for i, data in enumerate(games):
            play_moves(client, support, data, 3 + i)
        before = [snapshot(client, support, d) for d in games]
    with TestClient(make_app()) as client:
        after = [snapshot(client, support, d) for d in games]
        assert after == before
        play_moves(client, support, games[0], 1)  # the old tokens still open their seats
        assert client.get(f"/api/tables/{games[0]['table']}").json()["move_number"] == 4


def test_bot_to_move_at_shutdown_moves_after_restart(make_app, support):
    with TestClient(make_app(bot_delay=30)) as client:
        data = support.create_table(client, agents=["human", "random"], seed=3)
        play_moves(client, support, data, 1)
        assert client.get(f"/api/tables/{data['table']}").json()["current_player"] == 1
    with TestClient(make_app()) as client:
        deadline = time.monotonic() + 10
        while client.get(f"/api/tables/{data['table']}").json()["current_player"] != 0:
            assert time.monotonic() < deadline, "the bot did not resume"
            time.sleep(0.02)


def test_move_is_stored_before_it_is_applied(make_app, support):
    app = make_app()
    with TestClient(app) as client:
        data = support.create_table(client, seed=2)
        service = app.state.service
        room = service.rooms[data["table"]]
        seen = []
        original = service.db.append_move

        def spy(table_id, number, *args):
            seen.append((number, room.move_number))  # the room has not moved yet
            return original(table_id, number, *args)

        service.db.append_move = spy
        play_moves(client, support, data, 2)
        assert seen == [(1, 0), (2, 1)]
        assert service.db.count_moves(data["table"]) == 2


def test_failed_write_plays_nothing(make_app, support):
    app = make_app()
    with TestClient(app) as client:
        data = support.create_table(client, seed=2)
        service = app.state.service
        original = service.db.append_move

        def fail(*args):
            raise OSError("disk full")

        service.db.append_move = fail
        token = data["tokens"][0]
        response = client.post(f"/api/tables/{data['table']}/moves", headers=support.bearer(token),
                               json={"move_number": 0, "action_id": 0})
        assert response.status_code == 503 and response.json()["error"] == "not_saved"
        assert "not played" in response.json()["message"]
        assert client.get(f"/api/tables/{data['table']}").json()["move_number"] == 0
        service.db.append_move = original
        play_moves(client, support, data, 1)
        assert client.get(f"/api/tables/{data['table']}").json()["move_number"] == 1


def test_corrupt_record_is_reported_and_isolated(make_app, support, db_url):
    with TestClient(make_app()) as client:
        good = support.create_table(client, seed=1)
        bad = support.create_table(client, seed=2)
        play_moves(client, support, good, 2)
        play_moves(client, support, bad, 2)
    db = Database(db_url)
    with db.engine.begin() as conn:
        conn.execute(text("UPDATE game_moves SET text = 'play 9' WHERE table_id = :t AND number = 2"),
                     {"t": bad["table"]})
    db.dispose()
    with TestClient(make_app()) as client:
        response = client.get(f"/api/tables/{bad['table']}")
        assert response.status_code == 500 and response.json()["error"] == "broken_table"
        assert "move 2 'play 9'" in response.json()["message"]
        assert client.get(f"/api/tables/{good['table']}").json()["move_number"] == 2


def test_database_refuses_a_second_move_with_the_same_number(db_url, make_app, support):
    with TestClient(make_app()) as client:
        data = support.create_table(client, seed=1)
    db = Database(db_url)
    db.append_move(data["table"], 1, "play 1", 0, "playing", None)
    with pytest.raises(IntegrityError):
        db.append_move(data["table"], 1, "play 2", 0, "playing", None)
    assert db.count_moves(data["table"]) == 1
    db.dispose()


def test_finished_games_load_lazily_after_restart(make_app, support):
    with TestClient(make_app()) as client:
        data = support.create_table(client, agents=["random", "random"], seed=8)
        deadline = time.monotonic() + 20
        while not client.get(f"/api/tables/{data['table']}").json()["terminal"]:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        final = client.get(f"/api/tables/{data['table']}").json()
    app = make_app()
    with TestClient(app) as client:
        assert data["table"] not in app.state.service.rooms  # only unfinished games load at start
        assert client.get(f"/api/tables/{data['table']}").json() == final
        # a private table is listed to nobody but its seats (bots here): read the stored rows
        listed = app.state.service.db.list_tables("finished")
        assert [t.result for t in listed if t.id == data["table"]] == [
            {"scores": final["scores"], "winners": final["winners"]}]


def test_table_of_a_game_no_longer_installed(make_app, support, db_url, monkeypatch):
    from mayagames.core import registry

    with TestClient(make_app()) as client:
        data = support.create_table(client, game="tally", seed=1)
        other = support.create_table(client, seed=1)
    monkeypatch.delitem(registry._GAMES, "tally")
    monkeypatch.setitem(registry.TEST_GAMES, "tally", "mayagames.no_such_engine")
    with TestClient(make_app()) as client:  # the server starts anyway
        response = client.get(f"/api/tables/{data['table']}")
        assert response.status_code == 500 and "cannot be resumed" in response.json()["message"]
        assert client.get(f"/api/tables/{other['table']}").status_code == 200
        refused = client.post("/api/tables", json={"game": "tally", "players": 2})
        assert refused.status_code == 400 and "not installed" in refused.json()["message"]

"""Resigning (issue 23.6): a seated player concedes; it counts as a loss on the ladder (the
seat ranks last, as one whose time ran out); with 2 players the game is over at once, with
more the table's zombie bot plays the seat on. Refusals change nothing."""

from __future__ import annotations

from mayagames.core.record import GameRecord, verify


def rated_pair(client, support):
    ana, ben = support.register(client, "Ana"), support.register(client, "Ben")
    support.use(client, ana)
    table = client.post("/api/tables", json={"game": "toy", "players": 2, "seed": 4,
                                             "public": True, "rated": True,
                                             "speed": "realtime:5+0"}).json()["table"]
    support.use(client, ben)
    assert client.post(f"/api/tables/{table}/join", json={"seat": 1}).status_code == 200
    return table, ana, ben


def test_resigning_a_rated_two_player_game_ends_it_as_a_loss(pclient, support, players_app):
    table, ana, ben = rated_pair(pclient, support)
    support.use(pclient, None)
    assert pclient.post(f"/api/tables/{table}/resign").status_code == 403  # a spectator
    support.use(pclient, ana)
    done = pclient.post(f"/api/tables/{table}/resign")
    assert done.status_code == 200, done.text
    data = done.json()
    assert data["terminal"] is True and data["winners"] == [1] and data["ended"] == "Ana resigned"
    assert data["clock"]["running"] is None
    board = {r["name"]: r for r in pclient.get("/api/ratings/toy").json()["ratings"]}
    assert board["Ben"]["games"] == board["Ana"]["games"] == 1
    assert board["Ben"]["rating"] > board["Ana"]["rating"]
    chat = pclient.get(f"/api/tables/{table}/chat").json()["chat"]
    assert chat[-1]["system"] and chat[-1]["text"] == "Ana resigned: the game is over."
    mine = pclient.get("/api/me").json()["tables"]
    assert mine[0]["status"] == "finished" and mine[0]["your_turn"] is False
    record = pclient.get(f"/api/tables/{table}/record").json()  # the resignation's winner,
    assert record["result"]["winners"] == [1]  # not the leader of the unfinished game
    assert record["result"]["reason"] == "Ana resigned"
    assert not verify(GameRecord.from_dict(record)).is_terminal

    again = pclient.post(f"/api/tables/{table}/resign")
    assert again.status_code == 409 and again.json()["error"] == "game_over"
    support.use(pclient, ben)
    move = pclient.post(f"/api/tables/{table}/moves", json={"move_number": data["move_number"],
                                                           "action_id": 0})
    assert move.status_code == 409
    assert pclient.get("/api/tables?status=finished").json()["tables"][0]["table"] == table

    from fastapi.testclient import TestClient

    with TestClient(players_app()) as client:  # a restart: still over, rated once
        support.use(client, ben)
        again = client.get(f"/api/tables/{table}").json()
        assert again["terminal"] is True and again["ended"] == "Ana resigned"
        board = {r["name"]: r for r in client.get("/api/ratings/toy").json()["ratings"]}
        assert board["Ben"]["games"] == 1


def test_resigning_with_three_players_hands_the_seat_to_the_zombie_bot(pclient, support):
    body = {"game": "tally", "players": 3, "seed": 1, "zombie": "easy",
            "seats": [{"agent": "human"}] * 3}
    created = pclient.post("/api/tables", json=body).json()
    table = created["table"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    done = pclient.post(f"/api/tables/{table}/resign",
                        headers={"Authorization": f"Bearer {tokens[1]}"})
    assert done.status_code == 200, done.text
    data = done.json()
    assert data["terminal"] is False and data["ended"] is None
    assert [p["zombie"] for p in data["players"]] == [False, True, False]
    twice = pclient.post(f"/api/tables/{table}/resign",
                         headers={"Authorization": f"Bearer {tokens[1]}"})
    assert twice.status_code == 409 and twice.json()["error"] == "not_a_person"
    chat = pclient.get(f"/api/tables/{table}/chat",  # a private table's chat: its seats'
                       headers={"Authorization": f"Bearer {tokens[0]}"}).json()["chat"]
    assert "easy bot plays seat 2" in chat[-1]["text"]
    for text in ("add 1", "end"):  # seat 0's turn; then the bot plays seat 1's
        state = pclient.get(f"/api/tables/{table}").json()
        assert pclient.post(f"/api/tables/{table}/moves", headers={
            "Authorization": f"Bearer {tokens[0]}"},
            json={"move_number": state["move_number"], "action": text}).status_code == 200
    import time

    for _ in range(300):
        state = pclient.get(f"/api/tables/{table}").json()
        if state["current_player"] == 2:
            break
        time.sleep(0.02)
    assert state["current_player"] == 2  # the bot played seat 2's turn


def test_an_older_database_gets_the_resigned_column(players_app, db_url, support):
    """``table_meta.resigned`` came with revision 0003: a database at 0002 refuses to serve
    until ``mayagames db upgrade`` (here: ``migrations.upgrade``) adds it, games kept."""
    import sqlite3

    from fastapi.testclient import TestClient

    from mayagames.server import migrations
    from mayagames.server.db import Database

    with TestClient(players_app()) as client:
        table, _, _ = rated_pair(client, support)
    path = db_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as con:
        con.execute("DROP TABLE quick_queue")
        con.execute("ALTER TABLE table_meta DROP COLUMN resigned")
        con.execute("ALTER TABLE game_tables DROP COLUMN to_move")  # (revision 0004)
        con.execute("UPDATE alembic_version SET version_num = '0002'")
    db = Database(db_url)
    try:
        assert migrations.state(db).kind == "behind"
        migrations.upgrade(db)
        assert migrations.state(db).kind == "current"
    finally:
        db.dispose()
    with sqlite3.connect(path) as con:
        assert "resigned" in [row[1] for row in con.execute("PRAGMA table_info(table_meta)")]
    with TestClient(players_app()) as client:
        assert client.get(f"/api/tables/{table}").status_code == 200

"""Rematches: offered between accounts (a session opens the seat, no link), stored in the
database (a restarted server, or another instance on PostgreSQL, finds the same offer and
hands each guest seat's new token out once), and racing starts giving one table."""

from __future__ import annotations

import os
import threading
import uuid

import pytest
from fastapi.testclient import TestClient

from mayagames.server import create_app
from mayagames.server.db import Database
from mayagames.server.limits import ServerLimits

LIMITS = ServerLimits(allow_fixed_seed=True).without_rate_limits()
def needs_postgres(test):
    """Run only with a PostgreSQL server (``DATABASE_URL``; CI sets it)."""
    test = pytest.mark.skipif(not os.environ.get("DATABASE_URL"),
                              reason="DATABASE_URL is not set (no PostgreSQL)")(test)
    return pytest.mark.postgres(test)


def finish_guest_table(client, support, seed=3):
    """A toy table of two guest seats played to its end; its creation answer."""
    table = support.create_table(client, game="toy", agents=["human", "human"], seed=seed)
    for _ in range(200):
        state = client.get(f"/api/tables/{table['table']}").json()
        if state["terminal"]:
            return table
        token = table["tokens"][state["current_player"]]
        answer = client.post(f"/api/tables/{table['table']}/moves", headers=support.bearer(token),
                             json={"move_number": state["move_number"], "action_id": 0})
        assert answer.status_code == 200, answer.text
    raise AssertionError("the game does not end")


def test_rematch_between_accounts_needs_no_link(pclient, support):
    ana, ben = support.register(pclient, "Ana"), support.register(pclient, "Ben")
    support.use(pclient, ana)
    table = pclient.post("/api/tables", json={"game": "toy", "players": 2, "seed": 4,
                                              "public": True, "rated": True,
                                              "speed": "turn:24h"}).json()["table"]
    support.use(pclient, ben)
    assert pclient.post(f"/api/tables/{table}/join", json={"seat": 1}).status_code == 200
    early = pclient.post(f"/api/tables/{table}/rematch")
    assert early.status_code == 409 and early.json()["error"] == "not_finished"
    support.play_out(pclient, table, {0: ana, 1: ben})
    support.use(pclient, None)
    assert pclient.post(f"/api/tables/{table}/rematch").status_code == 401  # nobody's seat
    outsider = support.register(pclient, "Cai")
    support.use(pclient, outsider)
    assert pclient.post(f"/api/tables/{table}/rematch").status_code == 401  # no seat here
    support.use(pclient, ben)
    offered = pclient.post(f"/api/tables/{table}/rematch")
    assert offered.status_code == 201, offered.text
    new = offered.json()
    assert new["rematch_of"] == table and new["seat"] == 1
    assert all(s["token"] is None for s in new["seats"])  # the accounts need no invite
    assert [s["name"] for s in new["seats"]] == ["Ana", "Ben"]
    seen_by_ben = pclient.get(f"/api/tables/{new['table']}").json()
    assert seen_by_ben["seat"] == 1 and seen_by_ben["move_number"] == 0
    assert seen_by_ben["lobby"]["rated"] and seen_by_ben["lobby"]["speed"] == "turn:24h"
    assert not seen_by_ben["lobby"]["public"] and not seen_by_ben["lobby"]["waiting"]
    support.use(pclient, ana)
    old = pclient.get(f"/api/tables/{table}").json()
    assert old["rematch"] == new["table"] and old["lobby"]["rematch"] == new["table"]
    again = pclient.post(f"/api/tables/{table}/rematch").json()
    assert again["table"] == new["table"] and again["seat"] == 0
    assert pclient.get(f"/api/tables/{new['table']}").json()["seat"] == 0
    mine = {t["table"]: t for t in pclient.get("/api/me").json()["tables"]}
    assert mine[new["table"]]["seat"] == 0
    chat = pclient.get(f"/api/tables/{table}/chat").json()["chat"]
    assert [line["text"] for line in chat if line["system"]] == [
        f"A rematch is offered: the same players at a new table ({new['table']})."]
    support.use(pclient, outsider)  # the new table is private: no seat for a stranger
    assert pclient.post(f"/api/tables/{new['table']}/join", json={"seat": 0}).status_code == 403


def test_the_offer_survives_a_restart_and_tokens_go_out_once(make_app, support):
    with TestClient(make_app()) as client:
        table = finish_guest_table(client, support)
        first = client.post(f"/api/tables/{table['table']}/rematch",
                            headers=support.bearer(table["tokens"][0])).json()
        token0 = first["seats"][0]["token"]
        assert token0 and first["seats"][1]["token"] is None
    with TestClient(make_app()) as client:  # the server restarted: nothing in memory
        old = client.get(f"/api/tables/{table['table']}").json()
        assert old["rematch"] == first["table"]
        second = client.post(f"/api/tables/{table['table']}/rematch",
                             headers=support.bearer(table["tokens"][1])).json()
        assert second["table"] == first["table"]
        token1 = second["seats"][1]["token"]
        assert token1 and token1 != token0
        again = client.post(f"/api/tables/{table['table']}/rematch",
                            headers=support.bearer(table["tokens"][0])).json()
        assert all(s["token"] is None for s in again["seats"])  # handed out before the restart
        for seat, token in ((0, token0), (1, token1)):
            state = client.get(f"/api/tables/{first['table']}", headers=support.bearer(token))
            assert state.json()["seat"] == seat


@pytest.fixture
def pg_schema():
    schema = f"test_{uuid.uuid4().hex[:12]}"
    yield schema
    cleanup = Database(os.environ["DATABASE_URL"], schema=schema)
    cleanup.drop_schema()
    cleanup.dispose()


def instance(schema: str):
    return create_app(db=Database(os.environ["DATABASE_URL"], schema=schema),
                      list_test_games=True, limits=LIMITS)


@needs_postgres
def test_two_instances_share_one_rematch(pg_schema, support):
    """Both seats ask at once, each through its own instance: one new table, each seat its
    own token (once), and each token opens its seat through either instance."""
    with TestClient(instance(pg_schema)) as a, TestClient(instance(pg_schema)) as b:
        table = finish_guest_table(a, support, seed=5)
        answers: dict[int, dict] = {}

        def ask(client, seat):
            response = client.post(f"/api/tables/{table['table']}/rematch",
                                   headers=support.bearer(table["tokens"][seat]))
            assert response.status_code == 201, response.text
            answers[seat] = response.json()

        threads = [threading.Thread(target=ask, args=(c, s)) for c, s in ((a, 0), (b, 1))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert answers[0]["table"] == answers[1]["table"]
        new = answers[0]["table"]
        tokens = {s: answers[s]["seats"][s]["token"] for s in (0, 1)}
        assert all(tokens.values()) and tokens[0] != tokens[1]
        for client in (a, b):
            assert client.get(f"/api/tables/{table['table']}").json()["rematch"] == new
            for seat, token in tokens.items():
                state = client.get(f"/api/tables/{new}", headers=support.bearer(token)).json()
                assert state["seat"] == seat
            again = client.post(f"/api/tables/{table['table']}/rematch",
                                headers=support.bearer(table["tokens"][0])).json()
            assert again["table"] == new and all(s["token"] is None for s in again["seats"])
        db = Database(os.environ["DATABASE_URL"], schema=pg_schema)
        try:
            from sqlalchemy import func, select

            from mayagames.server.db import RematchRow, TableRow

            with db.engine.connect() as conn:
                assert conn.execute(select(func.count()).select_from(RematchRow)).scalar_one() == 1
                assert conn.execute(select(func.count()).select_from(TableRow)).scalar_one() == 2
        finally:
            db.dispose()

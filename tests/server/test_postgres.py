"""The same store on PostgreSQL (CI starts one and exports DATABASE_URL; skipped without it).

Each test works in its own schema, so parallel test workers never see each other's tables.
"""

from __future__ import annotations

import os
import threading
import uuid

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import IntegrityError

from mayagames.server import create_app
from mayagames.server.limits import ServerLimits

TEST_LIMITS = ServerLimits(allow_fixed_seed=True).without_rate_limits()  # seeds fixed, races run
from mayagames.server.db import Database

pytestmark = [pytest.mark.postgres,
              pytest.mark.skipif(not os.environ.get("DATABASE_URL"),
                                 reason="DATABASE_URL is not set (no PostgreSQL)")]


@pytest.fixture
def pg_db():
    """Databases on one fresh PostgreSQL schema (a new object per 'server start')."""
    schema = f"test_{uuid.uuid4().hex[:12]}"
    made: list[Database] = []

    def open_db() -> Database:
        db = Database(os.environ["DATABASE_URL"], schema=schema)
        made.append(db)
        return db

    yield open_db
    cleanup = Database(os.environ["DATABASE_URL"], schema=schema)
    cleanup.drop_schema()
    cleanup.dispose()


def test_postgres_url_uses_psycopg():
    assert Database(os.environ["DATABASE_URL"]).engine.dialect.driver == "psycopg"


def test_restart_resumes_on_postgres(pg_db, support):
    with TestClient(create_app(db=pg_db(), list_test_games=True, limits=TEST_LIMITS,
                               fast_password_hashes=True)) as client:
        session = support.register(client, "Owner")  # the lobby lists its private table to it
        data = support.create_table(client, players=3, seed=17)
        support.play_first_moves(client, data, 4)
        before = {s: client.get(f"/api/tables/{data['table']}", headers=support.bearer(t)).json()
                  for s, t in data["tokens"].items()}
    with TestClient(create_app(db=pg_db(), list_test_games=True, limits=TEST_LIMITS,
                               fast_password_hashes=True)) as client:
        support.use(client, session)
        after = {s: client.get(f"/api/tables/{data['table']}", headers=support.bearer(t)).json()
                 for s, t in data["tokens"].items()}
        assert after == before
        support.play_first_moves(client, data, 1)
        listed = client.get("/api/tables").json()["tables"]
        assert [t["move_count"] for t in listed if t["table"] == data["table"]] == [5]


def test_undo_and_unique_move_numbers_on_postgres(pg_db, support):
    db = pg_db()
    with TestClient(create_app(db=db, list_test_games=True, limits=TEST_LIMITS)) as client:
        data = support.create_table(client, game="tally", seed=1)
        token = data["tokens"][0]
        client.post(f"/api/tables/{data['table']}/moves", headers=support.bearer(token),
                    json={"move_number": 0, "action": "add 2"})
        assert client.post(f"/api/tables/{data['table']}/undo", headers=support.bearer(token),
                           json={"move_number": 1}).status_code == 200
    check = pg_db()
    assert check.count_moves(data["table"]) == 0
    check.append_move(data["table"], 1, "add 1", 0, "playing", None)
    with pytest.raises(IntegrityError):
        check.append_move(data["table"], 1, "add 2", 0, "playing", None)
    check.dispose()


def test_race_on_postgres_exactly_one_applies(pg_db, support):
    with support.LiveServer(create_app(db=pg_db(), list_test_games=True, limits=TEST_LIMITS)) as live:
        with httpx.Client(base_url=live.url) as http:
            data = support.create_table(http, seed=3)
        barrier = threading.Barrier(6)
        statuses: list[int] = []

        def attempt() -> None:
            with httpx.Client(base_url=live.url) as http:
                barrier.wait()
                statuses.append(http.post(f"/api/tables/{data['table']}/moves",
                                          headers=support.bearer(data["tokens"][0]),
                                          json={"move_number": 0, "action_id": 0}).status_code)

        threads = [threading.Thread(target=attempt) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert sorted(statuses) == [200] + [409] * 5

"""Accounts: register, log in and out, sessions (cookie flags, expiry), password change,
the login throttle; every refusal a clear 4xx that changes nothing."""

from __future__ import annotations

import pytest

from mayagames.server.accounts import SESSION_COOKIE

PASSWORD = "correct horse battery"  # as support.PASSWORD


def count_accounts(client):
    players = client.app.state.players
    return players.store.count_accounts()


def test_register_logs_in_with_a_safe_cookie(pclient):
    response = pclient.post("/api/accounts", json={"name": "Ixchel", "password": PASSWORD})
    assert response.status_code == 201 and response.json()["account"]["name"] == "Ixchel"
    cookie = response.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie
    me = pclient.get("/api/me").json()
    assert me["account"]["name"] == "Ixchel" and me["tables"] == [] and me["your_turn"] == 0


def test_cookie_is_secure_behind_https(pclient):
    response = pclient.post("/api/accounts", json={"name": "Kinich", "password": PASSWORD},
                            headers={"X-Forwarded-Proto": "https"})
    assert "Secure" in response.headers["set-cookie"]


def test_password_is_stored_only_as_an_argon2_hash(pclient, support):
    support.register(pclient, "Chaac")
    from mayagames.server.accounts import name_key

    found = pclient.app.state.players.store.account_by_key(name_key("chaac"))
    assert found is not None
    assert found[1].startswith("$argon2id$") and PASSWORD not in found[1]


@pytest.mark.parametrize("name", ["Ixchel", "ixchel", "IXCHEL"])
def test_duplicate_names_are_refused(pclient, name, support):
    support.register(pclient, "Ixchel")
    before = count_accounts(pclient)
    pclient.cookies.clear()
    response = pclient.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert response.status_code == 409 and response.json()["error"] == "name_taken"
    assert count_accounts(pclient) == before
    assert SESSION_COOKIE not in response.cookies


@pytest.mark.parametrize("body, code", [
    ({"name": "ab", "password": PASSWORD}, "bad_name"),
    ({"name": "a b c", "password": PASSWORD}, "bad_name"),
    ({"name": "<script>", "password": PASSWORD}, "bad_name"),
    ({"name": "bot_hard", "password": PASSWORD}, "bad_name"),
    ({"name": "Ixchel", "password": "short"}, "bad_password"),
    ({"name": "Ixchel", "password": "ixchel"}, "bad_password"),
    ({"name": "Ixchel"}, "bad_request"),
    ({"name": "Ixchel", "password": PASSWORD, "admin": True}, "bad_request"),
])
def test_bad_account_requests(pclient, body, code):
    response = pclient.post("/api/accounts", json=body)
    assert 400 <= response.status_code < 500 and response.json()["error"] == code
    assert count_accounts(pclient) == 0


def test_login_logout_and_wrong_password(pclient, support):
    support.register(pclient, "Ixchel")
    support.use(pclient, None)
    wrong = pclient.post("/api/login", json={"name": "Ixchel", "password": "not the password"})
    assert wrong.status_code == 401 and wrong.json()["error"] == "bad_login"
    unknown = pclient.post("/api/login", json={"name": "Nobody", "password": PASSWORD})
    assert unknown.status_code == 401 and unknown.json() == wrong.json()  # no hint which names exist
    assert pclient.get("/api/me").status_code == 401
    ok = pclient.post("/api/login", json={"name": "ixchel", "password": PASSWORD})
    assert ok.status_code == 200 and ok.json()["account"]["name"] == "Ixchel"
    session = ok.cookies[SESSION_COOKIE]
    support.use(pclient, session)
    assert pclient.get("/api/me").status_code == 200
    assert pclient.post("/api/logout").status_code == 200
    support.use(pclient, session)  # the old cookie is dead on the server too
    gone = pclient.get("/api/me")
    assert gone.status_code == 401 and gone.json()["error"] == "bad_session"


def test_login_is_throttled_per_name_and_per_address(pclient, fake_clock, support):
    support.register(pclient, "Ixchel")
    support.use(pclient, None)
    for _ in range(5):
        assert pclient.post("/api/login", json={"name": "Ixchel", "password": "guess guess"}).status_code == 401
    locked = pclient.post("/api/login", json={"name": "Ixchel", "password": PASSWORD})
    assert locked.status_code == 429 and locked.json()["error"] == "too_many_attempts"
    assert int(locked.headers["Retry-After"]) > 0
    fake_clock.advance(301)
    assert pclient.post("/api/login", json={"name": "Ixchel", "password": PASSWORD}).status_code == 200
    # per address: many names tried from one address
    support.use(pclient, None)
    for i in range(20):
        pclient.post("/api/login", json={"name": f"guess{i}", "password": "guess guess"})
    blocked = pclient.post("/api/login", json={"name": "Ixchel", "password": PASSWORD})
    assert blocked.status_code == 429


def test_expired_session_is_refused_and_changes_nothing(pclient, fake_clock, support):
    session = support.register(pclient, "Ixchel")
    table = pclient.post("/api/tables", json={"game": "toy", "players": 2, "seed": 3}).json()
    state = pclient.get(f"/api/tables/{table['table']}").json()
    assert state["seat"] == 0  # the creator's account holds the first seat
    fake_clock.advance(31 * 86400)
    support.use(pclient, session)
    me = pclient.get("/api/me")
    assert me.status_code == 401 and me.json()["error"] == "session_expired"
    support.use(pclient, session)
    move = pclient.post(f"/api/tables/{table['table']}/moves", json={"move_number": 0, "action_id": 0})
    assert move.status_code == 401
    assert pclient.get(f"/api/tables/{table['table']}").json()["move_number"] == 0


def test_change_password(pclient, support):
    first = support.register(pclient, "Ixchel")
    support.use(pclient, None)
    second = pclient.post("/api/login", json={"name": "Ixchel", "password": PASSWORD}).cookies[SESSION_COOKIE]
    support.use(pclient, first)
    wrong = pclient.post("/api/me/password", json={"old": "not it at all", "new": "a new password"})
    assert wrong.status_code == 403
    short = pclient.post("/api/me/password", json={"old": PASSWORD, "new": "short"})
    assert short.status_code == 422
    ok = pclient.post("/api/me/password", json={"old": PASSWORD, "new": "a new password"})
    assert ok.status_code == 200
    assert pclient.get("/api/me").status_code == 200  # this session stays
    support.use(pclient, second)
    assert pclient.get("/api/me").status_code == 401  # the other one ended
    support.use(pclient, None)
    assert pclient.post("/api/login", json={"name": "Ixchel", "password": PASSWORD}).status_code == 401
    assert pclient.post("/api/login", json={"name": "Ixchel", "password": "a new password"}).status_code == 200


def shared_throttle_check(make_instance, support, fake_clock):
    """Failed logins through two instances on one database count together and outlive a
    restart; old windows are forgotten (the table keeps one window)."""
    from fastapi.testclient import TestClient

    with TestClient(make_instance()) as a, TestClient(make_instance()) as b:
        support.register(a, "Ixchel")
        for client in (a, b, a, b):
            support.use(client, None)
            wrong = client.post("/api/login", json={"name": "Ixchel", "password": "guess guess"})
            assert wrong.status_code == 401
    with TestClient(make_instance()) as a, TestClient(make_instance()) as b:  # restarted
        support.use(b, None)
        assert b.post("/api/login", json={"name": "ixchel", "password": "guess guess"}).status_code == 401
        locked = a.post("/api/login", json={"name": "Ixchel", "password": PASSWORD})
        assert locked.status_code == 429  # 5 failures: 2 through a, 3 through b
        fake_clock.advance(301)
        assert a.post("/api/login", json={"name": "Ixchel", "password": PASSWORD}).status_code == 200
        support.use(b, None)
        assert b.post("/api/login", json={"name": "nobody", "password": "guess guess"}).status_code == 401
        store = a.app.state.players.store
        with store.engine.connect() as conn:
            from sqlalchemy import select

            from mayagames.server.playerstore import LoginAttemptRow

            # the old windows are forgotten: Ixchel's name, nobody's and the address's rows
            # are all of the last window (the successful login counts nothing)
            rows = conn.execute(select(LoginAttemptRow.attempts, LoginAttemptRow.since)).all()
            assert sorted(r.attempts for r in rows) == [0, 1, 1]
            assert all(r.since > fake_clock.now - 300 for r in rows)


def test_login_throttle_is_shared_by_instances_sqlite(players_app, support, fake_clock):
    shared_throttle_check(players_app, support, fake_clock)


@pytest.mark.postgres
@pytest.mark.skipif(not __import__("os").environ.get("DATABASE_URL"),
                    reason="DATABASE_URL is not set (no PostgreSQL)")
def test_login_throttle_is_shared_by_instances_postgres(support, fake_clock):
    import os
    import uuid

    from mayagames.server import create_app
    from mayagames.server.db import Database
    from mayagames.server.limits import ServerLimits

    schema = f"test_{uuid.uuid4().hex[:12]}"

    def instance():
        return create_app(db=Database(os.environ["DATABASE_URL"], schema=schema),
                          list_test_games=True, time_source=fake_clock, fast_password_hashes=True,
                          limits=ServerLimits().without_rate_limits())
    try:
        shared_throttle_check(instance, support, fake_clock)
    finally:
        cleanup = Database(os.environ["DATABASE_URL"], schema=schema)
        cleanup.drop_schema()
        cleanup.dispose()

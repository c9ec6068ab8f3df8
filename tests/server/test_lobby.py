"""The open lobby and seats that belong to accounts: public tables, joining a free seat,
the table starting when full, "my tables" with your_turn, guests turning their seat into
an account's, re-issued invite links; and each refusal (a full or private table, another
account's seat, no session) a clear 4xx that changes nothing."""

from __future__ import annotations

import os

import pytest


def public_table(support, client, session, players=2, **extra):
    support.use(client, session)
    body = {"game": "toy", "players": players, "seed": 5, "public": True, **extra}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def state(support, client, table, session=None, token=None):
    support.use(client, session)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.get(f"/api/tables/{table}", headers=headers).json()


def test_public_table_needs_an_account(pclient):
    response = pclient.post("/api/tables", json={"game": "toy", "players": 2, "public": True})
    assert response.status_code == 401 and response.json()["error"] == "login_required"
    assert pclient.get("/api/tables").json()["tables"] == []


def test_two_accounts_meet_in_the_lobby(pclient, support):
    ana, ben = support.register(pclient, "Ana"), support.register(pclient, "Ben")
    created = public_table(support, pclient, ana, speed="turn:24h")
    table = created["table"]
    assert created["public"] is True and created["speed"] == "turn:24h"
    assert created["seats"][0]["name"] == "Ana" and created["seats"][1]["token"] is None

    support.use(pclient, None)
    listed = pclient.get("/api/tables?open=1").json()["tables"]
    assert [t["table"] for t in listed] == [table]
    entry = listed[0]
    assert entry["status"] == "waiting" and entry["speed_text"] == "turn-based: 1 days per turn"
    assert [s["free"] for s in entry["seats"]] == [False, True]
    assert entry["seats"][0]["account"] == "Ana"

    support.use(pclient, ana)  # the game waits for the second player
    early = pclient.post(f"/api/tables/{table}/moves", json={"move_number": 0, "action_id": 0})
    assert early.status_code == 409 and early.json()["error"] == "waiting"

    support.use(pclient, ben)
    joined = pclient.post(f"/api/tables/{table}/join", json={"seat": 1})
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    assert joined.json()["seats"][1]["name"] == "Ben"
    assert pclient.get("/api/tables?open=1").json()["tables"] == []  # full: off the list

    mine = {who: (support.use(pclient, s), pclient.get("/api/me").json())[1] for who, s in (("ana", ana), ("ben", ben))}
    first = state(support, pclient, table, ana)["current_player"]
    assert mine["ana"]["tables"][0]["your_turn"] == (first == 0)
    assert mine["ben"]["tables"][0]["your_turn"] == (first == 1)
    assert mine["ana"]["your_turn"] + mine["ben"]["your_turn"] == 1

    # acting for the other account's seat: refused, nothing changes
    other = ben if first == 0 else ana
    support.use(pclient, other)
    refused = pclient.post(f"/api/tables/{table}/moves", json={"move_number": 0, "action_id": 0})
    assert refused.status_code == 403 and refused.json()["error"] == "not_your_turn"
    assert state(support, pclient, table)["move_number"] == 0
    mover = ana if first == 0 else ben
    support.use(pclient, mover)
    assert pclient.post(f"/api/tables/{table}/moves", json={"move_number": 0, "action_id": 0}).status_code == 200


def test_join_refusals(pclient, support):
    ana, ben, cal = support.register(pclient, "Ana"), support.register(pclient, "Ben"), support.register(pclient, "Cal")
    table = public_table(support, pclient, ana)["table"]
    support.use(pclient, None)
    assert pclient.post(f"/api/tables/{table}/join", json={"seat": 1}).status_code == 401
    support.use(pclient, ana)
    again = pclient.post(f"/api/tables/{table}/join", json={"seat": 1})
    assert again.status_code == 409 and again.json()["error"] == "already_seated"
    support.use(pclient, ben)
    assert pclient.post(f"/api/tables/{table}/join", json={"seat": 7}).json()["error"] == "bad_seat"
    assert pclient.post(f"/api/tables/{table}/join", json={"seat": 0}).json()["error"] == "seat_taken"
    assert pclient.post(f"/api/tables/{table}/join", json={"seat": -1}).status_code == 422
    assert pclient.post(f"/api/tables/{table}/join", json={"seat": 1}).status_code == 200
    support.use(pclient, cal)
    full = pclient.post(f"/api/tables/{table}/join", json={"seat": 1})
    assert full.status_code == 409 and full.json()["error"] == "seat_taken"
    assert state(support, pclient, table)["seats"][1]["name"] == "Ben"
    # a private table is not joined
    support.use(pclient, ana)
    private = pclient.post("/api/tables", json={"game": "toy", "players": 2}).json()["table"]
    support.use(pclient, cal)
    refused = pclient.post(f"/api/tables/{private}/join", json={"seat": 1})
    assert refused.status_code == 403 and refused.json()["error"] == "private_table"


def test_a_public_table_with_a_bot_starts_when_full(pclient, support):
    ana, ben = support.register(pclient, "Ana"), support.register(pclient, "Ben")
    support.use(pclient, ana)
    body = {"game": "toy", "players": 3, "seed": 2, "public": True,
            "seats": [{"agent": "human"}, {"agent": "random"}, {"agent": "human"}]}
    table = pclient.post("/api/tables", json=body).json()["table"]
    assert state(support, pclient, table)["move_number"] == 0  # the bot does not start alone
    support.use(pclient, ben)
    assert pclient.post(f"/api/tables/{table}/join", json={"seat": 1}).json()["error"] == "seat_taken"
    assert pclient.post(f"/api/tables/{table}/join", json={"seat": 2}).status_code == 200


def test_guest_turns_the_seat_into_an_account(pclient, support):
    data = support.create_table(pclient)  # a private table created by a guest
    table, token = data["table"], data["tokens"][1]
    ben = support.register(pclient, "Ben")
    support.use(pclient, ben)
    claimed = pclient.post(f"/api/tables/{table}/claim", headers=support.bearer(token))
    assert claimed.status_code == 200 and claimed.json()["seat"] == 1
    me = pclient.get("/api/me").json()
    assert [(t["table"], t["seat"]) for t in me["tables"]] == [(table, 1)]
    assert state(support, pclient, table, ben)["seat"] == 1  # from any device: the account opens the seat
    support.use(pclient, None)  # the old link no longer opens it
    old = pclient.get(f"/api/tables/{table}", headers=support.bearer(token))
    assert old.status_code == 401 and old.json()["error"] == "bad_token"
    # claiming needs an account and a valid token
    cal = support.register(pclient, "Cal")
    support.use(pclient, cal)
    assert pclient.post(f"/api/tables/{table}/claim", headers=support.bearer(token)).status_code == 401
    assert pclient.post(f"/api/tables/{table}/claim").status_code == 401
    support.use(pclient, None)
    assert pclient.post(f"/api/tables/{table}/claim",
                        headers=support.bearer(data["tokens"][0])).status_code == 401


def test_creator_reissues_an_invite_link(pclient, support):
    ana, ben = support.register(pclient, "Ana"), support.register(pclient, "Ben")
    support.use(pclient, ana)
    created = pclient.post("/api/tables", json={"game": "toy", "players": 2}).json()
    table, old = created["table"], created["seats"][1]["token"]
    support.use(pclient, ben)
    refused = pclient.post(f"/api/tables/{table}/seats/1/invite")
    assert refused.status_code == 403 and refused.json()["error"] == "not_creator"
    assert state(support, pclient, table, token=old)["seat"] == 1
    support.use(pclient, ana)
    fresh = pclient.post(f"/api/tables/{table}/seats/1/invite").json()
    assert fresh["invite"] == f"/table/{table}#token={fresh['token']}"
    assert state(support, pclient, table, token=fresh["token"])["seat"] == 1
    support.use(pclient, None)
    assert pclient.get(f"/api/tables/{table}", headers=support.bearer(old)).status_code == 401
    support.use(pclient, ana)
    assert pclient.post(f"/api/tables/{table}/seats/5/invite").status_code == 422


def test_open_tables_name_their_options_in_the_games_words(pclient, support):
    """Issue 23.12: the lobby shows "Neutral workers (2-3 players): one per revealed tile
    only", not "dummy_placement=single"."""
    support.use(pclient, support.register(pclient, "Ana"))
    body = {"game": "tzolkin", "players": 2, "seed": 5, "public": True,
            "options": {"dummy_placement": "single"}}
    assert pclient.post("/api/tables", json=body).status_code == 201
    entry = pclient.get("/api/tables?open=1").json()["tables"][0]
    labels = {o["name"]: o for o in entry["option_labels"]}
    assert labels["dummy_placement"] == {"name": "dummy_placement", "default": False,
                                         "label": "Neutral workers (2-3 players)",
                                         "choice": "one per revealed tile only"}
    assert labels["jungle_tiles"]["default"] is True
    assert labels["jungle_tiles"]["choice"] == "as many as players"


def test_the_lobby_is_told_at_once_when_a_table_of_its_account_changes(live, support):
    """Issue 23.8: GET /api/me/events pushes ``event: tables`` on each change of one of the
    account's tables (here: the other player joins, then moves), so "your turn" follows."""
    import httpx

    with httpx.Client(base_url=live.url, timeout=10) as ana, \
            httpx.Client(base_url=live.url, timeout=10) as ben:
        support.register(ana, "Ana")
        support.register(ben, "Ben")
        table = ana.post("/api/tables", json={"game": "toy", "players": 2, "seed": 5,
                                              "public": True}).json()["table"]
        with ana.stream("GET", "/api/me/events") as events:
            assert events.status_code == 200
            assert events.headers["content-type"].startswith("text/event-stream")
            lines = events.iter_lines()
            assert ben.post(f"/api/tables/{table}/join", json={"seat": 1}).status_code == 200
            assert support.next_event(lines) == ("tables", {"table": table})
            state = ben.get(f"/api/tables/{table}").json()
            mover = ana if state["current_player"] == 0 else ben
            played = mover.post(f"/api/tables/{table}/moves",
                                json={"move_number": state["move_number"], "action_id": 0})
            assert played.status_code == 200
            assert support.next_event(lines) == ("tables", {"table": table})
        ana.cookies.clear()
        assert ana.get("/api/me/events").status_code == 401


@pytest.mark.postgres
@pytest.mark.skipif(not os.environ.get("DATABASE_URL"), reason="DATABASE_URL is not set (no PostgreSQL)")
def test_the_lobby_hears_of_a_move_made_through_another_instance(support):
    """Two instances on one PostgreSQL database: Ana's lobby follows instance one, Ben
    moves through instance two; the move reaches Ana's stream (followed, then pushed)."""
    import uuid

    import httpx

    from mayagames.server import create_app
    from mayagames.server.db import Database
    from mayagames.server.limits import ServerLimits

    schema = f"test_{uuid.uuid4().hex[:12]}"
    try:
        apps = [create_app(db=Database(os.environ["DATABASE_URL"], schema=schema),
                           list_test_games=True, fast_password_hashes=True,
                           limits=ServerLimits().without_rate_limits()) for _ in range(2)]
        with support.LiveServer(apps[0]) as one, support.LiveServer(apps[1]) as two, \
                httpx.Client(base_url=one.url, timeout=10) as ana, \
                httpx.Client(base_url=two.url, timeout=10) as ben:
            support.register(ana, "Ana")
            support.register(ben, "Ben")
            table = ana.post("/api/tables", json={"game": "toy", "players": 2,
                                                  "public": True}).json()["table"]
            assert ben.post(f"/api/tables/{table}/join", json={"seat": 1}).status_code == 200
            assert [t["table"] for t in ana.get("/api/me").json()["tables"]] == [table]
            with ana.stream("GET", "/api/me/events") as events:
                lines = events.iter_lines()
                state = ben.get(f"/api/tables/{table}").json()
                if state["current_player"] == 0:  # Ana moves (instance one), then Ben's turn
                    ana.post(f"/api/tables/{table}/moves",
                             json={"move_number": state["move_number"], "action_id": 0})
                    assert support.next_event(lines) == ("tables", {"table": table})
                    state = ben.get(f"/api/tables/{table}").json()
                while state["current_player"] == 1:
                    played = ben.post(f"/api/tables/{table}/moves",
                                      json={"move_number": state["move_number"], "action_id": 0})
                    assert played.status_code == 200, played.text
                    assert support.next_event(lines) == ("tables", {"table": table})
                    state = ben.get(f"/api/tables/{table}").json()
    finally:
        cleanup = Database(os.environ["DATABASE_URL"], schema=schema)
        cleanup.drop_schema()
        cleanup.dispose()

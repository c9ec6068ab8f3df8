"""Quick play (issue 23.16): "Play now" pairs waiting accounts by rating through a queue in
the database (so two instances pair their players), and offers the bot level of the
nearest rating after the wait the player chose. Refusals are clear and change nothing."""

from __future__ import annotations

import os

import pytest

from mayagames.server.playerstore import QuickWait
from mayagames.server.ratings import record_game


def enter(client, support, session, **body):
    support.use(client, session)
    response = client.post("/api/quick", json={"game": "toy", **body})
    assert response.status_code == 200, response.text
    return response.json()


def test_two_waiting_players_are_paired_at_a_rated_table_of_their_accounts(pclient, support):
    ana, ben = support.register(pclient, "Ana"), support.register(pclient, "Ben")
    waiting = enter(pclient, support, ana, bot_after=30)
    assert waiting["waiting"] is True and waiting["table"] is None and waiting["offer_bot"] is False
    assert enter(pclient, support, ana, bot_after=30)["waiting"] is True  # again: one wait
    paired = enter(pclient, support, ben)
    table = paired["table"]
    assert paired["waiting"] is False and table
    support.use(pclient, ana)
    assert pclient.get("/api/quick").json()["table"] == table  # Ana's lobby hears of it
    assert pclient.get("/api/quick").json() == {"waiting": False, "table": None}
    state = pclient.get(f"/api/tables/{table}").json()
    assert state["lobby"]["rated"] is True and state["lobby"]["public"] is False
    assert sorted(p["account"] for p in state["players"]) == ["Ana", "Ben"]
    assert state["seat"] is not None  # Ana's account holds a seat: no invite link needed
    support.use(pclient, ben)
    assert [t["table"] for t in pclient.get("/api/me").json()["tables"]] == [table]
    assert pclient.get("/api/tables?open=1").json()["tables"] == []  # not in the open lobby


def test_pairing_takes_the_nearest_rating(pclient, support):
    names = ["Carl", "Dan", "Eve"]
    sessions = {n: support.register(pclient, n) for n in names}
    ids = {}
    for n in names:
        support.use(pclient, sessions[n])
        ids[n] = pclient.get("/api/me").json()["account"]["id"]
    store = pclient.app.state.players.store
    for _ in range(4):  # Carl beats the hard bot, Dan loses to the easy one
        record_game(store, "toy", None, [f"account:{ids['Carl']}", "bot:hard"], ["Carl", "hard"],
                    [1, 2], 0.0)
        record_game(store, "toy", None, [f"account:{ids['Dan']}", "bot:easy"], ["Dan", "easy"],
                    [2, 1], 0.0)
    rating = {r["name"]: r["rating"] for r in pclient.get("/api/ratings/toy").json()["ratings"]}
    rating.setdefault("Eve", 0.0)
    for n in ("Carl", "Dan"):  # both wait (put in the queue as if by two instances at once)
        store.quick_enter(QuickWait(ids[n], n, "toy", "untimed", rating[n], 0.0, None, None))
    nearest = min(("Carl", "Dan"), key=lambda n: abs(rating[n] - rating["Eve"]))
    assert rating["Carl"] != rating["Dan"]
    table = enter(pclient, support, sessions["Eve"])["table"]
    state = pclient.get(f"/api/tables/{table}").json()
    assert sorted(p["account"] for p in state["players"]) == sorted(["Eve", nearest])


def test_players_of_other_games_or_speeds_wait_on(pclient, support):
    ana, ben = support.register(pclient, "Ana"), support.register(pclient, "Ben")
    enter(pclient, support, ana, speed="realtime:5+0")
    assert enter(pclient, support, ben)["waiting"] is True
    assert enter(pclient, support, ana, game="tally")["waiting"] is True


def test_a_bot_of_the_nearest_rating_is_offered_after_the_chosen_wait(pclient, support,
                                                                      fake_clock):
    ana = support.register(pclient, "Ana")
    store = pclient.app.state.players.store
    for _ in range(3):
        record_game(store, "toy", None, ["bot:hard", "bot:easy"], ["hard", "easy"], [1, 2], 0.0)
    enter(pclient, support, ana, bot_after=30)
    early = pclient.post("/api/quick/bot")
    assert early.status_code == 409 and early.json()["error"] == "no_bot_yet"
    fake_clock.advance(31)
    status = pclient.get("/api/quick").json()
    assert status["offer_bot"] is True and status["waiting"] is True
    board = {r["name"]: r["rating"] for r in pclient.get("/api/ratings/toy").json()["ratings"]}
    board.setdefault("medium", 0.0)
    assert status["bot"]["level"] == min(("easy", "medium", "hard"), key=lambda lv: abs(board[lv]))
    game = pclient.post("/api/quick/bot").json()
    state = pclient.get(f"/api/tables/{game['table']}").json()
    assert state["lobby"]["rated"] is True
    assert sorted(s["agent"] for s in state["seats"]) == sorted(["human", status["bot"]["level"]])
    assert pclient.get("/api/quick").json() == {"waiting": False, "table": None}


def test_quick_play_refusals_change_nothing(pclient, support):
    support.use(pclient, None)
    assert pclient.post("/api/quick", json={"game": "toy"}).status_code == 401
    ana = support.register(pclient, "Ana")
    support.use(pclient, ana)
    for body, code in (({"game": "nope"}, 404), ({"game": "toy", "bot_after": 1}, 422),
                       ({"game": "toy", "speed": "fast"}, 422), ({"game": "toy", "x": 1}, 422)):
        response = pclient.post("/api/quick", json=body)
        assert response.status_code == code, (body, response.text)
    assert pclient.get("/api/quick").json() == {"waiting": False, "table": None}
    assert pclient.post("/api/quick/bot").status_code == 409
    enter(pclient, support, ana, bot_after=None)
    assert pclient.delete("/api/quick").json() == {"waiting": False, "table": None}


@pytest.mark.postgres
@pytest.mark.skipif(not os.environ.get("DATABASE_URL"), reason="DATABASE_URL is not set (no PostgreSQL)")
def test_players_of_two_instances_meet(support, fake_clock):
    """The queue is in the database: one instance's waiting player is paired by another."""
    import uuid

    from fastapi.testclient import TestClient

    from mayagames.server import create_app
    from mayagames.server.db import Database
    from mayagames.server.limits import ServerLimits

    schema = f"test_{uuid.uuid4().hex[:12]}"
    dbs = [Database(os.environ["DATABASE_URL"], schema=schema) for _ in range(2)]
    try:
        apps = [create_app(db=db, list_test_games=True, time_source=fake_clock,
                           fast_password_hashes=True,
                           limits=ServerLimits().without_rate_limits()) for db in dbs]
        with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
            ana, ben = support.register(one, "Ana"), support.register(two, "Ben")
            assert enter(one, support, ana)["waiting"] is True
            table = enter(two, support, ben)["table"]
            support.use(one, ana)
            assert one.get("/api/quick").json()["table"] == table
            assert one.get(f"/api/tables/{table}").json()["seat"] is not None
    finally:
        cleanup = Database(os.environ["DATABASE_URL"], schema=schema)
        cleanup.drop_schema()
        cleanup.dispose()

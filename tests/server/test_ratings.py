"""The rating ladder: openskill updates checked against the Plackett-Luce formulas computed
by hand, finishing ranks, rated games between accounts and against bot levels, the
leaderboard and profile routes, and bot-vs-bot games recorded by ``ratings seed-bots``."""

from __future__ import annotations

import math

import pytest

from mayagames.server.playerstore import Rating
from mayagames.server.ratings import finishing_ranks, rate

MU, SIGMA, BETA, TAU = 25.0, 25.0 / 3, 25.0 / 6, 25.0 / 300  # openskill's defaults


def hand_two_player(winner: tuple[float, float], loser: tuple[float, float]):
    """Weng & Lin's Plackett-Luce update for one winner and one loser, written out."""
    (mw, sw), (ml, sl) = winner, loser
    vw, vl = sw ** 2 + TAU ** 2, sl ** 2 + TAU ** 2  # the dynamics factor tau widens both first
    c = math.sqrt(vw + vl + 2 * BETA ** 2)
    ew, el = math.exp(mw / c), math.exp(ml / c)
    pw, pl = ew / (ew + el), el / (ew + el)
    new_w = (mw + vw / c * (1 - pw), math.sqrt(vw) * math.sqrt(1 - math.sqrt(vw) / c * vw / c ** 2 * pw * (1 - pw)))
    new_l = (ml - vl / c * pl, math.sqrt(vl) * math.sqrt(1 - math.sqrt(vl) / c * vl / c ** 2 * pl * (1 - pl)))
    return new_w, new_l


def test_rate_matches_the_hand_computed_update():
    (mw, sw), (ml, sl) = hand_two_player((MU, SIGMA), (MU, SIGMA))
    assert mw == pytest.approx(27.6354, abs=1e-4) and sw == pytest.approx(8.0659, abs=1e-4)
    a, b = rate([Rating("a", "A", MU, SIGMA, 0), Rating("b", "B", MU, SIGMA, 0)], [1, 2])
    assert (a.mu, a.sigma, b.mu, b.sigma) == pytest.approx((mw, sw, ml, sl), abs=1e-9)
    assert a.games == b.games == 1
    # unequal players: the favourite gains less for a win than the underdog would
    fav, dog = (30.0, 4.0), (20.0, 7.0)
    (fw, fs), (dl, ds) = hand_two_player(fav, dog)
    x, y = rate([Rating("x", "X", *fav, 3), Rating("y", "Y", *dog, 5)], [1, 2])
    assert (x.mu, x.sigma, y.mu, y.sigma) == pytest.approx((fw, fs, dl, ds), abs=1e-9)
    (uw, _), _ = hand_two_player(dog, fav)
    assert uw - dog[0] > fw - fav[0]


def test_finishing_ranks():
    assert finishing_ranks([10, 30, 20], [1]) == [3, 1, 2]
    assert finishing_ranks([10, 30, 30], [1, 2]) == [3, 1, 1]
    assert finishing_ranks([30, 30, 5], [0]) == [1, 2, 3]  # a tie broken by the rules
    assert finishing_ranks([50, 30, 5], [0], last=[0]) == [3, 1, 2]  # timed out: last


def test_a_rated_game_updates_both_accounts(pclient, support):
    ana, ben = support.register(pclient, "Ana"), support.register(pclient, "Ben")
    support.use(pclient, ana)
    table = pclient.post("/api/tables", json={"game": "toy", "players": 2, "seed": 4, "public": True,
                                              "rated": True}).json()["table"]
    support.use(pclient, ben)
    assert pclient.post(f"/api/tables/{table}/join", json={"seat": 1}).status_code == 200
    final = support.play_out(pclient, table, {0: ana, 1: ben})
    board = pclient.get("/api/ratings/toy").json()["ratings"]
    assert len(board) == 2 and all(r["games"] == 1 for r in board)
    (mw, sw), (ml, sl) = hand_two_player((MU, SIGMA), (MU, SIGMA))
    if len(final["winners"]) == 1:
        winner = ["Ana", "Ben"][final["winners"][0]]
        assert board[0]["name"] == winner and board[0]["place"] == 1
        assert (board[0]["mu"], board[0]["sigma"]) == pytest.approx((mw, sw), abs=1e-3)
        assert (board[1]["mu"], board[1]["sigma"]) == pytest.approx((ml, sl), abs=1e-3)
        assert board[0]["rating"] == pytest.approx(mw - 3 * sw, abs=1e-2)
    profile = pclient.get("/api/players/ana").json()
    assert profile["name"] == "Ana" and profile["ratings"][0]["game"] == "toy"
    assert [h["table"] for h in profile["history"]] == [table]
    assert [t["table"] for t in profile["tables"]] == [table]
    state = pclient.get(f"/api/tables/{table}").json()
    assert set(state["ratings"]) == {"0", "1"} or set(state["ratings"]) == {0, 1}


def test_bot_levels_are_on_the_same_ladder(pclient, support):
    ana = support.register(pclient, "Ana")
    support.use(pclient, ana)
    body = {"game": "toy", "players": 2, "seed": 8, "rated": True,
            "seats": [{"agent": "human"}, {"agent": "easy"}]}
    table = pclient.post("/api/tables", json=body).json()["table"]
    support.play_out(pclient, table, {0: ana})
    board = {r["player"]: r for r in pclient.get("/api/ratings/toy").json()["ratings"]}
    assert board["bot:easy"]["bot"] and board["bot:easy"]["games"] == 1
    assert board["bot:easy"]["name"] == "easy"
    assert pclient.get("/api/players/easy").json()["bot"] is True


def test_unrated_cases(pclient, support):
    ana = support.register(pclient, "Ana")
    support.use(pclient, ana)
    refused = pclient.post("/api/tables", json={"game": "toy", "players": 2, "rated": True,
                                                "seats": [{"agent": "human"}, {"agent": "random"}]})
    assert refused.status_code == 422 and refused.json()["error"] == "unrated_bot"
    pclient.cookies.clear()
    assert pclient.post("/api/tables", json={"game": "toy", "players": 2, "rated": True}).status_code == 401
    # a rated table whose invited guest never logged in is not rated
    support.use(pclient, ana)
    created = pclient.post("/api/tables", json={"game": "toy", "players": 2, "seed": 2, "rated": True}).json()
    guest = created["seats"][1]["token"]
    table = created["table"]
    for _ in range(200):
        pclient.cookies.clear()
        state = pclient.get(f"/api/tables/{table}").json()
        if state["terminal"]:
            break
        if state["current_player"] == 0:
            support.use(pclient, ana)
            headers = {}
        else:
            headers = support.bearer(guest)
        pclient.post(f"/api/tables/{table}/moves", json={"move_number": state["move_number"],
                                                         "action_id": 0}, headers=headers)
    assert pclient.get("/api/ratings/toy").json()["ratings"] == []
    assert pclient.get("/api/ratings/chess").status_code == 404
    assert pclient.get("/api/players/nobody").status_code == 404


def test_seed_bots_records_bot_games(tmp_path):
    from typer.testing import CliRunner

    from mayagames.cli import app

    url = f"sqlite:///{tmp_path / 'ladder.db'}"
    result = CliRunner().invoke(app, ["ratings", "seed-bots", "toy", "--games", "4",
                                      "--levels", "easy,medium", "--database-url", url])
    assert result.exit_code == 0, result.output
    assert "easy" in result.output and "medium" in result.output
    from mayagames.server.db import Database
    from mayagames.server.playerstore import PlayerStore

    db = Database(url)
    board = {r.player: r for r in PlayerStore(db).leaderboard("toy", 10)}
    db.dispose()
    assert set(board) == {"bot:easy", "bot:medium"}
    assert board["bot:easy"].games == board["bot:medium"].games == 4
    bad = CliRunner().invoke(app, ["ratings", "seed-bots", "toy", "--levels", "easy,random",
                                   "--database-url", url])
    assert bad.exit_code == 2


@pytest.mark.postgres
@pytest.mark.skipif(not __import__("os").environ.get("DATABASE_URL"),
                    reason="DATABASE_URL is not set (no PostgreSQL)")
def test_accounts_lobby_clock_and_ladder_on_postgresql(support, fake_clock):
    """The players' tables on PostgreSQL: accounts, a public rated timed table, the ladder."""
    import os
    import uuid

    from fastapi.testclient import TestClient

    from mayagames.server import create_app
    from mayagames.server.db import Database
    from mayagames.server.limits import ServerLimits

    schema = f"test_{uuid.uuid4().hex[:12]}"
    db = Database(os.environ["DATABASE_URL"], schema=schema)
    try:
        app = create_app(db=db, list_test_games=True, time_source=fake_clock,
                         fast_password_hashes=True, clock_tick=0.02,
                         limits=ServerLimits(allow_fixed_seed=True).without_rate_limits())
        with TestClient(app) as client:
            ana, ben = support.register(client, "Ana"), support.register(client, "Ben")
            support.use(client, ana)
            table = client.post("/api/tables", json={"game": "toy", "players": 2, "seed": 4,
                                                     "public": True, "rated": True,
                                                     "speed": "realtime:5+0"}).json()["table"]
            support.use(client, ben)
            assert client.get("/api/tables?open=1").json()["tables"][0]["table"] == table
            assert client.post(f"/api/tables/{table}/join", json={"seat": 1}).status_code == 200
            assert client.get("/api/me").json()["tables"][0]["clock"]["kind"] == "realtime"
            support.play_out(client, table, {0: ana, 1: ben})
            board = client.get("/api/ratings/toy").json()["ratings"]
            assert sorted(r["name"] for r in board) == ["Ana", "Ben"]
    finally:
        cleanup = Database(os.environ["DATABASE_URL"], schema=schema)
        cleanup.drop_schema()
        cleanup.dispose()


@pytest.mark.postgres
@pytest.mark.skipif(not __import__("os").environ.get("DATABASE_URL"),
                    reason="DATABASE_URL is not set (no PostgreSQL)")
def test_two_games_ending_at_once_lose_no_update(monkeypatch):
    """Two rated games of one player end at the same moment (two instances): the second
    update waits for the first (its rows are locked), so both count. The update is slowed
    so that, without the lock, both would read the ratings before either wrote."""
    import os
    import threading
    import time
    import uuid

    from mayagames.server import ratings
    from mayagames.server.db import Database
    from mayagames.server.playerstore import PlayerStore

    slow_rate = ratings.rate

    def slowly(players, ranks):
        time.sleep(0.3)
        return slow_rate(players, ranks)

    monkeypatch.setattr(ratings, "rate", slowly)
    schema = f"test_{uuid.uuid4().hex[:12]}"
    db = Database(os.environ["DATABASE_URL"], schema=schema)
    try:
        db.create_schema()
        store = PlayerStore(db)
        start = threading.Barrier(2)

        def finish(opponent):
            start.wait()
            ratings.record_game(store, "toy", None, ["account:1", opponent], ["Ana", opponent],
                                [1, 2], 1.0)

        threads = [threading.Thread(target=finish, args=(f"account:{n}",)) for n in (2, 3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        ana = store.ratings("toy", ["account:1"])["account:1"]
        assert ana.games == 2
        assert len(store.history("account:1", 10)) == 2
        # the result of the two games one after the other (both won against new players)
        once = rate([Rating("account:1", "Ana", MU, SIGMA, 0), Rating("b", "b", MU, SIGMA, 0)], [1, 2])[0]
        twice = rate([once, Rating("c", "c", MU, SIGMA, 0)], [1, 2])[0]
        assert (ana.mu, ana.sigma) == pytest.approx((twice.mu, twice.sigma), abs=1e-9)
    finally:
        db.drop_schema()
        db.dispose()

"""Attacks on the account surface (issue 26, items 4-7): rating abuse through time-outs,
damaged rows of the players' tables, cheap abuse (sign-ups, password guesses, chat floods,
hints that starve the bots, profiles that replay tables) and what is counted per instance.
Each test performs the attack and checks the answer and that nothing changed."""

from __future__ import annotations

import time
from typing import Any

import pytest

from mayagames.server.limits import Rate, ServerLimits


def wait_for(client: Any, table: str, predicate: Any, timeout: float = 15.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        client.cookies.clear()
        data = client.get(f"/api/tables/{table}").json()
        if predicate(data):
            return data
        time.sleep(0.03)
    raise AssertionError(f"not reached: {data}")


def move_as(client: Any, support: Any, session: str, table: str, text: str) -> None:
    support.use(client, session)
    number = client.get(f"/api/tables/{table}").json()["move_number"]
    answer = client.post(f"/api/tables/{table}/moves", json={"move_number": number, "action": text})
    assert answer.status_code == 200, answer.text


def rated_pair(client: Any, support: Any, speed: str | None = "realtime:1+0",
               zombie: str = "medium") -> tuple[str, str, str]:
    """Ana creates a public rated tally table, Ben joins seat 1: (table, ana, ben)."""
    ana, ben = support.register(client, "Ana"), support.register(client, "Ben")
    support.use(client, ana)
    body: dict[str, Any] = {"game": "tally", "players": 2, "seed": 3, "public": True,
                            "rated": True, "zombie": zombie}
    if speed is not None:
        body["speed"] = speed
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    table = created.json()["table"]
    support.use(client, ben)
    assert client.post(f"/api/tables/{table}/join", json={"seat": 1}).status_code == 200
    return table, ana, ben


def ladder(client: Any) -> dict[str, dict[str, Any]]:
    client.cookies.clear()
    return {r["name"]: r for r in client.get("/api/ratings/tally").json()["ratings"]}


# --- 4. rating abuse through time-outs ----------------------------------------------------
def test_a_timed_out_seat_loses_whatever_its_zombie_does(pclient, support, fake_clock):
    """Ben plays his first turn, then walks away: the zombie plays on (and outscores Ana,
    who only adds 1s), yet Ben ranks last and the bot level earns nothing."""
    table, ana, ben = rated_pair(pclient, support)
    move_as(pclient, support, ana, table, "add 1")
    move_as(pclient, support, ana, table, "end")
    move_as(pclient, support, ben, table, "add 1")
    move_as(pclient, support, ben, table, "end")
    move_as(pclient, support, ana, table, "add 1")
    move_as(pclient, support, ana, table, "end")
    fake_clock.advance(61)  # Ben's second turn: he is away
    wait_for(pclient, table, lambda d: d["players"][1]["zombie"])
    final = wait_for(pclient, table, lambda d: d["terminal"])
    assert final["scores"][1] > final["scores"][0]  # the zombie outscored Ana
    board = ladder(pclient)
    assert set(board) == {"Ana", "Ben"}  # the zombie's level is not rated by this game
    assert board["Ana"]["rating"] > board["Ben"]["rating"]
    history = {h["table"]: h["rank"] for h in pclient.get("/api/players/Ben").json()["history"]}
    assert history == {table: 2}
    assert pclient.get("/api/players/Ana").json()["history"][0]["rank"] == 1


def test_a_game_where_a_seat_never_moved_is_not_rated(pclient, support, fake_clock):
    """Two accounts of one person: Ben never moves, his zombie loses on time for him and
    Ana would farm points. Such a game is not rated at all."""
    table, ana, ben = rated_pair(pclient, support)
    move_as(pclient, support, ana, table, "add 2")
    move_as(pclient, support, ana, table, "end")
    fake_clock.advance(61)
    wait_for(pclient, table, lambda d: d["players"][1]["zombie"])
    for _ in range(4):
        state = wait_for(pclient, table, lambda d: d["terminal"] or d["current_player"] == 0)
        if state["terminal"]:
            break
        move_as(pclient, support, ana, table, "end" if state["view"]["steps"] else "add 2")
        move_as(pclient, support, ana, table, "end")
    wait_for(pclient, table, lambda d: d["terminal"])
    assert ladder(pclient) == {}
    chat = pclient.get(f"/api/tables/{table}/chat").json()["chat"]
    assert any(line["system"] and "not rated" in line["text"] for line in chat)


def test_rated_tables_always_have_a_clock(pclient, support):
    ana = support.register(pclient, "Ana")
    support.use(pclient, ana)
    for body in ({}, {"speed": "untimed"}):
        created = pclient.post("/api/tables", json={"game": "tally", "players": 2, "rated": True,
                                                    **body})
        assert created.status_code == 201, created.text
        assert created.json()["speed"] != "untimed"
        table = created.json()["table"]
        state = pclient.get(f"/api/tables/{table}").json()
        assert state["lobby"]["speed"] != "untimed" and state["clock"] is not None
    unrated = pclient.post("/api/tables", json={"game": "tally", "players": 2}).json()
    assert unrated["speed"] == "untimed"


# --- 5. damaged rows of the players' tables, reviews and hints -------------------------------
# (table kind, SQL with :id, what the table's route answers then). Kinds: "bot" a playing
# table with a bot seat (loaded at start-up), "moved" one with a stored move, "finished" a
# finished one. Expected: "broken" (500 broken_table naming the table), or "ok" (it plays on).
META_DAMAGE = {
    "clock not JSON": ("bot", "UPDATE table_meta SET clock = '{x' WHERE table_id = :id", "broken"),
    "clock not a clock": ("bot", "UPDATE table_meta SET clock = '{\"remaining\": \"x\"}' "
                          "WHERE table_id = :id", "broken"),
    "clock deadline text": ("bot", "UPDATE table_meta SET clock = '{\"remaining\": [60, 60], "
                            "\"running\": 0, \"since\": 1, \"deadline\": \"soon\"}' "
                            "WHERE table_id = :id", "broken"),
    "zombie level unknown": ("bot", "UPDATE table_meta SET zombie = 'godlike', zombies = '[0]' "
                             "WHERE table_id = :id", "ok"),
    "zombies not JSON": ("bot", "UPDATE table_meta SET zombies = '{x' WHERE table_id = :id",
                         "broken"),
    "zombies not seats": ("bot", "UPDATE table_meta SET zombies = '[\"a\"]' WHERE table_id = :id",
                          "broken"),
    "speed unknown": ("bot", "UPDATE table_meta SET speed = 'warp' WHERE table_id = :id", "broken"),
    "seat owner out of range": ("bot", "UPDATE seat_owners SET seat = 99 WHERE table_id = :id",
                                "broken"),
    "told not JSON": ("moved", "UPDATE game_moves SET told = '{x' WHERE table_id = :id", "ok"),
    "told not an entry": ("moved", "UPDATE game_moves SET told = '[1, 2]' WHERE table_id = :id",
                          "ok"),
    "chat time text": ("moved", "INSERT INTO table_chat (table_id, author, seat, system, text, at) "
                       "VALUES (:id, 'x', NULL, 0, 'hello', 'noon')", "ok"),
}


def sqlite_path(db_url: str) -> str:
    return db_url.removeprefix("sqlite:///")


def damage(db_url: str, sql: str, table: str) -> None:
    import sqlite3

    with sqlite3.connect(sqlite_path(db_url)) as conn:
        conn.execute(sql.replace(":id", "?"), (table,) * sql.count(":id"))


def test_damaged_settings_rows_break_one_table_and_the_server_starts(players_app, support, db_url,
                                                                     caplog):
    """Each damaged row of table_meta, seat_owners, game_moves.told and table_chat, on
    tables with a bot seat (resumed at start-up): the server starts, the table is either
    set apart with a clear reason (500 broken_table naming it) or plays on, and every other
    table works."""
    import logging

    from fastapi.testclient import TestClient

    with TestClient(players_app()) as c:
        ana = support.register(c, "Ana")
        support.use(c, ana)

        def bot_table() -> str:
            body = {"game": "tally", "players": 2, "seed": 1, "speed": "realtime:5+0",
                    "seats": [{"agent": "human"}, {"agent": "random"}]}
            answer = c.post("/api/tables", json=body)
            assert answer.status_code == 201, answer.text
            return answer.json()["table"]

        tables = {}
        for name, (kind, _, _) in META_DAMAGE.items():
            tables[name] = bot_table()
            if kind == "moved":
                move_as(c, support, ana, tables[name], "add 1")
        good = bot_table()
    for name, (_, sql, _) in META_DAMAGE.items():
        damage(db_url, sql, tables[name])
    caplog.set_level(logging.ERROR, logger="mayagames.server")
    with TestClient(players_app()) as c:  # the server starts
        assert c.get("/api/health").json()["ok"] is True
        for name, (_, _, expected) in META_DAMAGE.items():
            table = tables[name]
            answer = c.get(f"/api/tables/{table}")
            if expected == "broken":
                body = answer.json()
                assert answer.status_code == 500 and body["error"] == "broken_table", (name, body)
                assert table in body["message"], (name, body)
                assert any(table in r.getMessage() for r in caplog.records), name
            else:
                assert answer.status_code == 200, (name, answer.text)
            support.use(c, ana)  # the seat's account reads the (private) chat
            chat = c.get(f"/api/tables/{table}/chat")
            assert chat.status_code == 200 or chat.json()["error"] == "broken_table", name
            c.cookies.clear()
        zombie = wait_for(c, tables["zombie level unknown"], lambda d: d["current_player"] == 0
                          and d["move_number"] > 0 or d["terminal"])
        assert zombie["lobby"]["zombie"] == "medium" and zombie["players"][0]["zombie"]
        told = c.get(f"/api/tables/{tables['told not JSON']}").json()
        assert told["log"][0]["text"]  # told anew
        support.use(c, ana)
        assert c.get(f"/api/tables/{tables['chat time text']}/chat").status_code == 200
        me = c.get("/api/me")
        assert me.status_code == 200, me.text
        listed = {t["table"] for t in me.json()["tables"]}
        assert good in listed and tables["told not JSON"] in listed
        assert tables["clock not JSON"] not in listed  # damaged settings: opened, it says why
        move_as(c, support, ana, good, "add 1")  # every other table works
        assert c.get("/api/tables?open=1").status_code == 200


def test_damaged_account_rows_give_clear_answers(players_app, support, db_url):
    """A session whose expiry is not a number, ratings and history points whose numbers
    are not, a login failure whose time is not: clear answers, never a 500."""
    from fastapi.testclient import TestClient

    with TestClient(players_app()) as c:
        ana = support.register(c, "Ana")
        ben = support.register(c, "Ben")
        support.register(c, "Cyd")
    damage(db_url, "UPDATE account_sessions SET expires_at = 'soon' WHERE account_id = "
           "(SELECT id FROM accounts WHERE name = :id)", "Ana")
    damage(db_url, "INSERT INTO ratings (game, player, name, mu, sigma, games, updated_at) "
           "VALUES ('tally', 'account:2', :id, 'x', 'y', 1, 0)", "Ben")
    damage(db_url, "INSERT INTO rating_history (game, player, table_id, rank, players, mu, sigma, "
           "at) VALUES ('tally', 'account:2', :id, 1, 2, 'x', 'y', 'z')", "nowhere")
    damage(db_url, "INSERT INTO login_attempts (key, since, attempts) VALUES (:id, 'later', 1)", "k")
    damage(db_url, "UPDATE accounts SET password_hash = 'not argon2', created_at = 'x' "
           "WHERE name = :id", "Cyd")
    with TestClient(players_app()) as c:
        support.use(c, ana)
        answer = c.get("/api/me")
        assert answer.status_code == 401 and answer.json()["error"] in ("session_expired",
                                                                        "bad_session")
        support.use(c, ben)
        assert c.get("/api/me").status_code == 200
        c.cookies.clear()
        assert c.get("/api/ratings/tally").status_code == 200
        profile = c.get("/api/players/Ben")
        assert profile.status_code == 200, profile.text
        assert profile.json()["history"] == [] and profile.json()["ratings"] == []
        login = c.post("/api/login", json={"name": "Ben", "password": support.PASSWORD})
        assert login.status_code == 200, login.text
        c.cookies.clear()
        login = c.post("/api/login", json={"name": "Cyd", "password": support.PASSWORD})
        assert login.status_code == 401 and login.json()["error"] == "bad_login", login.text


def test_damaged_review_and_hint_rows_are_computed_again(client, support, db_url):
    """A stored review or hint whose data are not JSON (or not a review): the review is
    asked for again (404 no_review, then POST queues it), the hint computed again."""
    finished = support.create_table(client)
    url = f"/api/tables/{finished['table']}"
    while not (state := client.get(url).json())["terminal"]:
        client.post(f"{url}/moves", headers=support.bearer(finished["tokens"][state["current_player"]]),
                    json={"move_number": state["move_number"], "action_id": 0})
    playing = support.create_table(client)
    stamp = "2026-01-01 00:00:00.000000"
    damage(db_url, "INSERT INTO game_reviews (table_id, status, budget, data, created_at) VALUES "
           f"(:id, 'done', '300i', '{{x', '{stamp}')", finished["table"])
    damage(db_url, "INSERT INTO game_hints (table_id, move_number, seat, level, action, data, "
           f"created_at) VALUES (:id, 0, 0, 'medium', 'x', '{{x', '{stamp}')", playing["table"])
    answer = client.get(f"{url}/review")
    assert answer.status_code == 404 and answer.json()["error"] == "no_review", answer.text
    again = client.post(f"{url}/review")
    assert again.status_code == 200 and again.json()["status"] in ("queued", "running", "done")
    hint = client.post(f"/api/tables/{playing['table']}/hint", json={"level": "medium",
                       "move_number": 0}, headers=support.bearer(playing["tokens"][0]))
    assert hint.status_code == 200, hint.text
    assert hint.json()["action"] != "x"
    for _ in range(1000):  # the review computed again (toy: a moment)
        if client.get(f"{url}/review").json()["status"] == "done":
            break
        time.sleep(0.02)
    assert client.get(f"{url}/review").json()["status"] == "done"
    damage(db_url, "UPDATE game_reviews SET data = '[1]', status = 'done' WHERE table_id = :id",
           finished["table"])
    assert client.get(f"{url}/review").status_code == 404
    # a rematch row that names a table that is not there: a clear 404, not a 500
    damage(db_url, "INSERT INTO game_rematches (table_id, rematch_id, created_at) VALUES "
           f"(:id, 'gone', '{stamp}')", finished["table"])
    rematch = client.post(f"{url}/rematch", headers=support.bearer(finished["tokens"][0]))
    assert rematch.status_code == 404 and rematch.json()["error"] == "no_table", rematch.text


# --- 6. cheap abuse -------------------------------------------------------------------------
def limited(**rates: Any) -> ServerLimits:
    from dataclasses import replace

    return replace(ServerLimits(allow_fixed_seed=True).without_rate_limits(), **rates)


def test_sign_ups_are_limited_per_address(players_app, support):
    """200 sign-ups from one address cost 37 s of hashing: past the limit they are refused
    before any hashing, and nothing is created."""
    from fastapi.testclient import TestClient

    with TestClient(players_app(limits=limited(rate_signups=Rate(3, 3600)))) as c:
        for i in range(3):
            support.register(c, f"user{i}")
        c.cookies.clear()
        refused = c.post("/api/accounts", json={"name": "user9", "password": support.PASSWORD})
        assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
        assert "Retry-After" in refused.headers
        assert c.app.state.players.store.count_accounts() == 3
    with TestClient(players_app()) as c:  # the default limit is on
        assert c.app.state.service.limits.rate_signups is None  # (tests turn rates off)
    assert ServerLimits().rate_signups is not None


def test_wrong_current_passwords_are_throttled(pclient, support):
    """Someone holding a session guesses the password through POST /api/me/password: the
    guesses count as failed logins of the account, so the sixth is refused (429), the
    right one too, and the password is unchanged."""
    ana = support.register(pclient, "Ana")
    support.use(pclient, ana)
    for i in range(5):
        wrong = pclient.post("/api/me/password", json={"old": f"guess number {i}",
                                                       "new": "a brand new secret"})
        assert wrong.status_code == 403 and wrong.json()["error"] == "bad_login"
    right = pclient.post("/api/me/password", json={"old": support.PASSWORD,
                                                   "new": "a brand new secret"})
    assert right.status_code == 429 and right.json()["error"] == "too_many_attempts"
    assert "Retry-After" in right.headers
    pclient.cookies.clear()
    login = pclient.post("/api/login", json={"name": "Ana", "password": "a brand new secret"})
    assert login.status_code in (401, 429)  # unchanged (and the name is throttled anyway)


def test_strangers_cannot_chat_at_a_private_table(pclient, support):
    """Thirty fresh accounts post into someone else's private table: every line refused,
    nothing stored, and a stranger cannot read the table's chat."""
    table = support.create_table(pclient)
    seat = support.bearer(table["tokens"][0])
    pclient.cookies.clear()
    assert pclient.post(f"/api/tables/{table['table']}/chat", json={"text": "ours"},
                        headers=seat).status_code == 201
    for i in range(30):
        support.register(pclient, f"stranger{i}")
        answer = pclient.post(f"/api/tables/{table['table']}/chat", json={"text": "spam"})
        assert answer.status_code == 403 and answer.json()["error"] == "private_chat"
        assert pclient.get(f"/api/tables/{table['table']}/chat").status_code == 403
    pclient.cookies.clear()
    lines = pclient.get(f"/api/tables/{table['table']}/chat", headers=seat).json()["chat"]
    assert [line["text"] for line in lines] == ["ours"]


def test_a_public_tables_chat_has_a_rate_for_all_authors(players_app, support):
    from fastapi.testclient import TestClient

    with TestClient(players_app(limits=limited(rate_chat_table=Rate(5, 10)))) as c:
        ana = support.register(c, "Ana")
        support.use(c, ana)
        table = c.post("/api/tables", json={"game": "toy", "players": 2, "public": True}).json()
        answers = []
        for i in range(8):  # eight accounts, one line each: within each author's own limit
            support.register(c, f"crowd{i}")
            answers.append(c.post(f"/api/tables/{table['table']}/chat", json={"text": f"hi {i}"}))
        assert [a.status_code for a in answers] == [201] * 5 + [429] * 3
        assert answers[-1].json()["error"] == "rate_limited"
        c.cookies.clear()
        assert len(c.get(f"/api/tables/{table['table']}/chat").json()["chat"]) == 5


def test_hints_wait_in_the_analysis_lane_and_never_starve_the_bots(make_app, support,
                                                                     monkeypatch):
    """Six slow hints asked at once on six tables: they are computed one at a time (the
    analysis lane), so one of the two bot threads is always free for the bots, and a bot
    at another table moves meanwhile (before: the hints took both threads at once and
    the bot's decision queued behind all of them)."""
    import threading

    import httpx

    from mayagames.server import reviews

    running, most, done = [0], [0], [0]
    lock = threading.Lock()

    def slow_hint(view, seat, level, budget, seed):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.4)
        with lock:
            running[0] -= 1
            done[0] += 1
        return {"action": str(view.legal_actions()[0]), "margin": 0.0, "win_prob": None,
                "bot": "test"}

    monkeypatch.setattr(reviews, "compute_hint", slow_hint)
    with support.LiveServer(make_app(bot_workers=2)) as live:
        http = httpx.Client(base_url=live.url, timeout=30)
        tables = [support.create_table(http) for _ in range(6)]
        bot_table = support.create_table(http, agents=["human", "random"])
        answers: list[Any] = []

        def ask(table: dict[str, Any]) -> None:
            answers.append(httpx.post(f"{live.url}/api/tables/{table['table']}/hint",
                                      json={"level": "medium", "move_number": 0}, timeout=30,
                                      headers=support.bearer(table["tokens"][0])))

        threads = [threading.Thread(target=ask, args=(t,)) for t in tables]
        for thread in threads:
            thread.start()
        while running[0] == 0:
            time.sleep(0.01)
        support.play_first_moves(http, bot_table, 1)  # the bot answers
        url = f"/api/tables/{bot_table['table']}"
        while http.get(url).json()["move_number"] < 2:
            time.sleep(0.01)
        for thread in threads:
            thread.join(30)
        assert [a.status_code for a in answers] == [200] * 6
        assert most[0] == 1  # never two analysis decisions in the bot pool at once
        assert done[0] == 6


def test_profiles_and_table_lists_come_from_stored_results(players_app, support):
    """Cycling /api/me, /api/players/NAME and the open lobby loaded (replayed) every table
    on the event loop: after a restart they answer the same figures from the stored rows,
    and not one table is loaded."""
    from fastapi.testclient import TestClient

    def figures(tables: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        return sorted((t["table"], t["status"], t["move_number"], t["current_player"],
                       t.get("your_turn"), t["rated"], t["speed"], t["title"],
                       tuple((s["name"], s["account"], s["free"], s["rating"], s["zombie"])
                             for s in t["seats"])) for t in tables)

    with TestClient(players_app()) as c:
        ana, ben = support.register(c, "Ana"), support.register(c, "Ben")
        support.use(c, ana)
        done = c.post("/api/tables", json={"game": "toy", "players": 2, "seed": 4,
                                           "public": True, "rated": True}).json()["table"]
        support.use(c, ben)
        assert c.post(f"/api/tables/{done}/join", json={"seat": 1}).status_code == 200
        support.play_out(c, done, {0: ana, 1: ben})
        support.use(c, ana)
        playing = c.post("/api/tables", json={"game": "tally", "players": 2, "seed": 4,
                                              "public": True}).json()["table"]
        support.use(c, ben)
        assert c.post(f"/api/tables/{playing}/join", json={"seat": 1}).status_code == 200
        move_as(c, support, ana, playing, "add 1")
        move_as(c, support, ana, playing, "end")
        support.use(c, ana)
        c.post("/api/tables", json={"game": "tally", "players": 2, "public": True})
        support.use(c, ana)
        me_ana = c.get("/api/me").json()
        support.use(c, ben)
        me_ben = c.get("/api/me").json()
        c.cookies.clear()
        profile = c.get("/api/players/Ana").json()
        lobby = c.get("/api/tables?open=1").json()["tables"]
    with TestClient(players_app()) as c:
        service = c.app.state.service
        support.use(c, ana)
        again = c.get("/api/me").json()
        assert figures(again["tables"]) == figures(me_ana["tables"])
        assert again["your_turn"] == me_ana["your_turn"] == 0
        support.use(c, ben)
        again = c.get("/api/me").json()
        assert figures(again["tables"]) == figures(me_ben["tables"])
        assert again["your_turn"] == me_ben["your_turn"] == 1
        c.cookies.clear()
        assert figures(c.get("/api/players/Ana").json()["tables"]) == figures(profile["tables"])
        assert figures(c.get("/api/tables?open=1").json()["tables"]) == figures(lobby)
        assert service.rooms == {}  # nothing was loaded, nothing replayed


def test_a_table_stored_before_to_move_is_listed_from_a_replay(players_app, support, db_url):
    from fastapi.testclient import TestClient

    with TestClient(players_app()) as c:
        ana = support.register(c, "Ana")
        support.use(c, ana)
        table = c.post("/api/tables", json={"game": "tally", "players": 2}).json()["table"]
        move_as(c, support, ana, table, "add 1")
        move_as(c, support, ana, table, "end")
    damage(db_url, "UPDATE game_tables SET to_move = NULL WHERE id = :id", table)
    with TestClient(players_app()) as c:
        support.use(c, ana)
        listed = c.get("/api/me").json()["tables"]
        assert [(t["table"], t["current_player"], t["move_number"]) for t in listed] == [(table, 1, 2)]

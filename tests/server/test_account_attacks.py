"""Attacks on the account surface (issue 26, items 1-3; issue 23, item 2), each performed:
cross-site requests riding on a session cookie, hints read by others or served to the
wrong seat, weak passwords and bot names, private tables listed to strangers."""

from __future__ import annotations

from typing import Any

import pytest

from mayagames.server.guard import cross_site_refusal
from mayagames.server.limits import ServerLimits


# --- 2. cross-site requests ---------------------------------------------------------------
def creator_with_invite(client: Any, support: Any, name: str = "Ana") -> tuple[str, str, str]:
    """A logged-in creator of a private 2-seat table: (session, table, seat 1's token)."""
    session = support.register(client, name)
    made = client.post("/api/tables", json={"game": "toy", "players": 2})
    assert made.status_code == 201, made.text
    data = made.json()
    return session, data["table"], data["seats"][1]["token"]


FOREIGN = [{"Origin": "http://127.0.0.1:9999"},                      # another port: same site
           {"Origin": "https://evil.example"},
           {"Origin": "null"},                                        # a sandboxed page
           {"Sec-Fetch-Site": "same-site", "Origin": "http://games.evil.example"},
           {"Sec-Fetch-Site": "cross-site"},
           {"Referer": "https://evil.example/page"}]


@pytest.mark.parametrize("headers", FOREIGN)
def test_state_changing_requests_from_other_origins_are_refused(pclient, support, headers):
    client = pclient
    session, table, token = creator_with_invite(client, support)
    attempts = [("POST", "/api/tables", {"game": "toy", "players": 2}),
                ("POST", f"/api/tables/{table}/chat", {"text": "hello from elsewhere"}),
                ("POST", f"/api/tables/{table}/seats/1/invite", None),
                ("POST", "/api/me/password", {"old": support.PASSWORD, "new": "another long secret"}),
                ("POST", "/api/logout", None)]
    for method, path, body in attempts:
        answer = client.request(method, path, json=body, headers=headers)
        assert answer.status_code == 403, (path, answer.text)
        assert answer.json()["error"] == "cross_site"
        assert "MAYAGAMES_ALLOWED_ORIGINS" in answer.json()["message"]
    # nothing changed: the invite still opens seat 1, no chat line, the session still works
    assert client.get(f"/api/tables/{table}", headers=support.bearer(token)).json()["seat"] == 1
    assert client.get(f"/api/tables/{table}/chat").json()["chat"] == []
    assert client.get("/api/me").json()["account"]["name"] == "Ana"
    assert len(client.get("/api/me").json()["tables"]) == 1


def test_the_servers_own_pages_and_programs_may_change_things(pclient, support):
    client = pclient
    session, table, token = creator_with_invite(client, support)
    host = "testserver"
    for headers in ({"Origin": f"http://{host}"}, {"Sec-Fetch-Site": "same-origin"},
                    {"Sec-Fetch-Site": "same-origin", "Origin": "null"},  # no-referrer pages
                    {"Referer": f"http://{host}/table/{table}"}, {}):  # {}: not a browser
        answer = client.post(f"/api/tables/{table}/chat", json={"text": "hi"}, headers=headers)
        assert answer.status_code == 201, (headers, answer.text)
    # reading is never refused (a link from another site opens a page)
    assert client.get(f"/api/tables/{table}", headers={"Origin": "https://evil.example"}).status_code == 200


def test_allowed_origins_may_change_things(players_app, support):
    from fastapi.testclient import TestClient

    limits = ServerLimits(allowed_origins=("https://friends.example",)).without_rate_limits()
    with TestClient(players_app(limits=limits)) as client:
        _, table, _ = creator_with_invite(client, support)
        friend = client.post(f"/api/tables/{table}/chat", json={"text": "hi"},
                             headers={"Origin": "https://friends.example", "Sec-Fetch-Site": "cross-site"})
        assert friend.status_code == 201, friend.text
        other = client.post(f"/api/tables/{table}/chat", json={"text": "hi"},
                            headers={"Origin": "https://foes.example"})
        assert other.status_code == 403


def test_cross_site_rule():
    own = {"host": "games.example:8000"}
    assert cross_site_refusal("GET", {**own, "origin": "https://evil.example"}, ()) is None
    assert cross_site_refusal("POST", {**own, "origin": "http://games.example:8000"}, ()) is None
    assert cross_site_refusal("POST", {**own, "origin": "http://games.example:8001"}, ()) is not None
    assert cross_site_refusal("DELETE", {**own, "sec-fetch-site": "same-site"}, ()) is not None
    assert cross_site_refusal("POST", {**own, "origin": "https://evil.example"}, ("*",)) is None
    assert cross_site_refusal("POST", own, ()) is None


# --- 1. hints ---------------------------------------------------------------------------------
def ask_hint(client: Any, table: str, token: str | None, number: int, level: str = "medium") -> Any:
    return client.post(f"/api/tables/{table}/hint", json={"level": level, "move_number": number},
                       headers={"Authorization": f"Bearer {token}"} if token else {})


def play(client: Any, support: Any, table: str, token: str, text: str) -> dict[str, Any]:
    mine = client.get(f"/api/tables/{table}", headers=support.bearer(token)).json()
    answer = client.post(f"/api/tables/{table}/moves", headers=support.bearer(token),
                         json={"move_number": mine["move_number"], "action": text})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_hints_are_their_seats_own_until_the_game_ends(pclient, support):
    """The attack: a seat asks a hint during Tzolk'in's start-tile draft, anyone reads the
    hinted tiles from GET .../hints. Now only the seat itself (token or account) sees it."""
    client = pclient
    made = client.post("/api/tables", json={"game": "tzolkin", "players": 2})
    assert made.status_code == 201, made.text
    table, tokens = made.json()["table"], [s["token"] for s in made.json()["seats"]]
    state = client.get(f"/api/tables/{table}").json()
    seat, number = state["current_player"], state["move_number"]
    given = ask_hint(client, table, tokens[seat], number)
    assert given.status_code == 200, given.text
    assert "position" not in given.json() and "earlier" not in given.json()
    url = f"/api/tables/{table}/hints"
    assert client.get(url).json()["hints"] == []                                  # anyone
    assert client.get(url, headers=support.bearer(tokens[1 - seat])).json()["hints"] == []
    support.register(client, "Stranger")                                           # an account
    assert client.get(url).json()["hints"] == []
    client.cookies.clear()
    own = client.get(url, headers=support.bearer(tokens[seat])).json()["hints"]
    assert own == [{"move_number": number, "seat": seat, "level": "medium",
                    "action": given.json()["action"]}]
    assert client.get(f"/api/tables/{table}/record").status_code == 403  # not before the end


def test_a_hint_is_cached_per_position_and_seat(pclient, support):
    """The attack: seat 0 asks at move N, undoes and ends its turn another way; seat 1,
    now to move at move N, got seat 0's hint (an action not even legal for seat 1)."""
    client = pclient
    made = client.post("/api/tables", json={"game": "tally", "players": 2})
    table, tokens = made.json()["table"], [s["token"] for s in made.json()["seats"]]
    play(client, support, table, tokens[0], "add 1")
    play(client, support, table, tokens[0], "add 1")                # move 2: seat 0 must end
    first = ask_hint(client, table, tokens[0], 2)
    assert first.status_code == 200 and first.json()["seat"] == 0, first.text
    undone = client.post(f"/api/tables/{table}/undo", headers=support.bearer(tokens[0]),
                         json={"move_number": 2})
    assert undone.status_code == 200, undone.text
    play(client, support, table, tokens[0], "end")                  # move 2 again: seat 1's turn
    mine = client.get(f"/api/tables/{table}", headers=support.bearer(tokens[1])).json()
    assert mine["move_number"] == 2 and mine["current_player"] == 1
    second = ask_hint(client, table, tokens[1], 2)
    assert second.status_code == 200, second.text
    assert second.json()["seat"] == 1
    assert second.json()["action"] in {a["text"] for a in mine["legal"]}
    # each seat's list has its own; the record lists both once the game is over
    assert [h["seat"] for h in client.get(f"/api/tables/{table}/hints",
                                          headers=support.bearer(tokens[0])).json()["hints"]] == [0]
    assert [h["seat"] for h in client.get(f"/api/tables/{table}/hints",
                                          headers=support.bearer(tokens[1])).json()["hints"]] == [1]
    for _ in range(100):
        state = client.get(f"/api/tables/{table}").json()
        if state["terminal"]:
            break
        play(client, support, table, tokens[state["current_player"]], "end" if state["move_number"] % 2 else "add 1")
    used = client.get(f"/api/tables/{table}/hints").json()["hints"]
    assert [(h["move_number"], h["seat"]) for h in used] == [(2, 0), (2, 1)]
    assert client.get(f"/api/tables/{table}/record").json()["meta"]["hints"] == used


# --- 3. weak passwords, bot names ---------------------------------------------------------------
@pytest.mark.parametrize("password", ["12345678", "password", "aaaaaaaa", " " * 8,   # the attack
                                      "1234567890", "password2024!", "P@ssw0rd123", "qwertyuiop",
                                      "abcabcabcabc", " " * 12, "0987654321", "iloveyou12",
                                      "Ixchel2024!", "a" * 128])
def test_weak_passwords_are_refused(pclient, password):
    answer = pclient.post("/api/accounts", json={"name": "Ixchel", "password": password})
    assert answer.status_code == 422, (password, answer.text)
    assert answer.json()["error"] in ("bad_password", "weak_password")
    assert pclient.post("/api/login", json={"name": "Ixchel", "password": password}).status_code == 401


def test_a_weak_new_password_is_refused_and_good_ones_pass(pclient, support):
    support.register(pclient, "Ixchel")
    weak = pclient.post("/api/me/password", json={"old": support.PASSWORD, "new": "password123"})
    assert weak.status_code == 422 and weak.json()["error"] == "weak_password"
    assert "too easy to guess" in weak.json()["message"]
    for good in ("banana split forever", "kjh3k4j5h34", "Tzolkin gears turn slowly"):
        answer = pclient.post("/api/accounts", json={"name": f"p{len(good)}x", "password": good})
        assert answer.status_code == 201, (good, answer.text)


@pytest.mark.parametrize("name", ["easy", "Hard", "MEDIUM", "H4rd", "3asy", "rand0m", "e.a.s.y",
                                  "mcts", "Heuristic", "M_e-d.i_u-m", "admin", "MayaGames", "B0T_ana"])
def test_bot_names_are_reserved(pclient, name):
    answer = pclient.post("/api/accounts", json={"name": name, "password": "banana split forever"})
    assert answer.status_code == 422, (name, answer.text)
    assert answer.json()["error"] in ("reserved_name", "bad_name")


def test_accounts_made_under_the_old_rule_keep_logging_in(players_app):
    """An account whose password was fine before (8 characters, common) still logs in."""
    from fastapi.testclient import TestClient

    app = players_app()
    with TestClient(app) as client:
        players = app.state.players
        from mayagames.server.accounts import name_key

        players.store.create_account("Oldtimer", name_key("Oldtimer"),
                                     players.passwords.hash("password"), 0.0)
        answer = client.post("/api/login", json={"name": "Oldtimer", "password": "password"})
        assert answer.status_code == 200, answer.text
        assert client.get("/api/me").json()["account"]["name"] == "Oldtimer"


# --- issue 23, item 2: private tables stay off other people's lists ------------------------------
def test_private_tables_are_listed_to_their_seats_only(pclient, support):
    """The attack: a brand-new account's "Recent tables" (GET /api/tables, also ?recent=1)
    listed other people's private tables with an open link."""
    client = pclient
    ana = support.register(client, "Ana")
    private = client.post("/api/tables", json={"game": "tally", "players": 2}).json()["table"]
    public = client.post("/api/tables", json={"game": "tally", "players": 2, "public": True}).json()["table"]
    support.use(client, None)
    guest = support.create_table(client, game="tally", seed=None)["table"]  # a guest's: private too
    support.register(client, "Newcomer")
    for query in ("", "?recent=1", "?limit=500", "?status=playing"):
        listed = {t["table"] for t in client.get(f"/api/tables{query}").json()["tables"]}
        assert private not in listed and guest not in listed, query
        assert public in listed, query
    support.use(client, None)
    assert {t["table"] for t in client.get("/api/tables").json()["tables"]} == {public}
    support.use(client, ana)  # its seats see it
    assert {t["table"] for t in client.get("/api/tables").json()["tables"]} == {private, public}
    # still open to whoever has the link (a spectator), only not listed
    support.use(client, None)
    assert client.get(f"/api/tables/{private}").status_code == 200


def test_a_profile_lists_private_tables_to_their_seats_only(pclient, support):
    client = pclient
    ana = support.register(client, "Ana")
    made = client.post("/api/tables", json={"game": "tally", "players": 2,
                                            "seats": [{"agent": "human"}, {"agent": "random"}]})
    assert made.status_code == 201, made.text
    table = made.json()["table"]
    assert support.play_out(client, table, {0: ana})["terminal"]
    support.use(client, ana)
    assert [t["table"] for t in client.get("/api/players/Ana").json()["tables"]] == [table]
    support.register(client, "Newcomer")
    assert client.get("/api/players/Ana").json()["tables"] == []
    support.use(client, None)
    assert client.get("/api/players/Ana").json()["tables"] == []


def test_rating_histories_name_private_tables_to_their_seats_only(pclient, support):
    """A bot level's (or a person's) rating history listed the ids of private rated tables."""
    client = pclient
    ana = support.register(client, "Ana")
    made = client.post("/api/tables", json={"game": "toy", "players": 2, "rated": True,
                                            "seats": [{"agent": "human"}, {"agent": "easy"}]})
    assert made.status_code == 201, made.text
    table = made.json()["table"]
    support.play_out(client, table, {0: ana})
    support.use(client, ana)
    assert [h["table"] for h in client.get("/api/players/easy").json()["history"]] == [table]
    assert [h["table"] for h in client.get("/api/players/Ana").json()["history"]] == [table]
    for looker in (None, support.register(client, "Newcomer")):
        support.use(client, looker)
        for name in ("easy", "Ana"):
            history = client.get(f"/api/players/{name}").json()["history"]
            assert len(history) == 1 and history[0]["table"] is None  # the rating moved: public

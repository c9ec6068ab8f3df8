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

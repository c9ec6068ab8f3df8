"""Server side of the table page: static files compressed with ETags, the favicon, the
rematch of a finished table, and the "private" flag that tells a hot-seat device when to
hide the board before handing it over."""

from __future__ import annotations

import gzip
from typing import Any

import pytest


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def finish(client: Any, table: dict[str, Any]) -> dict[str, Any]:
    """Play a test table to its end with each seat's first legal move."""
    for _ in range(500):
        state = client.get(f"/api/tables/{table['table']}").json()
        if state["terminal"]:
            return state
        seat = state["current_player"]
        mine = client.get(f"/api/tables/{table['table']}", headers=bearer(table["tokens"][seat])).json()
        answer = client.post(f"/api/tables/{table['table']}/moves", headers=bearer(table["tokens"][seat]),
                             json={"move_number": mine["move_number"], "action_id": 0})
        assert answer.status_code == 200, answer.text
    raise AssertionError("the game does not end")


def test_static_files_are_gzipped_with_etags(client):
    plain = client.get("/static/js/table.js", headers={"Accept-Encoding": "identity"})
    packed = client.get("/static/js/table.js", headers={"Accept-Encoding": "gzip"})
    assert plain.status_code == packed.status_code == 200
    assert packed.headers["content-encoding"] == "gzip"
    assert "content-encoding" not in plain.headers
    assert int(packed.headers["content-length"]) < len(plain.content) / 2  # httpx unpacks it
    assert packed.content == plain.content
    assert packed.headers["cache-control"] == "no-cache"
    etag = plain.headers["etag"]
    again = client.get("/static/js/table.js", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert client.get("/static/css/style.css").headers["content-type"].startswith("text/css")
    page = client.get("/table/abc", headers={"Accept-Encoding": "gzip"})
    assert page.status_code == 200 and "table.js" in page.text and page.headers["etag"]


@pytest.mark.parametrize("path", ["/static/../server/app.py", "/static/%2e%2e/server/app.py",
                                  "/static/nothing.js", "/static/js"])
def test_static_refuses_what_is_not_a_static_file(client, path):
    answer = client.get(path)
    assert answer.status_code == 404
    assert "import" not in answer.text


def test_favicon_is_an_svg(client):
    for path in ("/favicon.ico", "/favicon.svg"):
        icon = client.get(path)
        assert icon.status_code == 200
        assert icon.headers["content-type"].startswith("image/svg+xml")
        assert icon.text.startswith("<svg")


def test_rematch_same_seats_and_options_new_seed(client, support):
    table = support.create_table(client, game="toy", agents=["human", "human"], seed=3,
                                 options={})
    early = client.post(f"/api/tables/{table['table']}/rematch", headers=bearer(table["tokens"][0]))
    assert early.status_code == 409 and early.json()["error"] == "not_finished"
    finish(client, table)
    anonymous = client.post(f"/api/tables/{table['table']}/rematch")
    assert anonymous.status_code == 401
    wrong = client.post(f"/api/tables/{table['table']}/rematch", headers=bearer("nope"))
    assert wrong.status_code == 401
    first = client.post(f"/api/tables/{table['table']}/rematch", headers=bearer(table["tokens"][0]))
    assert first.status_code == 201, first.text
    new = first.json()
    assert new["table"] != table["table"] and new["rematch_of"] == table["table"]
    assert [s["name"] for s in new["seats"]] == ["P0", "P1"]
    assert [s["seat"] for s in new["seats"] if s["token"]] == [0]  # only the caller's seat
    token0 = new["seats"][0]["token"]
    assert new["seats"][0]["invite"] == f"/table/{new['table']}#token={token0}"
    mine = client.get(f"/api/tables/{new['table']}", headers=bearer(token0)).json()
    assert mine["seat"] == 0 and mine["move_number"] == 0
    old = client.get(f"/api/tables/{table['table']}").json()
    assert old["rematch"] == new["table"]  # the other players learn of it
    second = client.post(f"/api/tables/{table['table']}/rematch", headers=bearer(table["tokens"][1])).json()
    assert second["table"] == new["table"]  # the same new table for everyone
    token1 = next(s["token"] for s in second["seats"] if s["seat"] == 1)
    assert token1 and token1 != token0
    assert client.get(f"/api/tables/{new['table']}", headers=bearer(token1)).json()["seat"] == 1
    again = client.post(f"/api/tables/{table['table']}/rematch", headers=bearer(table["tokens"][0])).json()
    assert all(s["token"] is None for s in again["seats"])  # a seat's new token is handed out once


def test_rematch_keeps_bots_and_options(client, support):
    table = support.create_table(client, game="toy", agents=["human", "random"], seed=3,
                                 options=None)
    state = client.get(f"/api/tables/{table['table']}").json()
    for _ in range(200):
        if state["terminal"]:
            break
        mine = client.get(f"/api/tables/{table['table']}", headers=bearer(table["tokens"][0])).json()
        if mine["current_player"] == 0 and mine["legal"]:
            client.post(f"/api/tables/{table['table']}/moves", headers=bearer(table["tokens"][0]),
                        json={"move_number": mine["move_number"], "action_id": 0})
        state = client.get(f"/api/tables/{table['table']}").json()
    assert state["terminal"]
    new = client.post(f"/api/tables/{table['table']}/rematch", headers=bearer(table["tokens"][0])).json()
    fresh = client.get(f"/api/tables/{new['table']}").json()
    assert [s["agent"] for s in fresh["seats"]] == ["human", "random"]
    assert fresh["options"] == state["options"]


def test_private_says_when_a_view_shows_more_than_a_spectator_sees(client, support):
    secret = support.create_table(client, game="toy", agents=["human", "human"], seed=3)
    seat0 = client.get(f"/api/tables/{secret['table']}", headers=bearer(secret["tokens"][0])).json()
    spectator = client.get(f"/api/tables/{secret['table']}").json()
    assert seat0["private"] is True  # a hand of cards only that seat sees
    assert spectator["private"] is False
    open_game = support.create_table(client, game="tally", agents=["human", "human"], seed=3)
    seat0 = client.get(f"/api/tables/{open_game['table']}", headers=bearer(open_game["tokens"][0])).json()
    assert seat0["private"] is False  # nothing hidden: a hot-seat device needs no hand-over


def test_serve_opens_the_browser_once_started(monkeypatch):
    import threading

    from mayagames.server import cli

    opened: list[str] = []
    done = threading.Event()
    monkeypatch.setattr(cli.webbrowser, "open", lambda url: (opened.append(url), done.set()))
    cli.open_when_ready("http://127.0.0.1:8123/", delay=0.01)
    assert done.wait(5)
    assert opened == ["http://127.0.0.1:8123/"]


def test_a_tzolkin_hot_seat_needs_a_hand_over_only_during_the_draft(client, support):
    """Issue 23.11: after the draft nothing of a Tzolk'in seat's view is secret."""
    table = support.create_table(client, game="tzolkin", agents=["human", "human"], seed=3,
                                 options=None)
    tid, tokens = table["table"], table["tokens"]
    for _ in range(60):
        states = [client.get(f"/api/tables/{tid}", headers=bearer(tokens[i])).json() for i in (0, 1)]
        current = states[0]["current_player"]
        if states[0]["view"]["phase"] != "draft":
            break
        assert states[current]["private"] is True  # the dealt tiles: only that seat sees them
        client.post(f"/api/tables/{tid}/moves", headers=bearer(tokens[current]),
                    json={"move_number": states[current]["move_number"], "action_id": 0})
    assert states[0]["view"]["phase"] != "draft"
    for _ in range(30):  # placing and picking up workers: nothing a spectator may not see
        states = [client.get(f"/api/tables/{tid}", headers=bearer(tokens[i])).json() for i in (0, 1)]
        assert [s["private"] for s in states] == [False, False]
        current = states[0]["current_player"]
        client.post(f"/api/tables/{tid}/moves", headers=bearer(tokens[current]),
                    json={"move_number": states[current]["move_number"], "action_id": 0})

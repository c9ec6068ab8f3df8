"""Table chat: from seats (token or account) and logged-in spectators, to everyone at the
table (REST and WebSocket), kept with the table, length- and rate-limited, stored as sent
(the browser shows it as text)."""

from __future__ import annotations

from mayagames.server.accounts import SESSION_COOKIE


def test_chat_from_seats_and_spectators(pclient, support, fake_clock):
    data = support.create_table(pclient)
    table, token = data["table"], data["tokens"][0]
    pclient.cookies.clear()
    anonymous = pclient.post(f"/api/tables/{table}/chat", json={"text": "hi"})
    assert anonymous.status_code == 401
    said = pclient.post(f"/api/tables/{table}/chat", json={"text": " <b>hello</b> "},
                        headers=support.bearer(token))
    assert said.status_code == 201
    assert said.json()["author"] == "P0" and said.json()["text"] == "<b>hello</b>"
    watcher = support.register(pclient, "Watcher")
    pclient.cookies.set(SESSION_COOKIE, watcher)
    assert pclient.post(f"/api/tables/{table}/chat", json={"text": "nice move"}).json()["seat"] is None
    pclient.cookies.clear()
    lines = pclient.get(f"/api/tables/{table}/chat").json()["chat"]
    assert [(l["author"], l["text"]) for l in lines] == [("P0", "<b>hello</b>"), ("Watcher", "nice move")]


def test_chat_limits(pclient, support, fake_clock):
    data = support.create_table(pclient)
    table, headers = data["table"], support.bearer(data["tokens"][1])
    pclient.cookies.clear()
    long = pclient.post(f"/api/tables/{table}/chat", json={"text": "x" * 501}, headers=headers)
    assert long.status_code == 422 and long.json()["error"] == "bad_chat"
    blank = pclient.post(f"/api/tables/{table}/chat", json={"text": "\u0000\u0007  "}, headers=headers)
    assert blank.status_code == 422
    huge = pclient.post(f"/api/tables/{table}/chat", json={"text": "x" * 5000}, headers=headers)
    assert huge.status_code == 422
    for i in range(5):
        assert pclient.post(f"/api/tables/{table}/chat", json={"text": f"line {i}"}, headers=headers).status_code == 201
    flood = pclient.post(f"/api/tables/{table}/chat", json={"text": "more"}, headers=headers)
    assert flood.status_code == 429 and "Retry-After" in flood.headers
    assert len(pclient.get(f"/api/tables/{table}/chat").json()["chat"]) == 5
    fake_clock.advance(11)
    assert pclient.post(f"/api/tables/{table}/chat", json={"text": "again"}, headers=headers).status_code == 201


def test_chat_reaches_the_table_over_websocket(players_app, support):
    with support.LiveServer(players_app()) as live:
        import httpx

        data = support.create_table(httpx.Client(base_url=live.url))
        table = data["table"]
        watcher = support.WsClient(live, table)  # a spectator
        httpx.post(f"{live.url}/api/tables/{table}/chat", json={"text": "good luck"},
                   headers=support.bearer(data["tokens"][0]))
        line = watcher.until(lambda m: m["type"] == "chat")
        assert line["text"] == "good luck" and line["author"] == "P0"
        watcher.close()

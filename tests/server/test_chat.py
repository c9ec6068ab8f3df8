"""Table chat: from seats (token or account), and logged-in spectators of public tables; a
private table's chat belongs to its seats (REST and WebSocket); kept with the table,
length- and rate-limited, stored as sent (the browser shows it as text)."""

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
    refused = pclient.post(f"/api/tables/{table}/chat", json={"text": "nice move"})
    assert refused.status_code == 403 and refused.json()["error"] == "private_chat"
    assert pclient.get(f"/api/tables/{table}/chat").status_code == 403  # a private table's
    pclient.cookies.clear()
    assert pclient.get(f"/api/tables/{table}/chat").status_code == 403
    lines = pclient.get(f"/api/tables/{table}/chat", headers=support.bearer(data["tokens"][1])).json()["chat"]
    assert [(l["author"], l["text"]) for l in lines] == [("P0", "<b>hello</b>")]
    # a public table: logged-in spectators chat, anyone reads
    ana = support.register(pclient, "Ana")
    support.use(pclient, ana)
    public = pclient.post("/api/tables", json={"game": "toy", "players": 2, "public": True}).json()
    support.use(pclient, watcher)
    said = pclient.post(f"/api/tables/{public['table']}/chat", json={"text": "nice move"})
    assert said.status_code == 201 and said.json()["seat"] is None
    pclient.cookies.clear()
    lines = pclient.get(f"/api/tables/{public['table']}/chat").json()["chat"]
    assert [(l["author"], l["text"]) for l in lines] == [("Watcher", "nice move")]


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
    assert len(pclient.get(f"/api/tables/{table}/chat", headers=headers).json()["chat"]) == 5
    fake_clock.advance(11)
    assert pclient.post(f"/api/tables/{table}/chat", json={"text": "again"}, headers=headers).status_code == 201


def test_chat_reaches_the_table_over_websocket(players_app, support):
    with support.LiveServer(players_app()) as live:
        import httpx

        data = support.create_table(httpx.Client(base_url=live.url))
        table = data["table"]
        spectator = support.WsClient(live, table)  # a private table: no chat for spectators
        seat = support.WsClient(live, table, data["tokens"][1])
        httpx.post(f"{live.url}/api/tables/{table}/chat", json={"text": "good luck"},
                   headers=support.bearer(data["tokens"][0]))
        line = seat.until(lambda m: m["type"] == "chat")
        assert line["text"] == "good luck" and line["author"] == "P0"
        spectator.send(type="ping")
        spectator.until(lambda m: m["type"] == "pong")
        assert not [m for m in spectator.messages if m["type"] == "chat"]
        spectator.close()
        seat.close()

"""REST API: tables, seats and tokens, moves, errors (every bad request gets a clear 4xx)."""

from __future__ import annotations

import pytest

from mayagames.core import GameRecord, new_game, verify


def test_games_lists_options_and_agents(client):
    data = client.get("/api/games").json()
    names = [g["name"] for g in data["games"]]
    assert "toy" in names
    toy = next(g for g in data["games"] if g["name"] == "toy")
    assert (toy["min_players"], toy["max_players"]) == (2, 4)
    assert data["agents"][0] == "human" and "random" in data["agents"]


def test_test_games_hidden_unless_asked(make_app):
    from fastapi.testclient import TestClient

    with TestClient(make_app(list_test_games=False)) as c:
        assert "toy" not in [g["name"] for g in c.get("/api/games").json()["games"]]


def test_create_table_gives_tokens_only_to_human_seats(client, support):
    data = support.create_table(client, agents=["human", "random"])
    human, bot = data["seats"]
    assert human["token"] and human["invite"] == f"/table/{data['table']}#token={human['token']}"
    assert bot["token"] is None and bot["bot"] and bot["agent"] == "random"
    assert data["spectate"] == f"/table/{data['table']}"


def test_new_table_matches_the_engine(client, support):
    data = support.create_table(client, seed=11)
    state = client.get(f"/api/tables/{data['table']}", headers=support.bearer(data["tokens"][0])).json()
    engine = new_game("toy", 2, seed=11)
    assert state["seat"] == 0 and state["move_number"] == 0
    assert state["view"] == engine.view(0).to_dict()
    assert [a["text"] for a in state["legal"]] == [str(a) for a in engine.legal_actions()]
    assert [a["id"] for a in state["legal"]] == list(range(len(engine.legal_actions())))


@pytest.mark.parametrize("body, code", [
    ({"game": "chess", "players": 2}, "bad_table"),
    ({"game": "toy", "players": 9}, "bad_request"),
    ({"game": "toy", "players": 5}, "bad_table"),
    ({"game": "toy", "players": 2, "options": {"speed": 3}}, "bad_table"),
    ({"game": "toy", "players": 2, "seats": [{"agent": "human"}, {"agent": "wizard"}]}, "bad_agent"),
    # an estimate the game does not have: refused at once, not at the bot's first move
    ({"game": "tzolkin", "players": 2, "seats": [{"agent": "human"}, {"agent": "heuristic:eval=v0"}]},
     "bad_agent"),
    ({"game": "tzolkin", "players": 2, "seats": [{"agent": "human"}, {"agent": "mcts:10i,eval=learned9"}]},
     "bad_agent"),
    ({"game": "toy", "players": 2, "seats": [{"agent": "human"}]}, "bad_request"),
    ({"game": "toy", "players": 2, "colour": "red"}, "bad_request"),
    ({"game": "toy"}, "bad_request"),
    ({"game": "toy", "players": "two"}, "bad_request"),
])
def test_bad_table_requests_are_refused_clearly(client, body, code):
    response = client.post("/api/tables", json=body)
    assert 400 <= response.status_code < 500
    error = response.json()
    assert error["error"] == code and error["message"]


def test_malformed_json_is_400(client):
    response = client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"] == "bad_json"


def test_spectator_sees_no_hand_and_no_legal_moves(client, support):
    data = support.create_table(client, seed=3)
    state = client.get(f"/api/tables/{data['table']}").json()
    assert state["seat"] is None and state["legal"] == []
    assert state["view"]["hands"] == [[0, 0], [0, 0]]
    other = client.get(f"/api/tables/{data['table']}", headers=support.bearer(data["tokens"][1])).json()
    assert other["legal"] == [] and other["view"]["hands"][0] == [0, 0]
    assert other["view"]["hands"][1] != [0, 0]


def test_move_by_id_and_by_notation(client, support):
    data = support.create_table(client, seed=5)
    table, t0, t1 = data["table"], data["tokens"][0], data["tokens"][1]
    state = client.get(f"/api/tables/{table}", headers=support.bearer(t0)).json()
    first = state["legal"][0]
    after = client.post(f"/api/tables/{table}/moves", headers=support.bearer(t0),
                        json={"move_number": 0, "action_id": first["id"]}).json()
    entry = after["log"][0]
    assert after["move_number"] == 1 and {k: entry[k] for k in ("n", "seat", "text", "turn")} == {
        "n": 1, "seat": 0, "text": first["text"], "turn": 1}
    names = [s["name"] for s in after["seats"]]
    assert entry["sentence"].startswith(f"{names[0]} plays a {first['card']}")
    assert entry["places"] == [f"card:{first['card']}"] and entry["events"] == []
    legal1 = client.get(f"/api/tables/{table}", headers=support.bearer(t1)).json()["legal"]
    after = client.post(f"/api/tables/{table}/moves", headers=support.bearer(t1),
                        json={"move_number": 1, "action": legal1[-1]["text"]}).json()
    assert after["move_number"] == 2 and after["log"][-1]["text"] == legal1[-1]["text"]


def move(client, support, table, token, number, **action):
    return client.post(f"/api/tables/{table}/moves", headers=support.bearer(token),
                       json={"move_number": number, **action})


def test_move_errors(client, support):
    data = support.create_table(client, seed=5)
    table, t0, t1 = data["table"], data["tokens"][0], data["tokens"][1]
    cases = [
        (move(client, support, table, None, 0, action_id=0), 401, "no_token"),
        (move(client, support, table, "forged", 0, action_id=0), 401, "bad_token"),
        (move(client, support, table, t1, 0, action_id=0), 403, "not_your_turn"),
        (move(client, support, table, t0, 3, action_id=0), 409, "stale"),
        (move(client, support, table, t0, 0, action_id=99), 422, "bad_action_id"),
        (move(client, support, table, t0, 0, action="bonus"), 422, "illegal"),
        (move(client, support, table, t0, 0, action="fly away"), 400, "bad_notation"),
        (move(client, support, table, t0, 0), 422, "bad_request"),
        (move(client, support, table, t0, 0, action_id=0, action="end"), 422, "bad_request"),
        (move(client, support, table, t0, -1, action_id=0), 422, "bad_request"),
    ]
    for response, status, code in cases:
        assert (response.status_code, response.json()["error"]) == (status, code), response.text
        assert response.json()["message"]
    assert client.get(f"/api/tables/{table}").json()["move_number"] == 0  # nothing applied


def test_illegal_move_names_the_rule(client, support):
    data = support.create_table(client, seed=5)
    hand = client.get(f"/api/tables/{data['table']}", headers=support.bearer(data["tokens"][0])).json()["view"]["hands"][0]
    missing = next(c for c in range(1, 9) if c not in hand)
    response = move(client, support, data["table"], data["tokens"][0], 0, action=f"play {missing}")
    assert response.status_code == 422
    assert response.json()["rule"] == "toy: hand" and str(missing) in response.json()["message"]


def test_bad_authorization_header(client, support):
    data = support.create_table(client)
    response = client.get(f"/api/tables/{data['table']}", headers={"Authorization": "Basic abc"})
    assert response.status_code == 401 and response.json()["error"] == "bad_token"


def test_unknown_table_is_404(client):
    for path in ("/api/tables/nosuchtable", "/api/tables/bad$id", "/api/tables/nosuch/replay?step=0"):
        response = client.get(path)
        assert response.status_code == 404 and response.json()["error"] == "no_table"


def play_out(client, support, data):
    """Play the first legal move for whoever is to move until the end."""
    table = data["table"]
    while True:
        state = client.get(f"/api/tables/{table}").json()
        if state["terminal"]:
            return state
        token = data["tokens"][state["current_player"]]
        mine = client.get(f"/api/tables/{table}", headers=support.bearer(token)).json()
        assert move(client, support, table, token, mine["move_number"],
                    action_id=0).status_code == 200


def test_full_game_then_record_and_game_over(client, support):
    data = support.create_table(client, players=3, seed=21)
    table = data["table"]
    assert client.get(f"/api/tables/{table}/record").status_code == 403
    final = play_out(client, support, data)
    assert final["winners"] and len(final["scores"]) == 3
    record = GameRecord.from_dict(client.get(f"/api/tables/{table}/record").json())
    state = verify(record)
    assert state.scores() == final["scores"] and record.seed == 21
    assert [s.name for s in record.seats] == ["P0", "P1", "P2"]
    late = move(client, support, table, data["tokens"][0], final["move_number"], action_id=0)
    assert late.status_code == 409 and late.json()["error"] == "game_over"


def test_list_tables(client, support):
    support.register(client, "Lister")  # private tables are listed to their seats only
    a = support.create_table(client)
    b = support.create_table(client, agents=["human", "random"])
    listed = client.get("/api/tables").json()["tables"]
    assert {a["table"], b["table"]} <= {t["table"] for t in listed}
    row = next(t for t in listed if t["table"] == b["table"])
    assert row["seats"][1]["agent"] == "random" and row["status"] == "playing"
    assert "seed" not in row and "token" not in str(row)
    assert client.get("/api/tables?status=nonsense").status_code == 422


def test_pages_and_static_files_are_served(client):
    assert "<html" in client.get("/").text.lower()
    assert "<html" in client.get("/table/abc").text.lower()
    assert client.get("/static/games/toy.js").status_code == 200
    assert client.get("/static/games/generic.js").status_code == 200


def test_an_engine_failure_is_a_clear_500_and_changes_nothing(make_app, support, monkeypatch):
    from fastapi.testclient import TestClient

    from mayagames.core.toy import ToyState

    with TestClient(make_app(), raise_server_exceptions=False) as client:
        data = support.create_table(client, seed=5)
        with monkeypatch.context() as patch:
            patch.setattr(ToyState, "_apply", lambda self, action: 1 / 0)
            response = move(client, support, data["table"], data["tokens"][0], 0, action_id=0)
        assert response.status_code == 500 and response.json()["error"] == "server_error"
        assert client.get(f"/api/tables/{data['table']}").json()["move_number"] == 0
        assert move(client, support, data["table"], data["tokens"][0], 0, action_id=0).status_code == 200


def test_a_bot_may_name_any_estimate_its_game_has(client):
    """``eval=NAME`` is checked against the table's game: Tzolk'in's own names (``learned1``,
    the first fit) are taken, and a game that names no estimate plays its one for any name."""
    for game, agent in (("tzolkin", "heuristic:sensible=1,eval=learned1"), ("tzolkin", "mcts:10i,eval=v2"),
                        ("toy", "heuristic:eval=learned1")):
        answer = client.post("/api/tables", json={"game": game, "players": 2, "seed": 1,
                                                  "seats": [{"agent": "human"}, {"agent": agent}]})
        assert answer.status_code == 201, (game, agent, answer.text)
    refused = client.post("/api/tables", json={"game": "tzolkin", "players": 2, "seats": [
        {"agent": "human"}, {"agent": "heuristic:eval=v0"}]}).json()
    assert "no estimate 'v0'" in refused["message"] and "learned1" in refused["message"]

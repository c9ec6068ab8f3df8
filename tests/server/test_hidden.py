"""Hidden information never reaches a client that may not see it: not in the view, not in
the legal moves, not in the move log, not through replays or the record of an unfinished game,
not through the hints another seat used or a review before the end.

Full games are played over WebSockets with one client per seat plus a spectator; every
message each one received is compared with the engine's own projection for that seat.
"""

from __future__ import annotations

import importlib.util
import random

import httpx
import pytest

from mayagames.core import GameRecord, get_game
from mayagames.core.game import new_state


def play_random_game(live, support, game: str, players: int, seed: int, max_moves: int = 10_000):
    """Play a game by WebSocket (to the end or ``max_moves``); returns (table, clients, spectator)."""
    with httpx.Client(base_url=live.url) as http:
        data = support.create_table(http, game=game, players=players, seed=seed)
    clients = {s: support.WsClient(live, data["table"], t) for s, t in data["tokens"].items()}
    spectator = support.WsClient(live, data["table"])
    everyone = [*clients.values(), spectator]
    pick = random.Random(seed)
    while not spectator.state["terminal"] and spectator.state["move_number"] < max_moves:
        number, mover = spectator.state["move_number"], clients[spectator.state["current_player"]]
        mover.wait_for(number)
        mover.move(pick.randrange(len(mover.state["legal"])))
        for c in everyone:
            c.wait_for(number + 1)
    return data, clients, spectator


def engine_states(record: GameRecord):
    """The true state after each number of moves (index = move number)."""
    info = get_game(record.game)
    state = new_state(info, record.num_players, record.seed, record.options)
    states, actions = [state.clone()], []
    for text in record.moves:
        action = state.parse_action(text)
        actions.append(action)
        state.apply(action)
        states.append(state.clone())
    return states, actions


def check_messages(messages, viewer, states, actions):
    """Each state message is exactly the engine's projection for ``viewer``."""
    log: list[dict] = []
    for m in (m for m in messages if m["type"] == "state"):
        truth = states[m["move_number"]]
        assert m["view"] == truth.view(viewer).to_dict()
        if viewer is not None and viewer == truth.current_player:
            assert [a["text"] for a in m["legal"]] == [str(a) for a in truth.legal_actions()]
        else:
            assert m["legal"] == []
        log = log[:m["log_from"]] + m["log"]
        names = [s["name"] for s in m["seats"]]
        expected = [{"n": i + 1, "seat": states[i].current_player,
                     "text": states[i].public_notation(actions[i], viewer),
                     "sentence": states[i].info.narrate(states[i], actions[i], states[i + 1],
                                                        viewer).with_names(names).text}
                    for i in range(m["move_number"])]
        assert [{k: e[k] for k in ("n", "seat", "text", "sentence")} for e in log] == expected


def engine(name: str) -> list:
    present = importlib.util.find_spec(f"mayagames.{name}") is not None
    return [pytest.mark.skipif(not present, reason=f"no {name} engine")]


@pytest.mark.parametrize("game, players, seed, max_moves", [
    ("toysecret", 2, 1, 10_000), ("toysecret", 3, 2, 10_000), ("toy", 3, 3, 10_000),
    pytest.param("tzolkin", 3, 4, 10_000, marks=engine("tzolkin")),   # a whole game
    pytest.param("tikal", 2, 5, 150, marks=engine("tikal")),          # its first 150 decisions
])
def test_every_message_is_the_seats_own_projection(live, support, game, players, seed, max_moves):
    data, clients, spectator = play_random_game(live, support, game, players, seed, max_moves)
    room = live.server.config.app.state.service.rooms[data["table"]]
    record = GameRecord(game=game, seed=room.stored.seed, num_players=players,
                        options=room.stored.options, moves=list(room.moves))
    states, actions = engine_states(record)
    for seat, client in clients.items():
        check_messages(client.messages, seat, states, actions)
    check_messages(spectator.messages, None, states, actions)


def test_secret_choices_stay_out_of_other_logs(live, support):
    data, clients, spectator = play_random_game(live, support, "toysecret", 2, 5)
    with httpx.Client(base_url=live.url) as http:
        record = GameRecord.from_dict(http.get(f"/api/tables/{data['table']}/record").json())
    assert any(m.startswith("swap") for m in record.moves), "seed must produce a swap"
    states, _ = engine_states(record)
    for i, text in enumerate(record.moves):
        if not text.startswith("swap"):
            continue
        mover = states[i].current_player
        for seat, client in [*clients.items(), (None, spectator)]:
            seen = {e["text"] for m in client.messages if m["type"] == "state"
                    for e in m["log"] if e["n"] == i + 1}
            assert seen == ({text} if seat == mover else {"swap ?"})


def test_opponent_cards_never_sent(live, support):
    """A direct check, independent of the projection: no message to seat 1 holds seat 0's cards."""
    data, clients, _ = play_random_game(live, support, "toy", 2, 8)
    for m in clients[1].messages:
        if m["type"] == "state" and not m["terminal"]:
            assert set(m["view"]["hands"][0]) == {0}
            assert isinstance(m["view"]["deck"], int)


def unfinished_table(client, support, moves: int = 3):
    data = support.create_table(client, game="toysecret", seed=5)
    for _ in range(moves):
        state = client.get(f"/api/tables/{data['table']}").json()
        token = data["tokens"][state["current_player"]]
        mine = client.get(f"/api/tables/{data['table']}", headers=support.bearer(token)).json()
        swap = next(a for a in mine["legal"] if a["text"].startswith(("swap", "end")))
        client.post(f"/api/tables/{data['table']}/moves", headers=support.bearer(token),
                    json={"move_number": mine["move_number"], "action_id": swap["id"]})
    return data


def test_replays_of_unfinished_games_show_only_ones_own_side(client, support):
    data = unfinished_table(client, support)
    table, t0, t1 = data["table"], data["tokens"][0], data["tokens"][1]
    url = f"/api/tables/{table}/replay"
    refused = [client.get(url, params={"step": 1, "perspective": "all"}, headers=support.bearer(t0)),
               client.get(url, params={"step": 1, "perspective": "0"}, headers=support.bearer(t1)),
               client.get(url, params={"step": 1, "perspective": "1"})]
    for response in refused:
        assert response.status_code == 403 and response.json()["error"] == "replay_hidden"
    own = client.get(url, params={"step": 1, "perspective": "1"}, headers=support.bearer(t1)).json()
    assert own["view"]["viewer"] == 1 and set(own["view"]["hands"][0]) == {0}
    assert [{k: e[k] for k in ("n", "seat", "text")} for e in own["log"]] == [
        {"n": 1, "seat": 0, "text": "swap ?"}]
    assert own["log"][0]["sentence"] == f"{own['seats'][0]['name']} puts a card under the deck and draws a card."
    assert own["log"][0]["turn"] == 1
    spectator = client.get(url, params={"step": 2, "perspective": "spectator"}).json()
    assert all(set(h) == {0} for h in spectator["view"]["hands"])
    assert client.get(url, params={"step": 99}).status_code == 400
    assert client.get(url, params={"step": 1, "perspective": "7"}).status_code == 400
    assert client.get(f"/api/tables/{table}/record").status_code == 403


def test_finished_games_replay_from_every_side(client, support):
    data = support.create_table(client, game="toysecret", agents=["random", "random"], seed=6)
    table = data["table"]
    import time

    deadline = time.monotonic() + 20
    while not client.get(f"/api/tables/{table}").json()["terminal"]:
        assert time.monotonic() < deadline, "bots did not finish"
        time.sleep(0.05)
    record = GameRecord.from_dict(client.get(f"/api/tables/{table}/record").json())
    states, actions = engine_states(record)
    for step in (0, 1, len(record.moves) // 2, len(record.moves)):
        frame = client.get(f"/api/tables/{table}/replay", params={"step": step, "perspective": "all"}).json()
        assert frame["view"] == states[step].to_dict() and frame["total"] == len(record.moves)
        assert [e["text"] for e in frame["log"]] == record.moves[:step]
        seat1 = client.get(f"/api/tables/{table}/replay", params={"step": step, "perspective": "1"}).json()
        assert seat1["view"] == states[step].view(1).to_dict()
        assert [e["text"] for e in seat1["log"]] == [
            states[i].public_notation(actions[i], 1) for i in range(step)]


@pytest.mark.parametrize("game, players, seed", [("toysecret", 2, 11), ("toysecret", 3, 12),
                                                 pytest.param("tzolkin", 2, 13, marks=engine("tzolkin"))])
def test_hints_and_reviews_tell_nobody_else_during_the_game(client, support, game, players, seed):
    """At every decision the mover asks a hint; after each, every seat (and a spectator)
    reads the hints and review routes: each sees exactly its own hints, a legal move of its
    own decision; the review is refused until the end. Over: every hint is listed."""
    data = support.create_table(client, game=game, players=players, seed=seed)
    table, tokens = data["table"], data["tokens"]
    pick = random.Random(seed)
    asked: list[dict] = []
    for _ in range(40 if game == "tzolkin" else 10_000):
        state = client.get(f"/api/tables/{table}").json()
        if state["terminal"]:
            break
        seat, number = state["current_player"], state["move_number"]
        mine = client.get(f"/api/tables/{table}", headers=support.bearer(tokens[seat])).json()
        hint = client.post(f"/api/tables/{table}/hint", headers=support.bearer(tokens[seat]),
                           json={"level": "medium", "move_number": number})
        assert hint.status_code == 200, hint.text
        assert hint.json()["seat"] == seat and hint.json()["action"] in {a["text"] for a in mine["legal"]}
        asked.append({"move_number": number, "seat": seat, "level": "medium",
                      "action": hint.json()["action"]})
        for viewer in [*range(players), None]:
            headers = support.bearer(tokens[viewer]) if viewer is not None else {}
            seen = client.get(f"/api/tables/{table}/hints", headers=headers).json()["hints"]
            assert seen == [h for h in asked if h["seat"] == viewer]
            assert client.post(f"/api/tables/{table}/review", headers=headers).status_code == 409
            assert client.get(f"/api/tables/{table}/review", headers=headers).status_code == 404
        client.post(f"/api/tables/{table}/moves", headers=support.bearer(tokens[seat]),
                    json={"move_number": number, "action_id": pick.randrange(len(mine["legal"]))})
    if game != "tzolkin":  # its first 40 decisions only
        assert client.get(f"/api/tables/{table}").json()["terminal"]
        assert client.get(f"/api/tables/{table}/hints").json()["hints"] == asked
        assert client.get(f"/api/tables/{table}/record").json()["meta"]["hints"] == asked

"""Game reviews (queued on the bot workers, stored, computed once) and hints (views only,
refused to spectators, in finished and rated games, recorded)."""

from __future__ import annotations

import time

import pytest

from mayagames.core import new_game


def wait_until(predicate, timeout=30.0):
    deadline = time.monotonic() + timeout
    while not (found := predicate()):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)
    return found


def finished_table(client, support, seed=3):
    data = support.create_table(client, agents=["random", "random"], seed=seed)
    table = data["table"]
    wait_until(lambda: client.get(f"/api/tables/{table}").json()["terminal"])
    return table


def review_done(client, table):
    answer = client.get(f"/api/tables/{table}/review").json()
    return answer if answer["status"] == "done" else None


def test_a_review_is_computed_once_stored_and_served_after_a_restart(make_app, support):
    from fastapi.testclient import TestClient

    with TestClient(make_app(review_budget="40i")) as client:
        table = finished_table(client, support)
        assert client.get(f"/api/tables/{table}/review").status_code == 404
        first = client.post(f"/api/tables/{table}/review")
        assert first.status_code == 200 and first.json()["status"] in ("queued", "running", "done")
        again = client.post(f"/api/tables/{table}/review").json()  # no second job
        done = wait_until(lambda: review_done(client, table))
        review = done["review"]
        assert review["format"] == "mayagames-analysis/1" and review["budget"] == "40i"
        moves = client.get(f"/api/tables/{table}/record").json()["moves"]
        assert review["moves"] == len(moves)
        assert [d["played"] for d in review["decisions"]] == moves
        assert {p["seat"] for p in review["players"]} == {0, 1}
        assert client.post(f"/api/tables/{table}/review").json() == done
        assert client.app.state.reviews.computed == 1
        assert again["status"] in ("queued", "running", "done")
    with TestClient(make_app(review_budget="40i")) as client:  # a restarted server
        assert client.get(f"/api/tables/{table}/review").json() == done
        assert client.post(f"/api/tables/{table}/review").json() == done
        assert client.app.state.reviews.computed == 0


def test_only_finished_games_are_reviewed(client, support):
    data = support.create_table(client, seed=4)
    answer = client.post(f"/api/tables/{data['table']}/review")
    assert answer.status_code == 409 and answer.json()["error"] == "not_finished"
    assert client.post("/api/tables/nosuch/review").status_code == 404


def test_bad_review_budget_is_refused(make_app):
    with pytest.raises(ValueError):
        make_app(review_budget="2s")


def hint(client, table, token, move_number, level="medium"):
    return client.post(f"/api/tables/{table}/hint", json={"level": level, "move_number": move_number},
                       headers={"Authorization": f"Bearer {token}"} if token else {})


def test_a_hint_is_the_bots_move_for_my_decision_and_is_recorded(make_app, support):
    from fastapi.testclient import TestClient

    with TestClient(make_app(hint_budgets={"hard": "60i"})) as client:
        data = support.create_table(client, seed=5)
        table, tokens = data["table"], data["tokens"]
        state = client.get(f"/api/tables/{table}", headers=support.bearer(tokens[0])).json()
        seat, number = state["current_player"], state["move_number"]
        legal = {a["text"] for a in state["legal"]}
        answer = hint(client, table, tokens[seat], number, "hard")
        assert answer.status_code == 200, answer.text
        given = answer.json()
        assert given["action"] in legal and given["action_dict"]["text"] == given["action"]
        assert 0.0 <= given["win_prob"] <= 1.0 and given["level"] == "hard"
        assert hint(client, table, tokens[seat], number, "hard").json() == given  # stored
        used = client.get(f"/api/tables/{table}/hints", headers=support.bearer(tokens[seat])).json()["hints"]
        assert used == [{"move_number": number, "seat": seat, "level": "hard",
                         "action": given["action"]}]
        assert client.get(f"/api/tables/{table}/hints").json()["hints"] == []  # the seat's own
        # the other seat (not to move), a spectator, a stale move number: refused
        other = hint(client, table, tokens[1 - seat], number)
        assert other.status_code == 403 and other.json()["error"] == "not_your_turn"
        spectator = hint(client, table, None, number)
        assert spectator.status_code == 403 and spectator.json()["error"] == "spectator"
        stale = hint(client, table, tokens[seat], number + 3)
        assert stale.status_code == 409
        bad = client.post(f"/api/tables/{table}/hint", json={"level": "god", "move_number": number},
                          headers=support.bearer(tokens[seat]))
        assert bad.status_code == 422 and "error" in bad.json()
        # play the game out: hints are in the record, and no more hints once it is over
        for _ in range(200):
            state = client.get(f"/api/tables/{table}").json()
            if state["terminal"]:
                break
            mover = state["current_player"]
            mine = client.get(f"/api/tables/{table}", headers=support.bearer(tokens[mover])).json()
            client.post(f"/api/tables/{table}/moves", headers=support.bearer(tokens[mover]),
                        json={"move_number": mine["move_number"], "action_id": 0})
        record = client.get(f"/api/tables/{table}/record").json()
        assert record["meta"]["hints"] == used
        assert client.get(f"/api/tables/{table}/hints").json()["hints"] == used  # over: everyone
        over = hint(client, table, tokens[0], len(record["moves"]))
        assert over.status_code == 409 and over.json()["error"] == "game_over"


def test_hints_are_refused_in_rated_games(make_app, support):
    from fastapi.testclient import TestClient

    app = make_app()
    reviews = app.state.reviews
    with TestClient(app) as client:
        data = support.create_table(client, seed=6)
        table, tokens = data["table"], data["tokens"]
        reviews.is_rated = lambda room: room.id == table  # as a rated table says it is
        state = client.get(f"/api/tables/{table}").json()
        answer = hint(client, table, tokens[state["current_player"]], state["move_number"])
        assert answer.status_code == 403 and answer.json()["error"] == "rated"
        assert client.get(f"/api/tables/{table}/hints").json()["hints"] == []


def test_a_hint_reads_only_the_seats_view():
    """The hint is computed from the view: another truth behind it gives the same hint."""
    from mayagames.core.rng import Rng
    from mayagames.server.reviews import compute_hint

    state = new_game("tikal", 2, seed=3)
    rng = Rng(1)
    for _ in range(25):
        state.apply(state.legal_actions()[rng.randbelow(len(state.legal_actions()))])
    seat = state.current_player
    view = state.view(seat)
    for level in ("medium", "hard"):
        expected = compute_hint(view, seat, level, "40i", 9)
        other = view.determinize(Rng(2)).view(seat)
        assert compute_hint(other, seat, level, "40i", 9) == expected


def test_reviews_and_hints_stay_within_the_thinking_caps(make_app):
    from mayagames.arena.review import Budget

    app = make_app(review_budget="50000i", hint_budgets={"hard": "9s"})
    limits = app.state.service.limits
    assert app.state.reviews.budget == Budget(limits.bot_max_iterations)
    assert Budget.parse(app.state.reviews.hint_budgets["hard"]) == Budget(
        limits.bot_max_iterations, limits.bot_max_seconds)

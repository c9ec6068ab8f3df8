"""Hints speak the game's language and use the review's search (issue 23 item 13)."""

from __future__ import annotations


def test_the_hard_hint_uses_the_reviews_budget_and_tells_the_move_in_words(make_app, support):
    from fastapi.testclient import TestClient

    app = make_app(review_budget="40i")
    assert app.state.reviews.hint_budgets["hard"] == "40i"  # the review's budget (was mcts:1s)
    with TestClient(app) as client:
        data = support.create_table(client, game="tzolkin", seed=5)
        table, tokens = data["table"], data["tokens"]
        for _ in range(6):  # past the draft: a worker placement
            state = client.get(f"/api/tables/{table}").json()
            mine = client.get(f"/api/tables/{table}", headers=support.bearer(tokens[state["current_player"]])).json()
            client.post(f"/api/tables/{table}/moves", headers=support.bearer(tokens[mine["seat"]]),
                        json={"move_number": mine["move_number"], "action_id": 0})
        state = client.get(f"/api/tables/{table}").json()
        seat = state["current_player"]
        for level in ("hard", "medium"):
            if level == "medium":  # one hint per decision: the next one
                mine = client.get(f"/api/tables/{table}", headers=support.bearer(tokens[seat])).json()
                client.post(f"/api/tables/{table}/moves", headers=support.bearer(tokens[seat]),
                            json={"move_number": mine["move_number"], "action_id": 0})
                state = client.get(f"/api/tables/{table}").json()
                seat = state["current_player"]
            answer = client.post(f"/api/tables/{table}/hint", headers=support.bearer(tokens[seat]),
                                 json={"level": level, "move_number": state["move_number"]})
            assert answer.status_code == 200, answer.text
            hint = answer.json()
            assert hint["sentence"].startswith(f"P{seat} ") and hint["sentence"] != hint["action"]
            assert "{seat:" not in hint["sentence"]
            assert hint["confidence"] and not any(ch.isdigit() for ch in hint["confidence"])
            if level == "hard":
                assert "win chance" in hint["chances"] and hint["bot"] == "mcts:40i"

"""/metrics (Prometheus text, behind a token), /api/ready, JSON logs with request and table ids
(issue 22)."""

from __future__ import annotations

import io
import json
import logging
import re
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine

from mayagames.server.limits import Rate, ServerLimits
from mayagames.server.observability import JsonFormatter, log_config

TOKEN = "metrics-secret"


def sample(page: str, name: str, **labels: str) -> float:
    """The value of one sample of a metrics page (0 when absent)."""
    wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in page.splitlines():
        if line.startswith("#"):
            continue
        key, _, value = line.rpartition(" ")
        metric, _, rest = key.partition("{")
        found = ",".join(sorted(rest.rstrip("}").split(","))) if rest else ""
        if metric == name and found == wanted:
            return float(value)
    return 0.0


def metrics(client: Any) -> str:
    answer = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return answer.text


def test_metrics_are_not_public(make_app):
    with TestClient(make_app()) as client:  # no token set: no page
        assert client.get("/metrics").status_code == 404
    with TestClient(make_app(metrics_token=TOKEN)) as client:
        assert client.get("/metrics").status_code == 401
        assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
        assert "mayagames_http_requests_total" in metrics(client)


def test_requests_moves_tables_websockets_and_bots_are_counted(make_app, support):
    with TestClient(make_app(metrics_token=TOKEN)) as client:
        table = support.create_table(client, "toy")
        support.play_first_moves(client, table, 2)
        client.get("/api/tables/nosuchtable")
        with client.websocket_connect(f"/ws/tables/{table['table']}") as ws:
            ws.send_json({"type": "hello", "token": None})
            ws.receive_json()
            page = metrics(client)
            assert sample(page, "mayagames_websocket_connections") == 1
        bots = support.create_table(client, "toy", agents=["random", "random"])
        deadline = time.monotonic() + 30
        while not client.get(f"/api/tables/{bots['table']}").json()["terminal"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        page = metrics(client)
    route = "/api/tables/{table_id}/moves"
    assert sample(page, "mayagames_http_requests_total", route=route, method="POST", status="200") == 2
    assert sample(page, "mayagames_http_request_seconds_count", route=route, method="POST") == 2
    assert sample(page, "mayagames_http_requests_total", route="/api/tables/{table_id}",
                  method="GET", status="404") == 1
    assert sample(page, "mayagames_moves_stored_total") >= 2 + 1  # people's and bots' moves
    assert sample(page, "mayagames_tables_in_memory") == 2
    assert sample(page, "mayagames_websocket_connections") == 0
    assert sample(page, "mayagames_websocket_connections_opened_total") == 1
    assert sample(page, "mayagames_bot_decisions_total", outcome="chose") >= 1
    assert sample(page, "mayagames_bot_decision_seconds_count") >= 1
    assert sample(page, "mayagames_review_queue_length") == 0


def test_rate_limit_refusals_are_counted(make_app, support):
    limits = ServerLimits(allow_fixed_seed=True, rate_tables=Rate(2, 60))
    with TestClient(make_app(metrics_token=TOKEN, limits=limits)) as client:
        codes = [client.post("/api/tables", json={
            "game": "toy", "players": 2, "options": {},
            "seats": [{"name": "A", "agent": "human"}, {"name": "B", "agent": "human"}]}).status_code
            for _ in range(3)]
        assert codes == [201, 201, 429]
        page = metrics(client)
    assert sample(page, "mayagames_rate_limit_refusals_total", limit="tables") == 1
    assert sample(page, "mayagames_http_requests_total", route="/api/tables", method="POST",
                  status="429") == 1


def test_ready_fails_while_the_database_is_unreachable(make_app, tmp_path):
    with TestClient(make_app(metrics_token=TOKEN)) as client:
        assert client.get("/api/ready").json()["ready"] is True
        service = client.app.state.service
        engine = service.db.engine
        service.db.engine = create_engine(f"sqlite:///{tmp_path / 'no' / 'such' / 'dir.db'}")
        try:
            answer = client.get("/api/ready")
            assert answer.status_code == 503
            assert "database does not answer" in answer.json()["reason"]
            assert client.get("/api/health").status_code == 200  # the process itself is alive
            page = metrics(client)
            assert sample(page, "mayagames_database_errors_total", error="OperationalError") == 1
        finally:
            service.db.engine.dispose()
            service.db.engine = engine
        assert client.get("/api/ready").status_code == 200


def test_json_logs_carry_the_request_and_table_ids(make_app, support):
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("mayagames.access")
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        with TestClient(make_app()) as client:
            table = support.create_table(client, "toy")
            answer = client.get(f"/api/tables/{table['table']}", headers={"X-Request-ID": "abc-123"})
            assert answer.headers["x-request-id"] == "abc-123"
            mine = client.get("/api/games").headers["x-request-id"]
            assert re.fullmatch(r"[0-9a-f]{16}", mine)  # made up when not given
            bad = client.get("/api/games", headers={"X-Request-ID": "x" * 500})
            assert bad.headers["x-request-id"] != "x" * 500  # not echoed: a new one
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    state = next(e for e in lines if e.get("request_id") == "abc-123")
    assert state["table_id"] == table["table"]
    assert state["route"] == "/api/tables/{table_id}" and state["status"] == 200
    assert state["level"] == "info" and state["logger"] == "mayagames.access"
    assert any(e.get("request_id") == mine and "table_id" not in e for e in lines)


def test_log_format_option():
    assert log_config("text", "info") is None
    config = log_config("json", "warning")
    assert config is not None and config["loggers"]["mayagames"]["level"] == "WARNING"
    with pytest.raises(ValueError, match="text or json"):
        log_config("xml", "info")

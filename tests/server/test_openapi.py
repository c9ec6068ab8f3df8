"""``/docs`` and ``/openapi.json`` (issue 25 item 3): served through the same middleware as
every page (security headers, metrics, the cross-site guard untouched), needing no network;
and the response models describe real answers exactly without changing them: each answer's
keys are its model's fields, in the model's order, and a number keeps the type it was
computed with (routes/models.py)."""

from __future__ import annotations

import typing
from typing import Any

from fastapi.testclient import TestClient
from pydantic import BaseModel

from mayagames.server.routes import models

TOKEN = "docs-metrics-token"


def nested_model(annotation: Any, value: Any) -> type[BaseModel] | None:
    """The model a field's value is checked against (the list's items' for a list; for a
    union of models the one whose required fields the value has)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    candidates = [a for a in typing.get_args(annotation)
                  if isinstance(a, type) and issubclass(a, BaseModel)]
    fitting = [m for m in candidates if isinstance(value, dict) and
               {n for n, f in m.model_fields.items() if f.is_required()} <= set(value)]
    return fitting[0] if fitting else None


def assert_described(model: type[BaseModel], answer: Any, where: str = "answer") -> None:
    """``answer`` has exactly ``model``'s fields (those with a default may be absent), in
    its order; nested models likewise."""
    assert isinstance(answer, dict), where
    fields = model.model_fields
    required = {name for name, field in fields.items() if field.is_required()}
    assert required <= set(answer), (where, sorted(required - set(answer)))
    assert set(answer) <= set(fields), (where, sorted(set(answer) - set(fields)))
    assert list(answer) == [name for name in fields if name in answer], (where, list(answer))
    for name, field in fields.items():
        value = answer.get(name)
        items = value if typing.get_origin(field.annotation) is list else [value]
        if typing.get_origin(field.annotation) is list:
            (inner,) = typing.get_args(field.annotation)
        else:
            inner = field.annotation
        for i, item in enumerate(items if isinstance(items, list) else []):
            sub = nested_model(inner, item)
            if sub is not None:
                assert_described(sub, item, f"{where}.{name}[{i}]")


def test_docs_and_openapi_pass_the_guard_and_are_counted(make_app):
    with TestClient(make_app(metrics_token=TOKEN)) as client:
        document = client.get("/openapi.json")
        assert document.status_code == 200 and document.json()["info"]["title"] == "mayagames"
        assert document.headers["x-content-type-options"] == "nosniff"  # guard.py's headers
        page = client.get("/docs")
        assert page.status_code == 200 and "swagger-ui" in page.text
        policy = page.headers["content-security-policy"]
        # the page's own policy: the Swagger files and its inline script, nothing else added
        assert "script-src 'self' https://cdn.jsdelivr.net 'sha256-" in policy
        assert "frame-ancestors 'none'" in policy and "connect-src 'self'" in policy
        assert page.headers["x-frame-options"] == "DENY"
        assert client.get("/redoc").status_code == 404
        metrics = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).text
        assert 'route="/docs",status="200"' in metrics  # observability.py counts the page
        cross = client.post("/api/logout", headers={"Origin": "https://evil.example"})
        assert cross.status_code == 403 and cross.json()["error"] == "cross_site"


def test_answers_are_exactly_what_their_models_describe(pclient, support):
    ana = support.register(pclient, "Ana")
    support.register(pclient, "Ben")
    assert_described(models.Health, pclient.get("/api/health").json())
    assert_described(models.Games, pclient.get("/api/games").json())
    support.use(pclient, ana)
    created = pclient.post("/api/tables", json={"game": "toy", "players": 2, "public": True})
    assert created.status_code == 201
    assert_described(models.TableCreated, created.json())
    table = created.json()["table"]
    assert_described(models.Me, pclient.get("/api/me").json())
    support.use(pclient, None)
    assert_described(models.TableList, pclient.get("/api/tables?open=true").json())
    assert_described(models.TableList, pclient.get("/api/tables").json())
    support.use(pclient, ana)
    said = pclient.post(f"/api/tables/{table}/chat", json={"text": "hello"})
    assert said.status_code == 201
    assert_described(models.ChatLine, said.json())
    assert_described(models.Chat, pclient.get(f"/api/tables/{table}/chat").json())
    private = pclient.post("/api/tables", json={"game": "toy", "players": 2}).json()["table"]
    assert_described(models.Invite, pclient.post(f"/api/tables/{private}/seats/1/invite").json())
    assert_described(models.Ladder, pclient.get("/api/ratings/toy").json())
    assert_described(models.Profile, pclient.get("/api/players/ana").json())
    assert_described(models.Profile, pclient.get("/api/players/easy").json())


def test_a_model_sends_each_value_as_computed():
    """A number keeps its type (25 stays 25 where a float field would send 25.0), a value
    read from a damaged row is sent as read (no 500), an absent key stays absent, and what
    a model does not declare is kept (as FastAPI serializes a response model)."""
    line = {"id": 1, "author": "Ana", "seat": None, "system": False, "text": "hi", "at": 25}
    assert models.ChatLine.model_validate(line).model_dump_json(exclude_unset=True) == \
        '{"id":1,"author":"Ana","seat":null,"system":false,"text":"hi","at":25}'
    damaged = {**line, "at": "yesterday", "extra": [1.5]}
    assert models.ChatLine.model_validate(damaged).model_dump(exclude_unset=True) == damaged
    over = models.QuickStatus.model_validate({"waiting": False, "table": None})
    assert over.model_dump_json(exclude_unset=True) == '{"waiting":false,"table":null}'


def test_an_answer_keeps_its_bytes(pclient, support):
    """A wait that is over has only ``waiting`` and ``table`` (the model's other fields are
    not added as null); a wait's numbers are sent as computed."""
    support.use(pclient, support.register(pclient, "Ana"))
    waiting = pclient.post("/api/quick", json={"game": "toy", "bot_after": 12.5})
    assert waiting.status_code == 200
    assert '"bot_after":12.5,' in waiting.text and '"offer_bot":false,"bot":null}' in waiting.text
    assert_described(models.QuickStatus, waiting.json())
    left = pclient.delete("/api/quick")
    assert left.text == '{"waiting":false,"table":null}'

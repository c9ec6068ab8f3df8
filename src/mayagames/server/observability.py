"""What a running server says about itself: Prometheus metrics, readiness, JSON logs.

* ``GET /metrics``: the Prometheus text format (prometheus_client), for one instance (each
  process of several instances or ``--workers`` has its own: scrape each). Not public:
  it answers only with ``Authorization: Bearer TOKEN`` where TOKEN is the setting
  ``MAYAGAMES_METRICS_TOKEN`` (``serve --metrics-token``); without the setting it is 404.
* ``GET /api/ready``: 200 while the database answers, 503 (with the reason) while it does not
  (``/api/health`` stays the liveness check: the process answers).
* ``serve --log-format json``: one JSON object per log line, with the request id (the
  client's ``X-Request-ID`` or a new one, sent back in the answer) and the table id of the
  request, and one ``request`` line per HTTP request (method, route, status, seconds).

The counters are fed by thin wrappers put around the service's own objects when the app is
built (:func:`instrument`), so the game code knows nothing of them.
"""

from __future__ import annotations

import asyncio
import contextvars
import hmac
import json
import logging
import os
import re
import secrets
import time
from typing import Any, Callable

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

METRICS_TOKEN_ENV = "MAYAGAMES_METRICS_TOKEN"
REQUEST_ID = contextvars.ContextVar("mayagames_request_id", default="")
TABLE_ID = contextvars.ContextVar("mayagames_table_id", default="")
TABLE_IN_PATH = re.compile(r"^/(?:api/tables|ws/tables|table|review)/([A-Za-z0-9_-]{1,64})")
REQUEST_ID_OK = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
access_log = logging.getLogger("mayagames.access")


class Metrics:
    """The metrics of one app (its own registry: several apps in one process stay apart)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.requests = Counter("mayagames_http_requests_total", "HTTP requests by route, "
                                "method and status", ["route", "method", "status"], registry=r)
        self.latency = Histogram("mayagames_http_request_seconds", "HTTP request latency by route",
                                 ["route", "method"], registry=r,
                                 buckets=(.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10))
        self.websockets = Gauge("mayagames_websocket_connections", "open WebSocket connections",
                                registry=r)
        self.websockets_total = Counter("mayagames_websocket_connections_opened",
                                        "WebSocket connections opened", registry=r)
        self.moves = Counter("mayagames_moves_stored_total", "moves stored in the database",
                             registry=r)
        self.bot_decisions = Counter("mayagames_bot_decisions_total",
                                     "bot decisions by outcome (chose, failed)", ["outcome"],
                                     registry=r)
        self.bot_seconds = Histogram("mayagames_bot_decision_seconds", "time a bot decision took",
                                     registry=r,
                                     buckets=(.001, .01, .05, .1, .25, .5, 1, 2, 5, 10, 30))
        self.refusals = Counter("mayagames_rate_limit_refusals_total",
                                "requests refused by a rate limit, by limit", ["limit"], registry=r)
        self.db_errors = Counter("mayagames_database_errors_total",
                                 "database operations that failed, by error", ["error"], registry=r)

    def expose(self) -> bytes:
        return generate_latest(self.registry)


class LiveGauges:
    """Gauges read when scraped: tables in memory, the review queue."""

    def __init__(self, service: Any, reviews: Any) -> None:
        self.service, self.reviews = service, reviews

    def collect(self) -> Any:
        tables = GaugeMetricFamily("mayagames_tables_in_memory", "tables loaded in memory")
        tables.add_metric([], len(self.service.rooms))
        yield tables
        queue = GaugeMetricFamily("mayagames_review_queue_length",
                                  "game reviews waiting or running")
        queue.add_metric([], len(self.reviews.waiting) + len(getattr(self.reviews, "jobs", {})))
        yield queue

    def describe(self) -> list[Any]:
        return []


def instrument(metrics: Metrics, service: Any, reviews: Any) -> None:
    """Wrap the service's database calls, move writes, bot decisions and rate limiter."""
    metrics.registry.register(LiveGauges(service, reviews))
    in_db = service.in_db

    async def counted_in_db(fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return await in_db(fn, *args)
        except SQLAlchemyError as exc:
            metrics.db_errors.labels(type(exc).__name__).inc()
            raise

    service.in_db = counted_in_db
    append_move = service.db.append_move

    def counted_append_move(*args: Any, **kwargs: Any) -> int:
        version = append_move(*args, **kwargs)
        metrics.moves.inc()
        return version

    service.db.append_move = counted_append_move
    decide = service.bots.decide

    async def timed_decide(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            result = await decide(*args, **kwargs)
        except BaseException:
            metrics.bot_decisions.labels("failed").inc()
            raise
        finally:
            metrics.bot_seconds.observe(time.perf_counter() - start)
        metrics.bot_decisions.labels("chose" if result[2] is None else "failed").inc()
        return result

    service.bots.decide = timed_decide
    allow = service.rates.allow

    def counted_allow(kind: str, key: str, rate: Any) -> float:
        wait = allow(kind, key, rate)
        if wait:
            metrics.refusals.labels(kind).inc()
        return wait

    service.rates.allow = counted_allow


# --- the ASGI middleware ----------------------------------------------------------------
class Observe:
    """Counts and times every HTTP request by route (the route's template, not its path:
    ``/api/tables/{table_id}``), counts WebSocket connections, and sets the request id and
    table id that the JSON log lines carry."""

    def __init__(self, app: Any, metrics: Metrics) -> None:
        self.app, self.metrics = app, metrics

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers") or ()).get(b"x-request-id", b"").decode("latin-1")
        request_id = given if REQUEST_ID_OK.match(given) else secrets.token_hex(8)
        found = TABLE_IN_PATH.match(scope.get("path", ""))
        tokens = (REQUEST_ID.set(request_id), TABLE_ID.set(found.group(1) if found else ""))
        try:
            if kind == "websocket":
                await self.websocket(scope, receive, send)
            else:
                await self.http(scope, receive, send, request_id)
        finally:
            TABLE_ID.reset(tokens[1])
            REQUEST_ID.reset(tokens[0])

    async def websocket(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        opened = False

        async def watch(message: dict[str, Any]) -> None:
            nonlocal opened
            if message["type"] == "websocket.accept" and not opened:
                opened = True
                self.metrics.websockets.inc()
                self.metrics.websockets_total.inc()
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            if opened:
                self.metrics.websockets.dec()

    async def http(self, scope: dict[str, Any], receive: Any, send: Any, request_id: str) -> None:
        start = time.perf_counter()
        status = 500

        async def watch(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message = {**message, "headers": [*message.get("headers", ()),
                                                  (b"x-request-id", request_id.encode())]}
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            seconds = time.perf_counter() - start
            route = scope.get("route")
            name = getattr(route, "path", None) or "(no route)"
            method = scope.get("method", "GET")
            self.metrics.requests.labels(name, method, str(status)).inc()
            self.metrics.latency.labels(name, method).observe(seconds)
            access_log.info("%s %s %d", method, scope.get("path", ""), status,
                            extra={"route": name, "status": status,
                                   "seconds": round(seconds, 6), "method": method})


# --- routes -------------------------------------------------------------------------
def add_routes(app: Any, metrics: Metrics, service: Any, token: str | None) -> None:
    @app.get("/metrics", include_in_schema=False)
    async def metrics_page(request: Request) -> Response:
        """Prometheus metrics of this instance, for the holder of the metrics token."""
        given = request.headers.get("authorization", "")
        if not token:
            return JSONResponse({"error": "not_found", "message": "no such page (metrics are "
                                 f"off: set {METRICS_TOKEN_ENV})"}, status_code=404)
        if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
            return JSONResponse({"error": "no_token", "message": "metrics need the metrics "
                                 "token: Authorization: Bearer TOKEN"}, status_code=401,
                                headers={"WWW-Authenticate": "Bearer"})
        return Response(metrics.expose(), media_type=CONTENT_TYPE_LATEST)

    @app.get("/api/ready")
    async def ready() -> JSONResponse:
        """200 while the database answers (within 5 s), 503 with the reason otherwise."""
        try:
            await asyncio.wait_for(service.in_db(ping, service.db), timeout=5)
        except Exception as exc:
            reason = "timed out" if isinstance(exc, asyncio.TimeoutError) else type(exc).__name__
            return JSONResponse({"ready": False, "instance": service.instance,
                                 "reason": f"the database does not answer ({reason})"},
                                status_code=503)
        return JSONResponse({"ready": True, "instance": service.instance})


def ping(db: Any) -> None:
    with db.engine.connect() as conn:
        conn.execute(text("SELECT 1"))


def metrics_token(given: str | None = None) -> str | None:
    token = given if given is not None else os.environ.get(METRICS_TOKEN_ENV, "")
    return token.strip() or None


# --- JSON logs -------------------------------------------------------------------------
class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request and table ids, and
    the fields of an access line."""

    FIELDS = ("route", "status", "seconds", "method")

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(), "logger": record.name,
            "message": record.getMessage()}
        for key, var in (("request_id", REQUEST_ID), ("table_id", TABLE_ID)):
            value = var.get()
            if value:
                entry[key] = value
        for key in self.FIELDS:
            if hasattr(record, key):
                entry[key] = getattr(record, key)
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


JsonFormatter.converter = time.gmtime  # type: ignore[assignment]


def log_config(log_format: str, level: str) -> dict[str, Any] | None:
    """uvicorn's ``log_config`` for ``--log-format`` (None: uvicorn's own text format, and
    no access lines from mayagames)."""
    if log_format == "text":
        return None
    if log_format != "json":
        raise ValueError(f"--log-format is text or json, not {log_format!r}")
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    loggers = {name: {"handlers": ["json"], "level": level.upper(), "propagate": False}
               for name in ("mayagames", "uvicorn", "uvicorn.error")}
    loggers["uvicorn.access"] = {"handlers": [], "level": "WARNING", "propagate": False}
    # a line per request whatever the level (uvicorn's own access log is off)
    loggers["mayagames.access"] = {"handlers": ["json"], "level": "INFO", "propagate": False}
    return {"version": 1, "disable_existing_loggers": False,
            "formatters": {"json": {"()": f"{__name__}.JsonFormatter"}},
            "handlers": {"json": handler}, "loggers": loggers}


def setup(app: Any, service: Any, reviews: Any, token: str | None) -> Metrics:
    """Metrics, their wrappers, the middleware and the routes of one app."""
    metrics = Metrics()
    instrument(metrics, service, reviews)
    app.add_middleware(Observe, metrics=metrics)
    add_routes(app, metrics, service, token)
    return metrics


__all__ = ["Metrics", "Observe", "setup", "log_config", "metrics_token", "JsonFormatter"]

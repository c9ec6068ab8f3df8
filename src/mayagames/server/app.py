"""The FastAPI application: the routers of :mod:`.routes` over
:class:`~.service.GameService` and :class:`~.players.Players`, the error handlers, the
middleware, and the static browser client.

Each concern is a router module (routes/tables.py, accounts.py, lobby.py, ratings.py,
chat.py, reviews.py, socket.py, pages.py, health.py); the objects they share are stored on
``app.state`` and reach the routes as dependencies (routes/deps.py). Pydantic validates
requests at the boundary (schemas.py) and documents the answers (routes/models.py):
``/docs`` shows every API route, ``/openapi.json`` is its OpenAPI document. A seat is
opened by its secret token (``Authorization: Bearer TOKEN`` on REST, a ``hello`` message on
the WebSocket); without a token a client is a spectator. Every error is JSON:
``{"error": code, "message": text}`` with a 4xx status (5xx only when the server itself
failed).
"""

from __future__ import annotations

import logging
import math
import time
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..web import STATIC_DIR
from . import observability
from .db import DEFAULT_URL, Database, is_unavailable
from .guard import Guard
from .limits import ServerLimits
from .players import Players
from .quickplay import QuickPlay
from .reviews import DEFAULT_REVIEW_BUDGET, Reviews
from .rooms import ServerError
from .routes import ROUTERS
from .schemas import describe_validation
from .service import GameService, unavailable
from .static import StaticStore

log = logging.getLogger("mayagames.server")


def create_app(database_url: str | None = None, *, db: Database | None = None,
               bot_delay: float = 0.0, bot_workers: int = 2, bot_processes: int = 0,
               list_test_games: bool = False, review_budget: str = DEFAULT_REVIEW_BUDGET,
               hint_budgets: dict[str, str] | None = None,
               limits: ServerLimits | None = None, time_source: Any = None,
               fast_password_hashes: bool = False, clock_tick: float = 1.0,
               secure_cookies: bool | None = None, metrics_token: str | None = None) -> FastAPI:
    """Build the app. ``database_url`` defaults to an SQLite file in the current directory;
    ``limits`` default to :meth:`ServerLimits.from_env` (safe for a public server).

    ``time_source`` (epoch seconds; default ``time.time``) drives clocks and sessions (tests
    pass a fake one); ``secure_cookies`` None: Secure when the request came over HTTPS;
    ``metrics_token``: the bearer token of ``/metrics`` (default: MAYAGAMES_METRICS_TOKEN;
    none: no metrics page). See observability.py."""
    database = db or Database(database_url or DEFAULT_URL)
    limits = limits or ServerLimits.from_env()
    service = GameService(database, bot_delay=bot_delay,
                          bot_workers=bot_workers, bot_processes=bot_processes,
                          list_test_games=list_test_games, limits=limits)
    reviews = Reviews(service, review_budget, hint_budgets,
                      is_rated=lambda room: players.meta_of(room).rated)  # no hints in rated games
    players = Players(service, clock=time_source or time.time, fast_hashes=fast_password_hashes,
                      tick=clock_tick)
    app = FastAPI(title="mayagames", version="1", lifespan=lifespan, redoc_url=None,
                  summary="Play Tikal Legend and Tzolk'in with people and bots",
                  description="The REST API of the web app (docs/server.md); the table "
                  "messages' schema is docs/wire-schema.json.", docs_url=None)
    app.state.service, app.state.players, app.state.reviews = service, players, reviews
    app.state.quick = QuickPlay(players)
    app.state.secure_cookies = secure_cookies
    app.state.static = StaticStore(STATIC_DIR)
    app.add_middleware(Guard, max_body_bytes=limits.max_body_bytes,
                       allowed_origins=limits.allowed_origins)
    install_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    app.state.metrics = observability.setup(app, service, reviews,
                                            observability.metrics_token(metrics_token))
    return app


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Start the service and the players' clocks; stop them (and the reviews) at the end."""
    service, players, reviews = app.state.service, app.state.players, app.state.reviews
    await service.start()
    players.start()
    try:
        yield
    finally:
        await players.stop()
        await reviews.stop()
        await service.stop()


# --- errors -------------------------------------------------------------------
def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ServerError)
    async def server_error(_request: Request, exc: ServerError) -> JSONResponse:
        headers = {"Retry-After": str(math.ceil(exc.retry_after))} if exc.retry_after else None
        return JSONResponse(exc.to_dict(), status_code=exc.status, headers=headers)

    @app.exception_handler(SQLAlchemyError)
    @app.exception_handler(ConnectionError)
    async def database_away(request: Request, exc: Exception) -> JSONResponse:
        """The database cannot be reached (a restart, a cut connection): 503 with
        ``Retry-After``, and the next request tries again; any other database error is a
        server failure (500)."""
        if not is_unavailable(exc):
            raise exc
        log.warning("%s %s: the database is away (%s)", request.method, request.url.path,
                    type(exc).__name__)
        return await server_error(request, unavailable(exc))

    @app.exception_handler(Exception)
    async def server_failure(request: Request, exc: Exception) -> JSONResponse:
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return JSONResponse({"error": "server_error", "message": "the server failed on this "
                             "request; nothing was changed"}, status_code=500)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = HTTP_CODES.get(exc.status_code, "bad_request" if exc.status_code < 500 else "server_error")
        message = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        if message == "There was an error parsing the body":  # not JSON FastAPI could read
            code, message = "bad_json", ("the body could not be read as JSON (it must be UTF-8, "
                                         "and numbers at most 4300 digits long)")
        return JSONResponse({"error": code, "message": message}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        malformed = any(e.get("type") == "json_invalid" for e in errors)
        return JSONResponse({"error": "bad_json" if malformed else "bad_request",
                             "message": describe_validation(errors)},
                            status_code=400 if malformed else 422)


HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed",
              413: "too_large", 415: "bad_media_type"}

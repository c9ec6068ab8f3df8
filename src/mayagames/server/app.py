"""The FastAPI application: REST + WebSocket routes over :class:`~.service.GameService`,
and the static browser client.

Routes delegate to the service; Pydantic validates requests at the boundary. A
seat is opened by its secret token (``Authorization: Bearer TOKEN`` on REST, a
``hello`` message on the WebSocket); without a token a client is a spectator.
Every error is JSON: ``{"error": code, "message": text}`` with a 4xx status
(5xx only when the server itself failed).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator
from urllib.parse import urlsplit

from fastapi import Depends, FastAPI, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ..core.errors import MayaGamesError
from ..core.registry import get_game
from ..web import STATIC_DIR
from ..web.catalogue import catalogue
from ..web.rules import rules_html
from .accounts import SESSION_COOKIE
from .db import DEFAULT_URL, Database, is_unavailable
from .guard import Guard
from .limits import Rate, RateLimiter, ServerLimits
from . import observability
from .bearer import bearer_token
from .player_routes import add_player_api
from .players import Players
from .playerstore import Account
from .reviews import DEFAULT_REVIEW_BUDGET, Reviews, add_review_api
from .rooms import Room, ServerError
from .schemas import WS_MESSAGES, CreateTable, MoveRequest, UndoRequest, WsHello, WsMove, WsUndo
from .service import GameService, Subscriber, unavailable
from .static import StaticStore

log = logging.getLogger("mayagames.server")


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), default=str)


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
    import time

    database = db or Database(database_url or DEFAULT_URL)
    limits = limits or ServerLimits.from_env()
    service = GameService(database, bot_delay=bot_delay, bot_workers=bot_workers,
                          bot_processes=bot_processes,
                          list_test_games=list_test_games, limits=limits)
    reviews = Reviews(service, review_budget, hint_budgets,
                      is_rated=lambda room: players.meta_of(room).rated)  # no hints in rated games
    players = Players(service, clock=time_source or time.time, fast_hashes=fast_password_hashes,
                      tick=clock_tick)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        players.start()
        try:
            yield
        finally:
            await players.stop()
            await reviews.stop()
            await service.stop()

    app = FastAPI(title="mayagames", version="1", lifespan=lifespan, docs_url=None, redoc_url=None,
                  summary="Play Tikal Legend and Tzolk'in with people and bots")
    app.state.service = service
    app.add_middleware(Guard, max_body_bytes=limits.max_body_bytes,
                       allowed_origins=limits.allowed_origins)
    app.state.reviews = reviews
    app.state.players = players
    install_error_handlers(app)
    add_pages(app)
    add_player_api(app, service, players, STATIC_DIR, secure_cookies)
    add_api(app, service, players)
    add_review_api(app, service, reviews, viewer_seat=players.seat_of_request)
    add_websocket(app, service, players)
    app.state.metrics = observability.setup(app, service, reviews,
                                            observability.metrics_token(metrics_token))
    return app


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


def describe_validation(errors: Any) -> str:
    """Pydantic errors as one readable line: ``body.players: Input should be ...``."""
    parts = []
    for e in errors:
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "request"
        parts.append(f"{where}: {e.get('msg', 'invalid')}")
    return "; ".join(parts)


# --- pages ----------------------------------------------------------------------
def add_pages(app: FastAPI) -> None:
    """The lobby, the table page and the static files: gzip-compressed, with ETags."""
    store = StaticStore(STATIC_DIR)

    @app.api_route("/static/{path:path}", methods=["GET", "HEAD"], include_in_schema=False)
    async def static_file(request: Request, path: str) -> Response:
        found = store.resolve(path)
        if found is None:
            raise ServerError(404, "not_found", f"no static file {path!r}")
        return store.response(request, found)

    @app.api_route("/favicon.ico", methods=["GET", "HEAD"], include_in_schema=False)
    @app.api_route("/favicon.svg", methods=["GET", "HEAD"], include_in_schema=False)
    async def favicon(request: Request) -> Response:
        return store.response(request, STATIC_DIR / "favicon.svg")

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def lobby(request: Request) -> Response:
        return store.response(request, STATIC_DIR / "index.html")

    @app.api_route("/table/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def table_page(request: Request, table_id: str) -> Response:
        return store.response(request, STATIC_DIR / "table.html")

    @app.get("/rules/{name}", include_in_schema=False)
    async def rules_page(name: str) -> HTMLResponse:
        """The game's rules in our own words (sections have anchor ids: /rules/tzolkin#buildings)."""
        try:
            info = get_game(name)
        except (MayaGamesError, ImportError, KeyError) as exc:
            raise ServerError(404, "no_game", f"no game {name[:40]!r}") from exc
        page = rules_html(info)
        if not page:
            raise ServerError(404, "no_rules", f"{info.title} has no rules page")
        return HTMLResponse(page)


# --- REST -------------------------------------------------------------------------
def client_address(conn: Request | WebSocket) -> str:
    """The client's address (uvicorn puts the proxy's X-Forwarded-For here when trusted)."""
    return conn.client.host if conn.client else "unknown"


def add_api(app: FastAPI, service: GameService, players: Players) -> None:
    limits = service.limits

    async def room_of(table_id: str) -> Room:
        return await service.get_room(table_id)

    def state_request(request: Request) -> None:
        service.check_rate("state", client_address(request), limits.rate_state, "state requests")

    def move_request(request: Request, token: str | None = Depends(bearer_token)) -> None:
        service.check_rate("moves", client_address(request), limits.rate_moves_address,
                           "moves from your address")
        if token:
            service.check_rate("moves-token", token, limits.rate_moves, "moves for this seat")

    async def account(request: Request) -> Account | None:
        """The session's account; 401 for an expired or unknown session (acting needs one)."""
        return await players.account_of(request.cookies.get(SESSION_COOKIE))

    async def viewer(request: Request) -> Account | None:
        """The session's account for reading (an expired session reads as a spectator)."""
        try:
            return await account(request)
        except ServerError:
            return None

    async def fresh_room_of(table_id: str) -> Room:
        """The room with every write of every instance (reads after a write elsewhere)."""
        return await service.get_room(table_id, fresh=True)

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "tables_in_memory": len(service.rooms),
                "instance": service.instance}

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        """The games on offer, with their options; the seat kinds (human or a bot spec
        name) and the bots a lobby offers, with a line on each (difficulty levels first)."""
        return {"games": service.games(), "agents": service.agents(), "bots": service.bot_choices()}

    @app.get("/api/games/{name}/catalogue")
    async def game_catalogue(name: str) -> JSONResponse:
        """What each component of the game is and does (titles, costs, effects), for the
        boards' labels and details; static and public. ``{"game": name}`` alone for a game
        without one."""
        try:
            info = get_game(name)
        except (ImportError, MayaGamesError) as exc:
            raise ServerError(404, "no_game", f"there is no game {name!r}") from exc
        data = catalogue(info.name) or {"game": info.name}
        return JSONResponse(data, headers={"Cache-Control": "public, max-age=3600"})

    @app.post("/api/tables", status_code=201)
    async def create_table(req: CreateTable, request: Request,
                           acc: Account | None = Depends(account)) -> dict[str, Any]:
        """Create a table; the answer holds each human seat's secret token (shown once).
        Logged in, the creator's account takes the first person's seat."""
        service.check_rate("tables", client_address(request), limits.rate_tables, "new tables")
        speed = players.check_create(req, acc)
        room, tokens = await service.create_table(req, players.preparer(req, acc, speed))
        tokens = players.visible_tokens(room, tokens)
        seats = []
        for seat, token in zip(room.seats_public(), tokens):
            invite = f"/table/{room.id}#token={token}" if token else None
            seats.append({**seat, "token": token, "invite": invite})
        return {"table": room.id, "game": room.info.name, "seats": seats,
                "spectate": f"/table/{room.id}", **players.lobby_fields(room)}

    @app.get("/api/tables")
    async def list_tables(status: str | None = Query(None, pattern="^(playing|finished)$"),
                          limit: int = Query(50, ge=1, le=500),
                          open: bool = Query(False, description="public tables with a free seat"),
                          acc: Account | None = Depends(viewer)) -> dict[str, Any]:
        """Recent tables: the public ones, and the session's account's own; a private
        table is listed to nobody but its seats (it is still open to whoever has its link)."""
        if open:
            return {"tables": await players.open_tables(limit)}
        only = players.store.listed_to(acc.id if acc else None)
        return {"tables": await service.list_tables(status, limit, only)}

    @app.get("/api/tables/{table_id}", dependencies=[Depends(state_request)])
    async def table_state(room: Room = Depends(fresh_room_of),
                          token: str | None = Depends(bearer_token),
                          acc: Account | None = Depends(viewer)) -> dict[str, Any]:
        """The position as the token's (else the account's) seat sees it (else a spectator's)."""
        return room.message(await players.seat(room, token, acc))

    @app.post("/api/tables/{table_id}/moves", dependencies=[Depends(move_request)])
    async def move(req: MoveRequest, room: Room = Depends(room_of),
                   token: str | None = Depends(bearer_token),
                   acc: Account | None = Depends(account)) -> dict[str, Any]:
        """Play for the token's (else the account's) seat; ``move_number`` must be the current one."""
        seat = seat_required(await players.seat(room, token, acc))
        room = await service.play(room, seat, req.move_number, action_id=req.action_id,
                                  text=req.action)
        return room.message(seat)

    @app.post("/api/tables/{table_id}/undo", dependencies=[Depends(move_request)])
    async def undo(req: UndoRequest, room: Room = Depends(room_of),
                   token: str | None = Depends(bearer_token),
                   acc: Account | None = Depends(account)) -> dict[str, Any]:
        seat = seat_required(await players.seat(room, token, acc))
        room = await service.undo(room, seat, req.move_number)
        return room.message(seat)

    @app.post("/api/tables/{table_id}/rematch", status_code=201)
    async def rematch(request: Request, room: Room = Depends(room_of),
                      token: str | None = Depends(bearer_token),
                      acc: Account | None = Depends(account)) -> dict[str, Any]:
        """A new game of a finished table: same seats (and accounts) and options, a new seed.
        The first call creates it; each guest seat's token holder gets that seat's new invite
        (once); an account's seat is opened by its session (no invite)."""
        seat = seat_required(await players.seat(room, token, acc))
        if room.rematch is None:  # creating a table: the rate of new tables applies
            service.check_rate("tables", client_address(request), limits.rate_tables, "new tables")
        new_room, token_of_seat, created = await service.rematch(
            room, seat, players.rematch_preparer(room),
            hand_out=bool(token) and players.rematch_seat(room, seat))
        if created:
            await players.rematch_started(room)
        seats = []
        for public in new_room.seats_public():
            mine = public["seat"] == seat and token_of_seat is not None
            seats.append({**public, "token": token_of_seat if mine else None,
                          "invite": f"/table/{new_room.id}#token={token_of_seat}" if mine else None})
        return {"table": new_room.id, "game": new_room.info.name, "rematch_of": room.id,
                "seat": seat, "seats": seats, "spectate": f"/table/{new_room.id}"}

    @app.get("/api/tables/{table_id}/replay", dependencies=[Depends(state_request)])
    async def replay(step: int = Query(..., ge=0), perspective: str = Query("spectator"),
                     room: Room = Depends(fresh_room_of),
                     token: str | None = Depends(bearer_token),
                     acc: Account | None = Depends(viewer)) -> dict[str, Any]:
        """One frame of a replay: a finished game from any side, else only one's own side."""
        return service.replay_frame(room, await players.seat(room, token, acc), step, perspective)

    @app.get("/api/tables/{table_id}/record", dependencies=[Depends(state_request)])
    async def record(room: Room = Depends(fresh_room_of)) -> Response:
        data = service.record(room)
        data["meta"]["hints"] = await app.state.reviews.hints(room)  # hints used (reviews.py);
        # service.record refuses an unfinished game, and hints() lists them all only once over
        return JSONResponse(data)


def seat_required(seat: int | None) -> int:
    if seat is None:
        raise ServerError(401, "no_token", "moving needs your seat: its token "
                          "(Authorization: Bearer TOKEN) or the session of its account")
    return seat


# --- WebSocket ------------------------------------------------------------------------
def add_websocket(app: FastAPI, service: GameService, players: Players) -> None:
    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        """Messages in: hello {token}, move, undo, ping. Out: state, error, pong."""
        refusal = origin_refusal(ws, service.limits.allowed_origins)
        if refusal:
            log.warning("WebSocket from %s refused: %s", client_address(ws), refusal)
            await ws.close(code=1008, reason=refusal)  # before accepting: an HTTP 403
            return
        await ws.accept()
        try:
            room = await service.get_room(table_id)
        except ServerError as exc:
            await ws.send_text(encode({"type": "error", **exc.to_dict()}))
            await ws.close(code=4404 if exc.status == 404 else 1013 if exc.status == 503 else 1011)
            return
        sub = Subscriber()
        sender = asyncio.create_task(pump(ws, sub))
        try:  # the account of the session cookie (a stale session watches as a spectator)
            account = await players.account_of(ws.cookies.get(SESSION_COOKIE))
        except ServerError:
            account = None
        except Exception as exc:  # the database is away: the client reconnects later
            if not is_unavailable(exc):
                raise
            sub.push({"type": "error", **unavailable(exc).to_dict()})
            sub.close()
            await asyncio.gather(sender, return_exceptions=True)
            return
        session = SocketSession(service, room, sub, client_address(ws),
                                lambda token: players.seat(room, token, account))
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None and message.get("bytes") is not None:
                    raw = message["bytes"].decode("utf-8", errors="replace")
                await session.handle(raw or "")
        except WebSocketDisconnect:
            pass
        except Flood as flood:
            log.warning("table %s: WebSocket from %s closed: %s", table_id, session.address, flood)
            with contextlib.suppress(RuntimeError, WebSocketDisconnect):
                await ws.close(code=1008, reason=str(flood))
        finally:
            service.unsubscribe(room, sub)
            sub.close()
            await asyncio.gather(sender, return_exceptions=True)


async def pump(ws: WebSocket, sub: Subscriber) -> None:
    """Send a subscriber's queued messages in order; ``None`` closes the socket."""
    try:
        while (message := await sub.queue.get()) is not None:
            await ws.send_text(encode(message))
        if ws.client_state == WebSocketState.CONNECTED:
            await ws.close()
    except (WebSocketDisconnect, RuntimeError):
        pass  # the client went away; the receive loop notices and cleans up


def origin_refusal(ws: WebSocket, allowed: tuple[str, ...]) -> str | None:
    """Why a WebSocket's ``Origin`` may not connect (None: it may). Browsers always send
    it: a page of another site may not open a seat's socket with its visitor's token
    unless the operator allows that site; the server's own host is always allowed."""
    origin = ws.headers.get("origin")
    if origin is None or "*" in allowed or origin.rstrip("/") in allowed:
        return None
    host = ws.headers.get("host", "")
    if urlsplit(origin).netloc.lower() == host.lower():
        return None
    return f"origin {origin[:100]} is not allowed (setting MAYAGAMES_ALLOWED_ORIGINS)"


class Flood(Exception):
    """A socket that asks too much: it is closed with code 1008 and this reason."""


class SocketSession:
    """One WebSocket's conversation: who it speaks for and what it asked."""

    def __init__(self, service: GameService, room: Room, sub: Subscriber, address: str,
                 seat_of: Any = None) -> None:
        self.service, self.room, self.sub = service, room, sub
        self.address = address
        self.seat_of = seat_of or (lambda token: service.seat_of_token(room, token))
        # token -> seat, awaited (an account's seat without a token)
        self.greeted = False
        self.token: str | None = None
        self.rates = RateLimiter(max_keys=4)  # this socket's own message bucket

    def check_flood(self, kind: str, key: str, rate: Rate | None, what: str,
                    limiter: RateLimiter | None = None) -> None:
        if (limiter or self.service.rates).allow(kind, key, rate):
            raise Flood(f"rate limit: more than {rate} {what}")

    def error(self, exc: ServerError, rid: Any = None) -> None:
        self.sub.push({"type": "error", **exc.to_dict(), "rid": rid})

    async def handle(self, raw: str) -> None:
        limits = self.service.limits
        self.check_flood("messages", "socket", limits.rate_socket, "messages on one socket",
                         self.rates)
        rid = None
        try:
            request = parse_ws_message(raw)
            rid = getattr(request, "rid", None)
            await self.dispatch(request)
        except Flood:
            raise
        except ServerError as exc:
            self.error(exc, rid)
            if exc.code == "stale" and self.greeted:
                self.service.subscribe(self.room, self.sub, self.sub.seat)
        except Exception as exc:  # a bug (e.g. in an engine): report it, keep the connection
            if is_unavailable(exc):  # the database is away: the client tries again
                self.error(unavailable(exc), rid)
                return
            log.exception("table %s: request %r failed", self.room.id, raw[:200])
            self.error(ServerError(500, "server_error", "the server failed on this request; "
                                   "nothing was played"), rid)

    async def dispatch(self, request: Any) -> None:
        if isinstance(request, WsHello):
            self.check_flood("state", self.address, self.service.limits.rate_state,
                             "state requests from one address")
            seat = await self.seat_of(request.token)
            if self.service.db.shared:
                await self.service.refresh(self.room)
            self.service.subscribe(self.room, self.sub, seat)
            self.greeted, self.token = True, request.token
            return
        if not self.greeted:
            raise ServerError(400, "hello_first", "send {\"type\": \"hello\", \"token\": ...} first")
        if isinstance(request, (WsMove, WsUndo)):
            limits = self.service.limits
            self.service.check_rate("moves", self.address, limits.rate_moves_address,
                                    "moves from your address")
            if self.token:
                self.service.check_rate("moves-token", self.token, limits.rate_moves,
                                        "moves for this seat")
        if isinstance(request, WsMove):
            await self.service.play(self.room, self.sub.seat, request.move_number,
                                    action_id=request.action_id, text=request.action,
                                    origin=self.sub, rid=request.rid)
        elif isinstance(request, WsUndo):
            await self.service.undo(self.room, self.sub.seat, request.move_number,
                                    origin=self.sub, rid=request.rid)
        else:
            self.sub.push({"type": "pong", "rid": request.rid})


def parse_ws_message(raw: str) -> Any:
    """A validated client message, or a ServerError saying what is wrong with it."""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ServerError(400, "bad_json", f"message is not valid JSON: {exc}") from exc
    if not isinstance(data, dict) or data.get("type") not in WS_MESSAGES:
        raise ServerError(400, "bad_request", "a message is a JSON object whose 'type' is one of "
                          f"{sorted(WS_MESSAGES)}")
    try:
        return WS_MESSAGES[data["type"]].model_validate(data)
    except ValidationError as exc:
        raise ServerError(400, "bad_request", describe_validation(exc.errors())) from exc

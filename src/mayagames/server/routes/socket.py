"""The WebSocket of a table (``/ws/tables/ID``): messages in (hello, move, undo, ping)
and out (state, error, pong, chat); docs/server.md, *WebSocket protocol*. A socket speaks
for the seat of the token its ``hello`` sent, else for its session's account's seat, else
it watches as a spectator."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ..accounts import SESSION_COOKIE
from ..db import is_unavailable
from ..limits import Rate, RateLimiter
from ..rooms import Room, ServerError
from ..schemas import WS_MESSAGES, WsHello, WsMove, WsUndo, describe_validation
from ..service import GameService, Subscriber, unavailable
from .deps import PlayersDep, ServiceDep, client_address

log = logging.getLogger("mayagames.server")
router = APIRouter()


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), default=str)


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str, service: ServiceDep,
                       players: PlayersDep) -> None:
    """Messages in: hello {token}, move, undo, ping. Out: state, error, pong, chat
    (their schema: server/wire.py)."""
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

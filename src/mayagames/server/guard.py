"""The outermost layer of the app (pure ASGI): what every HTTP request goes through.

* A body larger than ``max_body_bytes`` is answered 413 before it is read in full: at
  once when ``Content-Length`` says so, else as soon as the bytes received pass the limit.
  Allowed bodies are read here (at most the limit, so parsing them stays cheap).
* Every response carries the security headers (:data:`SECURITY_HEADERS`).
* A failure in a route becomes a JSON 500 ``{"error", "message"}`` and the connection
  stays usable (the failure is logged once, with the request's method and path).
"""

from __future__ import annotations

import json
import logging
from typing import Any, Awaitable, Callable

log = logging.getLogger("mayagames.server")

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

# The browser client loads only its own scripts and styles (inline style attributes are
# used for layout), talks only to its own server, and may not be framed by another site.
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                           "img-src 'self' data:; connect-src 'self'; object-src 'none'; "
                           "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class ClientGone(Exception):
    """The client disconnected before its request body was complete."""


def json_body(status: int, code: str, message: str) -> tuple[int, bytes]:
    return status, json.dumps({"error": code, "message": message}).encode()


class Guard:
    """ASGI middleware: body size limit, security headers, JSON 500s."""

    def __init__(self, app: Any, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                names = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(n, v) for n, v in SECURITY_HEADERS if n not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        refusal = self.refuse_by_length(scope)
        body: bytes | None = b""
        if refusal is None:
            try:
                body = await self.read_body(receive)
            except ClientGone:
                return
            if body is None:
                refusal = json_body(413, "too_large", f"the request body is over this server's "
                                    f"limit of {self.max_body_bytes} bytes")
        if refusal is not None:
            await self.answer(send_with_headers, *refusal)
            return

        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        try:
            await self.app(scope, replay, send_with_headers)
        except Exception:
            log.exception("%s %s failed", scope.get("method"), scope.get("path"))
            if not started:
                await self.answer(send_with_headers, *json_body(
                    500, "server_error", "the server failed on this request; nothing was changed"))

    def refuse_by_length(self, scope: Scope) -> tuple[int, bytes] | None:
        """A 413 (or 400) answer from the ``Content-Length`` header alone, if it calls for one."""
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                if not value.isdigit():
                    return json_body(400, "bad_request", "Content-Length must be a number of bytes")
                if int(value) > self.max_body_bytes:
                    return json_body(413, "too_large", f"the request body ({int(value)} bytes) is "
                                     f"over this server's limit of {self.max_body_bytes} bytes")
        return None

    async def read_body(self, receive: Receive) -> bytes | None:
        """The whole body, or None as soon as it passes the limit (the rest is not read)."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                raise ClientGone
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    @staticmethod
    async def answer(send: Send, status: int, body: bytes) -> None:
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})

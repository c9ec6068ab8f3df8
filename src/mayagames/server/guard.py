"""The outermost layer of the app (pure ASGI): what every HTTP request goes through.

* A body larger than ``max_body_bytes`` is answered 413 before it is read in full: at
  once when ``Content-Length`` says so, else as soon as the bytes received pass the limit.
  Allowed bodies are read here (at most the limit, so parsing them stays cheap).
* Every response carries the security headers (:data:`SECURITY_HEADERS`).
* A failure in a route becomes a JSON 500 ``{"error", "message"}`` and the connection
  stays usable (the failure is logged once, with the request's method and path).
* A state-changing request (POST, PUT, PATCH, DELETE) that a browser sends from a page of
  another origin is refused with 403 ``cross_site`` before it reaches a route
  (:func:`cross_site_refusal`): a session cookie rides along with such a request, so a page
  on another port or subdomain could otherwise act for the logged-in visitor.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Awaitable, Callable
from urllib.parse import urlsplit

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


UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of a URL (lower case), or '' if it has none."""
    parts = urlsplit(url.strip())
    return f"{parts.scheme}://{parts.netloc}".lower() if parts.scheme and parts.netloc else ""


def cross_site_refusal(method: str, headers: dict[str, str],
                       allowed: tuple[str, ...]) -> str | None:
    """Why a request may not change anything (None: it may): a browser sent it from a page
    of another origin. ``headers``: lower-case names.

    The browser's own word decides, in this order: ``Sec-Fetch-Site`` (``same-origin`` or
    ``none``: a page of this server or the person themself), else ``Origin``, else
    ``Referer``; each compared with the server's own origin (the ``Host`` the request was
    sent to) and the ``allowed`` origins (``*``: any). A request with none of them is not a
    browser's (a program with a token or its own cookie) and passes; ``Origin: null``
    (a sandboxed or privacy-stripped page) alone does not."""
    if method not in UNSAFE_METHODS or "*" in allowed:
        return None
    host = headers.get("host", "").lower()
    allowed_set = {a.rstrip("/").lower() for a in allowed}

    def ours(origin: str) -> bool:
        return bool(origin) and (urlsplit(origin).netloc == host or origin in allowed_set)

    site = headers.get("sec-fetch-site", "").strip().lower()
    origin = headers.get("origin", "").strip()
    if site in ("same-origin", "none"):
        return None
    if origin and origin != "null":
        if ours(origin_of(origin)):
            return None
        return f"from the page {origin[:100]}"
    if site:  # same-site or cross-site, without a usable Origin
        return f"from a page of another origin (Sec-Fetch-Site: {site[:20]})"
    referer = headers.get("referer", "").strip()
    if referer:
        return None if ours(origin_of(referer)) else f"from the page {origin_of(referer)[:100]}"
    if origin == "null":
        return "from a page that hides its origin (Origin: null)"
    return None


class Guard:
    """ASGI middleware: body size limit, security headers, JSON 500s."""

    def __init__(self, app: Any, max_body_bytes: int, allowed_origins: tuple[str, ...] = ()) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.allowed_origins = allowed_origins

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

        refusal = self.refuse_cross_site(scope) or self.refuse_by_length(scope)
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

    def refuse_cross_site(self, scope: Scope) -> tuple[int, bytes] | None:
        """A 403 for a state-changing request from another origin's page (see
        :func:`cross_site_refusal`); logged once per refusal with the client's address."""
        headers = {name.decode("latin-1").lower(): value.decode("latin-1")
                   for name, value in scope.get("headers", [])}
        why = cross_site_refusal(scope.get("method", "GET"), headers, self.allowed_origins)
        if why is None:
            return None
        client = scope.get("client") or ("unknown", 0)
        log.warning("%s %s from %s refused: cross-site request %s", scope.get("method"),
                    scope.get("path"), client[0], why)
        return json_body(403, "cross_site", f"a request that changes something was sent {why}; "
                         "this server accepts those only from its own pages (or the origins "
                         "of the setting MAYAGAMES_ALLOWED_ORIGINS)")

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

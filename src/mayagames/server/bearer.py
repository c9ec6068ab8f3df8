"""The seat token of a request, shared by the app's routes and the review routes."""

from __future__ import annotations

from fastapi import Request

from .rooms import ServerError


def bearer_token(request: Request) -> str | None:
    """The seat token from ``Authorization: Bearer TOKEN`` (None when absent)."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ServerError(401, "bad_token", "the Authorization header must be 'Bearer TOKEN'")
    return token.strip()

"""The web server: FastAPI + WebSockets, persistence in SQLAlchemy, bot seats.

``create_app()`` builds the ASGI app (``mayagames serve`` runs it with uvicorn).
See ``docs/server.md`` for the protocol.
"""

from __future__ import annotations

from typing import Any


def create_app(*args: Any, **kwargs: Any) -> Any:
    """Build the app (imported lazily so that ``mayagames`` starts fast without the server)."""
    from .app import create_app as build

    return build(*args, **kwargs)


__all__ = ["create_app"]

"""``GET /api/health``: this instance answers (``/api/ready`` and ``/metrics``, which also
ask the database, are in :mod:`..observability`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from .deps import ServiceDep
from .models import Health

router = APIRouter(tags=["health"])


@router.get("/api/health", response_model=Health)
async def health(service: ServiceDep) -> dict[str, Any]:
    """The process answers: its tables in memory and its instance id (no database look-up)."""
    return {"ok": True, "tables_in_memory": len(service.rooms), "instance": service.instance}

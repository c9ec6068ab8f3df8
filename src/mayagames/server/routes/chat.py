"""A table's chat: reading it and saying a line (the logic is in
:class:`~..players.Players`: who may read and speak, the flood limits)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ..schemas import ChatRequest
from .deps import AccountDep, PlayersDep, RoomDep, Token
from .models import Chat, ChatLine

router = APIRouter(tags=["chat"])


@router.get("/api/tables/{table_id}/chat", response_model=Chat)
async def chat(players: PlayersDep, room: RoomDep, acc: AccountDep, token: Token) -> dict[str, Any]:
    """The chat (a private table's to its seats only: token or account)."""
    return {"table": room.id, "chat": await players.chat(room, token, acc)}


@router.post("/api/tables/{table_id}/chat", status_code=201, response_model=ChatLine)
async def say(req: ChatRequest, players: PlayersDep, room: RoomDep, acc: AccountDep,
              token: Token) -> dict[str, Any]:
    """A chat line from a seat (its token or account) or a logged-in spectator."""
    return await players.say(room, token, acc, req.text)

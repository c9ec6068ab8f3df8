"""The lobby's routes: a table's seats (join a free one, claim a guest seat for the
account, resign, a new invite link), quick play (waiting for an opponent, or a bot), and
the lobby's events (the logic is in :class:`~..players.Players` and
:class:`~..quickplay.QuickPlay`)."""

from __future__ import annotations

import asyncio
import json
from typing import Any, AsyncIterator

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from ..players import KEEP_ALIVE, Players, login_required
from ..playerstore import Account
from ..rooms import ServerError
from ..schemas import JoinRequest, QuickRequest
from .deps import AccountDep, PlayersDep, QuickDep, RoomDep, Token
from .models import Invite, QuickStatus, StateMessage

router = APIRouter(tags=["lobby"])

STATE: dict[int | str, dict[str, Any]] = {200: {"model": StateMessage, "description": "the table's state message for the seat"}}


@router.get("/api/me/events", response_class=StreamingResponse, responses={200: {
    "content": {"text/event-stream": {"schema": {"type": "string"}}},
    "description": "server-sent events: tables, quick"}})
async def my_events(request: Request, players: PlayersDep, acc: AccountDep) -> StreamingResponse:
    """Server-sent events for the lobby: ``event: tables`` (``data: {"table": ID}``) each
    time a table of the account changes (a move, a seat taken, a clock run out), so its
    "your turn" badges follow at once; ``event: quick`` (``data: {"table": ID}``) when
    a quick game was paired; a comment line keeps the stream alive."""
    acc = login_required(acc)
    queue = players.watch_account(acc)  # from now on: nothing is missed before the stream starts
    return StreamingResponse(account_events(request, players, acc, queue),
                             media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


async def account_events(request: Request, players: Players, acc: Account,
                         queue: "asyncio.Queue[Any]") -> AsyncIterator[str]:
    """The event stream of one account (its watching ``queue``), until its client goes away."""
    try:
        yield "retry: 3000\n\n"
        while True:
            try:
                event, data = await asyncio.wait_for(queue.get(), timeout=KEEP_ALIVE)
            except asyncio.TimeoutError:
                if await request.is_disconnected():
                    return
                yield ": keep-alive\n\n"
                continue
            yield f"event: {event}\ndata: {json.dumps(data)}\n\n"
    finally:
        players.unwatch_account(acc, queue)


# --- seats -----------------------------------------------------------------------------------
@router.post("/api/tables/{table_id}/join", responses=STATE)
async def join(req: JoinRequest, players: PlayersDep, room: RoomDep,
               acc: AccountDep) -> dict[str, Any]:
    """Take a free seat of a public table for the logged-in account."""
    await players.join(room, req.seat, login_required(acc))
    return room.message(req.seat)


@router.post("/api/tables/{table_id}/claim", responses=STATE)
async def claim(players: PlayersDep, room: RoomDep, acc: AccountDep,
                token: Token) -> dict[str, Any]:
    """Make the guest seat of the bearer token the account's (the invite link then expires)."""
    seat = await players.claim(room, token, login_required(acc))
    return room.message(seat)


@router.post("/api/tables/{table_id}/resign", responses=STATE)
async def resign(players: PlayersDep, room: RoomDep, acc: AccountDep,
                 token: Token) -> dict[str, Any]:
    """Concede for the bearer token's (else the account's) seat: a loss on the ladder;
    with 2 players the game ends, else the table's zombie bot plays the seat on."""
    seat = await players.seat(room, token, acc)
    if seat is None:
        raise ServerError(403, "no_seat", "only a seated player can resign (open your seat)")
    await players.resign(room, seat)
    return room.message(seat)


@router.post("/api/tables/{table_id}/seats/{seat}/invite", response_model=Invite)
async def reissue(seat: int, players: PlayersDep, room: RoomDep,
                  acc: AccountDep) -> dict[str, Any]:
    """A new invite link for a seat (the creator only); the old one stops working."""
    token = await players.reissue(room, seat, login_required(acc))
    return {"table": room.id, "seat": seat, "token": token,
            "invite": f"/table/{room.id}#token={token}"}


# --- quick play ------------------------------------------------------------------------------
QUICK = {"response_model": QuickStatus, "response_model_exclude_unset": True}


@router.post("/api/quick", **QUICK)  # type: ignore[arg-type]
async def quick_enter(req: QuickRequest, quick: QuickDep, acc: AccountDep) -> dict[str, Any]:
    """Play now: wait for an opponent of the nearest rating (paired at once if one
    waits); after ``bot_after`` seconds (null: never) the nearest-rated bot is offered."""
    return await quick.enter(login_required(acc), req.game, req.speed, req.bot_after)


@router.get("/api/quick", **QUICK)  # type: ignore[arg-type]
async def quick_status(quick: QuickDep, acc: AccountDep) -> dict[str, Any]:
    """The account's wait: ``table`` once paired, else ``waiting`` (and ``offer_bot``)."""
    return await quick.status(login_required(acc))


@router.delete("/api/quick", **QUICK)  # type: ignore[arg-type]
async def quick_leave(quick: QuickDep, acc: AccountDep) -> dict[str, Any]:
    """Stop waiting."""
    return await quick.leave(login_required(acc))


@router.post("/api/quick/bot", **QUICK)  # type: ignore[arg-type]
async def quick_bot(quick: QuickDep, acc: AccountDep) -> dict[str, Any]:
    """Take the bot offered after the wait: a rated game against that level."""
    return await quick.play_bot(login_required(acc))

"""The tables' routes: the games on offer, creating and listing tables, a table's state,
moves, undo, rematch, replay and record (the logic is in :class:`~..service.GameService`).

A seat is opened by its secret token (``Authorization: Bearer TOKEN``) or by the session of
the account that owns it; without either a client is a spectator.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, Response

from ...core.errors import MayaGamesError
from ...core.registry import get_game
from ...web.catalogue import catalogue
from ..rooms import ServerError
from ..schemas import CreateTable, MoveRequest, UndoRequest
from .deps import (AccountDep, FreshRoomDep, PlayersDep, ReviewsDep, RoomDep, ServiceDep, Token,
                   ViewerDep, client_address, move_request, seat_required, state_request)
from .models import FrameMessage, Games, Rematch, StateMessage, TableCreated, TableList

router = APIRouter(tags=["tables"])

#: the answer of the routes that send a table's ``state`` message (server/wire.py)
STATE: dict[int | str, dict[str, Any]] = {200: {"model": StateMessage, "description": "the table's state message as the "
               "reader's seat (else a spectator) sees it"}}


@router.get("/api/games", response_model=Games)
async def games(service: ServiceDep) -> dict[str, Any]:
    """The games on offer, with their options; the seat kinds (human or a bot spec
    name) and the bots a lobby offers, with a line on each (difficulty levels first)."""
    return {"games": service.games(), "agents": service.agents(), "bots": service.bot_choices()}


@router.get("/api/games/{name}/catalogue", responses={200: {
    "content": {"application/json": {"schema": {"type": "object", "additionalProperties": True}}},
    "description": "the game's components (public; cached for an hour)"}})
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


@router.post("/api/tables", status_code=201, response_model=TableCreated)
async def create_table(req: CreateTable, request: Request, service: ServiceDep,
                       players: PlayersDep, acc: AccountDep) -> dict[str, Any]:
    """Create a table; the answer holds each human seat's secret token (shown once).
    Logged in, the creator's account takes the first person's seat."""
    service.check_rate("tables", client_address(request), service.limits.rate_tables,
                       "new tables")
    speed = players.check_create(req, acc)
    room, tokens = await service.create_table(req, players.preparer(req, acc, speed))
    tokens = players.visible_tokens(room, tokens)
    seats = [new_seat(room.id, seat, token) for seat, token in zip(room.seats_public(), tokens)]
    return {"table": room.id, "game": room.info.name, "seats": seats,
            "spectate": f"/table/{room.id}", **players.lobby_fields(room)}


def new_seat(table_id: str, public: dict[str, Any], token: str | None) -> dict[str, Any]:
    """A seat of a new table with its token and invite link (None: no token to hand out)."""
    invite = f"/table/{table_id}#token={token}" if token else None
    return {**public, "token": token, "invite": invite}


@router.get("/api/tables", response_model=TableList)
async def list_tables(service: ServiceDep, players: PlayersDep, acc: ViewerDep,
                      status: str | None = Query(None, pattern="^(playing|finished)$"),
                      limit: int = Query(50, ge=1, le=500),
                      open: bool = Query(False, description="public tables with a free seat"),
                      ) -> dict[str, Any]:
    """Recent tables: the public ones, and the session's account's own; a private
    table is listed to nobody but its seats (it is still open to whoever has its link)."""
    if open:
        return {"tables": await players.open_tables(limit)}
    only = players.store.listed_to(acc.id if acc else None)
    return {"tables": await service.list_tables(status, limit, only)}


@router.get("/api/tables/{table_id}", dependencies=[Depends(state_request)], responses=STATE)
async def table_state(players: PlayersDep, room: FreshRoomDep,
                      token: Token, acc: ViewerDep) -> dict[str, Any]:
    """The position as the token's (else the account's) seat sees it (else a spectator's)."""
    return room.message(await players.seat(room, token, acc))


@router.post("/api/tables/{table_id}/moves", dependencies=[Depends(move_request)],
             responses=STATE)
async def move(req: MoveRequest, service: ServiceDep, players: PlayersDep,
               room: RoomDep, token: Token,
               acc: AccountDep) -> dict[str, Any]:
    """Play for the token's (else the account's) seat; ``move_number`` must be the current one."""
    seat = seat_required(await players.seat(room, token, acc))
    room = await service.play(room, seat, req.move_number, action_id=req.action_id,
                              text=req.action)
    return room.message(seat)


@router.post("/api/tables/{table_id}/undo", dependencies=[Depends(move_request)],
             responses=STATE)
async def undo(req: UndoRequest, service: ServiceDep, players: PlayersDep,
               room: RoomDep, token: Token,
               acc: AccountDep) -> dict[str, Any]:
    """Take back the seat's last move (docs/server.md: Undo)."""
    seat = seat_required(await players.seat(room, token, acc))
    room = await service.undo(room, seat, req.move_number)
    return room.message(seat)


@router.post("/api/tables/{table_id}/rematch", status_code=201, response_model=Rematch)
async def rematch(request: Request, service: ServiceDep, players: PlayersDep,
                  room: RoomDep, token: Token,
                  acc: AccountDep) -> dict[str, Any]:
    """A new game of a finished table: same seats (and accounts) and options, a new seed.
    The first call creates it; each guest seat's token holder gets that seat's new invite
    (once); an account's seat is opened by its session (no invite)."""
    seat = seat_required(await players.seat(room, token, acc))
    if room.rematch is None:  # creating a table: the rate of new tables applies
        service.check_rate("tables", client_address(request), service.limits.rate_tables,
                           "new tables")
    new_room, token_of_seat, created = await service.rematch(
        room, seat, players.rematch_preparer(room),
        hand_out=bool(token) and players.rematch_seat(room, seat))
    if created:
        await players.rematch_started(room)
    seats = [new_seat(new_room.id, public, token_of_seat if public["seat"] == seat else None)
             for public in new_room.seats_public()]
    return {"table": new_room.id, "game": new_room.info.name, "rematch_of": room.id,
            "seat": seat, "seats": seats, "spectate": f"/table/{new_room.id}"}


@router.get("/api/tables/{table_id}/replay", dependencies=[Depends(state_request)],
            responses={200: {"model": FrameMessage, "description": "the replay's frame"}})
async def replay(service: ServiceDep, players: PlayersDep, room: FreshRoomDep, token: Token,
                 acc: ViewerDep, step: int = Query(..., ge=0),
                 perspective: str = Query("spectator")) -> dict[str, Any]:
    """One frame of a replay: a finished game from any side, else only one's own side
    (the ``frame`` message of server/wire.py)."""
    return service.replay_frame(room, await players.seat(room, token, acc), step, perspective)


@router.get("/api/tables/{table_id}/record", dependencies=[Depends(state_request)],
            responses={200: {"content": {"application/json": {"schema": {"type": "object"}}},
                             "description": "the finished game's record, with the hints used"}})
async def record(service: ServiceDep, reviews: ReviewsDep,
                 room: FreshRoomDep) -> Response:
    """The record of a finished game (core/records.py), with the hints each seat used."""
    data = service.record(room)
    data["meta"]["hints"] = await reviews.hints(room)  # hints used (reviews.py);
    # service.record refuses an unfinished game, and hints() lists them all only once over
    return JSONResponse(data)


__all__ = ["router"]

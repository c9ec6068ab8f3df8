"""What the routers share, as FastAPI dependencies: the app's objects (stored on
``app.state`` by :func:`~mayagames.server.app.create_app`), the table of the path, the
session's account, and the rate checks of state and move requests.

A route names what it needs (``service: ServiceDep``, ``room: Room = Depends(room_of)``);
nothing reaches a route through a closure, so each router module stands alone and a test
may build an app with any of them.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from ..accounts import SESSION_COOKIE
from ..bearer import bearer_token
from ..players import Players
from ..playerstore import Account
from ..quickplay import QuickPlay
from ..reviews import Reviews
from ..rooms import Room, ServerError
from ..service import GameService


# --- the app's objects ----------------------------------------------------------------
def service_of(conn: HTTPConnection) -> GameService:
    return conn.app.state.service  # type: ignore[no-any-return]


def players_of(conn: HTTPConnection) -> Players:
    return conn.app.state.players  # type: ignore[no-any-return]


def reviews_of(conn: HTTPConnection) -> Reviews:
    return conn.app.state.reviews  # type: ignore[no-any-return]


def quick_of(conn: HTTPConnection) -> QuickPlay:
    return conn.app.state.quick  # type: ignore[no-any-return]


def secure_cookies_of(conn: HTTPConnection) -> bool | None:
    """The ``secure_cookies`` setting of create_app (None: Secure over HTTPS only)."""
    return conn.app.state.secure_cookies  # type: ignore[no-any-return]


ServiceDep = Annotated[GameService, Depends(service_of)]
PlayersDep = Annotated[Players, Depends(players_of)]
ReviewsDep = Annotated[Reviews, Depends(reviews_of)]
QuickDep = Annotated[QuickPlay, Depends(quick_of)]
Token = Annotated[str | None, Depends(bearer_token)]


def client_address(conn: HTTPConnection) -> str:
    """The client's address (uvicorn puts the proxy's X-Forwarded-For here when trusted)."""
    return conn.client.host if conn.client else "unknown"


# --- the table of the path -------------------------------------------------------------
async def room_of(table_id: str, service: ServiceDep) -> Room:
    return await service.get_room(table_id)


async def fresh_room_of(table_id: str, service: ServiceDep) -> Room:
    """The room with every write of every instance (reads after a write elsewhere)."""
    return await service.get_room(table_id, fresh=True)


# --- the session's account ---------------------------------------------------------------
async def account(request: Request, players: PlayersDep) -> Account | None:
    """The session's account (None: no session cookie; 401: an unknown or expired one:
    acting needs a live session)."""
    return await players.account_of(request.cookies.get(SESSION_COOKIE))


async def viewer(request: Request, players: PlayersDep) -> Account | None:
    """The session's account for reading (an expired session reads as a spectator)."""
    try:
        return await account(request, players)
    except ServerError:
        return None


RoomDep = Annotated[Room, Depends(room_of)]
FreshRoomDep = Annotated[Room, Depends(fresh_room_of)]
AccountDep = Annotated[Account | None, Depends(account)]
ViewerDep = Annotated[Account | None, Depends(viewer)]


# --- rates (limits.py) -------------------------------------------------------------------
def state_request(request: Request, service: ServiceDep) -> None:
    service.check_rate("state", client_address(request), service.limits.rate_state,
                       "state requests")


def move_request(request: Request, service: ServiceDep, token: Token) -> None:
    limits = service.limits
    service.check_rate("moves", client_address(request), limits.rate_moves_address,
                       "moves from your address")
    if token:
        service.check_rate("moves-token", token, limits.rate_moves, "moves for this seat")


def analysis_request(request: Request, service: ServiceDep) -> None:
    """Reviews and hints are work for the bot workers: limited per address."""
    service.check_rate("analysis", client_address(request), service.limits.rate_analysis,
                       "review and hint requests")


def seat_required(seat: int | None) -> int:
    if seat is None:
        raise ServerError(401, "no_token", "moving needs your seat: its token "
                          "(Authorization: Bearer TOKEN) or the session of its account")
    return seat

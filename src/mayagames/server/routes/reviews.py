"""The routes of reviews and hints (the logic is in :class:`~..reviews.Reviews`). Asking
for a review or a hint (work for the bot workers) is limited per client address
(``rate_analysis``); reading a review's status or the hints used counts as a state request
(``rate_state``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request

from ..reviews import HintRequest
from .deps import (FreshRoomDep, PlayersDep, ReviewsDep, ServiceDep, Token, analysis_request,
                   state_request)

router = APIRouter(tags=["reviews"])


@router.post("/api/tables/{table_id}/review", dependencies=[Depends(analysis_request)])
async def request_review(reviews: ReviewsDep, room: FreshRoomDep) -> dict[str, Any]:
    """Queue the review of a finished game (computed once); its status or the review."""
    return await reviews.request(room)


@router.get("/api/tables/{table_id}/review", dependencies=[Depends(state_request)])
async def get_review(reviews: ReviewsDep, room: FreshRoomDep) -> dict[str, Any]:
    """The review's status (queued, running), or the review once computed."""
    return await reviews.status(room)


@router.post("/api/tables/{table_id}/hint", dependencies=[Depends(analysis_request)])
async def hint(req: HintRequest, service: ServiceDep, reviews: ReviewsDep, room: FreshRoomDep,
               token: Token) -> dict[str, Any]:
    """The medium or hard bot's move for your current decision (unrated games)."""
    return await reviews.hint(room, await service.seat_of_token(room, token), req)


@router.get("/api/tables/{table_id}/hints", dependencies=[Depends(state_request)])
async def hints(request: Request, players: PlayersDep, reviews: ReviewsDep,
                room: FreshRoomDep) -> dict[str, Any]:
    """The hints used at this table: during the game only your own seat's (they may
    tell its hidden cards), every seat's once it is over (hints used are part of the game)."""
    return {"hints": await reviews.hints(room, await players.seat_of_request(room, request))}

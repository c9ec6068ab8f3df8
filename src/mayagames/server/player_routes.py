"""REST routes of the players' side: accounts, sessions, the lobby's seats, ratings,
profiles and chat (the logic is in :mod:`.players`)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, AsyncIterator

from fastapi import Depends, FastAPI, Query, Request, Response
from fastapi.responses import FileResponse, StreamingResponse

from ..core.errors import MayaGamesError
from ..core.registry import get_game
from .accounts import SESSION_COOKIE, SESSION_DAYS
from .bearer import bearer_token
from .players import KEEP_ALIVE, Players, login_required
from .playerstore import Account
from .ratings import account_player, bot_player, rating_dict, BOT_LEVELS
from .rooms import Room, ServerError
from .quickplay import QuickPlay
from .schemas import ChatRequest, Credentials, JoinRequest, PasswordChange, QuickRequest


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def is_https(request: Request, secure: bool | None) -> bool:
    """Whether the session cookie gets ``Secure``: configured, or the request came over HTTPS
    (directly or, behind a proxy, as its ``X-Forwarded-Proto`` says)."""
    if secure is not None:
        return secure
    forwarded = request.headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
    return request.url.scheme == "https" or forwarded == "https"


def add_player_api(app: FastAPI, service: Any, players: Players, static_dir: Path,
                   secure_cookies: bool | None = None) -> None:
    quick = QuickPlay(players)

    async def room_of(table_id: str) -> Room:
        return await service.get_room(table_id)

    async def account(request: Request) -> Account | None:
        """The session's account (None: no session cookie; 401: an unknown or expired one)."""
        return await players.account_of(request.cookies.get(SESSION_COOKIE))

    def set_session(request: Request, response: Response, secret: str) -> None:
        response.set_cookie(SESSION_COOKIE, secret, max_age=SESSION_DAYS * 86400, httponly=True,
                            samesite="lax", secure=is_https(request, secure_cookies), path="/")

    def me_dict(acc: Account) -> dict[str, Any]:
        return {"id": acc.id, "name": acc.name}

    @app.post("/api/accounts", status_code=201)
    async def register(req: Credentials, request: Request, response: Response) -> dict[str, Any]:
        """Create an account and log in (the session cookie is set)."""
        service.check_rate("signups", client_address(request), service.limits.rate_signups,
                           "new accounts from this address")  # before any hashing
        acc, secret = await players.register(req.name, req.password)
        set_session(request, response, secret)
        return {"account": me_dict(acc)}

    @app.post("/api/login")
    async def login(req: Credentials, request: Request, response: Response) -> dict[str, Any]:
        acc, secret = await players.login(req.name, req.password, client_address(request))
        set_session(request, response, secret)
        return {"account": me_dict(acc)}

    @app.post("/api/logout")
    async def logout(request: Request, response: Response) -> dict[str, Any]:
        await players.logout(request.cookies.get(SESSION_COOKIE))
        response.delete_cookie(SESSION_COOKIE, path="/")
        return {"ok": True}

    @app.get("/api/me")
    async def me(acc: Account | None = Depends(account)) -> dict[str, Any]:
        """The account and its tables, with ``your_turn`` per table."""
        acc = login_required(acc)
        tables = await players.my_tables(acc)
        return {"account": me_dict(acc), "tables": tables,
                "your_turn": sum(1 for t in tables if t["your_turn"])}

    @app.get("/api/me/events")
    async def my_events(request: Request, acc: Account | None = Depends(account)) -> StreamingResponse:
        """Server-sent events for the lobby: ``event: tables`` (``data: {"table": ID}``) each
        time a table of the account changes (a move, a seat taken, a clock run out), so its
        "your turn" badges follow at once; ``event: quick`` (``data: {"table": ID}``) when
        a quick game was paired; a comment line keeps the stream alive."""
        acc = login_required(acc)
        queue = players.watch_account(acc)

        async def stream() -> AsyncIterator[str]:
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

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    @app.post("/api/me/password")
    async def change_password(req: PasswordChange, request: Request,
                              acc: Account | None = Depends(account)) -> dict[str, Any]:
        """Change the password; every other session of the account ends."""
        acc = login_required(acc)
        await players.change_password(acc, request.cookies.get(SESSION_COOKIE, ""), req.old, req.new,
                                      client_address(request))
        return {"ok": True}

    @app.post("/api/tables/{table_id}/join")
    async def join(req: JoinRequest, room: Room = Depends(room_of),
                   acc: Account | None = Depends(account)) -> dict[str, Any]:
        """Take a free seat of a public table for the logged-in account."""
        await players.join(room, req.seat, login_required(acc))
        return room.message(req.seat)

    @app.post("/api/tables/{table_id}/claim")
    async def claim(request: Request, room: Room = Depends(room_of),
                    acc: Account | None = Depends(account)) -> dict[str, Any]:
        """Make the guest seat of the bearer token the account's (the invite link then expires)."""
        seat = await players.claim(room, bearer_token(request), login_required(acc))
        return room.message(seat)

    @app.post("/api/quick")
    async def quick_enter(req: QuickRequest, acc: Account | None = Depends(account)) -> dict[str, Any]:
        """Play now: wait for an opponent of the nearest rating (paired at once if one
        waits); after ``bot_after`` seconds (null: never) the nearest-rated bot is offered."""
        return await quick.enter(login_required(acc), req.game, req.speed, req.bot_after)

    @app.get("/api/quick")
    async def quick_status(acc: Account | None = Depends(account)) -> dict[str, Any]:
        """The account's wait: ``table`` once paired, else ``waiting`` (and ``offer_bot``)."""
        return await quick.status(login_required(acc))

    @app.delete("/api/quick")
    async def quick_leave(acc: Account | None = Depends(account)) -> dict[str, Any]:
        return await quick.leave(login_required(acc))

    @app.post("/api/quick/bot")
    async def quick_bot(acc: Account | None = Depends(account)) -> dict[str, Any]:
        """Take the bot offered after the wait: a rated game against that level."""
        return await quick.play_bot(login_required(acc))

    @app.post("/api/tables/{table_id}/resign")
    async def resign(request: Request, room: Room = Depends(room_of),
                     acc: Account | None = Depends(account)) -> dict[str, Any]:
        """Concede for the bearer token's (else the account's) seat: a loss on the ladder;
        with 2 players the game ends, else the table's zombie bot plays the seat on."""
        seat = await players.seat(room, bearer_token(request), acc)
        if seat is None:
            raise ServerError(403, "no_seat", "only a seated player can resign (open your seat)")
        await players.resign(room, seat)
        return room.message(seat)

    @app.post("/api/tables/{table_id}/seats/{seat}/invite")
    async def reissue(seat: int, room: Room = Depends(room_of),
                      acc: Account | None = Depends(account)) -> dict[str, Any]:
        """A new invite link for a seat (the creator only); the old one stops working."""
        token = await players.reissue(room, seat, login_required(acc))
        return {"table": room.id, "seat": seat, "token": token,
                "invite": f"/table/{room.id}#token={token}"}

    @app.get("/api/tables/{table_id}/chat")
    async def chat(request: Request, room: Room = Depends(room_of),
                   acc: Account | None = Depends(account)) -> dict[str, Any]:
        """The chat (a private table's to its seats only: token or account)."""
        return {"table": room.id, "chat": await players.chat(room, bearer_token(request), acc)}

    @app.post("/api/tables/{table_id}/chat", status_code=201)
    async def say(req: ChatRequest, request: Request, room: Room = Depends(room_of),
                  acc: Account | None = Depends(account)) -> dict[str, Any]:
        """A chat line from a seat (its token or account) or a logged-in spectator."""
        return await players.say(room, bearer_token(request), acc, req.text)

    @app.get("/api/ratings/{game}")
    async def leaderboard(game: str, limit: int = Query(100, ge=1, le=500)) -> dict[str, Any]:
        """The ladder of a game: accounts and bot levels, best ``rating`` (mu - 3 sigma) first."""
        try:
            info = get_game(game)
        except (ImportError, MayaGamesError) as exc:
            raise ServerError(404, "no_game", f"there is no game {game!r}") from exc
        rows = await players.db(players.store.leaderboard, info.name, limit)
        return {"game": info.name, "ratings": [{"place": i + 1, **rating_dict(r)}
                                               for i, r in enumerate(rows)]}

    async def viewer(request: Request) -> Account | None:
        """The session's account for reading (an expired session reads as a stranger)."""
        try:
            return await account(request)
        except ServerError:
            return None

    @app.get("/api/players/{name}")
    async def profile(name: str, looker: Account | None = Depends(viewer)) -> dict[str, Any]:
        """A player's page: ratings per game, rating history, tables (an account or a bot
        level); a private table is listed only to an account that holds one of its seats."""
        from .accounts import name_key

        if name.lower() in BOT_LEVELS:
            key, shown, acc = bot_player(name.lower()), name.lower(), None
        else:
            found = await players.db(players.store.account_by_key, name_key(name))
            if found is None:
                raise ServerError(404, "no_player", f"there is no player {name!r}")
            acc = found[0]
            key, shown = account_player(acc.id), acc.name
        ratings = await players.db(players.store.player_ratings, key)
        history = await players.db(players.store.history, key, 500)
        listable = await players.db(players.store.listable, sorted({h["table"] for h in history}),
                                    looker.id if looker else None)
        for point in history:  # the rating moved; which private table it was is its seats' own
            if point["table"] not in listable:
                point["table"] = None
        tables = [t for t in (await players.my_tables(acc, 60) if acc else [])
                  if t["status"] == "finished"  # games and results; nothing about games under way
                  and (t["public"] or (looker is not None and any(
                      s["account"] == looker.name for s in t["seats"])))]
        for t in tables:
            t.pop("your_turn", None)
        return {"name": shown, "bot": acc is None,
                "ratings": [{"game": g, **rating_dict(r)} for g, r in ratings],
                "history": history, "tables": tables}

    @app.get("/profile/{name}", include_in_schema=False)
    async def profile_page(name: str) -> FileResponse:
        return FileResponse(static_dir / "profile.html")

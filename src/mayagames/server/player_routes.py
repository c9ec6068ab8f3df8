"""REST routes of the players' side: accounts, sessions, the lobby's seats, ratings,
profiles and chat (the logic is in :mod:`.players`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, Query, Request, Response
from fastapi.responses import FileResponse

from ..core.errors import MayaGamesError
from ..core.registry import get_game
from .accounts import SESSION_COOKIE, SESSION_DAYS
from .bearer import bearer_token
from .players import Players, login_required
from .playerstore import Account
from .ratings import account_player, bot_player, rating_dict, BOT_LEVELS
from .rooms import Room, ServerError
from .schemas import ChatRequest, Credentials, JoinRequest, PasswordChange


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

    @app.get("/api/players/{name}")
    async def profile(name: str) -> dict[str, Any]:
        """A player's page: ratings per game, rating history, tables (an account or a bot level)."""
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
        tables = [t for t in (await players.my_tables(acc, 60) if acc else [])
                  if t["status"] == "finished"]  # games and results; nothing about games under way
        for t in tables:
            t.pop("your_turn", None)
        return {"name": shown, "bot": acc is None,
                "ratings": [{"game": g, **rating_dict(r)} for g, r in ratings],
                "history": history, "tables": tables}

    @app.get("/profile/{name}", include_in_schema=False)
    async def profile_page(name: str) -> FileResponse:
        return FileResponse(static_dir / "profile.html")

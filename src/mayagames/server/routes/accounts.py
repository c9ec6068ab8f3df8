"""The accounts' routes: creating one, logging in and out (the session cookie), the
session's own page (``/api/me``) and changing the password (the logic is in
:class:`~..players.Players` and :mod:`..accounts`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response

from ..accounts import SESSION_COOKIE, SESSION_DAYS
from ..players import login_required
from ..playerstore import Account
from ..schemas import Credentials, PasswordChange
from .deps import AccountDep, PlayersDep, ServiceDep, client_address, secure_cookies_of
from .models import AccountAnswer, Me, Ok

router = APIRouter(tags=["accounts"])

SecureCookies = Annotated[bool | None, Depends(secure_cookies_of)]


def is_https(request: Request, secure: bool | None) -> bool:
    """Whether the session cookie gets ``Secure``: configured, or the request came over HTTPS
    (directly or, behind a proxy, as its ``X-Forwarded-Proto`` says)."""
    if secure is not None:
        return secure
    forwarded = request.headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
    return request.url.scheme == "https" or forwarded == "https"


def set_session(request: Request, response: Response, secret: str, secure: bool | None) -> None:
    response.set_cookie(SESSION_COOKIE, secret, max_age=SESSION_DAYS * 86400, httponly=True,
                        samesite="lax", secure=is_https(request, secure), path="/")


def me_dict(acc: Account) -> dict[str, Any]:
    return {"id": acc.id, "name": acc.name}


@router.post("/api/accounts", status_code=201, response_model=AccountAnswer)
async def register(req: Credentials, request: Request, response: Response, service: ServiceDep,
                   players: PlayersDep, secure: SecureCookies) -> dict[str, Any]:
    """Create an account and log in (the session cookie is set)."""
    service.check_rate("signups", client_address(request), service.limits.rate_signups,
                       "new accounts from this address")  # before any hashing
    acc, secret = await players.register(req.name, req.password)
    set_session(request, response, secret, secure)
    return {"account": me_dict(acc)}


@router.post("/api/login", response_model=AccountAnswer)
async def login(req: Credentials, request: Request, response: Response, players: PlayersDep,
                secure: SecureCookies) -> dict[str, Any]:
    """Log in (the session cookie is set); failed attempts are throttled per name and address."""
    acc, secret = await players.login(req.name, req.password, client_address(request))
    set_session(request, response, secret, secure)
    return {"account": me_dict(acc)}


@router.post("/api/logout", response_model=Ok)
async def logout(request: Request, response: Response, players: PlayersDep) -> dict[str, Any]:
    """End the session (its cookie is removed)."""
    await players.logout(request.cookies.get(SESSION_COOKIE))
    response.delete_cookie(SESSION_COOKIE, path="/")
    return {"ok": True}


@router.get("/api/me", response_model=Me, response_model_exclude_unset=True)
async def me(players: PlayersDep, acc: AccountDep) -> dict[str, Any]:
    """The account and its tables, with ``your_turn`` per table."""
    acc = login_required(acc)
    tables = await players.my_tables(acc)
    return {"account": me_dict(acc), "tables": tables,
            "your_turn": sum(1 for t in tables if t["your_turn"])}


@router.post("/api/me/password", response_model=Ok)
async def change_password(req: PasswordChange, request: Request, players: PlayersDep,
                          acc: AccountDep) -> dict[str, Any]:
    """Change the password; every other session of the account ends."""
    acc = login_required(acc)
    await players.change_password(acc, request.cookies.get(SESSION_COOKIE, ""), req.old, req.new,
                                  client_address(request))
    return {"ok": True}

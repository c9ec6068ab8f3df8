"""Accounts and sessions: signing up, logging in and out (throttled in the database), the
account of a session cookie, changing a password."""

from __future__ import annotations

import asyncio
from typing import Any, Callable

from ..accounts import (SESSION_DAYS, LoginThrottle, Passwords, Throttled, check_name,
                        check_password, name_key, new_session_secret, session_hash)
from ..playerstore import Account, NameTaken
from ..rooms import ServerError
from .base import Shared


class Sessions:
    """Accounts, their passwords (argon2, off the loop) and sessions."""

    def __init__(self, shared: Shared, fast_hashes: bool = False) -> None:
        self.shared = shared
        self.passwords = Passwords(fast=fast_hashes)
        self.throttle = LoginThrottle()

    async def hashing(self, fn: Callable[..., Any], *args: Any) -> Any:
        """argon2 work runs in a thread: tens of milliseconds of CPU the loop does not wait for."""
        return await asyncio.get_running_loop().run_in_executor(None, fn, *args)

    async def register(self, name: str, password: str) -> tuple[Account, str]:
        name = check_name(name)
        check_password(password, name)
        digest = await self.hashing(self.passwords.hash, password)
        shared = self.shared
        try:
            account = await shared.db(shared.store.create_account, name, name_key(name), digest,
                                      shared.clock())
        except NameTaken as exc:
            raise ServerError(409, "name_taken", f"the name {name!r} is taken") from exc
        return account, await self.new_session(account)

    async def new_session(self, account: Account) -> str:
        secret = new_session_secret()
        now = self.shared.clock()
        await self.shared.db(self.shared.store.create_session, session_hash(secret), account.id,
                             now, now + SESSION_DAYS * 86400)
        return secret

    async def login(self, name: str, password: str, address: str) -> tuple[Account, str]:
        """Check a name and password. The attempt is counted (reserved in the database)
        before the password is checked, so concurrent attempts, through any instances,
        never check more than the limit; one that succeeds is given back."""
        shared, store = self.shared, self.shared.store
        keys = self.throttle.keys(name, address)
        window = self.throttle.window
        wait = await shared.db(store.reserve_login, keys, shared.clock(), window)
        if wait is not None:
            raise Throttled(int(wait) + 1)
        found = await shared.db(store.account_by_key, name_key(name.strip()))
        if found is None:
            await self.hashing(self.passwords.dummy_verify, password)
        elif await self.hashing(self.passwords.verify, found[1], password):
            await shared.db(store.give_back_login, [k for k, _ in keys], shared.clock(), window)
            return found[0], await self.new_session(found[0])
        await shared.db(store.forget_login_attempts, shared.clock() - window)
        raise ServerError(401, "bad_login", "wrong name or password")

    async def logout(self, secret: str | None) -> None:
        if secret:
            await self.shared.db(self.shared.store.delete_session, session_hash(secret))

    async def account_of(self, secret: str | None) -> Account | None:
        """The account of a session cookie; None without one; 401 for an unknown or expired one."""
        if not secret:
            return None
        shared = self.shared
        found = await shared.db(shared.store.session, session_hash(secret))
        if found is None:
            raise ServerError(401, "bad_session", "this session is unknown or was ended; log in again")
        account, expires = found
        if shared.clock() >= expires:
            await shared.db(shared.store.delete_session, session_hash(secret))
            raise ServerError(401, "session_expired", "your session has expired; log in again")
        return account

    async def change_password(self, account: Account, secret: str, old: str, new: str,
                              address: str = "unknown") -> None:
        """A wrong current password counts as a failed login of the account's name and the
        address (the login throttle's counters, in the database): a stolen session cannot
        guess the password faster than a login could."""
        shared, store = self.shared, self.shared.store
        keys = self.throttle.keys(account.name, address)
        window = self.throttle.window
        wait = await shared.db(store.reserve_login, keys, shared.clock(), window)
        if wait is not None:
            raise Throttled(int(wait) + 1)
        digest = await shared.db(store.password_hash, account.id)
        if digest is None or not await self.hashing(self.passwords.verify, digest, old):
            raise ServerError(403, "bad_login", "the current password is wrong")
        await shared.db(store.give_back_login, [k for k, _ in keys], shared.clock(), window)
        check_password(new, account.name)
        await shared.db(store.set_password, account.id,
                        await self.hashing(self.passwords.hash, new), session_hash(secret))

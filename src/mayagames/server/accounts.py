"""Accounts: names, passwords (argon2), login sessions in a cookie, and the login throttle.

* A password is stored only as an argon2id hash (``argon2-cffi``), never logged; hashing
  and checking run in a worker thread (tens of milliseconds of CPU each).
* A session is a random secret in the ``mayagames_session`` cookie (HttpOnly,
  SameSite=Lax, Secure when the request came over HTTPS, directly or as told by a proxy's
  ``X-Forwarded-Proto``, or always when configured); the database keeps only its SHA-256
  and its expiry. An expired or unknown session is refused with 401, never taken as a guest.
* Login attempts are counted per account name and per client address in a window that
  begins at the first attempt; past the limit every login attempt for that name or from
  that address is refused with 429 (a right password too) until the window has passed.
  An attempt is counted in the database before its password is checked (one conditional
  row update), so concurrent attempts, through any of the instances sharing the database,
  never check more than the limit; an attempt that succeeds is given back.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Callable

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from .rooms import ServerError

SESSION_COOKIE = "mayagames_session"
SESSION_DAYS = 30
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{2,23}")
MIN_PASSWORD, MAX_PASSWORD = 8, 128
Clock = Callable[[], float]


def name_key(name: str) -> str:
    """The unique form of a name: 'Ixchel' and 'ixchel' are the same account."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(name: str) -> str:
    """A valid account name (3 to 24 letters, digits, '_', '.', '-'; starts with a letter or digit)."""
    name = name.strip()
    if not NAME.fullmatch(name):
        raise ServerError(422, "bad_name", "a name has 3 to 24 characters: letters a-z, digits, "
                          "'_', '.' or '-', starting with a letter or a digit")
    if name_key(name).startswith("bot"):
        raise ServerError(422, "bad_name", "names starting with 'bot' are kept for the bots")
    return name


def check_password(password: str, name: str) -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ServerError(422, "bad_password", f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} "
                          "characters")
    if name_key(password) == name_key(name):
        raise ServerError(422, "bad_password", "the password must differ from the name")


class Passwords:
    """argon2id hashing; ``fast`` lowers the cost (tests only)."""

    def __init__(self, fast: bool = False) -> None:
        self.hasher = (PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1) if fast
                       else PasswordHasher())

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, password_hash: str, password: str) -> bool:
        try:
            return self.hasher.verify(password_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def dummy_verify(self, password: str) -> None:
        """Spend the time of a check for an unknown name (no hint which names exist)."""
        self.verify(self.dummy, password)

    @property
    def dummy(self) -> str:
        if not hasattr(self, "_dummy"):
            self._dummy = self.hasher.hash(secrets.token_hex(8))
        return self._dummy


def session_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_session_secret() -> str:
    return secrets.token_urlsafe(32)


class Throttled(ServerError):
    """429 with the seconds to wait (sent as ``Retry-After``)."""

    def __init__(self, wait: int, what: str = "too many failed logins") -> None:
        super().__init__(429, "too_many_attempts", f"{what}; try again in {wait} s")
        self.retry_after = wait


@dataclass(frozen=True)
class LoginThrottle:
    """The policy on failed logins: at most ``per_name`` per account name and
    ``per_address`` per client address in a ``window`` of seconds.

    The attempts are counted in the database (``login_attempts``, see
    :meth:`~.playerstore.PlayerStore.reserve_login`), so every instance on one database
    counts the same ones: a guesser spreading attempts over instances gains nothing. Keys
    are SHA-256 digests (no names or addresses in clear in that table)."""

    per_name: int = 5
    per_address: int = 20
    window: float = 300.0

    def keys(self, name: str, address: str) -> list[tuple[str, int]]:
        """The counters a login attempt is checked against: (key, limit)."""
        return [(throttle_key(f"name:{name_key(name.strip())}"), self.per_name),
                (throttle_key(f"addr:{address}"), self.per_address)]


def throttle_key(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()

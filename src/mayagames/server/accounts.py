"""Accounts: names, passwords (argon2), login sessions in a cookie, and the login throttle.

* A password is stored only as an argon2id hash (``argon2-cffi``), never logged; hashing
  and checking run in a worker thread (tens of milliseconds of CPU each). A new password
  (sign-up, change) has at least 10 characters and is not an easy guess
  (:func:`weak_password`): not one of the most common passwords (``data/common_passwords.txt``)
  with or without digits and punctuation around it, not a run of one character or a short
  repeated piece, not a keyboard or alphabet sequence, not the name. Accounts made under
  the older rule (8 characters) keep logging in.
* Names of the bot levels and bot specs (``easy``, ``Hard``, ``mcts`` ...) and a few
  names of the house (``admin``, ``mayagames``) are reserved, compared after folding
  case, separators and look-alike characters (``H4rd``, ``rand0m``, ``e.a.s.y``:
  :func:`fold_name`), as are names starting with ``bot``: a person cannot appear on the
  ladder as a bot.
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
from functools import lru_cache
from pathlib import Path
from typing import Callable

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from .rooms import ServerError

SESSION_COOKIE = "mayagames_session"
SESSION_DAYS = 30
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{2,23}")
MIN_PASSWORD, MAX_PASSWORD = 10, 128
MIN_DISTINCT = 5  # different characters a password needs ("aaaaaaaaaa", "ababababab": weak)
COMMON_PASSWORDS = Path(__file__).with_name("data") / "common_passwords.txt"
# the house's own names, besides the bots' (see reserved_names)
HOUSE_NAMES = ("admin", "administrator", "moderator", "mayagames", "system", "server", "human",
               "zombie", "spectator", "guest", "nobody")
# look-alikes folded to one letter: "H4rd" is "hard", "rand0m" is "random", "Easy" is "easy"
CONFUSABLES = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l", "!": "l", "3": "e",
                             "4": "a", "@": "a", "5": "s", "$": "s", "7": "t", "8": "b",
                             "9": "g", "6": "b", "2": "z"})
KEYBOARD_ROWS = ("1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm", "qwertzuiop", "azertyuiop",
                 "abcdefghijklmnopqrstuvwxyz")
Clock = Callable[[], float]


def name_key(name: str) -> str:
    """The unique form of a name: 'Ixchel' and 'ixchel' are the same account."""
    return unicodedata.normalize("NFKC", name).casefold()


def fold_name(name: str) -> str:
    """A name with case, separators and look-alike characters folded (``B0T_Hard`` ->
    ``bothard``): two names that fold alike look alike on the ladder."""
    folded = name_key(name).translate(CONFUSABLES)
    folded = "".join(c for c in folded if c.isalnum())
    return folded.replace("rn", "m").replace("vv", "w")


@lru_cache(maxsize=1)
def reserved_names() -> frozenset[str]:
    """The folded names no account may take: the bot levels and specs, the house's names."""
    from ..agents import AGENT_FACTORIES, LEVELS

    return frozenset(fold_name(n) for n in (*LEVELS, *AGENT_FACTORIES, *HOUSE_NAMES))


def check_name(name: str) -> str:
    """A valid account name (3 to 24 letters, digits, '_', '.', '-'; starts with a letter or
    digit) that is not a bot's or the house's, nor looks like one."""
    name = name.strip()
    if not NAME.fullmatch(name):
        raise ServerError(422, "bad_name", "a name has 3 to 24 characters: letters a-z, digits, "
                          "'_', '.' or '-', starting with a letter or a digit")
    folded = fold_name(name)
    if folded.startswith("bot"):
        raise ServerError(422, "bad_name", "names starting with 'bot' are kept for the bots")
    if folded in reserved_names():
        raise ServerError(422, "reserved_name", f"the name {name!r} is kept: it is (or looks "
                          "like) a bot level, a bot or the server's own")
    return name


@lru_cache(maxsize=1)
def common_passwords() -> frozenset[str]:
    """The most common passwords (lower case), from ``data/common_passwords.txt``."""
    lines = COMMON_PASSWORDS.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip().casefold() for line in lines
                     if line.strip() and not line.startswith("#"))


@lru_cache(maxsize=1)
def folded_common() -> frozenset[str]:
    """The common passwords with look-alikes folded ("p@ssw0rd" is "password")."""
    return frozenset(fold_name(p) for p in common_passwords())


def is_sequence(text: str) -> bool:
    """A run along the alphabet, the digits or a keyboard row, either way ("6543210987" too)."""
    if len(text) < 4:
        return False
    for row in KEYBOARD_ROWS:
        doubled = row + row
        if text in doubled or text[::-1] in doubled:
            return True
    return False


def weak_password(password: str, name: str) -> str | None:
    """Why a new password is too easy to guess (None: it is not)."""
    key = name_key(password)
    bare = key.strip()
    if len(set(bare)) < MIN_DISTINCT:
        return f"it needs at least {MIN_DISTINCT} different characters"
    if any(len(bare) % size == 0 and bare == bare[:size] * (len(bare) // size)
           for size in range(1, len(bare) // 2 + 1)):
        return "it is a short piece repeated"
    if is_sequence(bare.replace(" ", "")):
        return "it is a sequence of the keyboard or the alphabet"
    core = bare.strip("0123456789 !?.,;:-_+*#$%&@~'\"()[]{}/\\")
    if bare in common_passwords() or core in common_passwords() or fold_name(core) in folded_common():
        return "it is one of the most common passwords"
    name_folded = fold_name(name)
    if fold_name(core) == name_folded or (len(name_folded) >= 5 and name_folded in fold_name(key)):
        return "it contains the name"
    return None


def check_password(password: str, name: str) -> None:
    """A new password (sign-up or change): 10 to 128 characters, not an easy guess."""
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ServerError(422, "bad_password", f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} "
                          "characters")
    why = weak_password(password, name)
    if why:
        raise ServerError(422, "weak_password", f"this password is too easy to guess: {why}; "
                          "a few unrelated words make a good one")


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

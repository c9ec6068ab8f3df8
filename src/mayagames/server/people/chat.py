"""A table's chat: who may read and speak (a private table's chat belongs to its seats),
the flood limits, and the lines the server itself posts (a time-out, a resignation)."""

from __future__ import annotations

from collections import deque
from typing import Any

from ..accounts import Throttled
from ..playerstore import Account
from ..rooms import Room, ServerError
from .base import Seating, Shared, Unconnected

CHAT_MAX = 500          # characters of one chat line
CHAT_BURST = 5          # lines one author may send ...
CHAT_WINDOW = 10.0      # ... per this many seconds
CHAT_KEEP = 200         # lines a table's chat shows


class Chat:
    """``chat_sent``: when each author (a table's seat, or an account) last spoke."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.chat_sent: dict[str, deque[float]] = {}
        self.seats: Seating = Unconnected()  # type: ignore[assignment]

    def connect(self, seats: Seating) -> None:
        self.seats = seats

    async def say(self, room: Room, token: str | None, account: Account | None, text: str) -> dict[str, Any]:
        """A chat line from a seat (token or account) or a logged-in spectator."""
        seat = await self.seats.seat(room, token, account)
        if seat is None and account is None:
            raise ServerError(401, "login_required", "log in or open your seat to chat")
        if seat is None and not self.shared.meta_of(room).public:
            raise ServerError(403, "private_chat", "a private table's chat belongs to its seats")
        author = room.stored.seats[seat].name if seat is not None else account.name  # type: ignore[union-attr]
        text = "".join(c for c in text if c.isprintable() or c == " ").strip()
        if not text:
            raise ServerError(422, "bad_chat", "say something")
        if len(text) > CHAT_MAX:
            raise ServerError(422, "bad_chat", f"a chat line has at most {CHAT_MAX} characters")
        key = f"{room.id}:{seat}" if seat is not None else f"account:{account.id}"  # type: ignore[union-attr]
        sent = self.chat_sent.setdefault(key, deque())
        now = self.shared.clock()
        while sent and sent[0] <= now - CHAT_WINDOW:
            sent.popleft()
        if len(sent) >= CHAT_BURST:
            raise Throttled(int(sent[0] + CHAT_WINDOW - now) + 1, "too many chat lines")
        # all authors together: thirty fresh accounts cannot flood one table
        service = self.shared.service
        service.check_rate("chat_table", room.id, service.limits.rate_chat_table,
                           "chat lines at this table")
        sent.append(now)
        return await self.post(room, author, seat, text)

    async def post(self, room: Room, author: str, seat: int | None, text: str,
                   system: bool = False) -> dict[str, Any]:
        shared = self.shared
        line = await shared.db(shared.store.add_chat, room.id, author, seat, text, system,
                               shared.clock())
        public = shared.meta_of(room).public
        for sub in list(room.subscribers):
            if public or sub.seat is not None:  # a private table's chat: its seats only
                sub.push({"type": "chat", "table": room.id, **line})
        return line

    async def chat(self, room: Room, token: str | None = None,
                   account: Account | None = None) -> list[dict[str, Any]]:
        """The table's last chat lines: anyone's on a public table, a seat's on a private one."""
        if not self.shared.meta_of(room).public and \
                await self.seats.seat(room, token, account) is None:
            raise ServerError(403, "private_chat", "a private table's chat belongs to its seats: "
                              "open your seat to read it")
        return await self.shared.db(self.shared.store.chat, room.id, CHAT_KEEP)

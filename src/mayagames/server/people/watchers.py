"""The lobby's push: the lobby pages (``GET /api/me/events``) following an account's
tables on this instance, told when one of them changes or a quick game was paired."""

from __future__ import annotations

import asyncio
from typing import Any

from ..playerstore import Account
from ..rooms import Room, ServerError
from .base import Shared

WATCHERS_PER_ACCOUNT = 8  # lobby pages of one account following their tables at once
WATCH_QUEUE = 32        # table changes queued for one lobby page


class Watchers:
    """``watchers``: each account's lobby pages (their queues) on this instance."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.watchers: dict[int, set[asyncio.Queue[tuple[str, dict[str, Any]]]]] = {}

    def watch_account(self, account: Account) -> "asyncio.Queue[tuple[str, dict[str, Any]]]":
        """A queue of ``(event, data)`` for a lobby page's event stream: ``tables`` with the
        id of each of ``account``'s tables that changes, ``quick`` when a quick game was
        paired; at most WATCHERS_PER_ACCOUNT at once."""
        queues = self.watchers.setdefault(account.id, set())
        if len(queues) >= WATCHERS_PER_ACCOUNT:
            raise ServerError(429, "too_many_streams", f"at most {WATCHERS_PER_ACCOUNT} lobby "
                              "pages of one account follow their tables at once")
        queue: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue(maxsize=WATCH_QUEUE)
        queues.add(queue)
        return queue

    def unwatch_account(self, account: Account,
                        queue: "asyncio.Queue[tuple[str, dict[str, Any]]]") -> None:
        queues = self.watchers.get(account.id, set())
        queues.discard(queue)
        if not queues:
            self.watchers.pop(account.id, None)

    def tell_watchers(self, room: Room) -> None:
        """A table was just sent to its subscribers: tell its seats' accounts' lobby pages."""
        meta = self.shared.meta.get(room.id)
        if meta is None or not self.watchers:
            return
        for account_id in set(meta.owners.values()):
            self.tell_account(account_id, "tables", {"table": room.id})

    def tell_account(self, account_id: int, event: str, data: dict[str, Any]) -> None:
        """Send ``event`` to the account's lobby pages on this instance."""
        for queue in self.watchers.get(account_id, ()):
            if not queue.full():  # a page that does not read drops news, not memory
                queue.put_nowait((event, data))

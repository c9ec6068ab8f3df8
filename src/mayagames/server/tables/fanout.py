"""Subscribers (connected clients) and the per-seat messages sent to them."""

from __future__ import annotations

import asyncio
from typing import Any

from ..rooms import Room
from .base import MAX_QUEUE, TableHooks


class Subscriber:
    """One connected client: the seat it sees as, and its outgoing queue."""

    def __init__(self, seat: int | None = None) -> None:
        self.seat = seat
        self.known = 0  # log entries this client has
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

    def push(self, message: dict[str, Any]) -> None:
        if self.queue.qsize() >= MAX_QUEUE:
            self.close()
            return
        self.queue.put_nowait(message)

    def close(self) -> None:
        self.queue.put_nowait(None)


class Fanout:
    """Attaches subscribers to rooms and queues each one its own view of a new position."""

    def __init__(self, hooks: TableHooks) -> None:
        self.hooks = hooks

    def subscribe(self, room: Room, sub: Subscriber, seat: int | None) -> None:
        """(Re)attach ``sub`` as ``seat`` and send it the full state (resync)."""
        sub.seat = seat
        room.subscribers.add(sub)
        sub.push(room.message(seat, 0))
        sub.known = room.move_number

    def unsubscribe(self, room: Room, sub: Subscriber) -> None:
        room.subscribers.discard(sub)

    def broadcast(self, room: Room, origin: Subscriber | None = None, rid: Any = None) -> None:
        """Queue each subscriber its own view of the new position (the log from what it has)."""
        cache: dict[tuple[int | None, int], dict[str, Any]] = {}
        for sub in list(room.subscribers):
            key = (sub.seat, min(sub.known, room.move_number))
            if key not in cache:
                cache[key] = room.message(sub.seat, key[1])
            message = cache[key]
            if sub is origin:
                message = {**message, "ack": rid}
            sub.push(message)
            sub.known = room.move_number
        self.hooks.broadcast(room)

    @staticmethod
    def close_all(rooms: list[Room]) -> None:
        """Send every subscriber of ``rooms`` away (the server stops)."""
        for room in rooms:
            for sub in list(room.subscribers):
                sub.close()

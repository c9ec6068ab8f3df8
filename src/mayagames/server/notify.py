"""PostgreSQL LISTEN in a thread of its own: how one server instance hears about the
moves and undos that the other instances store.

Every write transaction of :mod:`.db` sends ``pg_notify(channel, payload)``; PostgreSQL
delivers it to every listening connection when the transaction commits (so never for a
write that was rolled back). The listener holds one dedicated psycopg connection in
autocommit mode, waits on it in a daemon thread, and hands each payload to the event loop
with ``call_soon_threadsafe``. If the connection breaks it reconnects (every second until
it succeeds) and then calls ``on_connect`` so the server can catch up on whatever it
missed meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from typing import Any, Callable

log = logging.getLogger("mayagames.server")
WAIT = 0.5  # seconds between looks at the stop flag while no notification comes
RETRY = 1.0  # seconds between reconnection attempts


class Listener:
    """LISTEN on ``channel``; ``on_notify(payload)`` and ``on_connect()`` run on ``loop``.
    ``name``: the connection's ``application_name`` (which instance it is, in
    ``pg_stat_activity``)."""

    def __init__(self, url: str, channel: str, loop: asyncio.AbstractEventLoop,
                 on_notify: Callable[[dict[str, Any]], None],
                 on_connect: Callable[[], None], name: str = "mayagames-listen") -> None:
        self.url, self.channel, self.loop, self.name = url, channel, loop, name[:63]
        self.on_notify, self.on_connect = on_notify, on_connect
        self.stopping = threading.Event()
        self.listening = threading.Event()  # set while LISTEN is in force
        self.thread = threading.Thread(target=self.run, name="pg-listen", daemon=True)

    def start(self, timeout: float = 10.0) -> None:
        """Start listening; returns once LISTEN is in force (or ``timeout`` passed)."""
        self.thread.start()
        self.listening.wait(timeout)

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=5)

    def run(self) -> None:
        import psycopg
        from psycopg import sql

        first = True
        while not self.stopping.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=5,
                                     application_name=self.name) as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    self.listening.set()
                    if not first:
                        self.loop.call_soon_threadsafe(self.on_connect)
                    first = False
                    while not self.stopping.is_set():
                        for note in conn.notifies(timeout=WAIT):
                            self.deliver(note.payload)
            except Exception as exc:  # the database went away: retry until it is back
                self.listening.clear()
                if self.stopping.is_set():
                    break
                log.warning("LISTEN connection lost (%s); reconnecting", exc)
                first = False
                self.stopping.wait(RETRY)

    def deliver(self, payload: str) -> None:
        try:
            data = json.loads(payload)
        except json.JSONDecodeError:
            log.warning("ignored a notification that is not JSON: %r", payload[:200])
            return
        if isinstance(data, dict):
            try:
                self.loop.call_soon_threadsafe(self.on_notify, data)
            except RuntimeError:  # the loop is closed: the server is stopping
                self.stopping.set()

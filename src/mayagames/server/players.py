"""The players' side of the server: accounts and sessions, seats that belong to accounts,
the open lobby (public tables, joining a free seat), clocks with zombie bots, the rating
ladder and table chat.

:class:`Players` is a facade: it composes the parts of :mod:`.people`, one concern each,
and keeps the methods the routes, the quick-play queue and the tests call (each delegates
to its part). It sits next to :class:`~.service.GameService` and plugs into it through its
typed hooks (:class:`~.tables.base.TableHooks`): ``on_load`` (a table comes into memory:
its settings, owners and clock are read), ``on_move`` (under the table's lock, after a
move is stored: the clock is charged, a finished rated game is rated), ``on_change`` (its
settings changed elsewhere), ``on_broadcast`` (the lobby pages of its players are told).
What a table adds to its messages goes into the room's ``extras`` (``lobby``,
``players``, ``clock``), so that seats and spectators see it.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import Any, Callable

from .clocks import Speed
from .db import StoredTable
from .people.base import Clock, GameTables, Shared, ended, free_seats, invitable_seats, ladder_key
from .people.chat import CHAT_BURST, CHAT_KEEP, CHAT_MAX, CHAT_WINDOW, Chat
from .people.ladder import Ladder
from .people.listings import Card, Listings
from .people.seats import Seats
from .people.sessions import Sessions
from .people.settings import DEFAULT_ZOMBIE, RATED_SPEED, Settings, rated_speed
from .people.timekeeper import CLOCK_LEASE_SECONDS, Timekeeper
from .people.watchers import WATCH_QUEUE, WATCHERS_PER_ACCOUNT, Watchers
from .playerstore import Account, PlayerStore, TableMeta
from .rooms import LogEntry, Room, ServerError
from .tables.creation import Extension, Prepare

KEEP_ALIVE = 15.0       # seconds between keep-alive comments of a lobby's event stream
__all__ = ["CHAT_BURST", "CHAT_KEEP", "CHAT_MAX", "CHAT_WINDOW", "CLOCK_LEASE_SECONDS",
           "Clock", "DEFAULT_ZOMBIE", "KEEP_ALIVE", "Players", "RATED_SPEED", "WATCHERS_PER_ACCOUNT",
           "WATCH_QUEUE", "ladder_key", "login_required", "rated_speed"]


def login_required(account: Account | None) -> Account:
    if account is None:
        raise ServerError(401, "login_required", "log in first (POST /api/login)")
    return account


class Players:
    """Accounts, lobby, clocks, ratings and chat over the game service's database."""

    def __init__(self, service: GameTables, *, clock: Clock = time.time,
                 fast_hashes: bool = False, tick: float = 1.0) -> None:
        self.common = Shared(service, clock)
        self.sessions = Sessions(self.common, fast_hashes)
        self.settings = Settings(self.common)
        self.seats = Seats(self.common)
        self.listings = Listings(self.common)
        self.watching = Watchers(self.common)
        self.timekeeper = Timekeeper(self.common, tick)
        self.ladder = Ladder(self.common)
        self.talk = Chat(self.common)
        # the parts that call each other are connected once they all exist
        self.settings.connect(self.timekeeper, self.ladder, self.talk)
        self.seats.connect(self.settings, self.timekeeper, self.ladder, self.talk,
                           self.account_of)
        self.timekeeper.connect(self.settings, self.ladder, self.talk)
        self.ladder.connect(self.settings, self.talk)
        self.talk.connect(self.seats)
        service.hooks.attach(self)

    # --- what the parts hold, under the names other code uses -----------------------------
    @property
    def service(self) -> GameTables:
        return self.common.service

    @property
    def store(self) -> PlayerStore:
        return self.common.store

    @property
    def clock(self) -> Clock:
        return self.common.clock

    @clock.setter
    def clock(self, clock: Clock) -> None:
        self.common.clock = clock

    @property
    def tick(self) -> float:
        return self.timekeeper.tick

    @property
    def meta(self) -> dict[str, TableMeta]:
        return self.common.meta

    @property
    def passwords(self) -> Any:
        return self.sessions.passwords

    @property
    def throttle(self) -> Any:
        return self.sessions.throttle

    @property
    def deadlines(self) -> dict[str, float]:
        return self.timekeeper.deadlines

    @property
    def declined(self) -> set[tuple[str, float]]:
        return self.timekeeper.declined

    @property
    def keeper(self) -> "asyncio.Task[None] | None":
        return self.timekeeper.keeper

    @property
    def chat_sent(self) -> dict[str, deque[float]]:
        return self.talk.chat_sent

    @property
    def watchers(self) -> dict[int, set[Any]]:
        return self.watching.watchers

    @property
    def shared(self) -> bool:
        """Several instances may serve the database."""
        return self.common.shared

    async def db(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self.common.db(fn, *args)

    async def hashing(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self.sessions.hashing(fn, *args)

    # --- lifecycle ------------------------------------------------------------------------
    def start(self) -> None:
        self.timekeeper.start()

    async def stop(self) -> None:
        await self.timekeeper.stop()

    # --- the game service's hooks (.tables.base.TableFeature) -------------------------------
    async def on_load(self, room: Room) -> None:
        await self.settings.on_load(room)

    async def on_move(self, room: Room, entry: LogEntry) -> None:
        await self.timekeeper.on_move(room, entry)

    async def on_change(self, room: Room) -> None:
        await self.settings.on_change(room)

    def on_broadcast(self, room: Room) -> None:
        self.watching.tell_watchers(room)

    # --- accounts and sessions (.people.sessions) -------------------------------------------
    async def register(self, name: str, password: str) -> tuple[Account, str]:
        return await self.sessions.register(name, password)

    async def new_session(self, account: Account) -> str:
        return await self.sessions.new_session(account)

    async def login(self, name: str, password: str, address: str) -> tuple[Account, str]:
        return await self.sessions.login(name, password, address)

    async def logout(self, secret: str | None) -> None:
        await self.sessions.logout(secret)

    async def account_of(self, secret: str | None) -> Account | None:
        return await self.sessions.account_of(secret)

    async def change_password(self, account: Account, secret: str, old: str, new: str,
                              address: str = "unknown") -> None:
        await self.sessions.change_password(account, secret, old, new, address)

    # --- a table's settings (.people.settings) -----------------------------------------------
    def check_create(self, req: Any, account: Account | None) -> Speed:
        return self.settings.check_create(req, account)

    def preparer(self, req: Any, account: Account | None, speed: Speed) -> Prepare:
        return self.settings.preparer(req, account, speed)

    def extension(self, room: Room, meta: TableMeta) -> Extension:
        return self.settings.extension(room, meta)

    def rematch_preparer(self, old: Room) -> Prepare:
        return self.settings.rematch_preparer(old)

    async def rematch_started(self, old: Room) -> None:
        await self.settings.rematch_started(old)

    def rematch_seat(self, room: Room, seat: int) -> bool:
        return self.settings.rematch_seat(room, seat)

    async def changed(self, room: Room, version: int | None = None) -> None:
        await self.common.changed(room, version)

    visible_tokens = staticmethod(Settings.visible_tokens)

    async def adopt(self, room: Room, meta: TableMeta) -> None:
        await self.settings.adopt(room, meta)

    zombie_agent = staticmethod(Settings.zombie_agent)

    def decorate(self, room: Room, meta: TableMeta) -> None:
        self.settings.decorate(room, meta)

    def lobby_fields(self, room: Room) -> dict[str, Any]:
        return self.settings.lobby_fields(room)

    def meta_of(self, room: Room) -> TableMeta:
        return self.common.meta_of(room)

    def version_now(self, room: Room) -> int | None:
        return self.common.version_now(room)

    ended = staticmethod(ended)
    free_seats = staticmethod(free_seats)
    invitable_seats = staticmethod(invitable_seats)

    # --- who is who, the lobby, resigning (.people.seats) -------------------------------------
    def seat_for(self, room: Room, token: str | None, account: Account | None) -> int | None:
        return self.seats.seat_for(room, token, account)

    async def seat(self, room: Room, token: str | None, account: Account | None) -> int | None:
        return await self.seats.seat(room, token, account)

    async def arrive(self, room: Room, seat: int) -> None:
        await self.seats.arrive(room, seat)

    async def seat_of_request(self, room: Room, request: Any) -> int | None:
        return await self.seats.seat_of_request(room, request)

    def seat_of_account(self, room: Room, account: Account) -> int | None:
        return self.seats.seat_of_account(room, account)

    async def join(self, room: Room, seat: int, account: Account) -> None:
        await self.seats.join(room, seat, account)

    own = staticmethod(Seats.own)

    async def claim(self, room: Room, token: str | None, account: Account) -> int:
        return await self.seats.claim(room, token, account)

    async def reissue(self, room: Room, seat: int, account: Account) -> str:
        return await self.seats.reissue(room, seat, account)

    async def resign(self, room: Room, seat: int) -> None:
        await self.seats.resign(room, seat)

    # --- lists (.people.listings) ---------------------------------------------------------------
    def table_summary(self, room: Room, seat: int | None = None) -> dict[str, Any]:
        return self.listings.table_summary(room, seat)

    def summary(self, stored: StoredTable, meta: TableMeta, ratings: dict[int, float],
                title: str, current: int | None, finished: bool, move_number: int,
                rematch: str | None, seat: int | None) -> dict[str, Any]:
        return self.listings.summary(stored, meta, ratings, title, current, finished,
                                     move_number, rematch, seat)

    def stored_cards(self, table_ids: list[str]) -> dict[str, Card]:
        return self.listings.stored_cards(table_ids)

    async def summaries(self, tables: list[tuple[str, int | None]]) -> list[dict[str, Any]]:
        return await self.listings.summaries(tables)

    async def open_tables(self, limit: int) -> list[dict[str, Any]]:
        return await self.listings.open_tables(limit)

    async def my_tables(self, account: Account, limit: int = 50) -> list[dict[str, Any]]:
        return await self.listings.my_tables(account, limit)

    # --- the lobby's push (.people.watchers) ----------------------------------------------------
    def watch_account(self, account: Account) -> "asyncio.Queue[tuple[str, dict[str, Any]]]":
        return self.watching.watch_account(account)

    def unwatch_account(self, account: Account,
                        queue: "asyncio.Queue[tuple[str, dict[str, Any]]]") -> None:
        self.watching.unwatch_account(account, queue)

    def tell_watchers(self, room: Room) -> None:
        self.watching.tell_watchers(room)

    def tell_account(self, account_id: int, event: str, data: dict[str, Any]) -> None:
        self.watching.tell_account(account_id, event, data)

    # --- clocks (.people.timekeeper) ------------------------------------------------------------
    def clocked_seat(self, room: Room, meta: TableMeta) -> int | None:
        return self.timekeeper.clocked_seat(room, meta)

    def watch(self, room: Room, meta: TableMeta) -> None:
        self.timekeeper.watch(room, meta)

    async def save_clock(self, room: Room, meta: TableMeta,
                         deadline: float | None | bool = False,
                         expected: int | None = None) -> bool:
        return await self.timekeeper.save_clock(room, meta, deadline, expected)

    async def keep_clocks(self) -> None:
        await self.timekeeper.keep_clocks()

    async def check_clocks(self) -> list[str]:
        return await self.timekeeper.check_clocks()

    async def time_out_elsewhere(self, table_id: str) -> bool:
        return await self.timekeeper.time_out_elsewhere(table_id)

    async def time_out(self, room: Room) -> bool:
        return await self.timekeeper.time_out(room)

    # --- ratings (.people.ladder) ---------------------------------------------------------------
    player_key = staticmethod(Ladder.player_key)

    async def load_ratings(self, room: Room, meta: TableMeta) -> None:
        await self.ladder.load_ratings(room, meta)

    async def rate_table(self, room: Room, meta: TableMeta) -> None:
        await self.ladder.rate_table(room, meta)

    async def record_result(self, game: str, table_id: str | None, players: list[str],
                            names: list[str], ranks: list[int]) -> None:
        await self.ladder.record_result(game, table_id, players, names, ranks)

    # --- chat (.people.chat) --------------------------------------------------------------------
    async def say(self, room: Room, token: str | None, account: Account | None,
                  text: str) -> dict[str, Any]:
        return await self.talk.say(room, token, account, text)

    async def post(self, room: Room, author: str, seat: int | None, text: str,
                   system: bool = False) -> dict[str, Any]:
        return await self.talk.post(room, author, seat, text, system)

    async def chat(self, room: Room, token: str | None = None,
                   account: Account | None = None) -> list[dict[str, Any]]:
        return await self.talk.chat(room, token, account)

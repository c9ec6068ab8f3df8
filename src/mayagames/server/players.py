"""The players' side of the server: accounts and sessions, seats that belong to accounts,
the open lobby (public tables, joining a free seat), clocks with zombie bots, the rating
ladder and table chat.

:class:`Players` sits next to :class:`~.service.GameService` and plugs into it through its
hooks: ``on_load`` (a table comes into memory: its settings, owners and clock are read),
``on_move`` (under the table's lock, after a move is stored: the clock is charged, a
finished rated game is rated). What a table adds to its messages goes into the room's
``extras`` (``lobby``, ``players``, ``clock``), so that seats and spectators see it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from typing import Any, Awaitable, Callable

from ..agents import LEVELS, make_agent
from ..core.errors import MayaGamesError
from ..core.registry import get_game
from ..core.rng import derive_seed
from .accounts import (SESSION_COOKIE, SESSION_DAYS, LoginThrottle, Passwords, Throttled,
                       check_name, check_password, name_key, new_session_secret, session_hash)
from .bearer import bearer_token
from .clocks import (Speed, after_move, expired, new_clock, parse_speed, public_clock, run_for,
                     waiting_for)
from .db import StoredTable, is_unavailable
from .playerstore import Account, DamagedRow, NameTaken, PlayerStore, SeatTaken, TableMeta
from .ratings import account_player, bot_player, finishing_ranks, rating_dict, record_game
from .rooms import HUMAN, LogEntry, Room, ServerError, hash_token
from .tables.catalogue import option_labels
from .tables.creation import Extension, Prepare

log = logging.getLogger("mayagames.server")
Clock = Callable[[], float]
CHAT_MAX = 500          # characters of one chat line
CHAT_BURST = 5          # lines one author may send ...
CHAT_WINDOW = 10.0      # ... per this many seconds
CHAT_KEEP = 200         # lines a table's chat shows
CLOCK_LEASE_SECONDS = 4.0  # a clock lease not released for this long is taken over
WATCHERS_PER_ACCOUNT = 8  # lobby pages of one account following their tables at once
WATCH_QUEUE = 32        # table changes queued for one lobby page
KEEP_ALIVE = 15.0       # seconds between keep-alive comments of a lobby's event stream
DEFAULT_ZOMBIE = "medium"  # the level of a stored table whose zombie level is unknown
RATED_SPEED = "turn:3d"  # the clock of a rated table created without one (a loser cannot stall)


def ladder_key(stored: StoredTable, meta: TableMeta, seat: int) -> str | None:
    """The ladder's name for a seat's player (None: a guest or an unrated bot)."""
    if seat in meta.owners:
        return account_player(meta.owners[seat])
    agent = stored.seats[seat].agent
    return bot_player(agent) if agent in LEVELS else None


def rated_speed(speed: Speed, rated: bool) -> Speed:
    """A rated table always has a clock: untimed, it gets ``RATED_SPEED`` (else a loser
    could stall forever instead of losing)."""
    return parse_speed(RATED_SPEED) if rated and not speed.timed else speed


def login_required(account: Account | None) -> Account:
    if account is None:
        raise ServerError(401, "login_required", "log in first (POST /api/login)")
    return account


class Players:
    """Accounts, lobby, clocks, ratings and chat over the game service's database."""

    def __init__(self, service: Any, *, clock: Clock = time.time, fast_hashes: bool = False,
                 tick: float = 1.0) -> None:
        self.service = service
        self.store = PlayerStore(service.db)
        self.clock = clock
        self.tick = tick
        self.passwords = Passwords(fast=fast_hashes)
        self.throttle = LoginThrottle()
        self.meta: dict[str, TableMeta] = {}
        self.deadlines: dict[str, float] = {}
        # (table, deadline) of stored deadlines found not due (e.g. the seat moved): skipped
        self.declined: set[tuple[str, float]] = set()
        self.chat_sent: dict[str, deque[float]] = {}
        self.keeper: asyncio.Task[None] | None = None
        service.on_load.append(self.on_load)
        service.on_move.append(self.on_move)
        service.on_change.append(self.on_change)
        service.on_broadcast.append(self.tell_watchers)
        # the lobby pages of each account (GET /api/me/events): told when a table of theirs changes
        self.watchers: dict[int, set[asyncio.Queue[tuple[str, dict[str, Any]]]]] = {}

    async def db(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self.service.in_db(fn, *args)

    async def hashing(self, fn: Callable[..., Any], *args: Any) -> Any:
        """argon2 work runs in a thread: tens of milliseconds of CPU the loop does not wait for."""
        return await asyncio.get_running_loop().run_in_executor(None, fn, *args)

    # --- lifecycle ------------------------------------------------------------------------
    def start(self) -> None:
        self.keeper = asyncio.get_running_loop().create_task(self.keep_clocks())

    async def stop(self) -> None:
        if self.keeper is not None:
            self.keeper.cancel()
            await asyncio.gather(self.keeper, return_exceptions=True)

    # --- accounts and sessions -------------------------------------------------------------
    async def register(self, name: str, password: str) -> tuple[Account, str]:
        name = check_name(name)
        check_password(password, name)
        digest = await self.hashing(self.passwords.hash, password)
        try:
            account = await self.db(self.store.create_account, name, name_key(name), digest,
                                    self.clock())
        except NameTaken as exc:
            raise ServerError(409, "name_taken", f"the name {name!r} is taken") from exc
        return account, await self.new_session(account)

    async def new_session(self, account: Account) -> str:
        secret = new_session_secret()
        now = self.clock()
        await self.db(self.store.create_session, session_hash(secret), account.id, now,
                      now + SESSION_DAYS * 86400)
        return secret

    async def login(self, name: str, password: str, address: str) -> tuple[Account, str]:
        """Check a name and password. The attempt is counted (reserved in the database)
        before the password is checked, so concurrent attempts, through any instances,
        never check more than the limit; one that succeeds is given back."""
        keys = self.throttle.keys(name, address)
        window = self.throttle.window
        wait = await self.db(self.store.reserve_login, keys, self.clock(), window)
        if wait is not None:
            raise Throttled(int(wait) + 1)
        found = await self.db(self.store.account_by_key, name_key(name.strip()))
        if found is None:
            await self.hashing(self.passwords.dummy_verify, password)
        elif await self.hashing(self.passwords.verify, found[1], password):
            await self.db(self.store.give_back_login, [k for k, _ in keys], self.clock(), window)
            return found[0], await self.new_session(found[0])
        await self.db(self.store.forget_login_attempts, self.clock() - window)
        raise ServerError(401, "bad_login", "wrong name or password")

    async def logout(self, secret: str | None) -> None:
        if secret:
            await self.db(self.store.delete_session, session_hash(secret))

    async def account_of(self, secret: str | None) -> Account | None:
        """The account of a session cookie; None without one; 401 for an unknown or expired one."""
        if not secret:
            return None
        found = await self.db(self.store.session, session_hash(secret))
        if found is None:
            raise ServerError(401, "bad_session", "this session is unknown or was ended; log in again")
        account, expires = found
        if self.clock() >= expires:
            await self.db(self.store.delete_session, session_hash(secret))
            raise ServerError(401, "session_expired", "your session has expired; log in again")
        return account

    async def change_password(self, account: Account, secret: str, old: str, new: str,
                              address: str = "unknown") -> None:
        """A wrong current password counts as a failed login of the account's name and the
        address (the login throttle's counters, in the database): a stolen session cannot
        guess the password faster than a login could."""
        keys = self.throttle.keys(account.name, address)
        window = self.throttle.window
        wait = await self.db(self.store.reserve_login, keys, self.clock(), window)
        if wait is not None:
            raise Throttled(int(wait) + 1)
        digest = await self.db(self.store.password_hash, account.id)
        if digest is None or not await self.hashing(self.passwords.verify, digest, old):
            raise ServerError(403, "bad_login", "the current password is wrong")
        await self.db(self.store.give_back_login, [k for k, _ in keys], self.clock(), window)
        check_password(new, account.name)
        await self.db(self.store.set_password, account.id,
                      await self.hashing(self.passwords.hash, new), session_hash(secret))

    # --- tables: creation and loading ---------------------------------------------------------
    def check_create(self, req: Any, account: Account | None) -> Speed:
        """Refuse settings the creator may not choose (before anything is stored)."""
        speed = rated_speed(parse_speed(req.speed), req.rated)
        if (req.public or req.rated) and account is None:
            raise ServerError(401, "login_required", "public and rated tables need an account: "
                              "log in first")
        if req.zombie not in LEVELS:
            raise ServerError(422, "bad_zombie", f"zombie must be one of {sorted(LEVELS)}")
        agents = [(s.agent.strip().lower() or HUMAN) if s else HUMAN
                  for s in (req.seats or [None] * req.players)]
        if req.rated and any(a != HUMAN and a not in LEVELS for a in agents):
            raise ServerError(422, "unrated_bot", "a rated table seats people and the bot levels "
                              f"{', '.join(LEVELS)} only (they are on the ladder)")
        if req.public and HUMAN not in agents[1:] and agents.count(HUMAN) < 2:
            raise ServerError(422, "no_free_seat", "a public table needs a person's seat besides "
                              "yours")
        return speed

    def preparer(self, req: Any, account: Account | None, speed: Speed) -> Prepare:
        """What a new table stores besides its game (called by ``create_table``)."""
        async def prepare(room: Room) -> Extension:
            humans = [i for i, s in enumerate(room.stored.seats) if s.agent == HUMAN]
            # a private table's clock waits for each invited person to open it (the
            # creator, in the first person's seat, is there); a public one for the lobby
            invited = [] if req.public else humans[1:]
            meta = TableMeta(public=req.public, rated=req.rated, speed=speed.text,
                             zombie=req.zombie, creator_id=account.id if account else None,
                             clock=new_clock(speed, room.stored.num_players, invited))
            if account is not None and humans:
                meta.owners[humans[0]] = account.id
                meta.owner_names[humans[0]] = account.name
                room.stored.seats[humans[0]].name = account.name
            if req.public:  # the other people's seats are taken in the lobby, not by links
                for seat in humans[1:]:
                    room.stored.seats[seat].name = "Open seat"
                    room.stored.seats[seat].token_hash = None
            meta.full = not req.public or len(humans) <= 1
            if meta.full and meta.clock is not None:
                run_for(meta.clock, speed, self.clocked_seat(room, meta), self.clock())
            return self.extension(room, meta)
        return prepare

    def extension(self, room: Room, meta: TableMeta) -> Extension:
        return Extension(write=lambda s: self.store.add_meta(s, room.id, meta),
                         adopt=lambda: self.adopt(room, meta))

    def rematch_preparer(self, old: Room) -> Prepare:
        """What a rematch of ``old`` stores: the same accounts in the same seats (no links
        needed for them), the same speed, rating and zombie level; a private table that
        starts at once."""
        before = self.meta_of(old)

        async def prepare(room: Room) -> Extension:
            speed = rated_speed(parse_speed(before.speed), before.rated)
            meta = TableMeta(public=False, rated=before.rated, speed=speed.text,
                             zombie=before.zombie, creator_id=before.creator_id,
                             clock=new_clock(speed, room.stored.num_players),
                             owners=dict(before.owners), owner_names=dict(before.owner_names))
            for seat, name in meta.owner_names.items():
                room.stored.seats[seat].name = name
                room.stored.seats[seat].token_hash = None
            if meta.clock is not None:
                run_for(meta.clock, speed, self.clocked_seat(room, meta), self.clock())
            return self.extension(room, meta)
        return prepare

    async def rematch_started(self, old: Room) -> None:
        """Tell the old table's chat that a rematch was started (once, by its creator)."""
        await self.post(old, "", None, "A rematch is offered: the same players at a new "
                        f"table ({old.rematch}).", system=True)

    def rematch_seat(self, room: Room, seat: int) -> bool:
        """Whether ``seat``'s holder gets a new invite token for the rematch (a guest's
        seat; an account's seat is opened by its session)."""
        return seat not in self.meta_of(room).owners

    async def on_change(self, room: Room) -> None:
        """The table's settings changed elsewhere (another instance, a rematch): read them
        again (clock, zombies, owners)."""
        meta = await self.db(self.store.load_meta, room.id)
        if meta is not None:
            await self.adopt(room, meta)

    async def changed(self, room: Room, version: int | None = None) -> None:
        """This instance changed the table's seats or settings (stored as ``version`` by the
        change's own transaction, which told the other instances; None: raise the version
        and tell them now)."""
        await self.service.announce(room.id, version)

    @staticmethod
    def visible_tokens(room: Room, tokens: list[str | None]) -> list[str | None]:
        """The seat tokens a creation answer shows (none for a public table's open seats)."""
        return [t if room.stored.seats[i].token_hash else None for i, t in enumerate(tokens)]

    async def on_load(self, room: Room) -> None:
        meta = await self.db(self.store.load_meta, room.id)
        if meta is None:
            meta = TableMeta()
        await self.adopt(room, meta)

    async def adopt(self, room: Room, meta: TableMeta) -> None:
        """Make ``meta`` the room's: zombies play, the lobby waits, the clock is watched."""
        if meta.zombie not in LEVELS:  # a damaged row: the default level plays the zombies
            log.error("table %s: zombie level %r is unknown; %s plays its timed-out seats",
                      room.id, meta.zombie, DEFAULT_ZOMBIE)
            meta.zombie = DEFAULT_ZOMBIE
        self.meta[room.id] = meta
        for seat in meta.zombies:
            room.agents[seat] = self.zombie_agent(room, meta, seat)
        room.ended = self.ended(room, meta)
        room.waiting = None if meta.full else "waiting for players to join"
        await self.load_ratings(room, meta)
        self.watch(room, meta)
        self.decorate(room, meta)

    def zombie_agent(self, room: Room, meta: TableMeta, seat: int) -> Any:
        return make_agent(meta.zombie, derive_seed(room.stored.seed, room.id, "zombie", seat))

    async def load_ratings(self, room: Room, meta: TableMeta) -> None:
        keys = {seat: self.player_key(room, meta, seat) for seat in range(room.stored.num_players)}
        found = await self.db(self.store.ratings, room.info.name,
                              [k for k in keys.values() if k])
        meta_ratings = {seat: rating_dict(found[k])["rating"] for seat, k in keys.items()
                        if k in found}
        room.extras["ratings"] = meta_ratings

    def decorate(self, room: Room, meta: TableMeta) -> None:
        """What every message of the table carries besides the game."""
        speed = parse_speed(meta.speed)
        ratings = room.extras.get("ratings", {})
        room.extras["lobby"] = {"public": meta.public, "rated": meta.rated, "speed": meta.speed,
                                "speed_text": speed.describe(), "zombie": meta.zombie,
                                "waiting": not meta.full, "free": self.free_seats(room, meta),
                                "rematch": room.rematch, "creator": meta.creator_id,
                                "invitable": self.invitable_seats(room, meta)}
        room.extras["players"] = [{"seat": i, "account": meta.owner_names.get(i),
                                   "zombie": i in meta.zombies, "resigned": i in meta.resigned,
                                   "rating": ratings.get(i)}
                                  for i in range(room.stored.num_players)]
        room.extras["clock"] = lambda: public_clock(meta.clock, speed, self.clock())

    # --- who is who ---------------------------------------------------------------------------
    def seat_for(self, room: Room, token: str | None, account: Account | None) -> int | None:
        """The seat a request speaks for: its token's, else its account's, else none (spectator)."""
        if token:
            return room.seat_of_token(token)
        if account is not None:
            return self.seat_of_account(room, account)
        return None

    async def seat(self, room: Room, token: str | None, account: Account | None) -> int | None:
        """:meth:`seat_for`, looking a token this instance does not know up in the database
        (one handed out through another instance a moment ago). A seat whose player opens
        the table for the first time has come (its clock may start)."""
        if token:
            seat = await self.service.seat_of_token(room, token)
        else:
            seat = self.seat_for(room, None, account)
        if seat is not None and seat in waiting_for(self.meta_of(room).clock):
            await self.arrive(room, seat)
        return seat

    async def arrive(self, room: Room, seat: int) -> None:
        """``seat``'s player opened the table: once every seat is taken the clock starts."""
        meta = self.meta_of(room)
        async with room.lock:
            if meta.clock is None or seat not in waiting_for(meta.clock):
                return
            meta.clock["waiting"] = [s for s in waiting_for(meta.clock) if s != seat]
            if not meta.clock["waiting"]:
                run_for(meta.clock, parse_speed(meta.speed), self.clocked_seat(room, meta),
                        self.clock())
            await self.save_clock(room, meta)
            self.decorate(room, meta)
            self.service.broadcast(room)

    async def seat_of_request(self, room: Room, request: Any) -> int | None:
        """The seat an HTTP request reads as: its bearer token's, else its session's account's
        (an unknown or expired session reads as a spectator); None: a spectator."""
        try:
            account = await self.account_of(request.cookies.get(SESSION_COOKIE))
        except ServerError:
            account = None
        return await self.seat(room, bearer_token(request), account)

    def seat_of_account(self, room: Room, account: Account) -> int | None:
        meta = self.meta.get(room.id)
        if meta is None:
            return None
        seats = [s for s, a in meta.owners.items() if a == account.id]
        if not seats:
            return None
        current = room.state.current_player
        return current if current in seats else min(seats)

    def player_key(self, room: Room, meta: TableMeta, seat: int) -> str | None:
        """The ladder's name for a seat's player (None: a guest or an unrated bot)."""
        return ladder_key(room.stored, meta, seat)

    # --- the lobby ------------------------------------------------------------------------------
    async def join(self, room: Room, seat: int, account: Account) -> None:
        """Take a free seat of a public table for ``account``; start the game when it is full."""
        meta = self.meta_of(room)
        if not meta.public:
            raise ServerError(403, "private_table", "this table is private: its seats are taken "
                              "with invite links")
        if room.finished:
            raise ServerError(409, "game_over", "the game is over")
        if not 0 <= seat < room.stored.num_players:
            raise ServerError(422, "bad_seat", f"seat must be 0..{room.stored.num_players - 1}")
        async with room.lock:
            if self.seat_of_account(room, account) is not None:
                raise ServerError(409, "already_seated", "you already have a seat at this table")
            if room.stored.seats[seat].agent != HUMAN or seat in meta.owners \
                    or room.stored.seats[seat].token_hash:
                raise ServerError(409, "seat_taken", f"seat {seat} is not free")
            free = self.free_seats(room, meta)
            try:
                version = await self.db(self.store.take_seat, room.id, seat, account,
                                        len(free) <= 1, True)
            except SeatTaken as exc:
                raise ServerError(409, "seat_taken", f"seat {seat} is not free") from exc
            await self.changed(room, version)
            self.own(room, meta, seat, account)
            if len(free) <= 1:
                meta.full = True
                room.waiting = None
                if meta.clock is not None:
                    run_for(meta.clock, parse_speed(meta.speed), self.clocked_seat(room, meta),
                            self.clock())
                    await self.save_clock(room, meta)
            await self.load_ratings(room, meta)
            self.decorate(room, meta)
            self.service.broadcast(room)
        self.service.start_bots(room)

    def own(self, room: Room, meta: TableMeta, seat: int, account: Account) -> None:
        meta.owners[seat] = account.id
        meta.owner_names[seat] = account.name
        room.stored.seats[seat].name = account.name

    @staticmethod
    def free_seats(room: Room, meta: TableMeta) -> list[int]:
        return [i for i, s in enumerate(room.stored.seats)
                if s.agent == HUMAN and i not in meta.owners and not s.token_hash]

    def meta_of(self, room: Room) -> TableMeta:
        return self.meta.setdefault(room.id, TableMeta())

    async def claim(self, room: Room, token: str | None, account: Account) -> int:
        """Turn the guest seat of ``token`` into ``account``'s seat (the link stops working)."""
        if not token:
            raise ServerError(401, "no_token", "claiming a seat needs its token "
                              "(Authorization: Bearer TOKEN)")
        meta = self.meta_of(room)
        await self.service.seat_of_token(room, token)  # a wrong token: 401
        async with room.lock:
            seat = room.seat_of_token(token)
            assert seat is not None
            if meta.owners.get(seat) == account.id:
                return seat
            if seat in meta.owners:
                raise ServerError(409, "seat_taken", f"seat {seat} belongs to another account")
            if self.seat_of_account(room, account) is not None:
                raise ServerError(409, "already_seated", "you already have a seat at this table")
            await self.db(self.store.ensure_meta, room.id)
            try:
                version = await self.db(self.store.take_seat, room.id, seat, account, meta.full,
                                        True)
            except SeatTaken as exc:
                raise ServerError(409, "seat_taken", f"seat {seat} belongs to another account") from exc
            await self.changed(room, version)
            self.own(room, meta, seat, account)
            room.stored.seats[seat].token_hash = None
            await self.load_ratings(room, meta)
            self.decorate(room, meta)
            self.service.broadcast(room)
        return seat

    async def reissue(self, room: Room, seat: int, account: Account) -> str:
        """A new invite token for ``seat`` (the creator only); the old link stops working."""
        meta = self.meta_of(room)
        if meta.creator_id != account.id:
            raise ServerError(403, "not_creator", "only the table's creator can re-issue invite links")
        if not 0 <= seat < room.stored.num_players or room.stored.seats[seat].agent != HUMAN:
            raise ServerError(422, "bad_seat", f"seat {seat} is not a person's seat")
        if seat in meta.owners and meta.owners[seat] != account.id:
            raise ServerError(409, "seat_taken", f"seat {seat} belongs to an account; it has no link")
        if meta.public and seat not in meta.owners:
            raise ServerError(409, "public_seat", "a public table's free seats are joined in the lobby")
        token = secrets.token_urlsafe(24)
        async with room.lock:
            version = await self.db(self.store.set_token, room.id, seat, hash_token(token))
            room.stored.seats[seat].token_hash = hash_token(token)
            await self.changed(room, version)
            for sub in [s for s in room.subscribers if s.seat == seat]:
                sub.close()  # whoever holds the old link is sent away
        return token

    @staticmethod
    def invitable_seats(room: Room, meta: TableMeta) -> list[int]:
        """The seats whose invite link the creator may re-issue: a person's seat that no
        account holds (a public table's free seats are taken in the lobby instead)."""
        return [i for i, s in enumerate(room.stored.seats)
                if s.agent == HUMAN and i not in meta.owners
                and not (meta.public and not s.token_hash)]

    def lobby_fields(self, room: Room) -> dict[str, Any]:
        meta = self.meta_of(room)
        return {"public": meta.public, "rated": meta.rated, "speed": meta.speed,
                "zombie": meta.zombie}

    def table_summary(self, room: Room, seat: int | None = None) -> dict[str, Any]:
        """A loaded table as lists show it (seen from ``seat``)."""
        return self.summary(room.stored, self.meta_of(room), room.extras.get("ratings", {}),
                            room.info.title, room.state.current_player, room.finished,
                            room.move_number, room.rematch, seat)

    def summary(self, stored: StoredTable, meta: TableMeta, ratings: dict[int, float],
                title: str, current: int | None, finished: bool, move_number: int,
                rematch: str | None, seat: int | None) -> dict[str, Any]:
        """What lists show of a table: from a loaded room or from its stored rows alone."""
        free = [i for i, s in enumerate(stored.seats)
                if s.agent == HUMAN and i not in meta.owners and not s.token_hash]
        return {
            "table": stored.id, "game": stored.game, "title": title,
            "num_players": stored.num_players, "options": stored.options,
            "option_labels": option_labels(get_game(stored.game), stored.options),
            "public": meta.public, "rated": meta.rated, "speed": meta.speed,
            "speed_text": parse_speed(meta.speed).describe(),
            "status": "finished" if finished else ("waiting" if not meta.full else "playing"),
            "move_number": move_number, "current_player": current,
            "seats": [{"seat": i, "name": s.name, "agent": s.agent, "bot": s.agent != HUMAN,
                       "account": meta.owner_names.get(i), "zombie": i in meta.zombies,
                       "free": i in free, "rating": ratings.get(i)}
                      for i, s in enumerate(stored.seats)],
            "seat": seat,
            "your_turn": seat is not None and not finished and meta.full and current == seat
            and seat not in meta.zombies,
            "clock": public_clock(meta.clock, parse_speed(meta.speed), self.clock()),
            "rematch": rematch,
        }

    def stored_cards(self, table_ids: list[str]) -> dict[str, tuple[StoredTable, TableMeta,
                                                                    dict[int, float]]]:
        """(In a database thread.) What lists need of tables not loaded here, from their
        rows: the table, its settings and its seats' ratings; no replay. A table whose
        rows are damaged is left out (opening it says why)."""
        tables = self.service.db.stored_tables(table_ids)
        metas = self.store.load_metas(list(tables))
        keys: dict[str, dict[int, str]] = {}
        wanted: dict[str, set[str]] = {}  # game -> ladder names
        for table_id, stored in list(tables.items()):
            meta = metas.setdefault(table_id, TableMeta())  # none: a table from before accounts
            if meta is None:  # damaged settings: listed nowhere (opening it says why)
                del tables[table_id]
                continue
            keys[table_id] = {seat: key for seat in range(stored.num_players)
                              if (key := ladder_key(stored, meta, seat))}
            wanted.setdefault(stored.game, set()).update(keys[table_id].values())
        found = {game: self.store.ratings(game, sorted(names)) for game, names in wanted.items()
                 if names}
        cards = {}
        for table_id, stored in tables.items():
            ratings = found.get(stored.game, {})
            meta = metas[table_id]
            assert meta is not None
            cards[table_id] = (stored, meta,
                               {seat: rating_dict(ratings[k])["rating"]
                                for seat, k in keys[table_id].items() if k in ratings})
        return cards

    async def summaries(self, tables: list[tuple[str, int | None]]) -> list[dict[str, Any]]:
        """Each (table, seat) as lists show it: a loaded table from memory, the others from
        their stored rows (a profile or /api/me never replays games on the event loop)."""
        rooms = self.service.rooms
        cards = await self.db(self.stored_cards, [t for t, _ in tables if t not in rooms])
        out = []
        for table_id, seat in tables:
            room = rooms.get(table_id)
            card = cards.get(table_id)
            if room is None and card is not None and card[0].status != "finished" \
                    and card[0].to_move is None:  # stored before to_move existed: replayed once
                try:
                    room = await self.service.get_room(table_id)
                except ServerError:
                    continue
            if room is not None:
                out.append(self.table_summary(room, seat))
                continue
            if card is None:
                continue
            stored, meta, ratings = card
            try:
                title = get_game(stored.game).title
            except (ImportError, MayaGamesError):
                continue
            out.append(self.summary(stored, meta, ratings, title, stored.to_move,
                                    stored.status == "finished", stored.move_count,
                                    stored.rematch, seat))
        return out

    async def open_tables(self, limit: int) -> list[dict[str, Any]]:
        found = await self.db(self.store.open_tables, limit)
        return await self.summaries([(table_id, None) for table_id, _meta in found])

    async def my_tables(self, account: Account, limit: int = 50) -> list[dict[str, Any]]:
        return await self.summaries(await self.db(self.store.account_tables, account.id, limit))

    # --- the lobby's push ------------------------------------------------------------------------
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
        meta = self.meta.get(room.id)
        if meta is None or not self.watchers:
            return
        for account_id in set(meta.owners.values()):
            self.tell_account(account_id, "tables", {"table": room.id})

    def tell_account(self, account_id: int, event: str, data: dict[str, Any]) -> None:
        """Send ``event`` to the account's lobby pages on this instance."""
        for queue in self.watchers.get(account_id, ()):
            if not queue.full():  # a page that does not read drops news, not memory
                queue.put_nowait((event, data))

    # --- clocks -------------------------------------------------------------------------------
    def clocked_seat(self, room: Room, meta: TableMeta) -> int | None:
        """The seat whose clock runs now: a person's seat to move, once every seat is taken."""
        seat = room.state.current_player
        if room.finished or not meta.full or seat is None or room.is_bot(seat) \
                or waiting_for(meta.clock):
            return None
        return seat

    def watch(self, room: Room, meta: TableMeta) -> None:
        deadline = (meta.clock or {}).get("deadline")
        if deadline is None or room.finished:
            self.deadlines.pop(room.id, None)
        else:
            self.deadlines[room.id] = deadline

    async def save_clock(self, room: Room, meta: TableMeta,
                         deadline: float | None | bool = False,
                         expected: int | None = None) -> bool:
        """Store the clock and zombies (which tells the other instances); ``deadline``: only
        if the stored deadline is still this one (False: in any case); ``expected``: only
        if the table is still at this version. False: it was not stored."""
        version = await self.db(self.store.save_clock, room.id, meta.clock, meta.zombies,
                                deadline, expected)
        self.watch(room, meta)
        if version is None:
            return False
        await self.changed(room, version)
        return True

    async def on_move(self, room: Room, entry: LogEntry) -> None:
        """Under the table's lock, after a move is stored: charge the clock, rate the game."""
        meta = self.meta.get(room.id)
        if meta is None:
            return
        if meta.clock is not None:
            speed = parse_speed(meta.speed)
            after_move(meta.clock, speed, entry.seat, self.clocked_seat(room, meta),
                       {s for s in range(room.stored.num_players) if not room.is_bot(s)},
                       self.clock())
            # only onto the move just stored: if another instance timed the seat out
            # meanwhile (its deadline came as the move was stored), its zombie stands
            if not await self.save_clock(room, meta, expected=self.version_now(room)):
                await self.on_change(room)
        if room.finished and meta.rated:
            await self.rate_table(room, meta)

    async def keep_clocks(self) -> None:
        """Every ``tick`` seconds: hand the seats whose time ran out to a bot."""
        while True:
            await asyncio.sleep(self.tick)
            try:
                await self.check_clocks()
            except Exception as exc:
                if is_unavailable(exc):  # the database is away: next tick
                    log.warning("checking the clocks failed: the database is away (%s)",
                                type(exc).__name__)
                else:
                    log.exception("checking the clocks failed")

    def version_now(self, room: Room) -> int | None:
        """The version a conditional clock write expects (several instances), else None."""
        return room.version if self.shared else None

    @property
    def shared(self) -> bool:
        return bool(getattr(self.service.db, "shared", False))

    async def check_clocks(self) -> list[str]:
        """Time out every expired clock now; returns the tables where a seat timed out.

        The tables in memory here, and every other table whose stored deadline passed (one
        indexed query): watched by nobody, or held by an instance that died. With several
        instances, such a table is timed out by the one that claims its clock lease."""
        now = self.clock()
        timed_out = []
        for table_id in [t for t, d in self.deadlines.items() if d <= now]:
            try:
                room = await self.service.get_room(table_id)
            except ServerError:
                self.deadlines.pop(table_id, None)
                continue
            try:
                if await self.time_out(room):
                    timed_out.append(table_id)
            except ServerError as exc:  # a table that cannot catch up: the others go on
                log.error("table %s: its clock could not be timed out: %s", table_id,
                          exc.message)
        expired = await self.db(self.store.expired_deadlines, now)
        self.declined &= set(expired)
        for table_id, deadline in expired:
            if self.deadlines.get(table_id) == deadline or (table_id, deadline) in self.declined:
                continue  # in memory here as stored (above), or found not to be due
            if await self.time_out_elsewhere(table_id):
                timed_out.append(table_id)
            else:
                self.declined.add((table_id, deadline))
        return timed_out

    async def time_out_elsewhere(self, table_id: str) -> bool:
        """Time out the clock of a table not in memory here (under its clock lease)."""
        owner = self.service.instance
        if self.shared and not await self.db(self.store.claim_clock_lease, table_id, owner,
                                             CLOCK_LEASE_SECONDS):
            return False  # another instance is at it
        try:
            room = await self.service.get_room(table_id)
            return await self.time_out(room)
        except ServerError as exc:
            log.error("table %s: its clock could not be timed out: %s", table_id, exc.message)
            return False
        finally:
            if self.shared:
                with contextlib.suppress(Exception):  # else it expires
                    await self.db(self.store.release_clock_lease, table_id, owner)

    async def time_out(self, room: Room) -> bool:
        """The seat to move ran out of time: a bot of the table's level plays it from now on."""
        meta = self.meta_of(room)
        async with room.lock:
            if self.shared:  # another instance may have moved or changed the table
                await self.service.catch_up(room)
                stored = await self.db(self.store.load_meta, room.id)
                if stored is not None:
                    meta.clock, meta.zombies = stored.clock, stored.zombies
            if room.finished or not expired(meta.clock, self.clock()):
                self.watch(room, meta)
                return False
            assert meta.clock is not None
            seat = meta.clock["running"]
            if seat is None or seat != room.state.current_player:
                return False
            deadline = meta.clock.get("deadline")
            meta.clock["remaining"][seat] = 0.0
            if not any(e.seat == seat for e in room.log):  # walked away before moving
                meta.clock["idle"] = sorted({*meta.clock.get("idle", []), seat})
            meta.zombies.append(seat)
            run_for(meta.clock, parse_speed(meta.speed), None, self.clock())
            # only if no other instance timed the seat out (or moved) since we read it
            if not await self.save_clock(room, meta, deadline, self.version_now(room)):
                await self.on_change(room)
                return False
            room.agents[seat] = self.zombie_agent(room, meta, seat)
            name = room.stored.seats[seat].name
            await self.post(room, "", None, f"{name} ran out of time: the {meta.zombie} bot plays "
                            f"seat {seat + 1} from now on.", system=True)
            self.decorate(room, meta)
            self.service.broadcast(room)
        self.service.start_bots(room)
        return True

    # --- resigning -----------------------------------------------------------------------------
    @staticmethod
    def ended(room: Room, meta: TableMeta) -> dict[str, Any] | None:
        """A 2-player game one player resigned: over, the other one wins."""
        if room.stored.num_players != 2 or not meta.resigned or room.state.is_terminal:
            return None
        loser = meta.resigned[0]
        name = room.stored.seats[loser].name
        return {"reason": f"{name} resigned", "winners": [1 - loser]}

    async def resign(self, room: Room, seat: int) -> None:
        """``seat``'s player concedes: a loss on the ladder (ranked last, as a seat whose
        time ran out); with 2 players the game is over, else the table's zombie bot plays
        the seat from now on."""
        meta = self.meta_of(room)
        async with room.lock:
            if room.finished:
                raise ServerError(409, "game_over", "the game is over")
            if not meta.full:
                raise ServerError(409, "waiting", "the game has not started: leave the table "
                                  "instead")
            if room.is_bot(seat) or seat in meta.zombies:
                raise ServerError(409, "not_a_person", f"seat {seat + 1} is played by a bot")
            meta.resigned.append(seat)
            meta.zombies.append(seat)
            room.ended = self.ended(room, meta)
            if room.ended is None:
                room.agents[seat] = self.zombie_agent(room, meta, seat)
            if meta.clock is not None:  # the resigner's clock stops; the next one runs
                run_for(meta.clock, parse_speed(meta.speed), self.clocked_seat(room, meta),
                        self.clock())
            version = await self.db(self.store.save_resigned, room.id, meta.resigned,
                                    meta.zombies, meta.clock, room.ended is not None)
            self.watch(room, meta)
            name = room.stored.seats[seat].name
            await self.post(room, "", None, f"{name} resigned: " + (
                "the game is over." if room.ended else
                f"the {meta.zombie} bot plays seat {seat + 1} from now on."), system=True)
            if room.ended is not None and meta.rated:
                await self.rate_table(room, meta)
            self.decorate(room, meta)
            self.service.broadcast(room)
        await self.changed(room, version)
        self.service.start_bots(room)

    # --- ratings --------------------------------------------------------------------------------
    async def rate_table(self, room: Room, meta: TableMeta) -> None:
        """Update the ladder from a finished rated table (once)."""
        keys = [self.player_key(room, meta, s) for s in range(room.stored.num_players)]
        if any(k is None for k in keys):
            log.info("table %s: not rated (a guest seat)", room.id)
            return
        if not await self.db(self.store.mark_rated, room.id):
            return
        idle = sorted((meta.clock or {}).get("idle", []))
        if idle:  # a seat that never moved: two accounts of one person would farm points
            log.info("table %s: not rated (seats %s never moved)", room.id, idle)
            meta.rated_done = True
            seats = ", ".join(str(s + 1) for s in idle)
            await self.post(room, "", None, f"This game is not rated: seat {seats} ran out of "
                            "time before making a move.", system=True)
            return
        # a timed-out seat ranks last whatever its zombie did; the zombie's play rates no
        # one (the seat's ladder name stays its account's)
        ranks = finishing_ranks(room.state.scores(), room.winners(), meta.zombies)
        await self.record_result(room.info.name, room.id, [k for k in keys if k],
                                 [room.stored.seats[s].name for s in range(len(keys))], ranks)
        meta.rated_done = True
        await self.load_ratings(room, meta)
        self.decorate(room, meta)

    async def record_result(self, game: str, table_id: str | None, players: list[str],
                            names: list[str], ranks: list[int]) -> None:
        await self.db(record_game, self.store, game, table_id, players, names, ranks, self.clock())

    # --- chat -------------------------------------------------------------------------------------
    async def say(self, room: Room, token: str | None, account: Account | None, text: str) -> dict[str, Any]:
        """A chat line from a seat (token or account) or a logged-in spectator."""
        seat = await self.seat(room, token, account)
        if seat is None and account is None:
            raise ServerError(401, "login_required", "log in or open your seat to chat")
        if seat is None and not self.meta_of(room).public:
            raise ServerError(403, "private_chat", "a private table's chat belongs to its seats")
        author = room.stored.seats[seat].name if seat is not None else account.name  # type: ignore[union-attr]
        text = "".join(c for c in text if c.isprintable() or c == " ").strip()
        if not text:
            raise ServerError(422, "bad_chat", "say something")
        if len(text) > CHAT_MAX:
            raise ServerError(422, "bad_chat", f"a chat line has at most {CHAT_MAX} characters")
        key = f"{room.id}:{seat}" if seat is not None else f"account:{account.id}"  # type: ignore[union-attr]
        sent = self.chat_sent.setdefault(key, deque())
        now = self.clock()
        while sent and sent[0] <= now - CHAT_WINDOW:
            sent.popleft()
        if len(sent) >= CHAT_BURST:
            raise Throttled(int(sent[0] + CHAT_WINDOW - now) + 1, "too many chat lines")
        # all authors together: thirty fresh accounts cannot flood one table
        self.service.check_rate("chat_table", room.id, self.service.limits.rate_chat_table,
                                "chat lines at this table")
        sent.append(now)
        return await self.post(room, author, seat, text)

    async def post(self, room: Room, author: str, seat: int | None, text: str,
                   system: bool = False) -> dict[str, Any]:
        line = await self.db(self.store.add_chat, room.id, author, seat, text, system, self.clock())
        public = self.meta_of(room).public
        for sub in list(room.subscribers):
            if public or sub.seat is not None:  # a private table's chat: its seats only
                sub.push({"type": "chat", "table": room.id, **line})
        return line

    async def chat(self, room: Room, token: str | None = None,
                   account: Account | None = None) -> list[dict[str, Any]]:
        """The table's last chat lines: anyone's on a public table, a seat's on a private one."""
        if not self.meta_of(room).public and await self.seat(room, token, account) is None:
            raise ServerError(403, "private_chat", "a private table's chat belongs to its seats: "
                              "open your seat to read it")
        return await self.db(self.store.chat, room.id, CHAT_KEEP)

"""The game service: tables in memory, moves persisted before they are acknowledged,
bot seats, undo, replays, and the fan-out of per-seat messages to subscribers.

Concurrency model: one asyncio event loop owns every :class:`~.rooms.Room`. Each
room has a lock; a move or an undo takes it, checks the expected move number,
computes the new state on a clone, writes to the database in a worker thread,
then adopts the state and queues one message per subscriber, all under the
lock. Two requests racing for the same turn therefore serialise: the first
applies, the second finds the move number changed and is refused (``stale``).
Bots think off the loop (:mod:`.bots`: search bots in worker processes, others in
threads), so the loop keeps serving while they do.

Several instances on one PostgreSQL database (``db.shared``): the database orders
the writes. Each write names the table version the room reflects and fails
(:class:`~.db.StaleWrite`, nothing stored) if another instance wrote first; the
room then catches up from the database and the request is checked again (and is
usually ``stale``). Each write's NOTIFY reaches the other instances'
:class:`~.notify.Listener`, which bring their rooms up to date and send their
subscribers the new position. A table's bots are moved by the one instance that
holds its lease (renewed every second by :meth:`GameService.maintain`; one that
expires is taken over). On SQLite only one server process may serve the file.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import re
import secrets
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, TypeVar

from ..agents import AGENT_FACTORIES, RandomAgent, make_agent
from ..core.errors import MayaGamesError
from ..core.game import Action, GameInfo, OptionSpec, State
from ..core.record import GameRecord, Seat
from ..core.registry import TEST_GAMES, game_names, get_game
from ..core.rng import derive_seed
from .bots import BotPool
from .db import Database, StoredSeat, StoredTable
from .limits import BotSpecError, Rate, RateLimiter, ServerLimits, check_bot_spec, clean_name
from .db import (BrokenRow, Database, RematchTaken, StaleWrite, StoredSeat, StoredTable,
                 is_unavailable)
from .notify import Listener
from .rooms import (HUMAN, LogEntry, Room, ServerError, entry_to_json, hash_token, replay_moves,
                    result_of)
from .schemas import CreateTable, SeatSpec
from .wire import WIRE_SCHEMA

log = logging.getLogger("mayagames.server")
T = TypeVar("T")
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
CHECKPOINT_EVERY = 25  # replay frames are rebuilt from a checkpoint at most this many moves back
MAX_QUEUE = 256        # a subscriber this far behind is dropped (it resyncs on reconnect)
LEASE_SECONDS = 4.0    # a bot lease not renewed for this long is taken over by another instance
TICK_SECONDS = 1.0     # how often leases are renewed and orphaned bots looked for
SWEEP_EVERY = 3        # ticks between version checks of the rooms in use (missed notifications)
WRITE_TRIES = 5        # a write that keeps losing races ends 'stale'
RETRY_AFTER = 2        # seconds a client is told to wait while the database is away


def unavailable(exc: BaseException) -> ServerError:
    """The answer while the database cannot be reached (a restart, a cut connection): 503
    with ``Retry-After``; nothing is remembered, the next request tries again."""
    return ServerError(503, "database_unavailable", "the database cannot be reached just now; "
                       f"try again in a few seconds ({type(exc).__name__})",
                       retry_after=RETRY_AFTER)


def log_failure(task: "asyncio.Task[None]") -> None:
    """Log a bot task that died of an unexpected error (it is never awaited otherwise)."""
    if not task.cancelled() and task.exception() is not None:
        log.error("bot task failed", exc_info=task.exception())


@dataclass
class Extension:
    """What another feature adds to a new table: ``write`` runs in the table's own insert
    transaction (its settings, owners), ``adopt`` once it is stored (in memory)."""

    write: Callable[[Any], None]
    adopt: Callable[[], Awaitable[None]]


Prepare = Callable[[Room], Awaitable[Extension]]


def plain_option(option: OptionSpec) -> dict[str, Any]:
    """The option in plain language (``label``, ``explain``, ``choice_labels``) for the lobby."""
    told = option.describe()
    return {"label": told["label"], "explain": told["explain"],
            "choice_labels": {str(c["value"]): c["label"] for c in told["choices"]}}


def option_labels(info: GameInfo, options: dict[str, Any]) -> list[dict[str, Any]]:
    """A table's options in the game package's words, in the game's order: ``label``
    ("Neutral workers (2-3 players)"), ``choice`` (the chosen value's label), ``default``
    (whether it is the game's default)."""
    out = []
    for option in info.options:
        if option.name not in options:
            continue
        told = option.describe()
        value = options[option.name]
        words = {str(c["value"]): c["label"] for c in told["choices"]}
        out.append({"name": option.name, "label": told["label"],
                    "choice": words.get(str(value), str(value)),
                    "default": value == option.default})
    return out


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


class GameService:
    """Everything the HTTP and WebSocket routes delegate to."""

    def __init__(self, db: Database, bot_delay: float = 0.0, bot_workers: int = 2,
                 list_test_games: bool = False, bot_processes: int = 0,
                 limits: ServerLimits | None = None) -> None:
        self.db = db
        self.limits = limits or ServerLimits()
        self.rates = RateLimiter()
        self.bot_delay = bot_delay
        self.list_test_games = list_test_games
        self.rooms: dict[str, Room] = {}
        self.broken: dict[str, str] = {}
        # SQLite has one writer: one database thread avoids lock contention.
        self.db_pool = ThreadPoolExecutor(1 if db.is_sqlite else 8, thread_name_prefix="db")
        self.bots = BotPool(threads=bot_workers, processes=bot_processes)
        self.checkpoints: dict[str, dict[int, State]] = {}
        # Hooks of other features (accounts, clocks, ratings: .players): a table came into
        # memory; a move was stored (called under the table's lock, before the broadcast).
        self.on_load: list[Callable[[Room], Awaitable[None]]] = []
        self.on_move: list[Callable[[Room, LogEntry], Awaitable[None]]] = []
        # a table's seats or settings changed (here: a rematch; or another instance said so)
        self.on_change: list[Callable[[Room], Awaitable[None]]] = []
        # every subscriber was just sent the table as it is now (a move here or followed
        # from another instance, a seat taken, a clock run out): the lobby's push
        self.on_broadcast: list[Callable[[Room], None]] = []
        self.instance = f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(3)}"
        self.listener: Listener | None = None
        self.leased: set[str] = set()  # tables whose bot lease this instance holds
        self.maintainer: asyncio.Task[None] | None = None
        self.evictor: asyncio.Task[None] | None = None

    # --- lifecycle --------------------------------------------------------
    async def start(self) -> None:
        """Create the schema and resume every unfinished game (bots included).

        On SQLite, refuses (:class:`~.db.SingleInstanceError`) if another server process
        serves the file; on PostgreSQL, starts listening to the other instances first (so
        nothing written while the tables load is missed) and the lease keeper.
        """
        self.db.claim_single_instance()
        await self.in_db(self.db.create_schema)
        if self.db.shared:
            loop = asyncio.get_running_loop()
            self.listener = Listener(self.db.libpq_url(), self.db.channel, loop,
                                     self.on_notify, self.on_reconnect,
                                     f"mayagames-listen {self.instance}")
            await loop.run_in_executor(None, self.listener.start)
            self.maintainer = loop.create_task(self.maintain())
            self.maintainer.add_done_callback(log_failure)
        # Only tables with bots need resuming (their bots move by themselves); a table of
        # people loads when someone opens it. A table that cannot load is set apart as
        # broken (logged with its id); the server starts anyway.
        for table_id in await self.in_db(self.db.table_ids, "playing", True):
            try:
                await self.get_room(table_id)
            except ServerError as exc:
                if exc.code != "broken_table":  # (a broken one is logged as it breaks)
                    log.error("table %s not resumed: %s", table_id, exc.message)
            except Exception:  # whatever else one table does, the server starts
                log.exception("table %s not resumed", table_id)
        self.evictor = asyncio.get_running_loop().create_task(self.evict_idle_rooms())
        self.evictor.add_done_callback(log_failure)

    async def stop(self) -> None:
        if self.evictor is not None:
            self.evictor.cancel()
            await asyncio.gather(self.evictor, return_exceptions=True)
        if self.maintainer is not None:
            self.maintainer.cancel()
            await asyncio.gather(self.maintainer, return_exceptions=True)
        held = sorted(self.leased)
        tasks = [r.bot_task for r in self.rooms.values() if r.bot_task and not r.bot_task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.db.shared:  # hand our bots over at once rather than when the leases expire
            try:
                await self.in_db(self.db.release_bot_leases, held, self.instance)
            except Exception:
                log.warning("could not release the bot leases", exc_info=True)
        if self.listener is not None:
            await asyncio.get_running_loop().run_in_executor(None, self.listener.stop)
        for room in self.rooms.values():
            for sub in list(room.subscribers):
                sub.close()
        await asyncio.get_running_loop().run_in_executor(None, self.bots.shutdown)
        self.db_pool.shutdown(wait=True)
        self.db.dispose()

    async def in_db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.db_pool, fn, *args)

    def check_rate(self, kind: str, key: str, rate: Rate | None, what: str) -> None:
        """Refuse (429) a request over its rate; ``what`` says which limit in the message."""
        wait = self.rates.allow(kind, key, rate)
        if wait:
            raise ServerError(429, "rate_limited", f"too many {what} (limit {rate}); "
                              f"try again in {math.ceil(wait)} s", retry_after=wait)

    # --- catalogue ----------------------------------------------------------
    def games(self) -> list[dict[str, Any]]:
        """The games a lobby offers (test games only when asked for)."""
        names = list(game_names()) + (sorted(TEST_GAMES) if self.list_test_games else [])
        games = []
        for name in dict.fromkeys(names):
            if name in TEST_GAMES and not self.list_test_games:
                continue
            try:
                info = get_game(name)
            except (ImportError, MayaGamesError):
                continue  # an engine not part of this installation
            games.append({
                "name": info.name, "title": info.title, "version": info.version,
                "min_players": info.min_players, "max_players": info.max_players,
                "doc": info.doc, "test_game": name in TEST_GAMES,
                "rules": f"/rules/{info.name}" if info.rules_page else None,
                "options": [{"name": o.name, "default": o.default, "doc": o.doc,
                             "choices": list(o.choices) if o.choices is not None else None,
                             **plain_option(o)}
                            for o in info.options]})
        return games

    @staticmethod
    def agents() -> list[str]:
        return [HUMAN, *sorted(AGENT_FACTORIES)]

    @staticmethod
    def bot_choices() -> list[dict[str, str]]:
        """The bots a lobby offers, difficulty levels first: each spec that builds without
        settings (``mcts`` needs a budget: it is typed as a spec, e.g. ``mcts:500i``)."""
        from .. import agents

        levels: dict[str, tuple[str, str]] = getattr(agents, "LEVELS", {})
        docs: dict[str, str] = getattr(agents, "AGENT_DOCS", {})
        names = [*levels, *(n for n in sorted(AGENT_FACTORIES) if n not in levels)]
        choices = []
        for name in names:
            try:
                make_agent(name, 0)
            except (ValueError, TypeError):
                continue
            doc = levels[name][1] if name in levels else docs.get(name, "")
            choices.append({"spec": name, "title": name.capitalize(), "doc": doc,
                            "level": name in levels})
        return choices

    # --- tables -------------------------------------------------------------
    async def create_table(self, req: CreateTable, prepare: Prepare | None = None, *,
                           rematch_of: str | None = None, with_tokens: bool = True,
                           ) -> tuple[Room, list[str | None]]:
        """Create and store a table; returns it and each seat's token (None for bots).

        ``prepare`` (other features: lobby settings, seat owners, clock) is called before
        the table is stored and returns the writes to store with it, in one transaction,
        and what to do once it is stored. ``rematch_of``: the finished table this one is
        the rematch of (:class:`~.db.RematchTaken` if another writer was first).
        ``with_tokens=False``: people's seats get no token yet (a rematch hands them out).
        """
        info, options = self.table_game(req)
        seats, tokens = self.new_seats(req, with_tokens)
        if req.seed is not None and not self.limits.allow_fixed_seed:
            raise ServerError(403, "fixed_seed", "this server draws every table's seed: a seed "
                              "chosen by a player would tell them the hidden cards and tiles "
                              "(setting MAYAGAMES_ALLOW_FIXED_SEED)")
        stored = StoredTable(
            id=secrets.token_urlsafe(6), game=info.name, engine_version=info.version,
            num_players=req.players,
            seed=req.seed if req.seed is not None else secrets.randbelow(2**62),
            options=options, seats=seats, seed_fixed=req.seed is not None)
        try:
            room = Room.from_stored(stored, self.limits)
        except MayaGamesError as exc:
            raise ServerError(400, "bad_table", str(exc)) from exc
        stored.to_move = room.state.current_player
        await self.store_new_table(room, prepare, rematch_of)
        return room, tokens

    @staticmethod
    def table_game(req: CreateTable) -> tuple[GameInfo, dict[str, Any]]:
        """The game of a new table and its resolved options (400 ``bad_table`` if the game,
        its player count or an option is not one this server offers)."""
        try:
            info = get_game(req.game)
            info.check_players(req.players)
            return info, info.resolve_options(req.options)
        except MayaGamesError as exc:
            raise ServerError(400, "bad_table", str(exc)) from exc
        except ImportError as exc:
            raise ServerError(400, "bad_table", f"the game {req.game!r} is not installed "
                              f"in this server ({exc})") from exc

    def new_seats(self, req: CreateTable, with_tokens: bool
                  ) -> tuple[list[StoredSeat], list[str | None]]:
        """The seats of a new table and each one's token (None: a bot's seat, or no token
        yet); a bot spec over the server's limits is refused (limits.check_bot_spec)."""
        specs = req.seats or [None] * req.players
        seats, tokens = [], []
        for i, spec in enumerate(specs):
            agent = (spec.agent.strip().lower() if spec else HUMAN) or HUMAN
            if agent != HUMAN:
                try:
                    check_bot_spec(agent, self.limits)
                except BotSpecError as exc:
                    raise ServerError(422 if exc.limit else 400, "bot_limit" if exc.limit
                                      else "bad_agent", f"seat {i}: {exc}") from exc
            name = clean_name(spec.name, self.limits) if spec else ""
            name = name or (f"Player {i + 1}" if agent == HUMAN else f"Bot {i + 1} ({agent})")
            token = secrets.token_urlsafe(24) if agent == HUMAN and with_tokens else None
            tokens.append(token)
            seats.append(StoredSeat(name, agent, hash_token(token) if token else None))
        return seats, tokens

    async def store_new_table(self, room: Room, prepare: Prepare | None,
                              rematch_of: str | None) -> None:
        """Store a new table with the writes ``prepare`` adds (one transaction), then keep
        it in memory and start its bots."""
        stored = room.stored
        extension = await prepare(room) if prepare is not None else None
        writes = [extension.write] if extension is not None else []
        bumped = await self.in_db(self.db.insert_table, stored, rematch_of, writes)
        if rematch_of is not None and rematch_of in self.rooms:
            self.adopt_version(self.rooms[rematch_of], bumped)
        if extension is not None:
            await extension.adopt()
        self.rooms[stored.id] = room
        room.last_used = time.monotonic()
        self.start_bots(room)
        if len(self.rooms) > self.limits.max_tables_in_memory:
            self.evict(time.monotonic())

    async def rematch(self, room: Room, seat: int, prepare: Prepare | None = None,
                      hand_out: bool = True) -> tuple[Room, str | None, bool]:
        """The rematch of a finished table (same seats, names, bots and options; a new seed),
        created on the first call; returns it, ``seat``'s new token (None once handed out,
        or without ``hand_out``: an account's seat needs none) and whether this call
        created it.

        The offer lives in the database (``game_rematches``), so every instance finds the
        same one; each person's seat of the new table gets a token only when the holder of
        that seat's old token first asks (a conditional update: once, whichever instance).
        """
        if not room.finished:
            raise ServerError(409, "not_finished", "a rematch can start once the game is over")
        created = False
        async with room.lock:
            new_id = room.rematch or await self.in_db(self.db.rematch_of, room.id)
            if new_id is None:
                stored = room.stored
                req = CreateTable(game=stored.game, players=stored.num_players,
                                  seats=[SeatSpec(name=s.name, agent=s.agent) for s in stored.seats],
                                  options=dict(stored.options))
                try:
                    new_room, _ = await self.create_table(req, prepare, rematch_of=room.id,
                                                          with_tokens=False)
                    new_id, created = new_room.id, True
                except RematchTaken:  # another instance started it a moment ago
                    new_id = await self.in_db(self.db.rematch_of, room.id)
                    assert new_id is not None
            if room.rematch != new_id:  # (the insert told the other instances)
                room.rematch = new_id
                for hook in self.on_change:
                    await hook(room)
                self.broadcast(room)
        new_room = await self.get_room(new_id)
        token = await self.hand_out(new_room, seat) if hand_out else None
        return new_room, token, created

    async def hand_out(self, room: Room, seat: int) -> str | None:
        """A token for a person's seat that has none yet (None: it has one, or is a bot's)."""
        if room.stored.seats[seat].agent != HUMAN:
            return None
        token = secrets.token_urlsafe(24)
        version = await self.in_db(self.db.hand_out_token, room.id, seat, hash_token(token))
        if version is None:
            return None
        room.stored.seats[seat].token_hash = hash_token(token)
        self.adopt_version(room, version)
        return token

    async def announce(self, table_id: str, version: int | None = None) -> None:
        """A table's seats or settings changed: ``version`` is the table version that the
        change's own transaction made (:meth:`~.db.Database.table_changed`, which also told
        the other instances); None: raise the version (and tell them) now."""
        if version is None:
            try:
                version = await self.in_db(self.db.notify_table, table_id)
            except Exception:  # their periodic version check finds it when the database is back
                log.warning("table %s: could not tell the other instances of a change", table_id,
                            exc_info=True)
                return
        room = self.rooms.get(table_id)
        if room is not None:
            self.adopt_version(room, version)

    @staticmethod
    def adopt_version(room: Room, version: int | None) -> None:
        """This instance stored a change to ``room``'s seats or settings (already made in
        memory) as ``version``: the room reflects it if it was at the version before;
        otherwise someone else wrote meanwhile and the room stays behind, to catch up."""
        if version is not None and version == room.version + 1:
            room.version = version

    async def reload_seats(self, room: Room) -> bool:
        """Read the table's seat rows again (names, tokens); True if a token changed."""
        return self.adopt_seats(room, await self.in_db(self.db.load_seats, room.id))

    def adopt_seats(self, room: Room, seats: list[StoredSeat]) -> bool:
        """Take the stored seat rows (names, tokens); True if a token changed."""
        if len(seats) != len(room.stored.seats):
            return False
        changed = False
        for seat, (mine, stored) in enumerate(zip(room.stored.seats, seats)):
            if mine.token_hash != stored.token_hash:
                changed = True
                for sub in [s for s in room.subscribers if s.seat == seat]:
                    sub.close()  # whoever held the old link is sent away
            mine.name, mine.token_hash = stored.name, stored.token_hash
        room.message_cache = {}
        return changed

    async def seat_of_token(self, room: Room, token: str | None) -> int | None:
        """``room.seat_of_token``, but a token this instance does not know yet (handed out
        through another instance a moment ago) is looked up again in the database."""
        try:
            return room.seat_of_token(token)
        except ServerError:
            if not self.db.shared:
                raise
        await self.reload_seats(room)
        return room.seat_of_token(token)

    async def get_room(self, table_id: str, fresh: bool = False) -> Room:
        """The live room of a table, loading (replaying) it from the database if needed.

        ``fresh``: with several instances, first make sure the room has every write
        (one version look-up), so a client reads what it wrote through another instance.
        """
        room = self.rooms.get(table_id)
        if room is not None:
            room.last_used = time.monotonic()
            if fresh and self.db.shared:
                await self.refresh(room)
            return room
        if not TABLE_ID.fullmatch(table_id):
            raise ServerError(404, "no_table", f"no table {table_id!r}")
        if table_id in self.broken:
            raise ServerError(500, "broken_table", self.broken[table_id])
        try:
            stored = await self.in_db(self.db.load_table, table_id)
            if stored is None:
                raise ServerError(404, "no_table", f"no table {table_id!r}")
            room = Room.from_stored(stored, self.limits)
        except ServerError:
            raise
        except Exception as exc:  # a row that does not load or does not replay
            if is_unavailable(exc):  # a database blip is not a damaged table: try again later
                raise unavailable(exc) from exc
            reason = f"table {table_id} cannot be resumed: {type(exc).__name__}: {exc}"[:500]
            self.broken[table_id] = reason
            log.error("%s", reason)
            raise ServerError(500, "broken_table", reason) from exc
        if room.broken_bots:
            log.error("table %s: %s", table_id, "; ".join(room.broken_bots.values()))
        if table_id in self.rooms:  # loaded meanwhile by another request
            return self.rooms[table_id]
        try:
            for hook in self.on_load:
                await hook(room)
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            # a feature's row of this table is damaged (its settings; not a database that
            # is away, which is not cached as broken)
            reason = f"table {table_id} cannot be resumed: {type(exc).__name__}: {exc}"[:500]
            self.broken[table_id] = reason
            log.error("%s", reason)
            raise ServerError(500, "broken_table", reason) from exc
        room = self.rooms.setdefault(table_id, room)
        room.last_used = time.monotonic()
        self.start_bots(room)
        if len(self.rooms) > self.limits.max_tables_in_memory:
            self.evict(time.monotonic())
        return room

    # --- memory: idle tables are unloaded (they reload from the database) -------------
    def evictable(self, room: Room) -> bool:
        """Nobody watches it, no bot of this instance thinks on it, no request holds it."""
        return (not room.subscribers and not self.bots_busy(room) and not room.lock.locked()
                and room.id not in self.leased)

    def evict(self, now: float) -> int:
        """Unload rooms idle longer than ``idle_seconds``, then the least recently used
        idle ones while more than ``max_tables_in_memory`` are loaded; the count unloaded."""
        limits = self.limits
        idle = sorted((r for r in self.rooms.values() if self.evictable(r)),
                      key=lambda r: r.last_used)
        excess = len(self.rooms) - limits.max_tables_in_memory
        gone = 0
        for room in idle:
            if now - room.last_used < limits.idle_seconds and gone >= excess:
                break
            del self.rooms[room.id]
            self.checkpoints.pop(room.id, None)
            room.evicted = True
            gone += 1
        return gone

    async def evict_idle_rooms(self) -> None:
        """Now and then, unload the idle rooms."""
        every = max(0.05, min(30.0, self.limits.idle_seconds / 4))
        while True:
            await asyncio.sleep(every)
            self.evict(time.monotonic())

    async def live(self, room: Room) -> Room:
        """``room``, or the table's loaded room if ``room`` was unloaded meanwhile."""
        return await self.get_room(room.id) if room.evicted else room

    async def list_tables(self, status: str | None, limit: int,
                          only: Any = None) -> list[dict[str, Any]]:
        """The lobby's list, most recently active first; ``only``: a query of the table ids
        the asker may see listed (None: all)."""
        rows = await self.in_db(self.db.list_tables, status, limit, only)
        listed = []
        for t in rows:
            if isinstance(t, BrokenRow):
                if t.id not in self.broken:
                    self.broken[t.id] = f"table {t.id} cannot be resumed: {t.reason}"
                    log.error("%s", self.broken[t.id])
                reason = self.broken[t.id]
                listed.append({"table": t.id, "game": None, "num_players": None,
                               "status": "broken", "broken": reason, "move_count": None,
                               "result": None, "seats": [], "seed_fixed": False,
                               "created_at": None, "updated_at": None})
                continue
            listed.append({
                "table": t.id, "game": t.game, "num_players": t.num_players,
                "status": t.status, "move_count": t.move_count, "result": t.result,
                "seats": [{"seat": i, "name": s.name, "agent": s.agent}
                          for i, s in enumerate(t.seats)],
                "seed_fixed": t.seed_fixed,
                "created_at": t.created_at.isoformat() if t.created_at else None,
                "updated_at": t.updated_at.isoformat() if t.updated_at else None})
        return listed

    # --- moves ----------------------------------------------------------------
    async def play(self, room: Room, seat: int | None, move_number: int, *,
                   action_id: int | None = None, text: str | None = None,
                   action: Action | None = None, origin: Subscriber | None = None,
                   rid: Any = None) -> Room:
        """Apply one move for ``seat`` if ``move_number`` is still current; persist, then
        announce; returns the room (the reloaded one if ``room`` was unloaded meanwhile).

        The database has the last word: if another instance stored a write first, the
        room catches up and the request is checked again (it is then usually stale).
        """
        given = action
        room = await self.live(room)
        async with room.lock:
            if move_number != room.move_number:
                await self.catch_up(room)  # another instance may have moved meanwhile
            for _ in range(WRITE_TRIES):
                room.check_turn(seat, move_number)
                if given is None and room.is_bot(seat):  # a person's request for a bot's seat
                    raise ServerError(403, "bot_seat", "a bot plays this seat (its player's time "
                                      "ran out)")
                if given is None:
                    action = room.resolve_action(action_id, text)
                else:
                    room.check_legal(given)
                    action = given
                after, entry = room.prepare(action)
                try:
                    version = await self.in_db(
                        self.db.append_move, room.id, entry.number, entry.full, entry.seat,
                        "finished" if after.is_terminal else "playing", result_of(after),
                        room.version, entry_to_json(entry, room.info.version),
                        after.current_player)
                except StaleWrite:
                    await self.catch_up(room, force=True)
                    continue
                except Exception as exc:  # the move is not stored, so it is not played
                    log.exception("could not store move %s of table %s", entry.number, room.id)
                    raise ServerError(503, "not_saved", "the move could not be saved and was "
                                      f"not played; try again ({type(exc).__name__})",
                                      retry_after=RETRY_AFTER) from exc
                room.commit(after, entry, version)
                for hook in self.on_move:
                    try:
                        await hook(room, entry)
                    except Exception:  # the move is stored: it stands; the feature logs it
                        log.exception("table %s: after-move hook failed", room.id)
                self.broadcast(room, origin, rid)
                break
            else:
                raise self.lost_race(room)
        self.start_bots(room)
        return room

    @staticmethod
    def lost_race(room: Room) -> ServerError:
        return ServerError(409, "stale", "the game changed while your request was being "
                           f"stored; it is at move {room.move_number}")

    async def undo(self, room: Room, seat: int | None, move_number: int,
                   origin: Subscriber | None = None, rid: Any = None) -> Room:
        """Take back ``seat``'s last move: replay the record without it (returns the room)."""
        room = await self.live(room)
        async with room.lock:
            if move_number != room.move_number:
                await self.catch_up(room)
            for _ in range(WRITE_TRIES):
                if move_number != room.move_number:
                    raise ServerError(409, "stale", f"you answered move {move_number} but the "
                                      f"game is at move {room.move_number}")
                refusal = room.undo_refusal(seat)
                if refusal:
                    raise ServerError(403, "no_undo", refusal)
                state, log_ = replay_moves(room.info, room.stored, room.moves[:-1], room.log)
                try:
                    version = await self.in_db(self.db.truncate_moves, room.id, len(log_),
                                               room.version, state.current_player)
                except StaleWrite:
                    await self.catch_up(room, force=True)
                    continue
                room.replace(state, log_, version)
                self.drop_checkpoints(room.id, len(log_))
                self.broadcast(room, origin, rid)
                break
            else:
                raise self.lost_race(room)
        return room

    # --- several instances: catching up ---------------------------------------------
    async def refresh(self, room: Room) -> None:
        """Catch up if the stored version differs from the room's (one look-up)."""
        versions = await self.in_db(self.db.versions, [room.id])
        if versions.get(room.id, room.version) != room.version:
            async with room.lock:
                await self.catch_up(room)

    async def catch_up(self, room: Room, force: bool = False) -> bool:
        """Bring ``room`` (its lock held) to the stored table; True if it changed.

        Moves added after the room's own are applied one by one (checked as a replay
        checks them; read alone when the versions show that nothing else happened); if
        the stored moves no longer start with the room's (an undo elsewhere), the room is
        rebuilt from the stored record. Subscribers get the
        new position. Without ``force`` only when other instances may exist.
        """
        if not (self.db.shared or force):
            return False
        head = await self.in_db(self.db.moves_after, room.id, room.move_number)
        if head is None or head[0] == room.version:
            return False
        version, count, added = head
        appended = count - room.move_number
        # only moves were added (no undo) iff the version grew by the number of new moves
        if version - room.version == appended >= 0 and \
                [n for n, _, _ in added[:appended]] == list(range(room.move_number + 1, count + 1)):
            self.replay_stored(room, [(text, seat) for _, text, seat in added[:appended]])
            room.version = version
            self.broadcast(room)
            return True
        stored = await self.in_db(self.db.load_table, room.id)
        if stored is None or stored.version == room.version:
            return False
        # the version moved by more than moves: an undo, or a change of the seats or
        # settings (a zombie, a clock, a new player, a rematch): read them again too
        self.adopt_seats(room, stored.seats)
        room.rematch = room.rematch or stored.rematch
        for hook in self.on_change:
            await hook(room)
        self.adopt_moves(room, stored)
        self.broadcast(room)
        return True

    def replay_stored(self, room: Room, moves: list[tuple[str, int]]) -> None:
        """Apply moves stored by another instance (text, seat), checked as a replay checks
        them; a move that does not replay is a broken table (500)."""
        try:
            for text, seat in moves:
                after, entry = room.stored_move(text, seat)
                room.commit(after, entry)
        except MayaGamesError as exc:
            log.error("table %s: stored moves do not replay: %s", room.id, exc)
            raise ServerError(500, "broken_table", f"table {room.id} cannot be resumed: "
                              f"{exc}") from exc

    def adopt_moves(self, room: Room, stored: StoredTable) -> None:
        """Make ``room``'s moves the stored ones: those after the moves both share are
        applied, or, if the stored moves no longer start with the room's (an undo
        elsewhere), the room is rebuilt from the stored record."""
        moves = [text for text, _ in stored.moves]
        common = 0
        for mine, theirs in zip(room.moves, moves):
            if mine != theirs:
                break
            common += 1
        if common == len(room.moves):
            self.replay_stored(room, stored.moves[common:])
            room.version = stored.version
            return
        for sub in room.subscribers:  # their log differs from move common + 1 on
            sub.known = min(sub.known, common)
        try:
            state, log_ = replay_moves(room.info, room.stored, moves, room.log[:common],
                                       stored.told)
            room.replace(state, log_, stored.version)
            self.drop_checkpoints(room.id, common)
        except MayaGamesError as exc:
            log.error("table %s: stored moves do not replay: %s", room.id, exc)
            raise ServerError(500, "broken_table", f"table {room.id} cannot be resumed: "
                              f"{exc}") from exc

    def on_notify(self, payload: dict[str, Any]) -> None:
        """A write of some instance (this one's too) was committed (:mod:`.notify`)."""
        room = self.rooms.get(str(payload.get("t")))
        version = payload.get("v")
        if room is None or not isinstance(version, int) or version <= room.version:
            return  # not a table in use here, or already known
        change = self.table_changed(room, version) if payload.get("op") == "table" \
            else self.follow(room, payload)  # seats or settings; a move or an undo
        task = asyncio.get_running_loop().create_task(change)
        task.add_done_callback(log_failure)

    async def follow(self, room: Room, payload: dict[str, Any]) -> None:
        """Adopt another instance's write: from the notification itself when it is the
        next one (a move, or an undo), else by catching up from the database."""
        async with room.lock:
            version, number = payload["v"], payload.get("n")
            if version <= room.version:
                return
            try:
                if version != room.version + 1 or not isinstance(number, int):
                    await self.catch_up(room)
                elif payload.get("op") == "move" and number == room.move_number + 1:
                    after, entry = room.stored_move(str(payload.get("m")), payload.get("s"))
                    room.commit(after, entry, version)
                    self.broadcast(room)
                elif payload.get("op") == "undo" and 0 <= number < room.move_number:
                    state, log_ = replay_moves(room.info, room.stored, room.moves[:number], room.log)
                    room.replace(state, log_, version)
                    self.drop_checkpoints(room.id, number)
                    self.broadcast(room)
                else:
                    await self.catch_up(room)
            except (MayaGamesError, ServerError) as exc:
                log.error("table %s: could not follow write %s: %s", room.id, version, exc)
                return
        self.start_bots(room)

    async def table_changed(self, room: Room, version: int) -> None:
        """Another instance changed a table's seats or settings (making ``version``): read
        them again and send every subscriber the table as it is now (clocks, zombies,
        owners, rematch). After a gap (a missed notification), catch up in full."""
        async with room.lock:
            if version <= room.version:
                return
            try:
                if version != room.version + 1:
                    await self.catch_up(room)
                else:
                    await self.reload_seats(room)
                    room.rematch = room.rematch or await self.in_db(self.db.rematch_of, room.id)
                    for hook in self.on_change:
                        await hook(room)
                    room.version = version
                    self.broadcast(room)
            except ServerError as exc:
                log.error("table %s: could not follow change %s: %s", room.id, version,
                          exc.message)
                return
        self.start_bots(room)

    def on_reconnect(self) -> None:
        """The LISTEN connection was lost and is back: notifications may be missing."""
        task = asyncio.get_running_loop().create_task(self.sweep(list(self.rooms.values())))
        task.add_done_callback(log_failure)

    async def sweep(self, rooms: list[Room]) -> None:
        """Catch up every room of ``rooms`` whose stored version differs."""
        versions = await self.in_db(self.db.versions, [r.id for r in rooms])
        for room in rooms:
            if versions.get(room.id, room.version) != room.version:
                async with room.lock:
                    try:
                        await self.catch_up(room)
                    except ServerError as exc:
                        log.error("table %s: %s", room.id, exc.message)
                        continue
                self.start_bots(room)

    async def maintain(self) -> None:
        """Every tick: renew this instance's bot leases, take over expired ones (their
        instance died), and now and then check the rooms in use against the database."""
        tick = 0
        while True:
            await asyncio.sleep(TICK_SECONDS)
            tick += 1
            try:
                await self.keep_leases()
                if tick % SWEEP_EVERY == 0:
                    await self.sweep([r for r in self.rooms.values()
                                      if r.subscribers or self.bot_to_move(r)])
            except Exception as exc:  # the database is away: try again next tick
                log.warning("bot lease upkeep failed", exc_info=not is_unavailable(exc))

    async def keep_leases(self) -> None:
        mine = sorted(self.leased)
        kept = set(await self.in_db(self.db.renew_bot_leases, mine, self.instance,
                                    LEASE_SECONDS))
        for table_id in mine:
            room = self.rooms.get(table_id)
            if table_id not in kept and table_id in self.leased:
                self.leased.discard(table_id)
                if room is not None and self.bots_busy(room):
                    log.warning("table %s: bot lease lost (this instance was too slow to renew "
                                "it); another instance moves its bots", table_id)
                    assert room.bot_task is not None
                    room.bot_task.cancel()
        leases = await self.in_db(self.db.bot_leases)
        for table_id, (owner, valid) in leases.items():
            if valid or owner == self.instance or table_id in self.rooms:
                continue
            try:  # an orphan of a dead instance, on a table not loaded here yet
                await self.get_room(table_id)
            except ServerError as exc:
                log.error("table %s: %s", table_id, exc.message)
        for room in list(self.rooms.values()):
            lease = leases.get(room.id)
            if self.bot_to_move(room) and not self.bots_busy(room) and not (lease and lease[1]):
                self.start_bots(room)

    # --- messages ---------------------------------------------------------------
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
        for hook in self.on_broadcast:
            hook(room)

    # --- bots -----------------------------------------------------------------
    @staticmethod
    def bot_to_move(room: Room) -> bool:
        return not room.finished and not room.waiting and room.is_bot(room.state.current_player)

    @staticmethod
    def bots_busy(room: Room) -> bool:
        return room.bot_task is not None and not room.bot_task.done()

    def start_bots(self, room: Room) -> None:
        """Make sure a bot seat to move is thinking (here, or on the instance whose lease it is)."""
        if not self.bot_to_move(room):
            return
        if not self.bots_busy(room):
            room.bot_task = asyncio.get_running_loop().create_task(self.run_bots(room))
            room.bot_task.add_done_callback(log_failure)

    async def run_bots(self, room: Room) -> None:
        """Play bot moves while a bot seat is to move (each one thinks in the bot pool).

        With several instances: only with the table's bot lease (else another instance
        moves them), first catching up with the database; the lease is given back when
        no bot is to move any more.
        """
        if self.db.shared:
            if not await self.in_db(self.db.claim_bot_lease, room.id, self.instance,
                                    LEASE_SECONDS):
                return
            self.leased.add(room.id)
            async with room.lock:
                await self.catch_up(room)
        try:
            await self.move_bots(room)
        finally:  # a failed bot loop stops renewing: the lease expires, another one tries
            self.leased.discard(room.id)
        if self.db.shared:
            await self.in_db(self.db.release_bot_leases, [room.id], self.instance)

    async def move_bots(self, room: Room) -> None:
        while self.bot_to_move(room):
            seat, number = room.state.current_player, room.move_number
            assert seat is not None
            view, legal = room.state.view(seat), list(room.state.legal_actions())
            if not legal:  # an engine bug: a seat to move with nothing to do
                log.error("table %s: seat %s is to move but has no legal action", room.id, seat)
                return
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            action, room.agents[seat], failure = await self.bots.decide(room.agents[seat], view,
                                                                        legal)
            if failure is not None:
                self.bot_broke(room, seat, failure)
            try:
                await self.play(room, seat, number, action=action)
            except ServerError as exc:
                log.warning("bot move on table %s refused: %s", room.id, exc.message)
                if exc.code != "not_saved":
                    return
                await asyncio.sleep(1.0)

    def bot_broke(self, room: Room, seat: int, failure: str) -> None:
        """A bot that failed: the seat is marked broken (every client is told) and plays
        random legal moves from now on; one log line, not one per move."""
        agent = room.stored.seats[seat].agent
        room.broken_bots[seat] = (f"the bot {agent!r} failed ({failure}); it plays random "
                                  "legal moves from now on")
        room.agents[seat] = RandomAgent(derive_seed(room.stored.seed, room.id, "fallback", seat))
        log.error("table %s: bot seat %s (%s) broken: %s", room.id, seat, agent, failure)

    # --- replays and records ------------------------------------------------------
    def replay_perspective(self, room: Room, token_seat: int | None, perspective: str) -> int | None | str:
        """Check who may see a replay from where: ``'all'``, a seat number or ``'spectator'``.

        Finished games can be replayed from any side; unfinished ones only from the
        spectator's side or the requesting seat's own side (what it saw anyway).
        """
        if perspective == "all":
            if not room.finished:
                raise ServerError(403, "replay_hidden", "the whole game (hidden parts included) "
                                  "can only be replayed once it is finished")
            return "all"
        if perspective in ("spectator", ""):
            return None
        if not (perspective.isascii() and perspective.isdigit()) or len(perspective) > 3 or not 0 <= int(perspective) < room.stored.num_players:
            raise ServerError(400, "bad_perspective", "perspective must be 'all', 'spectator' "
                              f"or a seat 0..{room.stored.num_players - 1}")
        seat = int(perspective)
        if not room.finished and seat != token_seat:
            raise ServerError(403, "replay_hidden", f"until the game ends, only seat {seat}'s "
                              "own token may replay what that seat saw")
        return seat

    def state_at(self, room: Room, step: int) -> State:
        """The true state after ``step`` moves, from the nearest checkpoint."""
        points = self.checkpoints.setdefault(room.id, {})
        base = (step // CHECKPOINT_EVERY) * CHECKPOINT_EVERY
        start = max((k for k in points if k <= base), default=0)
        state = points[start].clone() if start in points else room.stored_new_state()
        for i in range(start, step):
            if i % CHECKPOINT_EVERY == 0 and i not in points:
                points[i] = state.clone()
            state.apply_unchecked(state.parse_action(room.moves[i]))
        if step % CHECKPOINT_EVERY == 0 and step not in points:
            points[step] = state.clone()
        return state

    def drop_checkpoints(self, table_id: str, keep: int) -> None:
        points = self.checkpoints.get(table_id, {})
        for k in [k for k in points if k > keep]:
            del points[k]

    def replay_frame(self, room: Room, token_seat: int | None, step: int,
                     perspective: str) -> dict[str, Any]:
        """What one side saw after ``step`` moves, with the log up to there."""
        side = self.replay_perspective(room, token_seat, perspective)
        if not 0 <= step <= room.move_number:
            raise ServerError(400, "bad_step", f"step must be 0..{room.move_number}")
        state = self.state_at(room, step)
        everything = side == "all"
        viewer = None if everything else side
        assert viewer is None or isinstance(viewer, int)
        shown = state if everything else state.view(viewer)
        entries: list[LogEntry] = room.log[:step]
        return {"type": "frame", "schema": WIRE_SCHEMA, **room.header(), "step": step, "total": room.move_number,
                "perspective": "all" if everything else ("spectator" if viewer is None else viewer),
                "current_player": state.current_player, "terminal": state.is_terminal,
                "view": shown.to_dict(),
                "log": [e.to_dict(viewer, everything, room.seat_names) for e in entries],
                "scores": state.scores() if everything or state.is_terminal else shown.scores(),
                "winners": state.winners() if state.is_terminal else []}

    def record(self, room: Room) -> dict[str, Any]:
        """The game record (it holds the seed, so only once the game is finished)."""
        if not room.finished:
            raise ServerError(403, "record_hidden", "the record holds the seed, which would "
                              "reveal hidden information: it is available when the game ends")
        stored = room.stored
        record = GameRecord(game=stored.game, seed=stored.seed, num_players=stored.num_players,
                            options=stored.options, engine_version=stored.engine_version,
                            seats=[Seat(s.name, s.agent) for s in stored.seats],
                            moves=list(room.moves),
                            meta={"table": stored.id, "seed_fixed": stored.seed_fixed})
        record.finish(room.state)
        return record.to_dict()

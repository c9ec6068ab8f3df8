"""New tables (their game, seats and tokens, stored with what other features add in one
transaction) and rematches (one per finished table, whichever instance is asked first)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from ...core.errors import MayaGamesError
from ...core.game import GameInfo
from ...core.registry import get_game
from ..db import RematchTaken, StoredSeat, StoredTable
from ..limits import BotSpecError, check_bot_spec, clean_name
from ..rooms import HUMAN, Room, ServerError, hash_token
from ..schemas import CreateTable, SeatSpec
from .base import Broadcaster, CatchingUp, RoomSource, TableDb, TableHooks


@dataclass
class Extension:
    """What another feature adds to a new table: ``write`` runs in the table's own insert
    transaction (its settings, owners), ``adopt`` once it is stored (in memory)."""

    write: Callable[[Any], None]
    adopt: Callable[[], Awaitable[None]]


Prepare = Callable[[Room], Awaitable[Extension]]


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


class TableFactory:
    """Creates tables and rematches, and hands out the seat tokens of a rematch."""

    def __init__(self, base: TableDb, hooks: TableHooks, cache: RoomSource, sync: CatchingUp,
                 fanout: Broadcaster) -> None:
        self.base = base
        self.hooks = hooks
        self.cache = cache
        self.sync = sync
        self.fanout = fanout

    table_game = staticmethod(table_game)

    async def create_table(self, req: CreateTable, prepare: Prepare | None = None, *,
                           rematch_of: str | None = None, with_tokens: bool = True,
                           ) -> tuple[Room, list[str | None]]:
        """Create and store a table; returns it and each seat's token (None for bots).

        ``prepare`` (other features: lobby settings, seat owners, clock) is called before
        the table is stored and returns the writes to store with it, in one transaction,
        and what to do once it is stored. ``rematch_of``: the finished table this one is
        the rematch of (:class:`~..db.RematchTaken` if another writer was first).
        ``with_tokens=False``: people's seats get no token yet (a rematch hands them out).
        """
        info, options = table_game(req)
        seats, tokens = self.new_seats(req, with_tokens)
        if req.seed is not None and not self.base.limits.allow_fixed_seed:
            raise ServerError(403, "fixed_seed", "this server draws every table's seed: a seed "
                              "chosen by a player would tell them the hidden cards and tiles "
                              "(setting MAYAGAMES_ALLOW_FIXED_SEED)")
        stored = StoredTable(
            id=secrets.token_urlsafe(6), game=info.name, engine_version=info.version,
            num_players=req.players,
            seed=req.seed if req.seed is not None else secrets.randbelow(2**62),
            options=options, seats=seats, seed_fixed=req.seed is not None)
        try:
            room = Room.from_stored(stored, self.base.limits)
        except MayaGamesError as exc:
            raise ServerError(400, "bad_table", str(exc)) from exc
        stored.to_move = room.state.current_player
        await self.store_new_table(room, prepare, rematch_of)
        return room, tokens

    def new_seats(self, req: CreateTable, with_tokens: bool
                  ) -> tuple[list[StoredSeat], list[str | None]]:
        """The seats of a new table and each one's token (None: a bot's seat, or no token
        yet); a bot spec over the server's limits, or naming an estimate the game does not have,
        is refused (limits.check_bot_spec)."""
        limits = self.base.limits
        specs = req.seats or [None] * req.players
        seats, tokens = [], []
        for i, spec in enumerate(specs):
            agent = (spec.agent.strip().lower() if spec else HUMAN) or HUMAN
            if agent != HUMAN:
                try:
                    check_bot_spec(agent, limits, req.game)
                except BotSpecError as exc:
                    raise ServerError(422 if exc.limit else 400, "bot_limit" if exc.limit
                                      else "bad_agent", f"seat {i}: {exc}") from exc
            name = clean_name(spec.name, limits) if spec else ""
            name = name or (f"Player {i + 1}" if agent == HUMAN else f"Bot {i + 1} ({agent})")
            token = secrets.token_urlsafe(24) if agent == HUMAN and with_tokens else None
            tokens.append(token)
            seats.append(StoredSeat(name, agent, hash_token(token) if token else None))
        return seats, tokens

    async def store_new_table(self, room: Room, prepare: Prepare | None,
                              rematch_of: str | None) -> None:
        """Store a new table with the writes ``prepare`` adds (one transaction), then keep
        it in memory and start its bots."""
        extension = await prepare(room) if prepare is not None else None
        writes = [extension.write] if extension is not None else []
        bumped = await self.base.in_db(self.base.db.insert_table, room.stored, rematch_of,
                                       writes)
        if rematch_of is not None and rematch_of in self.cache.rooms:
            self.sync.adopt_version(self.cache.rooms[rematch_of], bumped)
        if extension is not None:
            await extension.adopt()
        self.cache.add(room)

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
        async with room.lock:
            new_id, created = await self.rematch_id(room, prepare)
            if room.rematch != new_id:  # (the insert told the other instances)
                room.rematch = new_id
                await self.hooks.changed(room)
                self.fanout.broadcast(room)
        new_room = await self.cache.get_room(new_id)
        token = await self.hand_out(new_room, seat) if hand_out else None
        return new_room, token, created

    async def rematch_id(self, room: Room, prepare: Prepare | None) -> tuple[str, bool]:
        """(Under the table's lock.) The id of its rematch, creating it if there is none
        yet; and whether this call created it."""
        new_id = room.rematch or await self.base.in_db(self.base.db.rematch_of, room.id)
        if new_id is not None:
            return new_id, False
        stored = room.stored
        req = CreateTable(game=stored.game, players=stored.num_players,
                          seats=[SeatSpec(name=s.name, agent=s.agent) for s in stored.seats],
                          options=dict(stored.options))
        try:
            new_room, _ = await self.create_table(req, prepare, rematch_of=room.id,
                                                  with_tokens=False)
            return new_room.id, True
        except RematchTaken:  # another instance started it a moment ago
            new_id = await self.base.in_db(self.base.db.rematch_of, room.id)
            assert new_id is not None
            return new_id, False

    async def hand_out(self, room: Room, seat: int) -> str | None:
        """A token for a person's seat that has none yet (None: it has one, or is a bot's)."""
        if room.stored.seats[seat].agent != HUMAN:
            return None
        token = secrets.token_urlsafe(24)
        version = await self.base.in_db(self.base.db.hand_out_token, room.id, seat,
                                        hash_token(token))
        if version is None:
            return None
        room.stored.seats[seat].token_hash = hash_token(token)
        self.sync.adopt_version(room, version)
        return token

"""Who is who at a table (a request's seat: its token's, else its account's) and the
changes of its seats: a player arriving (the clock may start), joining a public table's
free seat, claiming a guest seat for an account, a re-issued invite link, resigning."""

from __future__ import annotations

import secrets
from typing import Any

from ..accounts import SESSION_COOKIE
from ..bearer import bearer_token
from ..clocks import parse_speed, run_for, waiting_for
from ..playerstore import Account, SeatTaken, TableMeta
from ..rooms import HUMAN, Room, ServerError, hash_token
from .base import (Decorating, Posting, Rating, Shared, Timing, Unconnected, ended, free_seats)


class Seats:
    """The seats of the tables in memory, as their settings (``shared.meta``) assign them."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.settings: Decorating = Unconnected()  # type: ignore[assignment]
        self.timing: Timing = Unconnected()  # type: ignore[assignment]
        self.rating: Rating = Unconnected()  # type: ignore[assignment]
        self.chat: Posting = Unconnected()  # type: ignore[assignment]
        self.account_of: Any = Unconnected()

    def connect(self, settings: Decorating, timing: Timing, rating: Rating, chat: Posting,
                account_of: Any) -> None:
        self.settings, self.timing, self.rating, self.chat = settings, timing, rating, chat
        self.account_of = account_of  # (the sessions' look-up of a cookie)

    def told(self, room: Room, meta: TableMeta) -> None:
        """The table changed here: its messages carry the new settings; everyone is told."""
        self.settings.decorate(room, meta)
        self.shared.service.broadcast(room)

    # --- who is who -----------------------------------------------------------------------------
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
            seat = await self.shared.service.seat_of_token(room, token)
        else:
            seat = self.seat_for(room, None, account)
        if seat is not None and seat in waiting_for(self.shared.meta_of(room).clock):
            await self.arrive(room, seat)
        return seat

    async def arrive(self, room: Room, seat: int) -> None:
        """``seat``'s player opened the table: once every seat is taken the clock starts."""
        meta = self.shared.meta_of(room)
        async with room.lock:
            if meta.clock is None or seat not in waiting_for(meta.clock):
                return
            meta.clock["waiting"] = [s for s in waiting_for(meta.clock) if s != seat]
            if not meta.clock["waiting"]:
                run_for(meta.clock, parse_speed(meta.speed), self.timing.clocked_seat(room, meta),
                        self.shared.clock())
            await self.timing.save_clock(room, meta)
            self.told(room, meta)

    async def seat_of_request(self, room: Room, request: Any) -> int | None:
        """The seat an HTTP request reads as: its bearer token's, else its session's account's
        (an unknown or expired session reads as a spectator); None: a spectator."""
        try:
            account = await self.account_of(request.cookies.get(SESSION_COOKIE))
        except ServerError:
            account = None
        return await self.seat(room, bearer_token(request), account)

    def seat_of_account(self, room: Room, account: Account) -> int | None:
        meta = self.shared.meta.get(room.id)
        if meta is None:
            return None
        seats = [s for s, a in meta.owners.items() if a == account.id]
        if not seats:
            return None
        current = room.state.current_player
        return current if current in seats else min(seats)

    @staticmethod
    def own(room: Room, meta: TableMeta, seat: int, account: Account) -> None:
        meta.owners[seat] = account.id
        meta.owner_names[seat] = account.name
        room.stored.seats[seat].name = account.name

    # --- the lobby: joining, claiming, invites --------------------------------------------------
    async def join(self, room: Room, seat: int, account: Account) -> None:
        """Take a free seat of a public table for ``account``; start the game when it is full."""
        meta = self.shared.meta_of(room)
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
            last = len(free_seats(room, meta)) <= 1
            try:
                version = await self.shared.db(self.shared.store.take_seat, room.id, seat,
                                               account, last, True)
            except SeatTaken as exc:
                raise ServerError(409, "seat_taken", f"seat {seat} is not free") from exc
            await self.shared.changed(room, version)
            self.own(room, meta, seat, account)
            if last:
                await self.start_game(room, meta)
            await self.rating.load_ratings(room, meta)
            self.told(room, meta)
        self.shared.service.start_bots(room)

    async def start_game(self, room: Room, meta: TableMeta) -> None:
        """Every seat of a public table is taken: the game (and its clock) starts."""
        meta.full = True
        room.waiting = None
        if meta.clock is not None:
            run_for(meta.clock, parse_speed(meta.speed), self.timing.clocked_seat(room, meta),
                    self.shared.clock())
            await self.timing.save_clock(room, meta)

    async def claim(self, room: Room, token: str | None, account: Account) -> int:
        """Turn the guest seat of ``token`` into ``account``'s seat (the link stops working)."""
        if not token:
            raise ServerError(401, "no_token", "claiming a seat needs its token "
                              "(Authorization: Bearer TOKEN)")
        shared = self.shared
        meta = shared.meta_of(room)
        await shared.service.seat_of_token(room, token)  # a wrong token: 401
        async with room.lock:
            seat = room.seat_of_token(token)
            assert seat is not None
            if meta.owners.get(seat) == account.id:
                return seat
            if seat in meta.owners:
                raise ServerError(409, "seat_taken", f"seat {seat} belongs to another account")
            if self.seat_of_account(room, account) is not None:
                raise ServerError(409, "already_seated", "you already have a seat at this table")
            await shared.db(shared.store.ensure_meta, room.id)
            try:
                version = await shared.db(shared.store.take_seat, room.id, seat, account,
                                          meta.full, True)
            except SeatTaken as exc:
                raise ServerError(409, "seat_taken", f"seat {seat} belongs to another account") from exc
            await shared.changed(room, version)
            self.own(room, meta, seat, account)
            room.stored.seats[seat].token_hash = None
            await self.rating.load_ratings(room, meta)
            self.told(room, meta)
        return seat

    async def reissue(self, room: Room, seat: int, account: Account) -> str:
        """A new invite token for ``seat`` (the creator only); the old link stops working."""
        meta = self.shared.meta_of(room)
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
            version = await self.shared.db(self.shared.store.set_token, room.id, seat,
                                           hash_token(token))
            room.stored.seats[seat].token_hash = hash_token(token)
            await self.shared.changed(room, version)
            for sub in [s for s in room.subscribers if s.seat == seat]:
                sub.close()  # whoever holds the old link is sent away
        return token

    # --- resigning ------------------------------------------------------------------------------
    async def resign(self, room: Room, seat: int) -> None:
        """``seat``'s player concedes: a loss on the ladder (ranked last, as a seat whose
        time ran out); with 2 players the game is over, else the table's zombie bot plays
        the seat from now on."""
        shared = self.shared
        meta = shared.meta_of(room)
        async with room.lock:
            self.check_resign(room, meta, seat)
            meta.resigned.append(seat)
            meta.zombies.append(seat)
            room.ended = ended(room, meta)
            if room.ended is None:
                room.agents[seat] = self.settings.zombie_agent(room, meta, seat)
            if meta.clock is not None:  # the resigner's clock stops; the next one runs
                run_for(meta.clock, parse_speed(meta.speed), self.timing.clocked_seat(room, meta),
                        shared.clock())
            version = await shared.db(shared.store.save_resigned, room.id, meta.resigned,
                                      meta.zombies, meta.clock, room.ended is not None)
            self.timing.watch(room, meta)
            name = room.stored.seats[seat].name
            await self.chat.post(room, "", None, f"{name} resigned: " + (
                "the game is over." if room.ended else
                f"the {meta.zombie} bot plays seat {seat + 1} from now on."), system=True)
            if room.ended is not None and meta.rated:
                await self.rating.rate_table(room, meta)
            self.told(room, meta)
        await shared.changed(room, version)
        shared.service.start_bots(room)

    @staticmethod
    def check_resign(room: Room, meta: TableMeta, seat: int) -> None:
        """Refuse a resignation that means nothing: the game is over or has not started,
        or a bot plays the seat."""
        if room.finished:
            raise ServerError(409, "game_over", "the game is over")
        if not meta.full:
            raise ServerError(409, "waiting", "the game has not started: leave the table "
                              "instead")
        if room.is_bot(seat) or seat in meta.zombies:
            raise ServerError(409, "not_a_person", f"seat {seat + 1} is played by a bot")

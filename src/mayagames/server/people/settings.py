"""A table's settings (:class:`~..playerstore.TableMeta`: public, rated, speed, zombie
level, owners, clock): checked and stored with a new table (or a rematch), read when the
table loads or changes, and what every message of the table carries besides the game
(the room's ``extras``: ``lobby``, ``players``, ``clock``)."""

from __future__ import annotations

from typing import Any

from ...agents import LEVELS, make_agent
from ...core.rng import derive_seed
from ..clocks import Speed, new_clock, parse_speed, public_clock, run_for
from ..playerstore import Account, TableMeta
from ..rooms import HUMAN, Room, ServerError
from ..tables.creation import Extension, Prepare
from .base import (Posting, Rating, Shared, Timing, Unconnected, ended, free_seats,
                   invitable_seats, log)

DEFAULT_ZOMBIE = "medium"  # the level of a stored table whose zombie level is unknown
RATED_SPEED = "turn:3d"  # the clock of a rated table created without one (a loser cannot stall)


def rated_speed(speed: Speed, rated: bool) -> Speed:
    """A rated table always has a clock: untimed, it gets ``RATED_SPEED`` (else a loser
    could stall forever instead of losing)."""
    return parse_speed(RATED_SPEED) if rated and not speed.timed else speed


class Settings:
    """The settings of the tables in memory (``shared.meta``) and what they show."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.timing: Timing = Unconnected()  # type: ignore[assignment]
        self.rating: Rating = Unconnected()  # type: ignore[assignment]
        self.chat: Posting = Unconnected()  # type: ignore[assignment]

    def connect(self, timing: Timing, rating: Rating, chat: Posting) -> None:
        self.timing, self.rating, self.chat = timing, rating, chat

    # --- creation -----------------------------------------------------------------------------
    @staticmethod
    def check_create(req: Any, account: Account | None) -> Speed:
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
                run_for(meta.clock, speed, self.timing.clocked_seat(room, meta),
                        self.shared.clock())
            return self.extension(room, meta)
        return prepare

    def extension(self, room: Room, meta: TableMeta) -> Extension:
        return Extension(write=lambda s: self.shared.store.add_meta(s, room.id, meta),
                         adopt=lambda: self.adopt(room, meta))

    def rematch_preparer(self, old: Room) -> Prepare:
        """What a rematch of ``old`` stores: the same accounts in the same seats (no links
        needed for them), the same speed, rating and zombie level; a private table that
        starts at once."""
        before = self.shared.meta_of(old)

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
                run_for(meta.clock, speed, self.timing.clocked_seat(room, meta),
                        self.shared.clock())
            return self.extension(room, meta)
        return prepare

    async def rematch_started(self, old: Room) -> None:
        """Tell the old table's chat that a rematch was started (once, by its creator)."""
        await self.chat.post(old, "", None, "A rematch is offered: the same players at a new "
                             f"table ({old.rematch}).", system=True)

    def rematch_seat(self, room: Room, seat: int) -> bool:
        """Whether ``seat``'s holder gets a new invite token for the rematch (a guest's
        seat; an account's seat is opened by its session)."""
        return seat not in self.shared.meta_of(room).owners

    @staticmethod
    def visible_tokens(room: Room, tokens: list[str | None]) -> list[str | None]:
        """The seat tokens a creation answer shows (none for a public table's open seats)."""
        return [t if room.stored.seats[i].token_hash else None for i, t in enumerate(tokens)]

    # --- loading and following ------------------------------------------------------------------
    async def on_load(self, room: Room) -> None:
        meta = await self.shared.db(self.shared.store.load_meta, room.id)
        if meta is None:
            meta = TableMeta()
        await self.adopt(room, meta)

    async def on_change(self, room: Room) -> None:
        """The table's settings changed elsewhere (another instance, a rematch): read them
        again (clock, zombies, owners)."""
        meta = await self.shared.db(self.shared.store.load_meta, room.id)
        if meta is not None:
            await self.adopt(room, meta)

    async def adopt(self, room: Room, meta: TableMeta) -> None:
        """Make ``meta`` the room's: zombies play, the lobby waits, the clock is watched."""
        if meta.zombie not in LEVELS:  # a damaged row: the default level plays the zombies
            log.error("table %s: zombie level %r is unknown; %s plays its timed-out seats",
                      room.id, meta.zombie, DEFAULT_ZOMBIE)
            meta.zombie = DEFAULT_ZOMBIE
        self.shared.meta[room.id] = meta
        for seat in meta.zombies:
            room.agents[seat] = self.zombie_agent(room, meta, seat)
        room.ended = ended(room, meta)
        room.waiting = None if meta.full else "waiting for players to join"
        await self.rating.load_ratings(room, meta)
        self.timing.watch(room, meta)
        self.decorate(room, meta)

    @staticmethod
    def zombie_agent(room: Room, meta: TableMeta, seat: int) -> Any:
        return make_agent(meta.zombie, derive_seed(room.stored.seed, room.id, "zombie", seat))

    # --- what the table's messages carry ---------------------------------------------------------
    def decorate(self, room: Room, meta: TableMeta) -> None:
        """What every message of the table carries besides the game."""
        speed = parse_speed(meta.speed)
        ratings = room.extras.get("ratings", {})
        room.extras["lobby"] = {"public": meta.public, "rated": meta.rated, "speed": meta.speed,
                                "speed_text": speed.describe(), "zombie": meta.zombie,
                                "waiting": not meta.full, "free": free_seats(room, meta),
                                "rematch": room.rematch, "creator": meta.creator_id,
                                "invitable": invitable_seats(room, meta)}
        room.extras["players"] = [{"seat": i, "account": meta.owner_names.get(i),
                                   "zombie": i in meta.zombies, "resigned": i in meta.resigned,
                                   "rating": ratings.get(i)}
                                  for i in range(room.stored.num_players)]
        shared = self.shared
        room.extras["clock"] = lambda: public_clock(meta.clock, speed, shared.clock())

    def lobby_fields(self, room: Room) -> dict[str, Any]:
        meta = self.shared.meta_of(room)
        return {"public": meta.public, "rated": meta.rated, "speed": meta.speed,
                "zombie": meta.zombie}

"""Quick play: "Play now" for a game pairs the waiting accounts by rating.

A wait is a row of the database (``quick_queue``), so players of different instances
meet. Entering the queue (and each later look at it) tries to pair the account with the
waiting player of the same game and speed whose ladder rating is nearest; the pairing
marks both rows in one conditional update, so no instance pairs a player twice. The pair
gets a rated, private table, both seats held by the accounts (no invite links), seats in
a random order; the clock (if any) starts when both have opened it. After the wait the
player chose (``bot_after`` seconds), the bot level of the nearest rating is offered; the
player may take it (a rated game against that level) or keep waiting.
"""

from __future__ import annotations

import secrets
from typing import Any

from ..agents import LEVELS
from ..core.errors import MayaGamesError
from ..core.registry import TEST_GAMES, get_game
from .clocks import new_clock, parse_speed
from .playerstore import Account, QuickWait, TableMeta
from .ratings import account_player, bot_player, new_rating, ordinal
from .rooms import HUMAN, Room, ServerError
from .schemas import CreateTable, SeatSpec
from .tables.creation import Extension, Prepare

BOT_AFTER = (10.0, 3600.0)  # the waits a player may choose before a bot is offered (seconds)


class QuickPlay:
    """The quick-play queue over the players' side (:class:`~.players.Players`)."""

    def __init__(self, players: Any) -> None:
        self.players = players
        self.service = players.service
        self.store = players.store

    async def db(self, fn: Any, *args: Any) -> Any:
        return await self.players.db(fn, *args)

    # --- ratings -------------------------------------------------------------------------------
    async def rating(self, game: str, player: str) -> float:
        found = await self.db(self.store.ratings, game, [player])
        return ordinal(found.get(player) or new_rating(player, player))

    async def nearest_bot(self, game: str, rating: float) -> dict[str, Any]:
        """The bot level whose ladder rating is nearest ``rating``."""
        found = await self.db(self.store.ratings, game, [bot_player(lv) for lv in LEVELS])
        levels = [(lv, ordinal(found.get(bot_player(lv)) or new_rating(lv, lv))) for lv in LEVELS]
        level, value = min(levels, key=lambda lv: abs(lv[1] - rating))
        return {"level": level, "rating": round(value, 2)}

    # --- the queue ------------------------------------------------------------------------------
    async def enter(self, account: Account, game: str, speed: str,
                    bot_after: float | None) -> dict[str, Any]:
        """Wait for an opponent (paired at once if one waits)."""
        try:
            info = get_game(game)
        except (ImportError, MayaGamesError) as exc:
            raise ServerError(404, "no_game", f"there is no game {game!r}") from exc
        if info.name in TEST_GAMES and not self.service.list_test_games:
            raise ServerError(404, "no_game", f"there is no game {game!r}")
        if info.min_players > 2 or info.max_players < 2:
            raise ServerError(422, "bad_table", f"{info.title} is not a 2-player game")
        parsed = parse_speed(speed)
        if bot_after is not None and not BOT_AFTER[0] <= bot_after <= BOT_AFTER[1]:
            raise ServerError(422, "bad_wait", f"bot_after is {BOT_AFTER[0]:g}-{BOT_AFTER[1]:g} "
                              "seconds, or null for no bot")
        rating = await self.rating(info.name, account_player(account.id))
        wait = QuickWait(account.id, account.name, info.name, parsed.text, rating,
                         self.players.clock(), bot_after, None)
        await self.db(self.store.quick_enter, wait)
        return await self.status(account)

    async def status(self, account: Account) -> dict[str, Any]:
        """Where the account's wait stands: paired (``table``: open it; the wait is then
        over), waiting (with the bot offered once ``bot_after`` has passed), or none."""
        wait = await self.db(self.store.quick_get, account.id)
        if wait is None:
            return {"waiting": False, "table": None}
        if wait.table_id is None:
            wait = await self.pair(wait) or wait
        if wait.table_id is not None and not wait.table_id.startswith("pairing:"):
            await self.db(self.store.quick_leave, account.id, False)
            return {"waiting": False, "table": wait.table_id, "game": wait.game}
        waited = max(0.0, self.players.clock() - wait.since)
        offer = wait.bot_after is not None and waited >= wait.bot_after
        return {"waiting": True, "table": None, "game": wait.game, "speed": wait.speed,
                "rating": round(wait.rating, 2), "waited": round(waited, 1),
                "bot_after": wait.bot_after, "offer_bot": offer,
                "bot": await self.nearest_bot(wait.game, wait.rating) if offer else None}

    async def leave(self, account: Account) -> dict[str, Any]:
        await self.db(self.store.quick_leave, account.id)
        return await self.status(account)

    async def pair(self, wait: QuickWait) -> QuickWait | None:
        """Pair ``wait`` with the nearest-rated waiting player, if any, and make their table."""
        marker = f"pairing:{secrets.token_hex(8)}"
        other = await self.db(self.store.quick_claim, wait.account_id, marker)
        if other is None:
            return None
        ids = [wait.account_id, other.account_id]
        people = [(wait.account_id, wait.name), (other.account_id, other.name)]
        if secrets.randbelow(2):
            people.reverse()
        try:
            room = await self.make_table(wait.game, wait.speed, people, [HUMAN, HUMAN])
        except Exception:
            await self.db(self.store.quick_paired, ids, marker, None)  # both wait again
            raise
        await self.db(self.store.quick_paired, ids, marker, room.id)
        self.players.tell_account(other.account_id, "quick", {"table": room.id})
        return QuickWait(**{**wait.__dict__, "table_id": room.id})

    async def play_bot(self, account: Account) -> dict[str, Any]:
        """Take the bot offered to a wait: a rated game against the nearest-rated level."""
        wait = await self.db(self.store.quick_get, account.id)
        if wait is None:
            raise ServerError(409, "not_waiting", "you are not waiting for a quick game")
        status = await self.status(account)
        if status["table"] is not None:  # paired with a person meanwhile: that game
            return status
        if not status["offer_bot"]:
            raise ServerError(409, "no_bot_yet", "a bot is offered once your chosen wait is over")
        if not await self.db(self.store.quick_leave, account.id):
            return await self.status(account)  # paired just now
        level = status["bot"]["level"]
        seats = [(account.id, account.name), None]
        agents = [HUMAN, level]
        if secrets.randbelow(2):
            seats.reverse()
            agents.reverse()
        room = await self.make_table(wait.game, wait.speed, seats, agents)
        return {"waiting": False, "table": room.id, "game": wait.game, "bot": status["bot"]}

    async def make_table(self, game: str, speed: str, people: list[Any],
                         agents: list[str]) -> Room:
        """A rated private table whose people's seats belong to their accounts."""
        seats = [SeatSpec(name=p[1] if p else None, agent=a) for p, a in zip(people, agents)]
        req = CreateTable(game=game, players=2, seats=seats, rated=True, speed=speed)
        room, _ = await self.service.create_table(req, self.preparer(people, speed),
                                                  with_tokens=False)
        return room

    def preparer(self, people: list[Any], speed_text: str) -> Prepare:
        async def prepare(room: Room) -> Extension:
            speed = parse_speed(speed_text)
            owned = {seat: p for seat, p in enumerate(people) if p}
            meta = TableMeta(public=False, rated=True, speed=speed.text, zombie="medium",
                             creator_id=None, clock=new_clock(speed, room.stored.num_players,
                                                              list(owned)))
            for seat, (account_id, name) in owned.items():
                meta.owners[seat] = account_id
                meta.owner_names[seat] = name
                room.stored.seats[seat].name = name
                room.stored.seats[seat].token_hash = None
            return self.players.extension(room, meta)
        return prepare

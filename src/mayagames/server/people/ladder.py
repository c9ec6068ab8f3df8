"""The ladder at a table: its players' ratings (shown with their seats), and a finished
rated game rated once (a seat that never moved leaves it unrated)."""

from __future__ import annotations

from ..playerstore import TableMeta
from ..ratings import finishing_ranks, rating_dict, record_game
from ..rooms import Room
from .base import Decorating, Posting, Shared, Unconnected, ladder_key, log


class Ladder:
    """Reads and records the ratings of the tables' players."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.settings: Decorating = Unconnected()  # type: ignore[assignment]
        self.chat: Posting = Unconnected()  # type: ignore[assignment]

    def connect(self, settings: Decorating, chat: Posting) -> None:
        self.settings, self.chat = settings, chat

    @staticmethod
    def player_key(room: Room, meta: TableMeta, seat: int) -> str | None:
        """The ladder's name for a seat's player (None: a guest or an unrated bot)."""
        return ladder_key(room.stored, meta, seat)

    async def load_ratings(self, room: Room, meta: TableMeta) -> None:
        keys = {seat: self.player_key(room, meta, seat) for seat in range(room.stored.num_players)}
        found = await self.shared.db(self.shared.store.ratings, room.info.name,
                                     [k for k in keys.values() if k])
        meta_ratings = {seat: rating_dict(found[k])["rating"] for seat, k in keys.items()
                        if k in found}
        room.extras["ratings"] = meta_ratings

    async def rate_table(self, room: Room, meta: TableMeta) -> None:
        """Update the ladder from a finished rated table (once)."""
        keys = [self.player_key(room, meta, s) for s in range(room.stored.num_players)]
        if any(k is None for k in keys):
            log.info("table %s: not rated (a guest seat)", room.id)
            return
        if not await self.shared.db(self.shared.store.mark_rated, room.id):
            return
        idle = sorted((meta.clock or {}).get("idle", []))
        if idle:  # a seat that never moved: two accounts of one person would farm points
            log.info("table %s: not rated (seats %s never moved)", room.id, idle)
            meta.rated_done = True
            seats = ", ".join(str(s + 1) for s in idle)
            await self.chat.post(room, "", None, f"This game is not rated: seat {seats} ran out "
                                 "of time before making a move.", system=True)
            return
        # a timed-out seat ranks last whatever its zombie did; the zombie's play rates no
        # one (the seat's ladder name stays its account's)
        ranks = finishing_ranks(room.state.scores(), room.winners(), meta.zombies)
        await self.record_result(room.info.name, room.id, [k for k in keys if k],
                                 [room.stored.seats[s].name for s in range(len(keys))], ranks)
        meta.rated_done = True
        await self.load_ratings(room, meta)
        self.settings.decorate(room, meta)

    async def record_result(self, game: str, table_id: str | None, players: list[str],
                            names: list[str], ranks: list[int]) -> None:
        shared = self.shared
        await shared.db(record_game, shared.store, game, table_id, players, names, ranks,
                        shared.clock())

"""Tables as lists show them (the lobby's open tables, an account's tables, a profile):
a loaded table from memory, the others from their stored rows (no replay)."""

from __future__ import annotations

from typing import Any

from ...core.errors import MayaGamesError
from ...core.registry import get_game
from ..clocks import parse_speed, public_clock
from ..db import StoredTable
from ..playerstore import Account, TableMeta
from ..ratings import rating_dict
from ..rooms import HUMAN, Room, ServerError
from ..tables.catalogue import option_labels
from .base import Shared, ladder_key

Card = tuple[StoredTable, TableMeta, dict[int, float]]


class Listings:
    """Summaries of tables, seen from a seat."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared

    def table_summary(self, room: Room, seat: int | None = None) -> dict[str, Any]:
        """A loaded table as lists show it (seen from ``seat``)."""
        return self.summary(room.stored, self.shared.meta_of(room),
                            room.extras.get("ratings", {}), room.info.title,
                            room.state.current_player, room.finished, room.move_number,
                            room.rematch, seat)

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
            "clock": public_clock(meta.clock, parse_speed(meta.speed), self.shared.clock()),
            "rematch": rematch,
        }

    def stored_cards(self, table_ids: list[str]) -> dict[str, Card]:
        """(In a database thread.) What lists need of tables not loaded here, from their
        rows: the table, its settings and its seats' ratings; no replay. A table whose
        rows are damaged is left out (opening it says why)."""
        store = self.shared.store
        tables = self.shared.service.db.stored_tables(table_ids)
        metas = store.load_metas(list(tables))
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
        found = {game: store.ratings(game, sorted(names)) for game, names in wanted.items()
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
        rooms = self.shared.service.rooms
        cards = await self.shared.db(self.stored_cards, [t for t, _ in tables if t not in rooms])
        out = []
        for table_id, seat in tables:
            room = rooms.get(table_id)
            card = cards.get(table_id)
            if room is None and card is not None and card[0].status != "finished" \
                    and card[0].to_move is None:  # stored before to_move existed: replayed once
                try:
                    room = await self.shared.service.get_room(table_id)
                except ServerError:
                    continue
            if room is not None:
                out.append(self.table_summary(room, seat))
            elif card is not None and (summary := self.card_summary(card, seat)) is not None:
                out.append(summary)
        return out

    def card_summary(self, card: Card, seat: int | None) -> dict[str, Any] | None:
        """A table not loaded here, from its stored rows (None: its game is not installed)."""
        stored, meta, ratings = card
        try:
            title = get_game(stored.game).title
        except (ImportError, MayaGamesError):
            return None
        return self.summary(stored, meta, ratings, title, stored.to_move,
                            stored.status == "finished", stored.move_count, stored.rematch, seat)

    async def open_tables(self, limit: int) -> list[dict[str, Any]]:
        found = await self.shared.db(self.shared.store.open_tables, limit)
        return await self.summaries([(table_id, None) for table_id, _meta in found])

    async def my_tables(self, account: Account, limit: int = 50) -> list[dict[str, Any]]:
        return await self.summaries(await self.shared.db(self.shared.store.account_tables,
                                                         account.id, limit))

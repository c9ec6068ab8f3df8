"""The ladder's routes: a game's ratings and a player's profile (an account or a bot
level); the logic is in :mod:`..ratings` and :class:`~..playerstore.PlayerStore`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from ...core.errors import MayaGamesError
from ...core.registry import get_game
from ..accounts import name_key
from ..players import Players
from ..playerstore import Account
from ..ratings import BOT_LEVELS, account_player, bot_player, rating_dict
from ..rooms import ServerError
from .deps import PlayersDep, ViewerDep
from .models import Ladder, Profile

router = APIRouter(tags=["ratings"])


@router.get("/api/ratings/{game}", response_model=Ladder)
async def leaderboard(game: str, players: PlayersDep,
                      limit: int = Query(100, ge=1, le=500)) -> dict[str, Any]:
    """The ladder of a game: accounts and bot levels, best ``rating`` (mu - 3 sigma) first."""
    try:
        info = get_game(game)
    except (ImportError, MayaGamesError) as exc:
        raise ServerError(404, "no_game", f"there is no game {game!r}") from exc
    rows = await players.db(players.store.leaderboard, info.name, limit)
    return {"game": info.name, "ratings": [{"place": i + 1, **rating_dict(r)}
                                           for i, r in enumerate(rows)]}


@router.get("/api/players/{name}", response_model=Profile, response_model_exclude_unset=True)
async def profile(name: str, players: PlayersDep, looker: ViewerDep) -> dict[str, Any]:
    """A player's page: ratings per game, rating history, tables (an account or a bot
    level); a private table is listed only to an account that holds one of its seats."""
    acc, key, shown = await player_of(players, name)
    ratings = await players.db(players.store.player_ratings, key)
    history = await players.db(players.store.history, key, 500)
    listable = await players.db(players.store.listable, sorted({h["table"] for h in history}),
                                looker.id if looker else None)
    for point in history:  # the rating moved; which private table it was is its seats' own
        if point["table"] not in listable:
            point["table"] = None
    return {"name": shown, "bot": acc is None,
            "ratings": [{"game": g, **rating_dict(r)} for g, r in ratings],
            "history": history, "tables": await finished_tables(players, acc, looker)}


async def player_of(players: Players, name: str) -> tuple[Account | None, str, str]:
    """The account (None: a bot level), ladder key and shown name of a profile's ``name``."""
    if name.lower() in BOT_LEVELS:
        return None, bot_player(name.lower()), name.lower()
    found = await players.db(players.store.account_by_key, name_key(name))
    if found is None:
        raise ServerError(404, "no_player", f"there is no player {name!r}")
    acc = found[0]
    return acc, account_player(acc.id), acc.name


async def finished_tables(players: Players, acc: Account | None,
                          looker: Account | None) -> list[dict[str, Any]]:
    """The account's finished games a profile lists to ``looker``: games and results, nothing
    about games under way; a private table only to an account that holds one of its seats."""
    tables = [t for t in (await players.my_tables(acc, 60) if acc else [])
              if t["status"] == "finished"
              and (t["public"] or (looker is not None and any(
                  s["account"] == looker.name for s in t["seats"])))]
    for t in tables:
        t.pop("your_turn", None)
    return tables

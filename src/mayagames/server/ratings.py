"""The rating ladder: one openskill (Plackett-Luce) rating per game for every account and
for each bot level (``easy``, ``medium``, ``hard``), so that people and bots share one
ladder and "beats hard" is a number.

A rated game updates every player's rating from the finishing ranks when it ends:
winners first (the game's tie-breaks decide ``winners``), the others by score; a seat
that ran out of time ranks last. A bot level that held several seats of one game gets
the mean of its updates (as in the arena's ratings). The leaderboard orders by the
conservative estimate ``mu - 3 sigma`` (shown as ``rating``). Bot levels also earn their
ratings from bot-vs-bot games: ``mayagames ratings seed-bots GAME --games N``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Sequence

from .playerstore import PlayerStore, Rating

BOT_LEVELS = ("easy", "medium", "hard")


def model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def new_rating(player: str, name: str) -> Rating:
    m = model()
    return Rating(player, name, float(m.mu), float(m.sigma), 0)


def bot_player(level: str) -> str:
    return f"bot:{level}"


def account_player(account_id: int) -> str:
    return f"account:{account_id}"


def ordinal(rating: Rating) -> float:
    """The leaderboard value: a conservative estimate of skill."""
    return rating.mu - 3 * rating.sigma


def finishing_ranks(scores: Sequence[float], winners: Sequence[int],
                    last: Sequence[int] = ()) -> list[int]:
    """1 for the winners, then by score (ties share a rank); seats in ``last`` rank last."""
    n = len(scores)
    key = [(0 if s in last else 1, 1 if s in winners else 0, scores[s]) for s in range(n)]
    return [1 + sum(1 for o in range(n) if key[o] > key[s]) for s in range(n)]


def rate(players: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The new rating of each distinct player (a player in several seats: the mean)."""
    m = model()
    teams = [[m.rating(mu=p.mu, sigma=p.sigma, name=p.player)] for p in players]
    updated = m.rate(teams, ranks=list(ranks))
    news: dict[str, list[Any]] = defaultdict(list)
    for player, team in zip(players, updated):
        news[player.player].append(team[0])
    out = []
    for player in {p.player: p for p in players}.values():
        points = news[player.player]
        out.append(Rating(player.player, player.name,
                          sum(float(r.mu) for r in points) / len(points),
                          sum(float(r.sigma) for r in points) / len(points), player.games + 1))
    return out


def rating_dict(rating: Rating) -> dict[str, Any]:
    return {"player": rating.player, "name": rating.name, "bot": rating.player.startswith("bot:"),
            "mu": round(rating.mu, 3), "sigma": round(rating.sigma, 3),
            "rating": round(ordinal(rating), 2), "games": rating.games}


def record_game(store: PlayerStore, game: str, table_id: str | None, players: Sequence[str],
                names: Sequence[str], ranks: Sequence[int], now: float) -> list[Rating]:
    """Rate one finished game (seat by seat: ladder name, shown name, finishing rank) and
    store the new ratings with a history point each (synchronous: a database thread).
    Read and write are one locked transaction (:meth:`PlayerStore.rate_game`)."""
    seats = [(p, p.removeprefix("bot:") if p.startswith("bot:") else n, r)
             for p, n, r in zip(players, names, ranks)]
    return store.rate_game(game, table_id, seats, lambda before, ranks_: rate(before, ranks_), now)


def seed_bots(store: PlayerStore, game: str, games: int, levels: Sequence[str], players: int,
              seed: int, jobs: int = 1, options: dict[str, Any] | None = None,
              on_game: Any = None) -> list[Rating]:
    """Play ``games`` bot-vs-bot games among ``levels`` (seats rotating, the levels drawn in
    turn) with the arena, and record each finished one on the ladder."""
    import itertools
    import time

    from ..arena.tournament import MatchTask, game_seed, run_matches
    from ..core.registry import get_game

    for level in levels:
        if level not in BOT_LEVELS:
            raise ValueError(f"the ladder's bots are {', '.join(BOT_LEVELS)}, not {level!r}")
    info = get_game(game)
    info.check_players(players)
    if len(levels) < 2:
        raise ValueError("give at least two levels to play against each other")
    resolved = tuple(sorted(info.resolve_options(options).items()))
    pairings = [c for c in itertools.combinations_with_replacement(levels, players)
                if len(set(c)) > 1]
    tasks = []
    for i in range(games):
        lineup = pairings[i % len(pairings)]
        shift = (i // len(pairings)) % players
        agents = tuple(lineup[(s + shift) % players] for s in range(players))
        tasks.append(MatchTask(index=i, game=info.name, seed=game_seed(seed, i, players, False),
                               agents=agents, options=resolved, run_seed=seed))
    for result in run_matches(tasks, jobs=jobs):
        if result.error:
            continue
        record = result.record
        agents = [s["agent"] for s in record["seats"]]
        outcome = record["result"]
        ranks = finishing_ranks(outcome["scores"], outcome["winners"])
        record_game(store, info.name, None, [bot_player(a) for a in agents], agents, ranks,
                    time.time())
        if on_game is not None:
            on_game(result)
    return store.leaderboard(info.name, 100)

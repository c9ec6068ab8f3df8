"""``mayagames serve``: the web app (lobby, tables, bots) on one port."""

from __future__ import annotations

import os
from typing import Optional

import typer


def register(app: typer.Typer) -> None:
    app.command()(serve)
    ratings = typer.Typer(help="The rating ladder of the web app (people and bot levels).",
                          no_args_is_help=True)
    ratings.command("seed-bots")(seed_bots)
    ratings.command("show")(show_ratings)
    app.add_typer(ratings, name="ratings")


def seed_bots(
    game: str = typer.Argument(..., help="tikal or tzolkin"),
    games: int = typer.Option(30, help="bot-vs-bot games to play and record"),
    levels: str = typer.Option("easy,medium,hard", help="the bot levels that play"),
    players: int = typer.Option(2, help="players per game"),
    seed: int = typer.Option(0, help="run seed (the games' seeds derive from it)"),
    jobs: int = typer.Option(1, help="games played at once (processes)"),
    database_url: Optional[str] = typer.Option(
        None, "--database-url", envvar="DATABASE_URL",
        help="the web app's database (default: SQLite file mayagames.db)"),
) -> None:
    """Play bot-vs-bot games among the levels and record them on the web app's ladder, so that
    the bots' ratings also come from their games against each other."""
    from .db import DEFAULT_URL, Database
    from .playerstore import PlayerStore
    from .ratings import rating_dict
    from .ratings import seed_bots as play_and_record

    if games < 1:
        raise typer.BadParameter("--games must be at least 1")
    db = Database(database_url or DEFAULT_URL)
    db.create_schema()
    try:
        board = play_and_record(PlayerStore(db), game, games,
                                [x.strip() for x in levels.split(",") if x.strip()], players,
                                seed, jobs)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    finally:
        db.dispose()
    for place, rating in enumerate(board, 1):
        row = rating_dict(rating)
        typer.echo(f"{place:>3}. {row['name']:<24} rating {row['rating']:>7.2f}  "
                   f"(mu {row['mu']:.2f}, sigma {row['sigma']:.2f}, {row['games']} games)")


def show_ratings(
    game: str = typer.Argument(..., help="tikal or tzolkin"),
    database_url: Optional[str] = typer.Option(None, "--database-url", envvar="DATABASE_URL"),
) -> None:
    """Print a game's ladder."""
    from .db import DEFAULT_URL, Database
    from .playerstore import PlayerStore
    from .ratings import rating_dict

    db = Database(database_url or DEFAULT_URL)
    db.create_schema()
    for place, rating in enumerate(PlayerStore(db).leaderboard(game, 500), 1):
        row = rating_dict(rating)
        typer.echo(f"{place:>3}. {row['name']:<24} rating {row['rating']:>7.2f}  "
                   f"(mu {row['mu']:.2f}, sigma {row['sigma']:.2f}, {row['games']} games)")
    db.dispose()


def serve(
    host: str = typer.Option("127.0.0.1", help="address to listen on (0.0.0.0: all interfaces)"),
    port: int = typer.Option(8000, help="TCP port"),
    database_url: Optional[str] = typer.Option(
        None, "--database-url", envvar="DATABASE_URL",
        help="SQLAlchemy URL, e.g. postgresql://user:pw@host/db (default: SQLite file mayagames.db)"),
    bot_delay: float = typer.Option(0.6, help="seconds a bot waits before moving, so people can follow"),
    bot_workers: int = typer.Option(2, help="threads in which light bots (random, test doubles) think"),
    bot_processes: int = typer.Option(
        2, help="worker processes in which search bots (easy/medium/hard, heuristic, mcts) think; "
                "0: threads only"),
    test_games: bool = typer.Option(False, "--test-games", help="also offer the small test game(s) in the lobby"),
    log_level: str = typer.Option("info", help="uvicorn log level"),
) -> None:
    """Start the web app: open the printed address in a browser."""
    import uvicorn

    from .app import create_app
    from .db import DEFAULT_URL, Database, SingleInstanceError

    guard = Database(database_url or DEFAULT_URL)
    try:  # one server process per SQLite file (held until this process ends)
        guard.claim_single_instance()
    except SingleInstanceError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    app = create_app(database_url, bot_delay=bot_delay, bot_workers=bot_workers, bot_processes=bot_processes,
                     list_test_games=test_games or os.environ.get("MAYAGAMES_TEST_GAMES") == "1")
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"mayagames web app: open http://{shown}:{port}/  (Ctrl-C stops it)")
    # Messages are small JSON views: compressing each one costs more CPU than it saves
    # (profiled: zlib was the largest single cost of a move's round trip).
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws="websockets-sansio",
                ws_per_message_deflate=False)

"""``mayagames serve``: the web app (lobby, tables, bots) on one port."""

from __future__ import annotations

import json
import os
from typing import Optional

import typer


def register(app: typer.Typer) -> None:
    app.command()(serve)


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
    review_budget: str = typer.Option("300i", help="game reviews: search iterations per decision (e.g. 300i)"),
    workers: int = typer.Option(
        1, min=1, help="server processes on this port (uvicorn workers), each a full instance "
                       "sharing the database; more than 1 needs PostgreSQL"),
) -> None:
    """Start the web app: open the printed address in a browser."""
    from .db import DEFAULT_URL, Database, SingleInstanceError

    guard = Database(database_url or DEFAULT_URL)
    if workers > 1 and guard.is_sqlite:
        typer.echo("error: --workers needs PostgreSQL (--database-url postgresql://...): an "
                   "SQLite file is served by one process", err=True)
        raise typer.Exit(1)
    try:  # one server process per SQLite file (held until this process ends)
        guard.claim_single_instance()
    except SingleInstanceError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    import uvicorn

    from .app import create_app
    settings = {"database_url": database_url, "bot_delay": bot_delay, "bot_workers": bot_workers,
                "bot_processes": bot_processes, "review_budget": review_budget,
                "list_test_games": test_games or os.environ.get("MAYAGAMES_TEST_GAMES") == "1"}
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"mayagames web app: open http://{shown}:{port}/  (Ctrl-C stops it)")
    # Messages are small JSON views: compressing each one costs more CPU than it saves
    # (profiled: zlib was the largest single cost of a move's round trip).
    options = {"host": host, "port": port, "log_level": log_level, "ws": "websockets-sansio",
               "ws_per_message_deflate": False}
    if workers > 1:  # each worker process builds its own app from the settings
        os.environ[SETTINGS_ENV] = json.dumps(settings)
        uvicorn.run("mayagames.server.cli:app_from_settings", factory=True, workers=workers,
                    **options)
    else:
        uvicorn.run(create_app(**settings), **options)


SETTINGS_ENV = "MAYAGAMES_SERVE_SETTINGS"


def app_from_settings() -> object:
    """The app of one ``--workers`` process, from the settings ``serve`` left in the environment."""
    from .app import create_app

    return create_app(**json.loads(os.environ[SETTINGS_ENV]))

"""``mayagames serve``: the web app (lobby, tables, bots) on one port."""

from __future__ import annotations

import json
import os
import sys
import threading
import webbrowser
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

if TYPE_CHECKING:
    from .db import Database
    from .limits import ServerLimits


def register(app: typer.Typer) -> None:
    app.command()(serve)
    ratings = typer.Typer(help="The rating ladder of the web app (people and bot levels).",
                          no_args_is_help=True)
    ratings.command("seed-bots")(seed_bots)
    ratings.command("show")(show_ratings)
    app.add_typer(ratings, name="ratings")
    from .dbcli import register as register_db

    register_db(app)


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
    check_schema(db)
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
    check_schema(db)
    for place, rating in enumerate(PlayerStore(db).leaderboard(game, 500), 1):
        row = rating_dict(rating)
        typer.echo(f"{place:>3}. {row['name']:<24} rating {row['rating']:>7.2f}  "
                   f"(mu {row['mu']:.2f}, sigma {row['sigma']:.2f}, {row['games']} games)")
    db.dispose()


# --- the options of `mayagames serve` ------------------------------------------------------
Host = Annotated[str, typer.Option(help="address to listen on (0.0.0.0: all interfaces)")]
Port = Annotated[int, typer.Option(help="TCP port")]
DatabaseUrl = Annotated[Optional[str], typer.Option(
    "--database-url", envvar="DATABASE_URL",
    help="SQLAlchemy URL, e.g. postgresql://user:pw@host/db (default: SQLite file mayagames.db)")]
BotDelay = Annotated[float, typer.Option(
    help="seconds a bot waits before moving, so people can follow")]
BotWorkers = Annotated[int, typer.Option(
    help="threads in which light bots (random, test doubles) think")]
BotProcesses = Annotated[int, typer.Option(
    help="worker processes in which search bots (easy/medium/hard, heuristic, mcts) think; "
         "0: threads only")]
TestGames = Annotated[bool, typer.Option(
    "--test-games", help="also offer the small test game(s) in the lobby")]
LogLevel = Annotated[str, typer.Option(help="uvicorn log level")]
LogFormat = Annotated[str, typer.Option(
    help="text, or json: one JSON object per line with the request and table ids, "
         "and a line per request")]
MetricsToken = Annotated[Optional[str], typer.Option(
    envvar="MAYAGAMES_METRICS_TOKEN",
    help="bearer token that opens /metrics (Prometheus); without it /metrics is off")]
ReviewBudget = Annotated[str, typer.Option(
    help="game reviews: search iterations per decision (e.g. 300i)")]
MaxBodyBytes = Annotated[Optional[int], typer.Option(
    help="largest request body or WebSocket message [MAYAGAMES_MAX_BODY_BYTES; 65536]")]
BotMaxSeconds = Annotated[Optional[float], typer.Option(
    help="longest a bot may think per decision [MAYAGAMES_BOT_MAX_SECONDS; 1]")]
BotMaxIterations = Annotated[Optional[int], typer.Option(
    help="most MCTS iterations per decision [MAYAGAMES_BOT_MAX_ITERATIONS; 2000]")]
BotMaxSamples = Annotated[Optional[int], typer.Option(
    help="most heuristic samples per decision [MAYAGAMES_BOT_MAX_SAMPLES; 3]")]
BotMaxWorlds = Annotated[Optional[int], typer.Option(
    help="most MCTS sampled worlds (worlds=K) [MAYAGAMES_BOT_MAX_WORLDS; 100]")]
RateLimits = Annotated[bool, typer.Option(
    help="limit request rates per address and token (see docs/server.md for each "
         "rate's variable) [MAYAGAMES_RATE_LIMITS=off turns them off too]")]
MaxTablesInMemory = Annotated[Optional[int], typer.Option(
    help="loaded tables kept in memory [MAYAGAMES_MAX_TABLES_IN_MEMORY; 500]")]
IdleSeconds = Annotated[Optional[float], typer.Option(
    help="a table nobody watches is unloaded after this [MAYAGAMES_IDLE_SECONDS; 600]")]
AllowedOrigins = Annotated[Optional[str], typer.Option(
    help="comma-separated origins whose pages may open WebSockets and send "
         "state-changing requests besides this server's own (* for any) "
         "[MAYAGAMES_ALLOWED_ORIGINS]")]
AllowFixedSeed = Annotated[Optional[bool], typer.Option(
    "--allow-fixed-seed/--no-fixed-seed",
    help="may a table's creator fix its seed (then every seat is told) "
         "[MAYAGAMES_ALLOW_FIXED_SEED; off]")]
Workers = Annotated[int, typer.Option(
    min=1, help="server processes on this port (uvicorn workers), each a full instance "
                "sharing the database; more than 1 needs PostgreSQL")]
OpenBrowser = Annotated[Optional[bool], typer.Option(
    "--open/--no-open",
    help="open the lobby in a web browser (default: yes when run from a terminal)")]


def serve(host: Host = "127.0.0.1", port: Port = 8000, database_url: DatabaseUrl = None,
          bot_delay: BotDelay = 0.6, bot_workers: BotWorkers = 2,
          bot_processes: BotProcesses = 2, test_games: TestGames = False,
          log_level: LogLevel = "info", log_format: LogFormat = "text",
          metrics_token: MetricsToken = None, review_budget: ReviewBudget = "300i",
          max_body_bytes: MaxBodyBytes = None, bot_max_seconds: BotMaxSeconds = None,
          bot_max_iterations: BotMaxIterations = None, bot_max_samples: BotMaxSamples = None,
          bot_max_worlds: BotMaxWorlds = None, rate_limits: RateLimits = True,
          max_tables_in_memory: MaxTablesInMemory = None, idle_seconds: IdleSeconds = None,
          allowed_origins: AllowedOrigins = None, allow_fixed_seed: AllowFixedSeed = None,
          workers: Workers = 1, open_browser: OpenBrowser = None) -> None:
    """Start the web app (lobby and tables) and open it in a browser."""
    claim_database(database_url, workers)
    limits = serve_limits(rate_limits, allowed_origins, max_body_bytes=max_body_bytes,
                          bot_max_seconds=bot_max_seconds, bot_max_iterations=bot_max_iterations,
                          bot_max_samples=bot_max_samples, bot_max_worlds=bot_max_worlds,
                          max_tables_in_memory=max_tables_in_memory, idle_seconds=idle_seconds,
                          allow_fixed_seed=allow_fixed_seed)
    logging_config = serve_logging(log_format, log_level)
    settings = {"database_url": database_url, "bot_delay": bot_delay, "bot_workers": bot_workers,
                "bot_processes": bot_processes, "review_budget": review_budget,
                "list_test_games": test_games or os.environ.get("MAYAGAMES_TEST_GAMES") == "1",
                "metrics_token": metrics_token or ""}
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    address = f"http://{shown}:{port}/"
    typer.echo(f"mayagames web app: open {address}  (Ctrl-C stops it)")
    if open_browser if open_browser is not None else sys.stdout.isatty():
        open_when_ready(address)
    run_server(settings, limits, workers, {"host": host, "port": port, "log_level": log_level},
               logging_config)


def claim_database(database_url: str | None, workers: int) -> None:
    """Check the database before serving (exit 1 with the reason): several workers need
    PostgreSQL, an SQLite file is served by one process (held until this one ends), and
    the schema must be at the migrations' head."""
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
    try:
        check_schema(guard)
    except typer.Exit:
        guard.release_single_instance()
        raise


def serve_limits(rate_limits: bool, allowed_origins: str | None,
                 **settings: Any) -> "ServerLimits":
    """The server's limits: the environment's, overridden by the options given."""
    from .limits import ServerLimits, parse_setting

    try:
        limits = ServerLimits.from_env(
            **settings, allowed_origins=(parse_setting("allowed_origins", allowed_origins)
                                         if allowed_origins is not None else None))
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc
    return limits if rate_limits else limits.without_rate_limits()


def serve_logging(log_format: str, log_level: str) -> dict[str, Any] | None:
    """uvicorn's logging configuration for ``--log-format`` (observability.log_config)."""
    from .observability import log_config

    try:
        return log_config(log_format, log_level)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc


def run_server(settings: dict[str, Any], limits: "ServerLimits", workers: int,
               options: dict[str, Any], logging_config: dict[str, Any] | None) -> None:
    """Run uvicorn until stopped: one app in this process, or ``workers`` processes that
    each build their own app from the settings (:func:`app_from_settings`)."""
    import uvicorn

    from .app import create_app
    # Messages are small JSON views: compressing each one costs more CPU than it saves
    # (profiled: zlib was the largest single cost of a move's round trip).
    # A WebSocket message is held to the body limit; a stop (SIGTERM, Ctrl-C) waits at most
    # a few seconds for open connections.
    options = {**options, "ws": "websockets-sansio", "ws_per_message_deflate": False,
               "ws_max_size": limits.max_body_bytes, "timeout_graceful_shutdown": 3}
    if logging_config is not None:
        options.update(log_config=logging_config, access_log=False)
    if workers > 1:  # each worker process builds its own app from the settings
        os.environ[SETTINGS_ENV] = json.dumps({**settings, "limits": limits.to_dict()})
        uvicorn.run("mayagames.server.cli:app_from_settings", factory=True, workers=workers,
                    **options)
    else:
        uvicorn.run(create_app(**settings, limits=limits), **options)


SETTINGS_ENV = "MAYAGAMES_SERVE_SETTINGS"


def check_schema(db: "Database") -> None:
    """Create a new empty database at the migrations' head, or stop (exit 1) with the reason
    if its schema is behind or ahead of this code (or damaged, or the database unreachable)."""
    from .migrations import SchemaError

    try:
        db.create_schema()
    except SchemaError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    except Exception as exc:  # sqlalchemy.exc.OperationalError and the like
        typer.echo(f"error: cannot open the database: {type(exc).__name__}: {exc}"[:1500], err=True)
        raise typer.Exit(1) from None
    finally:
        db.engine.dispose()


def app_from_settings() -> object:
    """The app of one ``--workers`` process, from the settings ``serve`` left in the environment."""
    from .app import create_app
    from .limits import ServerLimits

    settings = json.loads(os.environ[SETTINGS_ENV])
    return create_app(**{**settings, "limits": ServerLimits.from_dict(settings["limits"])})


def open_when_ready(address: str, delay: float = 1.0) -> None:
    """Open ``address`` in the default browser once the server had a moment to start."""
    timer = threading.Timer(delay, webbrowser.open, args=(address,))
    timer.daemon = True
    timer.start()

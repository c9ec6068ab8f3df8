"""``mayagames rl``: inspect encodings, check and benchmark the RL environments.

Registered by :mod:`mayagames.cli` through ``register(app)``; the heavy imports
(PettingZoo, Gymnasium) happen inside the commands.
"""

from __future__ import annotations

import typer

rl_app = typer.Typer(no_args_is_help=True,
                     help="Research API: RL environments (PettingZoo, Gymnasium).")


def _console():
    from rich.console import Console

    return Console(highlight=False)


def _fail(message: str) -> None:
    _console().print(f"[red]error:[/red] {message}")
    raise typer.Exit(2)


@rl_app.command("games")
def games() -> None:
    """List the games with an RL encoding: action and observation sizes per player count."""
    from ..core.registry import get_game
    from . import encoded_games, get_encoding

    console = _console()
    for name in encoded_games():
        enc, info = get_encoding(name), get_game(name)
        sizes = ", ".join(f"{n}p: {enc.codec(n).size} actions, obs {enc.observer(n).layout.size}"
                          for n in range(info.min_players, info.max_players + 1))
        console.print(f"[bold]{name}[/bold]: {sizes}")


@rl_app.command("layout")
def layout(game: str = typer.Argument(..., help="an encoded game"),
           players: int = typer.Option(2, help="player count")) -> None:
    """Print a game's action table and observation layout (Markdown)."""
    from ..core.errors import MayaGamesError
    from ..core.registry import get_game
    from . import get_encoding

    try:
        enc = get_encoding(game)
        get_game(enc.game).check_players(players)
    except MayaGamesError as exc:
        _fail(str(exc))
    print(f"Actions ({game}, {players} players):\n\n{enc.codec(players).markdown()}\n")
    print(f"Observation ({game}, {players} players):\n\n{enc.observer(players).layout.markdown()}")


@rl_app.command("check")
def check(game: str = typer.Argument(..., help="an encoded game"),
          players: int = typer.Option(2, help="player count"),
          cycles: int = typer.Option(1000, help="cycles for api_test and seed_test")) -> None:
    """Run PettingZoo's api_test and seed_test and Gymnasium's check_env on a game."""
    import contextlib
    import io
    import warnings

    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test, seed_test

    from ..core.errors import MayaGamesError
    from . import env, gym_env

    console = _console()
    checks = [("pettingzoo api_test", lambda: api_test(env(game, num_players=players), cycles)),
              ("pettingzoo seed_test", lambda: seed_test(lambda: env(game, num_players=players), cycles)),
              ("gymnasium check_env", lambda: check_env(gym_env(game, num_players=players, seat="random"),
                                                        skip_render_check=True))]
    failed = False
    for name, run in checks:
        try:
            with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
                warnings.filterwarnings("ignore", "Observation (is not a NumPy array|space for each)")
                run()
        except MayaGamesError as exc:
            _fail(str(exc))
        except AssertionError as exc:
            console.print(f"{name}: [red]FAILED[/red] {exc}")
            failed = True
        else:
            console.print(f"{name}: [green]passed[/green]")
    if failed:
        raise typer.Exit(1)


@rl_app.command("bench")
def bench(game: str = typer.Argument(..., help="an encoded game"),
          players: str = typer.Option("2,4", help="player counts"),
          seconds: float = typer.Option(5.0, help="seconds per Gym/engine measurement")) -> None:
    """Random-play throughput of the AEC env (PettingZoo's benchmark), the Gym wrapper and the engine."""
    from ..core.errors import MayaGamesError
    from .bench import measure_rl

    try:
        for n in [int(p) for p in players.split(",")]:
            _console().print_json(data=measure_rl(game, n, seconds).as_dict())
    except MayaGamesError as exc:
        _fail(str(exc))


def register(app: typer.Typer) -> None:
    """Add ``mayagames rl ...`` to the main command."""
    app.add_typer(rl_app, name="rl")

"""The ``mayagames`` command: play, replay, bench, games (and simulate, serve).

Run ``mayagames --help`` for the list; every sub-command has ``--help``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape

from .core.errors import MayaGamesError
from .core.record import GameRecord, iter_replay
from .core.registry import game_names, get_game

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Play and study Tikal Legend and Tzolk'in.")
console = Console(highlight=False)


def version_line() -> str:
    """``mayagames <version> (pure Python)``, or how many engine modules run compiled
    (the optional mypyc build: tools/build_compiled.py)."""
    from . import COMPILED_MODULES, __version__, compiled

    done = compiled()
    build = f"compiled: {len(done)} of {len(COMPILED_MODULES)} modules" if done else "pure Python"
    return f"mayagames {__version__} ({build})"


def _show_version(value: bool) -> None:
    if value:
        console.print(version_line())
        raise typer.Exit()


@app.callback()
def main_options(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_show_version,
                                 help="print the version and whether the compiled engine is in use"),
) -> None:
    """Play and study Tikal Legend and Tzolk'in."""


def parse_options(pairs: list[str]) -> dict:
    """``key=value`` pairs to an options dict (values parsed as JSON when possible)."""
    options: dict = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise typer.BadParameter(f"option {pair!r} must look like key=value")
        try:
            options[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            options[key.strip()] = value
    return options


def fail(message: str) -> None:
    console.print(f"[red]error:[/red] {message}")
    raise typer.Exit(2)


@app.command()
def games() -> None:
    """List the games and their options."""
    for name in game_names():
        info = get_game(name)
        console.print(f"[bold]{name}[/bold]: {info.title} "
                      f"({info.min_players}-{info.max_players} players, engine {info.version})")
        for spec in info.options:
            console.print(f"    {spec.name} (default {spec.default!r}): {spec.doc}")


@app.command()
def play(
    game: Optional[str] = typer.Argument(None, help="tikal or tzolkin"),
    players: str = typer.Option("human,random", help="comma-separated seats: human, random, ..."),
    seed: int = typer.Option(None, help="seed of the game (random if omitted)"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option key=value"),
    save: Optional[Path] = typer.Option(None, help="write the game record to this file"),
    load: Optional[Path] = typer.Option(None, help="resume a saved game record"),
) -> None:
    """Play a game in the terminal against humans and bots."""
    from .terminal import TerminalGame, new_record

    try:
        if load is not None:
            record = GameRecord.load(load)
            save = save or load
        else:
            if game is None:
                fail("name a game (tikal or tzolkin) or use --load FILE")
            import secrets
            record = new_record(game, players.split(","), seed if seed is not None
                                else secrets.randbelow(2**31), parse_options(option))
        TerminalGame(record, console=console, save_path=save).play()
    except (MayaGamesError, ValueError) as exc:
        fail(str(exc))


@app.command()
def replay(
    file: Path = typer.Argument(..., help="a game record (JSON)"),
    seat: Optional[int] = typer.Option(None, help="show the game as this seat saw it"),
    boards: bool = typer.Option(False, help="print the board after every move"),
) -> None:
    """Replay a game record, verify it, and show the moves and the final board."""
    try:
        from .terminal import show_narration

        record = GameRecord.load(file)
        state = before = record.new_state()
        names = [s.name for s in record.seats]
        for i, text, state in iter_replay(record):
            action = before.parse_action(text)
            told = before.info.narrate(before, action, state, seat).with_names(names)
            shown = before.public_notation(action, seat)
            show_narration(console, told, f"{i + 1:>4}. [dim]{escape(shown)}[/dim]  ")
            if boards:
                console.print(state.render(seat))
            before = state.clone()
        console.print(state.render(seat))
        if state.is_terminal:
            if record.result is not None and record.result != {"scores": state.scores(),
                                                               "winners": state.winners()}:
                fail(f"stored result {record.result} differs from the replay")
            console.print(f"scores {state.scores()}  winners {state.winners()}  (verified)")
        else:
            console.print(f"unfinished game: {len(record.moves)} moves replayed")
    except MayaGamesError as exc:
        fail(str(exc))


@app.command()
def bench(
    game: str = typer.Argument(..., help="tikal or tzolkin"),
    players: str = typer.Option("2,4", help="player counts to measure"),
    seconds: float = typer.Option(5.0, help="seconds of random play per player count"),
) -> None:
    """Random-play decisions/s, games/s and clone time (one core)."""
    from .core.bench import measure

    console.print(version_line())
    for n in [int(p) for p in players.split(",")]:
        figures = measure(game, n, seconds)
        console.print_json(data=figures.as_dict())


# Sub-commands living with their features (simulate, serve, ...): each module
# defines register(app) and keeps its heavy imports inside the command bodies. Each
# needs an extra of the package; without it its commands say what to install.
EXTENSIONS = {  # module -> (extra, its commands)
    "mayagames.arena.cli": ("arena", ("simulate", "report", "agents", "analyze")),
    "mayagames.server.cli": ("server", ("serve", "db")),
    "mayagames.rl.cli": ("rl", ("rl",)),
}
COMMAND_EXTRAS = {command: extra for extra, commands in EXTENSIONS.values() for command in commands}


def install_hint(extra: str, missing: str | None) -> str:
    return (f"this command needs the '{extra}' extra: pip install 'mayagames[{extra}]'"
            + (f" (missing module: {missing})" if missing else ""))


def _missing_extra(name: str, extra: str, commands: tuple[str, ...], missing: str | None) -> None:
    """Commands that only say which extra to install (their feature's imports failed)."""
    for command in commands:
        def stand_in(ctx: typer.Context) -> None:
            fail(escape(install_hint(extra, missing)))
        app.command(command, help=f"(needs pip install 'mayagames[{extra}]')",
                    context_settings={"allow_extra_args": True, "ignore_unknown_options": True,
                                      "help_option_names": []})(stand_in)


def _register_extensions() -> None:
    import importlib

    for name, (extra, commands) in EXTENSIONS.items():
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue  # that feature is not part of this checkout
            if exc.name and exc.name.split(".")[0] == "mayagames":
                raise
            _missing_extra(name, extra, commands, exc.name)
            continue
        module.register(app)


_register_extensions()


def main() -> None:
    import sys

    try:
        app()
    except ModuleNotFoundError as exc:  # a command's extra is not installed
        extra = COMMAND_EXTRAS.get(next((a for a in sys.argv[1:] if not a.startswith("-")), ""))
        if extra is None or (exc.name or "").split(".")[0] == "mayagames":
            raise
        console.print(f"[red]error:[/red] {escape(install_hint(extra, exc.name))}")
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()

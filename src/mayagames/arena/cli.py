"""Commands ``simulate``, ``report``, ``agents`` and ``analyze`` (added to ``mayagames`` by :func:`register`).

Heavy imports (numpy, matplotlib, openskill, ray) stay inside the command bodies.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

console = Console(highlight=False)


def _fail(message: str) -> None:
    console.print(f"[red]error:[/red] {escape(message)}", markup=True, highlight=False)
    raise typer.Exit(2)


def simulate(
    game: str = typer.Argument(..., help="tikal or tzolkin"),
    players: str = typer.Option(..., help="one agent spec per seat, e.g. mcts:1s,heuristic,random"),
    games: int = typer.Option(10, help="number of games"),
    jobs: int = typer.Option(0, help="parallel processes (0: all cores)"),
    seed: Optional[int] = typer.Option(None, help="run seed (random if omitted; printed)"),
    out: Optional[Path] = typer.Option(None, help="output directory (default runs/GAME-sSEED)"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option key=value"),
    duplicate: bool = typer.Option(False, help="the games of one seat rotation share a deal"),
    ray: Optional[str] = typer.Option(None, "--ray", help="run on Ray: 'local' or a cluster address"),
    report: bool = typer.Option(True, help="write the balance report into OUT/report"),
    overwrite: bool = typer.Option(False, help="replace the records of an earlier run in OUT"),
) -> None:
    """Play bots against each other (seats rotate) and write records, results and a report."""
    from ..cli import parse_options
    from ..core.errors import MayaGamesError
    from .tournament import default_jobs, plan_matches

    run_seed = seed if seed is not None else secrets.randbelow(2**31)
    try:
        tasks = plan_matches(game, players.split(","), games, run_seed, parse_options(option),
                             duplicate)
    except MayaGamesError as exc:
        _fail(str(exc))
        return
    out = out or Path("runs") / f"{tasks[0].game}-s{run_seed}"
    records_dir = out / "records"
    if records_dir.is_dir() and any(records_dir.glob("*.json")) and not overwrite:
        _fail(f"{records_dir} already holds records; choose another --out or pass --overwrite")
    jobs = jobs or default_jobs()
    console.print(f"{games} games of {tasks[0].game}, seed {run_seed}, "
                  f"{'ray ' + ray if ray else f'{jobs} process(es)'} -> {out}")
    write_record = _record_writer(records_dir, len(tasks), overwrite)
    try:
        results = _play_with_progress(tasks, jobs, ray, write_record)
    except MayaGamesError as exc:
        _fail(str(exc))
        return
    _write_run(out, tasks, results, run_seed, duplicate)
    _show_results(out, results, report)


def _record_writer(records_dir: Path, total: int, overwrite: bool):
    """A callback writing each game's record as soon as it is played (a long run that is
    interrupted keeps the games already played)."""
    records_dir.mkdir(parents=True, exist_ok=True)
    if overwrite:
        for old in records_dir.glob("game-*.json"):
            old.unlink()
    width = max(5, len(str(total)))

    def write(result) -> None:
        path = records_dir / f"game-{result.index + 1:0{width}d}.json"
        path.write_text(json.dumps(result.record, indent=1) + "\n", encoding="utf-8")
    return write


def _play_with_progress(tasks, jobs: int, ray: str | None, on_result=None):
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    from .tournament import run_matches

    columns = (TextColumn("[progress.description]{task.description}"), BarColumn(),
               MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=False) as progress:
        bar = progress.add_task("games", total=len(tasks))
        def advance(result) -> None:
            if on_result is not None:
                on_result(result)
            progress.advance(bar)
        return run_matches(tasks, jobs=jobs, ray_address=ray, on_result=advance)


def _write_run(out: Path, tasks, results, run_seed: int, duplicate: bool) -> None:
    """The run's summary (the records are written as the games end)."""
    summary: dict[str, Any] = {
        "game": tasks[0].game, "seed": run_seed, "games": len(tasks), "duplicate": duplicate,
        "agents": list(tasks[0].agents), "options": dict(tasks[0].options),
        "results": [{"index": r.index, "seed": tasks[r.index].seed, "seats": list(tasks[r.index].agents),
                     "result": r.record.get("result"), "seconds": round(r.seconds, 3),
                     "error": r.error} for r in results]}
    (out / "results.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")


def _show_results(out: Path, results, report: bool) -> None:
    from ..core.record import GameRecord
    from .analysis import load_records

    failed = [r for r in results if r.error]
    for r in failed:
        console.print(f"[red]game {r.index + 1} failed:[/red] "
                      f"{escape(r.error.strip().splitlines()[-1])}", markup=True)
    records = [(f"game {r.index + 1}", GameRecord.from_dict(r.record)) for r in results if not r.error]
    if not records:
        _fail("no game finished")
    loaded = load_records(records, check=False)
    print_tables(loaded)
    (out / "results.md").write_text(_results_markdown(loaded), encoding="utf-8")
    if report:
        from .report import write_report

        write_report(loaded, out / "report")
        console.print(f"report: {out / 'report' / 'report.md'} (and report.html)")
    console.print(f"records: {out / 'records'}")
    if failed:
        raise typer.Exit(1)


def _results_markdown(loaded) -> str:
    from .report import Section, rate_table, to_markdown
    from .analysis import agent_rates, seat_rates

    return to_markdown(f"Results: {loaded.game}", [
        Section("Agents", "", *rate_table(agent_rates(loaded.rows), "agent")),
        Section("Seats", "", *rate_table(seat_rates(loaded.rows), "seat"))]) + "\n"


def _short_ci(ci: tuple[float, float]) -> str:
    return f"{100 * ci[0]:.0f}-{100 * ci[1]:.0f}%"


def print_tables(loaded) -> None:
    """The results tables (agents with ratings, seat order) on the console."""
    from rich import box

    from .analysis import agent_rates, ratings, search_speed, seat_rates

    rating = {r.agent: r for r in ratings(loaded.rows)}
    speed = search_speed(loaded.rows)
    rows = agent_rates(loaded.rows)
    table = Table(title=f"{loaded.game}: {len(loaded.rows)} games", box=box.SIMPLE)
    table.add_column("agent", no_wrap=True, min_width=max(len(r.label) for r in rows))
    for column in ("seats", "win", "95% CI", "score", "mu±1.96σ", "ms/dec", "iter/s"):
        table.add_column(column, justify="right", no_wrap=True)
    for row in rows:
        r, s = rating[row.label], speed.get(row.label, {})
        table.add_row(row.label, str(row.seats), f"{100 * row.win_rate:.1f}%", _short_ci(row.ci),
                      f"{row.mean_score:.1f}", f"{r.mu:.1f}±{1.96 * r.sigma:.1f}",
                      f"{s.get('ms_per_decision', 0):.1f}",
                      f"{s['iterations_per_s']:.0f}" if s.get("iterations_per_s") else "-")
    console.print(table)
    seats = Table(title="seat order", box=box.SIMPLE)
    for column in ("seat", "games", "win", "95% CI", "score"):
        seats.add_column(column, justify="left" if column == "seat" else "right", no_wrap=True)
    for row in seat_rates(loaded.rows):
        seats.add_row(row.label, str(row.seats), f"{100 * row.win_rate:.1f}%", _short_ci(row.ci),
                      f"{row.mean_score:.1f}")
    console.print(seats)


def report(
    directory: Path = typer.Argument(..., help="a run directory (DIR/records/*.json) or a folder of records"),
    out: Optional[Path] = typer.Option(None, help="where to write the report (default DIR/report)"),
    verify: bool = typer.Option(True, help="replay and verify every record (needed for features)"),
) -> None:
    """Write a balance report (Markdown, HTML, PNG plots) from game records."""
    from ..core.errors import MayaGamesError
    from .analysis import load_directory
    from .report import write_report

    try:
        loaded = load_directory(directory, check=verify)
    except MayaGamesError as exc:
        _fail(str(exc))
        return
    for source, problem in loaded.problems:
        console.print(f"[yellow]skipped {escape(source)}:[/yellow] {escape(problem)}", markup=True)
    print_tables(loaded)
    target = out or directory / "report"
    paths = write_report(loaded, target)
    console.print(f"wrote {len(paths)} files to {target}: {', '.join(p.name for p in paths)}")


def agents() -> None:
    """List the agent specs and difficulty levels usable in --players."""
    from ..agents import AGENT_DOCS

    for name, doc in AGENT_DOCS.items():
        console.print(f"[bold]{name}[/bold]: {escape(doc)}", markup=True)
    console.print("human: a person at the terminal (play only)")


def register(app: typer.Typer) -> None:
    app.command()(simulate)
    app.command()(report)
    app.command()(agents)
    from .review_cli import analyze

    app.command()(analyze)

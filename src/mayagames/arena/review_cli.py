"""Command ``mayagames analyze``: review a finished game with the search bot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

console = Console(highlight=False)
DEFAULT_BUDGET = "1000i"


def analyze(
    record_file: Path = typer.Argument(..., metavar="RECORD", help="a game record (JSON)"),
    seat: Optional[list[int]] = typer.Option(None, "--seat", help="analyse this seat (repeatable; default all)"),
    budget: str = typer.Option(DEFAULT_BUDGET, help="search per decision: 2000i, 2s, 500ms or 2000i+2s"),
    jobs: int = typer.Option(1, help="parallel processes (0: all cores)"),
    seed: int = typer.Option(0, help="seed of the searches (with an iteration budget the review is reproducible)"),
    json_out: Optional[Path] = typer.Option(None, "--json", help="write the review (JSON) here"),
    ray: Optional[str] = typer.Option(None, "--ray", help="run on Ray: 'local' or a cluster address"),
) -> None:
    """For every decision: win probability and score margin before it, the bot's preferred
    move, and what the move played lost (from the deciding seat's view only)."""
    from ..core.errors import MayaGamesError
    from ..core.record import GameRecord
    from .review import Budget, analyse_record
    from .tournament import default_jobs

    try:
        record = GameRecord.load(record_file)
        parsed = Budget.parse(budget)
        review = _analyse_with_progress(record, parsed, seat or None, seed, jobs or default_jobs(),
                                        ray, analyse_record)
    except (MayaGamesError, OSError) as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}", markup=True)
        raise typer.Exit(2)
    show_review(review)
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps(review, indent=1) + "\n", encoding="utf-8")
        console.print(f"review written to {json_out}")


def _analyse_with_progress(record, budget, seats, seed, jobs, ray, analyse_record) -> dict[str, Any]:
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    columns = (TextColumn("[progress.description]{task.description}"), BarColumn(),
               MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=False) as progress:
        bar = progress.add_task("decisions", total=None)
        return analyse_record(record, budget, seats, seed, jobs, ray,
                              on_total=lambda n: progress.update(bar, total=n),
                              on_done=lambda review: progress.advance(bar))


def show_review(review: dict[str, Any]) -> None:
    """Per seat: accuracy, mean loss, counts, and its biggest losses; the turning points."""
    names = review["names"]
    summary = Table(title=f"{review['game']}: review at {review['budget']} per decision")
    for column in ("seat", "decisions", "accuracy", "mean loss", "blunders", "mistakes",
                   "inaccuracies"):
        summary.add_column(column, justify="left" if column == "seat" else "right")
    for p in review["players"]:
        summary.add_row(f"{p['seat']} {names[p['seat']]}", str(p["decisions"]), f"{p['accuracy']}%",
                        f"{100 * p['mean_loss']:.1f}%", str(p["blunders"]), str(p["mistakes"]),
                        str(p["inaccuracies"]))
    console.print(summary)
    for p in review["players"]:
        if not p["biggest_losses"]:
            continue
        table = Table(title=f"biggest losses of seat {p['seat']} ({names[p['seat']]})")
        for column in ("move", "played", "bot prefers", "loss"):
            table.add_column(column, justify="right" if column in ("move", "loss") else "left")
        for loss in p["biggest_losses"]:
            table.add_row(str(loss["move_number"]), escape(loss["played"]), escape(loss["best"] or ""),
                          f"{100 * loss['loss']:.1f}% {loss['label']}")
        console.print(table)
    for point in review["turning_points"]:
        console.print(f"turning point: move {point['index'] + 1} (seat {point['seat']}) "
                      f"{escape(point['played'])}: {100 * point['swing']:+.1f}% "
                      f"({'the bot prefers ' + escape(point['best']) if point['best'] else ''})")

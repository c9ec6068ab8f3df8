"""The balance report: Markdown and HTML pages with matplotlib plots (PNG).

:func:`write_report` turns loaded games (:mod:`.analysis`) into ``report.md``,
``report.html``, ``report.json`` and the plots ``ratings.png``, ``winrates.png``,
``seats.png``, ``scores.png`` and (when the game defines seat features)
``features.png``. Plots use matplotlib's object API on the Agg canvas, so no
display is needed and no global backend is changed.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np

from .analysis import (Loaded, RateRow, Rating, agent_rates, dump_summary, feature_rates,
                       head_to_head, ratings, search_speed, seat_rates)


@dataclass
class Section:
    """A titled part of the report: text, a table and/or a plot."""

    title: str
    text: str = ""
    headers: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    image: str | None = None


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def interval(ci: tuple[float, float]) -> str:
    return f"[{pct(ci[0])}, {pct(ci[1])}]"


def rate_table(rows: Sequence[RateRow], first: str) -> tuple[list[str], list[list[str]]]:
    headers = [first, "seats", "wins", "win rate", "95% CI", "mean score", "sd"]
    body = [[r.label, str(r.seats), f"{r.wins:g}", pct(r.win_rate), interval(r.ci),
             f"{r.mean_score:.1f}", f"{r.sd_score:.1f}"] for r in rows]
    return headers, body


# --- plots ---------------------------------------------------------------------------
def _figure(width: float = 7.0, height: float = 3.5):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def _rate_bars(ax, rows: Sequence[RateRow], fair: float | None, title: str) -> None:
    labels = [f"{r.label} (n={r.seats})" for r in rows]
    rates = [r.win_rate for r in rows]
    low = [r.win_rate - r.ci[0] for r in rows]
    high = [r.ci[1] - r.win_rate for r in rows]
    ax.barh(labels, rates, xerr=[low, high], color="#4c72b0", capsize=4)
    if fair is not None:
        ax.axvline(fair, color="#c44e52", linestyle="--", linewidth=1, label="fair share")
        ax.legend(loc="lower right", fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (95% bootstrap CI)")
    ax.set_title(title, fontsize=10)
    ax.invert_yaxis()


def plot_rates(rows: Sequence[RateRow], fair: float | None, title: str, path: Path) -> None:
    fig = _figure(7.0, 1.2 + 0.45 * len(rows))
    _rate_bars(fig.add_subplot(), rows, fair, title)
    fig.tight_layout()
    fig.savefig(path)


def plot_ratings(table: Sequence[Rating], path: Path) -> None:
    fig = _figure(7.0, 1.2 + 0.45 * len(table))
    ax = fig.add_subplot()
    labels = [r.agent for r in table]
    ax.errorbar([r.mu for r in table], labels, xerr=[1.96 * r.sigma for r in table],
                fmt="o", color="#4c72b0", capsize=4)
    ax.set_xlabel("openskill mu (95% interval: mu ± 1.96 sigma)")
    ax.set_title("Ratings", fontsize=10)
    ax.invert_yaxis()
    fig.tight_layout()
    fig.savefig(path)


def _horizontal() -> dict[str, object]:
    """Horizontal boxplots (``orientation`` from matplotlib 3.10, ``vert`` before)."""
    import matplotlib

    major, minor = (int(x) for x in matplotlib.__version__.split(".")[:2])
    return {"orientation": "horizontal"} if (major, minor) >= (3, 10) else {"vert": False}


def plot_scores(loaded: Loaded, path: Path) -> None:
    by_agent: dict[str, list[float]] = {}
    by_seat: dict[int, list[float]] = {}
    for row in loaded.rows:
        for seat, (agent, score) in enumerate(zip(row.agents, row.scores)):
            by_agent.setdefault(agent, []).append(score)
            by_seat.setdefault(seat, []).append(score)
    fig = _figure(9.0, 3.8)
    left, right = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    names = sorted(by_agent)
    left.boxplot([by_agent[n] for n in names], **_horizontal())
    left.set_yticks(range(1, len(names) + 1), names)
    left.set_title("Final scores by agent", fontsize=10)
    every = [score for scores in by_seat.values() for score in scores]
    bins = np.histogram_bin_edges(every, bins=min(20, max(5, len(set(every)))))
    for seat in sorted(by_seat):
        right.hist(by_seat[seat], bins=bins, alpha=0.5, label=f"seat {seat}")
    right.set_title("Final scores by seat", fontsize=10)
    right.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)


def plot_features(tables: dict[str, list[RateRow]], fair: float | None, path: Path) -> None:
    count = len(tables)
    tallest = max(len(rows) for rows in tables.values())
    fig = _figure(7.0, count * (1.2 + 0.45 * tallest))
    for i, (name, rows) in enumerate(sorted(tables.items())):
        _rate_bars(fig.add_subplot(count, 1, i + 1), rows, fair, f"Win rate by {name}")
    fig.tight_layout()
    fig.savefig(path)


# --- the report ---------------------------------------------------------------------
def fair_share(loaded: Loaded) -> float | None:
    counts = {row.num_players for row in loaded.rows}
    return 1.0 / counts.pop() if len(counts) == 1 else None


def build_sections(loaded: Loaded, out: Path) -> list[Section]:
    """Compute every table and draw every plot into ``out``."""
    rows, fair = loaded.rows, fair_share(loaded)
    sections = [Section("Games", _overview(loaded))]
    table = ratings(rows)
    plot_ratings(table, out / "ratings.png")
    sections.append(Section(
        "Ratings", "Openskill Plackett-Luce ratings over the games in order; ordinal = mu - 3 sigma.",
        ["agent", "games", "mu", "sigma", "95% interval", "ordinal"],
        [[r.agent, str(r.games), f"{r.mu:.2f}", f"{r.sigma:.2f}",
          f"[{r.ci[0]:.2f}, {r.ci[1]:.2f}]", f"{r.ordinal:.2f}"] for r in table], "ratings.png"))
    agents = agent_rates(rows)
    plot_rates(agents, fair, "Win rate by agent", out / "winrates.png")
    sections.append(Section("Win rates by agent", "A tie shares the win among the tied winners.",
                            *rate_table(agents, "agent"), image="winrates.png"))
    sections.append(_head_to_head_section(rows))
    seats = seat_rates(rows)
    plot_rates(seats, fair, "Win rate by seat order", out / "seats.png")
    sections.append(Section("Seat order", "Seat 0 is the first player.",
                            *rate_table(seats, "seat"), image="seats.png"))
    plot_scores(loaded, out / "scores.png")
    sections.append(Section("Score distributions", "Final scores by agent and by seat.",
                            image="scores.png"))
    sections.extend(_feature_sections(loaded, fair, out))
    sections.append(_speed_section(rows))
    if loaded.problems:
        sections.append(Section("Skipped files", "These files were not used:", ["file", "reason"],
                                [[s, p] for s, p in loaded.problems]))
    return sections


def _overview(loaded: Loaded) -> str:
    counts = sorted({row.num_players for row in loaded.rows})
    agents = sorted({a for row in loaded.rows for a in row.agents})
    return (f"Game **{loaded.game}**: {len(loaded.rows)} finished games "
            f"({', '.join(map(str, counts))} players), agents: {', '.join(agents)}. "
            f"{len(loaded.problems)} file(s) skipped. Intervals are 95%.")


def _head_to_head_section(rows) -> Section:
    pairs = head_to_head(rows)
    body = [[a, b, pct(v), str(n)] for (a, b), (v, n) in sorted(pairs.items())]
    return Section("Head to head", "How often an agent finished ahead of another in the same "
                   "game (ties count half).", ["agent", "opponent", "ahead", "meetings"], body)


def _feature_sections(loaded: Loaded, fair: float | None, out: Path) -> list[Section]:
    tables = feature_rates(loaded.rows)
    if not tables:
        return [Section("Seat features", f"The game {loaded.game} defines no seat features.")]
    plot_features(tables, fair, out / "features.png")
    sections = [Section(f"Win rate by {name}", "", *rate_table(rows, name))
                for name, rows in sorted(tables.items())]
    sections[-1].image = "features.png"
    return sections


def _speed_section(rows) -> Section:
    speed = search_speed(rows)
    body = [[agent, f"{s['ms_per_decision']:.1f}",
             f"{s['iterations_per_s']:.0f}" if s["iterations_per_s"] else "-"]
            for agent, s in sorted(speed.items())]
    return Section("Thinking time", "Mean time per decision and MCTS iterations per second.",
                   ["agent", "ms / decision", "iterations / s"], body)


def to_markdown(title: str, sections: Sequence[Section]) -> str:
    lines = [f"# {title}", ""]
    for s in sections:
        lines += [f"## {s.title}", ""]
        if s.text:
            lines += [s.text, ""]
        if s.headers:
            lines.append("| " + " | ".join(s.headers) + " |")
            lines.append("|" + "---|" * len(s.headers))
            lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in s.rows]
            lines.append("")
        if s.image:
            lines += [f"![{s.title}]({s.image})", ""]
    return "\n".join(lines)


def to_html(title: str, sections: Sequence[Section]) -> str:
    e = html.escape
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{e(title)}</title>",
             "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
             "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em}"
             "</style></head><body>", f"<h1>{e(title)}</h1>"]
    for s in sections:
        parts.append(f"<h2>{e(s.title)}</h2>")
        if s.text:
            text = e(s.text)
            while "**" in text:  # the one Markdown mark used in texts
                text = text.replace("**", "<b>", 1).replace("**", "</b>", 1)
            parts.append(f"<p>{text}</p>")
        if s.headers:
            parts.append("<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in s.headers) + "</tr>")
            parts += ["<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>" for row in s.rows]
            parts.append("</table>")
        if s.image:
            parts.append(f"<p><img src='{e(s.image)}' alt='{e(s.title)}'></p>")
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(loaded: Loaded, out: Path) -> list[Path]:
    """Write the report files into ``out``; returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    sections = build_sections(loaded, out)
    title = f"Balance report: {loaded.game}"
    (out / "report.md").write_text(to_markdown(title, sections) + "\n", encoding="utf-8")
    (out / "report.html").write_text(to_html(title, sections) + "\n", encoding="utf-8")
    dump_summary(loaded, out / "report.json")
    names = ["report.md", "report.html", "report.json"] + [s.image for s in sections if s.image]
    return [out / n for n in names]

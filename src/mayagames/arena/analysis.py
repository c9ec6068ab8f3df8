"""Statistics of a set of finished games: ratings, win rates, seat order, features.

Inputs are game records (from a run directory or in memory). Each seat of a game
is one observation: its agent spec, seat number, final score and *win share*
(1 split among the winners, 0 otherwise). Intervals are 95%:

* ratings: openskill Plackett-Luce (``mu``, ``sigma``), interval ``mu ± 1.96 sigma``;
* win rates (by agent, by seat, by seat feature): percentile bootstrap over
  *games* (a game's seats are not independent: their shares sum to 1);
* :func:`wilson_interval` for plain binomial counts (benchmarks).
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from ..core.errors import MayaGamesError
from ..core.record import GameRecord, verify
from ..core.registry import get_game
from .tournament import ArenaError, final_features

Z95 = 1.959963984540054
BOOTSTRAP_SAMPLES = 2000


@dataclass
class GameRow:
    """One finished game, as the statistics need it."""

    source: str
    order: tuple[int, str]  # arena index (when known), then file name: the rating order
    num_players: int
    agents: list[str]
    scores: list[float]
    winners: list[int]
    features: list[dict[str, str]] | None = None
    agent_stats: list[dict[str, Any]] = field(default_factory=list)

    def share(self, seat: int) -> float:
        return 1.0 / len(self.winners) if seat in self.winners else 0.0


@dataclass
class Loaded:
    """Games that could be used, and the files that could not (with why)."""

    game: str
    rows: list[GameRow]
    problems: list[tuple[str, str]]


# --- loading ---------------------------------------------------------------------
def record_files(directory: Path) -> list[Path]:
    """The record files of a run directory (``DIR/records/*.json`` or ``DIR/*.json``)."""
    if not directory.is_dir():
        raise ArenaError(f"{directory} is not a directory")
    sub = directory / "records"
    files = sorted((sub if sub.is_dir() else directory).glob("*.json"))
    return [f for f in files if f.name not in ("results.json",)]


def row_from_record(record: GameRecord, source: str, check: bool = True) -> GameRow:
    """A row from a finished record; with ``check`` the record is replayed and verified.

    Raises MayaGamesError (RecordError) for an unfinished or inconsistent record.
    """
    if record.result is None:
        raise ArenaError("unfinished game (no result)" + (
            f": {record.meta['error'].strip().splitlines()[-1]}" if record.meta.get("error") else ""))
    features = record.meta.get("features")
    if check:
        features = final_features(verify(record))
    arena = record.meta.get("arena", {})
    return GameRow(source=source, order=(int(arena.get("index", -1)), source),
                   num_players=record.num_players, agents=[s.agent for s in record.seats],
                   scores=[float(x) for x in record.result["scores"]],
                   winners=[int(w) for w in record.result["winners"]],
                   features=features, agent_stats=list(record.meta.get("agents", [])))


def load_records(records: Iterable[tuple[str, GameRecord | Exception]], check: bool = True) -> Loaded:
    """Rows from ``(source, record or loading error)`` pairs; one game only."""
    rows: list[GameRow] = []
    problems: list[tuple[str, str]] = []
    games: set[str] = set()
    for source, record in records:
        if isinstance(record, Exception):
            problems.append((source, str(record)))
            continue
        try:
            rows.append(row_from_record(record, source, check))
            games.add(record.game)
        except (MayaGamesError, ValueError, KeyError, TypeError) as exc:
            problems.append((source, str(exc)))
    if len(games) > 1:
        raise ArenaError(f"records of several games ({sorted(games)}); report one game at a time")
    if not rows:
        detail = "; ".join(f"{s}: {p}" for s, p in problems[:5])
        raise ArenaError("no finished game records to report on" + (f" ({detail})" if detail else ""))
    rows.sort(key=lambda r: r.order)
    return Loaded(get_game(games.pop()).name, rows, problems)


def read_records(directory: Path) -> list[tuple[str, GameRecord | Exception]]:
    """Every record file of a directory, parsed (a damaged file gives its error)."""
    out: list[tuple[str, GameRecord | Exception]] = []
    for path in record_files(directory):
        try:
            out.append((path.name, GameRecord.load(path)))
        except (MayaGamesError, OSError, UnicodeDecodeError) as exc:
            out.append((path.name, exc))
    return out


def load_directory(directory: Path, check: bool = True) -> Loaded:
    return load_records(read_records(directory), check)


# --- intervals ---------------------------------------------------------------------
def wilson_interval(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def bootstrap_ratio(numerators: Sequence[float], denominators: Sequence[float],
                    seed: int = 0, samples: int = BOOTSTRAP_SAMPLES) -> tuple[float, float]:
    """Percentile bootstrap interval of sum(num)/sum(den), resampling clusters (games)."""
    num = np.asarray(numerators, dtype=float)
    den = np.asarray(denominators, dtype=float)
    if len(num) == 0:
        return (0.0, 1.0)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(num), size=(samples, len(num)))
    totals = den[idx].sum(axis=1)
    ratios = np.divide(num[idx].sum(axis=1), totals, out=np.full(samples, np.nan), where=totals > 0)
    lo, hi = np.nanpercentile(ratios, [2.5, 97.5])
    return (float(lo), float(hi))


# --- tables ------------------------------------------------------------------------
@dataclass
class RateRow:
    """A win rate (with its interval) and score summary of one group of seats."""

    label: str
    seats: int
    wins: float
    win_rate: float
    ci: tuple[float, float]
    mean_score: float
    sd_score: float
    extra: dict[str, Any] = field(default_factory=dict)


SeatKey = Callable[[GameRow, int], Any]


def as_keys(key: Any) -> list[Any]:
    """A seat's group keys: none, one, or several (a list-valued feature such as the
    two starting tiles of a seat puts the seat in the group of each)."""
    if key is None:
        return []
    if isinstance(key, (list, tuple, set, frozenset)):
        return sorted(set(key), key=str)
    return [key]


def rate_rows(rows: Sequence[GameRow], key_of_seat: SeatKey, seed: int = 0) -> list[RateRow]:
    """Group every seat by ``key_of_seat(row, seat)`` (None: skip); one RateRow per group."""
    per_game: dict[Any, tuple[list[float], list[float]]] = defaultdict(lambda: ([], []))
    scores: dict[Any, list[float]] = defaultdict(list)
    for g, row in enumerate(rows):
        found: dict[Any, list[float]] = defaultdict(lambda: [0.0, 0.0])
        for seat in range(row.num_players):
            for key in as_keys(key_of_seat(row, seat)):
                found[key][0] += row.share(seat)
                found[key][1] += 1
                scores[key].append(row.scores[seat])
        for key, (share, count) in found.items():
            per_game[key][0].append(share)
            per_game[key][1].append(count)
    out = []
    for i, key in enumerate(sorted(per_game, key=str)):
        shares, counts = per_game[key]
        values = np.asarray(scores[key])
        out.append(RateRow(label=str(key), seats=int(sum(counts)), wins=float(sum(shares)),
                           win_rate=sum(shares) / sum(counts),
                           ci=bootstrap_ratio(shares, counts, seed=seed + i),
                           mean_score=float(values.mean()),
                           sd_score=float(values.std(ddof=1)) if len(values) > 1 else 0.0))
    return out


def agent_rates(rows: Sequence[GameRow]) -> list[RateRow]:
    return rate_rows(rows, lambda row, seat: row.agents[seat])


def seat_rates(rows: Sequence[GameRow]) -> list[RateRow]:
    """Win rate by seat order (seat 0 moves first), per player count."""
    counts = {row.num_players for row in rows}
    if len(counts) == 1:
        return rate_rows(rows, lambda row, seat: f"seat {seat}")
    return rate_rows(rows, lambda row, seat: f"{row.num_players}p seat {seat}")


def feature_rates(rows: Sequence[GameRow]) -> dict[str, list[RateRow]]:
    """Win rate by each value of each seat feature (e.g. Tikal director power).

    A feature value may be a list of strings (e.g. a seat's starting tiles): the seat
    then counts in the group of each of them.
    """
    names = sorted({name for row in rows if row.features for f in row.features for name in f})

    def key(name: str) -> SeatKey:
        return lambda row, seat: (row.features[seat].get(name) if row.features else None)

    return {name: rate_rows(rows, key(name)) for name in names}


@dataclass
class Rating:
    agent: str
    mu: float
    sigma: float
    games: int

    @property
    def ci(self) -> tuple[float, float]:
        return (self.mu - Z95 * self.sigma, self.mu + Z95 * self.sigma)

    @property
    def ordinal(self) -> float:
        """A conservative skill estimate: mu - 3 sigma (the usual leaderboard value)."""
        return self.mu - 3 * self.sigma


def finishing_ranks(row: GameRow) -> list[int]:
    """Ranks for the rating (0 best): winners first, then the rest by score."""
    others = sorted({-row.scores[s] for s in range(row.num_players) if s not in row.winners})
    return [0 if s in row.winners else 1 + others.index(-row.scores[s])
            for s in range(row.num_players)]


def ratings(rows: Sequence[GameRow]) -> list[Rating]:
    """Openskill (Plackett-Luce) ratings over the games in order, best ``mu`` first.

    An agent in several seats of one game (self-play) gets the mean of its updates.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current: dict[str, Any] = {}
    games: dict[str, int] = defaultdict(int)
    for row in rows:
        teams = [[current.setdefault(a, model.rating(name=a))] for a in row.agents]
        updated = model.rate(teams, ranks=finishing_ranks(row))
        by_agent: dict[str, list[Any]] = defaultdict(list)
        for agent, team in zip(row.agents, updated):
            by_agent[agent].append(team[0])
        for agent, news in by_agent.items():
            current[agent] = model.rating(mu=float(np.mean([r.mu for r in news])),
                                          sigma=float(np.mean([r.sigma for r in news])), name=agent)
            games[agent] += 1
    out = [Rating(a, float(r.mu), float(r.sigma), games[a]) for a, r in current.items()]
    return sorted(out, key=lambda r: -r.mu)


def head_to_head(rows: Sequence[GameRow]) -> dict[tuple[str, str], tuple[float, int]]:
    """For agents A != B met in a game: (A's share of finishing ahead of B, meetings)."""
    tally: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0])
    for row in rows:
        ranks = finishing_ranks(row)
        for a in range(row.num_players):
            for b in range(row.num_players):
                if a == b or row.agents[a] == row.agents[b]:
                    continue
                ahead = 1.0 if ranks[a] < ranks[b] else 0.5 if ranks[a] == ranks[b] else 0.0
                t = tally[(row.agents[a], row.agents[b])]
                t[0] += ahead
                t[1] += 1
    return {pair: (t[0] / t[1], int(t[1])) for pair, t in tally.items()}


def search_speed(rows: Sequence[GameRow]) -> dict[str, dict[str, float]]:
    """Per agent: mean thinking time per decision and search iterations per second."""
    acc: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    for row in rows:
        for stat in row.agent_stats:
            a = acc[str(stat.get("agent"))]
            a[0] += float(stat.get("think_seconds", 0.0))
            a[1] += float(stat.get("decisions", 0))
            a[2] += float(stat.get("iterations", 0))
            a[3] += float(stat.get("search_seconds", 0.0))
    return {agent: {"ms_per_decision": 1000 * a[0] / a[1] if a[1] else 0.0,
                    "iterations_per_s": a[2] / a[3] if a[3] else 0.0}
            for agent, a in acc.items()}


def summary(loaded: Loaded) -> dict[str, Any]:
    """Every statistic, JSON-ready (written as ``report.json``)."""
    rows = loaded.rows

    def rate(r: RateRow) -> dict[str, Any]:
        return {"label": r.label, "seats": r.seats, "wins": r.wins, "win_rate": r.win_rate,
                "ci95": list(r.ci), "mean_score": r.mean_score, "sd_score": r.sd_score}

    return {
        "game": loaded.game, "games": len(rows),
        "skipped": [{"file": s, "reason": p} for s, p in loaded.problems],
        "ratings": [{"agent": r.agent, "mu": r.mu, "sigma": r.sigma, "ci95": list(r.ci),
                     "ordinal": r.ordinal, "games": r.games} for r in ratings(rows)],
        "agents": [rate(r) for r in agent_rates(rows)],
        "seats": [rate(r) for r in seat_rates(rows)],
        "features": {name: [rate(r) for r in table] for name, table in feature_rates(rows).items()},
        "head_to_head": [{"agent": a, "opponent": b, "ahead": v, "meetings": n}
                         for (a, b), (v, n) in sorted(head_to_head(rows).items())],
        "speed": search_speed(rows),
    }


def dump_summary(loaded: Loaded, path: Path) -> None:
    path.write_text(json.dumps(summary(loaded), indent=1) + "\n", encoding="utf-8")

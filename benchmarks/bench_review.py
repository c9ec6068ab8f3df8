"""Quality of the game review's estimates (``mayagames analyze``), measured, never asserted.

1. **Calibration.** N heuristic-vs-heuristic games per game (2 players unless ``--players``,
   seats rotating);
   in each, ``--decisions`` decisions with a choice are sampled (spread over the game, from
   a generator seeded by the game's index) and analysed at ``--budget`` iterations from the
   deciding seat's view. Each estimate (the decision's win probability) is paired with what
   happened (1 if that seat won, 1/2 on a shared win, 0 otherwise). The estimates are binned
   (0-0.1, ..., 0.9-1) and each bin's mean estimate is set against its observed win rate
   (95% Wilson interval), with the Brier score and the expected calibration error (ECE).
2. **Agreement.** On every ``--agree-every``-th sampled decision the analysis is run again
   with ``10x`` the budget (another seed): how often the preferred move is the same, and the
   mean absolute difference of the win probabilities.

Writes ``OUT/review_quality.json``, ``OUT/review_quality.md`` and one calibration plot per
game (``OUT/calibration_GAME.png``)::

    .venv/bin/python benchmarks/bench_review.py --games 200 --decisions 2 --budget 200 --jobs 2 --log runs/rq.jsonl
    .venv/bin/python benchmarks/bench_review.py --summary --log runs/rq.jsonl   # a partial run's figures
    .venv/bin/python benchmarks/bench_review.py --games 200 --decisions 10 --budget 2000 --jobs 32  # larger
    .venv/bin/python benchmarks/bench_review.py --game tzolkin --fit-sharpness --log runs/rq-seed2.jsonl

``--fit-sharpness`` prints the sharpness (``arena.review.calibrated``: the factor on the
log-odds of the win chances) that minimises the log loss of a log's win chances, per game,
number of players and stage of the game (``agents.hooks.review_stage``, logged with each
decision), for the game's ``data/review_calibration.json``; fit it on a run of another ``--seed`` than the one
that measures it (the figures shipped are of ``--seed 1``). Its win chances are taken as
logged, so a log of a calibrated review gives the factor on top of the shipped one.

Every figure is a pure function of the arguments (iteration budgets, derived seeds), so a
run is reproducible whatever ``--jobs``. Run again with the same arguments and ``--log``, a
stopped run goes on where it stopped.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from mayagames.agents.hooks import review_stage
from mayagames.arena.analysis import wilson_interval
from mayagames.arena.review import Budget, analyse_decision, calibrated, decision_tasks
from mayagames.arena.tournament import plan_matches, play_match
from mayagames.core.record import GameRecord
from mayagames.core.rng import Rng, derive_seed

BINS = 10


def outcome(result: dict[str, Any], seat: int) -> float:
    winners = result["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0


def measure_game(game: str, index: int, task_args: dict[str, Any]) -> dict[str, Any]:
    """Play game ``index`` and analyse its sampled decisions (run in a worker)."""
    start = time.process_time()
    seats = task_args.get("players", 2)
    task = plan_matches(game, [task_args["agent"]] * seats, index + 1, task_args["seed"])[index]
    played = play_match(task)
    if played.error:
        return {"game": game, "index": index, "error": played.error.splitlines()[-1], "rows": []}
    record = GameRecord.from_dict(played.record)
    play_cpu = time.process_time() - start
    tasks = [t for t in decision_tasks(record, None, derive_seed(task_args["seed"], "rq", index))
             if len(t.view.legal_actions()) > 1]
    rng = Rng(derive_seed(task_args["seed"], "sample", game, index))
    k = task_args["decisions"]
    chosen = sorted({int(len(tasks) * (j + rng.random()) / k) for j in range(k)})
    budget = Budget(task_args["budget"])
    rows = []
    for position, i in enumerate(chosen):
        decision = tasks[i]
        review = analyse_decision(decision, budget)
        row = {"index": decision.index, "seat": decision.seat, "win_prob": review.win_prob,
               "stage": review_stage(decision.view.info, decision.view),
               "margin": review.margin, "best": review.best, "played": decision.played,
               "outcome": outcome(record.result, decision.seat),
               "final_margin": _margin(record.result["scores"], decision.seat),
               "progress": round(decision.index / len(record.moves), 3)}
        if (index * k + position) % task_args["agree_every"] == 0:
            big = Budget(task_args["budget"] * 10)
            again = analyse_decision(type(decision)(decision.index, decision.seat, decision.turn,
                                                    decision.view, decision.played,
                                                    derive_seed(decision.seed, "10x")), big)
            row.update(big_best=again.best, big_win_prob=again.win_prob, legal=review.legal)
        rows.append(row)
    return {"game": game, "index": index, "players": seats, "rows": rows, "play_cpu": play_cpu,
            "cpu": time.process_time() - start}


def _margin(scores: list[float], seat: int) -> float:
    others = [v for s, v in enumerate(scores) if s != seat]
    return float(scores[seat] - max(others))


def calibration(rows: list[dict[str, Any]]) -> dict[str, Any]:
    bins = []
    for b in range(BINS):
        low, high = b / BINS, (b + 1) / BINS
        inside = [r for r in rows if low <= r["win_prob"] < high or (b == BINS - 1 and r["win_prob"] == 1.0)]
        if not inside:
            continue
        wins = sum(r["outcome"] for r in inside)
        ci = wilson_interval(wins, len(inside))
        bins.append({"bin": f"{low:.1f}-{high:.1f}", "n": len(inside),
                     "mean_predicted": round(sum(r["win_prob"] for r in inside) / len(inside), 3),
                     "observed": round(wins / len(inside), 3),
                     "ci": [round(ci[0], 3), round(ci[1], 3)]})
    n = len(rows)
    brier = sum((r["win_prob"] - r["outcome"]) ** 2 for r in rows) / n
    ece = sum(b["n"] * abs(b["mean_predicted"] - b["observed"]) for b in bins) / n
    base = sum(r["outcome"] for r in rows) / n
    return {"n": n, "brier": round(brier, 4), "brier_constant": round(base * (1 - base), 4),
            "ece": round(ece, 4), "bins": bins}


def agreement(rows: list[dict[str, Any]]) -> dict[str, Any]:
    pairs = [r for r in rows if "big_best" in r]
    if not pairs:
        return {"n": 0}
    same = sum(r["big_best"] == r["best"] for r in pairs)
    ci = wilson_interval(same, len(pairs))
    return {"n": len(pairs), "agree": same, "rate": round(same / len(pairs), 3),
            "ci": [round(ci[0], 3), round(ci[1], 3)],
            "mean_legal": round(sum(r["legal"] for r in pairs) / len(pairs), 1),
            "mean_abs_win_prob_diff": round(sum(abs(r["big_win_prob"] - r["win_prob"])
                                                for r in pairs) / len(pairs), 4)}


def plot(game: str, cal: dict[str, Any], path: Path, budget: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 5))
    ax.plot([0, 1], [0, 1], color="#999", linestyle="--", label="perfect calibration")
    xs = [b["mean_predicted"] for b in cal["bins"]]
    ys = [b["observed"] for b in cal["bins"]]
    errors = [[y - b["ci"][0] for y, b in zip(ys, cal["bins"])],
              [b["ci"][1] - y for y, b in zip(ys, cal["bins"])]]
    ax.errorbar(xs, ys, yerr=errors, marker="o", capsize=3, label="observed win rate (95% CI)")
    for x, y, b in zip(xs, ys, cal["bins"]):
        ax.annotate(str(b["n"]), (x, y), textcoords="offset points", xytext=(6, -12), fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("predicted win probability (review, %di)" % budget)
    ax.set_ylabel("observed win rate")
    ax.set_title(f"{game}: calibration, {cal['n']} decisions (Brier {cal['brier']}, ECE {cal['ece']})",
                 fontsize=9)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def markdown(summary: dict[str, Any]) -> str:
    lines = [f"# Review quality: {summary['args']}", ""]
    for game, figures in summary["games"].items():
        cal, agr = figures["calibration"], figures["agreement"]
        lines += [f"## {game}: {figures['games']} games, {cal['n']} decisions",
                  "", f"Brier score {cal['brier']} (a constant guess: {cal['brier_constant']}), "
                  f"ECE {cal['ece']}.", "",
                  "| predicted | decisions | mean predicted | observed win rate | 95% CI |",
                  "|---|---|---|---|---|"]
        lines += [f"| {b['bin']} | {b['n']} | {b['mean_predicted']} | {b['observed']} | "
                  f"{b['ci'][0]}-{b['ci'][1]} |" for b in cal["bins"]]
        if agr["n"]:
            lines += ["", f"Agreement with a 10x search: {agr['agree']}/{agr['n']} = {agr['rate']} "
                          f"[{agr['ci'][0]}, {agr['ci'][1]}] (mean {agr['mean_legal']} legal moves); "
                          f"mean |win probability difference| {agr['mean_abs_win_prob_diff']}.", ""]
        lines += [f"CPU: {figures['cpu_s']} s in all ({figures['play_cpu_s']} s playing the games).", ""]
    return "\n".join(lines) + "\n"


def summarise(results: list[dict[str, Any]], games: list[str], out: Path, args_text: str,
              budget: int) -> dict[str, Any]:
    """Figures, plots and the Markdown page from the per-game results (possibly partial)."""
    summary: dict[str, Any] = {"args": args_text, "games": {}}
    for game in games:
        mine = [r for r in results if r["game"] == game]
        if not mine:
            continue
        rows = [row for r in mine for row in r["rows"]]
        errors = [r["error"] for r in mine if r.get("error")]
        figures = {"games": len(mine) - len(errors), "errors": errors,
                   "calibration": calibration(rows), "agreement": agreement(rows),
                   "cpu_s": round(sum(r.get("cpu", 0) for r in mine), 1),
                   "play_cpu_s": round(sum(r.get("play_cpu", 0) for r in mine), 1), "rows": rows}
        summary["games"][game] = figures
        plot(game, figures["calibration"], out / f"calibration_{game}.png", budget)
        print(game, json.dumps({k: v for k, v in figures.items() if k != "rows"}))
    (out / "review_quality.json").write_text(json.dumps(summary, indent=1) + "\n")
    (out / "review_quality.md").write_text(markdown(summary))
    return summary


def logged_results(log: Path) -> list[dict[str, Any]]:
    """The games an earlier run already wrote to ``log``: run again with the same arguments,
    a stopped run goes on where it stopped (every game is a pure function of its index)."""
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


def log_loss(rows: list[dict[str, Any]], sharpness: float) -> float:
    """Mean log loss of the rows' win chances sharpened by ``sharpness`` (a shared win
    counts half)."""
    total = 0.0
    for row in rows:
        p = min(max(calibrated(row["win_prob"], sharpness), 1e-6), 1 - 1e-6)
        total -= row["outcome"] * math.log(p) + (1 - row["outcome"]) * math.log(1 - p)
    return total / len(rows)


def fit_sharpness(rows: list[dict[str, Any]]) -> float:
    """The sharpness in 0.25..5 (steps of 0.01) of the least log loss over ``rows``."""
    return min((k / 100 for k in range(25, 501)), key=lambda k: log_loss(rows, k))


def print_sharpness(results: list[dict[str, Any]], games: list[str]) -> None:
    """The best sharpness per game and number of players, for the whole game and per stage
    (``agents.hooks.review_stage``: Tzolk'in's Food Days held), with its log loss."""
    for game in games:
        for players in sorted({r.get("players", 2) for r in results if r["game"] == game}):
            mine = [row for r in results if r["game"] == game and r.get("players", 2) == players
                    for row in r["rows"] if row.get("win_prob") is not None]
            groups = [("the whole game", mine)] + [
                (f"stage {s}", [row for row in mine if row.get("stage") == s])
                for s in sorted({row["stage"] for row in mine if "stage" in row})]
            for name, group in groups:
                if group:
                    k = fit_sharpness(group)
                    print(f"{game}, {players} players, {name}: sharpness {k:.2f} on {len(group)} decisions "
                          f"(log loss {log_loss(group, 1.0):.4f} as logged, {log_loss(group, k):.4f} sharpened)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="tikal, tzolkin (default both)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--agent", default="heuristic")
    parser.add_argument("--players", type=int, default=2, help="players per game")
    parser.add_argument("--decisions", type=int, default=2, help="decisions sampled per game")
    parser.add_argument("--budget", type=int, default=200, help="review iterations per decision")
    parser.add_argument("--agree-every", type=int, default=4, help="10x search on every k-th decision")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("docs/review_quality"))
    parser.add_argument("--log", type=Path, help="append each game's results here (JSON lines) "
                        "as it ends; with --summary, only summarise that log")
    parser.add_argument("--summary", action="store_true", help="summarise --log (a run in progress or stopped)")
    parser.add_argument("--fit-sharpness", action="store_true",
                        help="print the sharpness that calibrates --log's win chances best, per game, players and stage")
    args = parser.parse_args()
    games = args.game or ["tikal", "tzolkin"]
    if args.fit_sharpness:
        if args.log is None:
            parser.error("--fit-sharpness needs --log")
        print_sharpness(logged_results(args.log), games)
        return
    args_text = " ".join(f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items()
                         if k not in ("out", "game", "log", "summary", "fit_sharpness")) + f" (games: {', '.join(games)})"
    args.out.mkdir(parents=True, exist_ok=True)
    if args.summary:
        results = [json.loads(line) for line in args.log.read_text().splitlines() if line.strip()]
        summarise(results, games, args.out, args_text + f"; {len(results)} games in the log",
                  args.budget)
        return
    task_args = {"agent": args.agent, "players": args.players, "decisions": args.decisions, "budget": args.budget,
                 "agree_every": args.agree_every, "seed": args.seed}
    # The games alternate between the games, so a run stopped early is balanced.
    work = [(game, index) for index in range(args.games) for game in games]
    results = logged_results(args.log) if args.log else []
    done = {(r["game"], r["index"]) for r in results}
    if done:
        print(f"{len(done)} games already in {args.log}: going on from there")
    work = [(game, index) for game, index in work if (game, index) not in done]
    with ProcessPoolExecutor(args.jobs, mp_context=get_context("spawn")) as pool:
        futures = [pool.submit(measure_game, game, index, task_args) for game, index in work]
        for future in as_completed(futures):
            result = future.result()
            results.append(result)
            if args.log:
                with args.log.open("a") as log:
                    log.write(json.dumps(result) + "\n")
    summarise(results, games, args.out, args_text, args.budget)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

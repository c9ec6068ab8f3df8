"""Gross-error audit of the bots (issue 21): what a strong player would never do, counted.

    .venv/bin/python benchmarks/bench_audit.py tzolkin --level medium --games 40 --jobs 2
    .venv/bin/python benchmarks/bench_audit.py tzolkin --players hard/medium --games 4 --log runs/a.jsonl
    .venv/bin/python benchmarks/bench_audit.py tikal --level medium --games 20
    .venv/bin/python benchmarks/bench_audit.py --summary --log runs/a.jsonl

Game ``i`` has seed ``seed + i`` and the seats rotated by ``i`` (with ``--players A,B``;
``--duplicate``: seed ``seed + i // seats``, so that each deal is played from every seat);
``--level L`` is self-play of one spec or level. ``--log FILE`` appends one JSON line per
game as it ends; a rerun with the same log skips the games already there (resumable), and
``--summary --log FILE`` prints the table of a (partial) run.

Counted per seat and game (rates are per decision with a choice):

Tzolk'in
  unfed        workers left unfed at the Food Days (3 VP each)
  nothing      a picked-up worker does nothing although it had an action
  pick_empty   a worker picked up from a space without an action (the gear's entry)
  beg          begging for corn (a temple step down)
  anger        angering the gods (a temple step down)
  skulls_end   crystal skulls still held at the end (3 VP; 4-13 on Chichen Itza)
  goods_end_vp VP of corn and blocks held at the end (market rate: spent, they score more)
  profile      final score, VP track, buildings + monuments, temple steps, technology levels,
               workers at the end
  use          how the seat uses its workers: actions (worker actions a game: every action
               performed, picked-up workers' and Uxmal 5's alike), placed/turn (workers
               placed a placement turn) and idle (workers left in front of the seat at the end
               of its placement turns, summed over the game)
Tikal
  end_ap       an AP turn ended with AP unspent although AP actions were open
  ap_lost      the AP so lost
  end_ap_score the same during a scoring's 10-AP turn (In-Game or Final Scoring)
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from collections import defaultdict
from typing import Any, Iterable

from mayagames.agents import make_agent
from mayagames.core import new_game

TZ_KEYS = ("unfed", "nothing", "pick_empty", "beg", "anger", "skulls_end", "goods_end_vp")
TZ_PROFILE = ("score", "vp_track", "buildings", "temple_steps", "techs", "workers")
TZ_USE = ("actions", "placed/turn", "idle")  # how the workers are used (tally_tzolkin)
TK_KEYS = ("end_ap", "ap_lost", "end_ap_score")
TK_PROFILE = ("score",)
# categories that are errors counted per decision (the "<= 2% of decisions")
RATE_KEYS = {"tzolkin": ("nothing", "pick_empty", "beg", "anger"), "tikal": ("end_ap", "end_ap_score")}


def play(args: tuple[str, int, int, tuple[str, ...]]) -> dict[str, Any]:
    """One audited game: per seat its spec, counts and profile."""
    game, index, seed, specs = args
    n = len(specs)
    shift = index % n
    seats = specs[shift:] + specs[:shift]
    agents = [make_agent(spec, seed * 16 + s) for s, spec in enumerate(seats)]
    s: Any = new_game(game, n, seed=seed)
    counts: list[defaultdict[str, float]] = [defaultdict(float) for _ in range(n)]
    think = [0.0] * n
    food = 0
    start = time.perf_counter()
    while (seat := s.current_player) is not None:
        legal = s.legal_actions()
        t0 = time.perf_counter()
        action = agents[seat].act(s.view(seat), legal)
        think[seat] += time.perf_counter() - t0
        c = counts[seat]
        c["decisions"] += 1
        if game == "tzolkin":
            tally_tzolkin(s, action, c)
        if len(legal) > 1:
            c["choices"] += 1
            (audit_tzolkin if game == "tzolkin" else audit_tikal)(s, action, legal, c)
        s.apply(action)
        if game == "tzolkin" and s.food_done != food:
            food = s.food_done
            for q, unfed in enumerate(s.last_unfed):
                counts[q]["unfed"] += unfed
    scores = s.scores()
    winners = s.winners()
    out = []
    for q in range(n):
        c = counts[q]
        c["score"] = scores[q]
        c["won"] = 1.0 / len(winners) if q in winners else 0.0
        c["think_s"] = think[q]
        if game == "tzolkin":
            final_tzolkin(s, q, c)
        out.append({"spec": seats[q], **{k: round(v, 4) for k, v in c.items()}})
    return {"game": game, "index": index, "seed": seed, "seconds": round(time.perf_counter() - start, 2),
            "seats": out}


def audit_tzolkin(s: Any, action: Any, legal: list, c: dict) -> None:
    from mayagames.tzolkin.actions import Anger, Beg, Nothing, Pick
    if isinstance(action, Nothing):
        c["nothing"] += 1
    elif isinstance(action, Pick) and action.space == 0:
        c["pick_empty"] += 1
    elif isinstance(action, Beg):
        c["beg"] += 1
    elif isinstance(action, Anger):
        c["anger"] += 1


def tally_tzolkin(s: Any, action: Any, c: dict) -> None:
    """How a seat uses its workers (every decision, forced ones too): the actions its workers
    perform, the workers it places and its placement turns (rules 5: a turn places workers
    or picks them up), and the workers it leaves in front of it when a placement turn ends."""
    from mayagames.tzolkin.actions import Do, EndTurn, Place, PlaceStart
    from mayagames.tzolkin.model import K_PLACING, K_TURN, READY
    top = s.stack[-1].code if s.stack else None
    if isinstance(action, Do):
        c["actions"] += 1
    elif isinstance(action, (Place, PlaceStart)):
        c["placed"] += 1
        if top == K_TURN:
            c["place_turns"] += 1
    elif isinstance(action, EndTurn) and top == K_PLACING:
        c["idle"] += s.p[s.current_player][READY]


def final_tzolkin(s: Any, q: int, c: dict) -> None:
    from mayagames.tzolkin.model import SKULL, TECH, TEMPLE, VP, WORKERS
    from mayagames.tzolkin.scoring import corn_value
    P = s.p[q]
    c["skulls_end"] = P[SKULL]
    c["goods_end_vp"] = corn_value(P) / 4
    c["vp_track"] = P[VP]
    c["buildings"] = len(s.built[q]) + len(s.monuments[q])
    c["temple_steps"] = sum(P[TEMPLE + t] + 1 for t in range(3))
    c["techs"] = sum(P[TECH:TECH + 4])
    c["workers"] = P[WORKERS]


def audit_tikal(s: Any, action: Any, legal: list, c: dict) -> None:
    from mayagames.tikal.actions import End
    from mayagames.tikal.flow import ApTurn
    top = s.stack[-1] if s.stack else None
    if isinstance(action, End) and isinstance(top, ApTurn) and top.points > 0:
        c["end_ap"] += 1
        c["ap_lost"] += top.points
        if top.ctx in ("volcano", "final"):
            c["end_ap_score"] += 1


def summarize(lines: list[dict[str, Any]]) -> str:
    """A Markdown table per spec: per game means and per-decision rates."""
    if not lines:
        return "no game yet"
    game = lines[0]["game"]
    keys = TZ_KEYS if game == "tzolkin" else TK_KEYS
    profile = TZ_PROFILE if game == "tzolkin" else TK_PROFILE
    by: dict[str, list[dict]] = defaultdict(list)
    for line in lines:
        for seat in line["seats"]:
            by[seat["spec"]].append(seat)
    out = [f"{game}: {len(lines)} games, {len(lines[0]['seats'])} players", ""]
    use = TZ_USE if game == "tzolkin" else ()
    head = ["spec", "seat-games", "wins", *profile, *keys, *use, "ms/decision"]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "---|" * len(head))
    for spec, rows in sorted(by.items()):
        n = len(rows)
        mean = {k: sum(r.get(k, 0.0) for r in rows) / n for k in (*profile, *keys, "won")}
        decisions = sum(r.get("decisions", 0) for r in rows)
        choices = sum(r.get("choices", 0) for r in rows) or 1
        cells = [spec, str(n), f"{mean['won'] * n:g}"]
        cells += [f"{mean[k]:.1f}" for k in profile]
        for k in keys:
            cell = f"{mean[k]:.2f}"
            if k in RATE_KEYS[game]:
                cell += f" ({100 * sum(r.get(k, 0) for r in rows) / choices:.1f}%)"
            cells.append(cell)
        if use:
            placed, turns = (sum(r.get(k, 0) for r in rows) for k in ("placed", "place_turns"))
            cells += [f"{sum(r.get('actions', 0) for r in rows) / n:.1f}",
                      f"{placed / turns:.2f}" if turns else "-",
                      f"{sum(r.get('idle', 0) for r in rows) / n:.1f}"]
        cells.append(f"{1000 * sum(r.get('think_s', 0) for r in rows) / max(decisions, 1):.1f}")
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    out.append("Per game and seat; (x%) = share of the seat's decisions with a choice.")
    return "\n".join(out)


def read_log(path: str) -> list[dict[str, Any]]:
    if not path or not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("game", nargs="?", default="tzolkin", choices=("tzolkin", "tikal"))
    parser.add_argument("--level", default="medium", help="self-play of this spec or level")
    parser.add_argument("--players", help="specs separated by /, one per seat (rotated): mcts:1s/heuristic")
    parser.add_argument("--num-players", type=int, default=2, help="seats for --level self-play")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--duplicate", action="store_true",
                        help="duplicate deals: game i has seed SEED + i // seats (each deal from every seat)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--log", help="JSON lines, one per game; resumes a stopped run")
    parser.add_argument("--summary", action="store_true", help="only summarise --log")
    args = parser.parse_args()
    done = read_log(args.log)
    if args.summary:
        print(summarize(done))
        return
    specs = tuple(args.players.split("/")) if args.players else (args.level,) * args.num_players
    have = {line["index"] for line in done if line["game"] == args.game}
    deal = (lambda i: i // len(specs)) if args.duplicate else (lambda i: i)
    todo = [(args.game, i, args.seed + deal(i), specs) for i in range(args.games) if i not in have]
    lines = [line for line in done if line["game"] == args.game]
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    start = time.perf_counter()
    try:
        results: Iterable[dict[str, Any]]
        if args.jobs > 1:
            pool = multiprocessing.get_context("spawn").Pool(args.jobs)
            results = pool.imap_unordered(play, todo)
        else:
            results = map(play, todo)
        for line in results:
            lines.append(line)
            if log:
                log.write(json.dumps(line) + "\n")
                log.flush()
            print(f"game {line['index']}: " + ", ".join(f"{r['spec']} {r['score']:g}" for r in line["seats"]),
                  file=sys.stderr)
    except KeyboardInterrupt:
        print("stopped: summary of the games so far", file=sys.stderr)
    finally:
        if log:
            log.close()
    print(summarize(sorted(lines, key=lambda x: x["index"])))
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()

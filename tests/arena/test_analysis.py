"""Statistics and the balance report, on hand-made games and on real records."""

from __future__ import annotations

import json

import pytest

from mayagames.arena import plan_matches, run_matches
from mayagames.arena.analysis import (ArenaError, GameRow, Loaded, agent_rates, bootstrap_ratio,
                                      feature_rates, finishing_ranks, head_to_head,
                                      load_directory, load_records, ratings, search_speed,
                                      seat_rates, summary, wilson_interval)
from mayagames.arena.report import to_html, Section, write_report
from mayagames.core import GameRecord
from mayagames.core.conformance import play_random_game


def row(agents, scores, winners=None, features=None, index=0, stats=()):
    if winners is None:
        best = max(scores)
        winners = [s for s, v in enumerate(scores) if v == best]
    return GameRow(source=f"g{index}", order=(index, f"g{index}"), num_players=len(agents),
                   agents=list(agents), scores=[float(s) for s in scores], winners=winners,
                   features=features, agent_stats=list(stats))


def test_wilson_interval_matches_known_values():
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson_interval(95, 100) == pytest.approx((0.8882, 0.9785), abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_bootstrap_interval_brackets_the_estimate_and_shrinks_with_data():
    shares = [1, 0, 1, 1, 0, 1, 0, 1] * 3
    lo, hi = bootstrap_ratio(shares, [1] * len(shares), seed=1)
    assert lo < sum(shares) / len(shares) < hi
    lo2, hi2 = bootstrap_ratio(shares * 10, [1] * len(shares) * 10, seed=1)
    assert hi2 - lo2 < hi - lo
    assert bootstrap_ratio([1, 1, 1], [1, 1, 1]) == (1.0, 1.0)


def dominant_rows(n=30):
    """'strong' always wins; seats alternate."""
    rows = []
    for i in range(n):
        agents = ["strong", "weak"] if i % 2 == 0 else ["weak", "strong"]
        scores = [20, 10] if i % 2 == 0 else [10, 20]
        features = [{"opening": "high" if s == 20 else "low"} for s in scores]
        rows.append(row(agents, scores, features=features, index=i))
    return rows


def test_win_rates_by_agent_seat_and_feature():
    rows = dominant_rows()
    agents = {r.label: r for r in agent_rates(rows)}
    assert agents["strong"].win_rate == 1.0 and agents["weak"].win_rate == 0.0
    assert agents["strong"].seats == 30 and agents["strong"].mean_score == 20.0
    seats = {r.label: r for r in seat_rates(rows)}
    assert seats["seat 0"].win_rate == 0.5 == seats["seat 1"].win_rate
    assert seats["seat 0"].ci[0] < 0.5 < seats["seat 0"].ci[1]
    opening = {r.label: r for r in feature_rates(rows)["opening"]}
    assert opening["high"].win_rate == 1.0 and opening["low"].seats == 30


def test_list_valued_features_count_the_seat_under_each_value():
    rows = [row(["a", "b"], [5, 1], features=[{"tiles": ["w1", "w2"]}, {"tiles": ["w2", "w3"]}]),
            row(["a", "b"], [1, 5], index=1,
                features=[{"tiles": ["w1", "w3"]}, {"tiles": ["w2", "w2"]}])]
    tiles = {r.label: (r.seats, r.wins) for r in feature_rates(rows)["tiles"]}
    assert tiles == {"w1": (2, 1.0), "w2": (3, 2.0), "w3": (2, 0.0)}


def test_ties_share_the_win_and_rank_equally():
    r = row(["a", "b", "c"], [10, 10, 4])
    assert r.share(0) == r.share(1) == 0.5 and r.share(2) == 0
    assert finishing_ranks(r) == [0, 0, 1]
    tie_break = row(["a", "b", "c"], [10, 10, 4], winners=[1])
    assert finishing_ranks(tie_break) == [1, 0, 2]
    assert {x.label: x.wins for x in agent_rates([r])} == {"a": 0.5, "b": 0.5, "c": 0.0}


def test_ratings_rank_the_stronger_agent_first_with_intervals():
    table = ratings(dominant_rows())
    assert [r.agent for r in table] == ["strong", "weak"]
    strong, weak = table
    assert strong.ci[0] > weak.ci[1]  # separated after 30 one-sided games
    assert strong.games == 30 and strong.ordinal == pytest.approx(strong.mu - 3 * strong.sigma)
    assert strong.sigma < 25 / 3  # more certain than a fresh rating


def test_self_play_seats_are_one_agent():
    rows = [row(["bot", "bot", "rand"], [9, 5, 3], index=i) for i in range(10)]
    table = {r.agent: r for r in ratings(rows)}
    assert set(table) == {"bot", "rand"} and table["bot"].mu > table["rand"].mu
    assert {r.label: r.seats for r in agent_rates(rows)} == {"bot": 20, "rand": 10}
    h2h = head_to_head(rows)
    assert h2h[("bot", "rand")] == (1.0, 20) and ("bot", "bot") not in h2h


def test_search_speed_from_agent_statistics():
    rows = [row(["m", "r"], [1, 0], stats=[
        {"agent": "m", "decisions": 4, "think_seconds": 0.2, "iterations": 400, "search_seconds": 0.2},
        {"agent": "r", "decisions": 4, "think_seconds": 0.0}])]
    speed = search_speed(rows)
    assert speed["m"] == {"ms_per_decision": 50.0, "iterations_per_s": 2000.0}
    assert speed["r"]["iterations_per_s"] == 0.0


def random_records(n, players=2, first_seed=0):
    out = []
    for seed in range(first_seed, first_seed + n):
        _, record = play_random_game("toy", players, seed)
        out.append((f"r{seed}", record))
    return out


def test_loading_verifies_records_and_lists_problems():
    records = random_records(4)
    unfinished = GameRecord.from_dict(records[0][1].to_dict())
    unfinished.result = None
    forged = GameRecord.from_dict(records[1][1].to_dict())
    forged.result = {"scores": [99, 0], "winners": [0]}
    loaded = load_records(records + [("unfinished", unfinished), ("forged", forged),
                                      ("bad.json", ValueError("not JSON"))])
    assert len(loaded.rows) == 4
    assert {s for s, _ in loaded.problems} == {"unfinished", "forged", "bad.json"}
    assert any("differs" in p for s, p in loaded.problems if s == "forged")
    assert all(r.features and set(r.features[0]) == {"bonus", "opening"} for r in loaded.rows)


def test_loading_refuses_nothing_to_report_and_mixed_games():
    with pytest.raises(ArenaError, match="no finished game"):
        load_records([("x", ValueError("broken"))])
    other = GameRecord.from_dict({**random_records(1)[0][1].to_dict(), "game": "tikal"})
    with pytest.raises(ArenaError, match="several games"):
        load_records(random_records(1) + [("t", other)], check=False)


def test_report_from_a_run_directory(tmp_path):
    tasks = plan_matches("toy", ["heuristic", "random"], 6, seed=2)
    records = tmp_path / "run" / "records"
    records.mkdir(parents=True)
    for result in run_matches(tasks):
        (records / f"game-{result.index}.json").write_text(json.dumps(result.record))
    (records / "notes.json").write_text("{broken")
    loaded = load_directory(tmp_path / "run")
    assert len(loaded.rows) == 6 and [s for s, _ in loaded.problems] == ["notes.json"]
    assert [r.order[0] for r in loaded.rows] == list(range(6))
    paths = write_report(loaded, tmp_path / "out")
    names = {p.name for p in paths}
    assert {"report.md", "report.html", "report.json", "ratings.png", "winrates.png",
            "seats.png", "scores.png", "features.png"} <= names
    for p in paths:
        assert p.stat().st_size > 0
        if p.suffix == ".png":
            assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    md = (tmp_path / "out" / "report.md").read_text()
    for part in ("## Ratings", "## Seat order", "## Win rate by opening", "![Ratings](ratings.png)",
                 "notes.json", "heuristic"):
        assert part in md
    data = json.loads((tmp_path / "out" / "report.json").read_text())
    assert data["games"] == 6 and {a["label"] for a in data["agents"]} == {"heuristic", "random"}
    assert set(data["features"]) == {"bonus", "opening"}
    assert data == json.loads(json.dumps(summary(loaded)))


def test_report_without_features_says_so(tmp_path):
    loaded = Loaded("toy", [row(["a", "b"], [3, 1], index=i) for i in range(3)], [])
    write_report(loaded, tmp_path)
    assert "defines no seat features" in (tmp_path / "report.md").read_text()
    assert not (tmp_path / "features.png").exists()


def test_empty_or_missing_directory_is_a_clear_error(tmp_path):
    with pytest.raises(ArenaError, match="no finished game"):
        load_directory(tmp_path)
    with pytest.raises(ArenaError, match="not a directory"):
        load_directory(tmp_path / "nowhere")


def test_html_escapes_names():
    page = to_html("t", [Section("s", "a **bold** <b>", ["agent"], [["<script>"]])])
    assert "&lt;script&gt;" in page and "<script>" not in page and "<b>bold</b>" in page

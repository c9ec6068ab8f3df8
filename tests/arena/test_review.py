"""Game review (``mayagames analyze``): views only, deterministic, whole turns, the CLI."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mayagames.arena.review import (FORMAT, Budget, DecisionTask, ReviewError, analyse_decision,
                                    analyse_record, decision_tasks, label)
from mayagames.arena.tournament import plan_matches, play_match
from mayagames.cli import app
from mayagames.core import conformance
from mayagames.core.record import GameRecord
from mayagames.core.rng import Rng


def bot_record(game: str, seed: int, specs=("random", "random"), moves: int | None = None) -> GameRecord:
    """A game between bots, cut after ``moves`` moves if given."""
    record = GameRecord.from_dict(play_match(plan_matches(game, list(specs), 1, seed)[0]).record)
    if moves is not None:
        record.moves = record.moves[:moves]
        record.result = None
    return record


def comparable(review) -> dict:
    data = review.as_dict()
    data.pop("seconds")
    return data


def test_budget_parsing():
    assert Budget.parse("2000i") == Budget(2000, None)
    assert Budget.parse("2s") == Budget(None, 2.0)
    assert str(Budget.parse("500i+250ms")) == "500i+0.25s"
    for bad in ("", "2x", "1i", "-3s", "2.5i"):
        with pytest.raises(ReviewError):
            Budget.parse(bad)


def test_tasks_hold_only_the_deciding_seats_view():
    record = bot_record("toy", 3)
    tasks = decision_tasks(record, [1], seed=5)
    assert tasks and all(t.seat == 1 and t.view.viewer == 1 for t in tasks)
    assert [t.played for t in tasks] == [record.moves[t.index] for t in tasks]
    assert all(t.view.seed == 0 for t in tasks)  # a view never carries the true generator
    turns = [t.turn for t in decision_tasks(record, None, seed=5)]
    assert turns == sorted(turns) and turns[0] == 0
    with pytest.raises(ReviewError):
        decision_tasks(record, [2], seed=5)


@pytest.mark.parametrize("game", ["toy", "tikal", "tzolkin"])
def test_analysis_ignores_what_the_seat_cannot_see(game):
    """Another true state behind the same view (its hidden parts resampled) gives the same
    analysis, as the bots' own hidden-state test asks of their decisions."""
    record = bot_record(game, 11, moves=60)
    rng = Rng(4)
    tasks = [t for t in decision_tasks(record, None, seed=2) if len(t.view.legal_actions()) > 1][:3]
    assert tasks
    for task in tasks:
        expected = comparable(analyse_decision(task, Budget(60)))
        for _ in range(2):
            other = task.view.determinize(rng)  # another truth behind the same view
            view = other.view(task.seat)
            assert conformance.fingerprint(view) == conformance.fingerprint(task.view)
            again = DecisionTask(task.index, task.seat, task.turn, view, task.played, task.seed)
            assert comparable(analyse_decision(again, Budget(60))) == expected


def test_review_is_deterministic_whatever_the_jobs():
    record = bot_record("tzolkin", 5, moves=24)
    one = analyse_record(record, Budget(40), seed=9, jobs=1)
    two = analyse_record(record, Budget(40), seed=9, jobs=2)
    strip = lambda review: [{k: v for k, v in d.items() if k != "seconds"} for d in review["decisions"]]
    assert strip(one) == strip(two)
    assert one["turns"] == two["turns"] and one["players"] == two["players"]
    other_seed = analyse_record(record, Budget(40), seed=10, jobs=1)
    assert strip(other_seed) != strip(one)


def test_estimates_and_losses_are_consistent():
    record = bot_record("toy", 8)
    review = analyse_record(record, Budget(300), seed=1)
    assert review["format"] == FORMAT and review["moves"] == len(record.moves)
    searched = [d for d in review["decisions"] if not d["forced"]]
    assert searched
    for d in searched:
        assert 0.0 <= d["win_prob"] <= 1.0 and 0.0 <= d["played_win_prob"] <= 1.0
        assert d["win_prob"] == d["best_win_prob"]
        assert d["loss"] == (0.0 if d["best"] == d["played"]
                             else round(max(0.0, d["best_win_prob"] - d["played_win_prob"]), 4))
        assert d["label"] == label(d["loss"])
        assert d["best_turn"][0] == d["best"]
        assert d["top"][0]["visits"] >= d["top"][-1]["visits"]
    for d in review["decisions"]:
        if d["forced"]:
            assert d["win_prob"] is None and d["loss"] == 0.0
    # every decision belongs to exactly one whole turn of its seat
    covered = [i for t in review["turns"] for i in range(t["first"], t["last"] + 1)]
    assert covered == list(range(len(record.moves)))
    for turn in review["turns"]:
        assert turn["played"] == record.moves[turn["first"]:turn["last"] + 1]
        assert turn["loss"] >= 0.0


def test_a_wasted_bonus_is_seen_as_a_loss():
    """Toy rule: after a swap, ``bonus`` is a free point and ``end`` gives it up. A player
    who always ends loses win probability there, and the bot prefers the bonus."""
    from mayagames.core import new_game

    found = 0
    for seed in range(30):
        state = new_game("toy", 2, seed=seed)
        rng = Rng(seed)
        record = GameRecord.start("toy", 2, seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            names = [str(a) for a in legal]
            move = "end" if "end" in names else (next((n for n in names if n.startswith("swap")), None)
                                                 or names[rng.randbelow(len(names))])
            state.apply(state.parse_action(move))
            record.moves.append(move)
        tasks = [t for t in decision_tasks(record, None, 1) if t.played == "end"
                 and "bonus" in map(str, t.view.legal_actions())]
        for task in tasks:
            review = analyse_decision(task, Budget(400))
            assert review.best_win_prob >= review.played_win_prob - 1e-9 or review.best == "end"
            found += review.best == "bonus" and review.loss > 0
        if found >= 2:
            break
    assert found >= 2


def test_cli_writes_the_documented_json(tmp_path):
    record = bot_record("tikal", 2, moves=30)
    path = tmp_path / "game.json"
    record.save(path)
    out = tmp_path / "review.json"
    result = CliRunner().invoke(app, ["analyze", str(path), "--budget", "30i", "--seat", "0",
                                      "--json", str(out), "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "decisions" in result.output and "review at 30i" in result.output
    review = json.loads(out.read_text())
    assert set(review) >= {"format", "game", "num_players", "seed", "budget", "moves", "seats",
                           "names", "result", "score_scale", "decisions", "turns", "players",
                           "turning_points"}
    assert review["seats"] == [0] and {d["seat"] for d in review["decisions"]} == {0}
    decision_keys = {"index", "move_number", "seat", "turn", "played", "legal", "forced",
                     "win_prob", "margin", "best", "best_win_prob", "best_margin",
                     "played_win_prob", "played_margin", "loss", "margin_loss", "label",
                     "best_turn", "iterations", "seconds", "top"}
    assert all(set(d) == decision_keys for d in review["decisions"])
    assert review["players"][0]["seat"] == 0


def test_cli_refuses_bad_input(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = CliRunner().invoke(app, ["analyze", str(bad)])
    assert result.exit_code == 2 and "error" in result.output
    record = bot_record("toy", 1)
    good = tmp_path / "good.json"
    record.save(good)
    result = CliRunner().invoke(app, ["analyze", str(good), "--budget", "fast"])
    assert result.exit_code == 2 and "budget" in result.output


def test_calibrated_sharpens_the_log_odds_and_keeps_the_order():
    from mayagames.arena.review import calibrated

    chances = [0.0, 0.01, 0.2, 0.45, 0.5, 0.55, 0.8, 0.99, 1.0]
    assert [calibrated(p, 1.0) for p in chances] == chances
    sharp = [calibrated(p, 1.5) for p in chances]
    assert sharp == sorted(sharp) and len(set(sharp)) == len(sharp)
    assert (sharp[0], sharp[4], sharp[-1]) == (0.0, 0.5, 1.0)
    for p, q in zip(chances, sharp):
        assert abs(q - 0.5) >= abs(p - 0.5)  # farther from an even game
        assert calibrated(1 - p, 1.5) == pytest.approx(1 - q)  # both seats alike
    assert calibrated(0.8, 1.5) == pytest.approx(0.8 ** 1.5 / (0.8 ** 1.5 + 0.2 ** 1.5))
    assert abs(calibrated(0.8, 0.5) - 0.5) < 0.3  # below 1: nearer an even game


def test_a_tzolkin_review_shows_the_searchs_win_chances_sharpened(monkeypatch):
    """The review of a Tzolk'in decision searches exactly as without the calibration (the
    same preferred move and visits); only its win chances are the search's, sharpened by the
    factor shipped for the estimate it searches on."""
    import mayagames.arena.review as review_module
    from mayagames.agents import review_settings
    from mayagames.arena.review import calibrated
    from mayagames.core.registry import get_game

    info = get_game("tzolkin")
    estimate = review_settings("tzolkin")["eval"]
    record = bot_record("tzolkin", 3)
    task = next(t for t in decision_tasks(record, None, seed=2)  # after the second Food Day
                if t.view.food_done == 2 and len(t.view.legal_actions()) > 2)
    sharpness = info.plugin.part("review_sharpness")(estimate, 2, info.plugin.part("review_stage")(task.view))
    assert sharpness > 1.0, "the shipped calibration names the review's estimate at 2 players"
    shown = analyse_decision(task, Budget(60))
    monkeypatch.setattr(review_module, "review_sharpness", lambda info, variant, view: 1.0)
    raw = analyse_decision(task, Budget(60))
    assert (shown.best, shown.played) == (raw.best, raw.played)
    assert [(t["action"], t["visits"]) for t in shown.top] == [(t["action"], t["visits"]) for t in raw.top]
    for s, r in zip(shown.top, raw.top):
        assert s["win_prob"] == pytest.approx(calibrated(r["win_prob"], sharpness), abs=2e-4)
    assert shown.played_win_prob == pytest.approx(calibrated(raw.played_win_prob, sharpness), abs=2e-4)
    assert shown.margin == raw.margin  # the score margins are not win chances: unchanged


def test_a_four_player_tzolkin_review_shows_the_win_chances_as_searched(monkeypatch):
    """The factor was fitted on 2-player games; at 4 players (none fitted) the review shows the
    search's own win chances."""
    import mayagames.arena.review as review_module

    asked = []
    record = bot_record("tzolkin", 5, specs=("random",) * 4, moves=60)
    task = next(t for t in decision_tasks(record, None, seed=2) if len(t.view.legal_actions()) > 2)
    shown = analyse_decision(task, Budget(40))
    original = review_module.review_sharpness
    monkeypatch.setattr(review_module, "review_sharpness",
                        lambda info, variant, view: asked.append(view.num_players) or original(info, variant, view))
    again = analyse_decision(task, Budget(40))
    assert asked == [4] and original(task.view.info, "learned6", task.view) == 1.0
    monkeypatch.setattr(review_module, "review_sharpness", lambda info, variant, view: 1.0)
    assert analyse_decision(task, Budget(40)).as_dict() | {"seconds": 0} == shown.as_dict() | {"seconds": 0}
    assert again.top == shown.top


def test_the_reviews_stage_is_tzolkins_food_days_held_and_0_elsewhere():
    from mayagames.agents.hooks import review_stage
    from mayagames.core.registry import get_game

    record = bot_record("tzolkin", 3)
    seen = set()
    for task in decision_tasks(record, None, seed=2):
        stage = review_stage(get_game("tzolkin"), task.view)
        assert stage == min(task.view.food_done, 3)
        seen.add(stage)
    assert seen == {0, 1, 2, 3}
    toy = bot_record("toy", 8)
    assert {review_stage(get_game("toy"), t.view) for t in decision_tasks(toy, None, seed=1)} == {0}

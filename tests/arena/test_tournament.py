"""Tournament planning and running: rotation, seeds, backends, failures."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter

import pytest

from mayagames.agents import AGENT_FACTORIES, RandomAgent
from mayagames.arena import ArenaError, plan_matches, play_match, run_matches
from mayagames.arena.tournament import import_ray
from mayagames.core import GameRecord, verify
from mayagames.core.toy import End, Swap


def test_seats_rotate_so_every_agent_plays_every_seat():
    tasks = plan_matches("toy", ["heuristic", "random", "mcts:10i"], 6, seed=1)
    for seat in range(3):
        assert Counter(t.agents[seat] for t in tasks) == {"heuristic": 2, "random": 2, "mcts:10i": 2}
    assert [t.index for t in tasks] == list(range(6))
    assert len({t.seed for t in tasks}) == 6


def test_game_seeds_come_from_the_run_seed_and_index_only():
    a = plan_matches("toy", ["random", "heuristic"], 5, seed=7)
    b = plan_matches("toy", ["random", "heuristic"], 9, seed=7)
    assert [t.seed for t in a] == [t.seed for t in b[:5]]
    assert [t.seed for t in plan_matches("toy", ["random", "heuristic"], 5, seed=8)] != [
        t.seed for t in a]


def test_duplicate_mode_replays_each_deal_from_every_seat():
    tasks = plan_matches("toy", ["random", "heuristic", "easy"], 6, seed=3, duplicate=True)
    assert tasks[0].seed == tasks[1].seed == tasks[2].seed != tasks[3].seed == tasks[5].seed


@pytest.mark.parametrize("agents, games, message", [
    (["random"], 2, "2-4 players"), (["random"] * 5, 2, "2-4 players"),
    (["human", "random"], 2, "bots only"), (["random", "wizard"], 2, "unknown agent"),
    (["random", "mcts:fast"], 2, "budget"), (["random", "random"], 0, "at least 1"),
])
def test_bad_tournaments_are_refused_before_any_game(agents, games, message):
    with pytest.raises(ArenaError, match=message):
        plan_matches("toy", agents, games, seed=1)


def test_unknown_game_option_is_refused():
    with pytest.raises(Exception, match="unknown option"):
        plan_matches("toy", ["random", "random"], 2, seed=1, options={"speed": 2})


def comparable(result) -> tuple:
    rec = result.record
    return (rec["seed"], rec["seats"], rec["moves"], rec.get("result"), rec["meta"]["arena"],
            rec["meta"].get("features"), [a.get("iterations") for a in rec["meta"]["agents"]])


def test_results_do_not_depend_on_the_number_of_processes():
    tasks = plan_matches("toy", ["mcts:15i", "heuristic", "random"], 5, seed=11)
    seen = []
    one = run_matches(tasks, jobs=1)
    two = run_matches(tasks, jobs=2, on_result=lambda r: seen.append(r.index))
    assert sorted(seen) == list(range(5))
    assert [comparable(r) for r in one] == [comparable(r) for r in two]
    for result in one:
        record = GameRecord.from_dict(result.record)
        assert result.error is None and verify(record).is_terminal
        assert [s.agent for s in record.seats] == list(tasks[result.index].agents)


def test_records_carry_agent_statistics():
    task = plan_matches("toy", ["mcts:12i", "random"], 1, seed=2)[0]
    result = play_match(task)
    stats = {s["agent"]: s for s in result.record["meta"]["agents"]}
    assert stats["mcts:12i"]["iterations"] == 12 * stats["mcts:12i"]["searched_decisions"]
    assert stats["mcts:12i"]["decisions"] >= stats["mcts:12i"]["searched_decisions"] > 0
    assert "iterations" not in stats["random"] and stats["random"]["decisions"] > 0
    assert result.record["meta"]["features"] is not None


class Crasher(RandomAgent):
    def act(self, view, legal):
        if view.piles[view.current_player]:
            raise RuntimeError("bot bug")
        return super().act(view, legal)


class Cheater(RandomAgent):
    def act(self, view, legal):
        return Swap(9)


class Fisher(RandomAgent):
    """Swaps for ever: with unlimited swaps only the decision bound stops it."""

    def act(self, view, legal):
        return next((a for a in legal if isinstance(a, (Swap, End))), legal[0])


@pytest.mark.parametrize("bot, message", [(Crasher, "bot bug"), (Cheater, "illegal action"),
                                          (Fisher, "no end after 200 decisions")])
def test_a_failing_game_is_reported_and_the_others_are_kept(monkeypatch, bot, message):
    monkeypatch.setitem(AGENT_FACTORIES, "faulty", lambda arg, seed: bot(seed))
    unlimited = {"swaps": 0}  # lets the Fisher stall for ever
    tasks = plan_matches("toy", ["random", "random"], 2, seed=1, options=unlimited)
    tasks.insert(1, plan_matches("toy", ["faulty", "random"], 2, seed=1, options=unlimited)[1])
    results = run_matches(tasks, jobs=1)
    assert results[1].error and message in results[1].error
    assert "error" in results[1].record["meta"] and "result" not in results[1].record
    assert GameRecord.from_dict(results[1].record).moves == results[1].record["moves"]
    verify(GameRecord.from_dict(results[1].record))  # the moves made so far still replay
    assert results[0].error is None is results[2].error


def test_missing_ray_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ArenaError, match="pip install 'mayagames\\[ray\\]'"):
        import_ray()


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed")
def test_ray_local_backend_gives_the_same_games():
    tasks = plan_matches("toy", ["heuristic", "random"], 3, seed=4)
    seen = []
    by_ray = run_matches(tasks, jobs=2, ray_address="local", on_result=lambda r: seen.append(r.index))
    assert sorted(seen) == [0, 1, 2]
    assert [comparable(r) for r in by_ray] == [comparable(r) for r in run_matches(tasks, jobs=1)]

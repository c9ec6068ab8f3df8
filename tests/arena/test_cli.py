"""The simulate, report and agents commands, end to end."""

from __future__ import annotations

import importlib.util
import json
import sys

import pytest
from typer.testing import CliRunner

from mayagames.cli import app
from mayagames.core import GameRecord, verify

runner = CliRunner()


def simulate(out, *extra):
    return runner.invoke(app, ["simulate", "toy", "--players", "heuristic,random,mcts:15i",
                               "--games", "6", "--seed", "5", "--out", str(out), *extra])


def records_of(out):
    return [GameRecord.load(p) for p in sorted((out / "records").glob("*.json"))]


def test_simulate_in_two_processes_writes_records_results_and_report(tmp_path):
    result = simulate(tmp_path / "run", "--jobs", "2")
    assert result.exit_code == 0, result.output
    records = records_of(tmp_path / "run")
    assert len(records) == 6
    for i, record in enumerate(records):
        assert verify(record).is_terminal
        assert record.meta["arena"]["index"] == i and record.meta["arena"]["run_seed"] == 5
        assert sorted(s.agent for s in record.seats) == ["heuristic", "mcts:15i", "random"]
    assert {r.seats[0].agent for r in records} == {"heuristic", "random", "mcts:15i"}
    results = json.loads((tmp_path / "run" / "results.json").read_text())
    assert results["games"] == 6 and results["seed"] == 5
    assert all(g["error"] is None and g["result"] for g in results["results"])
    report = tmp_path / "run" / "report"
    for name in ("report.md", "report.html", "report.json", "ratings.png", "winrates.png",
                 "seats.png", "scores.png", "features.png"):
        assert (report / name).stat().st_size > 0, name
    assert "| heuristic |" in (tmp_path / "run" / "results.md").read_text()
    assert "heuristic" in result.output and "seat order" in result.output

    again = simulate(tmp_path / "again", "--jobs", "1", "--no-report")
    assert again.exit_code == 0, again.output
    assert not (tmp_path / "again" / "report").exists()
    assert [(r.seed, r.moves, r.result) for r in records_of(tmp_path / "again")] == [
        (r.seed, r.moves, r.result) for r in records]


def test_simulate_refuses_to_mix_runs_unless_asked(tmp_path):
    out = tmp_path / "run"
    args = ["simulate", "toy", "--players", "random,random", "--games", "2", "--jobs", "1",
            "--seed", "1", "--out", str(out), "--no-report"]
    assert runner.invoke(app, args).exit_code == 0
    refused = runner.invoke(app, args)
    assert refused.exit_code == 2 and "already holds records" in refused.output
    assert runner.invoke(app, args + ["--overwrite"]).exit_code == 0
    assert len(list((out / "records").glob("*.json"))) == 2


@pytest.mark.parametrize("players, message", [
    ("random", "2-4 players"), ("human,random", "bots only"), ("random,gandalf", "unknown agent"),
])
def test_simulate_bad_input_is_a_clear_error(tmp_path, players, message):
    result = runner.invoke(app, ["simulate", "toy", "--players", players, "--out", str(tmp_path)])
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "records").exists()


def test_simulate_unknown_game_is_a_clear_error(tmp_path):
    result = runner.invoke(app, ["simulate", "chess", "--players", "random,random"])
    assert result.exit_code == 2 and "unknown game" in result.output


def test_simulate_without_ray_says_how_to_get_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    result = runner.invoke(app, ["simulate", "toy", "--players", "random,random", "--games", "1",
                                 "--ray", "local", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "mayagames[ray]" in result.output


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed")
def test_simulate_on_ray_local(tmp_path):
    result = runner.invoke(app, ["simulate", "toy", "--players", "heuristic,random", "--games", "2",
                                 "--jobs", "2", "--seed", "3", "--ray", "local",
                                 "--out", str(tmp_path), "--no-report"])
    assert result.exit_code == 0, result.output
    assert all(verify(r).is_terminal for r in records_of(tmp_path))


def test_report_command_on_a_run_with_a_damaged_file(tmp_path):
    run = tmp_path / "run"
    args = ["simulate", "toy", "--players", "heuristic,random", "--games", "4", "--jobs", "1",
            "--seed", "2", "--out", str(run), "--no-report"]
    assert runner.invoke(app, args).exit_code == 0
    (run / "records" / "zz-damaged.json").write_text("{not json")
    result = runner.invoke(app, ["report", str(run), "--out", str(tmp_path / "rep")])
    assert result.exit_code == 0, result.output
    assert "skipped zz-damaged.json" in result.output
    assert (tmp_path / "rep" / "report.html").exists() and (tmp_path / "rep" / "seats.png").exists()
    assert "zz-damaged.json" in (tmp_path / "rep" / "report.md").read_text()


def test_report_command_on_an_empty_directory(tmp_path):
    result = runner.invoke(app, ["report", str(tmp_path)])
    assert result.exit_code == 2 and "no finished game" in result.output


def test_agents_command_lists_specs_and_levels():
    result = runner.invoke(app, ["agents"])
    assert result.exit_code == 0
    for name in ("random", "heuristic", "mcts", "easy", "medium", "hard", "human"):
        assert name in result.output

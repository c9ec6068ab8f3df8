"""benchmarks/bench_strength.py: a run split in parts (``--first``) plays the plan's other games,
and a log resumes it."""

import json
import subprocess
import sys
from pathlib import Path

PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_strength.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(PATH), *args], capture_output=True, text=True, timeout=120)


def logged(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_first_plays_only_the_later_games_of_the_same_plan(tmp_path: Path) -> None:
    whole, part = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    common = ["tzolkin", "random", "random", "--games", "4", "--jobs", "1", "--seed", "5"]
    assert run(*common, "--log", str(whole)).returncode == 0
    done = run(*common, "--first", "2", "--log", str(part))
    assert done.returncode == 0, done.stderr
    games = {line["index"]: line for line in logged(whole)}
    later = logged(part)
    assert sorted(line["index"] for line in later) == [2, 3]
    for line in later:  # the same deals, seats and games as in the whole run
        assert (line["seed"], line["seats"], line["scores"]) == (
            games[line["index"]]["seed"], games[line["index"]]["seats"], games[line["index"]]["scores"])
    again = run(*common, "--first", "2", "--log", str(part))  # resumed: nothing left to play
    assert again.returncode == 0 and len(logged(part)) == 2


def test_first_outside_the_plan_is_refused(tmp_path: Path) -> None:
    refused = run("tzolkin", "random", "random", "--games", "4", "--first", "4")
    assert refused.returncode == 2 and "--first" in refused.stderr

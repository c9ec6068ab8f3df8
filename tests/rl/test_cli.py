"""``mayagames rl ...`` commands and the docs' generated tables."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from mayagames.cli import app
from mayagames.rl import encoded_games, get_encoding
from mayagames.core.toy_encoding import ToyObserver

runner = CliRunner()
DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def test_rl_games_lists_sizes():
    result = runner.invoke(app, ["rl", "games"])
    assert result.exit_code == 0
    flat = " ".join(result.output.split())
    assert "toy: 2p: 18 actions, obs 44, 3p: 18 actions, obs 57, 4p: 18 actions, obs 70" in flat
    assert "tzolkin: 2p: 601 actions, obs 526" in flat and "tikal: 1p: 1988 actions" in flat


def test_rl_layout_prints_both_tables_and_refuses_bad_input():
    result = runner.invoke(app, ["rl", "layout", "toy", "--players", "3"])
    assert result.exit_code == 0
    enc = get_encoding("toy")
    assert enc.codec(3).markdown() in result.output
    assert enc.observer(3).layout.markdown() in result.output
    assert runner.invoke(app, ["rl", "layout", "chess"]).exit_code == 2
    bad = runner.invoke(app, ["rl", "layout", "toy", "--players", "9"])
    assert bad.exit_code == 2 and "2-4 players" in bad.output


def test_rl_check_passes_and_reports_a_broken_encoding(monkeypatch):
    result = runner.invoke(app, ["rl", "check", "toy", "--cycles", "100"])
    assert result.exit_code == 0 and result.output.count("passed") == 3
    original = ToyObserver.fill

    def out_of_bounds(self, view, obs: np.ndarray) -> None:
        original(self, view, obs)
        obs[0] = 5.0  # outside the documented [0, 1]

    monkeypatch.setattr(ToyObserver, "fill", out_of_bounds)
    broken = runner.invoke(app, ["rl", "check", "toy", "--cycles", "100"])
    assert broken.exit_code == 1 and "FAILED" in broken.output


@pytest.mark.parametrize("game", encoded_games())
def test_docs_show_the_generated_tables(game):
    """docs/rl.md shows each encoded game's action table and 2-player layout as generated."""
    text = DOC.read_text(encoding="utf-8")
    enc = get_encoding(game)
    assert enc.codec(2).markdown() in text
    assert enc.observer(2).layout.markdown() in text


def test_docs_quick_start_runs():
    text = DOC.read_text(encoding="utf-8")
    start = text.index("## Quick start")
    block = text[text.index("```python", start) + len("```python"):text.index("```", text.index("```python", start) + 9)]
    namespace: dict = {}
    exec(compile(block, "docs/rl.md quick start", "exec"), namespace)
    assert namespace["aec"].agents == []  # the AEC game was played to the end
    assert namespace["g"].unwrapped.num_players == 4

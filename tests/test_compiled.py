"""The optional compiled build (issue 16): what the pure-Python package says about it and
needs for it. The compiled tree itself is built and tested by ``.ci/compiled.sh``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

import mayagames
from mayagames.cli import app

SRC = Path(mayagames.__file__).resolve().parent.parent
EXPECT_COMPILED = os.environ.get("MAYAGAMES_EXPECT_COMPILED") == "1"


def test_compiled_modules_are_modules_of_the_package():
    for name in mayagames.COMPILED_MODULES:
        assert (SRC / Path(*name.split("."))).with_suffix(".py").is_file(), name


def test_compiled_says_which_tree_runs():
    """Empty in the pure-Python tree; every listed module under .ci/compiled.sh."""
    expected = list(mayagames.COMPILED_MODULES) if EXPECT_COMPILED else []
    assert mayagames.compiled() == expected


def test_version_names_the_build():
    out = CliRunner().invoke(app, ["--version"]).output
    assert out.startswith(f"mayagames {mayagames.__version__} (")
    if EXPECT_COMPILED:
        assert f"compiled: {len(mayagames.COMPILED_MODULES)} of {len(mayagames.COMPILED_MODULES)}" in out
    else:
        assert "(pure Python)" in out


def test_pure_package_runs_without_mypy_extensions():
    """``mypyc_attr`` falls back to a no-op: both engines import and play without mypy installed."""
    code = """
import sys
sys.modules["mypy_extensions"] = None  # as if not installed
from mayagames.core import new_game
from mayagames.core.compiling import mypyc_attr
class Plain: pass
assert mypyc_attr(native_class=False)(Plain) is Plain
for game in ("tikal", "tzolkin"):
    state = new_game(game, 2, 7)
    for _ in range(30):
        state.apply(state.legal_actions()[0])
    print(game, "ok")
"""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["tikal", "ok", "tzolkin", "ok"]

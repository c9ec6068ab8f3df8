"""The runnable examples in the RL modules' docstrings work."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["mayagames.rl", "mayagames.rl.encoding", "mayagames.rl.aec",
           "mayagames.rl.single_agent", "mayagames.rl.rewards"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0

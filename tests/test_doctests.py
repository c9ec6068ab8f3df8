"""Every runnable example in the docstrings of src/ runs (issue 15 item 6).

The modules are found by walking the package, so an example added anywhere is run
without a line here.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import mayagames


def _modules_with_examples() -> list[str]:
    names = [m.name for m in pkgutil.walk_packages(mayagames.__path__, "mayagames.")
             if not m.name.endswith("__main__")]
    finder = doctest.DocTestFinder()
    return [name for name in names
            if any(t.examples for t in finder.find(importlib.import_module(name)))]


MODULES = _modules_with_examples()


def test_examples_are_found():
    assert len(MODULES) >= 17 and "mayagames.tikal" in MODULES and "mayagames.rl.encoding" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0

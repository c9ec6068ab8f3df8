"""The README's Python snippets run as written (issue 15 item 6)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
SNIPPETS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def test_readme_has_python_snippets():
    assert len(SNIPPETS) >= 2


@pytest.mark.parametrize("index", range(len(SNIPPETS)))
def test_readme_snippet_runs(index, capsys):
    namespace: dict = {"__name__": "readme"}
    exec(compile(SNIPPETS[index], f"README.md snippet {index + 1}", "exec"), namespace)
    if "state" in namespace:  # the protocol tour plays a whole game
        state = namespace["state"]
        assert state.is_terminal and namespace["full"].viewer is None
        assert str(state.scores()) in capsys.readouterr().out

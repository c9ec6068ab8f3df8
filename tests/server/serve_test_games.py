"""``mayagames serve`` with the server tests' small games and agents registered
(``tally``, whose turns can be undone, and ``toysecret``): the real command, run by
the multi-instance tests as ``python serve_test_games.py serve --port ...``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def register_test_games() -> None:
    spec = importlib.util.spec_from_file_location("mayagames_server_test_support",
                                                  Path(__file__).with_name("support.py"))
    assert spec and spec.loader
    support = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = support
    spec.loader.exec_module(support)
    from mayagames.agents import AGENT_FACTORIES
    from mayagames.core import registry

    registry._GAMES.update(support.TEST_GAMES)
    AGENT_FACTORIES.update(support.TEST_AGENTS)


if __name__ == "__main__":
    register_test_games()
    from mayagames.cli import main

    main()

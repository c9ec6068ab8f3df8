"""``mayagames serve`` with the server tests' small games and agents registered
(``tally``, whose turns can be undone, and ``toysecret``): the real command, run by
the multi-instance tests as ``python serve_test_games.py serve --port ...``."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

CLOCK_ENV = "MAYAGAMES_TEST_CLOCK"


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


def install_test_clock() -> None:
    """With ``MAYAGAMES_TEST_CLOCK=FILE``: the server's clock (the tables' clocks, sessions)
    is the real time plus the seconds the JSON file ``{"*": s, "PORT": s}`` gives for this
    server's port (else ``*``), read at every look: a test moves the time of every
    instance, or of one, on by writing the file."""
    path = os.environ.get(CLOCK_ENV)
    if not path:
        return
    port = sys.argv[sys.argv.index("--port") + 1] if "--port" in sys.argv else "*"
    from mayagames.server import players

    def clock() -> float:
        try:
            skew = json.loads(Path(path).read_text())
        except (OSError, ValueError):
            skew = {}
        return time.time() + float(skew.get(port, skew.get("*", 0.0)))

    plain = players.Players.__init__

    def with_test_clock(self: Any, service: Any, **kwargs: Any) -> None:
        plain(self, service, **{**kwargs, "clock": clock})

    players.Players.__init__ = with_test_clock  # type: ignore[method-assign]


if __name__ == "__main__":
    register_test_games()
    install_test_clock()
    from mayagames.cli import main

    main()

"""Suite-wide settings.

``MAYAGAMES_EXPECT_COMPILED=1`` (set by ``.ci/compiled.sh``): the suite runs against the
compiled engine built by ``tools/build_compiled.py``; refuse to start unless every module of
``mayagames.COMPILED_MODULES`` is really loaded compiled (a wrong ``PYTHONPATH`` or
``pythonpath`` would silently test the pure-Python tree instead).
"""

from __future__ import annotations

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get("MAYAGAMES_EXPECT_COMPILED") != "1":
        return
    import mayagames

    missing = sorted(set(mayagames.COMPILED_MODULES) - set(mayagames.compiled()))
    if missing:
        raise pytest.UsageError(f"MAYAGAMES_EXPECT_COMPILED=1 but these modules are not compiled "
                                f"(loaded from {mayagames.__file__}): {', '.join(missing)}")

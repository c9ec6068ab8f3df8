"""Suite-wide settings.

``MAYAGAMES_EXPECT_COMPILED=1`` (set by ``.ci/compiled.sh``): the suite runs against the
compiled engine built by ``tools/build_compiled.py``; refuse to start unless every module of
``mayagames.COMPILED_MODULES`` is really loaded compiled (a wrong ``PYTHONPATH`` or
``pythonpath`` would silently test the pure-Python tree instead).

``load_script``: a script of the repository that is not in the package (a benchmark, an
example) loaded as a module, once per session, for the tests of its functions.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Callable

import pytest

ROOT = Path(__file__).resolve().parents[1]


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get("MAYAGAMES_EXPECT_COMPILED") != "1":
        return
    import mayagames

    missing = sorted(set(mayagames.COMPILED_MODULES) - set(mayagames.compiled()))
    if missing:
        raise pytest.UsageError(f"MAYAGAMES_EXPECT_COMPILED=1 but these modules are not compiled "
                                f"(loaded from {mayagames.__file__}): {', '.join(missing)}")


@pytest.fixture(scope="session")
def load_script() -> Callable[[str], ModuleType]:
    """``load_script("benchmarks/train_eval.py")``: the script (a path from the repository's
    root) as a module named after its file, registered in ``sys.modules`` (a dataclass looks
    its module up there; a script that imports a neighbour, as ``train_trees`` imports
    ``train_eval``, finds the one already loaded), with its folder on ``sys.path`` while it
    loads. Loaded once per session."""
    def load(relative: str) -> ModuleType:
        path = ROOT / relative
        name = path.stem
        found = sys.modules.get(name)
        if found is not None and Path(getattr(found, "__file__", "") or "").resolve() == path:
            return found
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec and spec.loader, f"{relative}: not a Python file"
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        sys.path.insert(0, str(path.parent))
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
        finally:
            sys.path.remove(str(path.parent))
        return module
    return load

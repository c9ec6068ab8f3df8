"""The package's own build backend (issue 22): setuptools, plus the compiled engine in wheels.

``pip install .`` / ``pip wheel .`` / a wheel built from the sdist get the modules of
:data:`mayagames.COMPILED_MODULES` compiled with mypyc (the way mypy and black ship theirs):
the same source, its hot modules as C extensions next to their ``.py`` files. Where that
cannot be done the wheel is the pure-Python package, the reference, and says so:

* ``MAYAGAMES_PURE=1`` asks for the pure wheel;
* a failed mypyc or C build (no compiler, no Python headers) falls back to it with a
  warning, unless ``MAYAGAMES_REQUIRE_COMPILED=1`` (CI) makes that an error.

Editable installs (``pip install -e .``, the README's test command) stay pure: the source
tree is the reference. ``mayagames --version`` says which one runs.
"""

from __future__ import annotations

import os
import sys
import traceback
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import (build_editable, build_sdist,  # noqa: F401  (re-exported)
                                   get_requires_for_build_editable, get_requires_for_build_sdist,
                                   prepare_metadata_for_build_editable,
                                   prepare_metadata_for_build_wheel)

COMPILE_ENV = "MAYAGAMES_BUILD_COMPILED"  # read by setup.py: "1" while a compiled wheel builds
MYPY = "mypy>=2.4,<3"  # mypyc: the versions the compiled build is tested with


def wants_compiled() -> bool:
    return os.environ.get("MAYAGAMES_PURE", "") not in ("1", "true", "yes")


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    requires = list(_setuptools.get_requires_for_build_wheel(config_settings))
    return requires + [MYPY] if wants_compiled() else requires


def build_wheel(wheel_directory: str, config_settings: Any = None,
                metadata_directory: str | None = None) -> str:
    if wants_compiled():
        os.environ[COMPILE_ENV] = "1"
        try:
            return _setuptools.build_wheel(wheel_directory, config_settings, None)
        except BaseException as exc:  # setuptools reports a failed build as SystemExit
            if os.environ.get("MAYAGAMES_REQUIRE_COMPILED") == "1":
                raise
            traceback.print_exc()
            print(f"mayagames: the compiled build failed ({type(exc).__name__}); building the "
                  "pure-Python wheel instead (MAYAGAMES_PURE=1 skips the attempt)",
                  file=sys.stderr)
        finally:
            os.environ.pop(COMPILE_ENV, None)
    return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)

"""Compiled extension modules for the wheel (the metadata is in pyproject.toml).

Only while ``build_backend/mayagames_build.py`` builds a compiled wheel
(``MAYAGAMES_BUILD_COMPILED=1``): the modules of ``mayagames.COMPILED_MODULES``
(tools/build_compiled.py reads the same list) compiled with mypyc. Otherwise a plain
setuptools build: the pure-Python package.
"""

import os
import sys
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent


def compiled_extensions() -> list:
    if os.environ.get("MAYAGAMES_BUILD_COMPILED") != "1":
        return []
    sys.path.insert(0, str(HERE / "tools"))
    try:
        from build_compiled import compiled_modules, module_file
    finally:
        sys.path.pop(0)
    from mypyc.build import mypycify

    files = [str(Path("src") / module_file(name)) for name in compiled_modules()]
    return mypycify(["--follow-imports=silent", *files], opt_level="3", multi_file=True)


extensions = compiled_extensions()
setup(ext_modules=extensions,
      options={"build_ext": {"parallel": os.cpu_count() or 1}} if extensions else {})

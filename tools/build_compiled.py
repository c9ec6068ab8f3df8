"""Build the optional compiled engine (issue 16): the same source, its hot modules compiled
with mypyc, in a tree of its own.

    .venv/bin/python tools/build_compiled.py               # -> build/compiled/src (a few minutes)
    PYTHONPATH=build/compiled/src .venv/bin/mayagames --version   # "... (compiled: 19 of 19 modules)"

The pure-Python package in ``src/`` stays the reference. This script copies ``src/`` to
``<out>/src`` and compiles there the modules listed in :data:`mayagames.COMPILED_MODULES`
(the rules engines of both games, the searches' leaf estimates, the MCTS search) into
extension modules next to their ``.py`` files;
putting ``<out>/src`` first on ``PYTHONPATH`` then runs every command, test and benchmark
on them. Nothing is written into ``src/`` (an editable install would otherwise run stale
compiled code). Needs the ``compile`` extra (mypy, setuptools; in ``dev``) and a C compiler.
Rebuild after every change to the source: the compiled tree is a snapshot.

Wheels (``pip wheel .``, ``pip install .``) compile the same modules by themselves: the
package's build backend (build_backend/mayagames_build.py) has ``setup.py`` take the list from
:func:`compiled_modules` here (issue 22).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SRC = REPO / "src"

# Run by setuptools inside the copied tree: mypyc type-checks the listed modules (the modules
# they import are read for their types only: --follow-imports=silent) and compiles them.
SETUP = """\
import sys
from setuptools import setup
from mypyc.build import mypycify

c_dir, temp, jobs, *files = sys.argv[1:]
setup(name="mayagames-compiled", packages=[], py_modules=[],
      ext_modules=mypycify(["--follow-imports=silent", "--cache-dir", c_dir + "/mypy-cache", *files],
                           opt_level="3", multi_file=True, target_dir=c_dir),
      script_args=["build_ext", "--inplace", "--build-temp", temp, "--parallel", jobs])
"""


def compiled_modules() -> tuple[str, ...]:
    """:data:`mayagames.COMPILED_MODULES` of the source tree (read from ``src/``)."""
    sys.path.insert(0, str(SRC))
    try:
        import mayagames
    finally:
        sys.path.pop(0)
    return mayagames.COMPILED_MODULES


def module_file(name: str) -> str:
    return str(Path(*name.split(".")).with_suffix(".py"))


def build(out: Path, jobs: int, quiet: bool) -> Path:
    """Copy ``src/`` to ``out/src`` and compile the modules there; returns that tree."""
    tree = out / "src"
    if tree.exists():
        shutil.rmtree(tree)
    shutil.copytree(SRC, tree, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.c",
                                                             "*.egg-info"))
    c_dir = out / "c"
    c_dir.mkdir(parents=True, exist_ok=True)
    files = [module_file(name) for name in compiled_modules()]
    with tempfile.TemporaryDirectory(prefix="mayagames-compile-") as tmp:
        script = Path(tmp) / "setup_compiled.py"
        script.write_text(SETUP)
        command = [sys.executable, str(script), str(c_dir.resolve()), str(Path(tmp) / "temp"), str(jobs), *files]
        result = subprocess.run(command, cwd=tree, capture_output=quiet, text=True)
    if result.returncode:
        if quiet:
            sys.stderr.write(result.stdout[-20000:] + result.stderr[-20000:])
        raise SystemExit(f"build_compiled: mypyc failed (exit {result.returncode})")
    return tree


def check(tree: Path) -> list[str]:
    """The compiled modules a fresh interpreter loads from ``tree`` (all of them, or fail)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    code = "import mayagames; print('\\n'.join(mayagames.compiled()))"
    loaded = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True,
                            text=True, cwd=tempfile.gettempdir()).stdout.split()
    missing = sorted(set(compiled_modules()) - set(loaded))
    if missing:
        raise SystemExit(f"build_compiled: not loaded as compiled from {tree}: {', '.join(missing)}")
    return loaded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=REPO / "build" / "compiled",
                        help="where to build (the tree is OUT/src; default build/compiled)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel C compilations")
    parser.add_argument("--verbose", action="store_true", help="show mypyc's and the C compiler's output")
    args = parser.parse_args()
    start = time.monotonic()
    tree = build(args.out.resolve(), args.jobs, quiet=not args.verbose)
    loaded = check(tree)
    print(f"compiled {len(loaded)} modules into {tree} in {time.monotonic() - start:.0f} s; "
          f"use it with PYTHONPATH={tree}")


if __name__ == "__main__":
    main()

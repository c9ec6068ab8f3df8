#!/usr/bin/env bash
# CI: the compiled engine as operators get it (issues 16, 22). The wheel that `pip wheel .`
# builds (the package's build backend compiles the engine's hot modules with mypyc; kept in
# build/dist by .ci/wheels.sh, else built here) is installed into a clean virtualenv with
# the test tools, and the engine, bot (MCTS, review), RL and equivalence tests run against
# that installed package: pyproject's `pythonpath = ["src"]` is overridden, and
# MAYAGAMES_EXPECT_COMPILED=1 makes tests/conftest.py refuse to run unless every compiled
# module is really the one imported. The pure tree (src/, the editable install) stays the
# reference and is tested by the README's command.
# Usage: .ci/compiled.sh [pytest arguments]   (default: the test directories below)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
DIST="$PWD/build/dist"
if ! ls "$DIST"/mayagames-*.whl >/dev/null 2>&1; then
  MAYAGAMES_REQUIRE_COMPILED=1 "$PY" -m pip wheel --no-deps --quiet . -w "$DIST"
fi
WHEEL=$(ls "$DIST"/mayagames-*.whl)
case "$WHEEL" in *-py3-none-any.whl) echo "compiled.sh: $WHEEL is a pure wheel"; exit 1 ;; esac
VENV=$(mktemp -d)/venv
trap 'rm -rf "$(dirname "$VENV")"' EXIT
"$PY" -m venv "$VENV"
"$VENV/bin/pip" install --quiet "$WHEEL[arena,rl]" "pytest>=8" "pytest-xdist>=3.5" "hypothesis>=6.100"
"$VENV/bin/mayagames" --version
export MAYAGAMES_EXPECT_COMPILED=1 PYTHONPATH=
ARGS=("$@")
[ ${#ARGS[@]} -gt 0 ] || ARGS=(tests/tikal tests/tzolkin tests/equivalence tests/agents tests/rl
                               tests/test_conformance.py tests/test_core.py tests/test_playthroughs.py
                               tests/test_compiled.py tests/arena/test_review.py
                               -n auto -q)
"$VENV/bin/python" -m pytest -o pythonpath= -p no:cacheprovider "${ARGS[@]}"

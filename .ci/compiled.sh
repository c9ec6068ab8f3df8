#!/usr/bin/env bash
# CI: the optional compiled engine (issue 16). Builds it from this checkout's source with
# mypyc (tools/build_compiled.py -> build/compiled/src; mypy comes with the dev extra, the C
# compiler with the machine) and runs the engine, bot (MCTS, review), RL and equivalence tests against it,
# so that both the pure-Python reference and the compiled build stay green.
# pyproject's pytest setting `pythonpath = ["src"]` would put the pure tree first: it is
# overridden here, and MAYAGAMES_EXPECT_COMPILED=1 makes tests/conftest.py refuse to run
# unless every compiled module is really the one imported.
# Usage: .ci/compiled.sh [pytest arguments]   (default: the test directories below)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
TREE="$PWD/build/compiled/src"
"$PY" tools/build_compiled.py
export PYTHONPATH="$TREE" MAYAGAMES_EXPECT_COMPILED=1
ARGS=("$@")
[ ${#ARGS[@]} -gt 0 ] || ARGS=(tests/tikal tests/tzolkin tests/equivalence tests/agents tests/rl
                               tests/test_conformance.py tests/test_core.py tests/test_playthroughs.py
                               tests/test_compiled.py tests/arena/test_review.py
                               -n auto -q)
"$PY" -m pytest -o pythonpath="$TREE" -p no:cacheprovider "${ARGS[@]}"

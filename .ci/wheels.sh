#!/usr/bin/env bash
# Installs as an operator installs: build the wheel (compiled engine), install it into a clean virtualenv per
# extra (no editable checkout, nothing else), and run that extra's command:
#   base     mayagames games; a terminal game between two bots
#   server   mayagames serve answering /api/health
#   arena    mayagames simulate (two tiny games)
#   rl       mayagames rl games
# and check that, in the base install, the other commands say which extra to install.
# Usage: .ci/wheels.sh [extra ...]   (default: all four). pip's cache makes reruns quick.
set -euo pipefail
# An inherited PYTHONPATH to a checkout's src/ (with its editable egg-info) would make pip take the
# package for installed and skip it (seen by hand: no `mayagames` script in the clean virtualenv).
unset PYTHONPATH
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
EXTRAS=("$@")
[ ${#EXTRAS[@]} -gt 0 ] || EXTRAS=(base server arena rl)

# The wheel as pip builds it: the package's build backend compiles the engine with mypyc
# (MAYAGAMES_REQUIRE_COMPILED=1: no silent pure fallback here). Kept in build/dist for
# .ci/compiled.sh, which runs the engine, bot and equivalence tests on it.
DIST="$PWD/build/dist"
rm -rf "$DIST"
MAYAGAMES_REQUIRE_COMPILED=1 "$PY" -m pip wheel --no-deps --quiet . -w "$DIST"
WHEEL=$(ls "$DIST"/mayagames-*.whl)

for extra in "${EXTRAS[@]}"; do
  echo "== wheel install: $extra"
  venv="$WORK/venv-$extra"
  "$PY" -m venv "$venv"
  spec="$WHEEL"; [ "$extra" = base ] || spec="$WHEEL[$extra]"
  "$venv/bin/pip" install --quiet "$spec"
  cd "$WORK"  # not the checkout: only the installed package is importable
  case "$extra" in
    base)
      "$venv/bin/mayagames" --version | tee "$WORK/version.txt"
      grep -q "compiled: \([0-9]*\) of \1 modules" "$WORK/version.txt"  # every module compiled
      "$venv/bin/mayagames" games > "$WORK/games.txt"; grep -q tikal "$WORK/games.txt"
      "$venv/bin/mayagames" play tzolkin --players random,random --seed 1 > "$WORK/play.txt"
      grep -qi "winner\|game over\|scores" "$WORK/play.txt"
      for command in "serve" "rl games"; do
        if "$venv/bin/mayagames" $command > "$WORK/out.txt" 2>&1; then
          echo "'mayagames $command' ran without its extra"; exit 1
        fi
        grep -q "pip install 'mayagames\[" "$WORK/out.txt" || { cat "$WORK/out.txt"; exit 1; }
      done ;;
    server)
      port=$("$venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
      "$venv/bin/mayagames" serve --port "$port" --database-url "sqlite:///$WORK/serve.db" \
        --log-level warning > "$WORK/serve.log" 2>&1 &
      server=$!
      ok=""
      for _ in $(seq 1 120); do
        if "$venv/bin/python" -c "import urllib.request,sys; sys.exit(0 if b'\"ok\":true' in urllib.request.urlopen('http://127.0.0.1:$port/api/health').read() else 1)" 2>/dev/null; then ok=1; break; fi
        kill -0 "$server" 2>/dev/null || break
        sleep 0.5
      done
      kill -TERM "$server"; wait "$server" || true
      [ -n "$ok" ] || { cat "$WORK/serve.log"; exit 1; } ;;
    arena)
      "$venv/bin/mayagames" simulate tikal --players random,random --games 2 --out "$WORK/sim" ;;
    rl)
      "$venv/bin/mayagames" rl games > "$WORK/rl.txt"; grep -q tikal "$WORK/rl.txt" ;;
  esac
  cd - > /dev/null
done
echo "wheel installs: ok (${EXTRAS[*]})"

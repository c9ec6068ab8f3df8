#!/usr/bin/env bash
# Install everything mayagames needs on a fresh Debian/Ubuntu machine:
# a virtual environment in .venv with the package and all extras, plus the
# system packages the full test suite uses (Chromium for browser tests,
# PostgreSQL for the database tests, nginx to check the proxy configuration) when apt-get is available.
set -euo pipefail
cd "$(dirname "$0")"

if command -v apt-get >/dev/null 2>&1 && [ "${MAYAGAMES_SKIP_APT:-0}" != "1" ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq || true
  $SUDO apt-get install -y -qq chromium postgresql >/dev/null || echo "warning: could not install chromium/postgresql; browser and PostgreSQL tests will be skipped"
  # a C compiler and Python headers for the optional compiled engine (tools/build_compiled.py)
  $SUDO apt-get install -y -qq gcc python3-dev >/dev/null || echo "warning: could not install gcc/python3-dev; tools/build_compiled.py needs a C compiler"
  # nginx only to check the deployment's proxy configuration (nginx -t; tests/server/test_deploy.py)
  $SUDO apt-get install -y -qq nginx-light >/dev/null 2>&1 || echo "note: nginx-light not installed; the nginx configuration check will be skipped"
fi

python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[dev]'
echo "installed: run '.venv/bin/mayagames --help'"

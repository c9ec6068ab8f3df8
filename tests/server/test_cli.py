"""``mayagames serve``: registered in the CLI, and really starts the web app."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
from typer.testing import CliRunner

from mayagames.cli import app


def test_serve_is_a_command():
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for flag in ("--port", "--database-url", "--bot-delay", "--test-games"):
        assert flag in result.output


def test_serve_starts_the_app(tmp_path, support):
    port = support.free_port()
    src = Path(__file__).resolve().parents[2] / "src"
    env = {**os.environ, "PYTHONPATH": str(src), "DATABASE_URL": ""}
    process = subprocess.Popen(
        [sys.executable, "-m", "mayagames.cli", "serve", "--port", str(port), "--test-games",
         "--database-url", f"sqlite:///{tmp_path / 'serve.db'}", "--log-level", "warning"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1)
                break
            except httpx.TransportError:
                assert process.poll() is None, process.stdout.read()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        assert health.json()["ok"] is True
        games = httpx.get(f"http://127.0.0.1:{port}/api/games").json()["games"]
        assert "toy" in [g["name"] for g in games]
        assert "<html" in httpx.get(f"http://127.0.0.1:{port}/").text.lower()
    finally:
        process.send_signal(signal.SIGINT)
        output, _ = process.communicate(timeout=20)
    assert f"open http://127.0.0.1:{port}/" in output
    assert (tmp_path / "serve.db").exists()

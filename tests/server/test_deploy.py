"""The deployment (issue 22): the container image and compose file, and their smoke test
(create a table, play moves through both instances).

Where a Docker engine runs, the image is built and the compose stack (PostgreSQL, the schema
upgrade, two instances, nginx) is smoke-tested through the proxy. Where none runs (this
machine has only the client), that test skips with the reason, and the same smoke test runs
against two plain ``mayagames serve`` processes on PostgreSQL, started as the compose file
starts them (``db upgrade`` first, then JSON logs and a metrics token).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "deploy-metrics"


def load_instances() -> Any:
    name = "mayagames_test_instances"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("test_instances.py"))
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def smoke(first: str, second: str, client: httpx.Client) -> None:
    """A table made through ``first``; moves alternately through both; both see each move."""
    body = {"game": "tzolkin", "players": 2, "options": {},
            "seats": [{"name": "Ana", "agent": "human"}, {"name": "Bo", "agent": "human"}]}
    made = client.post(f"{first}/api/tables", json=body)
    assert made.status_code == 201, made.text
    table = made.json()
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    for number in range(6):
        through = (first, second)[number % 2]
        state = client.get(f"{through}/api/tables/{table['table']}").json()
        assert state["move_number"] == number
        answer = client.post(f"{through}/api/tables/{table['table']}/moves",
                             headers={"Authorization": f"Bearer {tokens[state['current_player']]}"},
                             json={"move_number": number, "action_id": 0})
        assert answer.status_code == 200, answer.text
    for base in (first, second):
        assert client.get(f"{base}/api/tables/{table['table']}").json()["move_number"] == 6


def docker_engine() -> str | None:
    """None if a Docker engine answers, else why not."""
    if shutil.which("docker") is None:
        return "the docker client is not installed"
    try:
        done = subprocess.run(["docker", "info", "--format", "{{.ServerVersion}}"],
                              capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        return "docker info timed out"
    if done.returncode:
        return "no Docker engine runs here (docker info: " + (done.stderr.strip()[:200] or "failed") + ")"
    return None


def test_the_files_describe_the_deployment():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert dockerfile.count("\nFROM ") + dockerfile.startswith("FROM ") >= 2  # multi-stage
    assert "USER mayagames" in dockerfile and "pip wheel" in dockerfile
    copied = {word for line in dockerfile.splitlines() if line.startswith("COPY ") and "--from" not in line
              for word in line.split()[1:-1]}
    # what the build backend needs (the compiled build: setup.py, tools/build_compiled.py)
    assert {"pyproject.toml", "setup.py", "README.md", "build_backend", "tools", "src"} <= copied
    compose = (ROOT / "compose.yaml").read_text()
    for service in ("db:", "migrate:", "web1:", "web2:", "proxy:"):
        assert f"\n  {service}" in compose
    assert '"db", "upgrade"' in compose
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "proxy_set_header Upgrade $http_upgrade" in nginx
    assert "server web1:8000" in nginx and "server web2:8000" in nginx


@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed")
def test_the_nginx_configuration_parses(tmp_path):
    """``nginx -t`` on the proxy's configuration (the upstream names resolved locally)."""
    conf = (ROOT / "deploy" / "nginx.conf").read_text().replace("web1:8000", "127.0.0.1:8001") \
        .replace("web2:8000", "127.0.0.1:8002").replace("listen 80;", "listen 18080;")
    (tmp_path / "site.conf").write_text(conf)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid; error_log {tmp_path}/error.log; events {{}}\n"
        f"http {{ access_log off; client_body_temp_path {tmp_path}; include {tmp_path}/site.conf; }}\n")
    done = subprocess.run(["nginx", "-t", "-c", str(tmp_path / "nginx.conf")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
def test_the_container_stack_plays_through_both_instances(tmp_path):
    reason = docker_engine()
    if reason:
        pytest.skip(f"{reason}; the same smoke test runs on plain serve processes "
                    "(test_two_serve_processes_as_deployed)")
    project = f"mayagames-test-{os.getpid()}"
    compose = ["docker", "compose", "-p", project, "-f", str(ROOT / "compose.yaml")]
    try:
        subprocess.run([*compose, "up", "-d", "--build", "--wait"], check=True, timeout=1800)
        with httpx.Client(timeout=30) as client:
            proxy = "http://127.0.0.1:8080"
            assert client.get(f"{proxy}/api/ready").json()["ready"] is True
            smoke(proxy, proxy, client)
    finally:
        subprocess.run([*compose, "down", "-v"], timeout=300)


@pytest.mark.postgres
def test_two_serve_processes_as_deployed(tmp_path):
    if not os.environ.get("DATABASE_URL"):
        pytest.skip("DATABASE_URL is not set (no PostgreSQL)")
    import uuid
    from urllib.parse import quote

    from sqlalchemy import text

    from mayagames.server.db import Database

    instances = load_instances()
    schema = f"dep_{uuid.uuid4().hex[:12]}"
    base = os.environ["DATABASE_URL"]
    url = f"{base}{'&' if '?' in base else '?'}options={quote(f'-csearch_path={schema}')}"
    keeper = Database(base, schema=schema)
    with keeper.engine.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    started: list[Any] = []
    try:
        upgrade = subprocess.run([sys.executable, "-m", "mayagames.cli", "db", "upgrade",
                                  "--database-url", url], capture_output=True, text=True,
                                 env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
        assert upgrade.returncode == 0, upgrade.stderr
        extra = ("--log-format", "json", "--metrics-token", TOKEN)
        for n in range(2):
            started.append(instances.Instance(url, tmp_path / f"web{n + 1}.log", 0.0,
                                              test_games=False, extra=extra))
        for instance in started:
            instance.wait_up()
        with httpx.Client(timeout=30) as client:
            for instance in started:
                assert client.get(f"{instance.url}/api/ready").json()["ready"] is True
            smoke(started[0].url, started[1].url, client)
            moves = [client.get(f"{i.url}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
                     for i in started]
        # each instance counts its own (three moves each)
        for page in moves:
            assert page.status_code == 200
            assert "mayagames_moves_stored_total 3.0" in page.text
    finally:
        for instance in started:
            instance.stop()
        keeper.drop_schema()
        keeper.dispose()
    log = (tmp_path / "web1.log").read_text()
    assert '"logger": "mayagames.access"' in log and '"table_id"' in log

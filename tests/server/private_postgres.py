"""A PostgreSQL server of a test's own (``initdb`` in a temporary folder, its own port), so
that a test or benchmark can stop and restart the database without disturbing the shared
server other tests use. Started as the ``postgres`` user when run as root (PostgreSQL
refuses to run as root); trust authentication on 127.0.0.1 only; no fsync (a test's data).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def postgres_bin() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl`` (Debian keeps them out of the PATH)."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    folders = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2])
                     if p.split("/")[-2].isdigit() else 0)
    return Path(folders[-1]) if folders and Path(folders[-1], "initdb").exists() else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def why_not_available() -> str | None:
    """Why no private PostgreSQL can be started here (None: it can)."""
    if postgres_bin() is None:
        return "no PostgreSQL server binaries (initdb, pg_ctl)"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root without runuser (PostgreSQL refuses root)"
    return None


class PrivatePostgres:
    """``start()``, ``stop()`` (fast shutdown: every connection is cut), ``close()``;
    ``url`` is a libpq URL of its ``postgres`` database for the role ``mayagames``."""

    def __init__(self) -> None:
        folder = postgres_bin()
        assert folder is not None, why_not_available()
        self.bin = folder
        self.folder = Path(tempfile.mkdtemp(prefix="mayagames-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.url = f"postgresql://mayagames@127.0.0.1:{self.port}/postgres"
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        self.run("initdb", "-D", str(self.data), "-U", "mayagames", "--auth=trust", "-E", "UTF8",
                 "--no-sync")
        self.start()

    def run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c synchronous_commit=off -c max_connections=200")
        self.run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.folder / "log"),
                 "-w", "-t", "60", "start")

    def stop(self) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")

    def restart(self) -> None:
        self.stop()
        self.start()

    def close(self) -> None:
        try:
            self.run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        except subprocess.CalledProcessError:
            pass  # not running
        shutil.rmtree(self.folder, ignore_errors=True)

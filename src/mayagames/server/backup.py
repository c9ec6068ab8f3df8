"""``mayagames db backup FILE`` / ``db restore FILE``.

SQLite: Python's online backup API (a consistent copy while the server runs; a restore
copies the file's pages back into the database). PostgreSQL: ``pg_dump --format=custom``
and ``pg_restore --clean --single-transaction`` when the PostgreSQL client programs are
installed (else a clear message). A file that is not a backup is refused before anything
is touched; so is a restore into an SQLite file a running server holds.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

from .db import Database, SingleInstanceError
from .migrations import VERSION_TABLE
from .migrations.baseline import BASELINE

SQLITE_MAGIC = b"SQLite format 3\x00"
PGDUMP_MAGIC = b"PGDMP"


class BackupError(RuntimeError):
    """A backup or restore that could not be done (nothing was changed)."""


def backup(db: Database, target: Path) -> str:
    """Copy the database to ``target`` (which must not exist); a line saying what was done."""
    if target.exists():
        raise BackupError(f"{target} exists already: choose a new file (nothing was written)")
    if db.is_sqlite:
        path = db.sqlite_path()
        if path is None or not os.path.exists(path):
            raise BackupError(f"there is no SQLite database file {path or '(in memory)'} to back up")
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            copy = sqlite3.connect(target)
            try:
                source.backup(copy)
            finally:
                copy.close()
        finally:
            source.close()
        return f"backed up {path} to {target} ({target.stat().st_size} bytes)"
    command = [_pg_program("pg_dump"), "--format=custom", "--no-owner", f"--file={target}"]
    if db.schema:
        command.append(f"--schema={db.schema}")
    _run(command + [db.libpq_url()], "pg_dump")
    return f"backed up the PostgreSQL database to {target} ({target.stat().st_size} bytes)"


def restore(db: Database, source: Path) -> str:
    """Replace the database's contents with the backup ``source``."""
    if not source.is_file():
        raise BackupError(f"there is no backup file {source}")
    with open(source, "rb") as handle:
        magic = handle.read(16)
    if db.is_sqlite:
        if magic != SQLITE_MAGIC:
            raise BackupError(f"{source} is not a mayagames backup (not an SQLite database; "
                              "nothing was changed)")
        _check_sqlite_backup(source)
        path = db.sqlite_path()
        if path is None:
            raise BackupError("an in-memory database cannot be restored into")
        try:  # no server may be serving the file while its pages are replaced
            db.claim_single_instance()
        except SingleInstanceError as exc:
            raise BackupError(f"stop the server first: {exc}") from None
        try:
            backup_conn = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
            live = sqlite3.connect(path)
            try:
                backup_conn.backup(live)
            finally:
                live.close()
                backup_conn.close()
        finally:
            db.release_single_instance()
        return f"restored {path} from {source}"
    if not magic.startswith(PGDUMP_MAGIC):
        raise BackupError(f"{source} is not a mayagames backup (not a pg_dump custom-format "
                          "file; nothing was changed)")
    listing = _run([_pg_program("pg_restore"), "--list", str(source)], "pg_restore --list")
    if " game_tables " not in listing and f" {VERSION_TABLE} " not in listing:
        raise BackupError(f"{source} is a PostgreSQL dump without mayagames' tables "
                          "(nothing was changed)")
    _run([_pg_program("pg_restore"), "--clean", "--if-exists", "--no-owner",
          "--single-transaction", "--exit-on-error", f"--dbname={db.libpq_url()}", str(source)],
         "pg_restore")
    return f"restored the PostgreSQL database from {source}"


def _check_sqlite_backup(source: Path) -> None:
    try:
        conn = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            check = conn.execute("PRAGMA quick_check").fetchone()
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{source} is damaged ({exc}); nothing was changed") from None
    if not check or check[0] != "ok":
        raise BackupError(f"{source} is damaged ({check[0] if check else 'no answer'}); "
                          "nothing was changed")
    if not tables & (set(BASELINE.tables) | {VERSION_TABLE}):
        raise BackupError(f"{source} is an SQLite database without mayagames' tables "
                          "(nothing was changed)")


def _pg_program(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed: PostgreSQL backups use the PostgreSQL "
                          f"client programs (Debian: apt-get install postgresql-client), or "
                          "your provider's own backups")
    return found


def _run(command: list[str], what: str) -> str:
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        raise BackupError(f"{what} failed (exit {done.returncode}): "
                          f"{(done.stderr or done.stdout).strip()[-1500:]}")
    return done.stdout

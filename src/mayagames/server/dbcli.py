"""``mayagames db``: the web app's database: status, upgrade, backup, restore, revision."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

DATABASE_URL = typer.Option(None, "--database-url", envvar="DATABASE_URL",
                            help="the web app's database (default: SQLite file mayagames.db)")


def register(app: typer.Typer) -> None:
    group = typer.Typer(help="The web app's database: schema migrations, backups.",
                        no_args_is_help=True)
    group.command("status")(status)
    group.command("upgrade")(upgrade)
    group.command("backup")(backup)
    group.command("restore")(restore)
    group.command("revision", hidden=True)(revision)
    app.add_typer(group, name="db")


def _database(url: Optional[str]):  # type: ignore[no-untyped-def]
    from .db import DEFAULT_URL, Database

    return Database(url or DEFAULT_URL)


def _fail(message: str, code: int = 1) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


def status(database_url: Optional[str] = DATABASE_URL) -> None:
    """Say which schema revision the database is at, and whether the server can start on it."""
    from . import migrations

    db = _database(database_url)
    try:
        found = migrations.state(db)
    except Exception as exc:
        raise _fail(f"cannot read the database: {type(exc).__name__}: {exc}") from None
    finally:
        db.dispose()
    typer.echo(found.describe(migrations.where(db)))
    for revision, message in migrations.history():
        mark = "*" if revision == found.revision else " "
        typer.echo(f" {mark} {revision}  {message.splitlines()[0] if message else ''}")
    if found.kind not in ("current", "empty"):
        raise typer.Exit(1)


def upgrade(database_url: Optional[str] = DATABASE_URL) -> None:
    """Bring the database's schema to this mayagames' revision (one transaction: all or
    nothing). Stop the servers first; back the database up first (db backup FILE)."""
    from . import migrations
    from .db import SingleInstanceError

    db = _database(database_url)
    try:  # SQLite: not under a running server (PostgreSQL: instances wait on a lock)
        db.claim_single_instance()
    except SingleInstanceError as exc:
        db.dispose()
        raise _fail(f"stop the server first: {exc}") from None
    try:
        before, after = migrations.upgrade(db)
    except migrations.SchemaError as exc:
        raise _fail(str(exc)) from None
    except Exception as exc:
        raise _fail(f"cannot reach the database: {type(exc).__name__}: {exc}"[:1000]) from None
    finally:
        db.dispose()
    if before.kind == "current":
        typer.echo(f"already at revision {after.head}: nothing to do")
    else:
        was = before.revision or ("empty" if before.kind == "empty" else "before migrations")
        typer.echo(f"upgraded the database from {was} to revision {after.revision}")


def backup(file: Path = typer.Argument(..., help="the backup file to write (must not exist)"),
           database_url: Optional[str] = DATABASE_URL) -> None:
    """Back the database up: SQLite with its online backup (the server may run),
    PostgreSQL with pg_dump."""
    from .backup import BackupError
    from .backup import backup as do_backup

    db = _database(database_url)
    try:
        typer.echo(do_backup(db, file))
    except BackupError as exc:
        raise _fail(str(exc)) from None
    finally:
        db.dispose()


def restore(file: Path = typer.Argument(..., help="a file 'mayagames db backup' wrote"),
            database_url: Optional[str] = DATABASE_URL) -> None:
    """Replace the database's contents with a backup (stop the servers first)."""
    from .backup import BackupError
    from .backup import restore as do_restore

    db = _database(database_url)
    try:
        typer.echo(do_restore(db, file))
    except BackupError as exc:
        raise _fail(str(exc)) from None
    finally:
        db.dispose()


def revision(message: str = typer.Argument(..., help="what the revision changes")) -> None:
    """(Developers) write the next migration file into this source tree's versions/."""
    from . import migrations

    typer.echo(f"wrote {migrations.new_revision(message)}: fill in upgrade()")

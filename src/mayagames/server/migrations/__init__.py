"""Versioned schema migrations (Alembic): the database's layout follows the code's.

The revisions live in ``versions/`` next to this file (so an installed wheel has them) and
run programmatically: ``mayagames db upgrade`` calls :func:`upgrade`; nothing reads an
``alembic.ini``. The database records its revision in Alembic's ``alembic_version`` table.

* :func:`prepare` is what a starting server (and every tool that opens the database) calls:
  a new empty database is created at head, one at head is used as it is, and any other
  (behind, ahead, unversioned from before the migrations, damaged) is refused with a
  :class:`SchemaError` that says what to run. It changes nothing in a database it refuses.
* :func:`upgrade` brings any schema the server ever wrote to head in one transaction: a
  failed revision rolls back everything (SQLite included: the DDL runs inside ``BEGIN``).
  Revision ``0001`` is the baseline: it creates what is missing of the layout of the last
  release without migrations and adds the columns older releases lacked, so databases
  from before Alembic (no ``alembic_version``) upgrade like any other.

Adding a column or a table: change the models (``db.py``, ``playerstore.py``, ...) and add
a revision (``mayagames db revision "what changed"`` writes the file with the right
``down_revision``); ``tests/server/test_migrations.py`` fails while the models and the
revisions disagree. See docs/operations.md "Schema migrations".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from sqlalchemy import create_engine, event, inspect, text
from sqlalchemy.engine import Connection, Engine

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from ..db import Database

HERE = Path(__file__).resolve().parent
VERSION_TABLE = "alembic_version"
LOCK_KEY = 7243001  # PostgreSQL advisory lock: instances starting together wait for each other
UPGRADE_HINT = "mayagames db upgrade"


class SchemaError(RuntimeError):
    """The database's schema is not the one this code runs on (nothing was changed)."""


@dataclass(frozen=True)
class SchemaState:
    """Where a database stands: ``empty``, ``legacy`` (tables from before the migrations),
    ``current``, ``behind``, ``ahead`` (a revision this code does not know) or ``damaged``."""

    kind: str
    revision: str | None
    head: str
    detail: str = ""

    def describe(self, where: str) -> str:
        if self.kind == "current":
            return f"the database {where} is at revision {self.head} (head)"
        if self.kind == "empty":
            return f"the database {where} is empty (it is created at revision {self.head})"
        if self.kind == "legacy":
            return (f"the database {where} was made by a mayagames release from before schema "
                    f"migrations; run '{UPGRADE_HINT}' to bring it to revision {self.head} "
                    "(back it up first: 'mayagames db backup FILE')")
        if self.kind == "behind":
            return (f"the database {where} is at revision {self.revision}, behind this "
                    f"mayagames ({self.head}); run '{UPGRADE_HINT}' (back it up first: "
                    "'mayagames db backup FILE')")
        if self.kind == "ahead":
            return (f"the database {where} is at revision {self.revision!r}, which this "
                    f"mayagames (head {self.head}) does not know: it was upgraded by a newer "
                    f"mayagames. Run that version, or restore a backup made before the upgrade "
                    f"('mayagames db restore FILE'); '{UPGRADE_HINT}' cannot go back")
        return (f"the database {where} has a damaged schema version ({self.detail}); restore "
                "a backup ('mayagames db restore FILE')")


# --- the scripts ----------------------------------------------------------------
def alembic_config(script_location: Path | None = None) -> "Config":
    from alembic.config import Config

    config = Config()
    config.set_main_option("path_separator", "os")
    config.set_main_option("script_location", str(script_location or HERE))
    config.set_main_option("version_locations", str((script_location or HERE) / "versions"))
    return config


@lru_cache(maxsize=8)
def scripts(script_location: Path | None = None) -> "ScriptDirectory":
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config(script_location))


def head(script_location: Path | None = None) -> str:
    heads = scripts(script_location).get_heads()
    if len(heads) != 1:  # two revisions with the same down_revision (after a merge)
        raise SchemaError(f"the migrations have {len(heads)} heads {sorted(heads)}: give one of "
                          "the newest revisions the other as its down_revision")
    return heads[0]


def known_revisions(script_location: Path | None = None) -> list[str]:
    """Every revision, oldest first."""
    return [s.revision for s in reversed(list(scripts(script_location).walk_revisions()))]


# --- connections ----------------------------------------------------------------
def migration_engine(db: "Database") -> Engine:
    """An engine for schema work. SQLite: the driver's own transaction handling is turned
    off and ``BEGIN IMMEDIATE`` is sent, so DDL is inside the transaction too (a failed
    migration rolls back whole), and foreign keys are not enforced while tables change."""
    if db.is_sqlite:
        engine = create_engine(db.url, connect_args={"timeout": 10})

        @event.listens_for(engine, "connect")
        def _connect(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.isolation_level = None

        @event.listens_for(engine, "begin")
        def _begin(conn: Connection) -> None:
            conn.exec_driver_sql("BEGIN IMMEDIATE")

        return engine
    return create_engine(db.url)


class _Session:
    """A transaction on the migration engine, in the database's schema (PostgreSQL:
    ``SET LOCAL search_path``), holding the advisory lock of schema work."""

    def __init__(self, db: "Database") -> None:
        self.db = db
        self.engine = migration_engine(db)

    def __enter__(self) -> Connection:
        self.context = self.engine.begin()
        try:
            conn = self.context.__enter__()
        except BaseException:  # the database cannot be reached
            self.engine.dispose()
            raise
        if not self.db.is_sqlite:
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
            if self.db.schema:
                conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{self.db.schema}"'))
                conn.execute(text(f'SET LOCAL search_path TO "{self.db.schema}"'))
        return conn

    def __exit__(self, *exc: Any) -> None:
        try:
            self.context.__exit__(*exc)
        finally:
            self.engine.dispose()


# --- where a database stands -------------------------------------------------------
def our_tables() -> set[str]:
    from .baseline import BASELINE

    return set(BASELINE.tables)


def read_state(conn: Connection, script_location: Path | None = None) -> SchemaState:
    top = head(script_location)
    names = set(inspect(conn).get_table_names())
    if VERSION_TABLE not in names:
        if names & our_tables():
            return SchemaState("legacy", None, top)
        return SchemaState("empty", None, top)
    try:
        rows = [r[0] for r in conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}"))]
    except Exception as exc:  # a version table that is not Alembic's
        return SchemaState("damaged", None, top, f"{VERSION_TABLE} cannot be read: {exc}"[:300])
    if len(rows) != 1 or not isinstance(rows[0], str) or not rows[0]:
        return SchemaState("damaged", None, top,
                           f"{VERSION_TABLE} holds {len(rows)} rows {rows[:3]!r}, not one revision")
    revision = rows[0]
    if revision == top:
        return SchemaState("current", revision, top)
    if revision in known_revisions(script_location):
        return SchemaState("behind", revision, top)
    if not re.fullmatch(r"[0-9A-Za-z_]{1,32}", revision):
        return SchemaState("damaged", revision, top, f"the revision {revision[:40]!r} is not one")
    return SchemaState("ahead", revision, top)


def where(db: "Database") -> str:
    url = db.engine.url.render_as_string(hide_password=True)
    return url + (f" (schema {db.schema})" if db.schema else "")


def state(db: "Database", script_location: Path | None = None) -> SchemaState:
    """Where ``db`` stands (reads only)."""
    with _Session(db) as conn:
        return read_state(conn, script_location)


# --- what the server and the commands call -------------------------------------------
def prepare(db: "Database") -> SchemaState:
    """Make a new empty database at head (every revision, as ``db upgrade`` would); accept
    one at head; refuse any other with a :class:`SchemaError` naming the command to run
    (nothing is changed then)."""
    with _Session(db) as conn:
        found = read_state(conn)
        if found.kind == "empty":
            _run_revisions(conn, db.schema, None)
            return SchemaState("current", found.head, found.head)
    if found.kind != "current":
        raise SchemaError(found.describe(where(db)))
    return found


def _run_revisions(conn: Connection, schema: str | None, script_location: Path | None) -> None:
    from alembic import command

    config = alembic_config(script_location)
    config.attributes["connection"] = conn
    config.attributes["schema"] = schema
    command.upgrade(config, "head")


def upgrade(db: "Database", script_location: Path | None = None) -> tuple[SchemaState, SchemaState]:
    """Bring ``db`` to head in one transaction; (before, after). A database ahead of this
    code or damaged is refused, and a failing revision rolls back whole: both raise
    :class:`SchemaError` with the reason, the database as it was."""
    with _Session(db) as conn:
        before = read_state(conn, script_location)
        if before.kind in ("ahead", "damaged"):
            raise SchemaError(before.describe(where(db)))
        if before.kind == "current":
            return before, before
        try:
            _run_revisions(conn, db.schema, script_location)
        except SchemaError:
            raise
        except Exception as exc:
            raise SchemaError(f"the upgrade of {where(db)} failed and was rolled back (the "
                              f"database is as it was): {type(exc).__name__}: {exc}"[:2000]) from exc
        after = read_state(conn, script_location)
    return before, after


def history() -> Iterator[tuple[str, str]]:
    """(revision, message) of every revision, oldest first."""
    for script in reversed(list(scripts().walk_revisions())):
        yield script.revision, (script.doc or "").strip()


def new_revision(message: str) -> Path:
    """Write the next revision's file (into this source tree's ``versions/``) from the
    template: ``upgrade()`` to fill in, ``down_revision`` the current head."""
    from alembic import command

    number = len(known_revisions()) + 1
    slug = re.sub(r"[^a-z0-9]+", "_", message.lower()).strip("_")[:40] or "change"
    rev_id = f"{number:04d}"
    config = alembic_config()
    command.revision(config, message=message, rev_id=rev_id)
    scripts.cache_clear()
    made = sorted((HERE / "versions").glob(f"{rev_id}_*.py"))
    target = HERE / "versions" / f"{rev_id}_{slug}.py"
    if made and made[0] != target:
        made[0].rename(target)
    return target

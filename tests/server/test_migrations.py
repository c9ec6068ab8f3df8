"""Schema migrations (issue 22): every layout an older release wrote upgrades to head with
``mayagames db upgrade`` and its games, accounts and ratings survive; the server refuses a
database behind, ahead or damaged; a failing revision rolls back whole; the models and the
revisions agree; backups and restores, and their bad input.

The older layouts (``data/legacy_layouts.json``) were read from the databases that each
commit changing the schema made, from 5c3cb8b on; each is built here (SQLite and
PostgreSQL) from the frozen baseline less what it lacked, and filled with the rows of a
database the current server wrote (finished and unfinished games, accounts, ratings),
less the columns the layout lacks.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import quote

import pytest
from sqlalchemy import Index, MetaData, Table, UniqueConstraint, create_engine, select, text
from typer.testing import CliRunner

from mayagames.cli import app as cli_app
from mayagames.server import migrations
from mayagames.server.db import Base, Database
from mayagames.server.migrations import SchemaError
from mayagames.server.migrations.baseline import BASELINE

LAYOUTS = json.loads((Path(__file__).parent / "data" / "legacy_layouts.json").read_text())["layouts"]
PASSWORD = "correct horse 123"
ACCOUNTS = ("Ixchel", "Kinich")
DIALECTS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


def new_app(url: str) -> Any:
    from mayagames.server import create_app
    from mayagames.server.limits import ServerLimits

    return create_app(url, limits=ServerLimits(allow_fixed_seed=True).without_rate_limits(),
                      fast_password_hashes=True)


def spectator(client: Any, table_id: str) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table_id}")
    assert answer.status_code == 200, answer.text
    state = answer.json()
    return {k: state[k] for k in ("game", "move_number", "terminal", "view", "log", "scores")}


def game_part(message: dict[str, Any]) -> dict[str, Any]:
    """A message less what comes from the players' side (lobby settings, accounts), which
    layouts older than those tables do not have."""
    return {k: v for k, v in message.items()
            if k not in ("lobby", "ratings", "seats", "players", "clock", "rematch")}


# --- the data: written by today's server -------------------------------------------
@pytest.fixture(scope="module")
def head_data(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Rows of every table of a database the current server filled, and what its app showed."""
    from fastapi.testclient import TestClient

    from mayagames.server import ratings
    from mayagames.server.playerstore import PlayerStore

    url = f"sqlite:///{tmp_path_factory.mktemp('head') / 'head.db'}"
    with TestClient(new_app(url)) as client:
        for name in ACCOUNTS:
            assert client.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
        # a finished game of bots, an unfinished one of bots, an unfinished one of people
        # (the last created by a logged-in account, Kinich: its seat belongs to the account)
        finished = client.post("/api/tables", json={
            "game": "tzolkin", "players": 2, "options": {},
            "seats": [{"name": "A", "agent": "random"}, {"name": "B", "agent": "random"}]}).json()
        people = client.post("/api/tables", json={
            "game": "tikal", "players": 2, "options": {},
            "seats": [{"name": "Ixchel", "agent": "human"}, {"name": "Guest", "agent": "human"}]}).json()
        token = people["seats"][1]["token"]
        deadline = time.monotonic() + 120
        while not client.get(f"/api/tables/{finished['table']}").json()["terminal"]:
            assert time.monotonic() < deadline, "the bots' game did not finish"
            time.sleep(0.1)
        tokens = {seat["seat"]: seat["token"] for seat in people["seats"]}
        for _ in range(6):
            state = client.get(f"/api/tables/{people['table']}").json()
            mover = state["current_player"]
            answer = client.post(f"/api/tables/{people['table']}/moves",
                                 headers={"Authorization": f"Bearer {tokens[mover]}"},
                                 json={"move_number": state["move_number"], "action_id": 0})
            assert answer.status_code == 200, answer.text
        assert token
        tables = [finished["table"], people["table"]]
        db = client.app.state.service.db
        ratings.record_game(PlayerStore(db), "tzolkin", finished["table"],
                            ["account:1", "account:2"], list(ACCOUNTS), [1, 2], time.time())
        client.cookies.clear()  # seen as a spectator sees them
        shown = {t: spectator(client, t) for t in tables}
        replay = client.get(f"/api/tables/{finished['table']}/replay", params={"step": 40}).json()
        ladder = client.get("/api/ratings/tzolkin").json()
    engine = create_engine(url)
    with engine.connect() as conn:
        rows = {t.name: [dict(r) for r in conn.execute(select(t)).mappings()]
                for t in Base.metadata.sorted_tables}
    engine.dispose()
    return {"rows": rows, "tables": tables, "shown": shown, "finished": finished["table"],
            "replay": replay, "ladder": ladder}


# --- databases ------------------------------------------------------------------------
@pytest.fixture
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh empty database of the test's dialect: its URL (PostgreSQL: its own schema,
    chosen by the URL's search_path, as an operator's URL would)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
        return
    base = os.environ.get("DATABASE_URL")
    if not base:
        pytest.skip("PostgreSQL tests need DATABASE_URL")
    schema = f"mig_{uuid.uuid4().hex[:12]}"
    keeper = Database(base, schema=schema)
    with keeper.engine.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    option = quote(f"-csearch_path={schema}")
    try:
        yield f"{base}{'&' if '?' in base else '?'}options={option}"
    finally:
        keeper.drop_schema()
        keeper.dispose()


def build_layout(url: str, layout: dict[str, Any], rows: dict[str, list[dict[str, Any]]]) -> None:
    """Make an older release's tables (the baseline less what that release lacked) and fill
    them with ``rows`` (less the columns the layout lacks)."""
    from mayagames.server.db import normalize_url

    metadata = MetaData()
    for name, spec in layout["tables"].items():
        base = BASELINE.tables[name]
        columns = [base.c[c]._copy() for c in spec["columns"]]
        uniques = [UniqueConstraint(*u.columns.keys()) for u in base.constraints
                   if isinstance(u, UniqueConstraint)]
        table = Table(name, metadata, *columns, *uniques)
        for index in base.indexes:
            if index.name in spec["indexes"]:
                Index(index.name, *[table.c[c.name] for c in index.columns])
    engine = create_engine(normalize_url(url))
    with engine.begin() as conn:
        metadata.create_all(conn)
        for table in metadata.sorted_tables:
            kept = [{k: v for k, v in row.items() if k in table.c} for row in rows.get(table.name, [])]
            if kept:
                conn.execute(table.insert(), kept)
            if engine.dialect.name == "postgresql" and kept and table.c.get("id") is not None \
                    and table.c.id.autoincrement is True:
                conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                                  f"(SELECT max(id) FROM {table.name}))"))
    engine.dispose()


def cli(*args: str) -> Any:
    return CliRunner().invoke(cli_app, list(args))


# --- the tests ------------------------------------------------------------------------
@pytest.mark.parametrize("database", DIALECTS, indirect=True)
def test_models_and_migrations_agree(database: str) -> None:
    """The revisions build exactly the tables the models declare: a model changed without a
    revision (or the other way round) fails here. Add a revision: docs/operations.md."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    db = Database(database)
    try:
        before, after = migrations.upgrade(db)  # every revision from nothing
        assert (before.kind, after.kind) == ("empty", "current")
        import mayagames.server.app  # noqa: F401  (every module the server uses: their tables)
        with db.engine.connect() as conn:
            differences = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        assert differences == [], ("the models and the migrations disagree: add a revision "
                                   f"(docs/operations.md): {differences}")
        db.create_schema()  # at head: accepted as it is
    finally:
        db.dispose()


@pytest.mark.parametrize("database", DIALECTS, indirect=True)
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_every_older_layout_upgrades_and_its_games_accounts_and_ratings_survive(
        database: str, layout: str, head_data: dict[str, Any]) -> None:
    from fastapi.testclient import TestClient

    spec = LAYOUTS[layout]
    build_layout(database, spec, head_data["rows"])
    refused = cli("serve", "--database-url", database, "--no-open")
    assert refused.exit_code == 1
    assert "mayagames db upgrade" in refused.output

    done = cli("db", "upgrade", "--database-url", database)
    assert done.exit_code == 0, done.output
    assert f"to revision {migrations.head()}" in done.output
    assert cli("db", "status", "--database-url", database).exit_code == 0

    with TestClient(new_app(database)) as client:
        for table_id in head_data["tables"]:  # every game replays to the same position
            assert spectator(client, table_id) == head_data["shown"][table_id]
        replay = client.get(f"/api/tables/{head_data['finished']}/replay", params={"step": 40})
        assert game_part(replay.json()) == game_part(head_data["replay"])
        if "accounts" in spec["tables"]:  # every account logs in
            for name in ACCOUNTS:
                answer = client.post("/api/login", json={"name": name, "password": PASSWORD})
                assert answer.status_code == 200, answer.text
            fresh = client.post("/api/accounts", json={"name": "Chaak", "password": PASSWORD})
            assert fresh.status_code == 201, fresh.text
        if "ratings" in spec["tables"]:
            assert client.get("/api/ratings/tzolkin").json() == head_data["ladder"]
        # and the upgraded database takes new games
        created = client.post("/api/tables", json={
            "game": "toy", "players": 2, "seats": [{"name": "A", "agent": "human"},
                                                    {"name": "B", "agent": "human"}]})
        assert created.status_code == 201, created.text


def version_rows(url: str, *values: str) -> None:
    from mayagames.server.db import normalize_url

    engine = create_engine(normalize_url(url))
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM alembic_version"))
        for value in values:
            conn.execute(text("INSERT INTO alembic_version (version_num) VALUES (:v)"), {"v": value})
    engine.dispose()


@pytest.mark.parametrize("database", DIALECTS, indirect=True)
def test_a_database_ahead_or_damaged_is_refused_and_left_alone(database: str) -> None:
    db = Database(database)
    db.create_schema()  # a new empty database: made at head
    db.dispose()
    cases = {("9999",): "does not know", ("0001", "9999"): "damaged", (): "damaged",
             ("'; drop",): "damaged"}
    for values, says in cases.items():
        version_rows(database, *values)
        for command in (["serve", "--no-open"], ["db", "upgrade"], ["db", "status"]):
            result = cli(*command, "--database-url", database)
            assert result.exit_code == 1, (command, result.output)
            assert says in result.output, result.output
        with pytest.raises(SchemaError, match=says):
            Database(database).create_schema()
    version_rows(database, migrations.head())
    assert cli("db", "status", "--database-url", database).exit_code == 0


@pytest.mark.parametrize("database", DIALECTS, indirect=True)
def test_a_failing_revision_rolls_back_and_the_server_stays_down(
        database: str, tmp_path: Path, head_data: dict[str, Any]) -> None:
    scripts = tmp_path / "migrations"
    shutil.copytree(migrations.HERE, scripts, ignore=shutil.ignore_patterns("__pycache__"))
    (scripts / "versions" / "9999_broken.py").write_text(  # after the head, whatever it is
        '"""A revision that fails half-way."""\n'
        "import sqlalchemy as sa\nfrom alembic import op\n"
        f"revision = '9999'\ndown_revision = '{migrations.head()}'\nbranch_labels = None\n"
        "depends_on = None\n"
        "def upgrade():\n"
        "    op.add_column('game_tables', sa.Column('doomed', sa.Integer(), nullable=True))\n"
        "    op.execute('SELECT no_such_column FROM game_tables')\n")
    build_layout(database, LAYOUTS["5c3cb8b"], head_data["rows"])  # the oldest layout
    db = Database(database)
    try:
        with pytest.raises(SchemaError, match="rolled back"):
            migrations.upgrade(db, script_location=scripts)
        assert migrations.state(db).kind == "legacy"  # baseline's changes rolled back too
        with db.engine.connect() as conn:
            from sqlalchemy import inspect
            columns = {c["name"] for c in inspect(conn).get_columns("game_tables")}
            assert "version" not in columns and "doomed" not in columns
            assert not inspect(conn).has_table("game_reviews")
        with pytest.raises(SchemaError, match="mayagames db upgrade"):
            db.create_schema()
    finally:
        db.dispose()


@pytest.mark.parametrize("database", DIALECTS, indirect=True)
def test_a_layout_no_release_wrote_is_refused_unchanged(database: str) -> None:
    from mayagames.server.db import normalize_url

    engine = create_engine(normalize_url(database))
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE game_tables (id VARCHAR(32) PRIMARY KEY, colour TEXT)"))
    engine.dispose()
    result = cli("db", "upgrade", "--database-url", database)
    assert result.exit_code == 1
    assert "colour" in result.output and "rolled back" in result.output
    db = Database(database)
    assert migrations.state(db).kind == "legacy"
    db.dispose()


def test_sqlite_backup_and_restore(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    db = Database(url)
    db.create_schema()
    with db.engine.begin() as conn:
        conn.execute(text("INSERT INTO accounts (name, name_key, password_hash, created_at) "
                          "VALUES ('Ixchel', 'ixchel', 'x', 1)"))
    backup = tmp_path / "games.backup"
    made = cli("db", "backup", str(backup), "--database-url", url)
    assert made.exit_code == 0, made.output
    assert cli("db", "backup", str(backup), "--database-url", url).exit_code == 1  # no overwrite
    with db.engine.begin() as conn:
        conn.execute(text("DELETE FROM accounts"))
    # not a backup: refused, nothing changed
    for bad, says in ((b"hello", "not a mayagames backup"),
                      (b"SQLite format 3\x00" + b"\x00" * 200, "damaged")):
        (tmp_path / "bad").write_bytes(bad)
        result = cli("db", "restore", str(tmp_path / "bad"), "--database-url", url)
        assert result.exit_code == 1 and says in result.output, result.output
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    result = cli("db", "restore", str(other), "--database-url", url)
    assert result.exit_code == 1 and "without mayagames' tables" in result.output
    holder = subprocess.Popen(  # a running server (another process) holds the file
        [sys.executable, "-c", "import sys, time; from mayagames.server.db import Database; "
         f"Database({url!r}).claim_single_instance(); print('held', flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        result = cli("db", "restore", str(backup), "--database-url", url)
        assert result.exit_code == 1 and "stop the server first" in result.output, result.output
        result = cli("db", "upgrade", "--database-url", url)
        assert result.exit_code == 1 and "stop the server first" in result.output, result.output
    finally:
        holder.kill()
        holder.wait()
    with db.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM accounts")).scalar_one() == 0
    done = cli("db", "restore", str(backup), "--database-url", url)
    assert done.exit_code == 0, done.output
    with db.engine.connect() as conn:
        assert conn.execute(text("SELECT name FROM accounts")).scalars().all() == ["Ixchel"]
    db.dispose()


@pytest.mark.postgres
@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
def test_postgresql_backup_and_restore(database: str, tmp_path: Path) -> None:
    if not shutil.which("pg_dump"):
        pytest.skip("pg_dump is not installed")
    from mayagames.server.db import normalize_url

    db = Database(database)
    db.create_schema()
    db.dispose()
    engine = create_engine(normalize_url(database))
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO accounts (name, name_key, password_hash, created_at) "
                          "VALUES ('Ixchel', 'ixchel', 'x', 1)"))
    backup = tmp_path / "games.dump"
    made = cli("db", "backup", str(backup), "--database-url", database)
    assert made.exit_code == 0, made.output
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM accounts"))
    (tmp_path / "bad").write_bytes(b"SQLite format 3\x00")
    bad = cli("db", "restore", str(tmp_path / "bad"), "--database-url", database)
    assert bad.exit_code == 1 and "not a mayagames backup" in bad.output
    done = cli("db", "restore", str(backup), "--database-url", database)
    assert done.exit_code == 0, done.output
    with engine.connect() as conn:
        assert conn.execute(text("SELECT name FROM accounts")).scalars().all() == ["Ixchel"]
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == migrations.head()
    engine.dispose()

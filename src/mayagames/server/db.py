"""Persistence: tables, seats (with hashed tokens) and moves, in SQLAlchemy 2.

A game is stored as its record (game, engine version, options, seed, seats and
the list of moves); loading a table replays it. Each move is one row whose
primary key is ``(table_id, number)``, so two writers can never both store move
``n`` of a game. The embedded default is SQLite (one file); PostgreSQL is used
when the URL says so (``postgresql://...``, driven by psycopg 3).

Several server instances may share one PostgreSQL database, so the database
decides the order of moves: each table row carries a ``version`` that every
write (a move or an undo) compares and increments in the same transaction
(``UPDATE ... WHERE version = :expected``: the row lock serialises racing
writers, and the one that finds the version changed stores nothing and gets
:class:`StaleWrite`). A change of the table's seats or settings (a seat taken, a
token, a clock, a zombie, a rematch) increments it too (:meth:`Database.table_changed`),
so a move is refused if the seats changed since its instance read them. The same
transaction sends a ``NOTIFY`` (delivered at commit) that tells the other instances
which table changed, and how. :func:`is_unavailable` tells a database that is away (a
restart, a cut connection) from a damaged record.
Bot seats are leased (:class:`BotLeaseRow`): one instance at a time moves a
table's bots, and a lease that is not renewed expires so another takes over.

All methods are synchronous; the server calls them from a worker thread so that
its event loop never waits on the database.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

try:
    import fcntl
except ImportError:  # not on Windows: the SQLite file is then not guarded
    fcntl = None  # type: ignore[assignment]

from sqlalchemy import (JSON, BigInteger, Boolean, DateTime, ForeignKey, Integer, String, bindparam,
                        create_engine, delete, event, false, func, insert, select, text,
                        type_coerce, update)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import (DBAPIError, DisconnectionError, IntegrityError, InterfaceError,
                            OperationalError)
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship

DEFAULT_URL = "sqlite:///mayagames.db"


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    """One game table: the record's header plus its status."""

    __tablename__ = "game_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    engine_version: Mapped[str] = mapped_column(String(32))
    num_players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)  # playing | finished
    move_count: Mapped[int] = mapped_column(Integer, default=0)
    # incremented by every move and undo: the compare-and-set that orders writers
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # the creator chose the seed (so knows the hidden cards): every seat is told
    seed_fixed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # the seat to move after the stored moves (None: nobody, or a row stored before the
    # column): lists and profiles show whose turn it is without replaying the game
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    seats: Mapped[list["SeatRow"]] = relationship(order_by="SeatRow.seat", lazy="selectin")


class SeatRow(Base):
    """A seat: who sits there (a person or a bot spec) and the hash of its token."""

    __tablename__ = "game_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    agent: Mapped[str] = mapped_column(String(64))  # "human" or a bot spec
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class MoveRow(Base):
    """Move ``number`` (1-based) of a table, in notation, and the seat that made it."""

    __tablename__ = "game_moves"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    text: Mapped[str] = mapped_column(String(256))
    seat: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    # the move told as the log tells it (rooms.entry_to_json), so that loading the table
    # need not tell every move again; null in rows stored before (they are told anew)
    told: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)


class BotLeaseRow(Base):
    """Which server instance moves a table's bots, until when (PostgreSQL, many instances).

    A row exists while a bot of the table is to move and some instance has claimed it;
    the holder renews ``expires_at`` while it works and deletes the row when no bot is
    to move. A row whose ``expires_at`` has passed belongs to an instance that died (or
    stalled): any instance may take it over.
    """

    __tablename__ = "game_bot_leases"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    owner: Mapped[str] = mapped_column(String(64))
    expires_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), index=True)


class RematchRow(Base):
    """The rematch of a finished table: the new table (one per table, whoever asks first).

    The link is inserted in the new table's own transaction, so the rematch exists in
    full or not at all, and two instances racing to start it cannot both succeed (the
    primary key): the loser rolls back and joins the winner's table."""

    __tablename__ = "game_rematches"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    rematch_id: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class RematchTaken(Exception):
    """Another writer (perhaps another instance) started the table's rematch first."""


class SingleInstanceError(RuntimeError):
    """A second server process on one SQLite file."""


# SQLite lock files held by this process: path -> [open file, users]
_SQLITE_LOCKS: dict[str, list[Any]] = {}


class StaleWrite(Exception):
    """The table changed (another writer, perhaps another instance) since the version
    the writer knew: nothing was stored."""

    def __init__(self, table_id: str, expected: int) -> None:
        super().__init__(f"table {table_id} is no longer at version {expected}")
        self.table_id, self.expected = table_id, expected


INSERT_MOVE = insert(MoveRow)
# The compare-and-set of a write: it locks the table row (a racing writer waits, then
# finds the version changed and updates nothing).
UPDATE_TABLE = update(TableRow).where(
    TableRow.id == bindparam("tid"), TableRow.version == bindparam("expected")).values(
    version=TableRow.version + 1,
    move_count=bindparam("move_count"), status=bindparam("status"),
    result=bindparam("result", type_=JSON(none_as_null=True)), to_move=bindparam("to_move"),
    updated_at=bindparam("updated_at", type_=DateTime(timezone=True)))
# What changes a table besides its moves (seats, owners, clock, zombies, settings, rematch)
# also raises its version, in the change's own transaction: the version check of the
# next move (and the instances' periodic comparison of versions) then notices it.
BUMP_TABLE = update(TableRow).where(TableRow.id == bindparam("tid")).values(
    version=TableRow.version + 1).returning(TableRow.version)
BUMP_TABLE_IF = update(TableRow).where(
    TableRow.id == bindparam("tid"), TableRow.version == bindparam("expected")).values(
    version=TableRow.version + 1).returning(TableRow.version)
NOTIFY = text("SELECT pg_notify(:channel, :payload)")
CHANNEL = "mayagames"  # LISTEN/NOTIFY channel; suffixed with the schema (tests keep apart)


@dataclass
class StoredSeat:
    name: str
    agent: str
    token_hash: str | None


@dataclass
class StoredTable:
    """A table as loaded from the database: everything needed to rebuild its game."""

    id: str
    game: str
    engine_version: str
    num_players: int
    seed: int
    options: dict[str, Any]
    seats: list[StoredSeat]
    status: str = "playing"
    result: dict[str, Any] | None = None
    moves: list[tuple[str, int]] = field(default_factory=list)  # (notation, seat)
    told: list[Any] = field(default_factory=list)  # each move's stored log entry (or None)
    move_count: int = 0
    version: int = 0
    created_at: dt.datetime | None = None
    updated_at: dt.datetime | None = None
    seed_fixed: bool = False
    rematch: str | None = None  # the table of its rematch, once one was started
    to_move: int | None = None  # the seat to move (as stored; lists read it, loading does not)


@dataclass
class BrokenRow:
    """A stored table whose row cannot be read (listed as broken, with the reason)."""

    id: str
    reason: str


def loose_json(raw: Any, damaged: Any = None) -> Any:
    """A JSON column read as raw text (``type_coerce(column, String)``): its value, or
    ``damaged`` when it is not valid JSON (drivers that parse JSON give the value)."""
    if not isinstance(raw, (str, bytes)):
        return raw
    try:
        return json.loads(raw)
    except ValueError:
        return damaged


def now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def normalize_url(url: str) -> str:
    """Use psycopg 3 for ``postgres://`` and ``postgresql://`` URLs (psycopg2 is not installed)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers run while a move is written; NORMAL sync is durable across
    # application crashes (the OS keeps the log) and keeps a commit well under 1 ms.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


class Database:
    """The server's store. ``schema`` (PostgreSQL only) keeps tests apart."""

    def __init__(self, url: str = DEFAULT_URL, schema: str | None = None) -> None:
        self.url = normalize_url(url)
        self.schema = schema
        self.is_sqlite = self.url.startswith("sqlite")
        kwargs: dict[str, Any] = {"future": True}
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 10}
        else:
            kwargs["pool_pre_ping"] = True
        engine = create_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(engine, "connect", _sqlite_pragmas)
        if schema:
            engine = engine.execution_options(schema_translate_map={None: schema})
        self.engine: Engine = engine
        self.channel = CHANNEL  # set from the schema in use by create_schema (PostgreSQL)
        self._lock_path: str | None = None  # the SQLite lock file this object holds

    @property
    def shared(self) -> bool:
        """Whether several server instances may use this database (PostgreSQL)."""
        return not self.is_sqlite

    def libpq_url(self) -> str:
        """The URL for a plain psycopg connection (the LISTEN connection)."""
        url = self.engine.url.set(drivername="postgresql")
        return url.render_as_string(hide_password=False)

    def create_schema(self) -> None:
        """Make a new empty database (and PostgreSQL schema) at the migrations' head; accept
        one at head; refuse any other with a :class:`~.migrations.SchemaError` that names
        ``mayagames db upgrade`` (nothing changed). See :mod:`.migrations`."""
        from . import migrations

        migrations.prepare(self)
        if self.shared:
            with self.engine.connect() as conn:
                schema = self.schema or conn.execute(text("SELECT current_schema()")).scalar_one()
            self.channel = notify_channel(str(schema))

    def drop_schema(self) -> None:
        """Remove a test schema with everything in it (PostgreSQL tests)."""
        if self.schema:
            with self.engine.begin() as conn:
                conn.execute(text(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE'))

    def dispose(self) -> None:
        self.engine.dispose()
        self.release_single_instance()

    # --- one instance per SQLite file -------------------------------------------
    def claim_single_instance(self) -> None:
        """Refuse to serve an SQLite file another server process is serving.

        SQLite has no way to tell other processes about new moves, so each process would
        keep its own idea of every game. The server holds an exclusive ``flock`` on
        ``FILE.lock`` while it runs (the system drops it when the process ends, even
        killed). Servers in one process (tests) share it.
        """
        path = self.sqlite_path()
        if path is None or fcntl is None or self._lock_path is not None:
            return
        lock_path = path + ".lock"
        held = _SQLITE_LOCKS.get(lock_path)
        if held is None:
            handle = open(lock_path, "a+")
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                handle.seek(0)
                owner = handle.read().strip() or "?"
                handle.close()
                raise SingleInstanceError(
                    f"another mayagames server (process {owner}) is already serving the SQLite "
                    f"database {path}: SQLite is for one server process. Stop it, use another "
                    "file, or run several instances on PostgreSQL (--database-url "
                    "postgresql://...; see 'Several instances' in the README).") from None
            handle.truncate(0)
            handle.write(str(os.getpid()))
            handle.flush()
            held = _SQLITE_LOCKS[lock_path] = [handle, 0]
        held[1] += 1
        self._lock_path = lock_path

    def release_single_instance(self) -> None:
        lock_path, self._lock_path = self._lock_path, None
        held = _SQLITE_LOCKS.get(lock_path) if lock_path else None
        if held is not None:
            held[1] -= 1
            if held[1] <= 0:
                del _SQLITE_LOCKS[lock_path]  # type: ignore[arg-type]
                held[0].close()  # closing the file drops the lock

    def sqlite_path(self) -> str | None:
        """The file of an SQLite database (None: PostgreSQL or in memory)."""
        if not self.is_sqlite:
            return None
        name = self.engine.url.database
        if not name or name == ":memory:" or name.startswith("file::memory:"):
            return None
        return os.path.abspath(name)

    # --- writes ---------------------------------------------------------
    def insert_table(self, table: StoredTable, rematch_of: str | None = None,
                     also: Sequence[Callable[[Session], None]] = ()) -> int | None:
        """Store a new table; ``also``: more writes of the same transaction (its lobby
        settings); ``rematch_of``: the finished table it is the rematch of (raises
        :class:`RematchTaken`, nothing stored, if that one has a rematch already; else
        returns that table's new version)."""
        try:
            return self._insert_table(table, rematch_of, also)
        except IntegrityError as exc:
            if rematch_of is not None and self.rematch_of(rematch_of) is not None:
                raise RematchTaken(rematch_of) from exc
            raise

    def _insert_table(self, table: StoredTable, rematch_of: str | None,
                      also: Sequence[Callable[[Session], None]]) -> int | None:
        stamp = now()
        with Session(self.engine) as session, session.begin():
            session.add(TableRow(
                id=table.id, game=table.game, engine_version=table.engine_version,
                num_players=table.num_players, seed=table.seed, options=table.options,
                status=table.status, move_count=0, result=None, seed_fixed=table.seed_fixed,
                to_move=table.to_move, created_at=stamp, updated_at=stamp))
            session.flush()
            session.add_all(SeatRow(table_id=table.id, seat=i, name=s.name, agent=s.agent,
                                    token_hash=s.token_hash)
                            for i, s in enumerate(table.seats))
            session.flush()
            for write in also:
                write(session)
            if rematch_of is not None:  # last: a race is lost here (the primary key)
                session.add(RematchRow(table_id=rematch_of, rematch_id=table.id,
                                       created_at=stamp))
                session.flush()
                return self.table_changed(session, rematch_of)  # it offers a rematch now
        return None

    def rematch_of(self, table_id: str) -> str | None:
        """The table of ``table_id``'s rematch (None: none was started)."""
        with self.engine.connect() as conn:
            return conn.execute(select(RematchRow.rematch_id)
                                .where(RematchRow.table_id == table_id)).scalar_one_or_none()

    def hand_out_token(self, table_id: str, seat: int, token_hash: str) -> int | None:
        """Give a person's seat without a token this token's hash; the table's new version,
        None (nothing changed) if the seat has one already: a conditional update, so two
        instances cannot both hand out the seat."""
        with self.engine.begin() as conn:
            done = conn.execute(update(SeatRow).where(
                SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.agent == "human",
                SeatRow.token_hash.is_(None)).values(token_hash=token_hash))
            return self.table_changed(conn, table_id) if done.rowcount == 1 else None

    def load_seats(self, table_id: str) -> list[StoredSeat]:
        """The seat rows of a table (names and token hashes change: joins, claims, links)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(SeatRow.name, SeatRow.agent, SeatRow.token_hash)
                                .where(SeatRow.table_id == table_id).order_by(SeatRow.seat))
            return [StoredSeat(r[0], r[1], r[2]) for r in rows]

    def table_changed(self, conn: Connection | Session, table_id: str,
                      expected: int | None = None) -> int | None:
        """In the transaction of a change to a table's seats or settings: raise its version
        and tell the other instances (they read the seats and settings again); the new
        version. ``expected``: only if the table is still at that version (None if not:
        the caller rolls back)."""
        if isinstance(conn, Session):  # Core statements on the session's own connection
            conn = conn.connection()
        if expected is None:
            version = conn.execute(BUMP_TABLE, {"tid": table_id}).scalar_one_or_none()
        else:
            version = conn.execute(BUMP_TABLE_IF, {"tid": table_id,
                                                   "expected": expected}).scalar_one_or_none()
        if version is not None:
            self._notify(conn, {"t": table_id, "v": int(version), "op": "table"})
        return None if version is None else int(version)

    def notify_table(self, table_id: str) -> int | None:
        """A change to a table's seats or settings stored without :meth:`table_changed`:
        raise the version and tell the other instances now; the new version."""
        with self.engine.begin() as conn:
            return self.table_changed(conn, table_id)

    def append_move(self, table_id: str, number: int, text_: str, seat: int,
                    status: str, result: dict[str, Any] | None,
                    expected: int | None = None, told: dict[str, Any] | None = None,
                    to_move: int | None = None) -> int:
        """Store move ``number`` if the table is still at version ``expected``; returns the
        new version. Raises :class:`StaleWrite` (nothing stored) if another write came
        first, IntegrityError if the number is taken.

        ``expected=None`` (tools, tests) takes whatever version the table has. The hot
        path of every move: prebuilt Core statements (profiled: the ORM unit of work cost
        ten times more than the write itself).
        """
        stamp = now()
        with self.engine.begin() as conn:
            version = self._compare_and_set(conn, table_id, expected, {
                "move_count": number, "status": status, "result": result, "updated_at": stamp,
                "to_move": to_move})
            conn.execute(INSERT_MOVE, {"table_id": table_id, "number": number, "text": text_,
                                       "seat": seat, "created_at": stamp, "told": told})
            self._notify(conn, {"t": table_id, "v": version, "op": "move", "n": number,
                                "m": text_, "s": seat})
        return version

    def truncate_moves(self, table_id: str, keep: int, expected: int | None = None,
                       to_move: int | None = None) -> int:
        """Delete every move after the first ``keep`` (an undo) if the table is still at
        version ``expected``; returns the new version (:class:`StaleWrite` otherwise)."""
        with self.engine.begin() as conn:
            version = self._compare_and_set(conn, table_id, expected, {
                "move_count": keep, "status": "playing", "result": None, "updated_at": now(),
                "to_move": to_move})
            conn.execute(delete(MoveRow).where(MoveRow.table_id == table_id,
                                               MoveRow.number > keep))
            self._notify(conn, {"t": table_id, "v": version, "op": "undo", "n": keep})
        return version

    def _compare_and_set(self, conn: Connection, table_id: str, expected: int | None,
                         values: dict[str, Any]) -> int:
        """Lock the table row, check its version and bump it; the new version."""
        if expected is None:
            current = conn.execute(select(TableRow.version).where(TableRow.id == table_id)
                                   .with_for_update()).scalar_one_or_none()
            expected = int(current or 0)
        done = conn.execute(UPDATE_TABLE, {"tid": table_id, "expected": expected, **values})
        if done.rowcount != 1:
            raise StaleWrite(table_id, expected)
        return expected + 1

    def _notify(self, conn: Connection, payload: dict[str, Any]) -> None:
        """Tell the other instances (delivered when the transaction commits)."""
        if self.shared:
            conn.execute(NOTIFY, {"channel": self.channel,
                                  "payload": json.dumps(payload, separators=(",", ":"))})

    # --- leases (PostgreSQL): bots, and clocks (playerstore.py) --------------------
    def claim_lease(self, table: str, table_id: str, owner: str, seconds: float) -> bool:
        """Take (or renew) the lease on ``table_id`` in the lease table ``table`` unless
        another live owner holds it; the database's clock decides what is live."""
        name = self._name(table)
        sql = text(f"""
            INSERT INTO {name} (table_id, owner, expires_at)
            VALUES (:tid, :owner, now() + make_interval(secs => :secs))
            ON CONFLICT (table_id) DO UPDATE
               SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
             WHERE {name}.owner = EXCLUDED.owner OR {name}.expires_at < now()
            RETURNING owner""")
        with self.engine.begin() as conn:
            return conn.execute(sql, {"tid": table_id, "owner": owner,
                                      "secs": seconds}).first() is not None

    def claim_bot_lease(self, table_id: str, owner: str, seconds: float) -> bool:
        """Take (or renew) the lease on ``table_id``'s bots unless another live owner holds it."""
        return self.claim_lease("game_bot_leases", table_id, owner, seconds)

    def renew_bot_leases(self, table_ids: list[str], owner: str, seconds: float) -> list[str]:
        """Extend ``owner``'s leases on ``table_ids``; the ones it still holds."""
        if not table_ids:
            return []
        sql = text(f"""
            UPDATE {self._name('game_bot_leases')}
               SET expires_at = now() + make_interval(secs => :secs)
             WHERE owner = :owner AND table_id = ANY(:tids)
            RETURNING table_id""")
        with self.engine.begin() as conn:
            return [r[0] for r in conn.execute(sql, {"tids": table_ids, "owner": owner,
                                                     "secs": seconds})]

    def release_bot_leases(self, table_ids: list[str], owner: str) -> None:
        if not table_ids:
            return
        with self.engine.begin() as conn:
            conn.execute(delete(BotLeaseRow).where(BotLeaseRow.owner == owner,
                                                   BotLeaseRow.table_id.in_(table_ids)))

    def bot_leases(self) -> dict[str, tuple[str, bool]]:
        """Every lease: table id -> (owner, still valid)."""
        with self.engine.begin() as conn:
            rows = conn.execute(select(BotLeaseRow.table_id, BotLeaseRow.owner,
                                       BotLeaseRow.expires_at > func.now()))
            return {r[0]: (r[1], bool(r[2])) for r in rows}

    def _name(self, table: str) -> str:
        return f'"{self.schema}".{table}' if self.schema else table

    # --- reads ----------------------------------------------------------
    def load_table(self, table_id: str) -> StoredTable | None:
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            # told as raw text: a damaged entry is told anew, it does not break the table
            moves = session.execute(
                select(MoveRow.text, MoveRow.seat, type_coerce(MoveRow.told, String).label("told"))
                .where(MoveRow.table_id == table_id).order_by(MoveRow.number)).all()
            rematch = session.execute(select(RematchRow.rematch_id)
                                      .where(RematchRow.table_id == table_id)).scalar_one_or_none()
            stored = _stored(row, [(m.text, m.seat) for m in moves])
            stored.rematch = rematch
            stored.told = [loose_json(m.told) for m in moves]
            return stored

    def stored_tables(self, table_ids: Sequence[str]) -> dict[str, StoredTable]:
        """The tables of ``table_ids`` without their moves (what lists and profiles show);
        a row that cannot be read is left out (opening the table says why)."""
        found: dict[str, StoredTable] = {}
        with Session(self.engine) as session:
            try:  # one query (and one for the seats); a damaged row: one by one
                rows = list(session.execute(select(TableRow).where(
                    TableRow.id.in_(list(table_ids)))).scalars())
                found = {row.id: _stored(row, None) for row in rows}
            except Exception:
                session.rollback()
                found = {}
                for table_id in table_ids:
                    try:
                        row = session.get(TableRow, table_id)
                        if row is not None:
                            found[table_id] = _stored(row, None)
                    except Exception:  # a damaged row: listed as broken elsewhere
                        session.rollback()
            rematches = session.execute(select(RematchRow.table_id, RematchRow.rematch_id)
                                        .where(RematchRow.table_id.in_(list(found)))).all()
        for table_id, rematch_id in rematches:
            found[table_id].rematch = rematch_id
        return found

    def table_ids(self, status: str | None = None, with_bots: bool = False) -> list[str]:
        """Table ids, oldest first; ``with_bots``: only tables with a bot seat."""
        query = select(TableRow.id).order_by(TableRow.created_at)
        if status is not None:
            query = query.where(TableRow.status == status)
        if with_bots:
            query = query.where(TableRow.id.in_(select(SeatRow.table_id)
                                                .where(SeatRow.agent != "human")))
        with Session(self.engine) as session:
            return list(session.execute(query).scalars())

    def list_tables(self, status: str | None = None, limit: int = 50,
                    only: Any = None) -> list[StoredTable | BrokenRow]:
        """Most recently active tables first, without their moves; a row that cannot be
        read is a :class:`BrokenRow` (the others are listed all the same). ``only``: a
        query of the table ids that may be listed (None: every table)."""
        query = select(TableRow).order_by(TableRow.updated_at.desc()).limit(limit)
        if status is not None:
            query = query.where(TableRow.status == status)
        if only is not None:
            query = query.where(TableRow.id.in_(only))
        try:
            with Session(self.engine) as session:
                return [_stored(row, None) for row in session.execute(query).scalars()]
        except Exception:  # some row is bad: read them one by one
            pass
        ids = select(TableRow.id).order_by(TableRow.updated_at.desc()).limit(limit)
        if status is not None:
            ids = ids.where(TableRow.status == status)
        if only is not None:
            ids = ids.where(TableRow.id.in_(only))
        with self.engine.connect() as conn:
            table_ids = list(conn.execute(ids).scalars())
        listed: list[StoredTable | BrokenRow] = []
        for table_id in table_ids:
            try:
                with Session(self.engine) as session:
                    row = session.get(TableRow, table_id)
                    if row is not None:
                        listed.append(_stored(row, None))
            except Exception as exc:
                if is_unavailable(exc):  # the database went away: not this row's fault
                    raise
                listed.append(BrokenRow(table_id, f"{type(exc).__name__}: {exc}"[:300]))
        return listed

    def moves_after(self, table_id: str, known: int) -> tuple[int, int, list[tuple[int, str, int]]] | None:
        """The table's version and move count, and its moves numbered above ``known``
        ((number, notation, seat)); None if there is no such table. Two light reads: the
        catch-up of an instance that is a move or two behind."""
        with self.engine.connect() as conn:
            head = conn.execute(select(TableRow.version, TableRow.move_count)
                                .where(TableRow.id == table_id)).first()
            if head is None:
                return None
            moves = conn.execute(select(MoveRow.number, MoveRow.text, MoveRow.seat)
                                 .where(MoveRow.table_id == table_id, MoveRow.number > known)
                                 .order_by(MoveRow.number)).all()
        return int(head[0]), int(head[1]), [(m[0], m[1], m[2]) for m in moves]

    def versions(self, table_ids: list[str]) -> dict[str, int]:
        """The current version of each table (missing ones are left out)."""
        if not table_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(TableRow.id, TableRow.version)
                                .where(TableRow.id.in_(table_ids)))
            return {r[0]: int(r[1]) for r in rows}

    def move_numbers(self, table_id: str) -> list[int]:
        """The stored move numbers of a table, in order (tests check: 1..n, no gap)."""
        with self.engine.connect() as conn:
            return list(conn.execute(select(MoveRow.number).where(MoveRow.table_id == table_id)
                                     .order_by(MoveRow.number)).scalars())

    def count_moves(self, table_id: str) -> int:
        with Session(self.engine) as session:
            return int(session.execute(select(func.count()).select_from(MoveRow)
                                       .where(MoveRow.table_id == table_id)).scalar_one())


def _stored(row: TableRow, moves: list[tuple[str, int]] | None) -> StoredTable:
    """The stored table of a row, checked: raises ValueError naming what is wrong."""
    check_row(row)
    return StoredTable(
        id=row.id, game=row.game, engine_version=row.engine_version,
        num_players=row.num_players, seed=int(row.seed), options=dict(row.options or {}),
        seats=[StoredSeat(s.name, s.agent, s.token_hash) for s in row.seats],
        status=row.status, result=row.result, moves=moves or [], move_count=row.move_count,
        version=int(row.version or 0), created_at=row.created_at, updated_at=row.updated_at,
        seed_fixed=bool(row.seed_fixed),
        to_move=row.to_move if type(row.to_move) is int and 0 <= row.to_move < row.num_players
        else None)


def check_row(row: TableRow) -> None:
    """What a row must be to rebuild its table (a hand-edited or damaged row is not)."""
    if not isinstance(row.num_players, int) or isinstance(row.num_players, bool):
        raise ValueError(f"num_players is {row.num_players!r}, not a whole number")
    if not isinstance(row.seed, int) or isinstance(row.seed, bool):
        raise ValueError(f"seed is {row.seed!r}, not a whole number")
    if row.options is not None and not isinstance(row.options, dict):
        raise ValueError(f"options are {type(row.options).__name__}, not a JSON object")
    if row.result is not None and not isinstance(row.result, dict):
        raise ValueError(f"result is {type(row.result).__name__}, not a JSON object")
    for stamp in (row.created_at, row.updated_at):
        if stamp is not None and not isinstance(stamp, dt.datetime):
            raise ValueError(f"timestamp {stamp!r} is not a date and time")
    seats = [s.seat for s in row.seats]
    if seats != list(range(row.num_players)):
        raise ValueError(f"seat rows {seats} do not match {row.num_players} players")


def is_unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot be reached for now (a restart, a cut
    connection, a full pool), not that what was read is damaged: the request is answered
    ``503`` with ``Retry-After`` and the next one tries again."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, (OperationalError, InterfaceError, DisconnectionError, PoolTimeout,
                            ConnectionError)):
            return True
        if isinstance(exc, DBAPIError) and exc.connection_invalidated:
            return True
        if type(exc).__module__.startswith("psycopg") and \
                type(exc).__name__ in ("OperationalError", "InterfaceError"):
            return True
        exc = exc.__cause__  # type: ignore[assignment]
    return False


def notify_channel(schema: str) -> str:
    """The LISTEN/NOTIFY channel of the tables in ``schema`` (channels are per database)."""
    cleaned = "".join(c if c.isalnum() or c == "_" else "_" for c in schema.lower())
    return f"{CHANNEL}_{cleaned}"[:63]

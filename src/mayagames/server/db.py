"""Persistence: tables, seats (with hashed tokens) and moves, in SQLAlchemy 2.

A game is stored as its record (game, engine version, options, seed, seats and
the list of moves); loading a table replays it. Each move is one row whose
primary key is ``(table_id, number)``, so two writers can never both store move
``n`` of a game. The embedded default is SQLite (one file); PostgreSQL is used
when the URL says so (``postgresql://...``, driven by psycopg 3).

All methods are synchronous; the server calls them from a worker thread so that
its event loop never waits on the database.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (JSON, BigInteger, DateTime, ForeignKey, Integer, String, bindparam,
                        create_engine, delete, event, func, insert, select, text, update)
from sqlalchemy.engine import Engine
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
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
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


INSERT_MOVE = insert(MoveRow)
UPDATE_TABLE = update(TableRow).where(TableRow.id == bindparam("tid")).values(
    move_count=bindparam("move_count"), status=bindparam("status"),
    result=bindparam("result", type_=JSON(none_as_null=True)),
    updated_at=bindparam("updated_at", type_=DateTime(timezone=True)))


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
    move_count: int = 0
    created_at: dt.datetime | None = None
    updated_at: dt.datetime | None = None


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

    def create_schema(self) -> None:
        """Create the tables (and the PostgreSQL schema) if they do not exist."""
        if self.schema:
            with self.engine.begin() as conn:
                conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"'))
        Base.metadata.create_all(self.engine)

    def drop_schema(self) -> None:
        """Remove a test schema with everything in it (PostgreSQL tests)."""
        if self.schema:
            with self.engine.begin() as conn:
                conn.execute(text(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE'))

    def dispose(self) -> None:
        self.engine.dispose()

    # --- writes ---------------------------------------------------------
    def insert_table(self, table: StoredTable) -> None:
        stamp = now()
        with Session(self.engine) as session, session.begin():
            session.add(TableRow(
                id=table.id, game=table.game, engine_version=table.engine_version,
                num_players=table.num_players, seed=table.seed, options=table.options,
                status=table.status, move_count=0, result=None,
                created_at=stamp, updated_at=stamp))
            session.flush()
            session.add_all(SeatRow(table_id=table.id, seat=i, name=s.name, agent=s.agent,
                                    token_hash=s.token_hash)
                            for i, s in enumerate(table.seats))

    def append_move(self, table_id: str, number: int, text_: str, seat: int,
                    status: str, result: dict[str, Any] | None) -> None:
        """Store move ``number``; fails (IntegrityError) if that number is taken.

        The hot path of every move: prebuilt Core statements (profiled: the ORM unit of
        work cost ten times more than the write itself).
        """
        stamp = now()
        with self.engine.begin() as conn:
            conn.execute(INSERT_MOVE, {"table_id": table_id, "number": number, "text": text_,
                                       "seat": seat, "created_at": stamp})
            conn.execute(UPDATE_TABLE, {"tid": table_id, "move_count": number, "status": status,
                                        "result": result, "updated_at": stamp})

    def truncate_moves(self, table_id: str, keep: int) -> None:
        """Delete every move after the first ``keep`` (an undo)."""
        with self.engine.begin() as conn:
            conn.execute(delete(MoveRow).where(MoveRow.table_id == table_id,
                                               MoveRow.number > keep))
            conn.execute(UPDATE_TABLE, {"tid": table_id, "move_count": keep, "status": "playing",
                                        "result": None, "updated_at": now()})

    # --- reads ----------------------------------------------------------
    def load_table(self, table_id: str) -> StoredTable | None:
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            moves = session.execute(
                select(MoveRow.text, MoveRow.seat).where(MoveRow.table_id == table_id)
                .order_by(MoveRow.number)).all()
            return _stored(row, [(m.text, m.seat) for m in moves])

    def table_ids(self, status: str | None = None) -> list[str]:
        query = select(TableRow.id).order_by(TableRow.created_at)
        if status is not None:
            query = query.where(TableRow.status == status)
        with Session(self.engine) as session:
            return list(session.execute(query).scalars())

    def list_tables(self, status: str | None = None, limit: int = 50) -> list[StoredTable]:
        """Most recently active tables first, without their moves."""
        query = select(TableRow).order_by(TableRow.updated_at.desc()).limit(limit)
        if status is not None:
            query = query.where(TableRow.status == status)
        with Session(self.engine) as session:
            return [_stored(row, None) for row in session.execute(query).scalars()]

    def count_moves(self, table_id: str) -> int:
        with Session(self.engine) as session:
            return int(session.execute(select(func.count()).select_from(MoveRow)
                                       .where(MoveRow.table_id == table_id)).scalar_one())


def _stored(row: TableRow, moves: list[tuple[str, int]] | None) -> StoredTable:
    return StoredTable(
        id=row.id, game=row.game, engine_version=row.engine_version,
        num_players=row.num_players, seed=int(row.seed), options=dict(row.options or {}),
        seats=[StoredSeat(s.name, s.agent, s.token_hash) for s in row.seats],
        status=row.status, result=row.result, moves=moves or [], move_count=row.move_count,
        created_at=row.created_at, updated_at=row.updated_at)

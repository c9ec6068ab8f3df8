"""Revision 0001's layout: the schema of the last release without migrations, frozen.

Frozen on purpose: the models in ``db.py``, ``playerstore.py`` and ``reviews.py`` move on
with later revisions; this stays what revision 0001 means. Every layout an older release
wrote is this one less some tables, columns and indexes (the schema only ever grew before
the migrations: ``game_tables.version`` and ``.seed_fixed``, ``game_moves.told``, and the
tables of bot leases, rematches, reviews and hints, accounts and ratings came one by one),
so :func:`adopt` brings any of them here: it creates what is missing and refuses a layout it
does not recognise (a column it does not know, or a required one missing), changing nothing.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy import (JSON, BigInteger, Boolean, Column, DateTime, Float, ForeignKey, Index,
                        Integer, MetaData, String, Table, UniqueConstraint)

BASELINE = MetaData()


def _fk_table() -> Column[Any]:
    return Column("table_id", String(32), ForeignKey("game_tables.id", ondelete="CASCADE"),
                  primary_key=True)


Table("game_tables", BASELINE,
      Column("id", String(32), primary_key=True),
      Column("game", String(32), nullable=False),
      Column("engine_version", String(32), nullable=False),
      Column("num_players", Integer, nullable=False),
      Column("seed", BigInteger, nullable=False),
      Column("options", JSON, nullable=False),
      Column("status", String(16), nullable=False),
      Column("move_count", Integer, nullable=False),
      Column("version", Integer, nullable=False, server_default="0"),
      Column("seed_fixed", Boolean, nullable=False, server_default=sa.false()),
      Column("result", JSON, nullable=True),
      Column("created_at", DateTime(timezone=True), nullable=False),
      Column("updated_at", DateTime(timezone=True), nullable=False),
      Index("ix_game_tables_status", "status"))
Table("game_seats", BASELINE,
      _fk_table(),
      Column("seat", Integer, primary_key=True),
      Column("name", String(64), nullable=False),
      Column("agent", String(64), nullable=False),
      Column("token_hash", String(64), nullable=True))
Table("game_moves", BASELINE,
      _fk_table(),
      Column("number", Integer, primary_key=True),
      Column("text", String(256), nullable=False),
      Column("seat", Integer, nullable=False),
      Column("created_at", DateTime(timezone=True), nullable=False),
      Column("told", JSON(none_as_null=True), nullable=True))
Table("game_bot_leases", BASELINE,
      _fk_table(),
      Column("owner", String(64), nullable=False),
      Column("expires_at", DateTime(timezone=True), nullable=False),
      Index("ix_game_bot_leases_expires_at", "expires_at"))
Table("game_rematches", BASELINE,
      _fk_table(),
      Column("rematch_id", String(32), nullable=False),
      Column("created_at", DateTime(timezone=True), nullable=False))
Table("game_reviews", BASELINE,
      _fk_table(),
      Column("status", String(16), nullable=False),
      Column("budget", String(32), nullable=False),
      Column("data", JSON, nullable=True),
      Column("error", String(500), nullable=True),
      Column("created_at", DateTime(timezone=True), nullable=False),
      Column("finished_at", DateTime(timezone=True), nullable=True))
Table("game_hints", BASELINE,
      Column("table_id", String(32), ForeignKey("game_tables.id", ondelete="CASCADE"),
             primary_key=True),
      Column("move_number", Integer, primary_key=True),
      Column("seat", Integer, nullable=False),
      Column("level", String(16), nullable=False),
      Column("action", String(256), nullable=False),
      Column("data", JSON, nullable=False),
      Column("created_at", DateTime(timezone=True), nullable=False))
Table("accounts", BASELINE,
      Column("id", Integer, primary_key=True, autoincrement=True),
      Column("name", String(32), nullable=False),
      Column("name_key", String(32), nullable=False),
      Column("password_hash", String(256), nullable=False),
      Column("created_at", Float, nullable=False),
      UniqueConstraint("name_key"))
Table("account_sessions", BASELINE,
      Column("token_hash", String(64), primary_key=True),
      Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
      Column("created_at", Float, nullable=False),
      Column("expires_at", Float, nullable=False),
      Index("ix_account_sessions_account_id", "account_id"))
Table("table_meta", BASELINE,
      _fk_table(),
      Column("public", Boolean, nullable=False),
      Column("full", Boolean, nullable=False),
      Column("rated", Boolean, nullable=False),
      Column("speed", String(32), nullable=False),
      Column("zombie", String(16), nullable=False),
      Column("creator_id", Integer, nullable=True),
      Column("clock", JSON, nullable=True),
      Column("deadline", Float, nullable=True),
      Column("zombies", JSON, nullable=False),
      Column("rated_done", Boolean, nullable=False),
      Column("rematch", String(32), nullable=True),
      Index("ix_table_meta_public", "public"),
      Index("ix_table_meta_deadline", "deadline"))
Table("seat_owners", BASELINE,
      _fk_table(),
      Column("seat", Integer, primary_key=True),
      Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
      Index("ix_seat_owners_account_id", "account_id"))
Table("ratings", BASELINE,
      Column("game", String(32), primary_key=True),
      Column("player", String(48), primary_key=True),
      Column("name", String(48), nullable=False),
      Column("mu", Float, nullable=False),
      Column("sigma", Float, nullable=False),
      Column("games", Integer, nullable=False),
      Column("updated_at", Float, nullable=False))
Table("rating_history", BASELINE,
      Column("id", Integer, primary_key=True, autoincrement=True),
      Column("game", String(32), nullable=False),
      Column("player", String(48), nullable=False),
      Column("table_id", String(32), nullable=True),
      Column("rank", Integer, nullable=False),
      Column("players", Integer, nullable=False),
      Column("mu", Float, nullable=False),
      Column("sigma", Float, nullable=False),
      Column("at", Float, nullable=False),
      Index("ix_rating_history_player", "player"))
Table("table_chat", BASELINE,
      Column("id", Integer, primary_key=True, autoincrement=True),
      Column("table_id", String(32), ForeignKey("game_tables.id", ondelete="CASCADE"),
             nullable=False),
      Column("author", String(48), nullable=False),
      Column("seat", Integer, nullable=True),
      Column("system", Boolean, nullable=False),
      Column("text", String(1200), nullable=False),
      Column("at", Float, nullable=False),
      Index("ix_table_chat_table_id", "table_id"))
Table("login_failures", BASELINE,
      Column("id", Integer, primary_key=True, autoincrement=True),
      Column("key", String(64), nullable=False),
      Column("at", Float, nullable=False),
      Index("ix_login_failures_key", "key"),
      Index("ix_login_failures_at", "at"))


def layout_problems(conn: sa.engine.Connection) -> list[str]:
    """What in the database's tables is not some older release's layout (empty: adoptable)."""
    inspector = sa.inspect(conn)
    present = set(inspector.get_table_names())
    problems = []
    for table in BASELINE.sorted_tables:
        if table.name not in present:
            continue
        have = {c["name"] for c in inspector.get_columns(table.name)}
        unknown = sorted(have - set(table.columns.keys()))
        if unknown:
            problems.append(f"{table.name} has columns no release wrote: {', '.join(unknown)}")
        for column in table.columns:
            if (column.name not in have and not column.nullable
                    and column.server_default is None):
                problems.append(f"{table.name} lacks its column {column.name}")
    return problems


def adopt(conn: sa.engine.Connection) -> None:
    """Bring an older release's layout (or nothing: a new database) to this one."""
    from alembic import op

    problems = layout_problems(conn)
    if problems:
        raise RuntimeError("the tables are not a layout any mayagames release wrote: "
                           + "; ".join(problems))
    inspector = sa.inspect(conn)
    present = set(inspector.get_table_names())
    for table in BASELINE.sorted_tables:  # parents first (foreign keys)
        if table.name not in present:
            table.create(conn)
            continue
        have = {c["name"] for c in inspector.get_columns(table.name)}
        for column in table.columns:
            if column.name not in have:
                op.add_column(table.name, column._copy())
        indexes = {i["name"] for i in inspector.get_indexes(table.name)}
        for index in table.indexes:
            if index.name not in indexes:
                op.create_index(index.name, table.name, [c.name for c in index.columns])

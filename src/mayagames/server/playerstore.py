"""Persistence of the players' side of the server: accounts and sessions, who owns which
seat, a table's lobby settings and clock, the rating ladder and table chat.

These are new tables next to those of :mod:`.db` (same metadata, created by
``Database.create_schema``), so an existing database gains them without a migration.
Times are epoch seconds (floats) from the server's time source, so that tests can
drive them with a fake clock. All methods are synchronous (called from the database
thread, like :class:`.db.Database`'s).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import datetime as dt

from sqlalchemy import (JSON, Boolean, DateTime, Float, ForeignKey, Integer, String, case, delete,
                        func, or_, select, type_coerce, update)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Mapped, Session, mapped_column

from .db import Base, Database, SeatRow, TableRow, loose_json


class AccountRow(Base):
    """A player account: the name as typed, its lower-case key (unique) and the password hash."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str] = mapped_column(String(256))
    created_at: Mapped[float] = mapped_column(Float)


class SessionRow(Base):
    """A login session: the SHA-256 of the cookie's secret, whose account, until when."""

    __tablename__ = "account_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)


class TableMetaRow(Base):
    """A table's lobby settings (public, rated, speed, zombie level), creator, clock, zombies."""

    __tablename__ = "table_meta"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    public: Mapped[bool] = mapped_column(Boolean, index=True)
    full: Mapped[bool] = mapped_column(Boolean)
    rated: Mapped[bool] = mapped_column(Boolean)
    speed: Mapped[str] = mapped_column(String(32))
    zombie: Mapped[str] = mapped_column(String(16))
    creator_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    zombies: Mapped[list[int]] = mapped_column(JSON)
    # seats whose player resigned (also in zombies; in a 2-player game the game ended)
    resigned: Mapped[list[int] | None] = mapped_column(JSON, nullable=True, default=None)
    rated_done: Mapped[bool] = mapped_column(Boolean, default=False)
    # no longer written: a rematch is a row of db.RematchRow (game_rematches), made in the
    # new table's own transaction; kept so that older databases need no migration
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)


class SeatOwnerRow(Base):
    """Seat ``seat`` of a table belongs to an account (a seat has at most one owner)."""

    __tablename__ = "seat_owners"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)


class RatingRow(Base):
    """One player's rating in one game (openskill: mean and uncertainty)."""

    __tablename__ = "ratings"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    player: Mapped[str] = mapped_column(String(48), primary_key=True)  # account:ID or bot:LEVEL
    name: Mapped[str] = mapped_column(String(48))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[float] = mapped_column(Float)


class RatingHistoryRow(Base):
    """A player's rating after one rated game (the points of the profile's plot)."""

    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(32))
    player: Mapped[str] = mapped_column(String(48), index=True)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)  # None: an arena game
    rank: Mapped[int] = mapped_column(Integer)
    players: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)


class ChatRow(Base):
    """One line of a table's chat (kept with the table)."""

    __tablename__ = "table_chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), index=True)
    author: Mapped[str] = mapped_column(String(48))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    system: Mapped[bool] = mapped_column(Boolean, default=False)
    text: Mapped[str] = mapped_column(String(1200))
    at: Mapped[float] = mapped_column(Float)


class LoginAttemptRow(Base):
    """The login attempts counted against one key (the SHA-256 of an account name or of a
    client address) in the window that began at ``since``: the login throttle of every
    instance counts in the same row, one conditional update per attempt."""

    __tablename__ = "login_attempts"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    since: Mapped[float] = mapped_column(Float, index=True)
    attempts: Mapped[int] = mapped_column(Integer)


class ClockLeaseRow(Base):
    """Which server instance times out a table's expired clock, until when (PostgreSQL,
    several instances): the one that claims it loads the table and hands the seat to the
    zombie bot; the row is deleted when done, and one not renewed expires."""

    __tablename__ = "clock_leases"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    owner: Mapped[str] = mapped_column(String(64))
    expires_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class QuickQueueRow(Base):
    """An account waiting to be paired for a quick game (one wait per account): every
    instance reads and claims the same rows, so players of different instances meet."""

    __tablename__ = "quick_queue"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            primary_key=True)
    name: Mapped[str] = mapped_column(String(48))
    game: Mapped[str] = mapped_column(String(32), index=True)
    speed: Mapped[str] = mapped_column(String(32))
    rating: Mapped[float] = mapped_column(Float)      # the ladder's value (mu - 3 sigma)
    since: Mapped[float] = mapped_column(Float)       # epoch seconds it started waiting
    bot_after: Mapped[float | None] = mapped_column(Float, nullable=True)  # None: no bot
    # the table it was paired to; "pairing:..." while that table is being made
    table_id: Mapped[str | None] = mapped_column(String(40), nullable=True)


@dataclass
class QuickWait:
    account_id: int
    name: str
    game: str
    speed: str
    rating: float
    since: float
    bot_after: float | None
    table_id: str | None


class DamagedRow(ValueError):
    """A stored row that does not read as what it should be (the message says which)."""


META_PLAIN = ("public", "full", "rated", "speed", "zombie", "creator_id", "rated_done", "rematch")
META_JSON = ("clock", "zombies", "resigned")


def checked_meta(table_id: str, row: Any, owners: Any) -> "TableMeta":
    """The settings of a ``table_meta`` row (its JSON columns as raw text), checked:
    :class:`DamagedRow` names the first column that is not what it should be."""
    from .clocks import parse_speed
    from .rooms import ServerError

    def damaged(column: str, why: str) -> DamagedRow:
        return DamagedRow(f"table_meta.{column} of table {table_id} is damaged ({why})")

    bad = object()
    clock, zombies = loose_json(row.clock, bad), loose_json(row.zombies, bad)
    resigned = loose_json(row.resigned, bad)
    if clock is bad:
        raise damaged("clock", "not JSON")
    if clock is not None and not valid_clock(clock):
        raise damaged("clock", "not a clock")
    if zombies is bad:
        raise damaged("zombies", "not JSON")
    if zombies is None:
        zombies = []
    if not (isinstance(zombies, list) and all(type(z) is int and 0 <= z < 16 for z in zombies)):
        raise damaged("zombies", "not a list of seats")
    if resigned is None:
        resigned = []
    if resigned is bad or not (isinstance(resigned, list)
                               and all(type(r) is int and 0 <= r < 16 for r in resigned)):
        raise damaged("resigned", "not a list of seats")
    try:
        parse_speed(row.speed)
    except ServerError as exc:
        raise damaged("speed", repr(row.speed)) from exc
    for column in ("public", "full", "rated", "rated_done"):
        if not isinstance(getattr(row, column), (bool, int)):
            raise damaged(column, "not a boolean")
    seats = [o.seat for o in owners]
    if any(type(s) is not int or not 0 <= s < 16 for s in seats):
        raise DamagedRow(f"seat_owners of table {table_id} are damaged (seats {seats})")
    return TableMeta(public=bool(row.public), rated=bool(row.rated), speed=row.speed,
                     zombie=str(row.zombie), creator_id=row.creator_id
                     if isinstance(row.creator_id, int) else None,
                     owners={o.seat: o.id for o in owners},
                     owner_names={o.seat: o.name for o in owners}, clock=clock,
                     zombies=list(zombies), rated_done=bool(row.rated_done),
                     resigned=list(resigned),
                     full=bool(row.full), rematch=row.rematch)


def is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def sound_rating(row: Any) -> bool:
    """A ``ratings`` row whose numbers are numbers (a damaged one is left out, not a 500)."""
    return all(is_number(v) for v in (row.mu, row.sigma, row.games))


def valid_clock(clock: Any) -> bool:
    """Whether ``clock`` has the layout of :mod:`.clocks` (numbers where numbers go)."""
    number = is_number
    if not isinstance(clock, dict) or not isinstance(clock.get("remaining"), list):
        return False
    remaining = clock["remaining"]
    running = clock.get("running")
    return (all(number(x) for x in remaining)
            and (running is None or (type(running) is int and 0 <= running < len(remaining)))
            and all(clock.get(k) is None or number(clock[k]) for k in ("since", "deadline"))
            and (running is None or (number(clock.get("since")) and number(clock.get("deadline"))))
            and isinstance(clock.get("idle", []), list))


class NameTaken(Exception):
    pass


class PairingLost(Exception):
    """Another pairing took one of the two waits first (the transaction is rolled back)."""


class SeatTaken(Exception):
    pass


class NotStored(Exception):
    """A conditional write found its condition false: its transaction is rolled back."""


@dataclass
class Account:
    id: int
    name: str


@dataclass
class TableMeta:
    """What a table adds to its game: lobby settings, seat owners, clock state, zombies."""

    public: bool = False
    rated: bool = False
    speed: str = "untimed"
    zombie: str = "medium"
    creator_id: int | None = None
    owners: dict[int, int] = field(default_factory=dict)       # seat -> account id
    owner_names: dict[int, str] = field(default_factory=dict)  # seat -> account name
    clock: dict[str, Any] | None = None
    zombies: list[int] = field(default_factory=list)
    resigned: list[int] = field(default_factory=list)  # also zombies: counted as a loss
    rated_done: bool = False
    full: bool = True
    rematch: str | None = None


@dataclass
class Rating:
    player: str
    name: str
    mu: float
    sigma: float
    games: int


def new_rating_values() -> tuple[float, float]:
    """A new player's (mu, sigma): the openskill model's defaults."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    return float(model.mu), float(model.sigma)


class PlayerStore:
    """Synchronous reads and writes of the players' tables on the server's database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @property
    def engine(self) -> Any:
        return self.db.engine

    # --- accounts and sessions ----------------------------------------------------------
    def create_account(self, name: str, key: str, password_hash: str, now: float) -> Account:
        try:
            with Session(self.engine) as s, s.begin():
                row = AccountRow(name=name, name_key=key, password_hash=password_hash, created_at=now)
                s.add(row)
                s.flush()
                return Account(row.id, row.name)
        except IntegrityError as exc:
            raise NameTaken(name) from exc

    def account_by_key(self, key: str) -> tuple[Account, str] | None:
        with Session(self.engine) as s:
            row = s.execute(select(AccountRow).where(AccountRow.name_key == key)).scalar_one_or_none()
            return (Account(row.id, row.name), row.password_hash) if row else None

    def password_hash(self, account_id: int) -> str | None:
        with Session(self.engine) as s:
            row = s.get(AccountRow, account_id)
            return row.password_hash if row else None

    def set_password(self, account_id: int, password_hash: str, keep_session: str) -> None:
        """Store the new hash and end every other session of the account."""
        with Session(self.engine) as s, s.begin():
            s.execute(update(AccountRow).where(AccountRow.id == account_id)
                      .values(password_hash=password_hash))
            s.execute(delete(SessionRow).where(SessionRow.account_id == account_id,
                                               SessionRow.token_hash != keep_session))

    def create_session(self, token_hash: str, account_id: int, now: float, expires: float) -> None:
        with Session(self.engine) as s, s.begin():
            s.add(SessionRow(token_hash=token_hash, account_id=account_id, created_at=now,
                             expires_at=expires))

    def session(self, token_hash: str) -> tuple[Account, float] | None:
        """The account of a session and when the session expires (None: no such session)."""
        with Session(self.engine) as s:
            row = s.execute(select(SessionRow.expires_at, AccountRow.id, AccountRow.name)
                            .join(AccountRow, AccountRow.id == SessionRow.account_id)
                            .where(SessionRow.token_hash == token_hash)).first()
            if row is None:
                return None
            expires = row.expires_at  # a damaged expiry (not a number) counts as expired
            valid = isinstance(expires, (int, float)) and not isinstance(expires, bool)
            return Account(row.id, row.name), float(expires) if valid else 0.0

    def delete_session(self, token_hash: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash))

    # --- the login throttle --------------------------------------------------------------
    def reserve_login(self, keys: list[tuple[str, int]], now: float,
                      window: float) -> float | None:
        """Count one login attempt against each (key, limit) before its password is checked,
        unless a key already has ``limit`` attempts in its window: None if counted, else the
        seconds until that key's window ends (nothing counted). Per key one conditional
        upsert (``INSERT ... ON CONFLICT DO UPDATE ... WHERE attempts < limit``), all in one
        transaction: the row lock counts concurrent attempts, through any instances, one
        after the other, so at most ``limit`` of them are ever checked."""
        insert = pg_insert if self.engine.dialect.name == "postgresql" else sqlite_insert
        row = LoginAttemptRow
        ended = row.since <= now - window  # the row's window is over: a new one begins
        try:
            with Session(self.engine) as s, s.begin():
                for key, limit in keys:
                    counted = s.execute(
                        insert(row).values(key=key, since=now, attempts=1).on_conflict_do_update(
                            index_elements=[row.key],
                            set_={"attempts": case((ended, 1), else_=row.attempts + 1),
                                  "since": case((ended, now), else_=row.since)},
                            where=or_(ended, row.attempts < limit)).returning(row.attempts)
                    ).first()
                    if counted is None:
                        since = s.execute(select(row.since).where(row.key == key)).scalar_one()
                        raise NotStored(since + window - now)
        except NotStored as refused:
            return max(0.0, float(refused.args[0]))
        return None

    def give_back_login(self, keys: list[str], now: float, window: float) -> None:
        """A login that succeeded is not counted against its keys."""
        with Session(self.engine) as s, s.begin():
            s.execute(update(LoginAttemptRow).where(
                LoginAttemptRow.key.in_(keys), LoginAttemptRow.attempts > 0,
                LoginAttemptRow.since > now - window).values(attempts=LoginAttemptRow.attempts - 1))

    def forget_login_attempts(self, before: float) -> None:
        """Drop the counts whose window ended before ``before`` (the table holds one window)."""
        with Session(self.engine) as s, s.begin():
            s.execute(delete(LoginAttemptRow).where(LoginAttemptRow.since <= before))

    # --- tables --------------------------------------------------------------------------
    @staticmethod
    def add_meta(s: Session, table_id: str, meta: TableMeta) -> None:
        """Store a new table's settings and owners (in the table's own insert transaction:
        its seats already carry the owners' names and no tokens where none is wanted)."""
        s.add(TableMetaRow(table_id=table_id, public=meta.public, full=meta.full,
                           rated=meta.rated, speed=meta.speed, zombie=meta.zombie,
                           creator_id=meta.creator_id, clock=meta.clock,
                           deadline=(meta.clock or {}).get("deadline"),
                           zombies=list(meta.zombies), rated_done=False))
        s.flush()
        for seat, account_id in meta.owners.items():
            s.add(SeatOwnerRow(table_id=table_id, seat=seat, account_id=account_id))

    def load_meta(self, table_id: str) -> TableMeta | None:
        """A table's settings (None: it has none); :class:`DamagedRow` for a row that does
        not read as settings (the table is then set apart as broken, with the reason)."""
        columns = [type_coerce(getattr(TableMetaRow, c), String).label(c) for c in META_JSON]
        with Session(self.engine) as s:
            try:
                row = s.execute(select(*[getattr(TableMetaRow, c) for c in META_PLAIN], *columns)
                                .where(TableMetaRow.table_id == table_id)).first()
            except (ValueError, TypeError) as exc:
                raise DamagedRow(f"table_meta of {table_id} does not read: {exc}") from exc
            if row is None:
                return None
            owners = s.execute(select(SeatOwnerRow.seat, AccountRow.id, AccountRow.name)
                               .join(AccountRow, AccountRow.id == SeatOwnerRow.account_id)
                               .where(SeatOwnerRow.table_id == table_id)).all()
            return checked_meta(table_id, row, owners)

    def load_metas(self, table_ids: list[str]) -> dict[str, "TableMeta | None"]:
        """:meth:`load_meta` of many tables in two queries (lists and profiles); a damaged
        row is None (opening its table says why), a table without settings is absent."""
        if not table_ids:
            return {}
        columns = [type_coerce(getattr(TableMetaRow, c), String).label(c) for c in META_JSON]
        with Session(self.engine) as s:
            try:
                rows = s.execute(select(TableMetaRow.table_id.label("tid"),
                                        *[getattr(TableMetaRow, c) for c in META_PLAIN], *columns)
                                 .where(TableMetaRow.table_id.in_(table_ids))).all()
            except (ValueError, TypeError):  # some row does not read: one by one
                rows = None
            owners = s.execute(select(SeatOwnerRow.table_id, SeatOwnerRow.seat, AccountRow.id,
                                      AccountRow.name)
                               .join(AccountRow, AccountRow.id == SeatOwnerRow.account_id)
                               .where(SeatOwnerRow.table_id.in_(table_ids))).all()
        if rows is None:
            found: dict[str, TableMeta | None] = {}
            for table_id in table_ids:
                try:
                    if (meta := self.load_meta(table_id)) is not None:
                        found[table_id] = meta
                except DamagedRow:
                    found[table_id] = None
            return found
        by_table: dict[str, list[Any]] = {}
        for owner in owners:
            by_table.setdefault(owner.table_id, []).append(owner)
        metas: dict[str, TableMeta | None] = {}
        for row in rows:
            try:
                metas[row.tid] = checked_meta(row.tid, row, by_table.get(row.tid, []))
            except DamagedRow:
                metas[row.tid] = None
        return metas

    def take_seat(self, table_id: str, seat: int, account: Account, full: bool,
                  clear_token: bool) -> int | None:
        """Give ``seat`` to ``account`` (SeatTaken if it has an owner already); the table's
        new version."""
        try:
            with Session(self.engine) as s, s.begin():
                version = self.db.table_changed(s, table_id)
                s.add(SeatOwnerRow(table_id=table_id, seat=seat, account_id=account.id))
                s.flush()
                values: dict[str, Any] = {"name": account.name}
                if clear_token:
                    values["token_hash"] = None
                s.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                          .values(**values))
                s.execute(update(TableMetaRow).where(TableMetaRow.table_id == table_id)
                          .values(full=full))
                return version
        except IntegrityError as exc:
            raise SeatTaken(seat) from exc

    def ensure_meta(self, table_id: str) -> None:
        """A table created before accounts existed gets default settings."""
        with Session(self.engine) as s, s.begin():
            if s.get(TableMetaRow, table_id) is None:
                s.add(TableMetaRow(table_id=table_id, public=False, full=True, rated=False,
                                   speed="untimed", zombie="medium", creator_id=None, clock=None,
                                   deadline=None, zombies=[], rated_done=False))

    def set_token(self, table_id: str, seat: int, token_hash: str | None) -> int | None:
        """Store a seat's new token (a re-issued link); the table's new version."""
        with Session(self.engine) as s, s.begin():
            version = self.db.table_changed(s, table_id)
            s.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                      .values(token_hash=token_hash))
            return version

    def save_clock(self, table_id: str, clock: dict[str, Any] | None, zombies: list[int],
                   deadline: float | None | bool = False,
                   expected: int | None = None) -> int | None:
        """Store a table's clock and zombies; the table's new version, or None if not stored.
        With a ``deadline`` (a float or None), only if the stored deadline is still that one
        (a conditional update: two instances timing one seat out cannot both do it); with
        ``expected``, only if the table is still at that version (no move or other change
        was stored since the caller looked: the seat it times out is still to move)."""
        query = update(TableMetaRow).where(TableMetaRow.table_id == table_id)
        if deadline is not False:
            query = query.where(TableMetaRow.deadline.is_(None) if deadline is None
                                else TableMetaRow.deadline == deadline)
        try:
            with Session(self.engine) as s, s.begin():
                version = self.db.table_changed(s, table_id, expected)
                if version is None:
                    raise NotStored()
                done = s.execute(query.values(clock=clock, deadline=(clock or {}).get("deadline"),
                                              zombies=list(zombies)))
                if not done.rowcount:
                    raise NotStored()
                return version
        except NotStored:
            return None

    def save_resigned(self, table_id: str, resigned: list[int], zombies: list[int],
                      clock: dict[str, Any] | None, ended: bool) -> int | None:
        """Store a resignation (the seat plays on as a zombie, or ``ended``: the game is over)
        and raise the table's version in the same transaction; the new version."""
        with Session(self.engine) as s, s.begin():
            version = self.db.table_changed(s, table_id)
            s.execute(update(TableMetaRow).where(TableMetaRow.table_id == table_id).values(
                resigned=list(resigned), zombies=list(zombies), clock=clock,
                deadline=(clock or {}).get("deadline")))
            if ended:
                s.execute(update(TableRow).where(TableRow.id == table_id).values(status="finished"))
            return version

    def expired_deadlines(self, now: float, limit: int = 100) -> list[tuple[str, float]]:
        """(table, deadline) of the unfinished tables whose clock ran out by ``now``, loaded
        or not on any instance (the deadline's index), oldest first."""
        with Session(self.engine) as s:
            rows = s.execute(select(TableMetaRow.table_id, TableMetaRow.deadline).join(
                TableRow, TableRow.id == TableMetaRow.table_id).where(
                TableMetaRow.deadline <= now, TableRow.status == "playing")
                .order_by(TableMetaRow.deadline).limit(limit)).all()
            return [(r[0], float(r[1])) for r in rows if r[1] is not None]

    def claim_clock_lease(self, table_id: str, owner: str, seconds: float) -> bool:
        """Take the lease on timing out ``table_id``'s clock unless another live owner holds
        it (PostgreSQL: the database's clock, as for bot leases)."""
        return self.db.claim_lease("clock_leases", table_id, owner, seconds)

    def release_clock_lease(self, table_id: str, owner: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(delete(ClockLeaseRow).where(ClockLeaseRow.table_id == table_id,
                                                  ClockLeaseRow.owner == owner))

    def open_tables(self, limit: int) -> list[tuple[str, TableMeta]]:
        """Public tables still waiting for players, newest first."""
        with Session(self.engine) as s:
            ids = list(s.execute(select(TableMetaRow.table_id).join(
                TableRow, TableRow.id == TableMetaRow.table_id).where(
                TableMetaRow.public.is_(True), TableMetaRow.full.is_(False),
                TableRow.status == "playing").order_by(TableRow.created_at.desc())
                .limit(limit)).scalars())
        found = []
        for table_id in ids:
            try:
                meta = self.load_meta(table_id)
            except DamagedRow:  # listed nowhere: opening it says why (broken_table)
                continue
            if meta is not None:
                found.append((table_id, meta))
        return found

    @staticmethod
    def listed_to(account_id: int | None) -> Any:
        """The ids of the tables a lobby list may show to an account (None: to anyone):
        public tables, and the tables where the account holds a seat. A private table
        (and one without settings, from before accounts) is listed to its seats only."""
        public = select(TableMetaRow.table_id).where(TableMetaRow.public.is_(True))
        if account_id is None:
            return public
        return public.union(select(SeatOwnerRow.table_id)
                            .where(SeatOwnerRow.account_id == account_id))

    def listable(self, table_ids: list[str], account_id: int | None) -> set[str]:
        """Of ``table_ids``, the ones that may be listed to an account (None: to anyone):
        see :meth:`listed_to`."""
        if not table_ids:
            return set()
        with Session(self.engine) as s:
            found = set(s.execute(select(TableMetaRow.table_id).where(
                TableMetaRow.table_id.in_(table_ids), TableMetaRow.public.is_(True))).scalars())
            if account_id is not None:
                found.update(s.execute(select(SeatOwnerRow.table_id).where(
                    SeatOwnerRow.table_id.in_(table_ids),
                    SeatOwnerRow.account_id == account_id)).scalars())
            return found

    def account_tables(self, account_id: int, limit: int) -> list[tuple[str, int]]:
        """(table, seat) of an account's seats, most recently active first."""
        with Session(self.engine) as s:
            rows = s.execute(select(SeatOwnerRow.table_id, SeatOwnerRow.seat).join(
                TableRow, TableRow.id == SeatOwnerRow.table_id).where(
                SeatOwnerRow.account_id == account_id).order_by(TableRow.updated_at.desc())
                .limit(limit)).all()
            return [(r.table_id, r.seat) for r in rows]

    def mark_rated(self, table_id: str) -> bool:
        """Claim the rating of a finished table (False: it was rated already)."""
        with Session(self.engine) as s, s.begin():
            done = s.execute(update(TableMetaRow).where(TableMetaRow.table_id == table_id,
                                                        TableMetaRow.rated_done.is_(False))
                             .values(rated_done=True))
            return bool(done.rowcount)

    # --- ratings ---------------------------------------------------------------------------
    # --- quick play ----------------------------------------------------------------------------
    @staticmethod
    def quick_wait(row: QuickQueueRow) -> QuickWait:
        return QuickWait(row.account_id, row.name, row.game, row.speed, row.rating, row.since,
                         row.bot_after, row.table_id)

    def quick_enter(self, wait: QuickWait) -> None:
        """Wait for a quick game (replacing this account's earlier wait)."""
        with Session(self.engine) as s, s.begin():
            s.execute(delete(QuickQueueRow).where(QuickQueueRow.account_id == wait.account_id))
            s.add(QuickQueueRow(account_id=wait.account_id, name=wait.name, game=wait.game,
                                speed=wait.speed, rating=wait.rating, since=wait.since,
                                bot_after=wait.bot_after, table_id=None))

    def quick_get(self, account_id: int) -> QuickWait | None:
        with Session(self.engine) as s:
            row = s.get(QuickQueueRow, account_id)
            return self.quick_wait(row) if row is not None else None

    def quick_claim(self, account_id: int, marker: str) -> QuickWait | None:
        """Pair ``account_id``'s wait with the waiting player of the same game and speed
        whose rating is nearest (the longest waiting first among equals): both rows are
        marked ``marker`` in one conditional update, so two instances cannot pair one
        player twice. The opponent's wait, or None (nobody, or someone was quicker)."""
        try:
            with Session(self.engine) as s, s.begin():
                me = s.get(QuickQueueRow, account_id)
                if me is None or me.table_id is not None:
                    return None
                others = s.execute(select(QuickQueueRow).where(
                    QuickQueueRow.game == me.game, QuickQueueRow.speed == me.speed,
                    QuickQueueRow.table_id.is_(None), QuickQueueRow.account_id != account_id)
                ).scalars().all()
                if not others:
                    return None
                other = min(others, key=lambda o: (abs(o.rating - me.rating), o.since))
                done = s.execute(update(QuickQueueRow).where(
                    QuickQueueRow.account_id.in_([account_id, other.account_id]),
                    QuickQueueRow.table_id.is_(None)).values(table_id=marker))
                if done.rowcount != 2:
                    raise PairingLost  # one of the two was paired meanwhile: undo the mark
                return self.quick_wait(other)
        except (PairingLost, OperationalError):  # (a deadlock with another instance's pairing)
            return None

    def quick_paired(self, account_ids: list[int], marker: str, table_id: str | None) -> None:
        """The table of a pairing is made (or, with None, could not be: both wait again)."""
        with Session(self.engine) as s, s.begin():
            s.execute(update(QuickQueueRow).where(QuickQueueRow.account_id.in_(account_ids),
                                                  QuickQueueRow.table_id == marker)
                      .values(table_id=table_id))

    def quick_leave(self, account_id: int, only_waiting: bool = True) -> bool:
        """Stop waiting (``only_waiting``: not once paired). Whether a row went."""
        query = delete(QuickQueueRow).where(QuickQueueRow.account_id == account_id)
        if only_waiting:
            query = query.where(QuickQueueRow.table_id.is_(None))
        with Session(self.engine) as s, s.begin():
            return bool(s.execute(query).rowcount)

    def ratings(self, game: str, players: list[str]) -> dict[str, Rating]:
        with Session(self.engine) as s:
            rows = s.execute(select(RatingRow).where(RatingRow.game == game,
                                                     RatingRow.player.in_(players))).scalars()
            return {r.player: Rating(r.player, r.name, r.mu, r.sigma, r.games) for r in rows
                    if sound_rating(r)}

    def rate_game(self, game: str, table_id: str | None, seats: list[tuple[str, str, int]],
                  update: Callable[[list[Rating], list[int]], list[Rating]],
                  now: float) -> list[Rating]:
        """Update the ratings of one finished game in one transaction: ``seats`` are (ladder
        name, shown name, finishing rank) per seat; ``update(before, ranks)`` the new
        ratings. Each player's row is created if missing, then locked (``SELECT ... FOR
        UPDATE`` on PostgreSQL, in a fixed order) before it is read, so two games ending
        at once for one player are applied one after the other: neither update is lost.
        SQLite has one writer (and the server one database thread)."""
        names = {player: name for player, name, _ in seats}
        fresh = new_rating_values()
        with Session(self.engine) as s, s.begin():
            insert = (pg_insert if self.engine.dialect.name == "postgresql" else sqlite_insert)
            s.execute(insert(RatingRow).values([
                {"game": game, "player": player, "name": name, "mu": fresh[0],
                 "sigma": fresh[1], "games": 0, "updated_at": now}
                for player, name in sorted(names.items())]).on_conflict_do_nothing())
            rows = {r.player: r for r in s.execute(
                select(RatingRow).where(RatingRow.game == game,
                                        RatingRow.player.in_(sorted(names)))
                .order_by(RatingRow.player).with_for_update()).scalars()}
            # a damaged row (numbers that are not) starts again from a new player's rating
            before = [Rating(p, rows[p].name, rows[p].mu, rows[p].sigma, rows[p].games)
                      if sound_rating(rows[p]) else Rating(p, rows[p].name, *fresh, 0)
                      for p, _, _ in seats]
            after = update(before, [rank for _, _, rank in seats])
            rank_of = {p: min(r for q, _, r in seats if q == p) for p, _, _ in seats}
            for rating in after:
                row = rows[rating.player]
                row.name, row.mu, row.sigma = rating.name, rating.mu, rating.sigma
                row.games, row.updated_at = rating.games, now
                s.add(RatingHistoryRow(game=game, player=rating.player, table_id=table_id,
                                       rank=rank_of[rating.player], players=len(seats),
                                       mu=rating.mu, sigma=rating.sigma, at=now))
            return after

    def leaderboard(self, game: str, limit: int) -> list[Rating]:
        with Session(self.engine) as s:
            rows = s.execute(select(RatingRow).where(RatingRow.game == game)
                             .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc())
                             .limit(limit)).scalars()
            return [Rating(r.player, r.name, r.mu, r.sigma, r.games) for r in rows
                    if sound_rating(r)]

    def player_ratings(self, player: str) -> list[tuple[str, Rating]]:
        with Session(self.engine) as s:
            rows = s.execute(select(RatingRow).where(RatingRow.player == player)).scalars()
            return [(r.game, Rating(r.player, r.name, r.mu, r.sigma, r.games)) for r in rows
                    if sound_rating(r)]

    def history(self, player: str, limit: int) -> list[dict[str, Any]]:
        with Session(self.engine) as s:
            rows = s.execute(select(RatingHistoryRow).where(RatingHistoryRow.player == player)
                             .order_by(RatingHistoryRow.id.desc()).limit(limit)).scalars()
            return [{"game": r.game, "table": r.table_id, "rank": r.rank, "players": r.players,
                     "mu": r.mu, "sigma": r.sigma, "at": r.at} for r in reversed(list(rows))
                    if all(is_number(v) for v in (r.mu, r.sigma, r.at, r.rank, r.players))]

    # --- chat --------------------------------------------------------------------------------
    def add_chat(self, table_id: str, author: str, seat: int | None, text: str, system: bool,
                 now: float) -> dict[str, Any]:
        with Session(self.engine) as s, s.begin():
            row = ChatRow(table_id=table_id, author=author, seat=seat, text=text, system=system, at=now)
            s.add(row)
            s.flush()
            return chat_dict(row)

    def chat(self, table_id: str, limit: int) -> list[dict[str, Any]]:
        with Session(self.engine) as s:
            rows = s.execute(select(ChatRow).where(ChatRow.table_id == table_id)
                             .order_by(ChatRow.id.desc()).limit(limit)).scalars()
            return [chat_dict(r) for r in reversed(list(rows))]

    def count_accounts(self) -> int:
        with Session(self.engine) as s:
            return int(s.execute(select(func.count()).select_from(AccountRow)).scalar_one())


def chat_dict(row: ChatRow) -> dict[str, Any]:
    return {"id": row.id, "author": row.author, "seat": row.seat, "system": row.system,
            "text": row.text, "at": row.at}

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

from sqlalchemy import (JSON, Boolean, Float, ForeignKey, Integer, String, delete, func, select,
                        type_coerce, update)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
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


class LoginFailureRow(Base):
    """A failed login, counted against one key (the SHA-256 of an account name or of a
    client address): the login throttle of every instance reads the same rows."""

    __tablename__ = "login_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[float] = mapped_column(Float, index=True)


class DamagedRow(ValueError):
    """A stored row that does not read as what it should be (the message says which)."""


META_PLAIN = ("public", "full", "rated", "speed", "zombie", "creator_id", "rated_done", "rematch")
META_JSON = ("clock", "zombies")


def checked_meta(table_id: str, row: Any, owners: Any) -> "TableMeta":
    """The settings of a ``table_meta`` row (its JSON columns as raw text), checked:
    :class:`DamagedRow` names the first column that is not what it should be."""
    from .clocks import parse_speed
    from .rooms import ServerError

    def damaged(column: str, why: str) -> DamagedRow:
        return DamagedRow(f"table_meta.{column} of table {table_id} is damaged ({why})")

    bad = object()
    clock, zombies = loose_json(row.clock, bad), loose_json(row.zombies, bad)
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
                     full=bool(row.full), rematch=row.rematch)


def is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def sound_rating(row: Any) -> bool:
    """A ``ratings`` row whose numbers are numbers (a damaged one is left out, not a 500)."""
    return all(is_number(v) for v in (row.mu, row.sigma, row.games))


def valid_clock(clock: Any) -> bool:
    """Whether ``clock`` has the layout of :mod:`.clocks` (numbers where numbers go)."""
    def number(x: Any) -> bool:
        return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)

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


class SeatTaken(Exception):
    pass


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
    def login_failures(self, keys: list[str], since: float) -> dict[str, tuple[int, float]]:
        """Per key: the failed logins after ``since`` and the time of the oldest of them."""
        with Session(self.engine) as s:
            rows = s.execute(select(LoginFailureRow.key, func.count(), func.min(LoginFailureRow.at))
                             .where(LoginFailureRow.key.in_(keys), LoginFailureRow.at > since)
                             .group_by(LoginFailureRow.key)).all()
            return {r[0]: (int(r[1]), float(r[2]) if is_number(r[2]) else since)
                    for r in rows}  # (a damaged time: counted, as old as the window)

    def add_login_failures(self, keys: list[str], now: float, forget_before: float) -> None:
        """Count a failed login against each key; forget the failures older than the window
        (so the table holds one window of failures at most)."""
        with Session(self.engine) as s, s.begin():
            s.execute(delete(LoginFailureRow).where(LoginFailureRow.at <= forget_before))
            s.add_all(LoginFailureRow(key=key, at=now) for key in keys)

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
                  clear_token: bool) -> None:
        """Give ``seat`` to ``account`` (SeatTaken if it has an owner already)."""
        try:
            with Session(self.engine) as s, s.begin():
                s.add(SeatOwnerRow(table_id=table_id, seat=seat, account_id=account.id))
                s.flush()
                values: dict[str, Any] = {"name": account.name}
                if clear_token:
                    values["token_hash"] = None
                s.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                          .values(**values))
                s.execute(update(TableMetaRow).where(TableMetaRow.table_id == table_id)
                          .values(full=full))
        except IntegrityError as exc:
            raise SeatTaken(seat) from exc

    def ensure_meta(self, table_id: str) -> None:
        """A table created before accounts existed gets default settings."""
        with Session(self.engine) as s, s.begin():
            if s.get(TableMetaRow, table_id) is None:
                s.add(TableMetaRow(table_id=table_id, public=False, full=True, rated=False,
                                   speed="untimed", zombie="medium", creator_id=None, clock=None,
                                   deadline=None, zombies=[], rated_done=False))

    def set_token(self, table_id: str, seat: int, token_hash: str | None) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                      .values(token_hash=token_hash))

    def save_clock(self, table_id: str, clock: dict[str, Any] | None, zombies: list[int],
                   deadline: float | None | bool = False) -> bool:
        """Store a table's clock and zombies; with a ``deadline`` (a float or None), only
        if the stored deadline is still that one (a conditional update: two instances
        timing one seat out cannot both do it). Whether it was stored."""
        query = update(TableMetaRow).where(TableMetaRow.table_id == table_id)
        if deadline is not False:
            query = query.where(TableMetaRow.deadline.is_(None) if deadline is None
                                else TableMetaRow.deadline == deadline)
        with Session(self.engine) as s, s.begin():
            done = s.execute(query.values(clock=clock, deadline=(clock or {}).get("deadline"),
                                          zombies=list(zombies)))
            return bool(done.rowcount)

    def tables_with_deadlines(self) -> list[str]:
        with Session(self.engine) as s:
            return list(s.execute(select(TableMetaRow.table_id).join(
                TableRow, TableRow.id == TableMetaRow.table_id).where(
                TableMetaRow.deadline.is_not(None), TableRow.status == "playing")).scalars())

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

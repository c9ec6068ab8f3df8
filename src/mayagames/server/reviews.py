"""Game reviews and hints on the server (:mod:`mayagames.arena.review` on the bot workers).

**Reviews.** ``POST /api/tables/ID/review`` queues the review of a *finished* table (anyone
may ask: a finished game can be replayed from every side). Jobs run one at a time, one
decision after another on the server's bot workers (the worker processes when the server
has them, else its bot threads), in one analysis lane with the hints (one review decision or
hint at a time), so reviews and hints together never hold a bot seat back by more than one
decision's search; the budget per decision is the server's ``review_budget`` (an iteration
budget: the same review whatever the machine). A review is stored with its table
(``game_reviews``) when done, so it is computed once and served from then on
(``GET /api/tables/ID/review``), also after a restart; a job interrupted by a restart is
queued again when someone asks for it.

**Hints.** ``POST /api/tables/ID/hint`` (the seat's token, ``{"level": "medium"|"hard"}``)
answers the chosen bot's move for the seat's current decision, computed from the seat's
view only, with its estimate (score margin; win probability for ``hard``). Refused to
spectators and to seats not to move, in finished games (the review is there for that) and
in rated games. Every hint used is stored (``game_hints``: table, move number, seat, level,
move). A hint is its seat's own while the game goes on (it may tell the seat's hidden
cards or tiles): ``GET /api/tables/ID/hints`` lists a seat only its own (its token or its
account's session; nothing to spectators); once the game is over it lists every hint used,
and so does the record's ``meta["hints"]``. Asking again for the same decision returns the
stored hint: a decision is the exact position (a digest of the table, its seed and every
move that led there, :func:`position_key`) and the seat, so after an undo the same move
number is another decision. The row's key is still ``(table, move number)``: a hint of a
position undone since moves into the new row's ``data["earlier"]`` (listed all the same).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import json
import logging
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Literal

from pydantic import Field
from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, delete, select, type_coerce
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..agents import level_spec, make_agent, parse_budget
from ..agents.heuristic import HeuristicAgent, argmax_random_tie
from ..agents.hooks import score_scale, sensible_filter
from ..arena.review import (Budget, DecisionReview, analyse_decision, assemble, chances,
                            confidence, decision_tasks, suggest)
from ..core.game import action_to_dict, fill_names
from ..core.record import GameRecord
from ..core.rng import Rng, derive_seed
from .db import Base, Database, loose_json, now
from .rooms import Room, ServerError
from .schemas import Strict

log = logging.getLogger("mayagames.server")
DEFAULT_REVIEW_BUDGET = "300i"
MAX_QUEUED = 16  # reviews waiting at once; more are refused (503) until the queue drains
MAX_HINTS_WAITING = 16  # hints waiting for the analysis lane; more are refused (503)
HINT_LEVELS = ("medium", "hard")


class ReviewRow(Base):
    """A table's review: queued, running, done (with the review) or failed."""

    __tablename__ = "game_reviews"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    status: Mapped[str] = mapped_column(String(16))
    budget: Mapped[str] = mapped_column(String(32))
    data: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    error: Mapped[str | None] = mapped_column(String(500), nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class HintRow(Base):
    """A hint a seat used: at which move, which level, what it said."""

    __tablename__ = "game_hints"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    move_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    level: Mapped[str] = mapped_column(String(16))
    action: Mapped[str] = mapped_column(String(256))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class HintRequest(Strict):
    level: Literal["medium", "hard"] = "hard"
    move_number: int = Field(ge=0, description="the move the hint is for (moves applied so far)")


@dataclass
class Job:
    """A review in progress (in memory; its row says queued/running)."""

    table_id: str
    total: int = 0
    done: int = 0
    reviews: list[DecisionReview] = field(default_factory=list)


class ReviewStore:
    """The two tables, synchronous (called from the service's database threads)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def load_review(self, table_id: str) -> ReviewRow | None:
        """The table's review row; one whose data are damaged is dropped (logged), so that
        the review is asked for and computed again (it is a cache of the finished game)."""
        try:
            with Session(self.db.engine, expire_on_commit=False) as session:
                row = session.get(ReviewRow, table_id)
            if row is None or row.status != "done" or isinstance(row.data, dict):
                return row
            log.error("table %s: the stored review is not a review; it is dropped", table_id)
        except (ValueError, TypeError) as exc:
            log.error("table %s: the stored review is damaged (%s); it is dropped", table_id, exc)
        with Session(self.db.engine) as session, session.begin():
            session.execute(delete(ReviewRow).where(ReviewRow.table_id == table_id))
        return None

    def queue_review(self, table_id: str, budget: str) -> bool:
        """Insert a queued row; False if the table already has one."""
        with Session(self.db.engine) as session, session.begin():
            if session.get(ReviewRow, table_id) is not None:
                return False
            session.add(ReviewRow(table_id=table_id, status="queued", budget=budget,
                                  created_at=now()))
            return True

    def set_review(self, table_id: str, status: str, data: dict[str, Any] | None = None,
                   error: str | None = None) -> None:
        with Session(self.db.engine) as session, session.begin():
            row = session.get(ReviewRow, table_id)
            if row is None:
                return
            row.status, row.data, row.error = status, data, error
            if status in ("done", "failed"):
                row.finished_at = now()

    def hints(self, table_id: str, seat: int | None | bool = True) -> list[dict[str, Any]]:
        """The hints used at a table, by move number: every seat's (``seat=True``) or one
        seat's (None: nobody's), the hints of undone positions included."""
        if seat is None:
            return []
        with Session(self.db.engine) as session:
            rows = session.execute(select(HintRow).where(HintRow.table_id == table_id)
                                   .order_by(HintRow.move_number)).scalars()
            used: list[dict[str, Any]] = []
            for r in rows:
                earlier = r.data.get("earlier") if isinstance(r.data, dict) else None
                used.extend(e for e in (earlier if isinstance(earlier, list) else [])
                            if isinstance(e, dict))
                used.append(hint_summary(r.move_number, r.seat, r.level, r.action))
            return [h for h in used if seat is True or h.get("seat") == seat]

    def hint_at(self, table_id: str, move_number: int, seat: int,
                position: str) -> dict[str, Any] | None:
        """The hint stored for this exact decision (position and seat), if any (None too for
        one whose data are damaged: it is dropped and asked anew)."""
        with Session(self.db.engine) as session:
            found = session.execute(select(HintRow.seat, type_coerce(HintRow.data, String))
                                    .where(HintRow.table_id == table_id,
                                           HintRow.move_number == move_number)).first()
        if found is None:
            return None
        row_seat, raw = found
        data = loose_json(raw)
        if raw is not None and not isinstance(data, dict):  # dropped: it is computed again
            log.error("table %s: the stored hint of move %s is damaged", table_id, move_number)
            with Session(self.db.engine) as session, session.begin():
                session.execute(delete(HintRow).where(HintRow.table_id == table_id,
                                                      HintRow.move_number == move_number))
            return None
        if not isinstance(data, dict) or row_seat != seat or data.get("position") != position:
            return None  # a hint of another position at this move number (undone since)
        return dict(data)

    def add_hint(self, table_id: str, move_number: int, seat: int, level: str,
                 data: dict[str, Any]) -> None:
        """Store a hint; one of another position at this move number stays listed (earlier)."""
        with Session(self.db.engine) as session, session.begin():
            row = session.get(HintRow, (table_id, move_number))
            if row is None:
                session.add(HintRow(table_id=table_id, move_number=move_number, seat=seat,
                                    level=level, action=data["action"], data=data,
                                    created_at=now()))
                return
            old = row.data if isinstance(row.data, dict) else {}
            if row.seat == seat and old.get("position") == data.get("position"):
                return  # the same decision: the first answer stays
            earlier = [e for e in old.get("earlier", []) if isinstance(e, dict)] \
                if isinstance(old.get("earlier"), list) else []
            earlier.append(hint_summary(move_number, row.seat, row.level, row.action))
            row.seat, row.level, row.action = seat, level, data["action"]
            row.data, row.created_at = {**data, "earlier": earlier}, now()


def hint_summary(move_number: int, seat: int, level: str, action: str) -> dict[str, Any]:
    """A hint as the lists show it."""
    return {"move_number": move_number, "seat": seat, "level": level, "action": action}


def position_key(room: Room) -> str:
    """The exact position of a table: a digest of its id, seed and every move made so far
    (an undo followed by other moves reaches another key at the same move number)."""
    digest = hashlib.sha256(f"{room.id}\n{room.stored.seed}".encode())
    for move in room.moves:
        digest.update(b"\n" + str(move).encode())
    return digest.hexdigest()[:32]


def shown_hint(data: dict[str, Any]) -> dict[str, Any]:
    """A stored hint as its seat is answered (without the bookkeeping)."""
    return {k: v for k, v in data.items() if k not in ("position", "earlier")}


class Reviews:
    """The review queue and the hints of one server (next to its GameService)."""

    def __init__(self, service: Any, review_budget: str = DEFAULT_REVIEW_BUDGET,
                 hint_budgets: dict[str, str] | None = None,
                 is_rated: Callable[[Room], bool] | None = None) -> None:
        self.service = service
        self.store = ReviewStore(service.db)
        limits = service.limits  # the server's thinking caps bound reviews and hints too
        parsed = Budget.parse(review_budget)
        if parsed.iterations is None:
            raise ValueError("the review budget must be a number of iterations (e.g. 300i)")
        self.budget = Budget(min(parsed.iterations, limits.bot_max_iterations))
        # the hard hint is the review's search at the review's budget (issue 23: the two agree)
        wanted = {"hard": str(self.budget), **(hint_budgets or {})}
        self.hint_budgets = {level: str(capped(Budget.parse(text), limits.bot_max_iterations,
                                               limits.bot_max_seconds))
                             for level, text in wanted.items()}
        self.is_rated = is_rated or (lambda room: False)
        self.waiting: deque[str] = deque()  # tables whose review waits, in order
        self.jobs: dict[str, Job] = {}
        self.worker: asyncio.Task[None] | None = None
        self.computed = 0  # reviews computed by this server (tests: computed once)
        # The analysis lane: one review decision or hint at a time in the bot pool, so a
        # table's bot waits for at most one analysis decision (whose budget is within the
        # bots' own limits), however many hints and reviews are asked for.
        self.lane = asyncio.Semaphore(1)
        self.hints_waiting = 0

    # --- reviews --------------------------------------------------------------------
    async def request(self, room: Room) -> dict[str, Any]:
        """Queue the review of a finished table (once), or say where it stands."""
        if not room.finished:
            raise ServerError(409, "not_finished", "a game is reviewed once it is over; during "
                              "an unrated game, ask for a hint instead")
        row = await self.service.in_db(self.store.load_review, room.id)
        if row is None:
            if len(self.waiting) >= MAX_QUEUED:
                raise ServerError(503, "busy", "too many reviews are waiting; try again later")
            await self.service.in_db(self.store.queue_review, room.id, str(self.budget))
        self.enqueue(room.id, row)
        return await self.status(room)

    def enqueue(self, table_id: str, row: ReviewRow | None) -> None:
        """Start (or restart after a server restart) the job of a table not done yet."""
        if row is not None and row.status in ("done", "failed"):
            return
        if table_id in self.jobs:
            return
        self.jobs[table_id] = Job(table_id)
        self.waiting.append(table_id)
        if self.worker is None or self.worker.done():
            self.worker = asyncio.get_running_loop().create_task(self.work())

    async def status(self, room: Room) -> dict[str, Any]:
        row = await self.service.in_db(self.store.load_review, room.id)
        if row is None:
            raise ServerError(404, "no_review", "this game has not been reviewed; "
                              "POST /api/tables/ID/review asks for it")
        if row.status == "done":
            return {"status": "done", "budget": row.budget, "review": row.data}
        if row.status == "failed":
            return {"status": "failed", "message": row.error}
        self.enqueue(room.id, row)
        job = self.jobs.get(room.id)
        position = self.waiting.index(room.id) + 1 if room.id in self.waiting else 0
        return {"status": "running" if job and job.total else "queued", "budget": row.budget,
                "done": job.done if job else 0, "total": job.total if job else 0,
                "queue_position": position}

    async def work(self) -> None:
        """Run queued reviews one after another, one decision at a time."""
        while self.waiting:
            table_id = self.waiting.popleft()
            try:
                await self.run_job(table_id)
            except Exception as exc:  # a broken table or engine: the job fails, the queue goes on
                log.exception("review of table %s failed", table_id)
                await self.service.in_db(self.store.set_review, table_id, "failed", None,
                                         f"the review failed: {type(exc).__name__}: {exc}"[:500])
            finally:
                self.jobs.pop(table_id, None)

    async def run_job(self, table_id: str) -> None:
        room = await self.service.get_room(table_id)
        record = GameRecord.from_dict(self.service.record(room))
        job = self.jobs[table_id]
        tasks = decision_tasks(record, None, derive_seed(room.stored.seed, table_id, "review"))
        job.total = len(tasks)
        await self.service.in_db(self.store.set_review, table_id, "running")
        loop = asyncio.get_running_loop()
        start = loop.time()
        for task in tasks:
            async with self.lane:
                review = await loop.run_in_executor(self.executor(), analyse_decision, task,
                                                    self.budget)
            job.reviews.append(review)
            job.done += 1
        data = assemble(record, job.reviews, self.budget, 0, None, loop.time() - start)
        add_action_dicts(data, room)
        await self.service.in_db(self.store.set_review, table_id, "done", data)
        self.computed += 1

    async def stop(self) -> None:
        """Stop the review worker (a job under way is queued again at the next request)."""
        if self.worker is not None and not self.worker.done():
            self.worker.cancel()
            await asyncio.gather(self.worker, return_exceptions=True)

    def executor(self) -> Any:
        bots = self.service.bots
        return bots.process_pool() if bots.processes_wanted else bots.threads

    # --- hints ------------------------------------------------------------------------
    async def hint(self, room: Room, seat: int | None, req: HintRequest) -> dict[str, Any]:
        """The bot's move for ``seat``'s current decision (see the module doc)."""
        self.check_hint(room, seat, req.move_number)
        assert seat is not None
        position = position_key(room)
        stored = await self.service.in_db(self.store.hint_at, room.id, req.move_number, seat,
                                          position)
        if stored is not None:
            return shown_hint(stored)
        view = room.state.view(seat)
        if self.hints_waiting >= MAX_HINTS_WAITING:
            raise ServerError(503, "busy", "too many hints are waiting; try again in a moment")
        self.hints_waiting += 1
        try:
            async with self.lane:  # queued beside the reviews (see __init__)
                if room.move_number != req.move_number:
                    raise ServerError(409, "stale", "the game moved on while the hint waited")
                review_seed = derive_seed(room.stored.seed, room.id, "review")  # the review's, per move
                text = await asyncio.get_running_loop().run_in_executor(
                    self.executor(), compute_hint, view, seat, req.level,
                    self.hint_budgets.get(req.level, ""),
                    derive_seed(review_seed, "review", req.move_number))
        finally:
            self.hints_waiting -= 1
        text["sentence"] = fill_names(text.get("sentence", ""), room.seat_names)
        data = {"move_number": req.move_number, "seat": seat, "level": req.level, **text}
        async with room.lock:
            if room.move_number != req.move_number or position_key(room) != position:
                raise ServerError(409, "stale", "the game moved on while the bot thought")
            data["action_dict"] = json.loads(json.dumps(
                action_to_dict(room.state.parse_action(data["action"])), default=str))
            await self.service.in_db(self.store.add_hint, room.id, req.move_number, seat,
                                     req.level, {**data, "position": position})
        return data

    def check_hint(self, room: Room, seat: int | None, move_number: int) -> None:
        if seat is None:
            raise ServerError(403, "spectator", "spectators get no hints during a game")
        if room.finished:
            raise ServerError(409, "game_over", "the game is over: review it instead")
        if self.is_rated(room):
            raise ServerError(403, "rated", "hints are not available in rated games")
        if move_number != room.move_number:
            raise ServerError(409, "stale", f"the game is at move {room.move_number}")
        if room.state.current_player != seat:
            raise ServerError(403, "not_your_turn", "a hint is for your own decision")

    async def hints(self, room: Room, seat: int | None = None) -> list[dict[str, Any]]:
        """The hints used that ``seat`` may see: all once the game is over, else its own
        (a spectator's, None: none)."""
        return await self.service.in_db(self.store.hints, room.id,
                                        True if room.finished else seat)


def capped(budget: Budget, max_iterations: int, max_seconds: float) -> Budget:
    """``budget`` within the server's thinking caps (iterations and seconds per decision)."""
    iterations = min(budget.iterations or max_iterations, max_iterations)
    seconds = min(budget.seconds, max_seconds) if budget.seconds is not None else None
    return Budget(iterations, seconds)


def add_action_dicts(review: dict[str, Any], room: Room) -> None:
    """Each decision's preferred move as an action description (``best_action``: kind,
    fields, text), so that a browser can draw it on the board as it draws legal moves."""
    for decision in review["decisions"]:
        best = decision.get("best")
        decision["best_action"] = (json.loads(json.dumps(action_to_dict(room.info.parse_action(best)),
                                                         default=str)) if best else None)


def compute_hint(view: Any, seat: int, level: str, budget: str, seed: int) -> dict[str, Any]:
    """In a bot worker: the level's choice from ``view``, its estimate, and for a player
    the move as the game's log would tell it (``sentence``, names as ``{seat:N}``), how
    sure the bot is (``confidence``) and the chances in words (``chances``). ``hard`` is
    the review's search (:func:`mayagames.arena.review.suggest`): given the review's
    budget and seed for the move, it prefers what the review will."""
    legal = view.legal_actions()
    if level == "medium" or len(legal) == 1:
        spec = level_spec("medium", view.info.name)
        medium = make_agent(spec, seed)  # its estimate, its look ahead and its guard rails
        assert isinstance(medium, HeuristicAgent)
        keep = sensible_filter(view.info) if medium.sensible and len(legal) > 1 else None
        legal = (keep(view, legal) or legal) if keep else legal
        values = medium.action_values(view, legal)
        best = argmax_random_tie(values, Rng(seed))
        ranked = sorted(values, reverse=True)
        sure = ("the only move" if len(values) == 1 else "clearly the best move"
                if ranked[0] - ranked[1] >= 1.0 else "a close call: other moves look about as good")
        return {"action": str(legal[best]), "margin": round(values[best], 2), "win_prob": None,
                "bot": spec, "sentence": hint_sentence(view, legal[best], seed),
                "confidence": sure, "chances": ""}
    iterations, seconds = parse_budget(budget, f"hint budget {budget}")
    review = suggest(view, seat, Budget(iterations, seconds), seed)
    assert review.best is not None
    return {"action": review.best, "margin": review.best_margin, "win_prob": review.best_win_prob,
            "bot": f"mcts:{budget}", "best_turn": review.best_turn,
            "score_scale": score_scale(view.info),
            "sentence": hint_sentence(view, view.parse_action(review.best), seed),
            "confidence": confidence(review), "chances": chances(review.best_win_prob)}


def hint_sentence(view: Any, action: Any, seed: int) -> str:
    """``action`` as the game's log tells it to a spectator (so nothing hidden), played in
    a world sampled from ``view`` (the sentence, not the events it may set off)."""
    world = view.determinize(Rng(seed))
    after = world.clone()
    after.apply(action)
    return str(view.info.narrate(world, action, after, None).text)

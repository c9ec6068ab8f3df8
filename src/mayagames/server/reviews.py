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
move) and shown to everyone: ``GET /api/tables/ID/hints`` and the record's
``meta["hints"]``; asking again for the same decision returns the stored hint.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Literal

from fastapi import Depends, FastAPI, Request
from pydantic import Field
from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, delete, select, type_coerce
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..agents import LEVELS, parse_budget
from ..agents.heuristic import HeuristicAgent, argmax_random_tie
from ..agents.hooks import score_scale
from ..arena.review import (Budget, DecisionReview, DecisionTask, analyse_decision, assemble,
                            decision_tasks)
from ..core.game import action_to_dict
from ..core.record import GameRecord
from ..core.rng import Rng, derive_seed
from .db import Base, Database, loose_json, now
from .bearer import bearer_token
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

    def hints(self, table_id: str) -> list[dict[str, Any]]:
        with Session(self.db.engine) as session:
            rows = session.execute(select(HintRow).where(HintRow.table_id == table_id)
                                   .order_by(HintRow.move_number)).scalars()
            return [{"move_number": r.move_number, "seat": r.seat, "level": r.level,
                     "action": r.action} for r in rows]

    def hint_at(self, table_id: str, move_number: int) -> dict[str, Any] | None:
        """The stored hint (None: none, or one whose data are damaged: asked anew)."""
        with Session(self.db.engine) as session:
            raw = session.execute(select(type_coerce(HintRow.data, String))
                                  .where(HintRow.table_id == table_id,
                                         HintRow.move_number == move_number)).scalar()
        data = loose_json(raw)
        if raw is not None and not isinstance(data, dict):  # dropped: it is computed again
            log.error("table %s: the stored hint of move %s is damaged", table_id, move_number)
            with Session(self.db.engine) as session, session.begin():
                session.execute(delete(HintRow).where(HintRow.table_id == table_id,
                                                      HintRow.move_number == move_number))
        return dict(data) if isinstance(data, dict) else None

    def add_hint(self, table_id: str, move_number: int, seat: int, level: str,
                 data: dict[str, Any]) -> None:
        with Session(self.db.engine) as session, session.begin():
            if session.get(HintRow, (table_id, move_number)) is None:
                session.add(HintRow(table_id=table_id, move_number=move_number, seat=seat,
                                    level=level, action=data["action"], data=data,
                                    created_at=now()))


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
        wanted = {"hard": LEVELS["hard"][0].partition(":")[2], **(hint_budgets or {})}
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
        stored = await self.service.in_db(self.store.hint_at, room.id, req.move_number)
        if stored is not None:
            return stored
        view = room.state.view(seat)
        if self.hints_waiting >= MAX_HINTS_WAITING:
            raise ServerError(503, "busy", "too many hints are waiting; try again in a moment")
        self.hints_waiting += 1
        try:
            async with self.lane:  # queued beside the reviews (see __init__)
                if room.move_number != req.move_number:
                    raise ServerError(409, "stale", "the game moved on while the hint waited")
                text = await asyncio.get_running_loop().run_in_executor(
                    self.executor(), compute_hint, view, seat, req.level,
                    self.hint_budgets.get(req.level, ""),
                    derive_seed(room.stored.seed, room.id, "hint", req.move_number))
        finally:
            self.hints_waiting -= 1
        data = {"move_number": req.move_number, "seat": seat, "level": req.level, **text}
        async with room.lock:
            if room.move_number != req.move_number:
                raise ServerError(409, "stale", "the game moved on while the bot thought")
            data["action_dict"] = json.loads(json.dumps(
                action_to_dict(room.state.parse_action(data["action"])), default=str))
            await self.service.in_db(self.store.add_hint, room.id, req.move_number, seat,
                                     req.level, data)
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

    async def hints(self, room: Room) -> list[dict[str, Any]]:
        return await self.service.in_db(self.store.hints, room.id)


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
    """In a bot worker: the level's choice from ``view`` and its estimate."""
    legal = view.legal_actions()
    if level == "medium" or len(legal) == 1:
        values = HeuristicAgent(seed).action_values(view, legal)
        best = argmax_random_tie(values, Rng(seed))
        return {"action": str(legal[best]), "margin": round(values[best], 2), "win_prob": None,
                "bot": LEVELS["medium"][0]}
    iterations, seconds = parse_budget(budget, f"hint budget {budget}")
    task = DecisionTask(0, seat, 0, view, str(legal[0]), seed)
    review = analyse_decision(task, Budget(iterations, seconds))
    return {"action": review.best, "margin": review.best_margin, "win_prob": review.best_win_prob,
            "bot": f"mcts:{budget}", "best_turn": review.best_turn,
            "score_scale": score_scale(view.info)}


def address_of(request: Request) -> str:
    """The client's address (as the other routes read it)."""
    return request.client.host if request.client else "unknown"


def add_review_api(app: FastAPI, service: Any, reviews: Reviews) -> None:
    """The routes of reviews and hints. Asking for a review or a hint (work for the bot
    workers) is limited per client address (``rate_analysis``); reading a review's status
    or the hints used counts as a state request (``rate_state``)."""
    limits = service.limits

    async def room_of(table_id: str) -> Room:
        return await service.get_room(table_id, fresh=True)  # every instance's writes

    def analysis_request(request: Request) -> None:
        service.check_rate("analysis", address_of(request), limits.rate_analysis,
                           "review and hint requests")

    def state_request(request: Request) -> None:
        service.check_rate("state", address_of(request), limits.rate_state, "state requests")

    @app.post("/api/tables/{table_id}/review", dependencies=[Depends(analysis_request)])
    async def request_review(room: Room = Depends(room_of)) -> dict[str, Any]:
        """Queue the review of a finished game (computed once); its status or the review."""
        return await reviews.request(room)

    @app.get("/api/tables/{table_id}/review", dependencies=[Depends(state_request)])
    async def get_review(room: Room = Depends(room_of)) -> dict[str, Any]:
        return await reviews.status(room)

    @app.post("/api/tables/{table_id}/hint", dependencies=[Depends(analysis_request)])
    async def hint(req: HintRequest, room: Room = Depends(room_of),
                   token: str | None = Depends(bearer_token)) -> dict[str, Any]:
        """The medium or hard bot's move for your current decision (unrated games)."""
        return await reviews.hint(room, await service.seat_of_token(room, token), req)

    @app.get("/api/tables/{table_id}/hints", dependencies=[Depends(state_request)])
    async def hints(room: Room = Depends(room_of)) -> dict[str, Any]:
        """Every hint used at this table (public: hints used are part of the game)."""
        return {"hints": await reviews.hints(room)}

    @app.get("/review/{table_id}", include_in_schema=False)
    async def review_page(table_id: str, request: Request) -> Any:
        from fastapi.responses import FileResponse

        from ..web import STATIC_DIR

        return FileResponse(STATIC_DIR / "review.html")

"""A live game table in memory: its true state, its log and what each seat may see.

A :class:`Room` is rebuilt from a stored table by replaying its moves. It never
changes its state in place: a move is applied to a clone, persisted, and only
then swapped in (:meth:`Room.commit`), so a failed write loses nothing.

Everything sent to a client is built by :meth:`Room.message`: the seat's
``view`` (never the true state), the legal actions only for the seat to move,
and the log as that seat may read it (``public_notation``, computed before each
move, so secret choices stay secret in the history too).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Any, Sequence

from ..agents import Agent, RandomAgent, make_agent
from ..core.errors import IllegalAction, MayaGamesError, NotationError
from ..core.game import Action, GameEvent, GameInfo, Narration, State, action_to_dict, new_state
from ..core.registry import get_game
from ..core.rng import derive_seed
from .db import StoredTable
from .limits import ServerLimits, cap_agent
from .wire import WIRE_SCHEMA

HUMAN = "human"


class ServerError(Exception):
    """A request the server refuses: HTTP-like ``status``, a stable ``code`` and a message."""

    def __init__(self, status: int, code: str, message: str, rule: str | None = None,
                 retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.rule = rule
        self.retry_after = retry_after  # seconds (a 429)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"error": self.code, "message": self.message}
        if self.rule:
            data["rule"] = self.rule
        return data


def hash_token(token: str) -> str:
    """Tokens are stored hashed: a leaked database does not let anyone move."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class LogEntry:
    """One move of the log: who moved and how each viewer may read it."""

    number: int            # 1-based move number
    seat: int              # the seat that moved
    full: str              # the move's notation (as stored in the record)
    texts: tuple[str, ...]  # public notation for seat 0..n-1, then for spectators
    revealed: bool         # chance or hidden information was involved: no undo past it
    # the move told as a sentence (GameInfo.narrate) per viewer, as ``texts``; a replay
    # of everything tells it as the mover saw it (a mover knows its own secret choices)
    narrations: tuple[Narration, ...] = ()
    turn: int = 1          # increases each time the acting seat changes

    def text_for(self, viewer: int | None, everything: bool = False) -> str:
        if everything:
            return self.full
        return self.texts[-1 if viewer is None else viewer]

    def narration_for(self, viewer: int | None, everything: bool = False) -> Narration:
        if not self.narrations:
            return Narration(self.text_for(viewer, everything))
        return self.narrations[self.seat if everything else -1 if viewer is None else viewer]

    def to_dict(self, viewer: int | None, everything: bool = False,
                names: Sequence[str] | None = None) -> dict[str, Any]:
        told = self.narration_for(viewer, everything).with_names(names)
        data = {"n": self.number, "seat": self.seat, "text": self.text_for(viewer, everything),
                "sentence": told.text, "events": [e.to_dict() for e in told.events],
                "places": list(told.places), "turn": self.turn}
        if told.minor:
            data["minor"] = True
        return data


TOLD_FORMAT = 1  # the layout of a stored entry (below); another one is told again


def entry_to_json(entry: LogEntry, engine_version: str) -> dict[str, Any]:
    """A log entry as stored with its move (``game_moves.told``), so that loading the
    table does not tell every move again: the notation and the sentence per viewer (each
    distinct sentence once), whether it revealed anything, its turn."""
    kinds: list[dict[str, Any]] = []
    index: list[int] = []
    for told in entry.narrations:
        data = {"text": told.text, "events": [e.to_dict() for e in told.events],
                "places": list(told.places), "minor": told.minor}
        if data not in kinds:
            kinds.append(data)
        index.append(kinds.index(data))
    return {"f": TOLD_FORMAT, "v": engine_version, "texts": list(entry.texts),
            "revealed": entry.revealed, "turn": entry.turn, "told": kinds, "viewers": index}


def entry_from_json(data: Any, number: int, seat: int, full: str, viewers: int,
                    engine_version: str) -> LogEntry | None:
    """The stored entry of move ``number`` (None when it is missing, from another engine
    version or another layout, or does not fit: the move is then told again)."""
    try:
        if not isinstance(data, dict) or data.get("f") != TOLD_FORMAT \
                or data.get("v") != engine_version:
            return None
        texts = tuple(str(t) for t in data["texts"])
        kinds = [Narration(str(k["text"]),
                           tuple(GameEvent(str(e["kind"]), str(e["text"]), e.get("table"))
                                 for e in k["events"]),
                           tuple(str(p) for p in k["places"]), bool(k["minor"]))
                 for k in data["told"]]
        told = tuple(kinds[i] for i in data["viewers"])
        if len(texts) != viewers or len(told) != viewers:
            return None
        return LogEntry(number=number, seat=seat, full=full, texts=texts,
                        revealed=bool(data["revealed"]), narrations=told, turn=int(data["turn"]))
    except (KeyError, TypeError, ValueError, IndexError):
        return None


def log_entry(state: State, action: Action, number: int, after: State | None = None,
              previous: LogEntry | None = None) -> LogEntry:
    """The log entry of ``action`` played in ``state`` (``after``: the state it gives).

    ``previous`` is the entry before it (to number the turns).
    """
    seat = state.current_player
    assert seat is not None
    if after is None:
        after = state.clone()
        after.apply_unchecked(action)
    viewers: list[int | None] = [*range(state.num_players), None]
    narrate = state.info.narrate
    told = tuple(narrate(state, action, after, v) for v in viewers)
    turn = 1 if previous is None else previous.turn + (previous.seat != seat)
    return LogEntry(number=number, seat=seat, full=str(action),
                    texts=tuple(state.public_notation(action, v) for v in viewers),
                    revealed=state.reveals_information(action),
                    narrations=told, turn=turn)


def replay_moves(info: GameInfo, stored: StoredTable, moves: Sequence[str],
                 known: Sequence[LogEntry] = (),
                 told: Sequence[Any] = ()) -> tuple[State, list[LogEntry]]:
    """Replay ``moves`` from the table's seed and options, checking each one.

    ``known``: log entries already built for a prefix of these moves (an undo), reused
    instead of telling those moves again; ``told``: the entries stored with the moves
    (:func:`entry_to_json`), used likewise (a missing or outdated one is told again).
    Raises :class:`MayaGamesError` naming the first move that does not replay.
    """
    state = new_state(info, stored.num_players, stored.seed, stored.options)
    log: list[LogEntry] = []
    viewers = stored.num_players + 1
    for i, text in enumerate(moves):
        try:
            action = state.parse_action(text)
            if state.current_player is None or action not in state.legal_actions():
                raise state.explain_illegal(action)
        except (NotationError, IllegalAction) as exc:
            raise MayaGamesError(f"move {i + 1} {text!r} does not replay: {exc}") from exc
        if i < len(known) and known[i].full == text and known[i].number == i + 1:
            state.apply_unchecked(action)
            log.append(known[i])
            continue
        kept = None
        if i < len(told) and told[i] is not None and state.current_player is not None:
            kept = entry_from_json(told[i], i + 1, state.current_player, text, viewers,
                                   info.version)
        if kept is not None:
            state.apply_unchecked(action)
            log.append(kept)
            continue
        before = state.clone()
        state.apply_unchecked(action)
        log.append(log_entry(before, action, i + 1, state, log[-1] if log else None))
    return state, log


def result_of(state: State) -> dict[str, Any] | None:
    """The stored result of a finished game (as in a game record), else None."""
    if not state.is_terminal:
        return None
    return {"scores": state.scores(), "winners": state.winners()}


@dataclass
class Room:
    """A table being played (or finished), held in memory by the server."""

    stored: StoredTable
    info: GameInfo
    state: State
    log: list[LogEntry]
    moves: list[str]
    agents: dict[int, Agent] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Any] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    rematch: str | None = None  # the table of the rematch, once someone started it
    broken_bots: dict[int, str] = field(default_factory=dict)  # seat -> what went wrong
    last_used: float = 0.0  # time.monotonic() of the last request (idle rooms are unloaded)
    evicted: bool = False   # unloaded: requests still holding it use the reloaded room
    message_cache: dict[Any, Any] = field(default_factory=dict)  # see message()
    version: int = 0  # the stored table's version this room reflects (db.TableRow.version)
    waiting: str | None = None  # why the game cannot start yet (a public table not full)
    # a game over before its rules end it (a resignation of 2): {"reason": str, "winners": [seat]}
    ended: dict[str, Any] | None = None
    extras: dict[str, Any] = field(default_factory=dict)  # added to every message's header

    @classmethod
    def from_stored(cls, stored: StoredTable, limits: ServerLimits | None = None) -> "Room":
        info = get_game(stored.game)
        moves = [text for text, _ in stored.moves]
        state, log = replay_moves(info, stored, moves, told=stored.told)
        for entry, (_, seat) in zip(log, stored.moves):
            if entry.seat != seat:
                raise MayaGamesError(f"move {entry.number} is stored for seat {seat} "
                                     f"but replays as seat {entry.seat}'s")
        limits = limits or ServerLimits()
        agents: dict[int, Agent] = {}
        broken: dict[int, str] = {}
        for i, s in enumerate(stored.seats):
            if s.agent == HUMAN:
                continue
            seed = derive_seed(stored.seed, stored.id, "bot", i)
            try:
                agents[i] = cap_agent(make_agent(s.agent, seed), limits)
            except Exception as exc:  # a stored spec this version no longer builds
                agents[i] = RandomAgent(seed)
                broken[i] = (f"the bot {s.agent!r} cannot be built ({type(exc).__name__}: "
                             f"{exc}); it plays random legal moves")
        return cls(stored=stored, info=info, state=state, log=log, moves=moves, agents=agents,
                   broken_bots=broken, version=stored.version, rematch=stored.rematch)

    # --- facts ------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def move_number(self) -> int:
        """Moves applied so far: a move request must name it (optimistic concurrency)."""
        return len(self.moves)

    @property
    def finished(self) -> bool:
        return self.state.is_terminal or self.ended is not None

    def winners(self) -> list[int]:
        """The winners of a finished game (its rules', or those left after a resignation)."""
        return list(self.ended["winners"]) if self.ended else list(self.state.winners())

    def stored_new_state(self) -> State:
        """The table's game before any move (from its seed and options)."""
        return new_state(self.info, self.stored.num_players, self.stored.seed, self.stored.options)

    def is_bot(self, seat: int | None) -> bool:
        return seat is not None and seat in self.agents

    def seat_of_token(self, token: str | None) -> int | None:
        """The seat a token opens (``None``: no token, a spectator); a wrong token raises."""
        if token is None or token == "":
            return None
        digest = hash_token(token)
        for seat, stored_seat in enumerate(self.stored.seats):
            if stored_seat.token_hash and hmac.compare_digest(stored_seat.token_hash, digest):
                return seat
        raise ServerError(401, "bad_token", "this token opens no seat of this table")

    # --- moves --------------------------------------------------------------
    def check_turn(self, seat: int | None, move_number: int) -> None:
        """Refuse a request from the wrong seat or about an outdated position."""
        if self.finished:
            raise ServerError(409, "game_over", "the game is over; no more moves")
        if move_number != self.move_number:
            raise ServerError(409, "stale", f"you answered move {move_number} but the game is at "
                              f"move {self.move_number}; here is the current position")
        if seat is None:
            raise ServerError(403, "spectator", "spectators cannot move; open an invite link")
        if self.waiting:
            raise ServerError(409, "waiting", f"the game has not started: {self.waiting}")
        if seat != self.state.current_player:
            raise ServerError(403, "not_your_turn",
                              f"it is not seat {seat}'s turn (seat {self.state.current_player} "
                              "is to move)")

    def resolve_action(self, action_id: int | None, text: str | None) -> Action:
        """The legal action chosen by id (index into the legal list) or by notation."""
        legal = self.state.legal_actions()
        if action_id is not None:
            if not 0 <= action_id < len(legal):
                raise ServerError(422, "bad_action_id",
                                  f"action id {action_id} is not one of 0..{len(legal) - 1}")
            return legal[action_id]
        if text is None:
            raise ServerError(400, "bad_request", "give 'action_id' or 'action'")
        try:
            action = self.state.parse_action(text)
        except NotationError as exc:
            raise ServerError(400, "bad_notation", str(exc)) from exc
        self.check_legal(action, legal)
        return action

    def check_legal(self, action: Action, legal: Sequence[Action] | None = None) -> None:
        """Refuse an action the rules forbid now, naming the rule."""
        if action not in (self.state.legal_actions() if legal is None else legal):
            illegal = self.state.explain_illegal(action)
            raise ServerError(422, "illegal", illegal.message, rule=illegal.rule)

    def prepare(self, action: Action) -> tuple[State, LogEntry]:
        """The state after ``action`` (on a clone) and its log entry; the room is unchanged."""
        after = self.state.clone()
        after.apply_unchecked(action)
        entry = log_entry(self.state, action, self.move_number + 1, after,
                          self.log[-1] if self.log else None)
        return after, entry

    def commit(self, after: State, entry: LogEntry, version: int | None = None) -> None:
        """Adopt a persisted move (``version``: the table's version after it)."""
        self.version = self.version + 1 if version is None else version
        self.state = after
        self.log.append(entry)
        self.moves.append(entry.full)
        self.stored.status = "finished" if after.is_terminal else "playing"
        self.stored.result = result_of(after)

    def stored_move(self, text: str, seat: int | None = None) -> tuple[State, LogEntry]:
        """The state after a move another instance stored, checked as a replay checks it."""
        try:
            action = self.state.parse_action(text)
            if self.state.current_player is None or action not in self.state.legal_actions():
                raise self.state.explain_illegal(action)
        except (NotationError, IllegalAction) as exc:
            raise MayaGamesError(f"move {self.move_number + 1} {text!r} does not replay: "
                                 f"{exc}") from exc
        if seat is not None and seat != self.state.current_player:
            raise MayaGamesError(f"move {self.move_number + 1} is stored for seat {seat} but "
                                 f"replays as seat {self.state.current_player}'s")
        return self.prepare(action)

    # --- undo (Board Game Arena policy) ---------------------------------------
    def undo_refusal(self, seat: int | None) -> str | None:
        """Why ``seat`` may not undo now (None: it may).

        A seat may take back its own last move while it is still the seat to move
        (the move did not end its turn) and the move involved no chance and showed
        nothing hidden (``reveals_information``): nobody else has acted on it or
        learned anything from it.
        """
        if seat is None or self.is_bot(seat):
            return "only a player may undo"
        if self.finished:
            return "the game is over"
        if not self.log:
            return "there is no move to undo"
        last = self.log[-1]
        if last.seat != seat or self.state.current_player != seat:
            return "you can only undo your own moves within your turn"
        if last.revealed:
            return "that move revealed hidden information or involved chance"
        return None

    def replace(self, state: State, log: list[LogEntry], version: int | None = None) -> None:
        """Adopt the result of an undo (a replay of fewer moves) or of a resync."""
        self.version = self.version + 1 if version is None else version
        self.state = state
        self.log = log
        self.moves = [e.full for e in log]
        self.stored.status = "finished" if state.is_terminal else "playing"
        self.stored.result = result_of(state)

    # --- what a client gets -------------------------------------------------
    @property
    def seat_names(self) -> list[str]:
        """The names the log's sentences give the seats."""
        return [s.name for s in self.stored.seats]

    def seats_public(self) -> list[dict[str, Any]]:
        seats = [{"seat": i, "name": s.name, "agent": s.agent, "bot": s.agent != HUMAN}
                 for i, s in enumerate(self.stored.seats)]
        for seat, reason in self.broken_bots.items():
            seats[seat]["broken"] = reason
        return seats

    def header(self, live: bool = True) -> dict[str, Any]:
        """What every message of the table starts with; ``live=False`` leaves out the
        extras that change by themselves (functions, such as the clock)."""
        return {"table": self.id, "game": self.info.name, "title": self.info.title,
                "num_players": self.stored.num_players, "options": self.stored.options,
                "seats": self.seats_public(),
                # the creator chose the seed, so may know every hidden card: all are told
                "seed_fixed": self.stored.seed_fixed,
                **{k: v() if callable(v) else v for k, v in self.extras.items()
                   if live or not callable(v)}}

    def message(self, seat: int | None, log_from: int = 0) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (``None``: spectator), log from ``log_from``.

        Kept until the position (or a header part: seats, lobby, ratings) changes: asking
        again for the same one (a reconnect, a client that says hello in a loop) costs a
        look-up, not a new view. Header parts that change by themselves (``extras`` given
        as functions: the clock) are computed for each message and laid over the kept one.
        Callers must not change the dict they get."""
        log_from = max(0, min(log_from, len(self.log)))
        live = {k: v for k, v in self.extras.items() if callable(v)}
        # the extras dicts are replaced, never changed in place, when they change (and
        # the kept messages hold them, so their ids stay unique while kept)
        fixed = tuple((k, id(v)) for k, v in self.extras.items() if not callable(v))
        position = (len(self.log), len(self.broken_bots), fixed, self.rematch,
                    tuple(self.agents), self.waiting, repr(self.ended))
        if self.message_cache.get("state") is not self.state or \
                self.message_cache.get("position") != position:  # (the state object is held)
            self.message_cache = {"state": self.state, "position": position}
        key = (seat, log_from)
        message = self.message_cache.get(key)
        if message is None:
            message = self.message_cache[key] = self.build_message(seat, log_from, live=False)
        if live:
            message = {**message, **{k: v() for k, v in live.items()}}
        return message

    def build_message(self, seat: int | None, log_from: int, live: bool = True) -> dict[str, Any]:
        view = self.state.view(seat)
        view_dict = view.to_dict()
        current = self.state.current_player
        legal = (self.state.legal_actions()
                 if seat is not None and seat == current and not self.is_bot(seat) else [])
        log_from = max(0, min(log_from, len(self.log)))
        return {
            "type": "state", "schema": WIRE_SCHEMA, **self.header(live), "seat": seat,
            "move_number": self.move_number, "current_player": current,
            "terminal": self.finished, "view": view_dict,
            "private": seat is not None and self.is_private(view_dict),
            "legal": self.legal_dicts(view, legal),
            "log_from": log_from,
            "log": [e.to_dict(seat, names=self.seat_names) for e in self.log[log_from:]],
            "scores": self.state.scores() if self.state.is_terminal else view.scores(),
            "winners": self.winners() if self.finished else [],
            "ended": self.ended["reason"] if self.ended else None,
            "can_undo": self.undo_refusal(seat) is None,
            "rematch": self.rematch,
        }

    def legal_dicts(self, view: Any, legal: list[Any]) -> list[dict[str, Any]]:
        """The legal actions as the browser reads them; ``settles``: what one also does at
        once, a choice with one option left that spends goods (the game's
        ``settled_choice``, from the seat's view; the table asks to confirm it)."""
        settled = self.info.plugin.part("settled_choice") if legal else None
        out = []
        for i, action in enumerate(legal):
            data = {"id": i, **action_to_dict(action)}
            told = settled(view, action) if settled is not None else None
            if told:
                data["settles"] = told
            out.append(data)
        return out

    def is_private(self, view_dict: dict[str, Any]) -> bool:
        """Whether a seat's view shows something a spectator may not see (a hot-seat
        device then hides the board before handing over to that seat)."""
        public = self.state.view(None).to_dict()
        shown = self.info.plugin.part("shown_view")
        if shown is not None:  # what the game's table shows of each (Tzolk'in: no discards)
            view_dict, public = shown(view_dict), shown(public)
        return any(view_dict.get(k) != public.get(k) for k in view_dict.keys() | public.keys()
                   if k != "viewer")

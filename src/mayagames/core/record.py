"""Game records: seed + options + seats + moves, as JSON, that replay and verify.

A record is everything needed to reproduce a game exactly::

    {"format": "mayagames-record/1", "game": "tikal", "engine_version": "1.0",
     "options": {...}, "seed": 7, "num_players": 3,
     "seats": [{"name": "Ana", "agent": "human"}, ...],
     "moves": ["deal ...", ...],
     "result": {"scores": [...], "winners": [...]}}   # present once finished

A game over before its rules end it (a player of two resigned on the server) has a
``"reason"`` in its result (``"Ana resigned"``), the scores where it stopped and the
winners the ending gave. :func:`replay` parses and applies every move, checking legality;
:func:`verify` also checks the stored result.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterator

from .errors import IllegalAction, NotationError, RecordError
from .game import State, new_state
from .registry import get_game

FORMAT = "mayagames-record/1"


@dataclass
class Seat:
    name: str
    agent: str = "human"


@dataclass
class GameRecord:
    game: str
    seed: int
    num_players: int
    options: dict[str, Any] = field(default_factory=dict)
    seats: list[Seat] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    engine_version: str = ""
    result: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def start(cls, game: str, num_players: int, seed: int, options: dict[str, Any] | None = None,
              seats: list[Seat] | None = None) -> "GameRecord":
        info = get_game(game)
        return cls(game=info.name, seed=seed, num_players=num_players,
                   options=info.resolve_options(options),
                   seats=seats or [Seat(f"seat{i}") for i in range(num_players)],
                   engine_version=info.version)

    def new_state(self) -> State:
        return new_state(get_game(self.game), self.num_players, self.seed, self.options)

    def finish(self, state: State) -> None:
        """Store the final result of a finished game."""
        self.result = {"scores": state.scores(), "winners": state.winners()}

    # --- JSON -----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data = {"format": FORMAT, **data}
        if data["result"] is None:
            del data["result"]
        return data

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def from_dict(cls, data: Any) -> "GameRecord":
        if not isinstance(data, dict):
            raise RecordError("a game record must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"not a mayagames record (format {data.get('format')!r}, want {FORMAT!r})")
        try:
            seats = [Seat(**s) if isinstance(s, dict) else Seat(str(s)) for s in data.get("seats", [])]
            rec = cls(game=str(data["game"]), seed=int(data["seed"]),
                      num_players=int(data["num_players"]),
                      options=dict(data.get("options", {})), seats=seats,
                      moves=[str(m) for m in data.get("moves", [])],
                      engine_version=str(data.get("engine_version", "")),
                      result=data.get("result"), meta=dict(data.get("meta", {})))
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"malformed game record: {exc}") from exc
        if not isinstance(data.get("moves", []), list):
            raise RecordError("record 'moves' must be a list of strings")
        return rec

    @classmethod
    def from_json(cls, text: str) -> "GameRecord":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"record is not valid JSON: {exc}") from exc
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> "GameRecord":
        return cls.from_json(Path(path).read_text(encoding="utf-8"))


def iter_replay(record: GameRecord) -> Iterator[tuple[int, str, State]]:
    """Yield ``(index, move, state_after)`` for each move; raises RecordError on a bad move."""
    state = record.new_state()
    for i, text in enumerate(record.moves):
        try:
            action = state.parse_action(text)
            state.apply(action)
        except (NotationError, IllegalAction) as exc:
            raise RecordError(f"move {i + 1} {text!r} does not replay: {exc}") from exc
        yield i, text, state


def replay(record: GameRecord) -> State:
    """The state after replaying every move of the record (legality checked)."""
    state = record.new_state()
    for _, _, state in iter_replay(record):
        pass
    return state


def verify(record: GameRecord) -> State:
    """Replay and check the stored result (if the game is finished)."""
    state = replay(record)
    if record.result is not None and "reason" in record.result:
        check_ended_early(record, state)
    elif record.result is not None:
        if not state.is_terminal:
            raise RecordError("record has a result but its moves do not finish the game")
        got = {"scores": state.scores(), "winners": state.winners()}
        if got != record.result:
            raise RecordError(f"record result {record.result} differs from replayed {got}")
    return state


def check_ended_early(record: GameRecord, state: State) -> None:
    """A result with a ``reason``: the moves stop before the rules' end, the scores are the
    replayed ones, and the winners are seats of the game."""
    result = record.result or {}
    if state.is_terminal:
        raise RecordError(f"record says the game ended early ({result['reason']!r}) but its "
                          "moves finish it")
    if result.get("scores") != state.scores():
        raise RecordError(f"record scores {result.get('scores')} differ from replayed "
                          f"{state.scores()}")
    winners = result.get("winners")
    if (not isinstance(winners, list) or not winners
            or not all(type(w) is int and 0 <= w < record.num_players for w in winners)):
        raise RecordError(f"record winners {winners!r} are not seats of the game")

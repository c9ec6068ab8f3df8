"""Wire schemas (Pydantic) for the REST and WebSocket requests: validation at the boundary only."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Strict(BaseModel):
    """No unknown fields, no coercion: ``players: true`` or ``"2"`` is a type error."""

    model_config = ConfigDict(extra="forbid", strict=True)


class SeatSpec(Strict):
    """Who sits at a seat: a person (``human``) or a bot spec such as ``random``."""

    name: str | None = Field(default=None, max_length=200)  # then cleaned and cut (limits.clean_name)
    agent: str = Field(default="human", min_length=1, max_length=64)


class CreateTable(Strict):
    game: str = Field(min_length=1, max_length=32)
    players: int = Field(ge=1, le=8)
    seats: list[SeatSpec] | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int | None = Field(default=None, ge=0, lt=2**63,
                             description="fixing the seed makes the game predictable to whoever knows it")
    public: bool = Field(default=False, description="listed in the open lobby; free seats are joined there")
    rated: bool = Field(default=False, description="the result updates the players' ratings")
    speed: str = Field(default="untimed", max_length=32,
                       description="untimed, realtime:M+S or turn:Nh / turn:Nd")
    zombie: str = Field(default="medium", max_length=16,
                        description="the bot level that takes over a seat whose time runs out")

    @model_validator(mode="after")
    def seats_match_players(self) -> "CreateTable":
        if self.seats is not None and len(self.seats) != self.players:
            raise ValueError(f"give one seat per player: {self.players} players but "
                             f"{len(self.seats)} seats")
        return self


class Credentials(Strict):
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=256)


class PasswordChange(Strict):
    old: str = Field(min_length=1, max_length=256)
    new: str = Field(min_length=1, max_length=256)


class JoinRequest(Strict):
    seat: int = Field(ge=0, le=16)


class ChatRequest(Strict):
    text: str = Field(min_length=1, max_length=2000)


class MoveRequest(Strict):
    """A move for the seat of the token: by id in the legal list, or by notation."""

    move_number: int = Field(ge=0, description="moves applied so far, as the client last saw")
    action_id: int | None = None
    action: str | None = Field(default=None, max_length=200)

    @model_validator(mode="after")
    def one_action(self) -> "MoveRequest":
        if (self.action_id is None) == (self.action is None):
            raise ValueError("give exactly one of 'action_id' and 'action'")
        return self


class UndoRequest(Strict):
    move_number: int = Field(ge=0)


def describe_validation(errors: Any) -> str:
    """Pydantic errors as one readable line: ``body.players: Input should be ...``."""
    parts = []
    for e in errors:
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "request"
        parts.append(f"{where}: {e.get('msg', 'invalid')}")
    return "; ".join(parts)


# --- WebSocket messages (client -> server) ---------------------------------------
class WsHello(Strict):
    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=200)


class WsMove(MoveRequest):
    type: Literal["move"]
    rid: int | str | None = None


class WsUndo(UndoRequest):
    type: Literal["undo"]
    rid: int | str | None = None


class WsPing(Strict):
    type: Literal["ping"]
    rid: int | str | None = None


WS_MESSAGES = {"hello": WsHello, "move": WsMove, "undo": WsUndo, "ping": WsPing}


class QuickRequest(Strict):
    """Play now: a game, its speed, and after how many seconds a bot may be offered."""

    game: str = Field(min_length=1, max_length=32)
    speed: str = Field(default="untimed", max_length=32)
    bot_after: float | int | None = Field(default=60, description="seconds of waiting before "
                                          "the bot of the nearest rating is offered (null: never)")

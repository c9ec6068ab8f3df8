"""Table speeds and game clocks, kept by the server (restart-safe: deadlines are stored).

A table's ``speed`` is one of

* ``untimed``: no clock (the default);
* ``realtime:M+S``: each player has a game clock of M minutes, and S seconds are added
  each time their turn ends (Fischer increment);
* ``turn:Nh`` or ``turn:Nd``: turn-based play over days: each turn must be played
  within N hours (or days) of its start.

A clock runs only for a person's seat to move, never for a bot, and only once every seat
is taken: a public table once it is full, a private one once each invited person has
opened the table (``waiting``: the seats not come yet; the creator's is there). A turn is everything one seat does before another seat is to move (a
Tzolk'in turn is several decisions): the increment is added, and a turn-based deadline
set, once per turn. The clock is a JSON-ready dict stored with the table:
``{"remaining": [seconds per seat at "since"], "running": seat or None, "since": epoch,
"deadline": epoch or None, "waiting": [seats not come yet]}``. Times come from an injectable source (tests use a fake one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .rooms import ServerError

REALTIME = re.compile(r"realtime:(\d{1,3})\+(\d{1,3})")
TURN = re.compile(r"turn:(\d{1,3})([hd])")


@dataclass(frozen=True)
class Speed:
    """A parsed speed: ``kind`` is untimed, realtime or turn; times in seconds."""

    text: str
    kind: str
    initial: float = 0.0     # realtime: the game clock of each player
    increment: float = 0.0   # realtime: added when a turn ends
    per_turn: float = 0.0    # turn-based: the time for one turn

    @property
    def timed(self) -> bool:
        return self.kind != "untimed"

    def describe(self) -> str:
        if self.kind == "realtime":
            return f"real-time: {self.initial / 60:g} min + {self.increment:g} s per turn"
        if self.kind == "turn":
            hours = self.per_turn / 3600
            return f"turn-based: {hours / 24:g} days per turn" if hours % 24 == 0 and hours >= 24 \
                else f"turn-based: {hours:g} h per turn"
        return "untimed"


def parse_speed(text: str | None) -> Speed:
    """The speed named by ``text`` (None or '' is untimed); a bad one is a 422."""
    text = (text or "untimed").strip().lower()
    if text == "untimed":
        return Speed(text, "untimed")
    if m := REALTIME.fullmatch(text):
        minutes, seconds = int(m.group(1)), int(m.group(2))
        if 1 <= minutes <= 180 and seconds <= 600:
            return Speed(text, "realtime", initial=minutes * 60.0, increment=float(seconds))
    if m := TURN.fullmatch(text):
        hours = int(m.group(1)) * (24 if m.group(2) == "d" else 1)
        if 1 <= hours <= 14 * 24:
            return Speed(text, "turn", per_turn=hours * 3600.0)
    raise ServerError(422, "bad_speed", "speed is 'untimed', 'realtime:M+S' (M minutes of 1-180 "
                      "per player, S seconds of 0-600 added per turn) or 'turn:Nh' / 'turn:Nd' "
                      "(N hours or days per turn, at most 14 days)")


def new_clock(speed: Speed, num_players: int, waiting: list[int] | None = None
              ) -> dict[str, Any] | None:
    """A stopped clock (None for an untimed table); ``waiting``: the people's seats whose
    player has not come yet (no clock runs until each has)."""
    if not speed.timed:
        return None
    start = speed.initial if speed.kind == "realtime" else speed.per_turn
    return {"remaining": [start] * num_players, "running": None, "since": None, "deadline": None,
            "waiting": sorted(waiting or [])}


def waiting_for(clock: dict[str, Any] | None) -> list[int]:
    """The seats whose player has not opened the table yet (older clocks: none)."""
    return list((clock or {}).get("waiting") or [])


def run_for(clock: dict[str, Any], speed: Speed, seat: int | None, now: float) -> None:
    """Start a new turn's clock for ``seat`` (None: nobody's clock runs, e.g. a bot's turn)."""
    clock["running"], clock["since"] = seat, now
    if seat is None:
        clock["deadline"] = None
    elif speed.kind == "realtime":
        clock["deadline"] = now + clock["remaining"][seat]
    else:
        clock["remaining"][seat] = speed.per_turn
        clock["deadline"] = now + speed.per_turn


def after_move(clock: dict[str, Any], speed: Speed, mover: int, next_seat: int | None,
               clocked: set[int], now: float) -> None:
    """Charge ``mover`` for the time of its move; if the turn passed, start ``next_seat``'s.

    ``clocked``: the seats whose clock may run (people, not bots or zombies).
    """
    running = clock["running"]
    if running is not None and running == mover and speed.kind == "realtime":
        clock["remaining"][mover] = max(0.0, clock["remaining"][mover] - (now - clock["since"]))
        clock["since"] = now
    if next_seat == running and next_seat is not None:
        if speed.kind == "realtime":
            clock["deadline"] = now + clock["remaining"][next_seat]
        return  # the same turn goes on; a turn-based deadline stays
    if running is not None and running == mover and speed.kind == "realtime":
        clock["remaining"][mover] += speed.increment  # the turn ended in time
    run_for(clock, speed, next_seat if next_seat in clocked else None, now)


def expired(clock: dict[str, Any] | None, now: float) -> bool:
    return bool(clock) and clock["deadline"] is not None and now >= clock["deadline"]


def public_clock(clock: dict[str, Any] | None, speed: Speed, now: float) -> dict[str, Any] | None:
    """What the table shows: each seat's time left now, and whose clock runs."""
    if clock is None:
        return None
    left = list(clock["remaining"])
    running = clock["running"]
    if running is not None and clock["deadline"] is not None:
        left[running] = max(0.0, clock["deadline"] - now)
    return {"speed": speed.text, "kind": speed.kind, "describe": speed.describe(),
            "left": [round(x, 1) for x in left], "running": running,
            "deadline": clock["deadline"], "server_time": now, "waiting": waiting_for(clock)}

"""Tikal Legend actions: small frozen values with a word notation that round-trips (case-insensitive).

Hexes are named as on the board (``e4``: row e, column 4, lower case), terrain tiles by
their id (``B-3``: upper case with a hyphen, so that a tile never reads like a hex), cards by
their name (``dig-2``), players by colour. A compound turn is a chain of small
decisions; generic sub-decisions (:class:`At`, :class:`Side`, :class:`Rotate`,
:class:`Choose`, :class:`End`) answer the question the state asks (``state.pending``).

>>> parse_action("move explorer e4 d4")
Move(figure='explorer', from_hex='e4', to_hex='d4')
>>> str(parse_action("take tile b-3"))
'take tile B-3'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Union, get_args

from ..core.errors import NotationError
from .data import SIDES

COLOURS = ("red", "blue", "yellow", "green")
FIGURES = ("explorer", "leader")
EXPLORER, LEADER = 0, 1


# --- round management ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TakeStatuette:
    """Put your statuette on turn-order space ``space`` (1-based) for the next round."""
    KIND: ClassVar[str] = "TakeStatuette"
    space: int

    def __str__(self) -> str:
        return f"take statuette {self.space}"


@dataclass(frozen=True, slots=True)
class TakeAP:
    KIND: ClassVar[str] = "TakeAP"
    value: int

    def __str__(self) -> str:
        return f"take ap {self.value}"


@dataclass(frozen=True, slots=True)
class TakeTile:
    KIND: ClassVar[str] = "TakeTile"
    tile: str

    def __str__(self) -> str:
        return f"take tile {self.tile}"


@dataclass(frozen=True, slots=True)
class TakeCard:
    """Take a card from the display (round management, or the Journalist power)."""
    KIND: ClassVar[str] = "TakeCard"
    card: str

    def __str__(self) -> str:
        return f"take card {self.card}"


# --- action phase: the turn's action and free actions --------------------------------------
@dataclass(frozen=True, slots=True)
class Keep:
    """Move a card from the right of your campsite to the left (delay or keep it)."""
    KIND: ClassVar[str] = "Keep"
    card: str

    def __str__(self) -> str:
        return f"keep {self.card}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard a card from the left of your campsite to make room."""
    KIND: ClassVar[str] = "Discard"
    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a non-permanent card from the right (or the left: ``kept``)."""
    KIND: ClassVar[str] = "Play"
    card: str
    kept: bool = False

    def __str__(self) -> str:
        return f"play kept {self.card}" if self.kept else f"play {self.card}"


@dataclass(frozen=True, slots=True)
class Use:
    """Use a permanent card (flip it): alone, or as a bonus while spending your AP token."""
    KIND: ClassVar[str] = "Use"
    card: str
    kept: bool = False

    def __str__(self) -> str:
        return f"use kept {self.card}" if self.kept else f"use {self.card}"


@dataclass(frozen=True, slots=True)
class Activate:
    """Activate your AP token: spend its AP on AP actions."""
    KIND: ClassVar[str] = "Activate"

    def __str__(self) -> str:
        return "activate"


@dataclass(frozen=True, slots=True)
class PlaceTile:
    """Play a terrain tile from your campsite (then choose its hex and rotation)."""
    KIND: ClassVar[str] = "PlaceTile"
    tile: str

    def __str__(self) -> str:
        return f"place {self.tile}"


@dataclass(frozen=True, slots=True)
class Power:
    """Use a power of your Museum Director (once per game, free)."""
    KIND: ClassVar[str] = "Power"
    power: str

    def __str__(self) -> str:
        return f"power {self.power}"


@dataclass(frozen=True, slots=True)
class Pass:
    KIND: ClassVar[str] = "Pass"
    def __str__(self) -> str:
        return "pass"


# --- generic sub-decisions ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class At:
    """Choose a hex (for the question the state is asking)."""
    KIND: ClassVar[str] = "At"
    hex: str

    def __str__(self) -> str:
        return f"at {self.hex}"


@dataclass(frozen=True, slots=True)
class Side:
    """Choose a side of the chosen hex (``ne e se sw w nw``)."""
    KIND: ClassVar[str] = "Side"
    side: str

    def __str__(self) -> str:
        return f"side {self.side}"


@dataclass(frozen=True, slots=True)
class Rotate:
    """Turn the tile being placed ``turns`` sides clockwise from its printed orientation."""
    KIND: ClassVar[str] = "Rotate"
    turns: int

    def __str__(self) -> str:
        return f"rotate {self.turns}"


@dataclass(frozen=True, slots=True)
class Choose:
    """Choose an option in words (``leader``, ``both``, ``3``...)."""
    KIND: ClassVar[str] = "Choose"
    option: str

    def __str__(self) -> str:
        return f"choose {self.option}"


@dataclass(frozen=True, slots=True)
class End:
    """Stop: end the AP spending, or stop an 'up to' effect early."""
    KIND: ClassVar[str] = "End"

    def __str__(self) -> str:
        return "end"


# --- AP actions ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Deploy:
    KIND: ClassVar[str] = "Deploy"
    figure: str
    hex: str

    def __str__(self) -> str:
        return f"deploy {self.figure} {self.hex}"


@dataclass(frozen=True, slots=True)
class Move:
    KIND: ClassVar[str] = "Move"
    figure: str
    from_hex: str
    to_hex: str

    def __str__(self) -> str:
        return f"move {self.figure} {self.from_hex} {self.to_hex}"


@dataclass(frozen=True, slots=True)
class Transfer:
    """Move an EM between Base Camps."""
    KIND: ClassVar[str] = "Transfer"
    figure: str
    from_hex: str
    to_hex: str

    def __str__(self) -> str:
        return f"transfer {self.figure} {self.from_hex} {self.to_hex}"


@dataclass(frozen=True, slots=True)
class Camp:
    """Set up a Base Camp on a Clearing (``from_hex``: the camp moved, if none in reserve)."""
    KIND: ClassVar[str] = "Camp"
    hex: str
    from_hex: str = ""

    def __str__(self) -> str:
        return f"camp {self.hex} from {self.from_hex}" if self.from_hex else f"camp {self.hex}"


@dataclass(frozen=True, slots=True)
class Stone:
    """Place a Trail Stone token (then choose the hex and the side)."""
    KIND: ClassVar[str] = "Stone"

    def __str__(self) -> str:
        return "stone"


@dataclass(frozen=True, slots=True)
class Token:
    """Choose the Trail Stone token to move (on side ``side`` of hex ``hex``)."""
    KIND: ClassVar[str] = "Token"
    hex: str
    side: str

    def __str__(self) -> str:
        return f"token {self.hex} {self.side}"


@dataclass(frozen=True, slots=True)
class Recruit:
    """Add 1 Explorer or 1 Leader from the Unavailable to the Available Supply."""
    KIND: ClassVar[str] = "Recruit"
    figure: str

    def __str__(self) -> str:
        return f"recruit {self.figure}"


@dataclass(frozen=True, slots=True)
class Clear:
    """Clear a Temple Floor."""
    KIND: ClassVar[str] = "Clear"
    hex: str

    def __str__(self) -> str:
        return f"clear {self.hex}"


@dataclass(frozen=True, slots=True)
class Guardian:
    """Place a Guardian on a temple: your ``figure`` there goes on top."""
    KIND: ClassVar[str] = "Guardian"
    hex: str
    figure: str

    def __str__(self) -> str:
        return f"guardian {self.hex} {self.figure}"


@dataclass(frozen=True, slots=True)
class Unearth:
    KIND: ClassVar[str] = "Unearth"
    hex: str

    def __str__(self) -> str:
        return f"unearth {self.hex}"


@dataclass(frozen=True, slots=True)
class Trade:
    """Trade treasures (then choose what to take and what to give)."""
    KIND: ClassVar[str] = "Trade"

    def __str__(self) -> str:
        return "trade"


@dataclass(frozen=True, slots=True)
class Take:
    """Take ``count`` treasures of type ``treasure`` from player ``player`` (a seat)."""
    KIND: ClassVar[str] = "Take"
    player: int
    treasure: str
    count: int = 1

    def __str__(self) -> str:
        return f"take {COLOURS[self.player]} {self.treasure} {self.count}"


@dataclass(frozen=True, slots=True)
class Give:
    KIND: ClassVar[str] = "Give"
    treasure: str

    def __str__(self) -> str:
        return f"give {self.treasure}"


TikalAction = Union[TakeStatuette, TakeAP, TakeTile, TakeCard, Keep, Discard, Play, Use, Activate,
                    PlaceTile, Power, Pass, At, Side, Rotate, Choose, End, Deploy, Move, Transfer,
                    Camp, Stone, Token, Recruit, Clear, Guardian, Unearth, Trade, Take, Give]
#: every action class of the game, each declaring its wire ``KIND`` (GameInfo.actions)
ACTION_TYPES: tuple[type, ...] = get_args(TikalAction)

# --- interning: legal-action lists reuse one object per distinct action ----------------------
_CACHE: dict[tuple, Any] = {}


def make(cls: Callable[..., Any], *args: Any) -> Any:
    """The shared instance of ``cls(*args)`` (actions are immutable, so sharing is safe)."""
    key = (cls, *args)
    action = _CACHE.get(key)
    if action is None:
        action = _CACHE[key] = cls(*args)
    return action


END = End()
ACTIVATE = Activate()
PASS = Pass()
STONE = Stone()
TRADE = Trade()


# --- parsing ----------------------------------------------------------------------------
def _bad(text: str, why: str = "") -> NotationError:
    return NotationError(f"not a Tikal action: {text!r}" + (f" ({why})" if why else ""))


def _int(text: str, word: str) -> int:
    if not word.isdigit():
        raise _bad(text, f"{word!r} is not a number")
    return int(word)


def _figure(text: str, word: str) -> str:
    if word not in FIGURES:
        raise _bad(text, f"{word!r} is not explorer or leader")
    return word


def _side(text: str, word: str) -> str:
    if word not in SIDES:
        raise _bad(text, f"{word!r} is not a side ({' '.join(SIDES)})")
    return word


def _parse_take(text: str, w: list[str]) -> TikalAction:
    if len(w) == 3 and w[1] == "statuette":
        return make(TakeStatuette, _int(text, w[2]))
    if len(w) == 3 and w[1] == "ap":
        return make(TakeAP, _int(text, w[2]))
    if len(w) == 3 and w[1] == "tile":
        return make(TakeTile, w[2].upper())
    if len(w) == 3 and w[1] == "card":
        return make(TakeCard, w[2])
    if len(w) in (3, 4) and w[1] in COLOURS:
        count = _int(text, w[3]) if len(w) == 4 else 1
        return make(Take, COLOURS.index(w[1]), w[2], count)
    raise _bad(text)


def _parse_rest(text: str, w: list[str]) -> TikalAction:
    head, n = w[0], len(w)
    if head in ("keep", "discard") and n == 2:
        return make(Keep if head == "keep" else Discard, w[1])
    if head in ("play", "use") and n in (2, 3):
        cls = Play if head == "play" else Use
        if (n == 3 and w[1] != "kept") or w[-1] == "kept":
            raise _bad(text, "name the card: 'play CARD' or 'play kept CARD'")
        return make(cls, w[-1], n == 3)
    if head == "place" and n == 2:
        return make(PlaceTile, w[1].upper())
    if head == "power" and n == 2:
        return make(Power, w[1])
    if head == "at" and n == 2:
        return make(At, w[1])
    if head == "side" and n == 2:
        return make(Side, _side(text, w[1]))
    if head == "rotate" and n == 2:
        return make(Rotate, _int(text, w[1]))
    if head == "choose" and n == 2:
        return make(Choose, w[1])
    if head == "deploy" and n == 3:
        return make(Deploy, _figure(text, w[1]), w[2])
    if head in ("move", "transfer") and n == 4:
        return make(Move if head == "move" else Transfer, _figure(text, w[1]), w[2], w[3])
    if head == "camp" and n == 2:
        return make(Camp, w[1], "")
    if head == "camp" and n == 4 and w[2] == "from":
        return make(Camp, w[1], w[3])
    if head == "token" and n == 3:
        return make(Token, w[1], _side(text, w[2]))
    if head == "recruit" and n == 2:
        return make(Recruit, _figure(text, w[1]))
    if head == "clear" and n == 2:
        return make(Clear, w[1])
    if head == "guardian" and n == 3:
        return make(Guardian, w[1], _figure(text, w[2]))
    if head == "unearth" and n == 2:
        return make(Unearth, w[1])
    if head == "give" and n == 2:
        return make(Give, w[1])
    raise _bad(text)


_SINGLE: dict[str, TikalAction] = {"activate": ACTIVATE, "pass": PASS, "end": END, "stone": STONE, "trade": TRADE}


def parse_action(text: str) -> TikalAction:
    """Parse a Tikal action's notation (case and extra spaces do not matter)."""
    if not isinstance(text, str):
        raise NotationError(f"not a Tikal action: {text!r}")
    words = text.strip().lower().split()
    if not words:
        raise _bad(text, "empty")
    if len(words) == 1 and words[0] in _SINGLE:
        return _SINGLE[words[0]]
    if words[0] == "take":
        return _parse_take(text, words)
    return _parse_rest(text, words)

"""Tzolk'in actions: small frozen values with a lowercase notation that round-trips.

A turn is a chain of small decisions (see ``docs/tzolkin_rules_notes.md``):

========================  =====================================================
notation                  meaning
========================  =====================================================
``keep w03 w07``          draft: keep these two starting wealth tiles
``beg chaac``             beg for corn, stepping down on Chaac
``place tikal``           place a worker on the lowest free space of Tikal
``place start``           place a worker on the Starting Player Space
``pick tikal 4``          pick up your worker from Tikal space 4
``do tikal 3``            perform action 3 of Tikal (for the picked worker, or mirrored)
``nothing``               the picked worker does nothing
``harvest corn``          Palenque 3-5: take corn (``harvest wood``, ``burn``)
``anger kukulcan``        step down on a temple (burning the forest)
``temple chaac``          step up on a temple of your choice
``temples chaac kukulcan pay wood``   Tikal 5
``tech theology``         advance on a technology track
``pay stone``             pay one resource block of a technology's cost
``build a1-t1``           construct a building (``waive wood`` with Architecture 3,
                          ``noarch`` to keep architecture for a second Tikal 4 building)
``build m05``             construct a monument
``take gold``             take a resource block of your choice
``buy wood`` ``sell gold``   one market exchange
``offer chaac pay wood``  Theology 2: pay a block for a temple step
``stop``                  finish an optional or repeatable step (market, second build...)
``advance 2``             Starting Player Space: advance the calendar 1 or 2 days
``end``                   end your turn
========================  =====================================================

>>> parse_action("pick tikal 4")
Pick(gear='tikal', space=4)
>>> str(parse_action("build a1-t1 waive wood"))
'build a1-t1 waive wood'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Union, get_args

from ..core.errors import NotationError
from .components import BUILDING_INDEX, GEARS, MONUMENT_INDEX, RESOURCES, TEMPLES, TILE_INDEX, TRACKS


@dataclass(frozen=True, slots=True)
class Keep:
    """Draft: keep two of the four dealt starting wealth tiles (ids in sorted order)."""
    KIND: ClassVar[str] = "Keep"
    first: str
    second: str

    def __str__(self) -> str:
        return f"keep {self.first} {self.second}"


@dataclass(frozen=True, slots=True)
class Beg:
    """Beg for corn: discard all corn, take 3, step down on ``temple``."""
    KIND: ClassVar[str] = "Beg"
    temple: str

    def __str__(self) -> str:
        return f"beg {self.temple}"


@dataclass(frozen=True, slots=True)
class Place:
    """Place a worker on the lowest-numbered free space of ``gear``."""
    KIND: ClassVar[str] = "Place"
    gear: str

    def __str__(self) -> str:
        return f"place {self.gear}"


@dataclass(frozen=True, slots=True)
class PlaceStart:
    """Place a worker on the Starting Player Space."""
    KIND: ClassVar[str] = "PlaceStart"

    def __str__(self) -> str:
        return "place start"


@dataclass(frozen=True, slots=True)
class Pick:
    """Pick up your worker from ``space`` of ``gear``."""
    KIND: ClassVar[str] = "Pick"
    gear: str
    space: int

    def __str__(self) -> str:
        return f"pick {self.gear} {self.space}"


@dataclass(frozen=True, slots=True)
class Do:
    """Perform action ``space`` of ``gear`` (picked worker, free choice or mirror)."""
    KIND: ClassVar[str] = "Do"
    gear: str
    space: int

    def __str__(self) -> str:
        return f"do {self.gear} {self.space}"


@dataclass(frozen=True, slots=True)
class Nothing:
    """The picked-up worker performs no action."""
    KIND: ClassVar[str] = "Nothing"

    def __str__(self) -> str:
        return "nothing"


@dataclass(frozen=True, slots=True)
class Harvest:
    """Palenque 3-5: ``corn``, ``wood`` or ``burn`` (the forest)."""
    KIND: ClassVar[str] = "Harvest"
    mode: str

    def __str__(self) -> str:
        return "burn" if self.mode == "burn" else f"harvest {self.mode}"


@dataclass(frozen=True, slots=True)
class Anger:
    """Anger the gods: step down on ``temple``."""
    KIND: ClassVar[str] = "Anger"
    temple: str

    def __str__(self) -> str:
        return f"anger {self.temple}"


@dataclass(frozen=True, slots=True)
class Temple:
    """Step up on ``temple`` (a step of your choice)."""
    KIND: ClassVar[str] = "Temple"
    temple: str

    def __str__(self) -> str:
        return f"temple {self.temple}"


@dataclass(frozen=True, slots=True)
class TwoTemples:
    """Tikal 5: pay one ``pay`` block and step up on two different temples."""
    KIND: ClassVar[str] = "TwoTemples"
    first: str
    second: str
    pay: str

    def __str__(self) -> str:
        return f"temples {self.first} {self.second} pay {self.pay}"


@dataclass(frozen=True, slots=True)
class Tech:
    """Advance one level on ``track`` (or take its bonus when at level 3)."""
    KIND: ClassVar[str] = "Tech"
    track: str

    def __str__(self) -> str:
        return f"tech {self.track}"


@dataclass(frozen=True, slots=True)
class Pay:
    """Pay one ``resource`` block towards a technology's cost."""
    KIND: ClassVar[str] = "Pay"
    resource: str

    def __str__(self) -> str:
        return f"pay {self.resource}"


@dataclass(frozen=True, slots=True)
class Build:
    """Construct ``building`` from the row.

    ``waive``: the block left unpaid with Architecture 3 (Tikal); ``arch``: whether
    the architecture effects apply to this building (Tikal 4 may keep them for the
    second building).
    """
    KIND: ClassVar[str] = "Build"
    building: str
    waive: str = ""
    arch: bool = True

    def __str__(self) -> str:
        text = f"build {self.building}"
        if self.waive:
            text += f" waive {self.waive}"
        if not self.arch:
            text += " noarch"
        return text


@dataclass(frozen=True, slots=True)
class BuildMonument:
    """Construct ``monument`` (Tikal 4 only)."""
    KIND: ClassVar[str] = "BuildMonument"
    monument: str

    def __str__(self) -> str:
        return f"build {self.monument}"


@dataclass(frozen=True, slots=True)
class Take:
    """Take one ``resource`` block of your choice."""
    KIND: ClassVar[str] = "Take"
    resource: str

    def __str__(self) -> str:
        return f"take {self.resource}"


@dataclass(frozen=True, slots=True)
class Trade:
    """One market exchange: ``buy`` or ``sell`` one ``resource`` block for corn."""
    KIND: ClassVar[str] = "Trade"
    direction: str
    resource: str

    def __str__(self) -> str:
        return f"{self.direction} {self.resource}"


@dataclass(frozen=True, slots=True)
class Offer:
    """Theology 2: pay one ``pay`` block to step up on ``temple``."""
    KIND: ClassVar[str] = "Offer"
    temple: str
    pay: str

    def __str__(self) -> str:
        return f"offer {self.temple} pay {self.pay}"


@dataclass(frozen=True, slots=True)
class Stop:
    """Finish an optional or repeatable step."""
    KIND: ClassVar[str] = "Stop"

    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True, slots=True)
class Advance:
    """Starting Player Space: advance the calendar ``days`` (1 or 2) days."""
    KIND: ClassVar[str] = "Advance"
    days: int

    def __str__(self) -> str:
        return f"advance {self.days}"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End your turn."""
    KIND: ClassVar[str] = "EndTurn"

    def __str__(self) -> str:
        return "end"


TzAction = Union[Keep, Beg, Place, PlaceStart, Pick, Do, Nothing, Harvest, Anger, Temple,
                 TwoTemples, Tech, Pay, Build, BuildMonument, Take, Trade, Offer, Stop, Advance,
                 EndTurn]
#: every action class of the game, each declaring its wire ``KIND`` (GameInfo.actions)
ACTION_TYPES: tuple[type, ...] = get_args(TzAction)

# --- interned instances (legal-action lists reuse these objects) -------------------
PLACE = tuple(Place(g) for g in GEARS)
PLACE_START = PlaceStart()
PICK = tuple(tuple(Pick(g, s) for s in range(11)) for g in GEARS)
DO = tuple(tuple(Do(g, s) for s in range(10)) for g in GEARS)
NOTHING = Nothing()
HARVEST = (Harvest("corn"), Harvest("wood"), Harvest("burn"))
BEG = tuple(Beg(t) for t in TEMPLES)
ANGER = tuple(Anger(t) for t in TEMPLES)
TEMPLE = tuple(Temple(t) for t in TEMPLES)
TWO_TEMPLES = {(a, b, r): TwoTemples(TEMPLES[a], TEMPLES[b], RESOURCES[r])
               for a in range(3) for b in range(a + 1, 3) for r in range(3)}
TECH = tuple(Tech(t) for t in TRACKS)
PAY = tuple(Pay(r) for r in RESOURCES)
TAKE = tuple(Take(r) for r in RESOURCES)
BUY = tuple(Trade("buy", r) for r in RESOURCES)
SELL = tuple(Trade("sell", r) for r in RESOURCES)
OFFER = tuple(tuple(Offer(t, r) for r in RESOURCES) for t in TEMPLES)
STOP = Stop()
ADVANCE = (Advance(1), Advance(2))
END = EndTurn()

_NAME = r"([a-z]+)"
_PATTERNS: list[tuple[re.Pattern[str], object]] = []


def _pattern(regex: str):
    def register(func):
        _PATTERNS.append((re.compile(regex), func))
        return func
    return register


def _one_of(value: str, names: tuple[str, ...], what: str) -> str:
    if value not in names:
        raise NotationError(f"unknown {what} {value!r}; expected one of {', '.join(names)}")
    return value


@_pattern(r"keep (w\d\d) (w\d\d)")
def _keep(m: re.Match[str]) -> Keep:
    a, b = (_one_of(x, tuple(TILE_INDEX), "starting tile") for x in m.groups())
    if a >= b:
        raise NotationError("name the two kept tiles in increasing order, e.g. 'keep w03 w07'")
    return Keep(a, b)


@_pattern(rf"beg {_NAME}")
def _beg(m: re.Match[str]) -> Beg:
    return Beg(_one_of(m.group(1), TEMPLES, "temple"))


@_pattern(rf"place {_NAME}")
def _place(m: re.Match[str]) -> Place | PlaceStart:
    if m.group(1) == "start":
        return PLACE_START
    return Place(_one_of(m.group(1), GEARS, "gear"))


@_pattern(rf"(pick|do) {_NAME} (\d+)")
def _pick_do(m: re.Match[str]) -> Pick | Do:
    gear = _one_of(m.group(2), GEARS, "gear")
    space = int(m.group(3))
    limit = 10 if m.group(1) == "pick" else 9
    if space > limit:
        raise NotationError(f"no space {space} on {gear}")
    return (Pick if m.group(1) == "pick" else Do)(gear, space)


@_pattern(r"nothing")
def _nothing(m: re.Match[str]) -> Nothing:
    return NOTHING


@_pattern(r"harvest (corn|wood)|burn")
def _harvest(m: re.Match[str]) -> Harvest:
    return Harvest(m.group(1) or "burn")


@_pattern(rf"(anger|temple) {_NAME}")
def _temple(m: re.Match[str]) -> Anger | Temple:
    return (Anger if m.group(1) == "anger" else Temple)(_one_of(m.group(2), TEMPLES, "temple"))


@_pattern(rf"temples {_NAME} {_NAME} pay {_NAME}")
def _two_temples(m: re.Match[str]) -> TwoTemples:
    a, b = (_one_of(x, TEMPLES, "temple") for x in m.group(1, 2))
    if TEMPLES.index(a) >= TEMPLES.index(b):
        raise NotationError(f"name two different temples in the order {', '.join(TEMPLES)}")
    return TwoTemples(a, b, _one_of(m.group(3), RESOURCES, "resource"))


@_pattern(rf"tech {_NAME}")
def _tech(m: re.Match[str]) -> Tech:
    return Tech(_one_of(m.group(1), TRACKS, "technology"))


@_pattern(rf"(pay|take) {_NAME}")
def _pay_take(m: re.Match[str]) -> Pay | Take:
    return (Pay if m.group(1) == "pay" else Take)(_one_of(m.group(2), RESOURCES, "resource"))


@_pattern(r"build (m\d\d)")
def _monument(m: re.Match[str]) -> BuildMonument:
    return BuildMonument(_one_of(m.group(1), tuple(MONUMENT_INDEX), "monument"))


@_pattern(rf"build (a[12]-[a-z]\d)(?: waive {_NAME})?( noarch)?")
def _build(m: re.Match[str]) -> Build:
    building = _one_of(m.group(1), tuple(BUILDING_INDEX), "building")
    waive = _one_of(m.group(2), RESOURCES, "resource") if m.group(2) else ""
    return Build(building, waive, not m.group(3))


@_pattern(rf"(buy|sell) {_NAME}")
def _trade(m: re.Match[str]) -> Trade:
    return Trade(m.group(1), _one_of(m.group(2), RESOURCES, "resource"))


@_pattern(rf"offer {_NAME} pay {_NAME}")
def _offer(m: re.Match[str]) -> Offer:
    return Offer(_one_of(m.group(1), TEMPLES, "temple"), _one_of(m.group(2), RESOURCES, "resource"))


@_pattern(r"stop")
def _stop(m: re.Match[str]) -> Stop:
    return STOP


@_pattern(r"advance ([12])")
def _advance(m: re.Match[str]) -> Advance:
    return ADVANCE[int(m.group(1)) - 1]


@_pattern(r"end")
def _end(m: re.Match[str]) -> EndTurn:
    return END


def parse_action(text: str) -> TzAction:
    """The action written ``text`` (lowercase words, extra spaces ignored).

    Raises :class:`NotationError` for a text that names no Tzolk'in action.
    """
    norm = " ".join(str(text).lower().split())
    for regex, func in _PATTERNS:
        m = regex.fullmatch(norm)
        if m:
            return func(m)  # type: ignore[operator]
    raise NotationError(f"not a Tzolk'in action: {text!r} (try 'place tikal', 'pick tikal 4', "
                        "'do tikal 3', 'end'; type 'help' in the terminal)")

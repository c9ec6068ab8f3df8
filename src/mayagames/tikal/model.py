"""The Tikal Legend data model's vocabulary: hex kinds, phases, placeholders and the
:class:`TikalFrame` base of a compound turn's sub-decisions.

The bottom of the package's import order (docs/design.md): every rules module imports
its names from here, and :mod:`.state` (the protocol class at the top) re-exports them.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Mapping

from ..core.compiling import mypyc_attr
from ..core.errors import IllegalAction
from ..core.frames import SubDecision

if TYPE_CHECKING:
    from .state import TikalState

# hex kinds
JUNGLE, BASE_CAMP, TEMPLE, CLEARING, RUINS, LAKE, VOLCANO = range(7)
KIND_NAMES = ("jungle", "base_camp", "temple", "clearing", "ruins", "lake", "volcano")
KIND_OF_TYPE = {name: i for i, name in enumerate(KIND_NAMES)}
COMMON = -2  # owner of the Common Base Camp


def index_kinds(kind: list[int]) -> tuple[tuple[tuple[int, ...], ...], frozenset[int]]:
    """The hexes-by-kind index of a board's ``kind`` list: per kind its hexes, ascending,
    and the sites of the temple and ruin AP actions (``TikalState.hexes_by_kind`` and
    ``temples_and_ruins``)."""
    by_kind: list[list[int]] = [[] for _ in KIND_NAMES]
    for h, k in enumerate(kind):
        by_kind[k].append(h)
    return tuple(tuple(hexes) for hexes in by_kind), frozenset(by_kind[TEMPLE] + by_kind[RUINS])
# phases
ROUND_MANAGEMENT, ACTION, FINAL, OVER = range(4)
PHASE_NAMES = ("round_management", "action", "final_scoring", "over")
HIDDEN = -1  # a face-down card, tile, treasure or AP token in a view


@mypyc_attr(native_class=False)  # a Python class in the compiled build too (docs/design.md)
class TikalFrame(SubDecision["TikalState"]):
    """One open sub-decision of a Tikal compound turn (an AP turn, the hex of a tile...).

    The state keeps a stack of them (``state.stack``); the top one answers
    ``legal_actions``, ``apply`` and ``why_illegal`` (see :mod:`mayagames.core.frames`).
    Each kind is a subclass in the module of the rules that open it (``rules``, ``cards``,
    ``powers``; :mod:`.frames` lists them) with its own named fields. The attributes
    below are the uniform description every kind gives to texts and encoders (a kind
    without such a field keeps the class default):

    * ``seat``: who answers; ``ends_turn``: closing it ends the turn;
    * ``ctx``: what opened it (``token`` for an AP-token activation, ``card``...);
      ``step``: which question of the frame is asked now;
    * ``points`` (AP left), ``left`` (repetitions left), ``initial`` (repetitions at the
      start), ``counts`` (per-hex tallies this turn: floors cleared, treasures unearthed).
    """

    __slots__ = ("seat",)
    seat: int  # the slot above, declared for the type checker (no class default)
    rule: ClassVar[str] = "5: compound turn"  # the rule that opened it (for explanations)
    prompts: ClassVar[dict[str, str]] = {}  # step -> the question, in words
    ends_turn: bool = True
    ctx: str = ""
    step: str = ""
    points: int = 0
    left: int = 0
    counts: Mapping[int, int] = MappingProxyType({})

    @property
    def initial(self) -> int:
        return 0

    @property
    def prompt(self) -> str:
        """The question this frame asks now, in words."""
        return self.prompts.get(self.step) or self.prompts.get("", self.kind)

    def rule_name(self) -> str:
        """The rule an illegal answer is refused under."""
        return self.rule

    def targets(self) -> tuple[list[int], list[int], list[int], list[int]]:
        """Hexes, tiles, edges and cards this sub-decision is about (for encoders)."""
        return [], [], [], []

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.copy = _copier(cls)  # type: ignore[method-assign, assignment]

    def copy(self) -> "TikalFrame":
        """An independent copy: every field; ``counts`` (the one mutable one) copied."""
        return _copier(type(self))(self)

    def refuse(self, message: str, action: object, rule: str | None = None) -> IllegalAction:
        return IllegalAction(f"Tikal {rule or self.rule_name()}", message, action)

    def why_illegal(self, state: "TikalState", action: object) -> IllegalAction:
        return self.refuse(f"now {self.prompt}", action)

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in _all_slots(type(self)))
        return f"{type(self).__name__}({fields})"


_SLOTS: dict[type, tuple[str, ...]] = {}


def _copier(cls: type) -> Callable[[Any], Any]:
    """A fast ``copy`` for a frame class: its fields assigned one by one (generated once per
    class, like a dataclass's methods; a copy is taken with every state copy)."""
    names = _all_slots(cls)
    lines = ["def copy(self):", "    f = new(cls)"]
    lines += [f"    f.{n} = dict(self.{n})" if n == "counts" else f"    f.{n} = self.{n}" for n in names]
    lines.append("    return f")
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls}
    exec("\n".join(lines), scope)  # noqa: S102 - the code is built from the class's own slot names
    return scope["copy"]


def _all_slots(cls: type) -> tuple[str, ...]:
    names = _SLOTS.get(cls)
    if names is None:
        names = _SLOTS[cls] = tuple(n for k in reversed(cls.__mro__) for n in getattr(k, "__slots__", ()))
    return names


def count_up(counts: dict[int, int], h: int) -> dict[int, int]:
    """A frame's per-hex tally with one more on ``h``."""
    counts[h] = counts.get(h, 0) + 1
    return counts

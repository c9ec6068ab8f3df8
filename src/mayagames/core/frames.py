"""Typed sub-decisions of a compound turn (the shape both games share).

A compound turn (a Tikal action-point turn, a Tzolk'in pick-up or build) is a stack of
open questions. Each kind of question is a small class deriving from
:class:`SubDecision` that owns its fields, the actions that answer it, how an answer
changes the state, and why an answer is refused. The model is the TAG framework's
``IExtendedSequence``: the state keeps the stack; ``legal_actions`` and ``apply`` of the
state ask the top frame.

Legality is written once: :meth:`SubDecision.why_illegal` is built on the same checks
that :meth:`SubDecision.legal_actions` uses, so the reason a player reads can never
disagree with the list of moves the engine offers.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, TypeVar

from .errors import IllegalAction

S = TypeVar("S")


class SubDecision(ABC, Generic[S]):
    """One open question of a compound turn, on the state's frame stack.

    Subclasses declare ``__slots__`` for their own fields (kept small: frames are copied
    with every state copy) and a class-level ``kind`` (a stable name used by encoders,
    serialisation and texts).
    """

    __slots__ = ()
    kind: ClassVar[str] = ""

    @abstractmethod
    def legal_actions(self, state: S) -> list[Any]:
        """The actions that answer this question now (a new list the caller may mutate)."""

    @abstractmethod
    def apply(self, state: S, action: Any) -> None:
        """Play ``action`` (already known to be legal) on ``state``: update the state and
        the frame stack (pop this frame, push follow-up frames)."""

    @abstractmethod
    def why_illegal(self, state: S, action: Any) -> IllegalAction:
        """The :class:`IllegalAction` naming the rule that refuses ``action`` here,
        derived from the same checks as :meth:`legal_actions`."""

    def copy(self) -> "SubDecision[S]":
        """An independent copy (frames holding mutable fields override this)."""
        return self

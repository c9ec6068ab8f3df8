"""The state both games build on: a stack of pending decision frames and its machinery.

A game whose turns are stacks of open questions (:class:`~mayagames.core.frames.SubDecision`,
the TAG framework's ``IExtendedSequence``) keeps in :class:`FrameStackState`:

* ``stack``: the pending frames, the top one last; the top frame answers
  ``legal_actions``, ``apply`` and ``why_illegal``;
* ``_legal``: the legal actions now, cached (``None``: not worked out yet). The list is
  never mutated in place, only replaced, so copies share it and :meth:`legal_cached`
  hands it out without a copy;
* a *declared field list* (the class attributes ``shared_fields``, ``list_fields``,
  ``nested_fields``, ``dict_fields``): every attribute of the state, by how a copy takes
  it. :meth:`clone` copies from it, and :meth:`invariants` reports any attribute that is
  not declared, so a field added to a game cannot be forgotten in its copy (a field left
  out would be shared between a state and its clones).

Where the two games differ, the difference is a hook, documented on it:

* :meth:`_advance` plays a legal action (and is ``apply_unchecked`` itself): Tzolk'in
  settles the forced steps that follow and caches the next legal list at once (``apply``
  then validates by a membership test); Tikal empties the cache, worked out when asked;
* :meth:`deciding_frame` is the frame that answers now: the top of the stack in Tzolk'in;
  in Tikal, with the stack empty, the phase's frame (Round Management, the action phase's
  turn step), kept off the stack so that what the stack shows stays as it was;
* :meth:`_list_legal` works the legal list out (Tzolk'in's top frame, nothing resolved;
  Tikal's deciding frame);
* :meth:`_why_illegal`: the top frame's refusal; Tikal first checks hex names and asks its
  phases when the stack is empty;
* ``frames_mutable``: Tikal's frames change in place (an AP turn counts its points down),
  so each copy copies them; Tzolk'in's are frozen and a copy copies the list only;
* ``over_phase`` (the phase once the game is over) and ``game_over`` (the refusal then);
* :meth:`game_invariants`: each game's conservation laws.

Deliberately no ``__slots__`` and no native class (``@mypyc_attr(native_class=False)``): a
state is a plain object whose ``__dict__`` a copy duplicates in one C-level call.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar

from .compiling import mypyc_attr
from .errors import GameOver, IllegalAction, Refusal, refused
from .game import State, unwritable
from .rng import Rng


@mypyc_attr(native_class=False)
class FrameStackState(State):
    """A game state driven by a stack of decision frames (see the module's text).

    A subclass sets ``stack``, ``_legal``, ``rng`` and ``phase`` besides :class:`State`'s fields,
    declares its own fields in the four ``*_fields`` tuples, and fills the hooks
    :meth:`_list_legal` and :meth:`_advance` (and :meth:`game_invariants`).
    """

    #: fields of every frame-stack state, copied by reference (``_legal`` is replaced,
    #: never mutated; ``options`` is never mutated); ``stack`` and ``rng`` are copied by
    #: :meth:`clone` itself
    base_fields: ClassVar[tuple[str, ...]] = ("num_players", "seed", "options", "viewer", "rng",
                                               "stack", "_legal")
    #: the game's fields a copy shares: numbers, strings, tuples, frozensets, component
    #: data, and containers the game only ever replaces (list those in ``shared_on_clone``)
    shared_fields: ClassVar[tuple[str, ...]] = ()
    #: flat lists of immutable items (a copy takes ``list.copy()`` of each)
    list_fields: ClassVar[tuple[str, ...]] = ()
    #: lists of flat lists (per seat, per gear...): a copy copies each inner list
    nested_fields: ClassVar[tuple[str, ...]] = ()
    #: dicts whose values are flat lists (Tikal's ruin stacks, tile piles)
    dict_fields: ClassVar[tuple[str, ...]] = ()
    #: hook: whether frames change in place (then each copy copies every frame)
    frames_mutable: ClassVar[bool] = False
    #: the refusal of any action once the game is over (:meth:`_why_illegal`)
    game_over: ClassVar[Refusal] = ("end of game", "the game is over")
    #: hook: the value of ``phase`` once the game is over, and only then (``current_player``
    #: is None exactly then: :meth:`invariants` checks it); the rollout loop reads it
    over_phase: ClassVar[int] = -1

    stack: list[Any]
    _legal: list[Any] | None
    rng: Rng
    phase: int

    # --- the declared fields ---------------------------------------------------------------
    @classmethod
    def declared_fields(cls) -> frozenset[str]:
        """Every attribute a state of this class may hold."""
        return frozenset(cls.base_fields + cls.shared_fields + cls.list_fields + cls.nested_fields
                         + cls.dict_fields)

    def undeclared_fields(self) -> list[str]:
        """Problems with the declared field list: attributes the class does not declare
        (a clone would share them) and declared ones the state lacks."""
        declared = self.declared_fields()
        present = set(vars(self))
        problems = [f"field {name!r} is not declared in {type(self).__name__}'s field lists "
                    "(clone() would share it)" for name in sorted(present - declared)]
        problems += [f"declared field {name!r} is missing" for name in sorted(declared - present)]
        return problems

    # --- the frame stack ---------------------------------------------------------------------
    @property
    def pending(self) -> Any:
        """The open frame (the top of the stack), or None."""
        return self.stack[-1] if self.stack else None

    def deciding_frame(self) -> Any:
        """Hook: the frame that answers now: the top of the stack, or the frame under it.
        Default: the top (Tzolk'in's turns are frames on the stack; None once the game is
        over). Tikal answers with its phase's frame when the stack is empty (Round
        Management, the action phase's turn step), a frame kept off the stack so that what
        the stack shows is unchanged."""
        return self.stack[-1] if self.stack else None

    # --- actions -------------------------------------------------------------------------------
    def _list_legal(self) -> list[Any]:
        """Hook: the legal actions now, worked out (a new list; empty when the game is over)."""
        raise NotImplementedError

    def _advance(self, action: Any) -> None:
        """Hook: play a legal action (the top frame's transition and what follows without a
        decision) and leave ``_legal`` right: the next legal list (Tzolk'in settles it at
        once) or ``None`` (Tikal works it out when asked). :meth:`apply_unchecked` *is* this
        method (see :meth:`__init_subclass__`)."""
        raise NotImplementedError

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A class that fills :meth:`_advance` gets it as its ``apply_unchecked`` and
        ``_apply`` too: a search's hottest call stays one call, not a call of a call."""
        super().__init_subclass__(**kwargs)
        advance = vars(cls).get("_advance")
        if advance is not None:
            setattr(cls, "apply_unchecked", advance)
            setattr(cls, "_apply", advance)

    def legal_actions(self) -> list[Any]:
        """The legal actions, a new list (the cache is shared by clones and views)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._list_legal()
        return legal[:]

    def legal_cached(self) -> list[Any]:
        """The legal actions without copying the cached list (do not mutate it)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._list_legal()
        return legal

    def apply(self, action: Any) -> None:
        """Apply ``action`` for the current player; an illegal one raises the
        :class:`IllegalAction` of :meth:`explain_illegal` and leaves the state unchanged."""
        if self.current_player is None:
            raise GameOver(action)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._list_legal()
        if action not in legal:
            raise self.explain_illegal(action)
        self._advance(action)

    def _apply(self, action: Any) -> None:
        self._advance(action)

    def apply_unchecked(self, action: Any) -> None:
        """Apply an action known to be legal (taken from :meth:`legal_actions`): the game's
        :meth:`_advance` (a subclass gets it under this name)."""
        self._advance(action)

    def playout(self, rand: Callable[[], float], plies: int) -> int:
        """Up to ``plies`` uniformly random decisions (``rand``: floats in [0, 1); each
        picks ``legal[int(rand() * len(legal))]``) as a search's rollout makes them with
        :meth:`legal_cached` and :meth:`apply_unchecked`, here inlined (the same moves);
        returns the decisions made (fewer when the game ends, or has no legal action)."""
        advance, list_legal, over = self._advance, self._list_legal, self.over_phase
        for done in range(plies):
            if self.phase == over:     # current_player is None (checked by invariants())
                return done
            legal = self._legal
            if legal is None:
                legal = self._legal = list_legal()
            if not legal:
                return done            # an engine bug: the caller reports it
            advance(legal[int(rand() * len(legal))])
        return plies

    def explain_illegal(self, action: Any) -> IllegalAction:
        """Why ``action`` is not legal now: an action no notation writes first
        (:func:`~mayagames.core.game.unwritable`), else :meth:`_why_illegal`."""
        bad = unwritable(self, action)
        if bad is not None:
            return bad
        return self._why_illegal(action)

    def _why_illegal(self, action: Any) -> IllegalAction:
        """Hook: the refusal of the top frame (``game_over`` once the game is over)."""
        if self.current_player is None or not self.stack:
            return refused(self.game_over, action)
        return self.stack[-1].why_illegal(self, action)

    # --- copies --------------------------------------------------------------------------------
    def clone(self) -> Any:
        """An independent copy, taken field by field as the field lists declare."""
        cls = type(self)
        c = cls.__new__(cls)
        d, mine = c.__dict__, self.__dict__
        d.update(mine)                 # what is shared, and every field to be replaced below
        lists = cls.list_fields        # the flat lists, copied in one pass of C-level calls
        d.update(zip(lists, map(list.copy, map(mine.__getitem__, lists))))
        for name in cls.nested_fields:
            d[name] = list(map(list.copy, mine[name]))
        for name in cls.dict_fields:
            d[name] = {key: items[:] for key, items in mine[name].items()}
        stack = self.stack
        d["stack"] = [frame.copy() for frame in stack] if cls.frames_mutable else stack[:]
        d["rng"] = self.rng.copy()
        return c

    # --- checks --------------------------------------------------------------------------------
    def invariants(self) -> list[str]:
        """The declared field list checked (:meth:`undeclared_fields`), then the game's
        conservation laws (:meth:`game_invariants`)."""
        problems = self.undeclared_fields()
        if (self.phase == self.over_phase) != (self.current_player is None):
            problems.append(f"phase {self.phase} and current player {self.current_player} disagree on "
                            "whether the game is over")
        return problems + self.game_invariants()

    def game_invariants(self) -> list[str]:
        """Hook: the game's broken conservation laws (empty when all is well)."""
        return []

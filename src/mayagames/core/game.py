"""The protocol every game implements.

A game is a :class:`GameInfo` (metadata as data, registered by name) and a
:class:`State` subclass. A state is mutable data; rules are its methods. A game
is played by asking the state for :meth:`State.legal_actions` and feeding one to
:meth:`State.apply` until :attr:`State.is_terminal`.

The core enforces the common checks (game over, illegal action) in
:meth:`State.apply`; each game fills the hooks ``_legal_actions``, ``_apply`` and
``explain_illegal``.

A search (MCTS, the heuristic's look-through) plays many moves it already knows to be
legal through three more declared methods, each with a plain default a game may replace
by a faster one that makes the same moves: :meth:`State.legal_cached` (the legal list,
not copied), :meth:`State.apply_unchecked` (no legality check) and
:meth:`State.playout` (uniformly random moves for a number of plies).

Hidden information is one projection: :meth:`State.view` returns a *redacted*
state for one seat (face-down tokens, deck and bag order, others' secret choices
and the random generator are replaced by canonical placeholders), and
:meth:`State.determinize` turns such a view back into a full state by sampling
the hidden parts consistently. An agent, a client or an observation encoder
only ever gets a view.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, replace
from typing import Any, Callable, ClassVar, Hashable, Mapping, Protocol, Sequence

from .errors import GameOver, IllegalAction, OptionError
from .rng import Rng


class Action(Hashable, Protocol):
    """An action: an immutable, hashable value whose ``str()`` is its notation.

    Each game provides ``parse_action(text)`` with ``parse_action(str(a)) == a``.
    """

    def __str__(self) -> str: ...


@dataclass(frozen=True)
class OptionSpec:
    """One named game option: its default, allowed values and documentation."""

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    # Plain-language texts a player reads (the lobby, ``GET /api/games``): a short label,
    # a one-line explanation and a label per choice (``str(choice)`` -> words).
    label: str = ""
    explain: str = ""
    choice_labels: Mapping[str, str] = field(default_factory=dict)

    def describe(self) -> dict[str, Any]:
        """The option for a player: label, one-line explanation, each choice in words."""
        choices = list(self.choices) if self.choices is not None else []
        return {"name": self.name, "label": self.label or self.name.replace("_", " ").capitalize(),
                "explain": self.explain or self.doc, "default": self.default,
                "choices": [{"value": c, "label": self.choice_labels.get(str(c), str(c))}
                            for c in choices]}

    def check(self, value: Any) -> Any:
        if self.choices is not None and value not in self.choices:
            raise OptionError(
                f"option {self.name!r} must be one of {list(self.choices)}, got {value!r}"
            )
        if self.choices is None and self.default is not None and not isinstance(
            value, type(self.default)
        ):
            raise OptionError(
                f"option {self.name!r} must be a {type(self.default).__name__}, got {value!r}"
            )
        return value


# --- narration: a move as a sentence, and the game's own events ------------------------
SEAT_PLACEHOLDER = re.compile(r"\{seat:(\d+)\}")


def seat_ref(seat: int) -> str:
    """The placeholder a narration writes for a player: ``{seat:N}`` (filled by :func:`fill_names`)."""
    return f"{{seat:{seat}}}"


def fill_names(text: str, names: "Sequence[str] | None" = None) -> str:
    """Replace each ``{seat:N}`` by ``names[N]`` (default ``Player N+1``)."""
    def name(m: "re.Match[str]") -> str:
        seat = int(m.group(1))
        if names is not None and 0 <= seat < len(names) and names[seat]:
            return str(names[seat])
        return f"Player {seat + 1}"
    return SEAT_PLACEHOLDER.sub(name, text) if "{seat:" in text else text


@dataclass(frozen=True)
class GameEvent:
    """Something the game itself does (a round starts, a scoring, a Food Day...).

    ``kind`` is one of ``round``, ``scoring``, ``food_day``, ``age``, ``final_scoring``,
    ``game_over``; ``table`` an optional breakdown ``{"title", "columns", "rows"}``.
    """

    kind: str
    text: str
    table: dict[str, Any] | None = None

    def with_names(self, names: "Sequence[str] | None") -> "GameEvent":
        table = None
        if self.table is not None:
            table = {"title": fill_names(self.table["title"], names),
                     "columns": [fill_names(str(c), names) for c in self.table["columns"]],
                     "rows": [[fill_names(c, names) if isinstance(c, str) else c for c in row]
                              for row in self.table["rows"]]}
        return GameEvent(self.kind, fill_names(self.text, names), table)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "text": self.text}
        if self.table is not None:
            data["table"] = self.table
        return data


@dataclass(frozen=True)
class Narration:
    """A move told as a sentence for one viewer, the events it triggered and the places it touched.

    Players are written ``{seat:N}`` (:func:`seat_ref`); :meth:`with_names` fills them in.
    ``minor``: a sub-decision of a compound turn whose sentence the next step completes
    (a client may fold it into the following entry of the same turn).
    """

    text: str
    events: tuple[GameEvent, ...] = ()
    places: tuple[str, ...] = ()
    minor: bool = False

    def with_names(self, names: "Sequence[str] | None") -> "Narration":
        return replace(self, text=fill_names(self.text, names),
                       events=tuple(e.with_names(names) for e in self.events))


def default_narration(before: "State", action: "Action", after: "State",
                      viewer: int | None) -> Narration:
    """The fallback narration: ``{seat:N}: <public notation>``."""
    seat = before.current_player
    who = seat_ref(seat) if seat is not None else "?"
    return Narration(f"{who}: {before.public_notation(action, viewer)}")


@dataclass(frozen=True)
class Lazy:
    """A reference ``"package.module:attribute"`` imported on first :meth:`load`.

    A game names its heavier parts this way (an RL encoding needs NumPy, a catalogue
    reads every data file), so importing the game stays cheap and a part is loaded only
    by the layer that uses it. Being a string, the reference adds no import edge.
    """

    path: str

    def load(self) -> Any:
        import importlib

        module, _, attribute = self.path.partition(":")
        return getattr(importlib.import_module(module), attribute)


def resolve(part: Any) -> Any:
    """A plug-in part itself: ``Lazy`` references are loaded, anything else returned."""
    return part.load() if isinstance(part, Lazy) else part


@dataclass(frozen=True)
class GamePlugin:
    """Everything the layers outside a game (bots, arena, server, web, RL, terminal) get
    from it, as typed fields: they import no module of the game.

    Each function field holds the function or a :class:`Lazy` reference to it (read
    through :meth:`part`); ``None`` means the game has no such part and each layer
    falls back as documented.
    """

    #: (state or view) -> every seat's estimated *final* score (bots); must not need
    #: hidden information. Fallback: the running scores.
    estimate_scores: "Callable[[State], list[float]] | Lazy | None" = None
    #: other estimates a bot may be told to use by name (``heuristic:eval=v1``,
    #: ``mcts:1s,eval=v1``): earlier versions kept as baselines for strength matches
    estimate_variants: "dict[str, Callable[[State], list[float]] | Lazy]" = field(default_factory=dict)
    #: a typical decisive score difference (MCTS turns estimates into win chances with it)
    score_scale: float = 5.0
    #: (estimate name or None, players, stage) -> the factor the game review multiplies the
    #: log-odds of its win chances by, fitted so that they come out calibrated (1: as the
    #: search gives them); ``stage`` is ``review_stage``'s
    review_sharpness: "Callable[[str | None, int, int], float] | Lazy | None" = None
    #: (view) -> the stage of the game the review's calibration is fitted by (Tzolk'in: the
    #: Food Days held, 0-3). Fallback: 0
    review_stage: "Callable[[State], int] | Lazy | None" = None
    #: own consecutive decisions the heuristic bot looks through (1: one-ply greedy)
    greedy_depth: int = 1
    #: whether the estimate reads only public information (a bot may skip building views)
    public_estimate: bool = False
    #: whether every action whose result depends on hidden parts or chance says so in
    #: ``State.reveals_information`` (a bot may then value a non-revealing action once)
    chance_is_revealed: bool = False
    #: (final state) -> per seat, categorical features (str or list of str) for balance reports
    seat_features: "Callable[[State], list[dict[str, Any]]] | Lazy | None" = None
    #: (state) -> the question the current player is asked now (terminal)
    prompt: "Callable[[State], str] | Lazy | None" = None
    #: (view, seat) -> what each option of the pending decision gives (terminal, Rich markup)
    details: "Callable[[State, int | None], str] | Lazy | None" = None
    #: () -> what every component id means, in words (``GET /api/games/NAME/catalogue``)
    catalogue: "Callable[[], dict[str, Any]] | Lazy | None" = None
    #: the RL encoding (a ``mayagames.rl.encoding.GameEncoding``), usually a Lazy reference
    encoding: "Any | Lazy | None" = None
    #: (view, legal) -> the moves a careful beginner would consider (the ``easy`` bot's guard rails)
    sensible_actions: "Callable[[State, Any], list[Any]] | Lazy | None" = None
    #: (a view's ``to_dict()``) -> the part of it a table shows now (a hot-seat device is
    #: passed only when this differs from a spectator's). Fallback: the whole view.
    shown_view: "Callable[[dict[str, Any]], dict[str, Any]] | Lazy | None" = None
    #: (view, action) -> what ``action`` also does at once, a choice with one option left
    #: that spends goods, as ``{"text", "places"}`` (the table asks to confirm it), or None
    settled_choice: "Callable[[State, Any], dict[str, Any] | None] | Lazy | None" = None

    def part(self, name: str) -> Any:
        """The field ``name``, a Lazy reference loaded."""
        return resolve(getattr(self, name))


@dataclass(frozen=True)
class GameInfo:
    """A game's metadata, as data. Registered by :func:`mayagames.core.registry.register`."""

    name: str
    title: str
    version: str
    min_players: int
    max_players: int
    new_game: Callable[..., "State"]
    parse_action: Callable[[str], Action]
    render: Callable[["State", int | None], str]
    options: tuple[OptionSpec, ...] = ()
    #: every class of the game's actions; each declares its wire name ``KIND`` (see
    #: :func:`action_kind`), what clients read as an action's ``kind``
    actions: tuple[type, ...] = ()
    max_decisions: int = 100_000
    doc: str = ""
    #: what the outer layers get from the game (estimate, catalogue, encoding, ...)
    plugin: GamePlugin = field(default_factory=GamePlugin)
    # (before, action, after, viewer) -> Narration; see :meth:`narrate`
    narrator: Callable[["State", Action, "State", int | None], Narration] | None = None
    rules_page: str = ""  # Markdown rules page in our own words (served at /rules/NAME)

    def narrate(self, before: "State", action: Action, after: "State",
                viewer: int | None) -> Narration:
        """``action`` (played by ``before.current_player``, giving ``after``) told to ``viewer``.

        ``viewer`` None is a spectator. The narration never reveals what ``viewer`` may
        not see; without a game narrator it is the public notation.
        """
        if self.narrator is None:
            return default_narration(before, action, after, viewer)
        return self.narrator(before, action, after, viewer)

    def resolve_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults merged with ``options``; unknown names or bad values raise OptionError."""
        given = dict(options or {})
        specs = {spec.name: spec for spec in self.options}
        unknown = sorted(set(given) - set(specs))
        if unknown:
            raise OptionError(
                f"unknown option(s) {unknown} for {self.name}; known: {sorted(specs)}"
            )
        return {name: spec.check(given.get(name, spec.default)) for name, spec in specs.items()}

    def check_players(self, num_players: int) -> None:
        if not self.min_players <= num_players <= self.max_players:
            raise OptionError(
                f"{self.title} is for {self.min_players}-{self.max_players} players, "
                f"not {num_players}"
            )


class State(ABC):
    """Base class of every game state.

    Concrete states must set ``num_players``, ``seed``, ``options`` and ``viewer``
    (``None`` for the true state, a seat number for a view) and implement the
    abstract hooks. Seats are ``0 .. num_players-1``.
    """

    info: ClassVar[GameInfo]
    #: Attributes a clone or view may share with its original because nothing ever
    #: mutates them in place (the conformance suite flags any other shared container).
    shared_on_clone: ClassVar[tuple[str, ...]] = ("options",)
    num_players: int
    seed: int
    options: Mapping[str, Any]
    viewer: int | None

    # --- whose turn -----------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat to decide now, or ``None`` when the game is over."""

    @property
    def is_terminal(self) -> bool:
        return self.current_player is None

    # --- actions --------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """The legal actions of the current player (empty at terminal)."""

    def legal_cached(self) -> list[Action]:
        """The legal actions as the state keeps them, not a copy: the caller only reads it.

        Default: :meth:`legal_actions`. A game that caches its legal list returns the
        cache itself (a search reads it at every step).
        """
        return self.legal_actions()

    def apply(self, action: Action) -> None:
        """Apply ``action`` for the current player.

        Raises :class:`IllegalAction` naming the rule if the rules forbid it; the
        state is then unchanged.
        """
        if self.current_player is None:
            raise GameOver(action)
        if action not in self.legal_cached():
            raise self.explain_illegal(action)
        self._apply(action)

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal (taken from :meth:`legal_actions`).

        Default: the hook :meth:`_apply`. A game may replace it by a faster path that
        leaves the same state.
        """
        self._apply(action)

    def playout(self, rand: Callable[[], float], plies: int) -> int:
        """Up to ``plies`` uniformly random decisions; returns the decisions made.

        ``rand`` gives floats in [0, 1); each decision is
        ``legal[int(rand() * len(legal))]`` of :meth:`legal_cached`, applied by
        :meth:`apply_unchecked` (one draw per decision). Fewer decisions are made when
        the game ends, or when no action is legal (a bug in the game: the caller reports
        it). A game may replace this by its own loop making the same moves with the same
        draws (a search's rollouts spend most of their time here).
        """
        legal_of, apply = self.legal_cached, self.apply_unchecked
        for done in range(plies):
            if self.current_player is None:
                return done
            legal = legal_of()
            if not legal:
                return done
            apply(legal[int(rand() * len(legal))])
        return plies

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Game hook: perform a legal action (and any chance it triggers)."""

    def explain_illegal(self, action: Action) -> IllegalAction:
        """Game hook: the :class:`IllegalAction` saying which rule forbids ``action``.

        Only called when ``action`` is not legal. The default names no rule; games
        override it to cite the rule.
        """
        return IllegalAction("legal actions", "not one of the legal actions now", action)

    def parse_action(self, text: str) -> Action:
        """Parse an action's notation (see ``info.parse_action``)."""
        return self.info.parse_action(text)

    # --- outcome ----------------------------------------------------------
    @abstractmethod
    def scores(self) -> list[float]:
        """Each seat's score (final when terminal, running otherwise)."""

    def winners(self) -> list[int]:
        """Seats that win (several on a shared victory). Games add tie-breaks."""
        scores = self.scores()
        best = max(scores)
        return [seat for seat, score in enumerate(scores) if score == best]

    def returns(self) -> list[float]:
        """Terminal utility per seat: 1 split among winners, 0 for the rest."""
        if not self.is_terminal:
            return [0.0] * self.num_players
        won = self.winners()
        return [1.0 / len(won) if seat in won else 0.0 for seat in range(self.num_players)]

    # --- copies and hidden information -------------------------------------
    @abstractmethod
    def clone(self) -> "State":
        """An independent copy (mutating one never changes the other)."""

    @abstractmethod
    def view(self, seat: int | None) -> "State":
        """What ``seat`` may know, as a redacted state (``None``: a spectator).

        A view carries neither the true generator nor the seed (``seed == 0``):
        either would regenerate every hidden shuffle.
        """

    @abstractmethod
    def determinize(self, rng: Rng) -> "State":
        """A full state consistent with this view, hidden parts sampled from ``rng``.

        Called on a view; on a true state it returns a clone with a fresh generator.
        """

    def determinizer(self) -> "Callable[[Rng], State]":
        """``determinize`` of this view as a function of the generator, for callers that
        sample many worlds of one view (a search): a game may work out once what is
        unseen and only shuffle it per call. Each call must equal ``determinize(rng)``
        (the same world, the same draws from ``rng``)."""
        return self.determinize

    def search_determinizer(self) -> "Callable[[Rng], State]":
        """:meth:`determinizer` for a search, which only plays its worlds (MCTS): a game
        may leave hidden parts unshuffled until a rule first reads them, if it then shuffles
        them with the draws they would have had. The generator must end each call where
        ``determinize`` leaves it, and every world must play and show as that one would.
        Default: :meth:`determinizer`."""
        return self.determinizer()

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description of this state (of the view, for a view)."""

    def reveals_information(self, action: Action) -> bool:
        """Whether applying ``action`` involves chance or shows something hidden.

        The server forbids undoing past such an action. Default: conservative True.
        """
        return True

    def revealed_by(self, action: Action, after: "State") -> bool:
        """:meth:`reveals_information` of ``action`` when the caller has already applied it
        (``after``: a copy of this state with ``action`` applied); a game may answer from
        the two states instead of applying the action once more (bots' look-through)."""
        return self.reveals_information(action)

    def public_notation(self, action: Action, seat: int | None) -> str:
        """How ``action`` (by the current player) is shown to ``seat`` in a log.

        Games hide secret choices (e.g. a start-tile draft pick) from other seats.
        """
        return str(action)

    def invariants(self) -> list[str]:
        """Game hook: broken conservation laws (empty when all is well)."""
        return []

    def render(self, seat: int | None = None) -> str:
        """A readable text picture of what ``seat`` may see."""
        return self.info.render(self.view(seat) if self.viewer is None else self, seat)


def unwritable(state: "State", action: Action) -> IllegalAction | None:
    """An :class:`IllegalAction` for an action that no notation writes (a field outside
    the game's vocabulary, e.g. a gear that does not exist), or None.

    Every legal action round-trips through its notation, so such an action is illegal
    in every position; games call this before asking their rules why an action is not
    legal now, so the rules never see a value they do not know.
    """
    from .errors import NotationError

    text = str(action)
    try:
        back = state.info.parse_action(text)
    except NotationError as exc:
        return IllegalAction("notation", f"{text!r} is not an action of {state.info.title}: {exc}", action)
    if back != action:
        return IllegalAction("notation", f"{action!r} is not written {text!r}", action)
    return None


def new_state(info: GameInfo, num_players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
    """Create a game after checking the player count and options."""
    info.check_players(num_players)
    resolved = info.resolve_options(options)
    return info.new_game(num_players=num_players, seed=seed, options=resolved)


def random_playout(state: State, rng: Rng, max_decisions: int | None = None) -> int:
    """Play uniformly random legal actions to the end; returns decisions made."""
    limit = max_decisions or state.info.max_decisions
    n = 0
    while state.current_player is not None:
        legal = state.legal_actions()
        state.apply_unchecked(legal[rng.randbelow(len(legal))])
        n += 1
        if n > limit:
            raise RuntimeError(f"{state.info.name}: no end after {limit} decisions")
    return n


def action_kind(action: Action) -> str:
    """The wire name of an action: the ``KIND`` its own class declares.

    Clients switch on it (``kind === "Deploy"``), so it is declared, never derived from
    the class name, and never inherited: a subclass that declares none is an error.

    >>> from mayagames.core.toy import Swap
    >>> action_kind(Swap(3))
    'Swap'
    """
    cls = type(action)
    kind = own_kind(cls)
    if kind is None:
        raise TypeError(f"{cls.__module__}.{cls.__qualname__} declares no wire name: "
                        "give the class its own KIND: ClassVar[str]")
    return kind


def own_kind(cls: type) -> str | None:
    """The ``KIND`` declared by ``cls`` itself (one inherited does not count), or None."""
    kind = vars(cls).get("KIND")
    return kind if isinstance(kind, str) and kind else None


def declared_kinds(info: GameInfo) -> dict[str, type]:
    """The game's action kinds, wire name -> class, checked: every class in
    ``info.actions`` declares its own ``KIND`` and no two declare the same one."""
    kinds: dict[str, type] = {}
    for cls in info.actions:
        kind = own_kind(cls)
        if kind is None:
            raise TypeError(f"{info.name}: action class {cls.__qualname__} declares no KIND")
        if kind in kinds:
            raise TypeError(f"{info.name}: {cls.__qualname__} and {kinds[kind].__qualname__} "
                            f"both declare the kind {kind!r}")
        kinds[kind] = cls
    return kinds


def action_to_dict(action: Action) -> dict[str, Any]:
    """A JSON-ready description of an action: its declared kind, its fields and its notation.

    Works for dataclass and NamedTuple actions; clients use it to highlight the
    board targets of each legal action (the schema: ``docs/wire-schema.json``).
    """
    from dataclasses import fields, is_dataclass

    if is_dataclass(action):
        data = {f.name: getattr(action, f.name) for f in fields(action)}
    elif hasattr(action, "_asdict"):
        data = dict(action._asdict())  # type: ignore[attr-defined]
    else:
        data = {}
    return {"kind": action_kind(action), **data, "text": str(action)}

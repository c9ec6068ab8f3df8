"""Integer actions and observation tensors: the per-game encoding contract.

A game becomes an RL environment through one module of its own package
(``mayagames.<game>.encoding``, named by ``GamePlugin.encoding``) that defines a
:class:`GameEncoding`: an :class:`ActionCodec` (a fixed integer action
space per player count, with encode/decode between integers and the engine's
actions) and an :class:`ObservationEncoder` (a flat ``float32`` tensor with a
documented :class:`Layout`, built from one seat's *view* only). The environments
in :mod:`mayagames.rl` know nothing else about a game.

>>> enc = get_encoding("toy")
>>> codec, observer = enc.codec(2), enc.observer(2)
>>> codec.size, observer.layout.size
(18, 44)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from itertools import compress, count
from operator import is_not, ne
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ..core.errors import IllegalAction, OptionError
from ..core.game import Action, State
from ..core.registry import all_game_names, get_game



class EncodingError(ValueError):
    """An encoding that breaks its contract (two legal actions on one integer, a
    value outside its documented bounds, an observation asked of a true state)."""


# --- observation layout ------------------------------------------------------


@dataclass(frozen=True)
class Field:
    """A named block of the observation vector, with its bounds and meaning."""

    name: str
    size: int
    doc: str
    low: float = 0.0
    high: float = 1.0


class Layout:
    """The documented layout of a flat observation vector: named fields in order.

    >>> lay = Layout([Field("a", 2, "two things"), Field("b", 1, "one thing")])
    >>> lay.size, lay.slice("b")
    (3, slice(2, 3, None))
    """

    def __init__(self, fields: Sequence[Field]) -> None:
        self.fields = tuple(fields)
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            raise EncodingError(f"duplicate field names in layout: {names}")
        self._slices: dict[str, slice] = {}
        start = 0
        for f in self.fields:
            self._slices[f.name] = slice(start, start + f.size)
            start += f.size
        self.size = start
        #: where each field starts (encoders writing items by index read it)
        self.offsets: dict[str, int] = {name: s.start for name, s in self._slices.items()}

    def slice(self, name: str) -> slice:
        return self._slices[name]

    def zeros(self) -> np.ndarray:
        return np.zeros(self.size, dtype=np.float32)

    def low(self) -> np.ndarray:
        return np.concatenate([np.full(f.size, f.low, np.float32) for f in self.fields])

    def high(self) -> np.ndarray:
        return np.concatenate([np.full(f.size, f.high, np.float32) for f in self.fields])

    def put(self, obs: np.ndarray, name: str, values: float | Sequence[float] | np.ndarray) -> None:
        """Write a field (a scalar fills the whole field)."""
        obs[self._slices[name]] = values

    def split(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """An observation cut into its named fields (for reading and debugging)."""
        return {name: obs[s] for name, s in self._slices.items()}

    def markdown(self) -> str:
        """The layout as a Markdown table (used in docs/rl.md)."""
        rows = ["| offset | size | field | range | meaning |", "|---:|---:|---|---|---|"]
        for f in self.fields:
            s = self._slices[f.name]
            rows.append(f"| {s.start} | {f.size} | `{f.name}` | [{f.low:g}, {f.high:g}] | {f.doc} |")
        return "\n".join(rows)


# --- the two halves of an encoding ---------------------------------------------


class ActionCodec(ABC):
    """A fixed integer action space for one game and player count.

    ``encode`` maps an action (legal in the given view) to ``0 .. size-1``;
    ``decode`` maps an integer back to the action it stands for in that view.
    The view is the *current player's* view: a codec may use it to give indices
    a meaning relative to the position, and must never need more.
    """

    def __init__(self, num_players: int) -> None:
        self.num_players = num_players

    @property
    @abstractmethod
    def size(self) -> int:
        """How many integers the action space has."""

    @abstractmethod
    def encode(self, action: Action, view: State) -> int:
        """The integer of ``action`` in ``view``."""

    @abstractmethod
    def decode(self, index: int, view: State) -> Action:
        """The action that ``index`` stands for in ``view`` (legal or not).

        Raises :class:`IllegalAction` if ``index`` means nothing in this view.
        """

    def label(self, index: int) -> str:
        """A short human description of an index, for documentation tables."""
        return str(index)

    def legal_index(self, view: State, legal: Sequence[Action]) -> dict[int, Action]:
        """Index -> action for the legal actions; refuses two actions on one index."""
        table: dict[int, Action] = {}
        for action in legal:
            index = self.encode(action, view)
            if not 0 <= index < self.size:
                raise EncodingError(f"{action} encodes to {index}, outside 0..{self.size - 1}")
            if index in table:
                raise EncodingError(f"{table[index]} and {action} both encode to {index}")
            table[index] = action
        return table

    #: the codec reads only public parts of a view (and the seat): :meth:`legal_index_seat`
    #: may be given the true state instead of the seat's view
    public = False

    def legal_index_seat(self, state: State, seat: int, legal: Sequence[Action]) -> dict[int, Action]:
        """:meth:`legal_index` for ``seat`` (the current player) in ``state``. A codec
        that declares ``public`` answers from the true state; otherwise the seat's view is
        built first."""
        return self.legal_index(state.view(seat), legal)

    def mask(self, table: Mapping[int, Action]) -> np.ndarray:
        """The 0/1 ``int8`` mask of the indices in ``table``."""
        mask = np.zeros(self.size, dtype=np.int8)
        mask[np.fromiter(table, np.intp, len(table))] = 1
        return mask

    def blocks(self) -> list[tuple[int, int, str]]:
        """The action space as ``(first, last, meaning)`` index ranges, for documentation.

        The default lists every index with its :meth:`label`; codecs with large
        spaces override it with a few ranges.
        """
        return [(i, i, f"`{self.label(i)}`") for i in range(self.size)]

    def markdown(self) -> str:
        """The action space as a Markdown table of index ranges (used in docs/rl.md)."""
        rows = ["| index | action |", "|---:|---|"]
        for first, last, meaning in self.blocks():
            rows.append(f"| {first}{'' if first == last else f'..{last}'} | {meaning} |")
        return "\n".join(rows)


class IdentityIndex:
    """Integer indices of action objects by identity. The engines intern their actions
    (a legal list holds the same objects again and again), and an identity look-up costs
    less than hashing a frozen dataclass by its fields. Every action remembered is held,
    so that its ``id`` cannot pass to another object while it is remembered; emptied when
    it holds ``limit`` actions (engines that make fresh objects cannot grow it without end).
    Only context-free indices may be remembered."""

    __slots__ = ("ids", "kept", "limit")

    def __init__(self, limit: int = 1 << 16) -> None:
        #: id(action) -> its index
        self.ids: dict[int, int] = {}
        #: the actions remembered (held alive)
        self.kept: list[object] = []
        self.limit: int = limit

    def remember(self, action: object, index: int) -> None:
        if len(self.kept) >= self.limit:
            self.ids.clear()
            self.kept.clear()
        self.ids[id(action)] = index
        self.kept.append(action)

    def table(self, legal: Sequence[Action],
              first: Callable[[Action], int | None]) -> dict[int, Action] | None:
        """The legal actions by index: by identity when remembered, else ``first(action)``
        (which remembers what may be remembered). ``None`` when an action has no index or two
        share one: the caller then asks :meth:`ActionCodec.legal_index` to name them."""
        ids = self.ids
        table: dict[int, Action] = {}
        for action in legal:
            index = ids.get(id(action))
            if index is None:
                index = first(action)
                if index is None:
                    return None
            table[index] = action
        return table if len(table) == len(legal) else None


class TableCodec(ActionCodec):
    """A context-free codec over an enumerated table of every action value of a game.

    Subclasses list the actions once (:meth:`enumerate_actions`), in a stable order
    built from the game's component data; index = position in the table.
    """

    def __init__(self, num_players: int) -> None:
        super().__init__(num_players)
        self.actions = tuple(self.enumerate_actions())
        self.index = {action: i for i, action in enumerate(self.actions)}
        if len(self.index) != len(self.actions):
            raise EncodingError("the action table lists an action twice")
        self.by_identity: IdentityIndex = IdentityIndex()

    @abstractmethod
    def enumerate_actions(self) -> Sequence[Action]:
        """Every action value the game can offer at this player count."""

    @property
    def size(self) -> int:
        return len(self.actions)

    def encode(self, action: Action, view: State) -> int:
        try:
            return self.index[action]
        except KeyError:
            raise EncodingError(f"{action!r} is not in the action table") from None

    public = True  # context-free: the view is not even read

    def legal_index_seat(self, state: State, seat: int, legal: Sequence[Action]) -> dict[int, Action]:
        return self.legal_index(state, legal)

    def legal_index(self, view: State, legal: Sequence[Action]) -> dict[int, Action]:
        """As :meth:`ActionCodec.legal_index`, with one look-up per action (by identity
        once an action object has been seen)."""
        table = self.by_identity.table(legal, self._first_index)
        return super().legal_index(view, legal) if table is None else table

    def _first_index(self, action: Action) -> int | None:
        """The table index of an action not yet seen by identity (remembered)."""
        index = self.index.get(action)
        if index is not None:
            self.by_identity.remember(action, index)
        return index

    def decode(self, index: int, view: State) -> Action:
        if not 0 <= index < len(self.actions):
            raise unknown_index(index, self)
        return self.actions[index]

    def label(self, index: int) -> str:
        return str(self.actions[index])

    def blocks(self) -> list[tuple[int, int, str]]:
        """Runs of one action type: ``(first, last, "`Kind`: first .. last")``."""
        out: list[tuple[int, int, str]] = []
        start = 0
        for i in range(1, len(self.actions) + 1):
            if i == len(self.actions) or type(self.actions[i]) is not type(self.actions[start]):
                first, last = self.actions[start], self.actions[i - 1]
                span = f"`{first}`" if i - 1 == start else f"`{first}` .. `{last}`"
                out.append((start, i - 1, f"{type(first).__name__}: {span}"))
                start = i
        return out


def scaled(value: float, top: float, low: float = 0.0) -> float:
    """``value / top`` clipped into ``[low, 1]`` (observation fields stay in their box)."""
    return min(max(value / top, low), 1.0)


def snapshot(key: object) -> object:
    """A copy of ``key`` that later changes of the lists in it cannot reach: a list is
    copied (a list of lists two levels deep: lists in a key hold one kind of item), a
    tuple rebuilt with its lists copied; other values are kept."""
    kind = type(key)
    if kind is list:
        return [x[:] for x in key] if key and type(key[0]) is list else key[:]
    if kind is tuple:
        return tuple([snapshot(x) if type(x) is list or type(x) is tuple else x for x in key])
    return key


#: how one item of a list is drawn: ``draw(i, value, at, val)`` appends its entries
ItemDraw = Callable[[int, Any, list[int], list[float]], None]


class Canvas:
    """One seat's observation kept between calls and updated field group by field group.

    Each group of observation fields is drawn with the inputs it reads. A group whose
    inputs equal those it was last drawn with is left as it is; a changed group clears the
    entries it wrote last time and writes its new ones. All writes of one update are
    collected as (offset, value) lists and written with one ``ndarray.put`` by
    :meth:`flush` (later entries win, so a cleared offset can be written again). Groups
    must write disjoint offsets (each owns its fields). A canvas made over a zero array
    draws every group on its first update (:meth:`ObservationEncoder.fill`).
    """

    __slots__ = ("obs", "keys", "spots", "at", "val")

    def __init__(self, obs: np.ndarray) -> None:
        self.obs = obs
        self.keys: dict[object, object] = {}  # group -> the inputs it was drawn with
        self.spots: dict[object, tuple[list[int], list[float]]] = {}  # group -> its entries
        self.at: list[int] = []  # pending writes (see flush)
        self.val: list[float] = []

    def group(self, name: object, key: object, draw: Callable[[list[int], list[float]], None]) -> None:
        """Draw group ``name`` (``draw`` appends its entries to the two lists it gets)
        unless its inputs ``key`` (plain values, lists and tuples of them, compared with
        ``==``) are those it was last drawn with."""
        keys = self.keys
        if name in keys and keys[name] == key:
            return
        self.redraw(name, draw)
        keys[name] = snapshot(key)  # after a draw that did not raise

    def changed(self, name: object, key: object) -> bool:
        """Whether ``key`` differs from the one last given under ``name`` (remembered now):
        a cheap test before drawing several groups that read parts of the same inputs."""
        keys = self.keys
        if name in keys and keys[name] == key:
            return False
        keys[name] = snapshot(key)
        return True

    def redraw(self, name: object, draw: Callable[[list[int], list[float]], None]) -> None:
        """Draw group ``name`` again; only entries that differ from the last drawing are
        written (for a group whose inputs change at nearly every call)."""
        at: list[int] = []
        val: list[float] = []
        draw(at, val)
        self.entries(name, (at, val))

    def entries(self, name: object, entries: tuple[list[int], list[float]]) -> None:
        """Set group ``name``'s entries to ``entries`` (offsets, values), made elsewhere
        (e.g. remembered by the encoder; kept, never changed): the last drawing's entries
        are cleared unless they are the same object or equal."""
        old = self.spots.get(name)
        if old is not None:
            if old is entries or old == entries:
                return
            self.at += old[0]
            self.val += [0.0] * len(old[0])
        self.at += entries[0]
        self.val += entries[1]
        self.spots[name] = entries

    def items(self, name: object, values: list, draw: ItemDraw, fixed: bool = False) -> None:
        """A group made of one entry set per item of the list ``values`` (items compared
        with ``==``; a list of lists is copied two levels deep):
        ``draw(i, value, at, val)`` appends item ``i``'s entries, a function of ``i`` and
        ``value`` alone. Only items whose value changed are drawn again; ``fixed``: an
        item's offsets do not depend on its value (each drawing overwrites the last), else
        the old entries are cleared first."""
        old = self.keys.get(name)
        if old == values:
            return
        self._draw_items(values, old, draw, fixed)
        self.keys[name] = snapshot(values)

    def item_lists(self, name: object, lists: tuple[list, ...], draws: Sequence[tuple[ItemDraw, bool]]) -> None:
        """Several lists, each drawn item by item as by :meth:`items` (``draws[j]``: the
        ``(draw, fixed)`` of ``lists[j]``), kept under one name: one comparison when none
        changed, and only the lists that changed are compared item by item."""
        old = self.keys.get(name)
        if old is None:
            for values, (draw, fixed) in zip(lists, draws):
                self._draw_items(values, None, draw, fixed)
            self.keys[name] = snapshot(lists)
        elif old != lists:
            kept = list(old)  # the unchanged lists' copies are kept
            for j in compress(count(), map(ne, lists, old)):
                draw, fixed = draws[j]
                self._draw_items(lists[j], old[j], draw, fixed)
                kept[j] = snapshot(lists[j])
            self.keys[name] = tuple(kept)

    def _draw_items(self, values: list, old: list | None, draw: ItemDraw, fixed: bool) -> None:
        """The entries of the items of ``values`` that differ from ``old`` (the list as last
        drawn; ``None``: nothing drawn yet)."""
        at, val = self.at, self.val
        if old is None or len(old) != len(values):
            if old is not None:
                self._clear_items(old, draw)
            for i, value in enumerate(values):
                draw(i, value, at, val)
            return
        # the changed items' indices, found without a Python step per item; compared by
        # identity (small integers are shared objects), an equal item that is another object
        # is drawn again, giving the same entries
        for i in compress(count(), map(is_not, values, old)):
            if not fixed:
                cleared: list[int] = []
                draw(i, old[i], cleared, [])
                at += cleared
                val += [0.0] * len(cleared)
            draw(i, values[i], at, val)

    def _clear_items(self, old: list, draw: ItemDraw) -> None:
        cleared: list[int] = []
        for i, value in enumerate(old):
            draw(i, value, cleared, [])
        self.at += cleared
        self.val += [0.0] * len(cleared)

    def flush(self) -> np.ndarray:
        """Write the pending entries; the observation array."""
        if self.at:
            self.obs.put(self.at, self.val)
            self.at, self.val = [], []
        return self.obs


class ObservationEncoder(ABC):
    """A flat ``float32`` observation of one seat, of what that seat may see (its view)."""

    def __init__(self, num_players: int) -> None:
        self.num_players = num_players
        self.layout = self.build_layout()

    @abstractmethod
    def build_layout(self) -> Layout:
        """The layout for ``self.num_players`` seats."""

    @abstractmethod
    def fill(self, view: State, obs: np.ndarray) -> None:
        """Write the fields of ``view`` (seen by ``view.viewer``) into ``obs``."""

    #: the observation reads only what every seat sees (hidden lists by their lengths, a
    #: seat's secrets only for that seat): :meth:`observe_seat` may be given the true state,
    #: and gives the same observation as the seat's view, bit for bit (tested per game)
    public = False

    def observe_seat(self, state: State, seat: int) -> np.ndarray:
        """``seat``'s observation of ``state``. An encoder that declares ``public`` reads
        the state itself; otherwise the seat's view is built first."""
        return self.observe(state.view(seat))

    def observe(self, view: State) -> np.ndarray:
        """The observation of ``view.viewer``; a true state (no viewer) is refused."""
        if view.viewer is None:
            raise EncodingError("observations are built from a seat's view; got a true state "
                                "(pass state.view(seat))")
        obs = self.layout.zeros()
        self.fill(view, obs)
        return obs

    def relative(self, seat: int, viewer: int) -> int:
        """Seat numbered from the viewer: 0 is the viewer, 1 the next seat in turn order."""
        return (seat - viewer) % self.num_players


class CanvasEncoder(ObservationEncoder):
    """An encoder that keeps each seat's last observation on a :class:`Canvas` and redraws
    only the field groups whose inputs changed (:meth:`paint`). It reads only what the seat
    may see, so it is ``public``: given the true state, it needs no view copy."""

    public = True

    def __init__(self, num_players: int) -> None:
        super().__init__(num_players)
        self._canvases: dict[int, Canvas] = {}

    @abstractmethod
    def paint(self, state: State, seat: int, canvas: Canvas) -> None:
        """Draw every field group of ``state`` as ``seat`` sees it on ``canvas``, each
        keyed by what it reads (an unchanged group costs one comparison)."""

    def fill(self, view: State, obs: np.ndarray) -> None:
        """Every field of ``view`` into ``obs`` (all zeros)."""
        assert view.viewer is not None
        canvas = Canvas(obs)
        self.paint(view, view.viewer, canvas)
        canvas.flush()

    def observe(self, view: State) -> np.ndarray:
        if view.viewer is None:
            return super().observe(view)  # refused there
        return self.observe_seat(view, view.viewer)

    def observe_seat(self, state: State, seat: int) -> np.ndarray:
        """``seat``'s observation of ``state`` (a true state or any seat's view): the
        seat's last observation with the changed groups drawn again, copied out."""
        canvas = self._canvases.get(seat)
        if canvas is None:
            canvas = self._canvases[seat] = Canvas(self.layout.zeros())
        self.paint(state, seat, canvas)
        return canvas.flush().copy()


@dataclass(frozen=True)
class GameEncoding:
    """Everything the RL environments need to know about one game."""

    game: str
    codec: type[ActionCodec]
    observer: type[ObservationEncoder]
    score_scale: float
    doc: str = ""


# --- registry --------------------------------------------------------------------

_ENCODINGS: dict[str, GameEncoding] = {}


def register_encoding(encoding: GameEncoding) -> GameEncoding:
    """Register a game's encoding by game name (done on import of its module)."""
    _ENCODINGS[encoding.game] = encoding
    return encoding


def encoded_games() -> list[str]:
    """Games whose plug-in names an encoding (``GamePlugin.encoding``), and any
    registered with :func:`register_encoding`."""
    found = {name for name in all_game_names() if get_game(name).plugin.encoding is not None}
    return sorted(found | set(_ENCODINGS))


def get_encoding(game: str) -> GameEncoding:
    """The encoding of ``game``: its plug-in's ``encoding`` (loaded on first use)."""
    key = game.strip().lower()
    if key not in _ENCODINGS and key in encoded_games():
        register_encoding(get_game(key).plugin.part("encoding"))
    if key not in _ENCODINGS:
        raise OptionError(f"no RL encoding for game {game!r}; encoded games: {encoded_games()}")
    return _ENCODINGS[key]


def unknown_index(index: int, codec: ActionCodec) -> IllegalAction:
    """The error for an integer that stands for no action in the current position."""
    return IllegalAction("action mask", f"index {index} stands for no action here "
                         f"(action space 0..{codec.size - 1})")

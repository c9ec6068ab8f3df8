"""Seeded, explicit chance.

Every shuffle and draw of a game comes from the state's own :class:`Rng`, so that
``(seed, options, actions)`` replays the same game bit for bit on any Python
version. The generator is SplitMix64: its whole state is one 64-bit integer, so a
copy (for :meth:`State.clone`) costs nothing.

>>> r = Rng(42)
>>> [r.randbelow(6) for _ in range(5)]
[4, 0, 1, 2, 0]
>>> r2 = r.copy(); r.randbelow(100) == r2.randbelow(100)
True
"""

from __future__ import annotations

from typing import MutableSequence, Sequence, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


class Rng:
    """SplitMix64 pseudo-random generator with the few draws games need."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def copy(self) -> "Rng":
        return Rng(self.state)

    def next64(self) -> int:
        """The next raw 64-bit output."""
        self.state = s = (self.state + _GAMMA) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (multiply-shift; bias below 2**-50)."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        self.state = s = (self.state + _GAMMA) & _MASK  # next64, inlined (a hot path)
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return ((z ^ (z >> 31)) * n) >> 64

    def randint(self, a: int, b: int) -> int:
        """A uniform integer in ``[a, b]``."""
        return a + self.randbelow(b - a + 1)

    def random(self) -> float:
        """A float in ``[0, 1)``."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.randbelow(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher–Yates shuffle in place (``randbelow(i + 1)`` for each ``i`` from the top,
        inlined: the same draws)."""
        s = self.state
        for i in range(len(seq) - 1, 0, -1):
            s = (s + _GAMMA) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            seq[i], seq[j] = seq[j], seq[i]
        self.state = s

    def skip(self, draws: int) -> None:
        """Advance past ``draws`` draws without making them (SplitMix64 steps its state by
        a constant: the same state as after that many draws; ``shuffle`` of ``n`` items
        takes ``n - 1``)."""
        if draws < 0:
            raise ValueError("skip needs draws >= 0")
        self.state = (self.state + draws * _GAMMA) & _MASK

    def sample(self, seq: Sequence[T], k: int) -> list[T]:
        pool = list(seq)
        self.shuffle(pool)
        return pool[:k]

    def spawn(self) -> "Rng":
        """An independent generator derived from this one (advances this one)."""
        return Rng(self.next64())


def derive_seed(*parts: object) -> int:
    """A stable 63-bit seed from any printable parts (for per-game seeds of a run)."""
    h = 0xCBF29CE484222325
    for byte in "\x1f".join(map(str, parts)).encode():
        h = ((h ^ byte) * 0x100000001B3) & _MASK
    return h >> 1

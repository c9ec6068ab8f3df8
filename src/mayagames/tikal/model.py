"""The Tikal Legend data model's vocabulary: hex kinds, phases, placeholders and the
:class:`Frame` of a compound turn.

The bottom of the package's import order (docs/design.md): every rules module imports
its names from here, and :mod:`.state` (the protocol class at the top) re-exports them.
"""

from __future__ import annotations

from typing import Any

# hex kinds
JUNGLE, BASE_CAMP, TEMPLE, CLEARING, RUINS, LAKE, VOLCANO = range(7)
KIND_NAMES = ("jungle", "base_camp", "temple", "clearing", "ruins", "lake", "volcano")
KIND_OF_TYPE = {name: i for i, name in enumerate(KIND_NAMES)}
COMMON = -2  # owner of the Common Base Camp
# phases
ROUND_MANAGEMENT, ACTION, FINAL, OVER = range(4)
PHASE_NAMES = ("round_management", "action", "final_scoring", "over")
HIDDEN = -1  # a face-down card, tile, treasure or AP token in a view


class Frame:
    """One open sub-decision of a compound turn (see ``engine.FRAME_RULES``).

    ``kind`` names the question; ``ctx`` its origin (e.g. ``token`` for an AP-token
    activation); ``points`` AP left; ``step`` the step within the frame; ``a``/``b`` chosen
    values (hex, tile, card...); ``counts`` per-turn tallies (floors cleared or treasures
    unearthed per hex); ``left`` repetitions left; ``ends_turn``: finishing it ends the turn.
    """

    __slots__ = ("kind", "seat", "ctx", "points", "step", "a", "b", "counts", "left", "ends_turn")

    def __init__(self, kind: str, seat: int, ctx: str = "", points: int = 0, step: str = "",
                 a: Any = -1, b: Any = -1, left: int = 0, ends_turn: bool = True) -> None:
        self.kind, self.seat, self.ctx, self.points, self.step = kind, seat, ctx, points, step
        self.a, self.b, self.left, self.ends_turn = a, b, left, ends_turn
        self.counts: dict[int, int] = {}

    def copy(self) -> "Frame":
        f = Frame.__new__(Frame)
        f.kind, f.seat, f.ctx, f.points, f.step = self.kind, self.seat, self.ctx, self.points, self.step
        f.a, f.b, f.left, f.ends_turn = self.a, self.b, self.left, self.ends_turn
        f.counts = dict(self.counts) if self.counts else {}
        return f

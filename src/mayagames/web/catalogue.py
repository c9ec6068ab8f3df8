"""What each component of a game is and does, in words, for the browser's boards.

A view names components by id only (Tikal's ``moves-5`` card, tile ``B-3``, director
power ``scout``; Tzolk'in's building ``a1-t1``, monument ``m10``, start tile ``w02``).
The catalogue of a game maps every id to a short title and a description, built once
from the engine's own component data files (so it can never disagree with the rules
engine) and served by ``GET /api/games/NAME/catalogue``. Each game writes its own
(``mayagames.<game>.catalogue``, named by its :class:`~mayagames.core.game.GamePlugin`);
this module only caches it. It holds public, static
information only (what a card does, never where it is).

>>> tikal = catalogue("tikal")
>>> tikal["cards"]["moves-5"]["title"]
'5 free moves'
>>> catalogue("tzolkin")["buildings"]["a1-t1"]["cost"]
{'wood': 2, 'stone': 1}
>>> catalogue("toy") is None
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..core.registry import get_game

Catalogue = dict[str, Any]


def catalogue(game: str) -> Catalogue | None:
    """The catalogue of ``game`` (its plug-in's ``catalogue``), or None when it has none."""
    if get_game(game).plugin.catalogue is None:
        return None
    return _cached(get_game(game).name)


@lru_cache(maxsize=None)
def _cached(game: str) -> Catalogue:
    return get_game(game).plugin.part("catalogue")()

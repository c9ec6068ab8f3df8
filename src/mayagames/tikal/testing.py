"""The position-building helpers under their first name: every function of
:mod:`mayagames.tikal.positions` (the module both games share in shape), re-exported so
that scenarios written against ``mayagames.tikal.testing`` keep working.
"""

from __future__ import annotations

from .positions import *  # noqa: F401,F403
from .positions import __all__, _take_tile  # noqa: F401

"""The Tzolk'in position-building helpers under the name Tikal uses (``tikal/testing.py``).

Everything lives in :mod:`mayagames.tzolkin.positions` (public API: ``blank``,
``set_goods``, ``put_worker``, ``play``, ``legal``...); both names import the same
functions.
"""

from .positions import *  # noqa: F401,F403

"""mayagames: play and study Tikal Legend and Tzolk'in.

The public core lives in :mod:`mayagames.core`; each game is a sub-package
(:mod:`mayagames.tikal`, :mod:`mayagames.tzolkin`) that registers itself in the
game registry when imported.
"""

__version__ = "0.1.0"

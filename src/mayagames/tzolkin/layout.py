"""Former home of the Tzolk'in constants, kept so that existing imports keep working.

Everything moved to :mod:`mayagames.tzolkin.model` (the same module name both games use).
"""

from .model import *  # noqa: F401,F403

"""mayagames: play and study Tikal Legend and Tzolk'in.

The public core lives in :mod:`mayagames.core`; each game is a sub-package
(:mod:`mayagames.tikal`, :mod:`mayagames.tzolkin`) that registers itself in the
game registry when imported.

The engines' hot modules (:data:`COMPILED_MODULES`) may also be compiled with mypyc from
this same source (``tools/build_compiled.py``, docs/design.md "The compiled build");
:func:`compiled` says which of them this interpreter runs compiled.
"""

from __future__ import annotations

__version__ = "0.1.0"

#: the modules ``tools/build_compiled.py`` compiles: the rules engines of both games, the
#: searches' leaf estimates and the MCTS search. Not the
#: modules of frozen dataclasses (actions, components): mypyc's native frozen dataclasses
#: cannot be unpickled (docs/design.md)
COMPILED_MODULES: tuple[str, ...] = (
    "mayagames.tikal.model", "mayagames.tikal.scoring", "mayagames.tikal.flow", "mayagames.tikal.cards",
    "mayagames.tikal.powers", "mayagames.tikal.frames", "mayagames.tikal.engine", "mayagames.tikal.positions",
    "mayagames.tikal.hidden",
    "mayagames.tzolkin.model", "mayagames.tzolkin.effects", "mayagames.tzolkin.rules", "mayagames.tzolkin.flow",
    "mayagames.tzolkin.deferred",
    "mayagames.tikal.heuristic", "mayagames.tzolkin.heuristic",   # the searches' leaf estimates
    "mayagames.core.framestack",   # both states' base: the protocol methods and the rollout loop
    "mayagames.tzolkin.learned",   # the learned estimate at the leaves of Tzolk'in's hard search
    "mayagames.agents.mcts",       # the search itself (a native class that the review subclasses)
)


def compiled() -> list[str]:
    """The modules of :data:`COMPILED_MODULES` that this interpreter loads (or has loaded) as
    compiled extension modules: empty for the pure-Python package, the reference."""
    from importlib.machinery import EXTENSION_SUFFIXES
    from importlib.util import find_spec

    suffixes = tuple(EXTENSION_SUFFIXES)
    found = []
    for name in COMPILED_MODULES:
        spec = find_spec(name)
        if spec is not None and spec.origin is not None and spec.origin.endswith(suffixes):
            found.append(name)
    return found

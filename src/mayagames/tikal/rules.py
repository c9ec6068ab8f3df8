"""The Tikal forward model under its first name: every name of :mod:`mayagames.tikal.flow`.

The module was renamed (issue 25) so that a name means the same job in both games
(``flow.py``: the forward model, its frames and transitions; docs/design.md, "Module roles
in the two games"). Code written against ``mayagames.tikal.rules`` keeps working: this
module re-exports the same objects, private names included. Tikal's legality checks
(``*_refusal``) live in ``flow.py`` beside the transitions that share their helpers.
"""

from __future__ import annotations

from . import flow as _flow
from .flow import *  # noqa: F401,F403  (the public names, for readers and type checkers)

globals().update({name: value for name, value in vars(_flow).items() if not name.startswith("__")})

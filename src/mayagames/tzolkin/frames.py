"""Every kind of Tzolk'in decision frame, by its ``kind`` (the index Tikal's ``frames.py``
also is); and, under this module's first name, every name of :mod:`mayagames.tzolkin.flow`.

The forward model (the frames themselves and the flow between them) was ``frames.py``; it
is ``flow.py`` since issue 25, so that a name means the same job in both games
(docs/design.md, "Module roles in the two games"). Code written against
``mayagames.tzolkin.frames`` keeps working: this module re-exports the same objects,
private names included.
"""

from __future__ import annotations

from . import flow as _flow
from .flow import *  # noqa: F401,F403  (the public names, for readers and type checkers)
from .flow import FRAME_TYPES, Frame

globals().update({name: value for name, value in vars(_flow).items() if not name.startswith("__")})

#: kind -> class of every decision frame (``FRAME_TYPES`` lists them in ``code`` order)
FRAME_CLASSES: dict[str, type[Frame]] = {cls.kind: cls for cls in FRAME_TYPES}

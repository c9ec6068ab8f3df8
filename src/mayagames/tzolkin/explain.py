"""Why an action is illegal: the rule that forbids it, in words a player understands.

There is no second copy of the rules here: the pending decision frame answers with the
same checks that decide its legal actions (:meth:`.flow.Frame.refusal`, built on
:mod:`.rules`). This module keeps the per-frame texts under their old names.

>>> from mayagames.tzolkin.positions import blank, put_worker
>>> s = blank(2)
>>> put_worker(s, 1, "tikal", 3)
>>> err = explain(s, s.parse_action("pick tikal 3"))
>>> err.rule, err.message
('Picking up workers', 'the worker on tikal space 3 belongs to P1; you may only pick up your own')
"""

from __future__ import annotations

from .flow import FRAME_TYPES, explain

# What the player decides now, and the rule each decision frame belongs to, by frame code.
FRAME_HELP = {cls.code: cls.help for cls in FRAME_TYPES}
FRAME_RULE = {cls.code: cls.rule for cls in FRAME_TYPES}


__all__ = ["FRAME_HELP", "FRAME_RULE", "explain"]

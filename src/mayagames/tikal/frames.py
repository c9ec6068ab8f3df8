"""Every kind of Tikal sub-decision (typed compound-turn frames), by its ``kind``.

Each class lives beside the rules that open it, so that the modules import each other one
way (docs/design.md, "Import order"): the AP turn, Trail Stone, terrain tile, kept-card
discard and trade frames in :mod:`.flow`, the card frames in :mod:`.cards`, the director
power frames in :mod:`.powers`. All derive from :class:`~.model.TikalFrame` (itself a
:class:`mayagames.core.frames.SubDecision`) and own their named fields, their legal
actions, their transition and why they refuse an action.
"""

from __future__ import annotations

from .cards import (BaseCampSetup, ExplorerRecruitment, FloorClearing, RecruitChoice, RuinDeployment,
                    TempleBaseDeployment, TreasureDig)
from .model import TikalFrame
from .powers import FisherPlacement, JournalistPick, Relocation, TrackerMoves
from .flow import ApTurn, KeepDiscard, StonePlacement, TilePlacement, TreasureTrade

#: kind -> class of every sub-decision
FRAME_CLASSES: dict[str, type[TikalFrame]] = {
    cls.kind: cls for cls in (ApTurn, StonePlacement, TilePlacement, KeepDiscard, TreasureTrade, RuinDeployment,
                              TreasureDig, TempleBaseDeployment, FloorClearing, BaseCampSetup, RecruitChoice,
                              ExplorerRecruitment, TrackerMoves, Relocation, FisherPlacement, JournalistPick)}

__all__ = ["FRAME_CLASSES", "TikalFrame", *(cls.__name__ for cls in FRAME_CLASSES.values())]

"""A choice the engine settles for the player (issue 23): when a decision has one option
only, the engine takes it at once ("do tikal 4" builds the only building the player can
afford). :func:`settled_choice` tells, before the move, what such a move will also do
when it spends the player's goods, so that the table can ask the player to confirm it and
show it afterwards. It reads only the player's own view.
"""

from __future__ import annotations

from typing import Any

from . import actions as A
from .model import CORN, GOLD, SKULL, STONE, WOOD
from .narrate import building_text, monument_text, plural
from .model import INSTANCE_TYPE

SPENT = ((CORN, "corn"), (WOOD, "wood"), (STONE, "stone"), (GOLD, "gold"), (SKULL, "skull"))


def settled_choice(view: Any, action: Any) -> dict[str, Any] | None:
    """What ``action`` (a gear action, ``do GEAR N``) also builds at once, the only choice
    left, and the goods it spends: ``{"text", "places"}``; None when it settles nothing
    that costs goods (or cannot be told from the view)."""
    if not isinstance(action, A.Do):
        return None
    seat = view.current_player
    if seat is None:
        return None
    after = view.clone()
    try:
        after.apply(action)
    except Exception:  # noqa: BLE001 - the view cannot play it out: nothing to tell
        return None
    new_b = [i for i in after.built[seat] if i not in view.built[seat]]
    new_m = [m for m in after.monuments[seat] if m not in view.monuments[seat]]
    if not new_b and not new_m:
        return None
    spent = [plural(view.p[seat][f] - after.p[seat][f], word) for f, word in SPENT
             if after.p[seat][f] < view.p[seat][f]]
    if not spent:
        return None
    what = [building_text(INSTANCE_TYPE[i]) for i in new_b] + [monument_text(m) for m in new_m]
    from .components import DATA
    places = [DATA.buildings[INSTANCE_TYPE[i]].id for i in new_b] + [DATA.monuments[m].id for m in new_m]
    return {"text": f"This also builds {' and '.join(what)} at once (the only choice left), "
                    f"paying {', '.join(spent)}.", "places": places}

"""Tzolk'in moves told as sentences, and the game's own events (Narration contract).

``narrate(before, action, after, viewer)`` reads the two states through their public
fields only: the mover's goods before and after (what the move gave and cost), the
gears (where a worker went), the calendar (a new day, a Food Day, the change of age)
and the final breakdown. Players are written ``{seat:N}`` (filled in by the server,
the terminal and ``mayagames replay``).

Secrets: the only secret move is the start-tile draft pick (rule 4: kept face down
until every player has chosen); others read "keeps two starting tiles". Everything
else in a Tzolk'in move is public. A step of a compound turn that changes nothing yet
(picking up a worker whose action comes next, paying a block) is ``minor``.
"""

from __future__ import annotations

from typing import Any

from ..core.game import GameEvent, Narration, seat_ref
from . import actions as A
from .components import DATA, GEARS, TEMPLES, TRACKS
from .flow import ChooseAction
from .model import (CORN, FOOD_AGE, FOOD_DAYS, FOOD_KIND, GOLD, INSTANCE_TYPE, SKULL, STONE, TECH,
                     TEMPLE, VP, WOOD, WORKERS)
from .scoring import feeding_cost, final_breakdown

GOODS = ((CORN, "corn"), (WOOD, "wood"), (STONE, "stone"), (GOLD, "gold"), (SKULL, "skull"),
         (VP, "VP"))

# what each kind of gear action does, in the rulebook's words; no amounts: what the action
# gave and cost is told from the states (the goods change after the sentence), so a space
# reached stepping back (1 corn per step) or a discount never makes the words wrong
ACTION_WORDS = {
    "fishing": "fishes", "harvest": "harvests", "gain": "gathers resources",
    "tech": "develops a technology", "build": "builds", "temples": "pays a block to "
    "progress on two temples", "temple": "pays corn to progress on a temple",
    "market": "trades at the market", "worker": "takes a new worker",
    "corn_build": "builds for corn", "mirror": "copies an action", "skull": "offers a crystal skull",
}


def gear_title(gear: str) -> str:
    return DATA.gears[GEARS.index(gear)].title


def temple_title(temple: str) -> str:
    return DATA.temples[TEMPLES.index(temple)].title


def track_title(track: str) -> str:
    return DATA.tracks[TRACKS.index(track)].title


def plural(n: int, word: str) -> str:
    if word in ("corn", "wood", "stone", "gold", "VP"):
        return f"{n} {word}"
    return f"{n} {word}{'' if n == 1 else 's'}"


def goods_change(before: list[int], after: list[int]) -> str:
    """``+3 corn, -1 wood, +2 VP`` (empty when nothing changed)."""
    parts = []
    for field, word in GOODS:
        d = after[field] - before[field]
        if d:
            parts.append(f"{'+' if d > 0 else '-'}{plural(abs(d), word)}")
    return ", ".join(parts)


# moves whose sentence names the temple they step on (the others tell a step in the change)
NAMES_TEMPLE = (A.Temple, A.TwoTemples, A.Offer, A.Anger, A.Beg)


def markers_change(before: list[int], after: list[int], action: Any) -> list[str]:
    """Temple steps and technology levels a move changed without its sentence saying so
    (a building's steps, a crystal skull's step, burning the forest): ``+1 step on Chaac``,
    ``Agriculture level 2``."""
    parts = []
    if not isinstance(action, NAMES_TEMPLE):
        for t, name in enumerate(TEMPLES):
            d = after[TEMPLE + t] - before[TEMPLE + t]
            if d:
                parts.append(f"{'+' if d > 0 else '-'}{plural(abs(d), 'step')} on {temple_title(name)}")
    if not isinstance(action, A.Tech):
        for t, name in enumerate(TRACKS):
            if after[TECH + t] != before[TECH + t]:
                parts.append(f"{track_title(name)} level {after[TECH + t]}")
    return parts


def tile_text(tile: int) -> str:
    spec = DATA.tiles[tile]
    return spec.id


def building_text(inst_type: int) -> str:
    spec = DATA.buildings[inst_type]
    return f"a{'n' if spec.category[0] in 'aeiou' else ''} {spec.category} building ({spec.id})"


def monument_text(m: int) -> str:
    spec = DATA.monuments[m]
    return f"monument {spec.id}"


def placed_space(before: Any, after: Any, seat: int) -> tuple[str, int] | None:
    """The gear and space where ``seat`` put a worker in this move."""
    for g, (old, new) in enumerate(zip(before.gears, after.gears)):
        for pos, (x, y) in enumerate(zip(old, new)):
            if y == seat and x != seat:
                return GEARS[g], pos
    return None


def day_text(after: Any) -> str:
    """``Day 9: Ana starts (next Food Day: day 14)``."""
    due = [d for d in FOOD_DAYS if d >= after.day]
    nxt = ""
    if due and after.food_done < len(FOOD_DAYS):
        nxt = " (a Food Day at its end)" if due[0] == after.day else f" (next Food Day: day {due[0]})"
    return f"Day {after.day}: {seat_ref(after.start_player)} starts{nxt}"


def round_ended(before: Any, after: Any) -> bool:
    return after.day != before.day or after.food_done != before.food_done or after.phase != before.phase


def sentence(before: Any, action: Any, after: Any, viewer: int | None) -> tuple[str, tuple[str, ...]]:
    """The move's sentence (without the goods it changed) and the places it touched."""
    seat = before.cur
    who = seat_ref(seat)
    if isinstance(action, A.Keep):
        if viewer == seat:
            return f"{who} keeps starting tiles {action.first} and {action.second}", ()
        return f"{who} keeps two starting tiles", ()
    if isinstance(action, A.Beg):
        return f"{who} begs for corn and steps down on {temple_title(action.temple)}", (action.temple,)
    if isinstance(action, A.Place):
        where = placed_space(before, after, seat)
        cost = before.p[seat][CORN] - after.p[seat][CORN]
        if where is None:
            return f"{who} places a worker on {gear_title(action.gear)}", (action.gear,)
        gear, pos = where
        paid = f" for {plural(cost, 'corn')}" if cost > 0 else " for free"
        return f"{who} places a worker on {gear_title(gear)} {pos}{paid}", (f"{gear}:{pos}",)
    if isinstance(action, A.PlaceStart):
        cost = before.p[seat][CORN] - after.p[seat][CORN]
        paid = f" for {plural(cost, 'corn')}" if cost > 0 else ""
        return f"{who} places a worker on the Starting Player Space{paid}", ("start",)
    if isinstance(action, A.Pick):
        return (f"{who} picks up the worker on {gear_title(action.gear)} {action.space}",
                (f"{action.gear}:{action.space}",))
    if isinstance(action, A.Do):
        g = GEARS.index(action.gear)
        spec = DATA.gears[g].action_list[action.space - 1] if 1 <= action.space <= len(
            DATA.gears[g].action_list) else {"kind": ""}
        what = ACTION_WORDS.get(spec["kind"], "takes the action")
        frame = before.stack[-1] if before.stack else None
        back = frame.space - action.space if isinstance(frame, ChooseAction) else 0
        if back > 0:  # rule: a lower action of the same gear, 1 corn per step back
            what += f", stepping back {plural(back, 'space')}"
        return (f"{who} takes the action {gear_title(action.gear)} {action.space} ({what})",
                (f"{action.gear}:{action.space}",))
    if isinstance(action, A.Nothing):
        frame = before.stack[-1] if before.stack else None
        if isinstance(frame, ChooseAction):
            return (f"{who} takes no action with the worker from {DATA.gears[frame.gear].title} "
                    f"{frame.space}", ())
        return f"{who}'s worker takes no action", ()
    if isinstance(action, A.Harvest):
        if action.mode == "burn":
            return f"{who} burns the forest", ()
        return f"{who} harvests {action.mode}", ()
    if isinstance(action, A.Anger):
        return f"{who} angers the gods and steps down on {temple_title(action.temple)}", (action.temple,)
    if isinstance(action, A.Temple):
        return f"{who} steps up on {temple_title(action.temple)}", (action.temple,)
    if isinstance(action, A.TwoTemples):
        return (f"{who} pays 1 {action.pay} and steps up on {temple_title(action.first)} and "
                f"{temple_title(action.second)}", (action.first, action.second))
    if isinstance(action, A.Tech):
        t = TRACKS.index(action.track)
        old, new = before.p[seat][TECH + t], after.p[seat][TECH + t]
        if new > old:
            return f"{who} advances {track_title(action.track)} to level {new}", (action.track,)
        if old >= 3 or new == old and after.p[seat] != before.p[seat]:
            return f"{who} takes the bonus of {track_title(action.track)}", (action.track,)
        return f"{who} chooses to develop {track_title(action.track)}", (action.track,)
    if isinstance(action, A.Pay):
        return f"{who} pays 1 {action.resource}", ()
    if isinstance(action, A.Build):
        t = next(i for i, b in enumerate(DATA.buildings) if b.id == action.building)
        extra = f", leaving 1 {action.waive} unpaid (Architecture)" if action.waive else ""
        return f"{who} builds {building_text(t)}{extra}", (action.building,)
    if isinstance(action, A.BuildMonument):
        m = next(i for i, b in enumerate(DATA.monuments) if b.id == action.monument)
        return f"{who} builds {monument_text(m)}", (action.monument,)
    if isinstance(action, A.Take):
        return f"{who} takes 1 {action.resource}", ()
    if isinstance(action, A.Trade):
        verb = "buys" if action.direction == "buy" else "sells"
        return f"{who} {verb} 1 {action.resource} at the market", ()
    if isinstance(action, A.Offer):
        return (f"{who} makes an offering of 1 {action.pay} and steps up on "
                f"{temple_title(action.temple)}", (action.temple,))
    if isinstance(action, A.Stop):
        return f"{who} is done with this action", ()
    if isinstance(action, A.Advance):
        return f"{who} advances the calendar {plural(action.days, 'day')}", ()
    if isinstance(action, A.EndTurn):
        return f"{who} ends the turn", ()
    return f"{who}: {action}", ()


# --- the game's own events ---------------------------------------------------------------------
def reveal_event(after: Any) -> GameEvent:
    rows = [[seat_ref(s), " and ".join(tile_text(t) for t in sorted(after.kept[s]))]
            for s in range(after.num_players)]
    return GameEvent("round", "The starting tiles are revealed",
                     {"title": "Starting tiles kept", "columns": ["Player", "Tiles"], "rows": rows})


def food_day_event(before: Any, after: Any, mover: int) -> GameEvent:
    """Who fed how many workers, unfed penalties and temple rewards (rules 10 and 16)."""
    index = before.food_done
    kind, age = FOOD_KIND[index], FOOD_AGE[index]
    rows = []
    summary = []
    for s in range(after.num_players):
        P0, P1 = before.p[s], after.p[s]
        need, each = feeding_cost(P0)
        unfed = after.last_unfed[s] if s < len(after.last_unfed) else 0
        fed = P0[WORKERS] - unfed
        paid = (need - unfed) * each
        penalty = unfed * DATA.unfed_vp
        if kind == "middle":
            got = [f"{P1[f] - P0[f]} {w}" for f, w in ((WOOD, "wood"), (STONE, "stone"),
                                                        (GOLD, "gold"), (SKULL, "skull"))
                   if P1[f] - P0[f] > 0]
            reward = ", ".join(got) or "nothing"
        else:
            reward = f"{P1[VP] - P0[VP] - penalty} VP"
        rows.append([seat_ref(s), P0[WORKERS], fed, paid, unfed, penalty, reward])
        summary.append(f"{seat_ref(s)} feeds {fed} of {P0[WORKERS]}"
                       + (f" ({unfed} unfed: {penalty} VP)" if unfed else ""))
    title = (f"Food Day (middle of Age {age}): resources" if kind == "middle"
             else f"Food Day (end of Age {age}): points")
    return GameEvent("food_day", f"{title} - " + "; ".join(summary) + ".",
                     {"title": title, "columns": ["Player", "Workers", "Fed", "Corn paid", "Unfed",
                                                  "Penalty VP", "Temple rewards"], "rows": rows})


def final_event(after: Any) -> tuple[GameEvent, GameEvent]:
    rows = []
    for s in range(after.num_players):
        b = final_breakdown(after, s)
        rows.append([seat_ref(s), b["vp_track"], b["corn_after_conversion"], f"{b['corn_vp']:g}",
                     b["skulls_vp"], sum(b["monuments"].values()), f"{b['total']:g}"])
    scoring = GameEvent("final_scoring", "Final scoring: corn and resources, crystal skulls, monuments",
                        {"title": "Final scoring", "columns": ["Player", "VP track", "Corn value",
                                                               "Corn VP", "Skulls VP", "Monuments VP",
                                                               "Total"], "rows": rows})
    won = after.winners()
    scores = after.scores()
    names = " and ".join(seat_ref(s) for s in won)
    over = GameEvent("game_over", f"Game over: {names} {'wins' if len(won) == 1 else 'share the win'} "
                     f"with {scores[won[0]]:g} points")
    return scoring, over


def events(before: Any, action: Any, after: Any) -> tuple[GameEvent, ...]:
    out: list[GameEvent] = []
    if after.revealed and not before.revealed:
        out.append(reveal_event(after))
        out.append(GameEvent("round", day_text(after)))
    if after.food_done > before.food_done:
        out.append(food_day_event(before, after, before.cur))
    if after.age > before.age:
        out.append(GameEvent("age", f"Age {after.age} begins: the remaining Age {before.age} "
                             f"buildings leave and Age {after.age} buildings are dealt"))
    if after.phase != before.phase and after.current_player is None:
        out.extend(final_event(after))
    elif after.day > before.day:
        out.append(GameEvent("round", day_text(after)))
    return tuple(out)


_LAST: tuple[Any, Any, Any, Narration] | None = None  # the last public move told


def narrate(before: Any, action: Any, after: Any, viewer: int | None) -> Narration:
    """``action`` by ``before.cur`` as a sentence for ``viewer`` (None: a spectator).

    Only a draft pick reads differently by viewer; any other move is told once and reused
    for the other viewers (the server asks once per seat and once for spectators)."""
    global _LAST
    if isinstance(action, A.Keep):
        return tell(before, action, after, viewer)
    last = _LAST
    if last is not None and last[0] is before and last[1] is action and last[2] is after:
        return last[3]
    told = tell(before, action, after, None)
    _LAST = (before, action, after, told)
    return told


def tell(before: Any, action: Any, after: Any, viewer: int | None) -> Narration:
    seat = before.cur
    text, places = sentence(before, action, after, viewer)
    told_events = events(before, action, after)
    secret = isinstance(action, A.Keep) and viewer != seat
    change = ""
    placing = isinstance(action, (A.Place, A.PlaceStart))  # the sentence names the cost
    if not secret and not placing and not round_ended(before, after):
        change = goods_change(before.p[seat], after.p[seat])
        gained = after.p[seat][WORKERS] - before.p[seat][WORKERS]
        if gained > 0:
            change = ", ".join(filter(None, [change, f"+{plural(gained, 'worker')}"]))
        change = ", ".join(filter(None, [change, *markers_change(before.p[seat], after.p[seat],
                                                                action)]))
        gained_b = [i for i in after.built[seat] if i not in before.built[seat]]
        if gained_b and not isinstance(action, A.Build):
            text += " and builds " + ", ".join(building_text(INSTANCE_TYPE[i]) for i in gained_b)
    if change:
        text += f" ({change})"
    minor = (not change and not told_events and after.current_player == seat
             and isinstance(action, (A.Pick, A.Pay, A.Do, A.Tech)))
    return Narration(text + ".", told_events, places, minor)

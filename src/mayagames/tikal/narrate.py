"""Tikal Legend moves told as sentences, and the game's own events (Narration contract).

``narrate(before, action, after, viewer)`` reads the two states through their public
fields and the open sub-decision (``before.pending``): "{seat:0} moves an Explorer from e4
to d4 for 2 AP.", "{seat:1} unearths a lion treasure at h3 for 3 AP.", "{seat:0} places a
Temple tile (level 4) at c5, turned 2 sides." Events: the action phase and Round
Management of each round (``round``), a volcano's In-Game Scoring (``scoring``: the start,
then each player's score with a table per category; the last one holds every player),
the final scoring (``final_scoring``) and the end (``game_over``).

Secrets: Tikal has no private hands. What a move draws face down (a treasure from a Ruin)
is face up in a museum once drawn, so naming it tells nothing hidden; the narration never
reads a deck, bag, pile or Ruin stack. A step that only opens the next question (choosing
the hex for a tile, taking a Trail Stone, starting a trade) is ``minor``.
"""

from __future__ import annotations

from typing import Any

from ..core.game import GameEvent, Narration, seat_ref
from . import actions as A
from .actions import COLOURS
from .state import ACTION, FINAL, OVER, ROUND_MANAGEMENT, TikalState

TILE_WORDS = {"temple": "a Temple tile", "ruins": "a Ruins tile", "volcano": "a Volcano tile",
              "lake": "a Lake tile", "clearing": "a Clearing tile"}
CATEGORY_COLUMNS = (("temples", "Temples"), ("tallest", "Tallest temple"), ("volcanoes", "Volcanoes"),
                    ("jungles", "Jungle"), ("lakes_ruins", "Lakes & ruins"), ("treasures", "Treasures"),
                    ("total", "Total"))


def figure_word(figure: str, n: int = 1) -> str:
    word = "Leader" if figure == "leader" else "Explorer"
    return f"a{'n' if word == 'Explorer' else ''} {word}" if n == 1 else f"{n} {word}s"


def ap(n: int) -> str:
    return f"{n} AP"


def tile_text(s: TikalState, tile_id: str, with_id: bool = False) -> str:
    """``a Temple tile (level 4)``, ``a Ruins tile (3 masks)``, ``a Volcano tile``...
    (``with_id``: ``a Temple tile A-2 (level 4)``)."""
    t = s.C.tile_index.get(tile_id)
    if t is None:
        return f"tile {tile_id}"
    tile = s.C.tiles[t]
    words = TILE_WORDS.get(tile.type, f"a {tile.type} tile")
    if with_id:
        words += f" {tile_id}"
    if tile.type == "temple":
        words += f" (level {tile.value})"
    elif tile.type == "ruins":
        words += f" ({tile.masks} mask{'s' if tile.masks != 1 else ''})"
    return words


def ap_spent(before: TikalState, after: TikalState) -> int:
    """AP the move cost in the open AP turn (0 outside one)."""
    depth = len(before.stack)
    f0 = before.stack[-1] if before.stack else None
    if f0 is None or f0.kind != "ap":
        return 0
    if len(after.stack) >= depth and after.stack[depth - 1].kind == "ap":
        return max(0, f0.points - after.stack[depth - 1].points)
    return 0


def museum_change(before: TikalState, after: TikalState, seat: int) -> list[str]:
    """Treasures gained or lost by ``seat`` (``+1 lion``)."""
    T = before.C.treasure_types
    lo, hi = seat * len(T), (seat + 1) * len(T)
    old, new = before.museum[lo:hi], after.museum[lo:hi]
    if old == new:
        return []
    out = []
    for name, x, y in zip(T, old, new):
        if y != x:
            out.append(f"{'+' if y > x else '-'}{abs(y - x)} {name}")
    return out


def change_suffix(before: TikalState, after: TikalState, seat: int, scored: bool) -> str:
    parts = museum_change(before, after, seat)
    if not scored:
        d = after.pp[seat] - before.pp[seat]
        if d:
            parts.append(f"{'+' if d > 0 else '-'}{abs(d)} PP")
    return f" ({', '.join(parts)})" if parts else ""


def unearthed(before: TikalState, after: TikalState, seat: int) -> str:
    gained = [name for t, name in enumerate(before.C.treasure_types)
              if after.treasure_count(seat, t) > before.treasure_count(seat, t)]
    return f"a {gained[0]} treasure" if gained else "a treasure"


def rm_sentence(s: TikalState, a: Any, who: str) -> tuple[str, tuple[str, ...]]:
    if isinstance(a, A.TakeStatuette):
        return f"{who} takes turn-order space {a.space} for the next round", ()
    if isinstance(a, A.TakeAP):
        return f"{who} takes an AP token worth {ap(a.value)}", ()
    if isinstance(a, A.TakeTile):
        return f"{who} takes {tile_text(s, a.tile, True)}", (a.tile,)
    return f"{who} takes the card {a.card}", (a.card,)


def turn_sentence(before: TikalState, a: Any, after: TikalState, who: str) -> tuple[str, tuple[str, ...], bool]:
    """Sentences for the start of an action-phase turn (no sub-decision open)."""
    seat = before.turn
    if isinstance(a, A.Keep):
        if after.pending is not None and after.pending.kind == "discard":
            return f"{who} keeps the card {a.card} but must first discard a kept card", (a.card,), True
        return f"{who} keeps the card {a.card} on the left of the campsite", (a.card,), False
    if isinstance(a, A.Play):
        side = "kept card" if a.kept else "card"
        return f"{who} plays the {side} {a.card}", (a.card,), False
    if isinstance(a, A.Use):
        card = next((c for c in before.C.cards if c.name == a.card), None)
        points = int(card.params.get("ap", 0)) if card is not None else 0
        gives = f" for {ap(points)}" if points else ""
        return f"{who} uses the permanent card {a.card}{gives}", (a.card,), False
    if isinstance(a, A.Activate):
        return f"{who} activates the AP token: {ap(before.ap_token[seat])} to spend", (), False
    if isinstance(a, A.PlaceTile):
        if after.pending is None or after.pending.kind != "tile":
            return (f"{who} discards {tile_text(before, a.tile, True)}: no Jungle hex is free",
                    (a.tile,), False)
        return f"{who} plays {tile_text(before, a.tile, True)} from the campsite", (a.tile,), True
    if isinstance(a, A.Power):
        return f"{who} uses the Museum Director's power: {a.power}", (), False
    if isinstance(a, A.Pass):
        return f"{who} passes", (), False
    return f"{who}: {a}", (), False


def ap_sentence(before: TikalState, a: Any, after: TikalState, who: str, f: Any) -> tuple[str, tuple[str, ...], bool]:
    """An AP action inside an AP turn (the AP token, a card's AP, a scoring turn)."""
    cost = ap_spent(before, after)
    paid = f" for {ap(cost)}" if cost else ""
    seat = f.seat
    if isinstance(a, A.Deploy):
        return f"{who} deploys {figure_word(a.figure)} at {a.hex}{paid}", (a.hex,), False
    if isinstance(a, A.Move):
        if f.kind == "tracker":
            return f"{who} moves an Explorer from {a.from_hex} to {a.to_hex} (Tracker)", (a.from_hex, a.to_hex), False
        return f"{who} moves {figure_word(a.figure)} from {a.from_hex} to {a.to_hex}{paid}", (a.from_hex, a.to_hex), False
    if isinstance(a, A.Transfer):
        return (f"{who} transfers {figure_word(a.figure)} between Base Camps, {a.from_hex} to {a.to_hex}{paid}",
                (a.from_hex, a.to_hex), False)
    if isinstance(a, A.Camp):
        moved = f" (moving the Base Camp from {a.from_hex})" if a.from_hex else ""
        pending = after.pending is not None and after.pending.kind == "camp" and after.pending.step == "figure"
        places = (a.hex, a.from_hex) if a.from_hex else (a.hex,)
        return f"{who} sets up a Base Camp at {a.hex}{moved}{paid}", places, pending
    if isinstance(a, A.Stone):
        return f"{who} takes a Trail Stone{paid}", (), True
    if isinstance(a, A.Recruit):
        return f"{who} recruits {figure_word(a.figure)} from the Unavailable Supply{paid}", (), False
    if isinstance(a, A.Clear):
        h = before.hex_index(a.hex)
        return (f"{who} clears a Temple Floor at {a.hex}: the temple is now level {after.level[h]}{paid}",
                (a.hex,), False)
    if isinstance(a, A.Guardian):
        h = before.hex_index(a.hex)
        return (f"{who} places a Guardian with {figure_word(a.figure)} on the temple at {a.hex} "
                f"(level {before.level[h]}){paid}", (a.hex,), False)
    if isinstance(a, A.Unearth):
        return f"{who} unearths {unearthed(before, after, seat)} at {a.hex}{paid}", (a.hex,), False
    if isinstance(a, A.Trade):
        return f"{who} trades treasures{paid}", (), True
    if isinstance(a, A.Use):
        card = next((c for c in before.C.cards if c.name == a.card), None)
        bonus = int(card.params.get("ap", 0)) if card is not None else 0
        return f"{who} adds the permanent card {a.card} (+{ap(bonus)})", (a.card,), False
    if isinstance(a, A.End):
        if f.kind == "ap":
            left = f" ({ap(f.points)} unused)" if f.points else ""
            return f"{who} ends the AP turn{left}", (), False
        return f"{who} stops", (), False
    return f"{who}: {a}", (), False


def frame_sentence(before: TikalState, a: Any, after: TikalState, who: str) -> tuple[str, tuple[str, ...], bool]:
    """A sub-decision: the open frame says what the answer means."""
    f = before.pending
    assert f is not None
    kind = f.kind
    names = before.C.board.hexes
    if kind == "tile":
        tile_id = before.C.tiles[f.tile].id
        if isinstance(a, A.At):
            return f"{who} chooses {a.hex} for {tile_text(before, tile_id, True)}", (a.hex,), True
        if isinstance(a, A.Rotate):
            where = names[f.hex].name
            turned = f", turned {a.turns} side{'s' if a.turns != 1 else ''}" if a.turns else ""
            return f"{who} places {tile_text(before, tile_id)} at {where}{turned}", (where, tile_id), False
    if kind == "stone":
        if isinstance(a, A.Token):
            return f"{who} picks up the Trail Stone on the {a.side} side of {a.hex}", (a.hex,), True
        if isinstance(a, A.At):
            return f"{who} chooses {a.hex} for a Trail Stone", (a.hex,), True
        if isinstance(a, A.Side):
            where = names[f.hex].name
            B = before.C.board
            e = B.edge[f.hex * 6 + B_SIDES.index(a.side)]
            other = names[B.edge_ends[e][2]].name if B.edge_ends[e][0] == f.hex else names[B.edge_ends[e][0]].name
            return (f"{who} places a Trail Stone between {where} and {other}: crossing costs "
                    f"{ap(after.cost[e])}", (where, other), False)
    if kind == "discard" and isinstance(a, A.Discard):
        kept = before.card_name(f.keeping)
        return f"{who} discards the kept card {a.card} and keeps {kept}", (a.card, kept), False
    if kind == "trade":
        if isinstance(a, A.Take):
            n = f"{a.count} {a.treasure} treasures" if a.count != 1 else f"a {a.treasure} treasure"
            return f"{who} takes {n} from {seat_ref(a.player)}", (), True
        if isinstance(a, A.Give):
            to = seat_ref(f.from_player) if f.from_player >= 0 else "them"
            return f"{who} gives a {a.treasure} treasure to {to}", (), False
    if kind == "ruin_place" and isinstance(a, A.At):
        h = before.hex_index(a.hex)
        n = after.explorers[f.seat * before.H + h] - before.explorers[f.seat * before.H + h]
        return f"{who} places {figure_word('explorer', n)} on the Ruins at {a.hex}", (a.hex,), False
    if kind == "temple_base":
        if isinstance(a, A.At):
            return f"{who} places an Explorer at the temple at {a.hex}", (a.hex,), False
        return f"{who} stops placing Explorers", (), False
    if kind == "dig":
        if isinstance(a, A.Unearth):
            return f"{who} unearths {unearthed(before, after, f.seat)} at {a.hex}", (a.hex,), False
        return f"{who} stops digging", (), False
    if kind == "clear":
        if isinstance(a, A.Clear):
            h = before.hex_index(a.hex)
            return (f"{who} clears a Temple Floor at {a.hex}: the temple is now level {after.level[h]}",
                    (a.hex,), False)
        return f"{who} stops clearing", (), False
    if kind == "camp":
        if isinstance(a, A.Camp):
            return ap_sentence(before, a, after, who, f)
        if isinstance(a, A.Choose):
            where = names[f.hex].name
            return f"{who} puts {figure_word(a.option)} in the new Base Camp at {where}", (where,), False
    if kind == "recruit" and isinstance(a, A.Choose):
        what = "a Leader and an Explorer" if a.option == "both" else figure_word(a.option)
        return f"{who} recruits {what} from the Unavailable Supply", (), False
    if kind == "explorers" and isinstance(a, A.Choose):
        return f"{who} recruits {figure_word('explorer', int(a.option))} from the Unavailable Supply", (), False
    if kind == "relocate" and isinstance(a, A.At):
        fig = "an Explorer" if f.ctx == "hunter" else "a Leader"
        if f.step == "from":
            return f"{who} chooses {fig} at {a.hex} to move", (a.hex,), True
        src = names[f.from_hex].name
        return f"{who} moves {fig} from {src} to {a.hex}", (src, a.hex), False
    if kind == "fisher":
        if f.step == "from":
            src = "from the supply" if isinstance(a, A.Choose) else f"from {a.hex}"  # type: ignore[union-attr]
            return f"{who} chooses an Explorer {src} for a Lake", (), True
        if isinstance(a, A.At):
            return f"{who} puts an Explorer on the Lake at {a.hex}", (a.hex,), False
    if kind == "journalist" and isinstance(a, A.TakeCard):
        return f"{who} takes the card {a.card} from the display", (a.card,), False
    if kind in ("ap", "tracker"):
        return ap_sentence(before, a, after, who, f)
    return f"{who}: {a}", (), False


B_SIDES = ("ne", "e", "se", "sw", "w", "nw")


# --- events -------------------------------------------------------------------------------
def scoring_rows(s: TikalState, entries: list[dict[str, Any]]) -> list[list[Any]]:
    return [[seat_ref(e["seat"]), *(e[key] for key, _ in CATEGORY_COLUMNS)] for e in entries]


def current_sequence(after: TikalState) -> list[dict[str, Any]]:
    """The scores of the scoring in progress (or just finished): the trailing entries of
    one round and kind, each seat once."""
    out: list[dict[str, Any]] = []
    last = after.last_scoring
    for e in reversed(last):
        if out and (e["round"] != out[0]["round"] or e["kind"] != out[0]["kind"]
                    or any(x["seat"] == e["seat"] for x in out)):
            break
        out.insert(0, e)
    return out


def scoring_events(before: TikalState, after: TikalState) -> list[GameEvent]:
    out = []
    new = after.last_scoring[len(before.last_scoring):]
    for e in new:
        kind = "final_scoring" if e["kind"] == "final" else "scoring"
        name = "final scoring" if e["kind"] == "final" else "In-Game Scoring (volcano)"
        parts = ", ".join(f"{label.lower()} {e[key]}" for key, label in CATEGORY_COLUMNS[:-1] if e[key])
        seq = current_sequence(after)
        out.append(GameEvent(kind, f"{seat_ref(e['seat'])} scores {e['total']} PP in the {name}"
                             + (f": {parts}" if parts else ""),
                             {"title": f"{name[0].upper()}{name[1:]}, round {e['round']}",
                              "columns": ["Player", *(label for _, label in CATEGORY_COLUMNS)],
                              "rows": scoring_rows(after, seq)}))
    return out


def events(before: TikalState, action: Any, after: TikalState) -> tuple[GameEvent, ...]:
    out: list[GameEvent] = []
    if after.scoring_kind == "volcano" and before.scoring_kind != "volcano":
        order = ", ".join(seat_ref(x) for x in [after.volcano_placer, *after.scoring_queue]
                          if x != after.stack[-1].seat) if after.stack else ""
        first = seat_ref(after.volcano_placer)
        out.append(GameEvent("scoring", f"A Volcano erupts: In-Game Scoring. Each player takes a "
                             f"10-AP turn, then scores: {first} first" + (f", then {order}" if order else "")))
    if after.phase == FINAL and before.phase != FINAL:
        out.append(GameEvent("final_scoring", "Final scoring: each player takes a last 10-AP turn, "
                             "then scores"))
    out.extend(scoring_events(before, after))
    if after.round > before.round:
        order = ", ".join(seat_ref(x) for x in after.order)
        out.append(GameEvent("round", f"Round {after.round}: Round Management (turn order {order})"))
    if after.phase == ACTION and before.phase == ROUND_MANAGEMENT:
        order = ", ".join(seat_ref(x) for x in after.order)
        out.append(GameEvent("round", f"Round {after.round}: the action phase (turn order {order})"))
    if after.phase == OVER and before.phase != OVER:
        bonus = [seat_ref(x) for x in range(after.num_players) if not after.power_used[x]]
        if bonus:
            out.append(GameEvent("final_scoring", f"{' and '.join(bonus)} never used the Museum "
                                 f"Director: +{after.C.unused_director_bonus} PP"))
        won = after.winners()
        scores = after.scores()
        rows = [[seat_ref(x), int(scores[x])] for x in range(after.num_players)]
        out.append(GameEvent("game_over", f"Game over: {' and '.join(seat_ref(x) for x in won)} "
                             f"{'wins' if len(won) == 1 else 'share the win'} with {scores[won[0]]:g} PP",
                             {"title": "Final Prestige Points", "columns": ["Player", "PP"], "rows": rows}))
    return tuple(out)


_LAST: tuple[Any, Any, Any, Narration] | None = None  # the last move told (same for every viewer)


def narrate(before: Any, action: Any, after: Any, viewer: int | None) -> Narration:
    """``action`` by ``before.current_player`` as a sentence (Tikal has no private hands,
    so every viewer reads the same: the server's n+1 calls for one move reuse the first)."""
    global _LAST
    last = _LAST
    if last is not None and last[0] is before and last[1] is action and last[2] is after:
        return last[3]
    told = tell(before, action, after)
    _LAST = (before, action, after, told)
    return told


def tell(before: Any, action: Any, after: Any) -> Narration:
    seat = before.current_player
    who = seat_ref(seat)
    minor = False
    if before.pending is not None:
        text, places, minor = frame_sentence(before, action, after, who)
    elif before.phase == ROUND_MANAGEMENT:
        text, places = rm_sentence(before, action, who)
    else:
        text, places, minor = turn_sentence(before, action, after, who)
    told = events(before, action, after)
    scored = len(after.last_scoring) != len(before.last_scoring) or after.phase == OVER
    text += change_suffix(before, after, seat, scored)
    places = tuple(dict.fromkeys(p for p in places if p))
    return Narration(text + ".", told, places, minor and not told)


__all__ = ["narrate", "COLOURS"]

"""Every amount a sentence names is what the move changed (issue 23, item 1).

Over seeded random games of both games, each move's sentence is read back: every
"<n> <thing>" it names (corn, wood, stone, gold, skulls, VP, workers, temple steps,
technology levels; AP, PP, treasures, temple levels) must equal the difference of the two
states it describes, and (Tzolk'in) every good, temple step and technology level of the
mover that changed must be named. The sentences are read as written for a player; the
check knows nothing of how the narrator built them.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from mayagames.core import get_game
from mayagames.core.conformance import transitions
from mayagames.tzolkin import model as TZ
from mayagames.tzolkin.components import DATA, TEMPLES, TRACKS
from mayagames.tzolkin.narrate import round_ended

SEEDS = range(8)
TZ_FIELDS = {"corn": TZ.CORN, "wood": TZ.WOOD, "stone": TZ.STONE, "gold": TZ.GOLD,
             "skull": TZ.SKULL, "skulls": TZ.SKULL, "VP": TZ.VP, "worker": TZ.WORKERS,
             "workers": TZ.WORKERS}
TZ_TEMPLES = {DATA.temples[TEMPLES.index(name)].title: TZ.TEMPLE + i
              for i, name in enumerate(TEMPLES)}
TZ_TRACKS = {DATA.tracks[TRACKS.index(name)].title: TZ.TECH + i for i, name in enumerate(TRACKS)}
TZ_AMOUNT = re.compile(r"(?<![\w.])([+-]?)(\d+) (corn|wood|stone|gold|skulls?|VP|workers?)\b")


def claims(pattern: re.Pattern[str], text: str) -> list[tuple[str, int, str]]:
    return [(sign, int(n), word) for sign, n, word in pattern.findall(text)]


def agrees(sign: str, n: int, diff: int) -> bool:
    """``+n``/``-n`` is the signed difference; a bare ``n`` (paid, taken) its size."""
    return diff == (n if sign == "+" else -n) if sign else abs(diff) == n


def tzolkin_mismatches(before: Any, action: Any, after: Any, narrate: Any = None) -> list[str]:
    seat = before.cur
    text = (narrate or get_game("tzolkin").narrate)(before, action, after, seat).text
    out = []
    named = set()
    for sign, n, word in claims(TZ_AMOUNT, text):
        field = TZ_FIELDS[word]
        named.add(field)
        diff = after.p[seat][field] - before.p[seat][field]
        if not agrees(sign, n, diff):
            out.append(f"{text!r} ({action}): {word} changed by {diff}")
    if not round_ended(before, after):  # a round's end is told by its Food Day and day events
        for word, field in TZ_FIELDS.items():
            diff = after.p[seat][field] - before.p[seat][field]
            if diff and field not in named:
                out.append(f"{text!r} ({action}): {word} changed by {diff}, not told")
                named.add(field)
    # temples: "steps up on X" (and "X" after "and"), "steps down on X", "+1 step on X"
    told = dict.fromkeys(TZ_TEMPLES.values(), 0)
    for first, second in re.findall(r"steps up on ([A-Z][\w']+)(?: and ([A-Z][\w']+))?", text):
        told[TZ_TEMPLES[first]] += 1
        if second:
            told[TZ_TEMPLES[second]] += 1
    for name in re.findall(r"steps down on ([A-Z][\w']+)", text):
        told[TZ_TEMPLES[name]] -= 1
    for sign, n, name in re.findall(r"([+-])(\d+) steps? on ([A-Z][\w']+)", text):
        told[TZ_TEMPLES[name]] += int(n) if sign == "+" else -int(n)
    for field, steps in told.items():
        diff = after.p[seat][field] - before.p[seat][field]
        if diff != steps and not (diff and round_ended(before, after) and not steps):
            out.append(f"{text!r} ({action}): temple steps changed by {diff}, told {steps}")
    # technologies: "advances X to level N", "X level N"
    titles = "|".join(re.escape(title) for title in TZ_TRACKS)
    levels = {TZ_TRACKS[name]: int(n) for name, n in
              re.findall(rf"({titles})(?: to)? level (\d+)", text)}
    for field in TZ_TRACKS.values():
        now = after.p[seat][field]
        if field in levels and levels[field] != now:
            out.append(f"{text!r} ({action}): level {now}, told {levels[field]}")
        if field not in levels and now != before.p[seat][field] and not round_ended(before, after):
            out.append(f"{text!r} ({action}): a technology level changed, not told")
    return out


def test_tzolkin_sentences_name_the_goods_the_move_changed():
    wrong = [m for before, action, after in transitions("tzolkin", (), SEEDS)
             for m in tzolkin_mismatches(before, action, after)]
    assert not wrong, "\n".join(wrong[:20])


def test_tzolkin_food_day_tables_give_the_corn_paid_and_vp_of_each_seat():
    """The Food Day table's corn paid, penalty and temple VP are each seat's differences
    (the mover's also hold its move, so only the others are read)."""
    met = 0
    for before, action, after in transitions("tzolkin", (), SEEDS):
        for event in get_game("tzolkin").narrate(before, action, after, None).events:
            if event.kind != "food_day":
                continue
            for seat, row in enumerate(event.table["rows"]):
                if seat == before.cur:
                    continue
                _, _, _, paid, _, penalty, reward = row
                vp = penalty + (int(reward.split()[0]) if reward.endswith(" VP") else 0)
                assert after.p[seat][TZ.CORN] - before.p[seat][TZ.CORN] == -paid, row
                assert after.p[seat][TZ.VP] - before.p[seat][TZ.VP] == vp, row
                met += 1
    assert met


def test_tzolkin_taking_a_new_worker_pays_no_corn():
    """Uxmal 3 gives a worker for nothing (rules section 6); the sentence said 5 corn."""
    from mayagames.tzolkin.positions import blank, play, put_worker, set_goods

    s = blank(2)
    set_goods(s, 0, corn=7)
    put_worker(s, 0, "uxmal", 3)
    play(s, "pick uxmal 3")
    before = s.clone()
    action = before.parse_action("do uxmal 3")
    play(s, "do uxmal 3")
    text = get_game("tzolkin").narrate(before, action, s, 0).text
    assert "corn" not in text and "+1 worker" in text, text
    assert tzolkin_mismatches(before, action, s) == []


# --- Tikal -------------------------------------------------------------------------------------
TK_AMOUNT = re.compile(r"(?<![\w.])([+-]?)(\d+) (AP|PP|[a-z]+ treasures?|[a-z]+)\b")


def ap_left(s: Any, seat: int) -> int:
    """AP the seat still has to spend in its open AP turn(s)."""
    return sum(f.points for f in s.stack if f.kind == "ap" and f.seat == seat)


def tikal_mismatches(before: Any, action: Any, after: Any, narrate: Any = None) -> list[str]:
    seat = before.current_player
    text = (narrate or get_game("tikal").narrate)(before, action, after, None).text
    out = []
    types = list(before.C.treasure_types)
    scored = len(after.last_scoring) != len(before.last_scoring) or after.is_terminal
    spent = ap_left(before, seat) - ap_left(after, seat)
    turn_over = not any(f.kind == "ap" and f.seat == seat for f in after.stack)

    def wrong(what: str) -> None:
        out.append(f"{text!r} ({action}): {what}")

    for m in re.finditer(r"for (\d+) AP\b", text):
        n = int(m.group(1))
        if "uses the permanent card" in text:
            if ap_left(after, seat) != n:
                wrong(f"{ap_left(after, seat)} AP to spend")
        elif not turn_over and spent != n:
            wrong(f"{spent} AP spent")
    for m in re.finditer(r"\(\+(\d+) AP\)|: (\d+) AP to spend", text):
        n = int(m.group(1) or m.group(2))
        if -spent != n:
            wrong(f"{-spent} AP gained")
    for m in re.finditer(r"\((\d+) AP unused\)", text):
        if ap_left(before, seat) != int(m.group(1)):
            wrong(f"{ap_left(before, seat)} AP left")
    for m in re.finditer(r"AP token worth (\d+) AP", text):
        if after.ap_token[seat] != int(m.group(1)):
            wrong(f"a token of {after.ap_token[seat]} AP")
    for sign, n, word in claims(re.compile(r"([+-])(\d+) ([a-z]+|PP)\b"), text):
        if word == "PP":
            diff = after.pp[seat] - before.pp[seat]
        elif word in types:
            t = types.index(word)
            diff = after.treasure_count(seat, t) - before.treasure_count(seat, t)
        else:
            continue
        if not agrees(sign, n, diff):
            wrong(f"{word} changed by {diff}")
    for m in re.finditer(r"takes (\d+|a) ([a-z]+) treasures? from", text):
        n = 1 if m.group(1) == "a" else int(m.group(1))
        t = types.index(m.group(2))
        diff = after.treasure_count(seat, t) - before.treasure_count(seat, t)
        if diff not in (0, n):  # a trade's take may complete with the give that follows
            wrong(f"{m.group(2)} changed by {diff}")
    for m in re.finditer(r"at (\w+): the temple is now level (\d+)", text):
        h = after.hex_index(m.group(1))
        if after.level[h] != int(m.group(2)):
            wrong(f"level {after.level[h]}")
    if not scored:
        diff = after.pp[seat] - before.pp[seat]
        if diff and "PP" not in text:
            wrong(f"PP changed by {diff}, not told")
    for t, name in enumerate(types):
        diff = after.treasure_count(seat, t) - before.treasure_count(seat, t)
        if diff and name not in text:
            wrong(f"{name} treasures changed by {diff}, not told")
    return out


def test_tikal_sentences_name_the_ap_pp_treasures_and_levels_the_move_changed():
    wrong = [m for before, action, after in transitions("tikal", (), SEEDS)
             for m in tikal_mismatches(before, action, after)]
    assert not wrong, "\n".join(wrong[:20])


def test_tikal_scoring_events_give_the_pp_each_seat_scored():
    """"Ana scores 12 PP in the In-Game Scoring (volcano)" is Ana's PP difference."""
    met = 0
    for before, action, after in transitions("tikal", (), SEEDS):
        scored: dict[int, int] = {}
        for event in get_game("tikal").narrate(before, action, after, None).events:
            if m := re.match(r"\{seat:(\d)\} scores (\d+) PP", event.text):
                scored[int(m.group(1))] = scored.get(int(m.group(1)), 0) + int(m.group(2))
        for seat, points in scored.items():
            assert after.pp[seat] - before.pp[seat] == points, (action, seat, points)
            met += 1
    assert met


@pytest.mark.parametrize("game", ["tzolkin", "tikal"])
def test_the_check_catches_a_wrong_amount(game):
    """The checks above are not vacuous: a sentence with a wrong number fails them."""
    info = get_game(game)
    real = info.narrate
    check = tzolkin_mismatches if game == "tzolkin" else tikal_mismatches
    unit = "corn" if game == "tzolkin" else "AP"
    from mayagames.core.game import Narration

    def lying(before, action, after, viewer):
        told = real(before, action, after, viewer)
        return Narration(told.text[:-1] + f" for 99 {unit}.", told.events, told.places, told.minor)

    moves = transitions(game, (), [0])
    assert any(check(*next(moves), narrate=lying) for _ in range(50))

"""The narration contract (core): names, events, the default narrator, the toy game's sentences."""

from __future__ import annotations

from mayagames.core import GameEvent, Narration, fill_names, get_game, new_game, seat_ref
from mayagames.core.game import default_narration
from mayagames.core.toy import Play, Swap


def test_fill_names_replaces_seat_placeholders_and_defaults_to_player_numbers():
    text = f"{seat_ref(0)} gives a lion to {seat_ref(2)}"
    assert fill_names(text, ["Ana", "Ben", "Cy"]) == "Ana gives a lion to Cy"
    assert fill_names(text) == "Player 1 gives a lion to Player 3"
    assert fill_names(text, ["Ana"]) == "Ana gives a lion to Player 3"


def test_with_names_fills_events_and_tables():
    told = Narration(f"{seat_ref(1)} ends the turn.", (GameEvent(
        "scoring", f"{seat_ref(0)} scores 5", {"title": "t", "columns": ["Player", "PP"],
                                                "rows": [[seat_ref(0), 5]]}),), ("e4",))
    named = told.with_names(["Ana", "Ben"])
    assert named.text == "Ben ends the turn." and named.places == ("e4",)
    assert named.events[0].text == "Ana scores 5" and named.events[0].table["rows"] == [["Ana", 5]]
    assert named.events[0].to_dict() == {"kind": "scoring", "text": "Ana scores 5",
                                         "table": {"title": "t", "columns": ["Player", "PP"],
                                                   "rows": [["Ana", 5]]}}


def test_default_narration_is_the_public_notation():
    s = new_game("toy", 2, seed=1)
    a = s.legal_actions()[0]
    after = s.clone()
    after.apply(a)
    assert default_narration(s, a, after, 1).text == f"{seat_ref(0)}: {a}"


def test_toy_names_the_drawn_card_only_to_its_owner_and_ends_with_the_scores():
    s = new_game("toy", 2, seed=3)
    info = get_game("toy")
    while not s.is_terminal:
        a = s.legal_actions()[0]
        before = s.clone()
        s.apply(a)
        mine = info.narrate(before, a, s, before.turn).text
        theirs = info.narrate(before, a, s, 1 - before.turn).text
        if isinstance(a, (Play, Swap)) and before.deck:
            drawn = [c for c in s.hands[before.turn]]
            assert "draws a card" in theirs and "draws a card" not in mine
            assert any(f"draws a {c}" in mine for c in drawn)
    last = info.narrate(before, a, s, None)
    assert [e.kind for e in last.events] == ["game_over"]
    assert [row[-1] for row in last.events[0].table["rows"]] == [int(x) for x in s.scores()]

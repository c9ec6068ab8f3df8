"""Setup by player count, dummy workers, the start-tile draft and hidden information."""

import json

import pytest

from mayagames.core import IllegalAction, Rng, new_game
from mayagames.core.conformance import fingerprint
from mayagames.tzolkin.components import DATA, GEARS, TILE_INDEX
from mayagames.tzolkin.layout import DUMMY, HIDDEN
from mayagames.tzolkin.positions import legal, play


def draft(s):
    while s.phase_name == "draft":
        play(s, legal(s)[0])


@pytest.mark.parametrize("players, dummies, tiles, monuments", [(2, 12, 2, 4), (3, 6, 3, 5), (4, 0, 4, 6)])
def test_setup_by_player_count(players, dummies, tiles, monuments):
    s = new_game("tzolkin", players, seed=3)
    assert sum(occ.count(DUMMY) for occ in s.gears) == dummies == s.dummies
    assert s.jcorn[2:] == [tiles] * 4 and s.jwood[2:] == [0, tiles, tiles, tiles]
    assert len(s.monument_row) == monuments and len(s.display) == 6
    assert all(len(hand) == 4 for hand in s.dealt)
    assert s.skulls == 13 and s.day == 1 and s.phase_name == "draft"
    assert all(P[6] == 3 and P[16] == 1 and P[0] == 0 for P in s.p)
    assert s.invariants() == []


def test_options_four_tiles_and_six_monuments():
    s = new_game("tzolkin", 2, seed=3, options={"jungle_tiles": "four", "monuments": "six"})
    assert s.jcorn[2:] == [4] * 4 and len(s.monument_row) == 6 and s.invariants() == []


def test_dummies_follow_the_revealed_tiles():
    for seed in range(20):
        s = new_game("tzolkin", 2, seed=seed)
        expected = set()
        first_on = set()
        for tile in s.dummy_tiles:
            spec = DATA.tiles[tile]
            g = GEARS.index(spec.gear)
            expected.add((g, spec.space))
            if g not in first_on and spec.gear != "chichen" and len(expected) < 12:
                expected.add((g, (spec.space + 5) % 10))
            first_on.add(g)
        got = {(g, pos) for g, occ in enumerate(s.gears) for pos, x in enumerate(occ) if x == DUMMY}
        assert got == expected and len(got) == 12


def test_single_dummy_per_tile_option():
    s = new_game("tzolkin", 3, seed=5, options={"dummy_placement": "single"})
    assert len(s.dummy_tiles) == 6 and s.dummies == 6
    for tile in s.dummy_tiles:
        spec = DATA.tiles[tile]
        assert s.gears[GEARS.index(spec.gear)][spec.space] == DUMMY


def test_draft_keep_two_hidden_until_all_chose_then_items_given():
    s = new_game("tzolkin", 2, seed=8)
    hand0 = sorted(DATA.tiles[t].id for t in s.dealt[0])
    assert legal(s) == [f"keep {a} {b}" for i, a in enumerate(hand0) for b in hand0[i + 1:]]
    play(s, legal(s)[0])
    assert s.cur == 1 and not s.revealed
    view1 = s.view(1)
    assert view1.kept[0] == [HIDDEN, HIDDEN] and view1.dealt[0] == [HIDDEN] * 4
    assert "w" not in json.dumps(view1.to_dict()["players"][0]["start_tiles"])
    keep1 = legal(s)[-1]
    assert s.public_notation(s.parse_action(keep1), 1) == keep1
    assert s.public_notation(s.parse_action(keep1), 0) == "keep (hidden)"
    assert s.public_notation(s.parse_action(keep1), None) == "keep (hidden)"
    play(s, keep1)
    assert s.revealed and s.phase_name == "play" and s.cur == 0
    view0 = s.view(0)
    assert sorted(view0.dealt[1][:2]) == sorted(s.kept[1]) and view0.dealt[1][2:] == [HIDDEN] * 2


def test_draft_gives_tile_items():
    s = new_game("tzolkin", 2, seed=8)
    # make seat 0 keep w01 and w15 whatever was dealt (swap tiles with the box)
    want = [TILE_INDEX["w01"], TILE_INDEX["w15"]]
    for t in want:
        for pile in s.dealt[1:] + [s.tile_box, s.dummy_tiles]:
            if t in pile:
                pile[pile.index(t)] = s.dealt[0][want.index(t)]
                s.dealt[0][want.index(t)] = t
    from mayagames.tzolkin.positions import refresh
    refresh(s)
    assert s.invariants() == []
    play(s, "keep w01 w15")
    play(s, legal(s)[0])
    P = s.p[0]
    assert P[0] == 3 and P[14] == 1 and P[9] == 1 and P[6] == 4 and P[7] == 4


def test_keeping_undealt_tiles_is_illegal():
    s = new_game("tzolkin", 2, seed=8)
    other = next(DATA.tiles[t].id for t in range(21) if t not in s.dealt[0])
    mine = sorted(DATA.tiles[t].id for t in s.dealt[0])[0]
    a, b = sorted([other, mine])
    before = fingerprint(s)
    with pytest.raises(IllegalAction) as err:
        play(s, f"keep {a} {b}")
    assert "dealt to you" in err.value.message and fingerprint(s) == before


def test_views_hide_stacks_boxes_and_generator():
    s = new_game("tzolkin", 3, seed=2)
    draft(s)
    for seat in (0, 1, 2, None):
        d = s.view(seat).to_dict()
        assert set(d["buildings"]["stacks"][0]) == {"?"} and set(d["buildings"]["stacks"][1]) == {"?"}
        assert set(d["monuments"]["box"]) == {"?"} and set(d["start_tiles"]["box"]) <= {"?"}
        for other in range(3):
            if other != seat:
                assert d["players"][other]["start_tiles"]["dealt"][2:] == ["?", "?"]
    full = s.to_dict()
    assert "?" not in json.dumps(full)
    assert s.view(0).rng.state != s.rng.state


def test_a_view_does_not_carry_the_seed():
    """An agent gets a view object: with the true seed it could rebuild every hidden shuffle."""
    s = new_game("tzolkin", 2, seed=987_654)
    draft(s)
    for seat in (0, 1, None):
        view = s.view(seat)
        assert view.seed == 0
        rebuilt = new_game("tzolkin", 2, seed=view.seed)
        assert rebuilt.stacks != s.stacks
        assert view.determinize(Rng(1)).seed == 0


def test_determinize_resamples_consistently():
    s = new_game("tzolkin", 4, seed=2)
    play(s, legal(s)[0])
    play(s, legal(s)[1])
    view = s.view(2)
    worlds = [view.determinize(Rng(k)) for k in range(10)]
    for w in worlds:
        assert w.invariants() == []
        assert fingerprint(w.view(2)) == fingerprint(view)
        assert w.dealt[2] == s.dealt[2]
        assert set(w.kept[0]) <= set(w.dealt[0]) and len(w.kept[0]) == 2
    assert len({tuple(w.stacks[1]) for w in worlds}) > 1     # really resampled


def test_reveals_information():
    s = new_game("tzolkin", 2, seed=2)
    assert s.reveals_information(s.legal_actions()[0])
    draft(s)
    assert not s.reveals_information(s.parse_action("place tikal"))


def test_to_dict_layout_is_complete_and_json_ready():
    from mayagames.core.conformance import play_random_game
    state, _ = play_random_game("tzolkin", 3, seed=21)
    d = json.loads(json.dumps(state.to_dict()))
    assert set(d) == {"format", "game", "viewer", "num_players", "options", "phase", "current_player",
                      "decision", "calendar", "starting_player", "turn_index", "starting_player_space",
                      "gears", "skull_slots", "skulls_supply", "jungle", "burned_wood_tiles", "temples",
                      "buildings", "monuments", "start_tiles", "dummies", "players",
                      "last_food_day_unfed", "market", "scores", "final", "winners"}
    assert d["format"] == "tzolkin-state/1" and d["phase"] == "over"
    assert [g["name"] for g in d["gears"]] == list(GEARS)
    assert [len(g["spaces"]) for g in d["gears"]] == [8, 8, 8, 8, 11]
    assert set(d["players"][0]) == {"seat", "corn", "wood", "stone", "gold", "skulls", "vp", "workers",
                                    "techs", "temples", "board", "harvest_tiles", "farms", "buildings",
                                    "monuments", "start_tiles"}
    assert d["final"][0]["total"] == d["scores"][0]
    s = new_game("tzolkin", 2, seed=1)
    assert s.to_dict()["decision"] == {"kind": "draft"}


def test_seat_features():
    from mayagames.core import get_game
    s = new_game("tzolkin", 3, seed=4)
    features = get_game("tzolkin").plugin.seat_features
    assert features(s)[1] == {"seat": "1", "starting_player": "false", "tiles": ["?", "?"]}
    draft(s)
    f = features(s)
    assert f[0]["starting_player"] == "true" and f[2]["tiles"] == sorted(
        DATA.tiles[t].id for t in s.kept[2])
    assert features(s.view(1)) == f


def test_hidden_items_never_reach_another_seat_during_a_game():
    """At every decision of a game, no view of another seat (nor a spectator's) shows an
    unseen tile, stack or box item, and no log line shows another seat's draft pick."""
    s = new_game("tzolkin", 3, seed=44)
    rng = Rng(44)
    while not s.is_terminal:
        for seat in (0, 1, 2, None):
            d = s.view(seat).to_dict()
            assert {x for st in d["buildings"]["stacks"] for x in st} <= {"?"}
            assert set(d["buildings"]["box"]) <= {"?"} and set(d["monuments"]["box"]) <= {"?"}
            assert set(d["start_tiles"]["box"]) <= {"?"}
            for other in range(3):
                if other == seat:
                    continue
                shown = {t for t in d["players"][other]["start_tiles"]["dealt"] if t != "?"}
                kept = {DATA.tiles[t].id for t in s.kept[other]} if s.revealed else set()
                assert shown == kept
                assert set(d["players"][other]["start_tiles"]["kept"]) <= ({"?"} | kept)
        action = s.legal_actions()[rng.randbelow(len(s.legal_actions()))]
        for seat in (0, 1, 2, None):
            text = s.public_notation(action, seat)
            if seat != s.cur and isinstance(action, type(s.parse_action("keep w01 w02"))):
                assert text == "keep (hidden)"
        s.apply(action)

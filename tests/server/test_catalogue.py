"""The catalogue of each game (what every component id is and does) served to the boards:
complete against the engines' own data, consistent with it, public and static."""

from __future__ import annotations

import re

import pytest

from mayagames.core import new_game
from mayagames.web.catalogue import catalogue


def test_tikal_catalogue_names_every_card_tile_and_power(client):
    from mayagames.tikal.data import default_components

    data = default_components()
    answer = client.get("/api/games/tikal/catalogue")
    assert answer.status_code == 200
    assert "max-age" in answer.headers["cache-control"]
    c = answer.json()
    assert set(c["cards"]) == set(data.card_names)
    assert set(c["tiles"]) == {t.id for t in data.tiles}
    assert set(c["powers"]) == set(data.powers)
    for card in data.cards:
        entry = c["cards"][card.name]
        assert entry["text"] == card.text and entry["permanent"] == card.permanent
        assert entry["effect"] == card.effect and entry["params"] == dict(card.params)
        assert entry["title"] and "{" not in entry["title"]
    for tile in data.tiles:
        entry = c["tiles"][tile.id]
        assert entry["stones"] == list(tile.stones) and entry["type"] == tile.type
        if tile.type == "temple":
            assert entry["title"] == f"Temple, level {tile.value}"
    assert c["cards"]["moves-5"]["title"] == "5 free moves"
    assert c["cards"]["temple-t1"]["title"].startswith("Temple tile T-1 (level ")
    assert set(c["terrain"]) >= {h["kind"] for h in new_game("tikal", 2, seed=1).to_dict()["board"]["hexes"]}


def test_tikal_views_only_name_what_the_catalogue_knows(client):
    c = client.get("/api/games/tikal/catalogue").json()
    state = new_game("tikal", 4, seed=3)
    view = state.view(0).to_dict()
    assert set(view["cards"]["display"]) <= set(c["cards"])
    assert set(view["tiles"]["display"]) <= set(c["tiles"])
    for player in view["players"]:
        assert set(player["director"]["powers"]) <= set(c["powers"])


def test_tzolkin_catalogue_matches_the_component_data(client):
    from mayagames.tzolkin.components import DATA

    c = client.get("/api/games/tzolkin/catalogue").json()
    assert c["rounds"] == 27  # the last Food Day (day 27) ends the game, not the 26 teeth
    for b in DATA.buildings:
        entry = c["buildings"][b.id]
        assert entry["cost"] == {k: n for k, n in zip(("wood", "stone", "gold"), b.cost) if n}
        assert entry["category"] == b.category and entry["effect"]
    assert set(c["buildings"]) == {b.id for b in DATA.buildings}
    for m in DATA.monuments:
        entry = c["monuments"][m.id]
        assert entry["cost"].get("skull", 0) == m.skull_cost and entry["effect"]
    assert c["monuments"]["m13"]["cost"] == {"gold": 4, "skull": 1}
    assert set(c["start_tiles"]) == {t.id for t in DATA.tiles}
    for gear in DATA.gears:
        spaces = c["gears"][gear.name]["spaces"]
        assert len(spaces) == gear.spaces
        assert spaces[0].startswith("Entry") and spaces[-1].startswith("Free choice")
    chichen = next(g for g in DATA.gears if g.name == "chichen")
    for k, spec in enumerate(chichen.action_list, start=1):  # each space says its own VP
        assert f"{spec['vp']} VP" in c["gears"]["chichen"]["spaces"][k]
    assert c["temples"]["chaac"]["vp"] == list(DATA.temples[0].vp)
    assert c["market"] == {"wood": 2, "stone": 3, "gold": 4}


@pytest.mark.parametrize("building, words", [
    ("a1-f1", ["Farm", "1 worker needs no corn"]),
    ("a1-t3", ["temple of your choice", "one more building"]),
    ("a2-t4", ["1 corn", "Uxmal", "2 VP"]),
    ("a2-b5", ["2 free technology advances"]),
])
def test_tzolkin_building_effects_read_as_the_rules(building, words):
    text = catalogue("tzolkin")["buildings"][building]["effect"]
    for word in words:
        assert word in text, (building, text)


def test_catalogue_of_a_game_without_one_and_of_no_game(client):
    assert client.get("/api/games/toy/catalogue").json() == {"game": "toy"}
    answer = client.get("/api/games/nosuchgame/catalogue")
    assert answer.status_code == 404
    assert answer.json()["error"] == "no_game"


def test_catalogue_holds_no_secret_of_a_table():
    """Static data only: the same for every game and seat, and no seed or deck order."""
    text = str(catalogue("tikal")) + str(catalogue("tzolkin"))
    assert not re.search(r"seed|rng|deck order", text, re.IGNORECASE)
    assert catalogue("tikal") is catalogue("tikal")  # built once


def test_every_tikal_card_effect_has_icons():
    """The board draws an action card's effect as icons (games/tikal.js, cardIcons): every
    effect of the data file has its case there, and each icon it names is drawn."""
    import re

    from mayagames.tikal.data import default_components
    from mayagames.web import STATIC_DIR

    board = (STATIC_DIR / "games" / "tikal.js").read_text()
    body = board[board.index("function cardIcons("):board.index("function cardIconsHtml(")]
    handled = set(re.findall(r'case "(\w+)":', body))
    assert {card.effect for card in default_components().cards} <= handled
    icons = (STATIC_DIR / "games" / "icons.js").read_text()
    drawn = set(re.findall(r"^  (\w+): '", icons, re.M))
    named = set(re.findall(r'\["(\w+)"', body)) | set(re.findall(r'\{ T: "(\w+)", L: "(\w+)", V: "(\w+)" \}', board)[0])
    assert named and named <= drawn, named - drawn

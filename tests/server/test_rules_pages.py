"""Rules pages (/rules/NAME) and the plain-language option texts of GET /api/games."""

from __future__ import annotations

import re

import pytest

from mayagames.core import get_game
from mayagames.web.rules import section_ids


@pytest.mark.parametrize("game, sections", [
    ("tikal", {"components", "the-round", "your-turn", "ap-actions", "scoring", "museum-directors",
               "action-cards", "our-readings"}),
    ("tzolkin", {"components", "the-turn", "the-gears", "technologies", "buildings", "monuments",
                 "temples", "food-days", "final-scoring", "our-readings"}),
])
def test_rules_page_is_served_as_html_with_section_anchors(client, game, sections):
    response = client.get(f"/rules/{game}")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    page = response.text
    ids = set(re.findall(r'<h[23] id="([a-z0-9-]+)">', page))
    assert sections <= ids and set(section_ids(get_game(game))) == ids
    assert "<table>" in page and get_game(game).title.split(":")[0] in page
    assert "<script" not in page  # Markdown rendered without raw HTML


def test_unknown_game_and_game_without_rules_are_404(client):
    assert client.get("/rules/nope").json()["error"] == "no_game"
    assert client.get("/rules/toy").json()["error"] == "no_rules"


def test_tikal_rules_page_gives_every_ap_cost_of_the_data():
    info = get_game("tikal")
    costs = get_game("tikal").new_game(2, 0, info.resolve_options({})).C.ap_costs
    text = info.rules_page
    rows = {"deploy": "Deploy an EM", "transfer": "Move an EM between Base Camps",
            "base_camp": "Set up a Base Camp", "trail_stone": "Place a Trail Stone token",
            "recruit_explorer": "Recruit an Explorer", "recruit_leader": "Recruit a Leader",
            "clear_floor": "Clear a Temple Floor", "guardian": "Place a Guardian",
            "unearth": "Unearth a treasure", "trade": "Trade treasures"}
    for key, row in rows.items():
        assert f"| {row} | {costs[key]} AP |" in text, key


def test_tzolkin_rules_page_agrees_with_the_data():
    from mayagames.tzolkin.components import DATA

    text = get_game("tzolkin").rules_page
    for temple in DATA.temples:
        steps = ", ".join(str(v) for v in temple.vp)
        assert f"| {temple.title} | {steps} | {temple.bonus[0]} / {temple.bonus[1]} |" in text
    days = [str(d) for d, _, _ in DATA.food_days]
    assert f"days **{', '.join(days[:-1])} and {days[-1]}**" in text
    assert f"eats **{DATA.corn_per_worker} corn**" in text and f"costs **{-DATA.unfed_vp} VP**" in text
    assert "| Extra corn | " + " | ".join(str(t) for t in DATA.tariff) + " |" in text


def test_games_list_options_in_plain_language(client):
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    for name in ("tikal", "tzolkin"):
        assert games[name]["rules"] == f"/rules/{name}"
        for option in games[name]["options"]:
            assert option["label"] and "_" not in option["label"] and option["explain"]
            assert "gap" not in option["explain"] and "'" + option["name"] not in option["explain"]
            if option["choices"] and not all(isinstance(c, int) and not isinstance(c, bool)
                                             for c in option["choices"]):
                assert set(option["choice_labels"]) == {str(c) for c in option["choices"]}
                assert all(label and "_" not in label for label in option["choice_labels"].values())
    assert games["toy"]["rules"] is None


@pytest.mark.parametrize("game", ["tikal", "tzolkin"])
def test_every_rules_link_of_the_board_module_has_its_section(game):
    """The board's details link to sections of the rules page (data-rules): each anchor a
    module names is a heading of that game's page, and the catalogue items have one."""
    from mayagames.web import STATIC_DIR

    module = (STATIC_DIR / "games" / f"{game}.js").read_text()
    table = re.search(r"const RULES = \{(.*?)\};", module, re.S)
    assert table, "the module names its rules sections in one RULES table"
    sections = dict(re.findall(r'(\w+): "([a-z0-9-]+)"', table.group(1)))
    used = set(re.findall(r"RULES\.(\w+)", module))
    assert used == set(sections)  # every section named is used, every one used is named
    named = set(sections.values())
    assert named and named <= set(section_ids(get_game(game))), named - set(section_ids(get_game(game)))
    wanted = {"tikal": {"components", "action-cards", "museum-directors", "scoring"},
              "tzolkin": {"buildings", "monuments", "technologies", "temples", "the-gears"}}[game]
    assert wanted <= named

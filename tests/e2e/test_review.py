"""The review page (/review/ID) and the hint button, in Chromium against a live server."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
expect = pytest.importorskip("playwright.sync_api").expect


@pytest.fixture
def review_server(tmp_path: Path, support: Any) -> Iterator[Any]:
    """Bots move at once; reviews and hard hints use small iteration budgets."""
    from mayagames.server import create_app
    from mayagames.server.limits import ServerLimits

    app = create_app(f"sqlite:///{tmp_path / 'review.db'}", list_test_games=True,
                     review_budget="30i", hint_budgets={"hard": "40i"},
                     limits=ServerLimits(allow_fixed_seed=True))  # the tests fix seeds
    with support.LiveServer(app) as live:
        yield live


def finished_bot_game(server: Any, support: Any, seed: int = 4) -> str:
    import httpx

    with httpx.Client(base_url=server.url) as client:
        table = support.create_table(client, agents=["random", "random"], seed=seed)["table"]
        deadline = time.monotonic() + 30
        while not client.get(f"/api/tables/{table}").json()["terminal"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    return table


def test_review_page_shows_graph_losses_and_the_bots_move(review_server, new_page, support, shots):
    table = finished_bot_game(review_server, support)
    page = new_page()
    page.goto(f"{review_server.url}/table/{table}")
    link = page.locator("#summary-review")
    link.wait_for()
    assert link.get_attribute("href") == f"/review/{table}"
    link.click()
    page.wait_for_url(f"**/review/{table}")
    page.locator("#graph polyline").first.wait_for(timeout=30_000)
    assert page.locator("#graph polyline").count() == 2  # one line per player
    assert page.locator("#players tbody tr").count() == 2
    assert "%" in page.locator("#players tbody tr").first.inner_text()
    assert page.locator("#losses h3").count() == 2
    page.locator("#step-first").click()
    expect(page.locator("#step-label")).to_have_text(re.compile(r"^before move 1 "))
    verdict = page.locator("#verdict")
    # step through until a searched decision: played move and the bot's preference are shown
    for _ in range(12):
        text = verdict.inner_text()
        if "Played" in text:
            break
        page.locator("#step-next").click()
        page.wait_for_timeout(150)
    text = verdict.inner_text()
    assert "Played" in text and "win chance" in text
    assert ("the bot prefers" in text) or ("the bot's choice too" in text)
    assert page.locator("#board svg").count() == 1
    page.screenshot(path=str(shots / "review-page.png"), full_page=True)
    # the review was computed once: asking again (a reload) serves the stored one
    page.reload()
    page.locator("#graph polyline").first.wait_for()
    import httpx

    answer = httpx.get(f"{review_server.url}/api/tables/{table}/review").json()
    assert answer["status"] == "done" and answer["review"]["moves"] > 0


def test_review_of_an_unfinished_game_says_so(review_server, new_page, support):
    import httpx

    with httpx.Client(base_url=review_server.url) as client:
        table = support.create_table(client, seed=3)["table"]
    page = new_page()
    page.goto(f"{review_server.url}/review/{table}")
    expect(page.locator("#status")).to_contain_text("not over")


def test_hint_button_shows_the_bots_move(review_server, new_page, support, shots):
    import httpx

    with httpx.Client(base_url=review_server.url) as client:
        data = support.create_table(client, agents=["human", "random"], seed=5)
    page = new_page()
    page.goto(f"{review_server.url}/table/{data['table']}#token={data['tokens'][0]}")
    page.locator("#hint").wait_for()
    page.locator("#hint").click()
    expect(page.locator("#hint-text")).to_contain_text("suggests")
    text = page.locator("#hint-text").inner_text()
    url = f"{review_server.url}/api/tables/{data['table']}/hints"
    hints = httpx.get(url, headers=support.bearer(data["tokens"][0])).json()["hints"]
    # the game's sentence ("P0 plays a 6 ..."), not the notation ("play 6")
    assert len(hints) == 1 and "suggests: P0 " in text and hints[0]["action"] not in text
    assert re.search(r"the only move|best move|close call", text)  # how sure, in words (issue 23)
    assert httpx.get(url).json()["hints"] == []  # the seat's own until the game ends
    hinted = page.locator("#moves button.hinted")  # the hinted button stands out
    expect(hinted).to_have_count(1)
    page.screenshot(path=str(shots / "hint.png"))
    spectator = new_page()
    spectator.goto(f"{review_server.url}/table/{data['table']}")
    spectator.locator("#status").wait_for()
    spectator.wait_for_timeout(500)
    assert spectator.locator("#hint-box").is_hidden()


def test_a_hint_answered_after_the_player_moved_is_not_shown(review_server, new_page, support):
    """The server answered the hint for move N, but the answer reaches the page after the
    player moved: it is dropped (no text, no hinted button) rather than shown for a later
    decision."""
    import httpx

    with httpx.Client(base_url=review_server.url) as client:
        data = support.create_table(client, agents=["human", "random"], seed=5)
    page = new_page()
    page.goto(f"{review_server.url}/table/{data['table']}#token={data['tokens'][0]}")
    page.locator("#hint").wait_for()
    held: list[Any] = []
    page.route(re.compile(r".*/hint$"), lambda route: held.append((route, route.fetch())))
    page.locator("#hint").click()
    expect(page.locator("#hint-text")).to_contain_text("thinking")
    page.wait_for_timeout(200)
    assert len(held) == 1 and held[0][1].status == 200  # the server's hint for this move
    before = page.locator("#log li").count()
    page.locator("#moves button").first.click()
    expect(page.locator("#log li")).not_to_have_count(before)  # the player moved (the bot maybe too)
    page.locator("#hint-box").wait_for(state="visible")  # the player's turn again: the page settled
    page.wait_for_timeout(500)
    route, answer = held[0]
    route.fulfill(response=answer)
    page.wait_for_timeout(500)  # the answer handled; no later state message clears it for us
    assert "suggests" not in page.locator("#hint-text").inner_text()
    assert page.locator("#moves button.hinted").count() == 0

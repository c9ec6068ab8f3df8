"""The lobby as a Board Game Arena player meets it (issue 23, items 8 and 12): each of your
tables listed once, the open tables' options in the game's words, and "your turn" pushed
to the lobby the moment the other player moves (not at the next 15-second poll)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
from playwright.sync_api import expect

PUSHED_MS = 5_000  # well under the lobby's 15 s poll: only a push gets there in time


def play_until(page: Any, table: str, seat: int) -> None:
    """This browser's account plays first legal moves until ``seat`` is to move."""
    for _ in range(50):
        state = page.context.request.get(f"/api/tables/{table}").json()
        if state["current_player"] == seat:
            return
        response = page.context.request.post(f"/api/tables/{table}/moves", data={
            "move_number": state["move_number"], "action_id": 0})
        assert response.ok, response.text()
    raise AssertionError(f"seat {seat} never came to move")


def test_lobby_lists_each_table_once_names_options_and_pushes_your_turn(players_server, new_page, support):
    url = players_server.url
    ana, ben = new_page(base_url=url), new_page(base_url=url)
    support.register_in_lobby(ana, url, "Ana")
    ana.select_option("#game", "tzolkin")
    ana.select_option("#players", "2")
    ana.select_option("[name=agent-1]", "human")
    ana.select_option("[data-option=dummy_placement]", '"single"')
    ana.check("#public")
    ana.select_option("#speed", "turn:24h")
    ana.click("#create")
    expect(ana.locator("#created")).to_contain_text("free seat, listed in the open lobby")
    table = ana.locator("#created-id").inner_text()

    # item 8: the account's list and this device's list together show the table once
    mine = ana.locator(f"#account-tables a[href='/table/{table}'], #mine a[href='/table/{table}']")
    expect(ana.locator(f"#account-tables tr[data-table='{table}']")).to_have_count(1)
    ana.wait_for_timeout(500)  # the device's list has drawn too
    expect(mine).to_have_count(1)
    ana.reload()
    expect(ana.locator(f"#account-tables tr[data-table='{table}']")).to_have_count(1)
    ana.wait_for_timeout(500)
    expect(mine).to_have_count(1)

    # item 12: the open table's options in the game package's words, not raw keys
    support.register_in_lobby(ben, url, "Ben")
    row = ben.locator(f"#open tr[data-table='{table}']")
    expect(row).to_contain_text("Neutral workers (2-3 players): one per revealed tile only")
    expect(row).not_to_contain_text("dummy_placement")
    expect(row).not_to_contain_text("Jungle tiles")  # a default is not worth a line

    # item 8: the lobby hears of the other player's move at once (pushed)
    row.locator("button.join").click()
    ben.wait_for_url(f"**/table/{table}")
    badge = ana.locator("#turn-badge")
    first = ana.context.request.get(f"/api/tables/{table}").json()["current_player"]
    if first == 0:
        expect(badge).to_have_text("your turn at 1", timeout=PUSHED_MS)
        play_until(ana, table, 1)
        expect(badge).to_be_hidden(timeout=PUSHED_MS)
    else:
        expect(badge).to_be_hidden()
    play_until(ben, table, 0)
    expect(badge).to_have_text("your turn at 1", timeout=PUSHED_MS)
    expect(ana.locator(f"#account-tables tr[data-table='{table}'].your-turn")).to_have_count(1)


@pytest.fixture
def toy_server(tmp_path: Path, support: Any) -> Iterator[Any]:
    from mayagames.server import create_app
    from mayagames.server.limits import ServerLimits

    app = create_app(f"sqlite:///{tmp_path / 'resign.db'}", bot_delay=0.0, list_test_games=True,
                     fast_password_hashes=True, limits=ServerLimits().without_rate_limits())
    with support.LiveServer(app) as live:
        yield live


def test_resign_asks_first_then_ends_a_two_player_rated_game(toy_server, new_page, support):
    """Issue 23.6: a Resign button, a confirm, a loss; with 2 players the game is over."""
    url = toy_server.url
    ana, ben = new_page(base_url=url), new_page(base_url=url)
    support.register_in_lobby(ana, url, "Ana")
    support.register_in_lobby(ben, url, "Ben")
    created = ana.context.request.post("/api/tables", data={
        "game": "toy", "players": 2, "public": True, "rated": True})
    assert created.ok, created.text()
    table = created.json()["table"]
    assert ben.context.request.post(f"/api/tables/{table}/join", data={"seat": 1}).ok
    ana.goto(f"/table/{table}")
    ben.goto(f"/table/{table}")
    expect(ana.locator("#resign")).to_be_visible()
    ana.once("dialog", lambda dialog: dialog.dismiss())  # "Resign this game?" - no
    ana.click("#resign")
    ana.wait_for_timeout(300)
    assert ana.context.request.get(f"/api/tables/{table}").json()["terminal"] is False
    messages = []
    ana.once("dialog", lambda dialog: (messages.append(dialog.message), dialog.accept()))
    ana.click("#resign")
    expect(ben.locator("#table-notice")).to_contain_text("Ana resigned: the game is over.")
    expect(ana.locator("#resign")).to_be_hidden()
    expect(ben.locator("#resign")).to_be_hidden()
    assert "counts as a loss on the ladder" in messages[0] and "the game ends" in messages[0]
    board = {r["name"]: r for r in ana.context.request.get("/api/ratings/toy").json()["ratings"]}
    assert board["Ben"]["rating"] > board["Ana"]["rating"]


def test_play_now_pairs_two_waiting_players_at_one_table(players_server, new_page, support):
    """Issue 23.16: "Play now" per game; the second player's click pairs the two, and both
    lobbies open the same rated table (the first one's told by the push)."""
    url = players_server.url
    ana, ben = new_page(base_url=url), new_page(base_url=url)
    support.register_in_lobby(ana, url, "Ana")
    expect(ana.locator("#quick")).to_be_visible()
    ana.select_option("#quick-wait", "300")
    ana.click("#quick-games button[data-game=tzolkin]")
    expect(ana.locator("#quick-text")).to_contain_text("Looking for an opponent for Tzolk'in")
    expect(ana.locator("#quick-bot")).to_be_hidden()
    support.register_in_lobby(ben, url, "Ben")
    ben.click("#quick-games button[data-game=tzolkin]")
    ben.wait_for_url("**/table/*")
    ana.wait_for_url("**/table/*", timeout=PUSHED_MS)
    assert ana.url == ben.url
    table = ana.url.rsplit("/", 1)[1]
    state = ana.context.request.get(f"/api/tables/{table}").json()
    assert state["lobby"]["rated"] and sorted(p["account"] for p in state["players"]) == ["Ana", "Ben"]
    assert state["seat"] is not None
    expect(ana.locator("#status")).not_to_contain_text("Connecting")


def test_a_private_clock_waits_for_the_friend_and_a_hot_seat_starts_it(server, new_page):
    """Issue 23.7: a private real-time table's clock starts when every seat is taken: not
    while the friend has not opened the link; at once on a hot-seat device (both seats)."""
    page = new_page(base_url=server.url)
    page.goto("/")
    page.select_option("#game", "toy")
    page.select_option("#players", "2")
    page.select_option("[name=agent-1]", "human")
    page.select_option("#speed", "realtime:5+5")
    page.click("#create")
    expect(page.locator("#created")).to_be_visible()
    table = page.locator("#created-id").inner_text()
    page.click("#invites a[data-seat='0']")  # the creator plays seat 1 here
    page.wait_for_url(f"**/table/{table}*")
    expect(page.locator("#clocks tbody tr")).to_have_count(2)
    page.wait_for_timeout(500)
    expect(page.locator("#clocks td.running")).to_have_count(0)  # the friend is not there yet
    assert page.context.request.get(f"/api/tables/{table}").json()["clock"]["waiting"] == [1]

    page.goto("/")  # a second table played hot-seat on this device: both seats are there
    page.select_option("#game", "toy")
    page.select_option("#players", "2")
    page.select_option("[name=agent-1]", "human")
    page.select_option("#speed", "realtime:5+5")
    page.click("#create")
    expect(page.locator("#hotseat")).to_be_visible()
    other = page.locator("#created-id").inner_text()
    page.click("#hotseat")
    page.wait_for_url(f"**/table/{other}*")
    expect(page.locator("#clocks td.running")).to_have_count(1)

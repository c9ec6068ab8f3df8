"""Two people meet in the open lobby and play a whole rated Tzolk'in game in two browser
contexts: accounts made in the lobby form, a public table, the other one joins it with one
click, the lobby badges whose turn it is, chat (shown as text), the turn-based clock on the
table, the game played to its end (the first moves clicked, the rest sent through each
browser's own session), then the ladder and the profile page with its rating plot."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect


def play_first_legal(page: Any, table: str) -> dict[str, Any]:
    """The seat of this browser's account plays its first legal move (through its session)."""
    state = page.context.request.get(f"/api/tables/{table}").json()
    response = page.context.request.post(f"/api/tables/{table}/moves", data={
        "move_number": state["move_number"], "action_id": 0})
    assert response.ok, response.text()
    return response.json()


def test_two_accounts_meet_in_the_lobby_and_play_tzolkin(players_server, new_page, shots, support):
    url = players_server.url
    ana, ben = new_page(base_url=url), new_page(base_url=url)
    support.register_in_lobby(ana, url, "Ana")
    ana.select_option("#game", "tzolkin")
    ana.select_option("#players", "2")
    ana.select_option("[name=agent-1]", "human")
    ana.check("#public")
    ana.check("#rated")
    ana.select_option("#speed", "turn:24h")
    ana.click("#create")
    expect(ana.locator("#created")).to_contain_text("free seat, listed in the open lobby")
    table = ana.locator("#created-id").inner_text()

    support.register_in_lobby(ben, url, "Ben")
    row = ben.locator(f"#open tr[data-table='{table}']")
    expect(row).to_contain_text("Ana")
    expect(row).to_contain_text("rated")
    expect(row).to_contain_text("turn-based: 1 days per turn")
    snap_lobby = shots / "lobby-open-tables.png"
    ben.screenshot(path=snap_lobby, full_page=True)
    row.locator("button.join").click()
    ben.wait_for_url(f"**/table/{table}")
    ana.goto(f"/table/{table}")

    first = ana.context.request.get(f"/api/tables/{table}").json()["current_player"]
    mover, waiter = (ana, ben) if first == 0 else (ben, ana)
    expect(mover.locator("#status")).to_contain_text("Your turn")
    expect(waiter.locator("#status")).to_contain_text("Waiting for")
    expect(mover.locator("#clocks td.running")).to_have_count(1)  # the turn's 24 h run
    # the lobby badges where it is your turn (a second page of the same person)
    lobby = mover.context.new_page()
    lobby.goto(url + "/")
    expect(lobby.locator("#turn-badge")).to_have_text("your turn at 1")
    expect(lobby.locator(f"#account-tables tr[data-table='{table}']")).to_contain_text("your turn")
    lobby.close()

    # chat reaches the other browser, as text
    waiter.fill("#chat-text", "<b>good luck</b>")
    waiter.click("#chat-form button")
    expect(mover.locator("#chat li")).to_contain_text("<b>good luck</b>")
    assert mover.locator("#chat li b").count() == 0

    # the first move by clicking the list of moves, then the rest through each session
    mover.locator("#moves button").first.click()
    expect(waiter.locator("#log li")).not_to_have_count(0)
    mover.screenshot(path=shots / "table-account-clock-chat.png", full_page=True)
    pages = {0: ana, 1: ben}
    for _ in range(2000):
        state = ana.context.request.get(f"/api/tables/{table}").json()
        if state["terminal"]:
            break
        play_first_legal(pages[state["current_player"]], table)
    else:
        raise AssertionError("the game did not end")
    for page in (ana, ben):
        expect(page.locator("#status")).to_contain_text("Game over", timeout=30_000)
    ana.screenshot(path=shots / "table-account-game-over.png", full_page=True)

    board = ana.context.request.get("/api/ratings/tzolkin").json()["ratings"]
    assert {r["name"] for r in board} == {"Ana", "Ben"} and all(r["games"] == 1 for r in board)
    ana.goto("/")
    ana.select_option("#ladder-game", "tzolkin")
    expect(ana.locator("#ladder tr")).to_have_count(2)
    ana.goto("/profile/Ben")
    expect(ana.locator("#player-name")).to_have_text("Ben")
    expect(ana.locator("#history-svg .history-point")).to_have_count(1)
    expect(ana.locator("#player-games tr")).to_have_count(1)
    ana.screenshot(path=shots / "profile.png", full_page=True)


def account_page(new_page: Any, url: str, name: str) -> Any:
    """A browser context logged in as a new account (made through the API: quicker)."""
    page = new_page(base_url=url)
    made = page.context.request.post("/api/accounts", data={"name": name, "password": "correct horse battery"})
    assert made.ok, made.text()
    return page


def play_to_the_end(pages: dict[int, Any], table: str) -> None:
    for _ in range(500):
        state = pages[0].context.request.get(f"/api/tables/{table}").json()
        if state["terminal"]:
            return
        play_first_legal(pages[state["current_player"]], table)
    raise AssertionError("the game did not end")


def test_rematch_between_accounts(players_server, new_page):
    """Two accounts finish a game; one clicks Rematch in the summary and lands at the new
    table in their seat; the other follows the offer from the old table's page."""
    url = players_server.url
    ana, ben = account_page(new_page, url, "Ana"), account_page(new_page, url, "Ben")
    table = ana.context.request.post("/api/tables", data={
        "game": "toy", "players": 2, "public": True}).json()["table"]
    assert ben.context.request.post(f"/api/tables/{table}/join", data={"seat": 1}).ok
    play_to_the_end({0: ana, 1: ben}, table)
    ana.goto(f"/table/{table}")
    expect(ana.locator("#summary-rematch")).to_be_visible()  # no link held: the account's seat
    ana.click("#summary-rematch")
    ana.wait_for_url(lambda u: "/table/" in u and table not in u)
    new = ana.url.split("/table/")[1].split("?")[0].split("#")[0]
    expect(ana.locator("#status")).not_to_contain_text("Connecting")
    assert ana.context.request.get(f"/api/tables/{new}").json()["seat"] == 0
    ben.goto(f"/table/{table}")
    expect(ben.locator("#rematch-link")).to_have_attribute("href", f"/table/{new}")
    ben.click("#summary-close")
    ben.click("#rematch-link")
    ben.wait_for_url(f"**/table/{new}")
    assert ben.context.request.get(f"/api/tables/{new}").json()["seat"] == 1
    for page, seat in ((ana, 0), (ben, 1)):  # each browser plays its own seat there
        state = page.context.request.get(f"/api/tables/{new}").json()
        assert state["seat"] == seat and state["move_number"] == 0


def test_creator_reissues_an_invite_link(players_server, new_page):
    """The creator's Invite links card makes a new link for a guest seat: the old link
    stops opening the seat, the new one opens it."""
    url = players_server.url
    ana = account_page(new_page, url, "Ana")
    created = ana.context.request.post("/api/tables", data={"game": "toy", "players": 2}).json()
    table, old = created["table"], created["seats"][1]["token"]
    assert old
    ana.goto(f"/table/{table}")
    card = ana.locator("#invites-card")
    expect(card).to_be_visible()
    card.locator("summary").click()
    expect(card.locator("li")).to_have_count(1)  # seat 1 only: seat 0 is an account's
    ana.click("#invite-seat-1")
    link = ana.locator("#invite-link-1")
    expect(link).to_be_visible()
    value = link.input_value()
    assert value.startswith(f"{url}/table/{table}#token=")
    fresh = value.split("#token=")[1]
    assert fresh != old
    guest = new_page(base_url=url)
    stale = guest.context.request.get(f"/api/tables/{table}", headers={"Authorization": f"Bearer {old}"})
    assert stale.status == 401
    guest.goto(value)
    expect(guest.locator("#status")).not_to_contain_text("Connecting")
    mine = guest.context.request.get(f"/api/tables/{table}", headers={"Authorization": f"Bearer {fresh}"})
    assert mine.json()["seat"] == 1
    expect(guest.locator("#invites-card")).to_be_hidden()  # not the creator

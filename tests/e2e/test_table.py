"""The table page as a Board Game Arena player expects it (issue 12): the log as sentences
grouped by turn with the game's events, appended rather than rebuilt; the signs that it is
your turn (title, favicon, a notification when the tab is hidden); the other players' last
moves marked on the board; the rules links; the first-game guide; the hot-seat rule (pass
the device only when the next view holds secrets); the rematch; the raw view only behind
?debug=1."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import expect

YOUR_TURN = re.compile(r"^(Your turn, [^—]+|Game over.*)$")

# A stand-in for the browser's Notification API (headless Chromium has none that shows):
# it records the permission request and every notification shown.
FAKE_NOTIFICATIONS = """
window.__notes = []; window.__asked = 0;
class FakeNotification {
  constructor(title, options) { window.__notes.push({ title, body: options && options.body }); }
  close() {}
}
FakeNotification.permission = 'default';
FakeNotification.requestPermission = () => { window.__asked += 1; FakeNotification.permission = 'granted'; return Promise.resolve('granted'); };
window.Notification = FakeNotification;
"""

HIDE_TAB = """() => {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def open_seat(page, url, table, seat=0, query=""):
    page.goto(f"{url}/table/{table['table']}{query}#token={table['tokens'][seat]}")
    expect(page.locator("#status")).to_have_text(YOUR_TURN)


def test_your_turn_signals_log_and_last_moves(quick_server, new_page, support):
    """Tikal against a bot: the title and favicon say whose turn it is; a click asks for
    notification permission and a hidden tab is notified; the log groups sentences by turn
    and only appends; the bot's last moves are marked on the board; the rules are linked;
    the raw view is not shown to players."""
    with httpx.Client(base_url=quick_server.url) as http:
        table = support.create_table(http, game="tikal", agents=["human", "random"], seed=3)
    page = new_page(reduced_motion="reduce")
    page.add_init_script(FAKE_NOTIFICATIONS)
    open_seat(page, quick_server.url, table)
    expect(page).to_have_title(re.compile(r"^● Your turn — Tikal"))
    assert page.locator("#favicon").get_attribute("href").startswith("data:image/svg+xml")
    expect(page.locator("#rules-link")).to_have_attribute("href", "/rules/tikal")
    expect(page.locator("#debug")).to_be_hidden()
    assert page.locator("#view-json").inner_text() == ""

    for turn in range(12):  # our moves, the bot answering each time, until it touched a place
        expect(page.locator("#status")).to_have_text(YOUR_TURN)
        if turn >= 4 and page.locator("#board .last-move").count():
            break
        logged = page.locator("#log li").count()
        if turn == 1:
            page.evaluate("document.querySelector('#log li').dataset.kept = 'yes'")
        page.locator("#board .target").first.click()
        chooser = page.locator("#chooser button[data-action-id]")
        if chooser.count():
            chooser.first.click()
        page.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=logged)
    expect(page.locator("#status")).to_have_text(YOUR_TURN)
    assert page.evaluate("window.__asked") == 1  # the permission was asked at the first click
    # appended, not rebuilt: the first line is still the same element
    expect(page.locator("#log li").first).to_have_attribute("data-kept", "yes")
    turns = page.locator("#log .log-turn")
    assert turns.count() >= 3
    heads = turns.locator(".log-turn-head").all_inner_texts()
    assert any("P0" in h for h in heads) and any("P1" in h for h in heads)
    for sentence in page.locator("#log li .sentence").all_inner_texts()[:20]:
        assert sentence.strip()
    marked = page.locator("#board .last-move")
    assert marked.count() >= 1, "the bot's last move is marked on the board"

    page.evaluate(HIDE_TAB)
    notes = page.evaluate("window.__notes.length")
    page.locator("#moves button").first.click()  # the list of moves plays too
    page.wait_for_function("n => window.__notes.length > n", arg=notes, timeout=20_000)
    note = page.evaluate("window.__notes[window.__notes.length - 1]")
    assert note["title"] == "Your turn" and table["table"] in note["body"]

    page.goto(f"{quick_server.url}/table/{table['table']}?debug=1")
    expect(page.locator("#debug")).to_be_visible()
    page.locator("#debug summary").click()
    expect(page.locator("#view-json")).to_contain_text('"board"')


def test_log_shows_sentences_events_and_score_tables(server, new_page):
    """The log module, fed entries as the server sends them: sentences (the notation when
    a server sends none) grouped by turn, events under their move with their tables, and
    cut back on undo."""
    page = new_page()
    page.goto(server.url + "/")
    result = page.evaluate("""async () => {
      const { createLog } = await import('/static/js/log.js');
      const box = document.createElement('div'); document.body.append(box);
      const panels = [];
      const log = createLog(box, { seatName: (s) => ['Ana', 'Ben'][s], onEvent: (e) => panels.push(e.kind) });
      log.update(0, [
        { n: 1, seat: 0, text: 'deploy explorer e4', sentence: 'Ana deploys an Explorer at e4 for 1 AP', turn: 1, places: ['e4'], events: [] },
        { n: 2, seat: 0, text: 'end', sentence: 'Ana ends her turn', turn: 1, places: [], events: [] },
      ]);
      log.update(2, [
        { n: 3, seat: 1, text: 'unearth h3', sentence: 'Ben unearths a treasure at h3', turn: 2, places: ['h3'],
          events: [{ kind: 'scoring', text: 'Volcano: In-Game Scoring', table: { title: 'Points', columns: ['player', 'temples', 'total'], rows: [['Ana', 4, 4], ['Ben', 2, 2]] } },
                   { kind: 'round', text: 'Round 2 begins' }] },
        { n: 4, seat: 0, text: 'pass' },
      ]);
      const state = () => ({
        turns: [...box.querySelectorAll('.log-turn')].map((t) => [t.querySelector('.log-turn-head').textContent, t.querySelectorAll('li').length]),
        sentences: [...box.querySelectorAll('li .sentence')].map((s) => s.textContent),
        events: [...box.querySelectorAll('.log-event')].map((e) => e.dataset.kind),
        cells: [...box.querySelectorAll('.log-event table td')].map((c) => c.textContent),
        heads: [...box.querySelectorAll('.log-event table th')].map((c) => c.textContent),
      });
      const full = state();
      log.update(3, []);  // an undo of the last move
      const undone = state();
      return { full, undone, panels };
    }""")
    full = result["full"]
    assert full["turns"] == [["Ana", 2], ["Ben", 1], ["Ana", 1]]
    assert full["sentences"] == ["Ana deploys an Explorer at e4 for 1 AP", "Ana ends her turn",
                                 "Ben unearths a treasure at h3", "pass"]
    assert full["events"] == ["scoring", "round"]
    # the table turned to fit the log: a column per player, a row per category
    assert full["heads"] == ["player", "Ana", "Ben", "temples", "total"]
    assert full["cells"] == ["4", "2", "4", "2"]
    assert result["panels"] == ["scoring"]  # a scoring also opens the panel on the board
    assert result["undone"]["turns"] == [["Ana", 2], ["Ben", 1]]


def test_first_game_guide_is_shown_once(server, new_page, support):
    with httpx.Client(base_url=server.url) as http:
        table = support.create_table(http, game="tzolkin", agents=["human", "random"], seed=2)
    page = new_page(tour=True)
    open_seat(page, server.url, table)
    tour = page.locator("#tour")
    expect(tour).to_be_visible()
    expect(page.locator("#actionbar")).to_have_class(re.compile("tour-focus"))
    texts = [page.locator("#tour-text").inner_text()]
    while page.locator("#tour-next").inner_text() != "Done":
        page.click("#tour-next")
        texts.append(page.locator("#tour-text").inner_text())
    assert len(texts) >= 5 and len(set(texts)) == len(texts)
    page.click("#tour-next")
    expect(tour).to_be_hidden()
    page.reload()
    expect(page.locator("#status")).to_have_text(YOUR_TURN)
    expect(tour).to_be_hidden()  # remembered on this device
    page.click("#tour-open")  # and reopened on demand
    expect(tour).to_be_visible()


def test_hot_seat_passes_the_device_only_for_secrets(server, new_page, support):
    """Tally has no hidden information: the seats follow each other without a hand-over
    screen, and the players panel follows who is to move."""
    with httpx.Client(base_url=server.url) as http:
        table = support.create_table(http, game="tally", agents=["human", "human"], seed=1)
    pairs = ",".join(f"{seat}:{token}" for seat, token in table["tokens"].items())
    page = new_page()
    page.goto(f"{server.url}/table/{table['table']}#tokens={pairs}")
    seen = set()
    for _ in range(3):
        expect(page.locator("#status")).to_have_text(YOUR_TURN)
        status = page.locator("#status").inner_text()
        seen.add(status)
        mover = status.removeprefix("Your turn, ")
        expect(page.locator("#scores tr.to-move")).to_contain_text(mover)
        while not page.locator("#moves button", has_text=re.compile("^end$")).count():
            page.locator("#moves button", has_text="add 1").first.click()
            expect(page.locator("#status")).to_have_text(YOUR_TURN)
        page.locator("#moves button", has_text=re.compile("^end$")).click()
        expect(page.locator("#status")).not_to_have_text(status)
        expect(page.locator("#handover")).to_be_hidden()
    assert {"Your turn, P0", "Your turn, P1"} <= seen


def test_rematch_from_the_summary(server, new_page, support):
    with httpx.Client(base_url=server.url) as http:
        table = support.create_table(http, game="toy", agents=["human", "random"], seed=2)
        auth = {"Authorization": f"Bearer {table['tokens'][0]}"}
        for _ in range(60):  # play our turns by the API up to the end
            state = http.get(f"/api/tables/{table['table']}", headers=auth).json()
            if state["terminal"]:
                break
            if state["legal"]:
                http.post(f"/api/tables/{table['table']}/moves", headers=auth,
                          json={"move_number": state["move_number"], "action_id": 0})
            else:
                import time
                time.sleep(0.05)
        assert state["terminal"]
    page = new_page()
    page.goto(f"{server.url}/table/{table['table']}#token={table['tokens'][0]}")
    expect(page.locator("#summary")).to_be_visible()
    page.click("#summary-rematch")
    page.wait_for_url(re.compile(r"/table/(?!" + re.escape(table["table"]) + r")[\w-]+$"))
    expect(page.locator("#status")).to_have_text(YOUR_TURN)
    new_id = page.url.rstrip("/").split("/")[-1]
    with httpx.Client(base_url=server.url) as http:
        fresh = http.get(f"/api/tables/{new_id}").json()
        old = http.get(f"/api/tables/{table['table']}").json()
    assert fresh["move_number"] <= 1 and not fresh["terminal"]
    assert [s["name"] for s in fresh["seats"]] == ["P0", "P1"]
    assert [s["agent"] for s in fresh["seats"]] == ["human", "random"]
    assert old["rematch"] == new_id


def test_details_link_to_the_rules_sections(server, new_page, support):
    """A building's details (Tzolk'in) and a tile's or card's (Tikal) end with a link to
    that part of the rules page; the details stay while the pointer moves onto the link."""
    with httpx.Client(base_url=server.url) as client:
        tzolkin = support.create_table(client, game="tzolkin", agents=["human", "random"], seed=4)
        tikal = support.create_table(client, game="tikal", agents=["human", "random"], seed=4)
    page = new_page()
    page.goto(f"{server.url}/table/{tzolkin['table']}#token={tzolkin['tokens'][0]}")
    building = page.locator("#board .tz-card.building").first
    expect(building).to_be_visible()
    link = page.locator("#tip a.tip-rules")
    for _ in range(3):  # (a redraw while the page settles closes the details: point again)
        building.hover()
        expect(link).to_have_attribute("href", "/rules/tzolkin#buildings")
        box = link.bounding_box()
        if box is None:
            continue
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=4)
        page.wait_for_timeout(600)  # longer than the details wait for a pointer gone
        if link.is_visible():
            break
    expect(link).to_be_visible()  # the pointer crossed the gap: the details stayed
    with page.expect_popup() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_url("**/rules/tzolkin#buildings")  # (a popup starts as about:blank)
    expect(rules.locator("#buildings")).to_be_visible()
    rules.close()
    page.locator("#board .tz-res").first.hover()  # details without a rules section: no link
    expect(page.locator("#tip")).to_be_visible()
    expect(link).to_have_count(0)

    page.goto(f"{server.url}/table/{tikal['table']}#token={tikal['tokens'][0]}")
    chip = page.locator("#board .tk-card").first
    expect(chip).to_be_visible()
    # each action card shows what it does as icons: (cards, cards with icons) in one look
    cards, drawn = page.eval_on_selector_all(
        "#board .tk-card",
        "cards => [cards.length, cards.filter(c => c.querySelector('.tk-card-icons svg')).length]")
    assert cards >= 4 and drawn == cards
    chip.hover()
    expect(link).to_have_attribute("href", "/rules/tikal#action-cards")
    page.mouse.move(1, 1)
    expect(page.locator("#tip")).to_be_hidden()  # gone once the pointer is away

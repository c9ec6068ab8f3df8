"""What a Board Game Arena player still tripped over at the table (issue 23, the browser
items 3, 4, 9, 10, 13, 14, 15): every pending choice within reach of the sticky bar, the
player panels always on screen, the replay's own marks and controls, the scoring panels
folding away and the last-move ring riding with its worker, the hint in the game's words,
Tikal's AP costs in the menu, the Guardian clear of the temple's value, and pages that fit
a phone."""

from __future__ import annotations

import functools
import random
import re
import time
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest
from playwright.sync_api import expect

LAPTOP = (1280, 800)
PHONE = (390, 844)


class Table:
    """A table of two people whose moves the test plays through the API (random, seeded)."""

    def __init__(self, http: httpx.Client, support: Any, game: str, seed: int = 5,
                 agents: list[str] | None = None, options: dict[str, Any] | None = None) -> None:
        self.http = http
        self.data = support.create_table(http, game=game, agents=agents or ["human", "human"], seed=seed,
                                         options=options)
        self.id = self.data["table"]
        self.tokens = self.data["tokens"]
        self.rng = random.Random(seed)
        self.bearer = support.bearer

    def state(self, seat: int | None = None) -> dict[str, Any]:
        token = self.tokens.get(seat) if seat is not None else None
        return self.http.get(f"/api/tables/{self.id}", headers=self.bearer(token)).json()

    def mine(self) -> dict[str, Any]:
        return self.state(self.state()["current_player"])

    def play(self, action: dict[str, Any], state: dict[str, Any]) -> None:
        answer = self.http.post(f"/api/tables/{self.id}/moves", headers=self.bearer(self.tokens[state["seat"]]),
                                json={"move_number": state["move_number"], "action_id": action["id"]})
        assert answer.status_code == 200, answer.text

    def random_move(self) -> dict[str, Any]:
        state = self.mine()
        self.play(self.rng.choice(state["legal"]), state)
        return state


def page_for(new_page: Any, url: str, table: Table, seat: int, size: tuple[int, int]) -> Any:
    phone = size == PHONE
    page = new_page(width=size[0], height=size[1], is_mobile=phone, has_touch=phone, reduced_motion="reduce")
    page.goto(f"{url}/table/{table.id}#token={table.tokens[seat]}")
    page.locator("#board > *").first.wait_for()
    return page


# What the player can act on: every option a button in the sticky bar (in view), or at least
# one of the board's targets in view below the bar (the page scrolled to them).
REACH = """() => {
  const bar = document.getElementById('actionbar').getBoundingClientRect();
  const inView = (r) => r.width > 0 && r.height > 0 && r.bottom > bar.bottom - 1 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
  const barButtons = [...document.querySelectorAll('#bar-moves button')];
  const barInView = barButtons.length > 0 && barButtons.every((b) => { const r = b.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight + 1 && r.bottom <= bar.bottom + 1; });
  const targets = [...document.querySelectorAll('#board .target')];
  const boardInView = targets.some((t) => inView(t.getBoundingClientRect()));
  return { barButtons: barButtons.length, barInView, targets: targets.length, boardInView,
           moves: document.querySelectorAll('#moves button').length };
}"""


@functools.cache
def tikal_steps() -> dict[str, tuple[str, ...]]:
    """Tikal's frames whose choice takes several steps (a Trail Stone's token, hex and side;
    a trade's take and give...), with their steps in order: the keys of the frame's prompts."""
    from mayagames.tikal.frames import FRAME_CLASSES

    return {kind: tuple(cls.prompts) for kind, cls in FRAME_CLASSES.items() if len(cls.prompts) > 1}


def step_name(kind: str, step: str | None) -> str:
    """A Tikal frame's kind, with its step when the frame has several ("stone/side"; the
    frame's unnamed first step is the kind alone, as Base Camp's)."""
    return f"{kind}/{step}" if step and kind in tikal_steps() else kind


def kind_of(state: dict[str, Any]) -> str:
    view = state["view"]
    if state["game"] == "tzolkin":
        return (view.get("decision") or {}).get("kind") or view.get("phase", "")
    pending = view.get("pending")
    return step_name(pending["kind"], pending.get("step")) if pending else view.get("phase", "")


# Every kind of pending decision, by the name the table's view gives it (``kind_of``): the
# sub-decision frames of each engine, and Tikal's two phases whose choice is no frame
# (rule 4 Round Management: a statuette space, an AP token, a tile or a card; rule 5, a
# turn of the action phase: keep, play or use a card, activate the AP token, place a tile,
# use a director power, or pass). Tikal's choices of several steps are walked at each step
# (``step_name``: the page must offer the second step's options too, e.g. the trade's give).
TZOLKIN_KINDS = ("draft", "turn", "placing", "picking", "choose action", "advance calendar", "harvest",
                 "anger the gods", "temple step", "two temples", "technology", "pay blocks", "take blocks",
                 "market", "mirror", "offering", "build")
TIKAL_KINDS = ("round_management", "action", "ap", "stone/token", "stone/hex", "stone/side", "tile/hex",
               "tile/rotation", "discard", "trade/take", "trade/give", "camp", "camp/figure", "recruit",
               "explorers", "ruin_place", "dig", "temple_base", "clear", "tracker", "relocate/from",
               "relocate/to", "fisher/from", "fisher/to", "journalist")
# the Fisher's Explorer from a hex of the board (its step "from") needs the table option
TIKAL_OPTIONS: dict[str, Any] = {"fisher_source": "supply_or_board"}


def test_the_kinds_walked_are_every_kind_the_engines_have():
    """The lists the reach test walks name every frame kind of both engines, and every step
    of Tikal's frames of several steps (a new kind of sub-decision, or a new step, must be
    walked too)."""
    from mayagames.tikal.frames import FRAME_CLASSES
    from mayagames.tzolkin.frames import FRAME_TYPES

    assert sorted(TZOLKIN_KINDS) == sorted(cls.kind for cls in FRAME_TYPES)
    steps = tikal_steps()
    assert {"stone", "tile", "trade", "camp", "relocate", "fisher"} <= set(steps)
    named = [step_name(kind, step) for kind in FRAME_CLASSES for step in steps.get(kind, ("",))]
    assert sorted(TIKAL_KINDS) == sorted([*named, "round_management", "action"])


def engine_kind(game: str, state: Any) -> str:
    """What ``kind_of`` reads in the table's view, read on the engine's own state."""
    if game == "tzolkin":
        return str(state.decision()["kind"])
    if not state.stack:
        return str(state.phase_name)
    frame = state.stack[-1]
    return step_name(frame.kind, frame.step)


def a_real_choice(game: str, state: Any, kinds: list[str]) -> str | None:
    """The kind of the decision ``state`` waits on, if it is one of ``kinds`` with more than
    one option (a single option is no choice to reach)."""
    if state.current_player is None:
        return None
    kind = engine_kind(game, state)
    return kind if kind in kinds and len(state.legal_actions()) > 1 else None


class Walk:
    """One game of a table's seed: its moves (indices into the legal list, as the API's
    ``action_id``), the seat to move before each, and ``stops``: move index -> kind of
    decision met there first."""

    def __init__(self, seed: int, options: dict[str, Any]) -> None:
        self.seed = seed
        self.options = options
        self.moves: list[int] = []
        self.seats: list[int] = []
        self.stops: dict[int, str] = {}


def walks_to_every_kind(game: str, seeds: tuple[int, ...], kinds: tuple[str, ...], playouts: int,
                        options: dict[str, Any] | None = None) -> list[Walk]:
    """Local games (the engine alone, no HTTP) from the tables' seeds, steered toward the
    kinds not met yet: random moves, except that a move leading straight to such a decision
    is taken. The server's table replays the same: its state is ``new_state(game, 2, seed, options)``
    and the API's ``action_id`` indexes ``legal_actions()``. Random play alone meets the
    rare kinds too seldom (Tzolk'in's offering after Chichen Itza at Theology 2); a Tikal
    game deals two of the Museum Directors (2.10), so the Tracker, Hunter or Driver
    (relocate), Fisher and Journalist need several seeds. Deterministic: fixed seeds, at
    most ``playouts`` games a seed; the walks that met a new kind, cut at their last stop."""
    from mayagames.core.game import new_state
    from mayagames.core.registry import get_game

    info = get_game(game)
    missing = list(kinds)
    walks: list[Walk] = []
    for seed in seeds:
        rng = random.Random(seed)
        for _ in range(playouts):
            if not missing:
                return walks
            state, walk = new_state(info, 2, seed, options), Walk(seed, dict(options or {}))
            while state.current_player is not None and len(walk.moves) < info.max_decisions:
                legal = state.legal_actions()
                kind = a_real_choice(game, state, missing)
                if kind:
                    missing.remove(kind)
                    walk.stops[len(walk.moves)] = kind
                if not missing:
                    break
                move = rng.randrange(len(legal))
                for i, action in enumerate(legal):  # one step ahead: a decision still missing
                    after = state.clone()
                    after.apply_unchecked(action)
                    if a_real_choice(game, after, missing):
                        move = i
                        break
                walk.moves.append(move)
                walk.seats.append(state.current_player)
                state.apply_unchecked(legal[move])
            if walk.stops:
                last = max(walk.stops)
                walk.moves, walk.seats = walk.moves[:last], walk.seats[:last]
                walks.append(walk)
    assert not missing, (game, seeds, missing)
    return walks


def test_every_kind_of_choice_is_within_reach_on_laptop_and_phone(quick_server, new_page, support):
    """Every kind of decision of both games (Tzolk'in's draft, turn, build, take blocks,
    offering...; Tikal's AP turn, Trail Stone, tile, trade, Tracker, Round Management...,
    each step of Tikal's choices of several steps: the trade's give, the stone's side...),
    both seats people: at the first decision of each kind, the page of the seat to move, on
    a 1280x800 laptop and a 390x844 phone, shows every option as a button in the sticky bar,
    or has scrolled a target of the board into view (issue 23: "Choose what to build" with
    the cards below the fold). The games are found on the engine (``walks_to_every_kind``)
    and replayed on the table through the API."""
    seen: dict[str, list[str]] = {}
    with httpx.Client(base_url=quick_server.url, timeout=30) as http:
        for game, kinds, seeds, options in (("tzolkin", TZOLKIN_KINDS, (11,), None),
                                            ("tikal", TIKAL_KINDS, (11, 12), TIKAL_OPTIONS)):
            for walk in walks_to_every_kind(game, seeds, kinds, playouts=12, options=options):
                table = Table(http, support, game, seed=walk.seed, options=walk.options)
                for number in range(len(walk.moves) + 1):
                    if number in walk.stops:
                        state = table.mine()
                        kind = kind_of(state)
                        assert (kind, state["move_number"]) == (walk.stops[number], number), (game, walk.seed)
                        assert len(state["legal"]) > 1, (game, kind)
                        seen.setdefault(game, []).append(kind)
                        for size in (LAPTOP, PHONE):  # the page opened at the decision (scrolled to the top)
                            page = page_for(new_page, quick_server.url, table, state["seat"], size)
                            page.wait_for_timeout(150)  # the frame after the draw (the scroll to the targets)
                            reach = page.evaluate(REACH)
                            assert reach["barInView"] or reach["boardInView"], (game, kind, size, reach)
                            page.context.close()
                    if number < len(walk.moves):
                        answer = http.post(f"/api/tables/{table.id}/moves",
                                           headers=table.bearer(table.tokens[walk.seats[number]]),
                                           json={"move_number": number, "action_id": walk.moves[number]})
                        assert answer.status_code == 200, answer.text
    print("kinds of decisions walked:", seen)
    assert sorted(seen["tzolkin"]) == sorted(TZOLKIN_KINDS), seen
    assert sorted(seen["tikal"]) == sorted(TIKAL_KINDS), seen


def test_player_panels_show_each_seats_goods_always_on_screen(quick_server, new_page, support, shots):
    """BGA's player panels: each seat's resources next to its score (Tzolk'in corn, wood,
    stone, gold, skulls, workers; Tikal AP, treasures, cards, figures), on screen however
    far down the page is scrolled: the side column's Players card on a laptop, the sticky
    bar on a phone."""
    with httpx.Client(base_url=quick_server.url, timeout=30) as http:
        for game, icons in (("tzolkin", 6), ("tikal", 5)):
            table = Table(http, support, game, seed=3)
            for _ in range(30):
                table.random_move()
            seat = table.state()["current_player"]
            view = table.state(seat)["view"]
            laptop = page_for(new_page, quick_server.url, table, seat, LAPTOP)
            rows = laptop.locator("#scores tr")
            expect(rows).to_have_count(2)
            expect(rows.nth(0).locator(".seat-panel .res-i")).to_have_count(icons)
            if game == "tzolkin":
                p = view["players"][0]
                corn = rows.nth(0).locator(".seat-panel .res-i").first
                expect(corn).to_have_attribute("title", f"{p['corn']} corn")
            else:  # the action cards as a drawn card (a glyph's font may lack it)
                camp = view["players"][0]["campsite"]
                cards = len(camp["left"]) + len(camp["right"])
                expect(rows.nth(0).locator(".seat-panel .res-i:has(svg.ic-card)")).to_have_attribute(
                    "title", f"{cards} action card{'' if cards == 1 else 's'} on the campsite")
            laptop.locator("#players-card").screenshot(path=str(shots / f"panels-{game}.png"))
            laptop.evaluate("window.scrollTo(0, document.body.scrollHeight)")
            laptop.wait_for_timeout(100)
            box = laptop.locator("#players-card").bounding_box()
            assert box and box["y"] >= 0 and box["y"] + 40 < LAPTOP[1], box  # still on screen

            phone = page_for(new_page, quick_server.url, table, seat, PHONE)
            phone.evaluate("window.scrollTo(0, document.body.scrollHeight / 2)")
            phone.wait_for_timeout(100)
            panels = phone.locator("#bar-panels .bar-panel")
            expect(panels).to_have_count(2)
            box = panels.first.bounding_box()
            assert box and 0 <= box["y"] < PHONE[1] / 2, box
            expect(panels.first.locator(".res-i")).to_have_count(icons)
            phone.locator("#bar-panels").screenshot(path=str(shots / f"panels-{game}-phone.png"))


def finished_tikal(server: Any, support: Any) -> str:
    with httpx.Client(base_url=server.url, timeout=30) as http:
        table = support.create_table(http, game="tikal", agents=["random", "random"], seed=4)["table"]
        deadline = time.monotonic() + 120
        while not http.get(f"/api/tables/{table}").json()["terminal"]:
            assert time.monotonic() < deadline
            time.sleep(0.2)
    return table


def test_replay_marks_its_step_not_the_live_games_last_turn(quick_server, new_page, support):
    """A replay step shows the rings of the move that led to it (and marks its line in the
    log), not the live game's last turn; its controls sit above the board."""
    table = finished_tikal(quick_server, support)
    page = new_page()
    page.goto(f"{quick_server.url}/table/{table}")
    page.locator("#summary-replay").click()
    expect(page.locator("#replay-label")).to_have_text(re.compile(r"^move 0 of \d+"))
    assert page.locator("#board .last-move").count() == 0  # the start: nothing played yet
    controls = page.locator("#replay-bar").bounding_box()
    board = page.locator("#board").bounding_box()
    assert controls and board and controls["y"] + controls["height"] <= board["y"] + 1
    for step in (5, 12):
        page.locator("#replay-step").fill(str(step))
        expect(page.locator("#replay-label")).to_have_text(re.compile(rf"^move {step} of"))
        marked = page.locator("#log li.replay-step")
        expect(marked).to_have_count(1)
        expect(marked).to_have_attribute("data-n", str(step))
        rings = page.locator("#board .last-move")
        assert rings.count() == page.locator("#board .last-move.replay-step").count()
    page.locator("#replay-next").click()
    expect(page.locator("#log li.replay-step")).to_have_attribute("data-n", "13")


def test_a_food_day_panel_folds_at_the_next_turn_and_rings_follow_workers(quick_server, new_page, support):
    """Tzolk'in: the Food Day table shown above the board folds away once the player moves
    in a later turn (it stays in the log); a ring on another player's last placed worker
    moves with the gear as it turns (it rings a space holding that player's worker)."""
    with httpx.Client(base_url=quick_server.url, timeout=30) as http:
        table = Table(http, support, "tzolkin", seed=8)
        page = page_for(new_page, quick_server.url, table, 0, LAPTOP)
        shown = folded = False
        followed = 0
        for _ in range(400):
            state = table.random_move()
            if state["terminal"]:
                break
            page.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=state["move_number"])
            panel = page.locator("#event-panel")
            if not shown and panel.is_visible() and panel.get_attribute("data-kind") == "food_day":
                shown = True
                expect(page.locator("#log .log-event.food_day")).to_have_count(1)
            elif shown and not folded and not panel.is_visible():
                folded = True
                expect(page.locator("#log .log-event.food_day")).to_have_count(1)  # still in the log
            rings = page.evaluate("""() => [...document.querySelectorAll('#board [data-place*=":"].last-move')]
              .map((n) => [n.dataset.place, Number(n.dataset.lastSeat)])""")
            gears = {g["name"]: g["spaces"] for g in table.state(0)["view"]["gears"]}
            for place, seat in rings:
                gear, space = place.split(":")
                # the worker there, or the space it was picked up from: never another's
                assert gears[gear][int(space)] in (seat, None), (place, seat, gears[gear])
                followed += gears[gear][int(space)] == seat
            if folded and followed >= 5:
                break
        assert shown and folded
        assert followed >= 5


def test_tikal_menu_shows_ap_costs_and_the_guardian_leaves_the_temples_value(quick_server, new_page, support):
    """Tikal: in an AP turn each move's label says what it costs (the Trail Stones crossed);
    a Guardian on a temple does not cover its value."""
    with httpx.Client(base_url=quick_server.url, timeout=30) as http:
        table = Table(http, support, "tikal", seed=3)
        for _ in range(400):
            state = table.mine()
            if any(a["kind"] == "Move" for a in state["legal"]) and kind_of(state) == "ap":
                break
            table.play(table.rng.choice(state["legal"]), state)
        else:
            raise AssertionError("no AP turn with a move")
        page = page_for(new_page, quick_server.url, table, state["seat"], LAPTOP)
        moves = [a for a in state["legal"] if a["kind"] == "Move"]
        labels = page.locator("#moves button").all_inner_texts()
        moved = [t for t in labels if t.startswith("Move ")]
        assert len(moved) == len(moves) and all(re.search(r"\(\d+ AP\)$", t) for t in moved), moved
        # a Guardian on a temple of value 10: the two boxes do not meet
        view = table.state(state["seat"])
        boxes = page.evaluate("""async (s) => {
          const tikal = await import('/static/games/tikal.js');
          const hex = s.view.board.hexes.find((h) => h.kind === 'temple');
          hex.level = 10; hex.guardian = 0;
          const drawn = tikal.render({ view: s.view, legal: [], seat: s.seat, seats: s.seats, numPlayers: 2, current: 0,
            terminal: false, scores: [0, 0], catalogue: {}, winners: [], replay: false });
          const box = document.createElement('div'); box.style.width = '900px'; box.innerHTML = drawn.html;
          document.body.append(box);
          const g = box.querySelector(`[data-place="${hex.name}"]`);
          const r = (n) => n.getBoundingClientRect().toJSON();
          return [r(g.querySelector('.tk-level text')), r(g.querySelector('.tk-guardian'))]; }""", view)
        level, guardian = boxes
        apart = (level["right"] <= guardian["left"] or guardian["right"] <= level["left"] or
                 level["bottom"] <= guardian["top"] or guardian["bottom"] <= level["top"])
        assert apart, boxes


@pytest.fixture
def review_server(tmp_path: Path, support: Any) -> Iterator[Any]:
    """Bots move at once; reviews use a small iteration budget."""
    from mayagames.server import create_app
    from mayagames.server.limits import ServerLimits

    app = create_app(f"sqlite:///{tmp_path / 'review.db'}", bot_delay=0.0, review_budget="4i",
                     limits=ServerLimits(allow_fixed_seed=True).without_rate_limits())
    with support.LiveServer(app) as live:
        yield live


def test_phone_header_fits_and_the_review_page_fits_the_screen(review_server, new_page, support):
    """The phone's header is not wider than the screen and "Guide" is not clipped; the
    review page is no wider than the screen, on a laptop and on a phone."""
    quick_server = review_server
    table = finished_tikal(quick_server, support)
    with httpx.Client(base_url=quick_server.url, timeout=60) as http:
        http.post(f"/api/tables/{table}/review")
        deadline = time.monotonic() + 240
        while http.get(f"/api/tables/{table}/review").json().get("status") != "done":
            assert time.monotonic() < deadline
            time.sleep(0.5)
    page = new_page(width=PHONE[0], height=PHONE[1], is_mobile=True, has_touch=True)
    page.goto(f"{quick_server.url}/table/{table}")
    page.locator("#board > *").first.wait_for()
    sizes = page.evaluate("""() => { const g = document.getElementById('tour-open');
      return [document.documentElement.scrollWidth, innerWidth, document.querySelector('header.top').scrollWidth,
              g.scrollWidth, g.clientWidth]; }""")
    assert sizes[0] <= PHONE[0] and sizes[1] == PHONE[0] and sizes[2] <= PHONE[0], sizes
    assert sizes[3] <= sizes[4], sizes  # "Guide" whole
    for width, height in ((1400, 800), PHONE):
        phone = width == PHONE[0]
        page = new_page(width=width, height=height, is_mobile=phone, has_touch=phone)
        page.goto(f"{quick_server.url}/review/{table}")
        page.locator("#graph polyline").first.wait_for(timeout=30_000)
        page.locator("#step-next").click()
        wide = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert wide[0] <= width and wide[1] == width, (width, wide)


def test_a_forced_choice_that_spends_goods_is_confirmed_and_shown(quick_server, new_page, support):
    """Tzolk'in: a gear action whose only choice the engine makes at once and that spends
    goods ("do uxmal 4" building the only affordable building) asks the player first (the
    option is on by default); once confirmed, the log tells it and the board flashes it."""
    with httpx.Client(base_url=quick_server.url, timeout=30) as http:
        for seed in range(20, 40):
            table = Table(http, support, "tzolkin", seed=seed)
            found = None
            for _ in range(400):
                state = table.mine()
                if state["terminal"]:
                    break
                found = next((a for a in state["legal"] if a.get("settles")), None)
                if found:
                    break
                table.play(table.rng.choice(state["legal"]), state)
            if found:
                break
        assert found, "no forced choice met"
        page = page_for(new_page, quick_server.url, table, state["seat"], LAPTOP)
        expect(page.locator("#set-confirm")).to_be_checked()
        page.locator(f"#moves button[data-action-id='{found['id']}']").click()
        dialog = page.locator(".settle-confirm")
        expect(dialog).to_contain_text(found["settles"]["text"])
        assert table.state()["move_number"] == state["move_number"]  # nothing sent yet
        page.locator("#settle-ok").click()
        expect(page.locator("#log li.settled")).to_have_count(1)
        expect(page.locator("#log li").last).to_contain_text("builds")
        place = found["settles"]["places"][0]
        expect(page.locator(f"#board [data-place='{place}'].settled").first).to_be_attached()
        assert table.state()["move_number"] > state["move_number"]


def test_the_trade_prompt_says_where_to_click_at_each_step(quick_server, new_page):
    """Tikal's Trade Treasures (rule 6) takes first, then gives back: the bar's hint names
    the other player's museum while taking and the player's own treasures while giving
    (before, both steps said "click a treasure in another player's museum, then one of
    yours to give")."""
    page = new_page()
    page.goto(f"{quick_server.url}/")
    prompts = page.evaluate("""async () => {
      const tikal = await import('/static/games/tikal.js');
      const at = (step, question) => tikal.prompt({ view: { pending: { kind: 'trade', step, question } },
        legal: [], catalogue: {} });
      return [at('take', 'choose the treasures to take'), at('give', 'choose a treasure to give')]; }""")
    assert prompts == ["Choose the treasures to take: click a treasure in another player's museum.",
                       "Choose a treasure to give: click one of your treasures to give back."], prompts


def test_a_replay_step_answered_late_does_not_overwrite_a_later_one(quick_server, new_page, support):
    """The perspective changed and a far step asked at once: when the first answer comes last
    (delayed here), the page still shows the step asked last, its label, log and board
    agreeing (a chaos run under load once showed move 198's label over move 3's log)."""
    table = finished_tikal(quick_server, support)
    page = new_page()
    page.goto(f"{quick_server.url}/table/{table}")
    page.locator("#summary-replay").click()
    expect(page.locator("#replay-label")).to_have_text(re.compile(r"^move 0 of \d+"))
    page.locator("#replay-step").fill("3")
    expect(page.locator("#log li")).to_have_count(3)

    held: list[Any] = []  # the request for step 3 seen from seat 1, answered after step 20's
    page.route(re.compile(r".*/replay\?step=3&perspective=1$"), lambda route: held.append(route))
    page.select_option("#replay-perspective", "1")
    page.locator("#replay-step").fill("20")
    expect(page.locator("#replay-label")).to_have_text(re.compile(r"^move 20 of"))
    expect(page.locator("#log li")).to_have_count(20)
    assert len(held) == 1
    with page.expect_response(re.compile(r".*/replay\?step=3&perspective=1$")):
        held[0].continue_()
    page.wait_for_timeout(300)  # the late answer handled
    expect(page.locator("#replay-label")).to_have_text(re.compile(r"^move 20 of"))
    expect(page.locator("#log li")).to_have_count(20)
    expect(page.locator("#log li.replay-step")).to_have_attribute("data-n", "20")


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_summarys_buttons_stay_put_when_the_hints_line_arrives(quick_server, new_page, support, size):
    """The game's summary asks which hints were used after it is drawn; the answer's line goes
    below the buttons and the panel is anchored at the top, so a button about to be clicked
    does not move (it did: the line went above them and a click on Replay, under load, landed
    on the line and the replay never opened). The answer is held here until the buttons are
    measured."""
    table = finished_tikal(quick_server, support)
    page = new_page(*size)
    held: list[Any] = []
    page.route(re.compile(r".*/api/tables/[^/]+/hints$"), lambda route: held.append(route))
    page.goto(f"{quick_server.url}/table/{table}")
    replay = page.locator("#summary-replay")
    expect(replay).to_be_visible()
    page.wait_for_function("() => document.fonts.status === 'loaded'")
    before = replay.bounding_box()
    assert len(held) == 1
    with page.expect_response(re.compile(r".*/api/tables/[^/]+/hints$")):
        held[0].continue_()
    line = page.locator("#summary-hints")
    expect(line).to_have_text("No hints were used.")
    assert replay.bounding_box() == before
    line_box = line.bounding_box()
    assert before and line_box and line_box["y"] >= before["y"] + before["height"]
    replay.click()
    expect(page.locator("#replay-label")).to_have_text(re.compile(r"^move 0 of \d+"))
    expect(page.locator("#summary")).to_be_hidden()

"""Take the README's screenshots: a Tikal and a Tzolk'in table in mid-game, at laptop
(1366x768, the whole page) and phone (390x844, the first screen) size.

    .venv/bin/mayagames serve --port 8765 --no-open --allow-fixed-seed --database-url sqlite:////tmp/shots.db &
    .venv/bin/python docs/screenshots/take_screenshots.py http://127.0.0.1:8765

Both seats are people whose moves (random, seeded) are played through the API, then the
page of the seat to move is photographed in headless Chromium.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

HERE = Path(__file__).parent
MOVES = {"tikal": 150, "tzolkin": 75}


def call(http: httpx.Client, method: str, path: str, **kwargs: object) -> dict:
    """A request, waiting and retrying when the server's rate limit says so (429)."""
    while True:
        answer = http.request(method, path, **kwargs)
        if answer.status_code != 429:
            return answer.json()
        time.sleep(float(answer.headers.get("retry-after", "1")))


def mid_game(http: httpx.Client, game: str, moves: int, seed: int = 5) -> tuple[str, dict[int, str]]:
    table = call(http, "POST", "/api/tables", json={"game": game, "players": 2, "seed": seed,
                                           "seats": [{"name": "Ana"}, {"name": "Ben"}]})
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    rng = random.Random(seed)
    for _ in range(moves):
        public = call(http, "GET", f"/api/tables/{table['table']}")
        if public["terminal"]:
            break
        seat = public["current_player"]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        mine = call(http, "GET", f"/api/tables/{table['table']}", headers=auth)
        action = rng.choice(mine["legal"])
        call(http, "POST", f"/api/tables/{table['table']}/moves", headers=auth,
             json={"move_number": mine["move_number"], "action_id": action["id"]})
    return table["table"], tokens


def main(base: str) -> None:
    with httpx.Client(base_url=base, timeout=30) as http, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"])
        for game, moves in MOVES.items():
            table, tokens = mid_game(http, game, moves)
            seat = call(http, "GET", f"/api/tables/{table}")["current_player"]
            for size, viewport, phone in (("laptop", (1366, 768), False), ("phone", (390, 844), True)):
                context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]},
                                              is_mobile=phone, has_touch=phone, reduced_motion="reduce")
                context.add_init_script(f"localStorage.setItem('mayagames:tour:{game}', 'done')")
                page = context.new_page()
                page.goto(f"{base}/table/{table}#token={tokens[seat]}")
                page.wait_for_selector("#board .target")
                page.mouse.move(0, 0)
                page.wait_for_timeout(300)
                page.screenshot(path=HERE / f"{game}-{size}.png", full_page=not phone)
                context.close()
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")

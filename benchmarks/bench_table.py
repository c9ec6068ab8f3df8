"""Click to updated board in the browser, early in a game and late (move 300+).

Starts ``mayagames serve`` on a free port (SQLite in a temporary folder), creates a
two-seat table of humans, and plays:

* **early**: from move 0, seat 0 in headless Chromium clicks its moves (a highlighted
  place holding one move, else a button of the move list) while seat 1 answers through
  the REST API (a random legal move);
* **late**: both seats' random moves are played through the API up to ``--late`` moves,
  then the page is opened (the whole state and log arrive) and the clicks are timed again.

Each click is timed by a small probe injected into the page (it works with any version of
the client: it wraps the WebSocket and watches the status line): the **round trip** (the
``move`` sent to the next message received), the **render** (that message received to the
next painted frame after the page said the move was done, the board redrawn) and the
**total** (the click to that frame: what a player waits for). Medians and 95th
percentiles are printed; nothing is asserted.

``--src DIR`` serves the client and server of another checkout (e.g. a worktree of an
older commit) so that two versions can be measured side by side on a loaded machine.

    .venv/bin/python benchmarks/bench_table.py --game tikal --clicks 40 --late 300
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

CHROMIUM = "/usr/bin/chromium"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


class Server:
    """``mayagames serve`` in a subprocess on a free port (stopped on exit); ``src``: the
    ``src`` folder of another checkout to serve instead of the installed package."""

    def __init__(self, folder: Path, src: Path | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "MAYAGAMES_RATE_LIMITS": "off",  # the API plays both seats fast
               "MAYAGAMES_ALLOW_FIXED_SEED": "1"}  # the same game in every run
        if src is not None:
            env["PYTHONPATH"] = str(src.resolve())
        code = ("import sys; from mayagames.server.app import create_app; import uvicorn; "
                f"uvicorn.run(create_app('sqlite:///{folder / 'bench.db'}'), host='127.0.0.1', "
                f"port={self.port}, log_level='warning', ws='websockets-sansio', "
                "ws_per_message_deflate=False)")
        self.proc = subprocess.Popen([sys.executable, "-c", code], env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                if httpx.get(self.url + "/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class Table:
    """A two-seat table of people, both seats' tokens held here."""

    def __init__(self, http: httpx.Client, game: str, seed: int) -> None:
        self.http = http
        answer = http.post("/api/tables", json={"game": game, "players": 2, "seed": seed,
                                                "seats": [{"name": "Ana"}, {"name": "Ben"}]}).json()
        if "table" not in answer:
            raise RuntimeError(f"the table was not created: {answer}")
        self.id = answer["table"]
        self.tokens = {s["seat"]: s["token"] for s in answer["seats"]}
        self.rng = random.Random(seed)

    def state(self, seat: int | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {self.tokens[seat]}"} if seat is not None else {}
        return self.http.get(f"/api/tables/{self.id}", headers=headers).json()

    def random_move(self, seat: int) -> None:
        mine = self.state(seat)
        if mine["terminal"] or mine["current_player"] != seat:
            return
        action = self.rng.choice(mine["legal"])
        self.http.post(f"/api/tables/{self.id}/moves", json={"move_number": mine["move_number"],
                                                           "action_id": action["id"]},
                       headers={"Authorization": f"Bearer {self.tokens[seat]}"})

    def advance_to(self, moves: int) -> int:
        """Random moves by both seats until ``moves`` are played and seat 0 is to move."""
        while True:
            public = self.state()
            if public["terminal"]:
                return public["move_number"]
            if public["move_number"] >= moves and public["current_player"] == 0:
                return public["move_number"]
            self.random_move(public["current_player"])


# The probe: times each move from the click to the painted answer, whatever the client.
PROBE = """
window.__clicks = [];
(() => {
  const Native = window.WebSocket;
  window.WebSocket = function (...args) {
    const ws = new Native(...args);
    const send = ws.send.bind(ws);
    ws.send = (data) => {
      if (typeof data === 'string' && data.includes('"move"') && window.__click) window.__click.sent = performance.now();
      return send(data);
    };
    ws.addEventListener('message', () => {
      const c = window.__click;
      if (c && c.sent && !c.received) c.received = performance.now();
    });
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, { OPEN: 1, CLOSED: 3, CONNECTING: 0, CLOSING: 2 });
  document.addEventListener('DOMContentLoaded', () => {
    new MutationObserver(() => {
      const c = window.__click;
      const text = document.getElementById('status').textContent;
      if (!c || !c.received || c.done || text.includes('sending')) return;
      c.done = performance.now();
      requestAnimationFrame(() => setTimeout(() => { c.painted = performance.now(); window.__clicks.push(c); window.__click = null; }, 0));
    }).observe(document.getElementById('status'), { childList: true, characterData: true, subtree: true });
  });
})();
"""

CLICK = """() => {
  window.__click = { click: performance.now() };
  // a button of the list of moves: the same path in every version of the client
  const buttons = document.querySelectorAll('#moves button[data-action-id]');
  buttons[Math.floor(Math.random() * buttons.length)].click();
  return 'list';
}"""


def measure(page: Any, table: Table, clicks: int, timeout_s: float) -> list[dict[str, float]]:
    """Click ``clicks`` moves of seat 0 (seat 1 answering by the API); the page's timings."""
    page.evaluate("window.__clicks = []")
    done = 0
    deadline = time.monotonic() + timeout_s
    while done < clicks and time.monotonic() < deadline:
        public = table.state()
        if public["terminal"]:
            break
        if public["current_player"] != 0:
            table.random_move(public["current_player"])
            continue
        page.wait_for_function("() => /^Your turn, [^—]+$/.test(document.querySelector('#status').textContent) && !window.__click")
        page.evaluate(CLICK)
        done += 1
        page.wait_for_function("n => window.__clicks.length >= n", arg=done, timeout=30_000)
    return page.evaluate("window.__clicks")


def summarise(label: str, clicks: list[dict[str, float]], size: int) -> dict[str, Any]:
    trip = [c["received"] - c["sent"] for c in clicks]
    render = [c["painted"] - c["received"] for c in clicks]
    total = [c["painted"] - c["click"] for c in clicks]
    row = {"phase": label, "clicks": len(clicks), "state_kb": round(size / 1024, 1)}
    for name, values in (("round_trip", trip), ("render", render), ("total", total)):
        row[f"{name}_p50_ms"] = round(statistics.median(values), 1) if values else None
        row[f"{name}_p95_ms"] = round(percentile(values, 95), 1) if values else None
    return row


def run(game: str, clicks: int, late: int, seed: int, timeout_s: float,
        src: Path | None = None) -> list[dict[str, Any]]:
    from playwright.sync_api import sync_playwright

    rows = []
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder), src)
        try:
            with httpx.Client(base_url=server.url, timeout=30) as http, sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM if os.path.exists(CHROMIUM) else None,
                                             args=["--headless", "--no-sandbox", "--disable-gpu"])
                context = browser.new_context(viewport={"width": 1366, "height": 768}, reduced_motion="reduce")
                context.add_init_script(f"localStorage.setItem('mayagames:tour:{game}', 'done')")
                # no confirmation of forced choices (a person's click, not the board's time)
                context.add_init_script("localStorage.setItem('mayagames:settings', JSON.stringify({ confirm: false }))")
                context.add_init_script(PROBE)
                table = Table(http, game, seed)
                for label, target in (("early", 0), (f"late ({late}+)", late)):
                    at = table.advance_to(target)
                    if table.state()["terminal"]:
                        raise SystemExit(f"the game ended at move {at}, before move {target}: "
                                         f"use a smaller --late (a 2-player {game} game of random "
                                         f"moves is shorter)")
                    page = context.new_page()
                    page.goto(f"{server.url}/table/{table.id}#token={table.tokens[0]}")
                    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Your turn')")
                    size = len(json.dumps(table.state(0)))
                    timings = measure(page, table, clicks, timeout_s)
                    row = summarise(label, timings, size)
                    row["from_move"] = at
                    rows.append(row)
                    page.close()
                browser.close()
        finally:
            server.stop()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tikal")
    parser.add_argument("--clicks", type=int, default=40, help="timed clicks per phase")
    parser.add_argument("--late", type=int, default=300, help="moves played before the late phase")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=240, help="seconds per phase at most")
    parser.add_argument("--src", type=Path, default=None,
                        help="serve this checkout's src folder (another version) instead")
    args = parser.parse_args()
    for row in run(args.game, args.clicks, args.late, args.seed, args.timeout, args.src):
        print(json.dumps({"game": args.game, "src": str(args.src or "installed"), **row}), flush=True)


if __name__ == "__main__":
    main()

"""Test support for the server and browser tests: two small test games and helpers.

* ``toysecret``: the toy game where a ``swap`` is a secret choice, shown to other
  seats as ``swap ?`` (to test that the log hides what a seat may not know).
* ``tally``: a game without hidden information whose turns are several small
  decisions (``add 1``/``add 2``, at most twice, then ``end``), plus a ``draw`` that
  involves chance: the ground for undo tests.
* a ``slow`` agent that sleeps before moving (the event loop must stay responsive)
  and a ``broken`` one that raises.
They are registered per test by :func:`install` (monkeypatch), never globally.
* a live uvicorn server in a thread, for WebSocket clients and the browser.

Loaded by path from the conftest files (pytest runs in importlib mode).
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from mayagames.agents import AGENT_FACTORIES, RandomAgent
from mayagames.core.errors import NotationError
from mayagames.core.game import GameInfo, State
from mayagames.core import registry
from mayagames.core.registry import get_game
from mayagames.core.rng import Rng
from mayagames.core.toy import Swap, ToyState


# --- toysecret --------------------------------------------------------------------
class SecretToyState(ToyState):
    """Toy whose swaps are secret: other seats read ``swap ?``."""

    def public_notation(self, action: Any, seat: int | None) -> str:
        if isinstance(action, Swap) and seat != self.current_player:
            return "swap ?"
        return str(action)

    def clone(self) -> "SecretToyState":
        c = super().clone()
        c.__class__ = SecretToyState
        return c


TOY = get_game("toy")
SECRET_INFO = (replace(
    TOY, name="toysecret", title="Hidden High Card, secret swaps (test game)",
    new_game=lambda num_players, seed, options: SecretToyState(num_players, seed, options)))
SecretToyState.info = SECRET_INFO


# --- tally ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Add:
    KIND: ClassVar[str] = "Add"
    n: int

    def __str__(self) -> str:
        return f"add {self.n}"


@dataclass(frozen=True, slots=True)
class Draw:
    KIND: ClassVar[str] = "Draw"
    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class End:
    KIND: ClassVar[str] = "End"
    def __str__(self) -> str:
        return "end"


def parse_tally(text: str) -> Any:
    text = text.strip().lower()
    if text == "draw":
        return Draw()
    if text == "end":
        return End()
    m = re.fullmatch(r"add ([12])", text)
    if not m:
        raise NotationError(f"not a tally action: {text!r}")
    return Add(int(m.group(1)))


TURNS_PER_PLAYER = 2
STEPS_PER_TURN = 2


class TallyState(State):
    """Each turn: up to two of ``add 1``/``add 2``/``draw`` (a random 1-3), then ``end``."""

    def __init__(self, num_players: int, seed: int, options: dict[str, Any]) -> None:
        self.num_players, self.seed, self.options, self.viewer = num_players, seed, options, None
        self.rng = Rng(seed)
        self.totals = [0] * num_players
        self.turns_done = [0] * num_players
        self.turn = 0
        self.steps = 0

    @property
    def current_player(self) -> int | None:
        return None if min(self.turns_done) >= TURNS_PER_PLAYER else self.turn

    def legal_actions(self) -> list[Any]:
        if self.current_player is None:
            return []
        if self.steps >= STEPS_PER_TURN:
            return [End()]
        return [Add(1), Add(2), Draw()] + ([End()] if self.steps else [])

    def _apply(self, action: Any) -> None:
        if isinstance(action, Add):
            self.totals[self.turn] += action.n
            self.steps += 1
        elif isinstance(action, Draw):
            self.totals[self.turn] += self.rng.randint(1, 3)
            self.steps += 1
        else:
            self.turns_done[self.turn] += 1
            self.steps = 0
            self.turn = (self.turn + 1) % self.num_players

    def scores(self) -> list[float]:
        return [float(t) for t in self.totals]

    def clone(self) -> "TallyState":
        c = TallyState.__new__(TallyState)
        c.__dict__.update(self.__dict__)
        c.rng = self.rng.copy()
        c.totals, c.turns_done = list(self.totals), list(self.turns_done)
        return c

    def view(self, seat: int | None) -> "TallyState":
        v = self.clone()
        v.viewer, v.rng, v.seed = seat, Rng(0), 0  # a view carries neither generator nor seed
        return v

    def determinize(self, rng: Rng) -> "TallyState":
        full = self.clone()
        full.viewer, full.rng = None, rng.spawn()
        return full

    def to_dict(self) -> dict[str, Any]:
        return {"viewer": self.viewer, "turn": self.turn, "steps": self.steps,
                "totals": list(self.totals), "turns_done": list(self.turns_done)}

    def reveals_information(self, action: Any) -> bool:
        return isinstance(action, Draw)


TALLY_INFO = (GameInfo(
    name="tally", title="Tally (test game)", version="1", min_players=1, max_players=4,
    new_game=lambda num_players, seed, options: TallyState(num_players, seed, options),
    parse_action=parse_tally, actions=(Add, Draw, End),
    render=lambda s, seat: str(s.to_dict()), max_decisions=100))
TallyState.info = TALLY_INFO


# --- agents -----------------------------------------------------------------------------
class SlowAgent(RandomAgent):
    """A random agent that thinks for ``seconds`` (to show bots do not block the server)."""

    def __init__(self, seconds: float, seed: int) -> None:
        super().__init__(seed)
        self.name, self.seconds = "slow", seconds

    def act(self, view: State, legal: Any) -> Any:
        time.sleep(self.seconds)
        return super().act(view, legal)


class BrokenAgent:
    """An agent that raises: the server must fall back to a legal move."""

    name = "broken"

    def act(self, view: State, legal: Any) -> Any:
        raise RuntimeError("this agent is broken on purpose")


TEST_AGENTS = {"slow": lambda arg, seed: SlowAgent(float(arg or 0.5), seed),
               "broken": lambda arg, seed: BrokenAgent()}
TEST_GAMES = {"toysecret": SECRET_INFO, "tally": TALLY_INFO}


def install(monkeypatch: Any) -> None:
    """Make the test games and agents known for one test only (no global pollution)."""
    for name, info in TEST_GAMES.items():
        monkeypatch.setitem(registry._GAMES, name, info)
    for name, factory in TEST_AGENTS.items():
        monkeypatch.setitem(AGENT_FACTORIES, name, factory)


# --- helpers ------------------------------------------------------------------------
PASSWORD = "correct horse battery"  # the accounts' password in the tests


def register(client: Any, name: str, password: str = PASSWORD) -> str:
    """Create an account through ``client`` (logged out first); its session secret."""
    from mayagames.server.accounts import SESSION_COOKIE

    client.cookies.clear()
    response = client.post("/api/accounts", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    return response.cookies[SESSION_COOKIE]


def register_in_lobby(page: Any, url: str, name: str, password: str = PASSWORD) -> None:
    """Create an account the way a person does: the lobby's form in a browser ``page``."""
    from playwright.sync_api import expect

    page.goto(url + "/")
    page.fill("#account-name", name)
    page.fill("#account-password", password)
    page.click("#register")
    expect(page.locator("#me-name")).to_have_text(name)


def use(client: Any, session: str | None) -> None:
    """Speak through ``client`` as the holder of ``session`` (None: nobody)."""
    from mayagames.server.accounts import SESSION_COOKIE

    client.cookies.clear()
    if session:
        client.cookies.set(SESSION_COOKIE, session)


def play_out(client: Any, table: str, sessions: dict[int, str]) -> dict[str, Any]:
    """Each account (seat -> session) plays its first legal move until the game ends (bots
    move by themselves); the final state."""
    for _ in range(500):
        client.cookies.clear()
        state = client.get(f"/api/tables/{table}").json()
        if state["terminal"]:
            return state
        seat = state["current_player"]
        if seat not in sessions:
            time.sleep(0.02)
            continue
        use(client, sessions[seat])
        response = client.post(f"/api/tables/{table}/moves",
                               json={"move_number": state["move_number"], "action_id": 0})
        assert response.status_code in (200, 409), response.text
    raise AssertionError("the game did not end")


def play_first_moves(client: Any, table: dict[str, Any], count: int) -> None:
    """``count`` moves through the API, each the mover's first legal move, played with the
    mover's seat token (``table`` as :func:`create_table` returns it)."""
    for _ in range(count):
        state = client.get(f"/api/tables/{table['table']}").json()
        token = table["tokens"][state["current_player"]]
        answer = client.post(f"/api/tables/{table['table']}/moves", headers=bearer(token),
                             json={"move_number": state["move_number"], "action_id": 0})
        assert answer.status_code == 200, answer.text


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def create_table(client: Any, game: str = "toy", players: int = 2,
                 agents: list[str] | None = None, seed: int | None = 7,
                 options: dict[str, Any] | None = None) -> dict[str, Any]:
    """POST /api/tables; returns the answer (with ``tokens`` added: seat -> token)."""
    agents = agents or ["human"] * players
    body: dict[str, Any] = {"game": game, "players": players,
                            "seats": [{"name": f"P{i}", "agent": a} for i, a in enumerate(agents)],
                            "options": options or {}}
    if seed is not None:
        body["seed"] = seed
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    data["tokens"] = {s["seat"]: s["token"] for s in data["seats"] if s["token"]}
    return data


def next_event(lines: Any) -> tuple[str, dict[str, Any]]:
    """The next ``event:``/``data:`` pair of a server-sent event stream (comments skipped)."""
    event = None
    for line in lines:
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and event:
            return event, json.loads(line.split(":", 1)[1])
    raise AssertionError("the stream ended")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """The app served by uvicorn in a background thread, on a free loopback port."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                ws="websockets-sansio", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "LiveServer":
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


class WsClient:
    """A WebSocket client of a live server (the ``websockets`` library), with timeouts."""

    def __init__(self, live: LiveServer, table: str, token: str | None = None,
                 hello: bool = True) -> None:
        from websockets.sync.client import connect

        self.ws = connect(f"ws://127.0.0.1:{live.port}/ws/tables/{table}", open_timeout=10).__enter__()
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        if hello:
            self.hello(token)

    def hello(self, token: str | None) -> dict[str, Any]:
        self.send(type="hello", token=token)
        return self.until(lambda m: m["type"] == "state")

    def send(self, **message: Any) -> None:
        import json

        self.ws.send(json.dumps(message))

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        import json

        message = json.loads(self.ws.recv(timeout=timeout))
        self.messages.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    def until(self, predicate: Any, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if predicate(message):
                return message

    def move(self, action_id: int = 0, rid: Any = None, number: int | None = None) -> None:
        assert self.state is not None
        self.send(type="move", move_number=self.state["move_number"] if number is None else number,
                  action_id=action_id, rid=rid)

    def close(self) -> None:
        self.ws.close()

    def wait_for(self, move_number: int, timeout: float = 10.0) -> dict[str, Any]:
        """The state at ``move_number`` (already received, or the next ones until it comes)."""
        if self.state is not None and self.state["move_number"] == move_number:
            return self.state
        return self.until(lambda m: m["type"] == "state" and m["move_number"] == move_number,
                          timeout)

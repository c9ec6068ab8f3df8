"""Bot seats move server-side in a worker thread; the server keeps answering meanwhile."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mayagames.agents import AGENT_FACTORIES
from mayagames.core import GameRecord, verify


def wait_until(predicate, timeout=20.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_bots_play_a_whole_game(client, support):
    data = support.create_table(client, players=3, agents=["random"] * 3, seed=12)
    assert data["tokens"] == {}
    wait_until(lambda: client.get(f"/api/tables/{data['table']}").json()["terminal"])
    final = client.get(f"/api/tables/{data['table']}").json()
    record = GameRecord.from_dict(client.get(f"/api/tables/{data['table']}/record").json())
    assert verify(record).scores() == final["scores"]
    assert [s.agent for s in record.seats] == ["random"] * 3


def test_server_answers_while_a_bot_thinks(client, support):
    data = support.create_table(client, agents=["slow:3", "human"], seed=1)
    table = data["table"]
    health = client.get("/api/health")
    state = client.get(f"/api/tables/{table}").json()
    other = support.create_table(client, seed=2)  # other tables work meanwhile
    assert health.status_code == 200 and other["table"]
    assert state["move_number"] == 0 and state["current_player"] == 0  # still thinking
    wait_until(lambda: client.get(f"/api/tables/{table}").json()["move_number"] >= 1)


def test_failing_bot_falls_back_to_a_legal_move(client, support):
    data = support.create_table(client, agents=["human", "broken"], seed=3)
    token = data["tokens"][0]
    client.post(f"/api/tables/{data['table']}/moves", headers=support.bearer(token),
                json={"move_number": 0, "action_id": 0})
    wait_until(lambda: client.get(f"/api/tables/{data['table']}").json()["current_player"] == 0)
    log = client.get(f"/api/tables/{data['table']}").json()["log"]
    assert log[1]["seat"] == 1


def test_bot_seats_cannot_be_taken_by_people(client, support):
    data = support.create_table(client, agents=["slow:5", "human"], seed=1)
    response = client.post(f"/api/tables/{data['table']}/moves", headers=support.bearer(data["tokens"][1]),
                           json={"move_number": 0, "action_id": 0})
    assert response.status_code == 403 and response.json()["error"] == "not_your_turn"



def same_game_in_one_process(record: dict, table: str) -> list[str]:
    """The moves the table's bots make when each agent, seeded as the server seeds it, is
    asked in turn in this process (no worker processes, no threads)."""
    from mayagames.agents import make_agent
    from mayagames.core import derive_seed, new_game

    state = new_game(record["game"], len(record["seats"]), seed=record["seed"], options=record["options"])
    agents = [make_agent(s["agent"], derive_seed(record["seed"], table, "bot", i))
              for i, s in enumerate(record["seats"])]
    moves = []
    while not state.is_terminal:
        action = agents[state.current_player].act(state.view(state.current_player), state.legal_actions())
        moves.append(str(action))
        state.apply(action)
    return moves


def test_bots_in_worker_processes_play_as_in_one_process(make_app, support):
    """A bot's decisions go to a worker process with the agent and come back with it, so
    its generator carries on: the game is the one its seed gives in a single process."""
    from fastapi.testclient import TestClient

    with TestClient(make_app(bot_processes=1)) as client:
        service = client.app.state.service
        service.bots.in_process = lambda agent: True  # random agents too, for this test
        data = support.create_table(client, game="tzolkin", players=2, agents=["random"] * 2, seed=21)
        wait_until(lambda: client.get(f"/api/tables/{data['table']}").json()["terminal"], timeout=60)
        record = client.get(f"/api/tables/{data['table']}/record").json()
        assert service.bots.processes is not None  # the decisions really went to a process
    assert record["moves"] == same_game_in_one_process(record, data["table"])
    assert len(record["moves"]) > 100


def test_which_bots_think_in_processes():
    from mayagames.agents import RandomAgent
    from mayagames.server.bots import thinks_hard

    assert not thinks_hard(RandomAgent(1))  # instant: a process round trip would only cost
    assert not thinks_hard(object())         # not ours: maybe not importable in a new process


def test_a_bot_that_cannot_go_to_a_process_thinks_in_a_thread(make_app, support, caplog):
    """A test double lives in a module a fresh process cannot import: its decision falls
    back to a thread, the game goes on, and the reason is logged."""
    from fastapi.testclient import TestClient

    with TestClient(make_app(bot_processes=1)) as client:
        client.app.state.service.bots.in_process = lambda agent: True
        data = support.create_table(client, agents=["slow:0.05", "human"], seed=4)
        wait_until(lambda: client.get(f"/api/tables/{data['table']}").json()["move_number"] >= 1, timeout=60)
    assert "could not think in a worker process" in caplog.text


def test_the_lobby_offers_the_bots_levels_first(client, support):
    """Every bot the lobby lists can sit at a table; difficulty levels come first."""
    bots = client.get("/api/games").json()["bots"]
    specs = [b["spec"] for b in bots]
    assert "random" in specs and "human" not in specs
    assert [b["level"] for b in bots] == sorted((b["level"] for b in bots), reverse=True)
    for bot in bots:
        assert bot["title"] and isinstance(bot["doc"], str)
        answer = client.post("/api/tables", json={"game": "toy", "players": 2, "seed": 1,
                                                   "seats": [{"agent": "human"}, {"agent": bot["spec"]}]})
        assert answer.status_code == 201, (bot, answer.text)
    answer = client.post("/api/tables", json={"game": "toy", "players": 2,
                                               "seats": [{"agent": "human"}, {"agent": "mcts"}]})
    assert answer.status_code == 400 and answer.json()["error"] == "bad_agent"  # no budget given


@pytest.mark.skipif("hard" not in AGENT_FACTORIES, reason="the difficulty levels (bots) are not installed")
def test_a_search_bot_moves_within_its_budget_and_the_server_keeps_answering(make_app, support):
    """A search bot (``mcts:1s``, ``hard`` in Tzolk'in) searches for its budget per decision
    in a worker process: its moves come
    one budget apart, and meanwhile the server answers in a fraction of that budget (were
    the loop blocked by the search, answers would wait for it). Medians, so that a
    machine busy with other tests does not decide; the first move (the worker process
    starting) is not counted."""
    from statistics import median

    from fastapi.testclient import TestClient

    from mayagames.agents import parse_budget

    spec = "mcts:1s"  # a search that spends its whole budget (Tikal's ``hard`` is greedy)
    _, budget = parse_budget(spec.partition(":")[2], spec)
    budget = budget or 1.0
    with TestClient(make_app(bot_processes=2)) as client:
        table = support.create_table(client, game="tikal", agents=[spec, spec], seed=5)["table"]
        wait_until(lambda: client.get(f"/api/tables/{table}").json()["move_number"] >= 1, timeout=60)
        answers: list[float] = []
        moves: list[tuple[int, float]] = []  # (move number, when it was first seen)
        start = time.monotonic()
        while len(moves) < 6 and time.monotonic() - start < 60:
            asked = time.perf_counter()
            number = client.get(f"/api/tables/{table}").json()["move_number"]
            answers.append(time.perf_counter() - asked)
            if not moves or number != moves[-1][0]:
                moves.append((number, time.monotonic()))
            time.sleep(0.05)
        assert client.app.state.service.bots.processes is not None  # it thought in a process
    gaps = [(b[1] - a[1]) / (b[0] - a[0]) for a, b in zip(moves, moves[1:])]
    assert len(moves) == 6, f"the hard bots did not keep moving: {moves}"
    assert median(gaps) < budget + 0.5, gaps  # about one budget per move
    assert max(gaps) < budget + 3.0, gaps     # never far beyond it
    assert median(answers) < budget / 5, (median(answers), max(answers))  # nobody waits for the search


WORKER_SCRIPT = """
import asyncio, os, signal, sys
from mayagames.agents import make_agent
from mayagames.core import new_game
from mayagames.server.bots import BotPool

pool = BotPool(threads=1, processes=1)
state = new_game("tzolkin", 2, seed=1)
agent = make_agent("medium", 1)
action, agent, _ = asyncio.run(pool.decide(agent, state.view(state.current_player), state.legal_actions()))
print(*pool.processes._processes, flush=True)  # the worker processes' ids
if sys.argv[1] == "shutdown":
    pool.shutdown()
else:
    os.kill(os.getpid(), signal.SIGKILL)  # a server killed without a chance to clean up
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is gone too
        return stat.read().split()[2] != "Z"


@pytest.mark.skipif("medium" not in AGENT_FACTORIES or not Path("/proc").exists(),
                    reason="needs the bots' levels and /proc")
@pytest.mark.parametrize("ending", ["shutdown", "kill"])
def test_worker_processes_never_outlive_the_server(ending):
    """Shut down cleanly, the pool waits for its workers; killed, its workers notice the
    server is gone and end within seconds (no orphan keeps thinking)."""
    src = Path(__file__).resolve().parents[2] / "src"
    run = subprocess.run([sys.executable, "-c", WORKER_SCRIPT, ending], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(src)}, timeout=60)
    pids = [int(p) for p in run.stdout.split()]
    assert pids, run.stderr
    wait_until(lambda: not any(alive(pid) for pid in pids), timeout=10)

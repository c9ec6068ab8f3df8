"""The database orders the writes: two services on one store, step by step (no timing).

Two :class:`GameService` objects on one SQLite file stand for two instances whose
notifications have not arrived (SQLite has none): a write based on an outdated version
stores nothing and is refused ``stale``; catching up applies the new moves, or rebuilds
the room after an undo elsewhere, and resends the subscribers the log from where it
changed. (Real instances on PostgreSQL: ``test_instances.py``.)
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Awaitable, Callable

import pytest

from mayagames.server import migrations
from mayagames.server.db import Database, StaleWrite
from mayagames.server.migrations import SchemaError
from mayagames.server.rooms import ServerError
from mayagames.server.schemas import CreateTable
from mayagames.server.service import GameService, Subscriber


def drain(sub: Subscriber) -> list[dict]:
    messages = []
    while not sub.queue.empty():
        messages.append(sub.queue.get_nowait())
    return messages


def run_apart(scenario: Callable[[], Awaitable[Any]]) -> Any:
    """Run ``scenario`` in an event loop of its own thread: a test worker that has run the
    browser tests holds Playwright's loop running in its main thread, where
    ``asyncio.run`` refuses to start."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(scenario())).result()


def test_outdated_writes_are_refused_and_catching_up_follows_moves_and_undos(db_url, support):
    async def scenario() -> None:
        first = GameService(Database(db_url), list_test_games=True)
        second = GameService(Database(db_url), list_test_games=True)
        await first.start()
        await second.start()
        try:
            room_a, tokens = await first.create_table(CreateTable(game="tally", players=2))
            await first.play(room_a, 0, 0, text="add 1")
            await first.play(room_a, 0, 1, text="add 2")
            room_b = await second.get_room(room_a.id)
            assert room_b.moves == ["add 1", "add 2"] and room_b.version == room_a.version
            watcher = Subscriber()
            second.subscribe(room_b, watcher, None)
            drain(watcher)

            # through the first: undo 'add 2', then 'end' (the second has heard of neither)
            await first.undo(room_a, 0, 2)
            await first.play(room_a, 0, 1, text="end")
            assert room_b.moves == ["add 1", "add 2"]
            # the second's room would accept 'end' at move 2: the database refuses it
            with pytest.raises(StaleWrite):
                await second.in_db(second.db.append_move, room_b.id, 3, "end", 0,
                                   "playing", None, room_b.version)
            with pytest.raises(ServerError) as refused:
                await second.play(room_b, 0, 2, text="end")
            # having caught up (rebuilt after the undo elsewhere), the game is at move 2
            # again, but seat 0's turn is over
            assert refused.value.code == "not_your_turn"
            assert room_b.moves == room_a.moves == ["add 1", "end"]
            assert room_b.version == room_a.version and room_b.state.current_player == 1
            resync = drain(watcher)[-1]
            assert resync["move_number"] == 2 and resync["log_from"] <= 1
            assert [e["text"] for e in resync["log"]][-1] == "end"
            assert first.db.move_numbers(room_a.id) == [1, 2]

            # moves made through the first only: the second applies just the new ones
            await first.play(room_a, 1, 2, text="add 2")
            await first.play(room_a, 1, 3, text="end")
            async with room_b.lock:
                assert await second.catch_up(room_b, force=True) is True
            assert room_b.moves == room_a.moves and room_b.version == room_a.version
            update = drain(watcher)[-1]
            assert update["log_from"] == 2 and [e["text"] for e in update["log"]] == ["add 2", "end"]
            # and now the second may write: the first is the one behind
            await second.play(room_b, 0, 4, text="add 1")
            with pytest.raises(ServerError) as behind:
                await first.play(room_a, 0, 4, text="add 2")
            assert behind.value.code == "stale" and room_a.moves == room_b.moves
            assert first.db.move_numbers(room_a.id) == [1, 2, 3, 4, 5]
            assert tokens[0] and tokens[1]
        finally:
            await first.stop()
            await second.stop()

    run_apart(scenario)


def test_a_database_from_before_versions_gets_the_column_by_its_upgrade(tmp_path):
    from sqlalchemy import create_engine, text

    url = f"sqlite:///{tmp_path / 'old.db'}"
    old = create_engine(url)
    with old.begin() as conn:  # the table as the previous release made it
        conn.execute(text("CREATE TABLE game_tables (id VARCHAR(32) PRIMARY KEY, game VARCHAR(32), "
                          "engine_version VARCHAR(32), num_players INTEGER, seed BIGINT, "
                          "options JSON, status VARCHAR(16), move_count INTEGER, result JSON, "
                          "created_at DATETIME, updated_at DATETIME)"))
        conn.execute(text("INSERT INTO game_tables VALUES ('t1', 'toy', '1', 2, 5, '{}', "
                          "'playing', 0, NULL, '2026-01-01', '2026-01-01')"))
    old.dispose()
    db = Database(url)
    with pytest.raises(SchemaError, match="mayagames db upgrade"):  # the server refuses it
        db.create_schema()
    migrations.upgrade(db)  # mayagames db upgrade
    db.create_schema()
    assert db.versions(["t1"]) == {"t1": 0}
    assert db.append_move("t1", 1, "play 1", 0, "playing", None, expected=0) == 1
    db.dispose()

"""How long the server takes to load (replay) a long table, with and without the log
entries stored with the moves (``game_moves.told``, issue 12).

    .venv/bin/python benchmarks/bench_reload.py [--game tikal] [--players 2] [--seed 3] [--reps 5]

Plays one seeded game with random bots to its end, stores it in a fresh SQLite file as
the server does (each move with its told entry), then alternately loads it as the server
does (``Database.load_table`` + ``Room.from_stored``) with the stored entries and with
them removed (every move told again: the cost before), and prints the medians and their
ratio. Measured side by side, so the machine's load affects both alike.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from mayagames.agents import RandomAgent
from mayagames.core import new_game
from mayagames.server.db import Database, StoredSeat, StoredTable
from mayagames.server.rooms import Room, entry_to_json, log_entry


def store_game(db: Database, game: str, players: int, seed: int) -> str:
    state = new_game(game, players, seed=seed)
    table = StoredTable(id="bench", game=game, engine_version=state.info.version,
                        num_players=players, seed=seed, options=dict(state.options),
                        seats=[StoredSeat(f"P{i}", "random", None) for i in range(players)])
    db.insert_table(table)
    agents = [RandomAgent(seed + i) for i in range(players)]
    previous = None
    number = 0
    while not state.is_terminal:
        seat = state.current_player
        action = agents[seat].act(state.view(seat), state.legal_actions())
        after = state.clone()
        after.apply_unchecked(action)
        number += 1
        entry = log_entry(state, action, number, after, previous)
        db.append_move("bench", number, str(action), seat,
                       "finished" if after.is_terminal else "playing", None, None,
                       entry_to_json(entry, state.info.version))
        state, previous = after, entry
    return "bench"


def load(db: Database, table_id: str, keep_told: bool) -> float:
    start = time.perf_counter()
    stored = db.load_table(table_id)
    assert stored is not None
    if not keep_told:
        stored.told = []
    Room.from_stored(stored)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="tikal")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Database(f"sqlite:///{Path(folder) / 'bench.db'}")
        db.create_schema()
        table_id = store_game(db, args.game, args.players, args.seed)
        moves = db.count_moves(table_id)
        cached, told = [], []
        for _ in range(args.reps):
            cached.append(load(db, table_id, True))
            told.append(load(db, table_id, False))
        db.dispose()
    a, b = statistics.median(told), statistics.median(cached)
    print(f"{args.game}, {args.players} players, {moves} moves, median of {args.reps} loads:")
    print(f"  every move told again: {a * 1000:8.1f} ms  ({a / moves * 1000:.2f} ms a move)")
    print(f"  stored entries:        {b * 1000:8.1f} ms  ({b / moves * 1000:.2f} ms a move)")
    print(f"  ratio: {a / b:.2f}x faster")


if __name__ == "__main__":
    main()

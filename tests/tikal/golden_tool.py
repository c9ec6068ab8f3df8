"""Write the golden records of tests/tikal/golden/ (run from the repository root):

    PYTHONPATH=src python tests/tikal/golden_tool.py

Each golden is a seeded full game played by a fixed policy (random, but ending AP turns and
passing only one time in eight when something else is possible, so the games use many
rules). The record stores the moves, the result and a hash of the final state's full
description; ``test_golden.py`` replays it and compares. Regenerate only when a change of
the rules or of ``to_dict`` is intended, and say so in the commit.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from mayagames.core import GameRecord, Rng
from mayagames.core.conformance import fingerprint

GOLDEN = Path(__file__).with_name("golden")
GAMES = [
    ("solo", 1, 101, {}),
    ("two", 2, 202, {}),
    ("three", 3, 303, {}),
    ("four", 4, 404, {}),
    ("two-options", 2, 505, {"guardian_removal": "all", "volcano_order": "after_placer",
                             "starting_prestige": "zero", "kept_card_spaces": 2}),
    ("four-options", 4, 606, {"fisher_source": "supply_or_board", "builder_counts_guardian": True,
                              "volcano_order": "after_placer"}),
]


def state_hash(state) -> str:
    return hashlib.sha256(fingerprint(state).encode()).hexdigest()


def choose(legal, rng: Rng):
    busy = [a for a in legal if str(a) not in ("end", "pass")]
    if busy and rng.randbelow(8):
        return busy[rng.randbelow(len(busy))]
    return legal[rng.randbelow(len(legal))]


def play(players: int, seed: int, options: dict) -> tuple[GameRecord, object]:
    record = GameRecord.start("tikal", players, seed, options)
    state = record.new_state()
    rng = Rng(seed + 17)
    while not state.is_terminal:
        action = choose(state.legal_actions(), rng)
        record.moves.append(str(action))
        state.apply(action)
    record.finish(state)
    record.meta = {"final_state_sha256": state_hash(state), "policy": "golden_tool.choose"}
    return record, state


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, players, seed, options in GAMES:
        record, state = play(players, seed, options)
        path = GOLDEN / f"{name}.json"
        path.write_text(json.dumps(record.to_dict(), indent=0) + "\n", encoding="utf-8")
        print(f"{path}: {len(record.moves)} moves, scores {state.scores()}")


if __name__ == "__main__":
    main()

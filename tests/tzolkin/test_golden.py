"""Golden records: seeded full games whose replay reproduces the stored result and the
final state's fingerprint.

Regenerate (only after an intended rules change, and say so in the commit):
``PYTHONPATH=src python tests/tzolkin/test_golden.py``.
"""

import hashlib
import json
from pathlib import Path

import pytest

from mayagames.core import GameRecord, Rng, verify
from mayagames.core.conformance import fingerprint

GOLDEN = Path(__file__).parent / "golden"
GAMES = {
    "2p_uniform": (2, 101, "uniform", {}),
    "2p_builder": (2, 102, "builder", {}),
    "3p_builder": (3, 103, "builder", {}),
    "4p_uniform": (4, 104, "uniform", {}),
    "4p_builder": (4, 105, "builder", {}),
    "3p_options": (3, 106, "builder", {"dummy_placement": "single", "monuments": "six",
                                       "corn_vp": "floor", "uxmal4_price": "market"}),
}


def digest(state):
    return hashlib.sha256(fingerprint(state).encode()).hexdigest()


def make_record(players, seed, policy, options):
    from test_properties import builder_choice  # same directory (rootdir on sys.path)
    record = GameRecord.start("tzolkin", players, seed, options)
    state = record.new_state()
    rng = Rng(seed)
    while not state.is_terminal:
        legal = state.legal_actions()
        action = builder_choice(legal, rng) if policy == "builder" else legal[rng.randbelow(len(legal))]
        record.moves.append(str(action))
        state.apply(action)
    record.finish(state)
    record.meta = {"fingerprint": digest(state), "policy": policy,
                   "final": state.to_dict()["final"]}
    return record


def regenerate_golden_records() -> None:
    import sys
    sys.path.insert(0, str(Path(__file__).parent))
    GOLDEN.mkdir(exist_ok=True)
    for name, args in GAMES.items():
        make_record(*args).save(GOLDEN / f"{name}.json")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_record_replays(name):
    path = GOLDEN / f"{name}.json"
    record = GameRecord.load(path)
    state = verify(record)                      # legal moves, same scores and winners
    assert state.is_terminal
    assert digest(state) == record.meta["fingerprint"]
    assert json.loads(json.dumps(state.to_dict()["final"])) == record.meta["final"]


def test_golden_records_are_real_games():
    for name in GAMES:
        record = GameRecord.load(GOLDEN / f"{name}.json")
        assert len(record.moves) > 150 and record.result["winners"]


if __name__ == "__main__":
    regenerate_golden_records()

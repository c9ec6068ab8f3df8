"""Golden records: seeded full games whose replay must reproduce the stored result and the
final state's fingerprint (regenerate with tests/tikal/golden_tool.py only for intended changes)."""

import hashlib
from pathlib import Path

import pytest

from mayagames.core import GameRecord, RecordError, verify
from mayagames.core.conformance import fingerprint

GOLDEN = sorted(Path(__file__).with_name("golden").glob("*.json"))


def test_goldens_exist():
    assert len(GOLDEN) >= 6


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_replays_identically(path):
    record = GameRecord.load(path)
    state = verify(record)  # legality of every move and the stored result
    assert state.is_terminal
    digest = hashlib.sha256(fingerprint(state).encode()).hexdigest()
    assert digest == record.meta["final_state_sha256"]


def test_corrupt_golden_is_rejected():
    record = GameRecord.load(GOLDEN[0])
    data = record.to_dict()
    data["moves"][40] = "move explorer a1 i7"
    with pytest.raises(RecordError, match="move 41"):
        verify(GameRecord.from_dict(data))

"""Readable playthroughs beside the golden records' hashes (issue 15 item 6).

Each golden record ``tests/<game>/golden/NAME.json`` has ``NAME.txt`` beside it: the
whole game as text (first position, every decision with the scores as they change,
final position). The hash test says *that* a replay changed; this one shows *what*
changed, as a diff. After an intended change, regenerate with
``.venv/bin/python -m mayagames.core.playthrough tests/*/golden/*.json``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mayagames.core import GameRecord
from mayagames.core.playthrough import playthrough, transcript_path

GOLDEN = sorted(Path(__file__).parent.glob("*/golden/*.json"))


def test_every_golden_record_has_a_playthrough():
    assert len(GOLDEN) >= 12
    missing = [str(p) for p in GOLDEN if not transcript_path(p).exists()]
    assert not missing


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_playthrough_matches(path):
    record = GameRecord.load(path)
    text = playthrough(record)
    assert text.count("\n") > len(record.moves)  # every decision is a line
    assert text == transcript_path(path).read_text(), (
        f"{path.stem}: the game reads differently; if intended, regenerate with "
        "python -m mayagames.core.playthrough")

"""Property tests: thousands of seeded random games at 1-4 players never crash, keep every
component accounted for, end within the decision limit, and replay identically from records."""

import pytest

from mayagames.core import GameRecord, Rng, verify
from mayagames.core.conformance import fingerprint
from mayagames.tikal.testing import fresh

CHUNKS = {1: 2, 2: 8, 3: 8, 4: 8}
GAMES_PER_CHUNK = 80  # 26 chunks x 80 = 2080 games, plus the conformance games
INVARIANTS_EVERY = 25
RECORD_EVERY = 10  # one game in ten is written to a record and replayed


def play_checked(players, seed, keep_record):
    s = fresh(players, seed=seed)
    rng = Rng(seed * 31 + players)
    moves = []
    steps = 0
    while not s.is_terminal:
        legal = s.legal_actions()
        assert legal, f"no legal action at step {steps}"
        action = legal[rng.randbelow(len(legal))]
        if keep_record:
            moves.append(str(action))
        s.apply_unchecked(action)
        steps += 1
        if steps % INVARIANTS_EVERY == 0:
            broken = s.invariants()
            assert not broken, f"seed {seed} step {steps}: {broken}"
        assert steps < s.info.max_decisions
    assert s.invariants() == [] and s.legal_actions() == []
    assert len(s.scores()) == players and s.winners()
    assert s.round == s.setup_rules["rounds"] and s.phase_name == "over"
    return s, moves


@pytest.mark.parametrize("players,chunk", [(p, c) for p, n in CHUNKS.items() for c in range(n)])
def test_random_games(players, chunk):
    for g in range(GAMES_PER_CHUNK):
        seed = 1000 * players + chunk * GAMES_PER_CHUNK + g
        keep = g % RECORD_EVERY == 0
        s, moves = play_checked(players, seed, keep)
        if keep:
            record = GameRecord.start("tikal", players, seed)
            record.moves = moves
            record.finish(s)
            again = verify(GameRecord.from_json(record.to_json()))
            assert fingerprint(again) == fingerprint(s)

"""benchmarks/bench_audit.py: how a Tzolk'in seat's use of its workers is counted (its games
are not played here)."""

from collections import defaultdict

import pytest

from mayagames.tzolkin import positions as T


@pytest.fixture(scope="module")
def audit(load_script):
    return load_script("benchmarks/bench_audit.py")


def tallied(audit, s, *moves: str) -> defaultdict:
    """Play ``moves`` in ``s``, tallying each one for the seat that makes it."""
    counts: defaultdict = defaultdict(float)
    for text in moves:
        action = s.parse_action(text)
        audit.tally_tzolkin(s, action, counts)
        s.apply(action)
    return counts


def test_a_placement_turn_counts_its_workers_and_the_one_left_in_front(audit):
    s = T.blank(2)
    T.set_goods(s, 0, corn=10)
    T.set_turn(s, 0, start_player=0)
    counts = tallied(audit, s, "place palenque", "place yaxchilan", "end")
    assert (counts["placed"], counts["place_turns"], counts["idle"]) == (2, 1, 1)
    assert counts["actions"] == 0


def test_a_picked_up_worker_s_action_counts_and_doing_nothing_does_not(audit):
    s = T.blank(2)
    T.set_goods(s, 0, corn=10)
    T.put_worker(s, 0, "palenque", 2)
    T.put_worker(s, 0, "yaxchilan", 2)
    T.set_turn(s, 0, start_player=0)
    counts = tallied(audit, s, "pick palenque 2", "do palenque 2", "pick yaxchilan 2", "nothing")
    assert (counts["actions"], counts["placed"], counts["place_turns"]) == (1, 0, 0)


def test_the_summary_shows_the_use_of_the_workers(audit):
    seat = {"spec": "medium", "decisions": 10, "choices": 8, "score": 50, "won": 1.0,
            "actions": 12, "placed": 6, "place_turns": 4, "idle": 3}
    table = audit.summarize([{"game": "tzolkin", "index": 0, "seed": 1, "seats": [seat, seat]}])
    head, _, row = table.splitlines()[2:5]
    cells = dict(zip((c.strip() for c in head.split("|")), (c.strip() for c in row.split("|"))))
    assert (cells["actions"], cells["placed/turn"], cells["idle"]) == ("12.0", "1.50", "3.0")

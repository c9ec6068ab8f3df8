"""Each move is stored with its log entry (the sentence per viewer, events, turn), so a
table loads without telling every move again (issue 12: a long Tikal table reloaded in
about a second); an entry that is missing, from another engine version or damaged is
told again, and what a client reads is the same either way."""

from __future__ import annotations

from mayagames.server import rooms
from mayagames.server.rooms import Room


def played_table(client, support, moves=12):
    """A Tzolk'in table (secret draft, events) with ``moves`` moves played through the API."""
    table = support.create_table(client, game="tzolkin", agents=["human", "human"], seed=11)
    support.play_first_moves(client, table, moves)
    return table["table"]


def test_a_table_loads_from_its_stored_entries(client, support, monkeypatch):
    table = played_table(client, support)
    db = client.app.state.service.db
    stored = db.load_table(table)
    assert len(stored.told) == 12 and all(t is not None for t in stored.told)
    told_again = []
    original = rooms.log_entry
    monkeypatch.setattr(rooms, "log_entry", lambda *a, **k: told_again.append(1) or original(*a, **k))
    from_stored = Room.from_stored(db.load_table(table))
    assert told_again == []  # no move was told again
    fresh = db.load_table(table)
    fresh.told = []
    retold = Room.from_stored(fresh)
    assert len(told_again) == 12
    assert from_stored.log == retold.log  # the same entries, secrets per viewer included
    for seat in (0, 1, None):
        assert from_stored.message(seat)["log"] == retold.message(seat)["log"]


def test_outdated_or_damaged_entries_are_told_again(client, support):
    table = played_table(client, support, moves=6)
    db = client.app.state.service.db
    stored = db.load_table(table)
    reference = Room.from_stored(db.load_table(table)).log
    stored.told[0] = {**stored.told[0], "v": "another engine"}
    stored.told[1] = {**stored.told[1], "viewers": [0]}  # fits no seat count
    stored.told[2] = {"f": 1, "texts": 3}
    stored.told[3] = "garbage"
    assert Room.from_stored(stored).log == reference


def test_a_restarted_server_shows_the_same_log(make_app, support):
    from fastapi.testclient import TestClient

    with TestClient(make_app()) as client:
        table = played_table(client, support, moves=8)
        before = client.get(f"/api/tables/{table}").json()["log"]
    with TestClient(make_app()) as client:
        assert client.get(f"/api/tables/{table}").json()["log"] == before

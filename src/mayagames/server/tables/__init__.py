"""The game service's parts, one concern each (issue 25 item 3); :class:`~..service.GameService`
composes them and is what the routes and the players' side call.

* :mod:`.base` -- the database access every part shares, the constants, the typed hooks
  other features plug in with, and the interfaces the parts call each other through;
* :mod:`.fanout` -- subscribers and the per-seat messages sent to them;
* :mod:`.catalogue` -- the games and bots a lobby offers;
* :mod:`.cache` -- the tables in memory: loading, the broken ones, eviction, listing;
* :mod:`.creation` -- new tables and rematches;
* :mod:`.moves` -- a move and an undo: checked, stored, then announced;
* :mod:`.sync` -- several instances: catching up with the database, following the others;
* :mod:`.leases` -- which instance moves a table's bots, renewed every tick;
* :mod:`.botrunner` -- bot turns;
* :mod:`.records` -- replays (checkpoints) and game records.

No part imports another part's module or the facade: they meet through :mod:`.base`
(tests/test_architecture.py checks it).
"""

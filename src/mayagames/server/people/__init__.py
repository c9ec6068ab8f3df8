"""The players' side's parts, one concern each (issue 25 item 3); :class:`~..players.Players`
composes them and is what the routes, the quick-play queue and the tests call.

* :mod:`.base` -- what every part shares: the store, the time source, each table's settings
  (:class:`~..playerstore.TableMeta`), the interface of the game service the parts use,
  and the interfaces the parts call each other through;
* :mod:`.sessions` -- accounts and sessions (sign-up, login, logout, passwords);
* :mod:`.settings` -- a table's settings: checked and stored at creation (and a rematch's),
  read when it loads or changes, and what every message of the table carries;
* :mod:`.seats` -- who is who (a token's or an account's seat) and the seats' changes:
  joining the open lobby, claiming a guest seat, re-issued invites, resigning;
* :mod:`.listings` -- tables as lists show them (from memory or from stored rows);
* :mod:`.watchers` -- the lobby pages following an account's tables (their push);
* :mod:`.timekeeper` -- clocks: charged after each move, seats timed out to a zombie bot;
* :mod:`.ladder` -- the ratings of a table's players, and rating a finished rated game;
* :mod:`.chat` -- a table's chat.

No part imports another part of this package or a facade: they meet through :mod:`.base`;
of the game service's parts they use only :mod:`..tables.base`, the value types of
:mod:`..tables.creation` and the labels of :mod:`..tables.catalogue`
(tests/test_architecture.py checks it).
"""

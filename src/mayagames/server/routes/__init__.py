"""The app's routes, one router per concern (each module's docstring says what it holds):

=================  ==============================================================
``tables``         the games on offer; create and list tables; a table's state,
                   moves, undo, rematch, replay and record
``accounts``       accounts, sessions (login, logout), ``/api/me``, the password
``lobby``          a table's seats (join, claim, resign, invites), quick play, the
                   lobby's event stream
``ratings``        a game's ladder, a player's profile
``chat``           a table's chat
``reviews``        game reviews and hints
``health``         ``/api/health``
``socket``         the table WebSocket (``/ws/tables/ID``)
``pages``          the browser's pages, static files and ``/docs``
=================  ==============================================================

What they share (the service, the players, the limits, the cookie setting) is on
``app.state``, read by the dependencies of :mod:`.deps`; the answers' models are in
:mod:`.models`. ``/api/ready`` and ``/metrics`` are observability.py's.
"""

from __future__ import annotations

from fastapi import APIRouter

from . import accounts, chat, health, lobby, pages, ratings, reviews, socket, tables

#: the router modules, by concern (``create_app`` includes each router in this order)
MODULES = {"tables": tables, "accounts": accounts, "lobby": lobby, "ratings": ratings,
           "chat": chat, "reviews": reviews, "health": health, "socket": socket, "pages": pages}
ROUTERS: list[APIRouter] = [module.router for module in MODULES.values()]

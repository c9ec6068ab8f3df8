"""Exceptions shared by every game.

Distinct types for distinct failures (python-chess style): a text that cannot be
parsed is a :class:`NotationError`; a well-formed action that the rules forbid is
an :class:`IllegalAction`; a damaged game record is a :class:`RecordError`.
"""

from __future__ import annotations

from typing import Callable, Union


class MayaGamesError(Exception):
    """Base class of every error raised by mayagames."""


class IllegalAction(MayaGamesError):
    """An action the rules forbid in the current state.

    ``rule`` names the rule that forbids it (e.g. ``"Tikal 6: Clear a Temple
    Floor"``); ``message`` says why, in words a player understands. Raising it
    never changes the state.
    """

    def __init__(self, rule: str, message: str, action: object | None = None) -> None:
        self.rule = rule
        self.message = message
        self.action = action
        prefix = f"illegal action {action!s}: " if action is not None else "illegal action: "
        super().__init__(f"{prefix}{message} [{rule}]")


class GameOver(IllegalAction):
    """An action was offered after the game ended."""

    def __init__(self, action: object | None = None) -> None:
        super().__init__("end of game", "the game is over; no more actions", action)


class NotationError(MayaGamesError, ValueError):
    """A text that is not the notation of any action of the game."""


class RecordError(MayaGamesError, ValueError):
    """A game record that is malformed, or whose moves do not replay."""


class OptionError(MayaGamesError, ValueError):
    """An unknown option, or an option value the game does not accept."""


Refusal = tuple[str, Union[str, Callable[[], str]]]
"""Why the rules refuse an action, in both games: (the rule, the reason). A check
returns ``None`` (allowed) or a refusal. Checks that run while the legal actions are
listed may give the reason as a function that writes it, so that a refusal costs no
text until a player asks (:func:`refusal_words`)."""


def refusal_words(refusal: Refusal) -> tuple[str, str]:
    """(rule, message) of a refusal, the message written out."""
    rule, message = refusal
    return rule, message if isinstance(message, str) else message()


def refused(refusal: Refusal, action: object, game: str = "") -> IllegalAction:
    """The :class:`IllegalAction` of a check's refusal; ``game`` prefixes the rule's name
    (``"Tikal"``: ``"Tikal 6: AP actions"``)."""
    rule, message = refusal_words(refusal)
    return IllegalAction(f"{game} {rule}" if game else rule, message, action)

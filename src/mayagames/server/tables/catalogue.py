"""The games and bots a lobby offers, and a table's options in the game package's words."""

from __future__ import annotations

from typing import Any

from ...agents import AGENT_FACTORIES, make_agent
from ...core.errors import MayaGamesError
from ...core.game import GameInfo, OptionSpec
from ...core.registry import TEST_GAMES, game_names, get_game
from ..rooms import HUMAN


def plain_option(option: OptionSpec) -> dict[str, Any]:
    """The option in plain language (``label``, ``explain``, ``choice_labels``) for the lobby."""
    told = option.describe()
    return {"label": told["label"], "explain": told["explain"],
            "choice_labels": {str(c["value"]): c["label"] for c in told["choices"]}}


def option_labels(info: GameInfo, options: dict[str, Any]) -> list[dict[str, Any]]:
    """A table's options in the game package's words, in the game's order: ``label``
    ("Neutral workers (2-3 players)"), ``choice`` (the chosen value's label), ``default``
    (whether it is the game's default)."""
    out = []
    for option in info.options:
        if option.name not in options:
            continue
        told = option.describe()
        value = options[option.name]
        words = {str(c["value"]): c["label"] for c in told["choices"]}
        out.append({"name": option.name, "label": told["label"],
                    "choice": words.get(str(value), str(value)),
                    "default": value == option.default})
    return out


def games(list_test_games: bool) -> list[dict[str, Any]]:
    """The games a lobby offers (test games only when asked for)."""
    names = list(game_names()) + (sorted(TEST_GAMES) if list_test_games else [])
    found = []
    for name in dict.fromkeys(names):
        if name in TEST_GAMES and not list_test_games:
            continue
        try:
            info = get_game(name)
        except (ImportError, MayaGamesError):
            continue  # an engine not part of this installation
        found.append({
            "name": info.name, "title": info.title, "version": info.version,
            "min_players": info.min_players, "max_players": info.max_players,
            "doc": info.doc, "test_game": name in TEST_GAMES,
            "rules": f"/rules/{info.name}" if info.rules_page else None,
            "options": [{"name": o.name, "default": o.default, "doc": o.doc,
                         "choices": list(o.choices) if o.choices is not None else None,
                         **plain_option(o)}
                        for o in info.options]})
    return found


def agents() -> list[str]:
    return [HUMAN, *sorted(AGENT_FACTORIES)]


def bot_choices() -> list[dict[str, str]]:
    """The bots a lobby offers, difficulty levels first: each spec that builds without
    settings (``mcts`` needs a budget: it is typed as a spec, e.g. ``mcts:500i``)."""
    from ... import agents as agent_package

    levels: dict[str, tuple[str, str]] = getattr(agent_package, "LEVELS", {})
    docs: dict[str, str] = getattr(agent_package, "AGENT_DOCS", {})
    names = [*levels, *(n for n in sorted(AGENT_FACTORIES) if n not in levels)]
    choices = []
    for name in names:
        try:
            make_agent(name, 0)
        except (ValueError, TypeError):
            continue
        doc = levels[name][1] if name in levels else docs.get(name, "")
        choices.append({"spec": name, "title": name.capitalize(), "doc": doc,
                        "level": name in levels})
    return choices

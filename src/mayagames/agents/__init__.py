"""Agents: one interface for people's stand-ins and bots, for every game.

An agent gets only a *view* (what its seat may know) and the legal actions, and
returns one of them::

    agent = make_agent("mcts:500i", seed=1)
    action = agent.act(state.view(seat), state.legal_actions())

Agent specs (:func:`make_agent`) are ``NAME[:ARG,KEY=VALUE,...]``:

* ``random``: uniformly random legal moves;
* ``heuristic[:samples=3,noise=0,epsilon=0,depth=D,slack=0,sensible=0,eval=NAME]``: greedy
  search on the game's estimate of final scores (:mod:`.heuristic`); ``noise`` is in units of
  the game's score scale, ``epsilon`` the chance of a random move, ``depth`` how
  many of its own consecutive decisions it looks through (default: the game's;
  ``depth=tikal:2`` for one game only, ``/`` between several),
  ``sensible=1`` keeps to the game's guard rails, ``eval=NAME`` uses the game's estimate
  of that name (``plugin.estimate_variants``; Tzolk'in: ``v1``, the default, ``v2`` and
  ``learned``);
* ``mcts:BUDGET[,c=0.7,rollout=N,temp=T,prior=1,norm=on,worlds=0,sensible=0,eval=NAME,margin=0,rails=0]``:
  information-set MCTS (:mod:`.mcts`); ``worlds=K`` reuses K sampled worlds instead of
  sampling one per iteration; ``sensible=1`` searches only the game's sensible root moves;
  ``margin=W`` (0-1) weighs the score margin in the reward beside the chance to win;
  ``rails=D`` (0-1) plays the most visited move the game's guard rails keep when its mean
  reward is within D of the most visited move's (the rails as a tie-break after the search);
  BUDGET is iterations (``500i``), seconds (``1s``, ``0.5s``) or milliseconds
  (``250ms``); ``500i+2s`` gives both (whichever ends first); ``rollout`` is the
  number of random plies before the estimate (``rollout=end`` plays to the end);
* difficulty levels ``easy``, ``medium``, ``hard`` (:data:`LEVELS`): aliases of
  the specs above, for the terminal and the web app; a level may mean another spec in
  one game (:data:`LEVELS_BY_GAME`: Tikal's ``medium`` and ``hard``).
"""

from __future__ import annotations

import functools
import re
from typing import Any, Callable, Protocol, Sequence

from ..core.game import Action, State
from ..core.rng import Rng
from .heuristic import HeuristicAgent
from .mcts import MCTSAgent, SearchStats


class Agent(Protocol):
    """Anything that picks a legal action from a view."""

    name: str

    def act(self, view: State, legal: Sequence[Action]) -> Action: ...


class RandomAgent:
    """Uniformly random legal actions from a seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "random"
        self.rng = Rng(seed)

    def act(self, view: State, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randbelow(len(legal))]


# Difficulty levels a player chooses (terminal, web app): name -> (spec, description).
LEVELS: dict[str, tuple[str, str]] = {
    "easy": ("heuristic:samples=1,noise=0.25,epsilon=0.25,slack=0.25,sensible=1",
             "greedy bot with noise: often fine, sometimes careless, never reckless "
             "(careless moves are near-best ones; the game's sensible-move rules: "
             "Tzolk'in keeps corn for its workers and builds)"),
    "medium": ("heuristic:sensible=1,eval=learned4", "greedy bot: the best move by the score estimate "
               "through its own turn, among the game's sensible moves (Tzolk'in: it feeds its "
               "workers; Tikal: it looks through two of its own AP actions, and one move in "
               "five is a slip)"),
    "hard": ("mcts:1s", "information-set MCTS, 1 second per decision (Tzolk'in: on the learned "
                        "estimate, for the win and a little for the points; Tikal: the greedy "
                        "bot looking through two of its own AP actions, stronger there)"),
}

_BUDGET = re.compile(r"(\d+(?:\.\d+)?)(i|ms|s)")


def parse_params(arg: str, spec: str) -> tuple[list[str], dict[str, str]]:
    """Split ``a,b,key=value`` into positional parts and keyword parts."""
    plain: list[str] = []
    keyed: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in arg.split(","))):
        key, sep, value = part.partition("=")
        if sep:
            keyed[key.strip().lower()] = value.strip()
        else:
            plain.append(part.lower())
    return plain, keyed


def _number(keyed: dict[str, str], key: str, default: float, spec: str) -> float:
    try:
        return float(keyed.pop(key)) if key in keyed else default
    except ValueError:
        raise ValueError(f"agent {spec!r}: {key} must be a number") from None


def _reject_unknown(keyed: dict[str, str], spec: str, known: str) -> None:
    if keyed:
        raise ValueError(f"agent {spec!r}: unknown setting(s) {sorted(keyed)}; known: {known}")


def parse_budget(text: str, spec: str) -> tuple[int | None, float | None]:
    """``500i`` -> (500, None); ``1s`` -> (None, 1.0); ``250ms`` -> (None, 0.25); ``500i+2s``."""
    iterations: int | None = None
    seconds: float | None = None
    for token in text.split("+"):
        m = _BUDGET.fullmatch(token.strip())
        if not m:
            raise ValueError(f"agent {spec!r}: budget {token!r} must look like 500i, 1s or 250ms")
        value, unit = float(m.group(1)), m.group(2)
        if unit == "i":
            if value != int(value):
                raise ValueError(f"agent {spec!r}: iterations must be a whole number")
            iterations = int(value)
        else:
            seconds = value / 1000.0 if unit == "ms" else value
    return iterations, seconds


def heuristic_agent(arg: str, seed: int, spec: str = "heuristic") -> HeuristicAgent:
    plain, keyed = parse_params(arg, spec)
    if plain:
        raise ValueError(f"agent {spec!r}: unexpected {plain}; use key=value settings")
    samples = _number(keyed, "samples", 3, spec)
    noise = _number(keyed, "noise", 0.0, spec)
    epsilon = _number(keyed, "epsilon", 0.0, spec)
    depth, depth_by_game = parse_depth(keyed.pop("depth", ""), spec)
    slack = _number(keyed, "slack", 0.0, spec)
    sensible = _number(keyed, "sensible", 0, spec)
    beam = _number(keyed, "beam", 0, spec)
    eval_name = keyed.pop("eval", "")
    _reject_unknown(keyed, spec, "samples, noise, epsilon, depth, slack, sensible, eval, beam")
    if beam != int(beam):
        raise ValueError(f"agent {spec!r}: beam must be a whole number")
    return HeuristicAgent(seed, samples=int(samples), noise=noise, epsilon=epsilon,
                          depth=depth, name=spec, slack=slack, sensible=bool(sensible),
                          eval=eval_name or None, depth_by_game=depth_by_game, beam=int(beam))


def parse_depth(text: str, spec: str) -> tuple[int | None, dict[str, int]]:
    """``depth=2`` (every game), ``depth=tikal:2`` or ``depth=tikal:2/tzolkin:4`` (those
    games; the others look through the game's own depth): (depth or None, by game)."""
    plain: int | None = None
    by_game: dict[str, int] = {}
    for part in filter(None, text.split("/")):
        game, sep, number = part.rpartition(":")
        if not number.strip().isdigit() or (sep and not game.strip()):
            raise ValueError(f"agent {spec!r}: depth must be a whole number, or GAME:N joined by '/'")
        if sep:
            by_game[game.strip().lower()] = int(number)
        else:
            plain = int(number)
    return plain, by_game


def mcts_agent(arg: str, seed: int, spec: str = "mcts") -> MCTSAgent:
    plain, keyed = parse_params(arg, spec)
    if len(plain) != 1:
        raise ValueError(f"agent {spec!r}: give one budget, e.g. mcts:500i or mcts:1s")
    iterations, seconds = parse_budget(plain[0], spec)
    c = _number(keyed, "c", 0.7, spec)
    temperature = _number(keyed, "temp", 0.0, spec) or None
    rollout_text = keyed.pop("rollout", "default").lower()
    norm_text = keyed.pop("norm", "on").lower()
    prior = _number(keyed, "prior", 1.0, spec)
    worlds = _number(keyed, "worlds", 0, spec)
    eval_name = keyed.pop("eval", "")
    sensible = _number(keyed, "sensible", 0, spec)
    margin = _number(keyed, "margin", 0.0, spec)
    rails = _number(keyed, "rails", 0.0, spec)
    _reject_unknown(keyed, spec, "c, rollout, temp, norm, prior, worlds, eval, sensible, margin, rails")
    if not 0 <= margin <= 1:
        raise ValueError(f"agent {spec!r}: margin must be between 0 and 1")
    if not 0 <= rails <= 1:
        raise ValueError(f"agent {spec!r}: rails must be between 0 and 1")
    if worlds != int(worlds):
        raise ValueError(f"agent {spec!r}: worlds must be a whole number")
    if norm_text not in ("on", "off"):
        raise ValueError(f"agent {spec!r}: norm must be on or off")
    if rollout_text == "end":
        rollout: int | None = None
    elif rollout_text == "default":
        rollout = -1
    elif rollout_text.isdigit():
        rollout = int(rollout_text)
    else:
        raise ValueError(f"agent {spec!r}: rollout must be a number of plies or 'end'")
    return MCTSAgent(seed, iterations=iterations, seconds=seconds, c=c,
                     rollout_plies=rollout, temperature=temperature,
                     normalize=norm_text == "on", prior=prior, worlds=int(worlds), name=spec,
                     eval=eval_name or None, sensible=bool(sensible), margin=margin, rails=rails)


# A level's spec for one game where it differs from :data:`LEVELS` (measured: docs/bots.md,
# "Tikal's ladder"). Tikal's ``hard``: information-set MCTS with 1 s lost most games (9 of
# 11) to a greedy bot looking through two of its own AP actions, which thinks in about
# 35 ms. Tikal's ``medium``: the same look with one move in five drawn at random (the
# one-step greedy beat ``easy`` only 64.5% of the time).
# Tzolk'in's ``hard``: the search on a learned estimate at its leaves, with no random
# plies before it (random plies spoiled the estimate: with 4 of them it won 3 of 12 against
# the search of before; measured in docs/bots.md, "Tzolk'in's hard"). Its estimate is the
# sixth fit (``learned6``, on games the search itself played; docs/bots.md, "Stop 36"), and
# a tenth of its reward is the score margin (``margin=0.1``): a seat whose game is settled
# still plays for points, e.g. feeds its workers on the last day (docs/bots.md, "Stop 43").
LEVELS_BY_GAME: dict[str, dict[str, str]] = {
    "tikal": {"medium": "heuristic:sensible=1,depth=2,epsilon=0.2",
              "hard": "heuristic:sensible=1,depth=2"},
    "tzolkin": {"hard": "mcts:1s,eval=learned6,rollout=0,margin=0.1"},
}


def level_spec(level: str, game: str | None = None) -> str:
    """The spec ``level`` means in ``game`` (``None``: its spec for every other game)."""
    return LEVELS_BY_GAME.get(game or "", {}).get(level, LEVELS[level][0])


# The estimate the game review and the hints search on, where a game names one other than
# ``hard``'s (chosen by the calibration of the review's win chances, ``benchmarks/bench_review.py``,
# where ``hard``'s is chosen by strength). None does since stop 37: Tzolk'in's review left
# ``hard``'s ``learned6`` for ``learned`` in stop 36 (its win chances too unsure near 0 and 1,
# ECE 0.085) and follows it again with them sharpened by the game's fitted factor
# (``data/review_calibration.json``, 2 players, per Food Days held: Brier 0.123, ECE 0.037 on the
# measured 400 decisions).
REVIEW_EVAL_BY_GAME: dict[str, str] = {}


@functools.lru_cache(maxsize=None)
def search_settings(game: str) -> dict[str, Any]:
    """How the game's ``hard`` level searches, beside its budget (its estimate, ``eval``,
    and its random plies before it, ``rollout_plies``), where ``hard`` is a search; else
    nothing. The game review and the hints search alike (:func:`review_settings`), but for
    the win alone, not ``hard``'s share of the score margin (``margin``): the review reads its
    win chances from that reward, and they are calibrated on it."""
    agent = make_agent(level_spec("hard", game))
    if not isinstance(agent, MCTSAgent):
        return {}
    return {"eval": agent.eval, "rollout_plies": agent.rollout_plies}


def review_settings(game: str) -> dict[str, Any]:
    """How the game review and the hints search (:mod:`..arena.review`): as ``hard`` does
    (:func:`search_settings`), on the estimate of :data:`REVIEW_EVAL_BY_GAME` where the game
    names one (its win chances are the better calibrated)."""
    settings = search_settings(game)
    if settings and game in REVIEW_EVAL_BY_GAME:
        return {**settings, "eval": REVIEW_EVAL_BY_GAME[game]}
    return settings


class LevelAgent:
    """A difficulty level whose spec differs by game (:data:`LEVELS_BY_GAME`): it plays
    each game with that game's agent, built on the first decision with the level's seed.
    Its other attributes are those of the agent of :data:`LEVELS` (``hard.seconds``)."""

    def __init__(self, level: str, seed: int) -> None:
        self.name = level
        self.seed = seed
        self.default = make_agent(LEVELS[level][0], seed)
        self.by_game: dict[str, Agent] = {}

    def agent_for(self, game: str) -> Agent:
        agent = self.by_game.get(game)
        if agent is None:
            spec = level_spec(self.name, game)
            agent = self.default if spec == LEVELS[self.name][0] else make_agent(spec, self.seed)
            self.by_game[game] = agent
        return agent

    def agents(self) -> list[Agent]:
        """Every agent this level may play with, built now (the server bounds each one's
        thinking, and the agents built are the ones that will play)."""
        return [self.default, *(self.agent_for(g) for g, levels in LEVELS_BY_GAME.items()
                                if self.name in levels)]

    def act(self, view: State, legal: Sequence[Action]) -> Action:
        return self.agent_for(view.info.name).act(view, legal)

    def __getattr__(self, name: str) -> Any:
        if name in ("default", "by_game", "__setstate__", "__getstate__"):
            raise AttributeError(name)
        return getattr(self.default, name)


def level_agent(level: str) -> Callable[[str, int], Agent]:
    def build(arg: str, seed: int) -> Agent:
        if arg:
            raise ValueError(f"agent {level!r} takes no settings (it means {LEVELS[level][0]!r})")
        if any(level in levels for levels in LEVELS_BY_GAME.values()):
            return LevelAgent(level, seed)
        return make_agent(LEVELS[level][0], seed)
    return build


# spec name -> factory(argument after ':' or '', seed) -> Agent
AGENT_FACTORIES: dict[str, Callable[[str, int], Agent]] = {
    "random": lambda arg, seed: RandomAgent(seed),
    "heuristic": lambda arg, seed: heuristic_agent(arg, seed, f"heuristic:{arg}" if arg else "heuristic"),
    "mcts": lambda arg, seed: mcts_agent(arg, seed, f"mcts:{arg}"),
    **{level: level_agent(level) for level in LEVELS},
}

AGENT_DOCS: dict[str, str] = {
    "random": "uniformly random legal moves",
    "heuristic": "greedy search on the game's score estimate, through the seat's own "
                 "consecutive decisions (settings: samples=3, noise=0, epsilon=0, depth=game's, "
                 "slack=0, sensible=0|1, eval=NAME)",
    "mcts": "information-set MCTS; budget 500i, 1s or 250ms "
            "(settings: c=0.7, rollout=N|end, temp=T, prior=1, norm=on|off, worlds=0|K, "
            "sensible=0|1, eval=NAME, margin=0..1, rails=0..1)",
    **{level: f"{desc} ({spec})" for level, (spec, desc) in LEVELS.items()},
}


def make_agent(spec: str, seed: int = 0) -> Agent:
    """Build an agent from a spec such as ``random``, ``mcts:1s`` or ``hard``.

    Raises ``ValueError`` with the known specs for an unknown or malformed spec.
    """
    name, _, arg = spec.strip().partition(":")
    factory = AGENT_FACTORIES.get(name.strip().lower())
    if factory is None:
        raise ValueError(f"unknown agent {spec!r}; known: {sorted(AGENT_FACTORIES)} and 'human'")
    return factory(arg.strip(), seed)


__all__ = ["AGENT_DOCS", "AGENT_FACTORIES", "LEVELS", "LEVELS_BY_GAME", "REVIEW_EVAL_BY_GAME", "Agent",
           "HeuristicAgent", "LevelAgent", "MCTSAgent", "RandomAgent", "SearchStats", "level_spec",
           "make_agent", "parse_budget", "review_settings", "search_settings"]

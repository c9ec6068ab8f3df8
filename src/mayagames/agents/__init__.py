"""Agents: one interface for people's stand-ins and bots, for every game.

An agent gets only a *view* (what its seat may know) and the legal actions, and
returns one of them::

    agent = make_agent("random", seed=1)
    action = agent.act(state.view(seat), state.legal_actions())

Specs understood by :func:`make_agent` are listed in :data:`AGENT_FACTORIES`.
"""

from __future__ import annotations

from typing import Callable, Protocol, Sequence

from ..core.game import Action, State
from ..core.rng import Rng


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


# spec name -> factory(argument after ':' or '', seed) -> Agent
AGENT_FACTORIES: dict[str, Callable[[str, int], Agent]] = {
    "random": lambda arg, seed: RandomAgent(seed),
}


def make_agent(spec: str, seed: int = 0) -> Agent:
    """Build an agent from a spec such as ``random`` (``name:argument`` for budgets)."""
    name, _, arg = spec.strip().partition(":")
    factory = AGENT_FACTORIES.get(name.lower())
    if factory is None:
        raise ValueError(f"unknown agent {spec!r}; known: {sorted(AGENT_FACTORIES)} and 'human'")
    return factory(arg, seed)

"""Hidden High Card: a tiny game with hidden hands, a shuffled deck and a compound
turn, used to test the core and every tool built on it (agents, arena, server,
RL) independently of the real games. Not listed to users.

Rules: a deck of cards 1..8 twice is shuffled; each player is dealt 2 cards
(seen only by their owner). A turn is one or two decisions: ``play C`` puts card
C face up on your pile (C points) and then you draw the top card of the deck
(hidden), or ``swap C`` (at most twice per game) puts C under the deck and draws
the top card, after which you may ``bonus`` (+1 point, once per game) or ``end``. The game ends when every
player has played 3 cards or has no card left to play (with 4 players the deck
can run out first). Most points wins; ties share.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from .errors import IllegalAction, NotationError
from .game import GameEvent, GameInfo, GamePlugin, Lazy, Narration, OptionSpec, State, seat_ref
from .registry import register
from .rng import Rng

HIDDEN = 0  # a card the viewer cannot see
PLAYS_PER_PLAYER = 3
SWAPS_PER_PLAYER = 2  # bounds the game's length whatever the players do


@dataclass(frozen=True, slots=True)
class Play:
    KIND: ClassVar[str] = "Play"
    card: int

    def __str__(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True, slots=True)
class Swap:
    KIND: ClassVar[str] = "Swap"
    card: int

    def __str__(self) -> str:
        return f"swap {self.card}"


@dataclass(frozen=True, slots=True)
class Bonus:
    KIND: ClassVar[str] = "Bonus"
    def __str__(self) -> str:
        return "bonus"


@dataclass(frozen=True, slots=True)
class End:
    KIND: ClassVar[str] = "End"
    def __str__(self) -> str:
        return "end"


def parse_action(text: str) -> Play | Swap | Bonus | End:
    text = text.strip().lower()
    if text == "bonus":
        return Bonus()
    if text == "end":
        return End()
    m = re.fullmatch(r"(play|swap) ([1-8])", text)
    if not m:
        raise NotationError(f"not a toy action: {text!r}")
    return (Play if m.group(1) == "play" else Swap)(int(m.group(2)))


class ToyState(State):
    def __init__(self, num_players: int, seed: int, options: dict[str, Any]) -> None:
        self.num_players = num_players
        self.seed = seed
        self.options = options
        self.viewer: int | None = None
        self.rng = Rng(seed)
        self.deck = [c for c in range(1, 9) for _ in range(2)]
        self.rng.shuffle(self.deck)
        self.hands = [[self.deck.pop(), self.deck.pop()] for _ in range(num_players)]
        self.piles: list[list[int]] = [[] for _ in range(num_players)]
        self.bonus_used = [False] * num_players
        # option swaps=0 lifts the limit: a game that may never end, for testing bounds
        self.swaps_left = [options.get("swaps", SWAPS_PER_PLAYER) or 10**9] * num_players
        self.turn = 0
        self.after_swap = False  # inside a compound turn: may take the bonus or end

    # --- protocol ---------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        if not any(self._can_play(seat) for seat in range(self.num_players)):
            return None
        return self.turn

    def _can_play(self, seat: int) -> bool:
        """A seat still plays while it has played fewer than 3 cards and holds a card."""
        return len(self.piles[seat]) < PLAYS_PER_PLAYER and bool(self.hands[seat])

    def legal_actions(self) -> list[Any]:
        if self.current_player is None:
            return []
        seat = self.turn
        if self.after_swap:
            return [End(), Bonus()] if not self.bonus_used[seat] else [End()]
        cards = sorted(set(self.hands[seat]))
        acts: list[Any] = [Play(c) for c in cards]
        if self.deck and self.swaps_left[seat]:
            acts += [Swap(c) for c in cards]
        return acts

    def explain_illegal(self, action: Any) -> IllegalAction:
        if isinstance(action, (Play, Swap)) and self.after_swap:
            return IllegalAction("toy: compound turn", "finish the turn with bonus or end", action)
        if isinstance(action, (Play, Swap)) and action.card not in self.hands[self.turn]:
            return IllegalAction("toy: hand", f"card {action.card} is not in your hand", action)
        if isinstance(action, Swap) and not self.swaps_left[self.turn]:
            return IllegalAction("toy: swaps", "you have used all your swaps", action)
        if isinstance(action, Bonus) and self.bonus_used[self.turn]:
            return IllegalAction("toy: bonus", "the bonus is once per game", action)
        return super().explain_illegal(action)

    def _apply(self, action: Any) -> None:
        seat = self.turn
        if isinstance(action, Play):
            self.hands[seat].remove(action.card)
            self.piles[seat].append(action.card)
            if self.deck:
                self.hands[seat].append(self.deck.pop())
            self._next_player()
        elif isinstance(action, Swap):
            self.hands[seat].remove(action.card)
            self.deck.insert(0, action.card)
            self.hands[seat].append(self.deck.pop())
            self.swaps_left[seat] -= 1
            self.after_swap = True
        elif isinstance(action, Bonus):
            self.bonus_used[seat] = True
            self.after_swap = False
            self._next_player()
        else:
            self.after_swap = False
            self._next_player()

    def _next_player(self) -> None:
        for step in range(1, self.num_players + 1):
            seat = (self.turn + step) % self.num_players
            if self._can_play(seat):
                self.turn = seat
                return

    def scores(self) -> list[float]:
        return [float(sum(p) + self.bonus_used[i]) for i, p in enumerate(self.piles)]

    def clone(self) -> "ToyState":
        c = ToyState.__new__(ToyState)
        c.num_players, c.seed, c.options, c.viewer = self.num_players, self.seed, self.options, self.viewer
        c.rng = self.rng.copy()
        c.deck = list(self.deck)
        c.hands = [list(h) for h in self.hands]
        c.piles = [list(p) for p in self.piles]
        c.bonus_used = list(self.bonus_used)
        c.swaps_left = list(self.swaps_left)
        c.turn, c.after_swap = self.turn, self.after_swap
        return c

    def view(self, seat: int | None) -> "ToyState":
        v = self.clone()
        v.viewer = seat
        v.seed = 0  # the seed would regenerate every shuffle
        v.rng = Rng(0)  # the true generator would reveal future draws
        v.deck = [HIDDEN] * len(self.deck)
        v.hands = [sorted(h) if i == seat else [HIDDEN] * len(h) for i, h in enumerate(self.hands)]
        return v

    def unseen_cards(self) -> list[int]:
        """Cards the viewer cannot locate: all cards minus own hand and the piles."""
        pool = [c for c in range(1, 9) for _ in range(2)]
        for card in [c for h in self.hands for c in h if c != HIDDEN] + [c for p in self.piles for c in p]:
            pool.remove(card)
        return pool

    def determinize(self, rng: Rng) -> "ToyState":
        full = self.clone()
        full.viewer = None
        full.rng = rng.spawn()
        if self.viewer is None and HIDDEN not in self.deck:
            return full
        pool = self.unseen_cards()
        rng.shuffle(pool)
        full.hands = [[c if c != HIDDEN else pool.pop() for c in h] for h in self.hands]
        full.deck = [pool.pop() for _ in self.deck]
        return full

    def to_dict(self) -> dict[str, Any]:
        return {"viewer": self.viewer, "turn": self.turn, "after_swap": self.after_swap,
                "deck": list(self.deck) if self.viewer is None else len(self.deck),
                "hands": [sorted(h) for h in self.hands], "piles": [list(p) for p in self.piles],
                "bonus_used": list(self.bonus_used), "swaps_left": list(self.swaps_left),
                "scores": self.scores()}

    def reveals_information(self, action: Any) -> bool:
        return isinstance(action, (Play, Swap)) and bool(self.deck)

    def invariants(self) -> list[str]:
        cards = sorted(self.deck + [c for h in self.hands for c in h] + [c for p in self.piles for c in p])
        return [] if cards == sorted(c for c in range(1, 9) for _ in range(2)) else ["cards not conserved"]


def render(state: State, seat: int | None) -> str:
    assert isinstance(state, ToyState)
    lines = [f"Hidden High Card - deck {len(state.deck)} cards"]
    for i in range(state.num_players):
        hand = " ".join("?" if c == HIDDEN else str(c) for c in state.hands[i])
        lines.append(f"  seat {i}: hand [{hand}] pile {state.piles[i]} score {state.scores()[i]:g}")
    return "\n".join(lines)


def narrate(before: State, action: Any, after: State, viewer: int | None) -> Narration:
    """A toy move as a sentence; the card drawn is named only to its owner."""
    assert isinstance(before, ToyState) and isinstance(after, ToyState)
    seat = before.turn
    who = seat_ref(seat)
    kept = list(before.hands[seat])
    if isinstance(action, (Play, Swap)):
        kept.remove(action.card)
    drawn = list(after.hands[seat])
    for card in kept:
        drawn.remove(card)
    draw = ""
    if isinstance(action, (Play, Swap)) and len(before.deck) > 0:
        draw = f" and draws a {drawn[0]}" if viewer == seat and drawn else " and draws a card"
    if isinstance(action, Play):
        text = f"{who} plays a {action.card} ({action.card} points){draw}"
    elif isinstance(action, Swap):
        secret = before.public_notation(action, viewer) != str(action)  # a variant may hide it
        text = f"{who} puts {'a card' if secret else f'a {action.card}'} under the deck{draw}"
    elif isinstance(action, Bonus):
        text = f"{who} takes the bonus (+1 point)"
    else:
        text = f"{who} ends the turn"
    events: tuple[GameEvent, ...] = ()
    if after.current_player is None:
        scores = after.scores()
        best = max(scores)
        winners = " and ".join(seat_ref(s) for s, v in enumerate(scores) if v == best)
        events = (GameEvent("game_over", f"Game over: {winners} won with {best:g} points",
                            {"title": "Final scores", "columns": ["Player", "Cards", "Bonus", "Total"],
                             "rows": [[seat_ref(s), sum(after.piles[s]), int(after.bonus_used[s]),
                                       int(scores[s])] for s in range(after.num_players)]}),)
    shown = isinstance(action, Play) or (isinstance(action, Swap) and "a card under" not in text)
    return Narration(text + ".", events, (f"card:{action.card}",) if shown else ())


INFO = register(GameInfo(
    name="toy", title="Hidden High Card (test game)", version="1",
    min_players=2, max_players=4,
    new_game=lambda num_players, seed, options: ToyState(num_players, seed, options),
    parse_action=parse_action, actions=(Play, Swap, Bonus, End), render=render,
    max_decisions=200, narrator=narrate,
    plugin=GamePlugin(  # the toy's parts live beside it (Lazy: they import this module)
        estimate_scores=Lazy("mayagames.core.toy_heuristic:estimate_scores"), score_scale=2.0,
        seat_features=Lazy("mayagames.core.toy_heuristic:seat_features"),
        encoding=Lazy("mayagames.core.toy_encoding:ENCODING")),
    options=(OptionSpec("swaps", SWAPS_PER_PLAYER,
                        "swaps per player per game; 0 = unlimited (a game that may never end)"),),
))
ToyState.info = INFO

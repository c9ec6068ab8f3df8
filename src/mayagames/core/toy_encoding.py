"""Encoding of the test game Hidden High Card (``toy``).

Actions (18 integers for any player count): ``0..7`` play card 1..8,
``8..15`` swap card 1..8, ``16`` bonus, ``17`` end.

Observation (from the viewer's seat, other seats numbered from it in turn
order, every value scaled into [0, 1]): see :meth:`ToyObserver.build_layout`
and the table in ``docs/rl.md``.
"""

from __future__ import annotations

import numpy as np

from .game import Action, State
from .toy import HIDDEN, PLAYS_PER_PLAYER, Bonus, End, Play, Swap, ToyState
from ..rl.encoding import ActionCodec, Field, GameEncoding, Layout, ObservationEncoder, register_encoding, unknown_index

CARDS = 8  # card values 1..8
COPIES = 2  # each value twice in the deck
DECK_SIZE = CARDS * COPIES
HAND_SIZE = 2
MAX_SCORE = 8 + 8 + 7 + 1  # best three cards plus the bonus

PLAY0, SWAP0, BONUS, END = 0, CARDS, 2 * CARDS, 2 * CARDS + 1


class ToyCodec(ActionCodec):
    """``play c`` -> c-1, ``swap c`` -> 7+c, ``bonus`` -> 16, ``end`` -> 17."""

    @property
    def size(self) -> int:
        return END + 1

    def encode(self, action: Action, view: State) -> int:
        if isinstance(action, Play):
            return PLAY0 + action.card - 1
        if isinstance(action, Swap):
            return SWAP0 + action.card - 1
        if isinstance(action, Bonus):
            return BONUS
        if isinstance(action, End):
            return END
        raise TypeError(f"not a toy action: {action!r}")

    def decode(self, index: int, view: State) -> Action:
        if PLAY0 <= index < SWAP0:
            return Play(index - PLAY0 + 1)
        if SWAP0 <= index < BONUS:
            return Swap(index - SWAP0 + 1)
        if index == BONUS:
            return Bonus()
        if index == END:
            return End()
        raise unknown_index(index, self)

    def label(self, index: int) -> str:
        return str(self.decode(index, None))  # type: ignore[arg-type]  # context-free codec

    def blocks(self) -> list[tuple[int, int, str]]:
        return [(PLAY0, SWAP0 - 1, "`play c` with c = index + 1"),
                (SWAP0, BONUS - 1, "`swap c` with c = index - 7"),
                (BONUS, BONUS, "`bonus` (after a swap, once per game)"),
                (END, END, "`end` (after a swap)")]


class ToyObserver(ObservationEncoder):
    def build_layout(self) -> Layout:
        n = self.num_players
        return Layout([
            Field("hand", CARDS, "own hand: copies of card value v (v=1..8) / 2"),
            Field("unseen", CARDS, "copies of value v the viewer cannot locate "
                                   "(deck and other hands) / 2"),
            Field("piles", n * CARDS, "per seat from the viewer (viewer first): "
                                      "copies of value v in its pile / 2"),
            Field("pile_size", n, "per seat from the viewer: cards played / 3"),
            Field("hand_size", n, "per seat from the viewer: cards in hand / 2"),
            Field("scores", n, f"per seat from the viewer: score / {MAX_SCORE}"),
            Field("bonus_used", n, "per seat from the viewer: 1 if its bonus is taken"),
            Field("to_move", n, "one-hot: the seat (from the viewer) to decide; zero at the end"),
            Field("deck_size", 1, f"cards left in the deck / {DECK_SIZE}"),
            Field("after_swap", 1, "1 inside a compound turn (after a swap: bonus or end)"),
        ])

    def fill(self, view: State, obs: np.ndarray) -> None:
        assert isinstance(view, ToyState)
        lay, me, n = self.layout, view.viewer, self.num_players
        seats = [(me + k) % n for k in range(n)]  # viewer first, then turn order
        lay.put(obs, "hand", counts(view.hands[me]) / COPIES)
        lay.put(obs, "unseen", counts(view.unseen_cards()) / COPIES)
        lay.put(obs, "piles", np.concatenate([counts(view.piles[s]) for s in seats]) / COPIES)
        lay.put(obs, "pile_size", [len(view.piles[s]) / PLAYS_PER_PLAYER for s in seats])
        lay.put(obs, "hand_size", [len(view.hands[s]) / HAND_SIZE for s in seats])
        scores = view.scores()
        lay.put(obs, "scores", [scores[s] / MAX_SCORE for s in seats])
        lay.put(obs, "bonus_used", [float(view.bonus_used[s]) for s in seats])
        if view.current_player is not None:
            obs[lay.slice("to_move").start + self.relative(view.current_player, me)] = 1.0
        lay.put(obs, "deck_size", len(view.deck) / DECK_SIZE)
        lay.put(obs, "after_swap", float(view.after_swap))


def counts(cards: list[int]) -> np.ndarray:
    """Copies of each value 1..8 among ``cards`` (hidden placeholders ignored)."""
    hist = np.zeros(CARDS, dtype=np.float32)
    for card in cards:
        if card != HIDDEN:
            hist[card - 1] += 1
    return hist


ENCODING = register_encoding(GameEncoding(
    game="toy", codec=ToyCodec, observer=ToyObserver, score_scale=MAX_SCORE,
    doc="Hidden High Card, the test game: 18 actions, observation 18 + 13n values.",
))

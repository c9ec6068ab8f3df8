"""A game-specific estimate of each seat's FINAL score, for bots (leaf evaluation, playout cut-offs).

``estimate_scores(state)`` works on a full state or on a view: it reads only public
information (the board, museums, campsites, the track; hidden piles are counted from the
component data, never looked at). At the end of the game it returns the final scores.

The estimate, per seat::

    prestige now
    + scorings_left x score_if_scored_now           (the board as it stands, scored again)
    + scorings_left x treasure_growth                (Ruins still hold treasures to unearth)
    + resources x time_left                          (EMs ready, AP in hand, cards on campsite)
    + 5 if the Museum Director is unused             (its end bonus, or a power worth at least that)

* **scorings_left**: the Final Scoring plus one per lettered Volcano tile not yet placed
  (each triggers an In-Game Scoring), counted from the data minus the tiles seen; during a
  scoring sequence, 1 more for the seats still to score in it; 0 once the game is over.
* **score_if_scored_now**: :func:`mayagames.tikal.scoring.score_breakdown` (temples with
  tallest bonus, volcanoes, jungles x temples, lakes x ruin masks, treasure sets); positions
  change between scorings, so later scorings are discounted (``DECAY`` per scoring).
* **treasure_growth**: a share of the treasures still on Ruins where the seat stands.
* **resources**: available EMs (Leader 3, Explorer 1) and AP to spend (token, permanent
  cards, a 10-AP final turn), worth ``AP_VALUE`` PP per AP, scaled by the share of the game left.

The weights are hand-set, documented guesses (no tuning data yet); the bots engineer may
refit them. It costs about one scoring (a few hundred microseconds).
"""

from __future__ import annotations

from itertools import compress

from .state import JUNGLE, LAKE, OVER, RUINS, TEMPLE, VOLCANO, TikalState

# A typical decisive final margin, fitted on heuristic self-play: sigmoid(estimated margin /
# SCORE_SCALE) predicts the 2-player winner best at 20 (log-likelihood over 2,000 positions of
# 20 games; 15-25 nearly as good). MCTS uses it as the temperature of its win chances
# (``mcts:150i`` with 20 beat itself with the former default 5 in 11 of 16 games) and the
# ``easy`` level's noise is in its units.
# estimate_scores reads only public information, so a full state gives the same estimate as
# any seat's view of it (tests/equivalence checks this); bots may skip building the view.
PUBLIC_ESTIMATE = True
# every action whose result depends on a hidden part (deck, bag, piles, face-down treasures)
# is flagged by reveals_information; bots may value the others once for all sampled worlds
# (tests/equivalence checks it)
CHANCE_IS_REVEALED = True
SCORE_SCALE = 20.0
SCORED_KINDS = frozenset((TEMPLE, VOLCANO, JUNGLE, LAKE, RUINS))
DECAY = 0.8  # a later scoring keeps this share of the current position's value
AP_VALUE = 0.6  # PP per AP still to spend
STRENGTH_VALUE = 0.4  # PP per point of ready strength (available EMs), scaled by time left
RUIN_SHARE = 0.5  # PP per treasure still on a Ruin where the seat has an EM
NOT_NEGATIVE = (-1).__lt__  # a Guardian's seat (-1: none)


_LETTERED_VOLCANOES: dict[int, tuple[object, tuple[int, ...]]] = {}


def lettered_volcanoes(s: TikalState) -> tuple[int, ...]:
    """Indices of the lettered (A-E) Volcano tiles of the component set (computed once)."""
    entry = _LETTERED_VOLCANOES.get(id(s.C))
    if entry is None or entry[0] is not s.C:
        entry = _LETTERED_VOLCANOES[id(s.C)] = (s.C, tuple(
            t.index for t in s.C.tiles if t.type == "volcano" and t.back in "ABCDE"))
    return entry[1]


def unplaced_letter_volcanoes(s: TikalState) -> int:
    """Lettered Volcano tiles (A-E) not yet on the board nor discarded: each will trigger a scoring."""
    seen = set(s.tile_on)
    seen.update(s.tiles_out)
    return sum(1 for t in lettered_volcanoes(s) if t not in seen)


def scorings_left(s: TikalState, seat: int, future: int | None = None) -> float:
    """Expected number of scorings still to count for ``seat`` (discounted); ``future``:
    :func:`unplaced_letter_volcanoes` + 1 if already known."""
    if s.phase == OVER:
        return 0.0
    in_sequence = 1 if seat in s.scoring_queue or (s.stack and s.stack[-1].ctx in ("volcano", "final")
                                                    and s.stack[-1].seat == seat) else 0
    if s.scoring_kind == "final":
        return float(in_sequence)
    if future is None:
        future = unplaced_letter_volcanoes(s) + 1
    total = float(in_sequence)
    weight = 1.0
    for _ in range(future):
        total += weight
        weight *= DECAY
    return total


def time_left(s: TikalState) -> float:
    """Share of the game still to play, 1 at the start, 0 at the end."""
    if s.phase == OVER:
        return 0.0
    rounds = s.setup_rules["rounds"]
    return max(0.0, (rounds - s.round + (0.5 if s.phase <= 1 else 0.0)) / rounds)


def ap_in_hand(s: TikalState, seat: int) -> int:
    ap = s.ap_token[seat]
    for c in s.right[seat] + s.left[seat]:
        card = s.C.cards[c]
        if card.permanent and not s.down[c]:
            ap += int(card.params.get("ap", 0))
    f = s.stack[-1] if s.stack else None
    if f is not None and f.seat == seat and f.kind == "ap":
        ap += f.points
    if s.phase != OVER and s.scoring_kind != "final":
        ap += s.C.special_turn_ap  # the 10-AP turn of the Final Scoring
    return ap


def ruin_potential(s: TikalState, seat: int) -> float:
    total = 0.0
    base = seat * s.H
    explorers, leaders = s.explorers, s.leaders
    for h in sorted(s.ruin):  # only Ruins have stacks; ascending, as a scan of the board
        stack = s.ruin[h]
        if stack and s.kind[h] == RUINS:
            figures = explorers[base + h] + leaders[base + h]
            if figures:
                total += RUIN_SHARE * min(len(stack), figures)
    return total


def contested_hexes(s: TikalState) -> list[int]:
    """Hexes with a Guardian or an EM of any seat, ascending: the only ones anybody controls."""
    H = s.H
    hexes = set(compress(range(H), map(NOT_NEGATIVE, s.guardian)))
    for seat in range(s.num_players):
        base = seat * H
        hexes.update(compress(range(H), s.explorers[base:base + H]))
        hexes.update(compress(range(H), s.leaders[base:base + H]))
    return sorted(hexes)


def scores_if_now(s: TikalState) -> list[int]:
    """Every seat's :func:`mayagames.tikal.scoring.score_breakdown` total (rule 8) in one
    pass over the board: each hex's majority is found once for all seats (the estimate's
    hot spot; a test checks it against ``score_breakdown``)."""
    n = s.num_players
    temples: list[list[int]] = [[] for _ in range(n)]
    volcanoes, jungles, lakes, masks = [0] * n, [0] * n, [0] * n, [0] * n
    kinds, guardian, H = s.kind, s.guardian, s.H
    leaders, explorers = s.leaders, s.explorers
    ls, es = s.C.leader_strength, s.C.explorer_strength
    for h in contested_hexes(s):  # no EM and no Guardian: nobody controls the hex
        kind = kinds[h]
        if kind not in SCORED_KINDS:
            continue
        if kind == TEMPLE and guardian[h] >= 0:
            owner = guardian[h]
        else:  # strict majority of presence (state.majority, inlined)
            best, owner = 0, -1
            for seat in range(n):
                v = leaders[seat * H + h] * ls + explorers[seat * H + h] * es
                if v > best:
                    best, owner = v, seat
                elif v == best:
                    owner = -1
        if owner < 0:
            continue
        if kind == TEMPLE:
            temples[owner].append(s.level[h])
        elif kind == VOLCANO:
            volcanoes[owner] += 1
        elif kind == JUNGLE:
            jungles[owner] += 1
        elif kind == LAKE:
            lakes[owner] += 1
        else:
            masks[owner] += s.visible_masks(h)
    tallest, volcano_pp = s.C.tallest_bonus, s.C.volcano_pp
    values, T = s.C.set_values, len(s.C.treasure_types)
    top = len(values) - 1
    museum = s.museum
    return [sum(temples[seat]) + sum(tallest.get(level, 0) for level in temples[seat])
            + volcano_pp * volcanoes[seat] + jungles[seat] * len(temples[seat])
            + masks[seat] * lakes[seat]
            + sum(values[min(k, top)] for k in museum[seat * T:seat * T + T])  # scoring.treasure_points
            for seat in range(n)]


def estimate_scores(state: TikalState) -> list[float]:
    """Each seat's estimated final score (exactly the scores once the game is over)."""
    s = state
    if s.phase == OVER:
        return [float(p) for p in s.pp]
    left = time_left(s)
    estimates = []
    now_all = scores_if_now(s)
    future = unplaced_letter_volcanoes(s) + 1
    for seat in range(s.num_players):
        now = now_all[seat]
        value = float(s.pp[seat]) + scorings_left(s, seat, future) * now
        value += ruin_potential(s, seat) * (1.0 + left)
        ready = s.avail_explorers[seat] * s.C.explorer_strength + s.avail_leaders[seat] * s.C.leader_strength
        value += (STRENGTH_VALUE * ready + AP_VALUE * ap_in_hand(s, seat)) * max(left, 0.15)
        if not s.power_used[seat]:
            value += s.C.unused_director_bonus
        estimates.append(round(value, 3))
    return estimates


__all__ = ["estimate_scores", "scores_if_now", "scorings_left", "unplaced_letter_volcanoes"]

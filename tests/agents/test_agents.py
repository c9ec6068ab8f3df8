"""Agents on the test game: legality, hidden information, reproducibility, strength."""

from __future__ import annotations

import pytest

from mayagames.agents import HeuristicAgent, MCTSAgent, RandomAgent, make_agent
from mayagames.agents.heuristic import value_after
from mayagames.core import conformance, get_game, new_game
from mayagames.core.rng import Rng
from mayagames.core.toy import HIDDEN, Bonus, End, Play, Swap, ToyState

CHEAP_SPECS = ["random", "heuristic", "easy", "medium", "mcts:40i", "mcts:30i,rollout=end",
               "mcts:30i,rollout=0", "heuristic:samples=1,noise=1,epsilon=0.5"]


def play_game(specs: list[str], seed: int, on_decision=None, agent_seed: int | None = None) -> ToyState:
    """A toy game between agents (stopped at the game's decision bound)."""
    state = new_game("toy", len(specs), seed=seed)
    base = seed * 10 if agent_seed is None else agent_seed
    agents = [make_agent(spec, base + seat) for seat, spec in enumerate(specs)]
    for _ in range(get_game("toy").max_decisions):
        seat = state.current_player
        if seat is None:
            break
        legal = state.legal_actions()
        action = agents[seat].act(state.view(seat), legal)
        if on_decision:
            on_decision(action)
        state.apply(action)
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("spec", CHEAP_SPECS)
def test_every_agent_returns_only_legal_actions_and_leaves_the_view_intact(spec, players):
    decisions = 0
    for seed in range(2):
        state = new_game("toy", players, seed=seed)
        agents = [make_agent(spec, seed)] + [RandomAgent(seed + s) for s in range(1, players)]
        while not state.is_terminal and decisions < 500:
            seat = state.current_player
            view, legal = state.view(seat), state.legal_actions()
            before = conformance.fingerprint(view)
            action = agents[seat].act(view, legal)
            assert action in legal, f"{spec}: {action} not legal in {legal}"
            assert conformance.fingerprint(view) == before, f"{spec} changed its view"
            state.apply(action)
            decisions += 1
    assert decisions >= 2 * 3 * players


def hidden_variants(state: ToyState, seat: int, rng: Rng) -> list[ToyState]:
    """True states that differ only in what ``seat`` cannot see (others' hands, deck order)."""
    variants = []
    for _ in range(4):
        other = state.clone()
        hidden = [(i, j) for i, hand in enumerate(other.hands) if i != seat for j in range(len(hand))]
        rng.shuffle(other.deck)
        if hidden and other.deck:  # exchange an opponent's card with a deck card
            i, j = hidden[rng.randbelow(len(hidden))]
            k = rng.randbelow(len(other.deck))
            other.hands[i][j], other.deck[k] = other.deck[k], other.hands[i][j]
        other.rng = Rng(rng.next64())  # future draws differ as well
        variants.append(other)
    return variants


def decision(spec: str, state: ToyState, seat: int, seed: int, cheat: bool = False):
    agent = make_agent(spec, seed)
    shown = state if cheat else state.view(seat)
    return agent.act(shown, state.legal_actions())


def mid_game_positions(count: int) -> list[ToyState]:
    positions = []
    seed = 0
    while len(positions) < count:
        state = new_game("toy", 3, seed=seed)
        rng = Rng(seed)
        for _ in range(2 + seed % 5):
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal and len(state.legal_actions()) > 1:
            positions.append(state)
        seed += 1
    return positions


@pytest.mark.parametrize("spec", ["random", "heuristic", "easy", "mcts:60i", "mcts:60i,worlds=8"])
def test_decisions_do_not_depend_on_hidden_information(spec):
    rng = Rng(99)
    for state in mid_game_positions(8):
        seat = state.current_player
        expected = decision(spec, state, seat, seed=5)
        for other in hidden_variants(state, seat, rng):
            assert conformance.fingerprint(other.view(seat)) == conformance.fingerprint(state.view(seat))
            assert other.invariants() == []
            assert decision(spec, other, seat, seed=5) == expected


def test_hidden_variants_do_matter_to_an_agent_that_could_see_them():
    """The control of the test above: given the true state, MCTS's choice changes."""
    rng = Rng(99)
    changed = 0
    for state in mid_game_positions(8):
        seat = state.current_player
        expected = decision("mcts:60i", state, seat, seed=5, cheat=True)
        changed += any(decision("mcts:60i", other, seat, seed=5, cheat=True) != expected
                       for other in hidden_variants(state, seat, rng))
    assert changed >= 1


def test_mcts_can_reuse_a_few_sampled_worlds(monkeypatch):
    calls = []
    real = ToyState.determinize

    def counting(self, rng):
        calls.append(1)
        return real(self, rng)
    monkeypatch.setattr(ToyState, "determinize", counting)
    state = mid_game_positions(1)[0]
    view, legal = state.view(state.current_player), state.legal_actions()
    reuse = MCTSAgent(seed=3, iterations=60, worlds=4, prior=0)
    reuse.act(view, legal)
    assert len(calls) == 4 and reuse.last.iterations == 60
    calls.clear()
    fresh = MCTSAgent(seed=3, iterations=60, prior=0)
    fresh.act(view, legal)
    assert len(calls) == 60
    with pytest.raises(ValueError, match="worlds"):
        MCTSAgent(iterations=5, worlds=-1)


@pytest.mark.parametrize("spec", ["easy", "mcts:50i", "mcts:20i,c=1.4,temp=3", "mcts:30i,worlds=5"])
def test_seeded_agents_reproduce_whole_games(spec):
    def moves(agent_seed: int) -> list[str]:
        out: list[str] = []
        play_game([spec, "random", spec], seed=4, on_decision=out.append, agent_seed=agent_seed)
        return [str(a) for a in out]

    assert moves(0) == moves(0)
    assert any(moves(0) != moves(k) for k in (100, 200, 300))  # the seed matters


def test_mcts_iteration_budget_is_exact_and_reports_statistics():
    state = mid_game_positions(1)[0]
    agent = MCTSAgent(seed=1, iterations=120)
    action, stats = agent.search(state.view(state.current_player), state.legal_actions())
    assert action in state.legal_actions()
    assert stats.iterations == 120
    assert stats.seconds > 0 and stats.iterations_per_s > 0
    assert sum(child["visits"] for child in stats.root) == 120
    assert {child["action"] for child in stats.root} == {str(a) for a in state.legal_actions()}
    assert stats.nodes > len(state.legal_actions()) and stats.max_depth >= 1
    assert stats.root[0]["action"] == str(action)  # the most visited root action is played
    assert stats.as_dict()["iterations_per_s"] > 0


def test_mcts_time_budget_searches_until_the_deadline():
    state = mid_game_positions(1)[0]
    agent = MCTSAgent(seed=1, seconds=0.05)
    agent.act(state.view(state.current_player), state.legal_actions())
    assert agent.last is not None
    assert agent.last.seconds >= 0.05 and agent.last.iterations >= 1
    summary = agent.summary()
    assert summary["searched_decisions"] == 1 and summary["iterations"] == agent.last.iterations


def test_mcts_both_budgets_stop_at_the_first_reached():
    state = mid_game_positions(1)[0]
    agent = make_agent("mcts:25i+30s", seed=2)
    agent.act(state.view(state.current_player), state.legal_actions())
    assert agent.last.iterations == 25


def test_forced_moves_are_not_searched():
    agent = MCTSAgent(seed=1, iterations=50)
    state = new_game("toy", 2, seed=1)
    assert agent.act(state.view(0), [Play(state.hands[0][0])]) == Play(state.hands[0][0])
    assert agent.decisions == 0 and agent.last is None


def toy_position(hands, piles, deck, bonus_used=(False, False), after_swap=False, turn=0) -> ToyState:
    state = new_game("toy", len(hands), seed=0)
    state.hands = [list(h) for h in hands]
    state.piles = [list(p) for p in piles]
    state.deck = list(deck)
    state.bonus_used = list(bonus_used)
    state.after_swap = after_swap
    state.turn = turn
    assert state.invariants() == []
    return state


LAST_PLAY = dict(hands=[[2, 8], [1, 1]], piles=[[3, 3], [4, 4, 5]],
                 deck=[2, 5, 6, 6, 7, 7, 8], bonus_used=(True, True))


@pytest.mark.parametrize("spec", ["heuristic", "medium", "mcts:200i"])
def test_bots_play_the_winning_card_on_their_last_play(spec):
    state = toy_position(**LAST_PLAY)
    legal = state.legal_actions()
    assert make_agent(spec, 3).act(state.view(0), legal) == Play(8)


@pytest.mark.parametrize("spec", ["heuristic", "mcts:100i"])
def test_bots_take_the_bonus_after_a_swap(spec):
    state = toy_position(hands=[[2, 8], [1, 1]], piles=[[3], [4, 4]],
                         deck=[2, 3, 5, 5, 6, 6, 7, 7, 8], after_swap=True)
    assert set(state.legal_actions()) == {End(), Bonus()}
    assert make_agent(spec, 3).act(state.view(0), state.legal_actions()) == Bonus()


def test_heuristic_values_follow_the_estimate():
    state = toy_position(**LAST_PLAY)
    agent = HeuristicAgent(seed=0, samples=2)
    values = dict(zip(state.legal_actions(), agent.action_values(state.view(0), state.legal_actions())))
    assert values[Play(8)] > values[Play(2)]
    assert values[Play(8)] == pytest.approx((15 - 14) + 0.5)  # final margin + won
    assert values[Play(2)] == pytest.approx(9 - 14)


FULL_DECK = [2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7]  # with the hands [1, 1] and [8, 8]


def running_scores(state):
    return [float(v) for v in state.scores()]


def test_heuristic_depth_looks_through_the_rest_of_its_own_turn():
    # Swapping scores nothing by itself; the bonus after it is worth 1 point.
    world = toy_position(hands=[[1, 1], [8, 8]], piles=[[], []], deck=FULL_DECK)
    assert value_after(world, Swap(1), 0, running_scores, depth=1) == 0.0
    assert value_after(world, Swap(1), 0, running_scores, depth=2) == 1.0
    # Another player's decision is never looked through: a play ends the turn.
    assert value_after(world, Play(1), 0, running_scores, depth=3) == 1.0
    # Forced decisions are followed without using the depth (bonus used: only 'end').
    used = toy_position(hands=[[1, 1], [8, 8]], piles=[[], [2]], deck=FULL_DECK[1:],
                        bonus_used=(True, False))
    seen = []

    def spy(state):
        seen.append((state.current_player, state.after_swap))
        return running_scores(state)
    assert value_after(used, Swap(1), 0, spy, depth=2) == 1.0 - 2.0
    assert seen == [(1, False)]  # judged after the forced 'end', on the next player's move


def test_heuristic_agent_uses_its_depth_and_estimate():
    state = toy_position(hands=[[1, 1], [8, 8]], piles=[[], []], deck=FULL_DECK)
    legal = state.legal_actions()
    flat = HeuristicAgent(seed=0, samples=1, depth=1, estimate=running_scores)
    deep = HeuristicAgent(seed=0, samples=1, depth=2, estimate=running_scores)
    assert dict(zip(legal, flat.action_values(state.view(0), legal)))[Swap(1)] == 0.0
    assert dict(zip(legal, deep.action_values(state.view(0), legal)))[Swap(1)] == 1.0
    with pytest.raises(ValueError, match="depth"):
        HeuristicAgent(depth=0)


def test_a_depth_for_one_game_applies_to_that_game_only():
    """``depth=toy:2`` looks two decisions ahead in the toy game; a depth given for another
    game leaves the toy at the depth it would have had."""
    state = toy_position(hands=[[1, 1], [8, 8]], piles=[[], []], deck=FULL_DECK)
    legal = state.legal_actions()
    toy_deep = HeuristicAgent(seed=0, samples=1, depth=1, depth_by_game={"toy": 2}, estimate=running_scores)
    other = HeuristicAgent(seed=0, samples=1, depth=1, depth_by_game={"tikal": 2}, estimate=running_scores)
    assert dict(zip(legal, toy_deep.action_values(state.view(0), legal)))[Swap(1)] == 1.0
    assert dict(zip(legal, other.action_values(state.view(0), legal)))[Swap(1)] == 0.0
    with pytest.raises(ValueError, match="depth"):
        HeuristicAgent(depth_by_game={"toy": 9})


def win_rate(spec: str, opponent: str, games: int) -> float:
    won = 0.0
    for g in range(games):
        specs = [spec, opponent] if g % 2 == 0 else [opponent, spec]
        state = play_game(specs, seed=1000 + g)
        if state.is_terminal:
            seat = specs.index(spec)
            won += 1.0 / len(state.winners()) if seat in state.winners() else 0.0
    return won / games


def test_heuristic_beats_random():
    assert win_rate("heuristic", "random", 40) >= 0.8


def test_mcts_beats_random():
    assert win_rate("mcts:100i", "random", 16) >= 0.7


def test_easy_is_weaker_than_medium():
    assert win_rate("medium", "easy", 40) > 0.6


def test_agents_accept_a_state_where_the_viewer_hides_nothing_it_needs():
    state = new_game("toy", 2, seed=3)
    view = state.view(0)
    assert HIDDEN in view.hands[1] and all(c != HIDDEN for c in view.hands[0])
    for spec in ("heuristic", "mcts:10i"):
        assert make_agent(spec, 1).act(view, state.legal_actions()) in state.legal_actions()


def test_swap_action_type_is_searched_like_any_other():
    state = toy_position(hands=[[1, 2], [8, 8]], piles=[[], []],
                         deck=[1, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7])
    legal = state.legal_actions()
    assert Swap(1) in legal
    agent = MCTSAgent(seed=4, iterations=80)
    agent.act(state.view(0), legal)
    assert {c["action"] for c in agent.last.root} == {str(a) for a in legal}


def test_the_heuristic_prior_makes_a_tiny_search_start_from_the_greedy_move():
    state = toy_position(**LAST_PLAY)
    legal = state.legal_actions()
    with_prior = {make_agent("mcts:1i", seed).act(state.view(0), legal) for seed in range(8)}
    without = {make_agent("mcts:1i,prior=0", seed).act(state.view(0), legal) for seed in range(8)}
    assert with_prior == {Play(8)}
    assert len(without) > 1


def test_mcts_options_reach_the_agent():
    agent = make_agent("mcts:10i,norm=off,prior=0.5")
    assert agent.normalize is False and agent.prior == 0.5
    with pytest.raises(ValueError, match="norm must be on or off"):
        make_agent("mcts:10i,norm=maybe")


def test_a_beam_looks_deeper_through_the_best_choices_only():
    """``beam=N``: below the first action only the N choices best one ply ahead are looked
    through further. A beam wider than every choice list values each move as the full
    look-through does; a beam of 1 costs fewer estimates, the same each time."""
    from mayagames.agents.hooks import estimator

    state = new_game("tikal", 2, seed=3)
    rng = Rng(4)
    while len(state.legal_actions()) < 4 or state.view(state.current_player).phase_name != "action":
        legal = state.legal_actions()
        state.apply(legal[rng.randbelow(len(legal))])
    seat, legal = state.current_player, state.legal_actions()
    calls = {"n": 0}
    game_estimate = estimator(state.info)

    def counted(s):
        calls["n"] += 1
        return game_estimate(s)

    def values(depth: int, beam: int) -> tuple[list[float], int]:
        calls["n"] = 0
        agent = HeuristicAgent(seed=0, samples=1, depth=depth, beam=beam, estimate=counted)
        return agent.action_values(state.view(seat), legal), calls["n"]

    full, full_calls = values(3, 0)
    assert values(3, 1000) == (full, full_calls)
    narrow, narrow_calls = values(3, 1)
    assert narrow_calls < full_calls
    assert values(3, 1) == (narrow, narrow_calls)
    with pytest.raises(ValueError, match="beam"):
        HeuristicAgent(beam=-1)

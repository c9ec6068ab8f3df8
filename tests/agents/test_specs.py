"""Agent specs, difficulty levels, game hooks and bots in terminal play."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from mayagames.agents import (AGENT_DOCS, AGENT_FACTORIES, LEVELS, HeuristicAgent, LevelAgent, MCTSAgent,
                              RandomAgent, make_agent, parse_budget)
from mayagames.agents import hooks
from mayagames.core import toy_heuristic
from mayagames.core.game import GamePlugin
from mayagames.agents.mcts import blend, margin_rewards, win_chances
from mayagames.cli import app
from mayagames.core import GameRecord, get_game, new_game, verify
from mayagames.core.toy import HIDDEN
from mayagames.terminal import TerminalGame, new_record


@pytest.mark.parametrize("spec, kind", [
    ("random", RandomAgent), ("heuristic", HeuristicAgent), ("mcts:1s", MCTSAgent),
    ("mcts:500i", MCTSAgent), ("easy", HeuristicAgent), ("medium", LevelAgent),
    ("hard", LevelAgent), ("  MCTS:250ms ", MCTSAgent), ("heuristic:samples=5,noise=0.5", HeuristicAgent),
])
def test_specs_build_the_right_agent(spec, kind):
    assert isinstance(make_agent(spec, 1), kind)


def test_budgets_and_settings_are_parsed():
    assert parse_budget("500i", "x") == (500, None)
    assert parse_budget("1s", "x") == (None, 1.0)
    assert parse_budget("250ms", "x") == (None, 0.25)
    assert parse_budget("300i+2.5s", "x") == (300, 2.5)
    agent = make_agent("mcts:40i,c=1.2,rollout=7,temp=3")
    assert (agent.iterations, agent.seconds, agent.c, agent.rollout_plies, agent.temperature) == (
        40, None, 1.2, 7, 3.0)
    assert make_agent("mcts:1s,rollout=end").rollout_plies is None
    hard = make_agent("hard")
    assert hard.seconds == 1.0 and hard.iterations is None
    easy = make_agent("easy")
    assert easy.noise > 0 and easy.epsilon > 0
    assert make_agent("medium").noise == 0 == make_agent("medium").epsilon
    assert make_agent("heuristic:depth=2").depth == 2 and make_agent("heuristic").depth is None
    by_game = make_agent("heuristic:depth=tikal:2/Tzolkin:4")
    assert by_game.depth is None and by_game.depth_by_game == {"tikal": 2, "tzolkin": 4}
    assert make_agent("mcts:10i,worlds=16").worlds == 16 and make_agent("mcts:10i").worlds == 0
    assert make_agent("mcts:10i,margin=0.3").margin == 0.3 and make_agent("mcts:10i").margin == 0
    assert make_agent("mcts:10i,rails=0.03").rails == 0.03 and make_agent("mcts:10i").rails == 0


@pytest.mark.parametrize("spec, message", [
    ("alphago", "unknown agent"), ("mcts", "one budget"), ("mcts:fast", "budget"),
    ("mcts:0i", "positive"), ("mcts:1.5i", "whole number"), ("mcts:1s,depth=3", "unknown setting"),
    ("mcts:1s,rollout=long", "rollout"), ("heuristic:noise=loud", "number"),
    ("heuristic:samples=0", "samples"), ("heuristic:epsilon=2", "epsilon"),
    ("heuristic:fast", "unexpected"), ("hard:2s", "takes no settings"),
    ("heuristic:depth=0", "depth must be between"), ("heuristic:depth=9", "depth must be between"),
    ("heuristic:depth=1.5", "whole number"), ("heuristic:depth=tikal:x", "whole number"),
    ("heuristic:depth=:2", "whole number"), ("heuristic:depth=tikal:9", "depth must be between"), ("mcts:10i,worlds=2.5", "whole number"),
    ("mcts:10i,worlds=-3", "worlds"), ("mcts:10i,margin=1.5", "margin must be between"),
    ("mcts:10i,margin=much", "number"), ("mcts:10i,rails=2", "rails must be between"),
    ("mcts:10i,rails=nan", "rails must be between"), ("mcts:10i,rails=-0.1", "rails must be between"),
])
def test_bad_specs_are_clear_errors(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec)


def test_levels_are_listed_and_documented():
    assert set(LEVELS) == {"easy", "medium", "hard"}
    assert set(LEVELS) <= set(AGENT_FACTORIES) and set(AGENT_FACTORIES) == set(AGENT_DOCS)
    for spec, _ in LEVELS.values():
        make_agent(spec)


# --- hooks ------------------------------------------------------------------------
def test_toy_hooks_are_found_and_unknown_games_fall_back_to_running_scores():
    toy = get_game("toy")
    assert hooks.estimator(toy) is toy_heuristic.estimate_scores
    assert hooks.seat_features(toy) is toy_heuristic.seat_features
    assert hooks.score_scale(toy) == toy_heuristic.SCORE_SCALE and hooks.has_estimator(toy)
    bare = replace(toy, name="toy-without-hooks", plugin=GamePlugin())
    assert hooks.estimator(bare) is hooks.running_scores and not hooks.has_estimator(bare)
    assert hooks.seat_features(bare) is None
    assert hooks.score_scale(bare) == hooks.DEFAULT_SCORE_SCALE


def test_the_plugin_fields_are_what_the_bots_use():
    def mine(state):
        return [0.0] * state.num_players

    info = replace(get_game("toy"), plugin=GamePlugin(estimate_scores=mine, score_scale=9,
                                                      seat_features=lambda s: []))
    assert hooks.estimator(info) is mine and hooks.score_scale(info) == 9.0
    assert hooks.seat_features(info)(None) == []


def test_toy_estimate_is_exact_at_the_end_and_needs_no_hidden_information():
    state = new_game("toy", 2, seed=8)
    while not state.is_terminal:
        view = state.view(state.current_player)
        assert HIDDEN in view.hands[1 - state.current_player]
        estimate = toy_heuristic.estimate_scores(view)
        assert len(estimate) == 2 and all(e >= s for e, s in zip(estimate, view.scores()))
        state.apply(state.legal_actions()[0])
    assert toy_heuristic.estimate_scores(state) == state.scores()
    assert toy_heuristic.estimate_scores(state.view(0)) == state.scores()
    features = toy_heuristic.seat_features(state)
    assert [set(f) for f in features] == [{"bonus", "opening"}] * 2


def test_win_chances_are_a_softmax():
    chances = win_chances([10.0, 10.0, 4.0], temperature=2.0)
    assert sum(chances) == pytest.approx(1.0)
    assert chances[0] == chances[1] > chances[2] > 0


def test_margin_rewards_keep_counting_points_past_a_sure_win():
    sure, surer = win_chances([100.0, 0.0], 12.0), win_chances([140.0, 0.0], 12.0)  # 1 - 2e-4, 1 - 9e-6
    assert surer[0] - sure[0] < 1e-3  # a win chance hardly tells them apart
    wide, wider = margin_rewards([100.0, 0.0], 48.0), margin_rewards([140.0, 0.0], 48.0)
    assert 0.5 < wide[0] < wider[0] < 1 and wider[1] < wide[1] < 0.5
    assert margin_rewards([7.0, 7.0, 3.0], 10.0)[:2] == [0.5, 0.5]  # margin over the best other
    mixed = blend(sure, wider, 0.25)
    assert mixed[0] == pytest.approx(0.75 * sure[0] + 0.25 * wider[0])


# --- terminal play ------------------------------------------------------------------
def test_play_command_runs_bots_of_every_level(tmp_path):
    saved = tmp_path / "game.json"
    result = CliRunner().invoke(app, ["play", "toy", "--players", "easy,medium,mcts:20i",
                                      "--seed", "3", "--save", str(saved)])
    assert result.exit_code == 0, result.output
    record = GameRecord.load(saved)
    assert [s.agent for s in record.seats] == ["easy", "medium", "mcts:20i"]
    assert verify(record).is_terminal and record.result is not None


def test_play_command_rejects_an_unknown_bot():
    result = CliRunner().invoke(app, ["play", "toy", "--players", "human,grandmaster"])
    assert result.exit_code == 2 and "unknown agent" in result.output


def test_a_human_can_play_against_hard():
    record = new_record("toy", ["human", "hard"], seed=1)
    game = TerminalGame(record, ask=lambda prompt: "quit")
    hard = game.agents[1]
    assert isinstance(hard, LevelAgent) and isinstance(hard.agent_for("toy"), MCTSAgent)
    assert 0 not in game.agents
    game.play()  # the human quits at once: nothing is lost
    assert record.moves == []


def test_a_level_may_mean_another_spec_in_one_game():
    """``hard`` is MCTS (1 s) in Tzolk'in and the greedy look-through of two own decisions
    in Tikal (LEVELS_BY_GAME, measured in docs/bots.md); the same seed, the same moves."""
    from mayagames.agents import LEVELS_BY_GAME, level_spec
    from mayagames.core import new_game

    assert level_spec("hard", "tikal") == LEVELS_BY_GAME["tikal"]["hard"] != level_spec("hard", "tzolkin")
    assert level_spec("medium", "tzolkin") == level_spec("medium") == LEVELS["medium"][0]
    assert level_spec("easy", "tikal") == LEVELS["easy"][0]
    hard = make_agent("hard", 7)
    assert isinstance(hard, LevelAgent) and hard.seconds == 1.0
    assert isinstance(hard.agent_for("tzolkin"), MCTSAgent)
    tikal = hard.agent_for("tikal")
    assert isinstance(tikal, HeuristicAgent) and tikal.depth == 2
    state = new_game("tikal", 2, seed=5)
    again = make_agent("hard", 7)
    for _ in range(12):  # deterministic under a seed
        seat, legal = state.current_player, state.legal_actions()
        chosen = hard.act(state.view(seat), legal)
        assert again.act(state.view(seat), legal) == chosen
        state.apply(chosen)
    for levels in LEVELS_BY_GAME.values():
        for spec in levels.values():
            make_agent(spec)  # every per-game spec builds


def test_tzolkins_hard_searches_on_the_learned_estimate_and_the_review_searches_alike(monkeypatch):
    """Tzolk'in's ``hard``: MCTS on the sixth learned fit at the leaves, no random plies, a
    tenth of the score margin in its reward; the review and the hints search the same way
    (for the win alone) (``review_settings``), on the same estimate
    since stop 37 (its win chances sharpened for the review: ``data/review_calibration.json``);
    Tikal's review keeps the default search (its ``hard`` is no search)."""
    from mayagames.agents import review_settings, search_settings
    from mayagames.arena.review import Budget, suggest

    hard = make_agent("hard", 3).agent_for("tzolkin")
    assert isinstance(hard, MCTSAgent) and (hard.eval, hard.rollout_plies, hard.seconds) == ("learned6", 0, 1.0)
    assert hard.margin == 0.1  # a tenth of the reward is the score margin (docs/bots.md, "Stop 43")
    assert search_settings("tzolkin") == {"eval": "learned6", "rollout_plies": 0}
    assert review_settings("tzolkin") == search_settings("tzolkin")
    import mayagames.agents as agents
    monkeypatch.setitem(agents.REVIEW_EVAL_BY_GAME, "tzolkin", "learned")  # a game may name another
    assert review_settings("tzolkin") == {"eval": "learned", "rollout_plies": 0}
    monkeypatch.delitem(agents.REVIEW_EVAL_BY_GAME, "tzolkin")
    assert search_settings("tikal") == {} and search_settings("toy") == {"eval": None, "rollout_plies": -1}
    assert review_settings("tikal") == {} and review_settings("toy") == search_settings("toy")
    state = new_game("tzolkin", 2, seed=4)
    while len(state.legal_actions()) < 3:
        state.apply(state.legal_actions()[0])
    seat = state.current_player
    second, sixth = [], []
    import mayagames.tzolkin.learned as learned
    original, original_sixth = learned.estimate_scores_learned, learned.estimate_scores_learned_sixth
    monkeypatch.setattr(learned, "estimate_scores_learned", lambda s: second.append(1) or original(s))
    monkeypatch.setattr(learned, "estimate_scores_learned_sixth", lambda s: sixth.append(1) or original_sixth(s))
    hint = suggest(state.view(seat), seat, Budget(40), seed=1)
    assert hint.best and hint.iterations == 40
    assert sixth, "the hint's search did not ask hard's estimate"
    assert not second, "the hint's search asked the second fit"


def test_a_bots_settings_are_read_with_or_without_a_dict():
    """The server's check of a bot's settings (server.limits): the MCTS agent is a native
    class in the compiled build (no ``__dict__``, run so by .ci/compiled.sh); its settings
    are read from the attributes its class declares, as a plain object's from ``vars``."""
    from mayagames.agents import make_agent
    from mayagames.server.limits import attributes_of

    settings = attributes_of(make_agent("mcts:1s,c=0.5,rails=0.25", 0))
    assert (settings["seconds"], settings["c"], settings["rails"]) == (1.0, 0.5, 0.25)

    class Native:  # as mypyc builds one: slots, and the declared names listed
        __slots__ = ("c", "seconds")
        __mypyc_attrs__ = ("c", "seconds")

    bot = Native()
    bot.c = math.inf
    assert attributes_of(bot) == {"c": math.inf}  # an attribute never set is left out

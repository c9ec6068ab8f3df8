"""Issue 21: the learned Tzolk'in estimate (``eval=learned``): the shipped weights load and are
checked, a damaged file is refused clearly, and bots using it decide deterministically.
(The fit itself, ``benchmarks/train_eval.py``, is not run here.)"""

from __future__ import annotations

import json
import math

import pytest

from mayagames.agents import HeuristicAgent, make_agent
from mayagames.core import Rng, new_game
from mayagames.tzolkin import heuristic as H
from mayagames.tzolkin import learned as L


def random_positions(players: int, count: int = 6, seed: int = 11):
    """Positions spread over a seeded random Tzolk'in game."""
    s, rng, out, step = new_game("tzolkin", players, seed=seed), Rng(seed), [], 0
    while not s.is_terminal:
        legal = s.legal_actions()
        if step % 23 == 7:
            out.append(s.clone())
        s.apply(legal[rng.randbelow(len(legal))])
        step += 1
    spread = max(1, len(out) // count)
    return out[::spread][:count], s


def test_the_shipped_weights_load_and_match_the_features():
    w = L.load_weights()
    assert len(w.eras) == L.ERAS
    assert all(len(v) == len(L.FEATURES) and all(math.isfinite(x) for x in v) for v in w.eras)
    assert w.meta["games"] > 0 and w.meta["positions"] > w.meta["games"]
    assert isinstance(w.meta["seed"], int) and w.meta["trained"]


def write(tmp_path, doc) -> str:
    path = tmp_path / "weights.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return str(path)


def test_a_damaged_weights_file_is_refused_with_a_clear_error(tmp_path):
    good = json.loads(L.WEIGHTS_FILE.read_text())
    with pytest.raises(L.LearnedWeightsError, match="cannot read"):
        L.load_weights(write(tmp_path, '{"features": ['))
    with pytest.raises(L.LearnedWeightsError, match="cannot read"):
        L.load_weights(tmp_path / "absent.json")
    renamed = dict(good, features=["rice" if f == "corn" else f for f in good["features"]])
    refused = r"other features \(missing \['corn'\], unknown \['rice'\]\).*train_eval"
    with pytest.raises(L.LearnedWeightsError, match=refused):
        L.load_weights(write(tmp_path, renamed))
    short = dict(good, eras=good["eras"][:3])
    with pytest.raises(L.LearnedWeightsError, match="'eras' must list 4"):
        L.load_weights(write(tmp_path, short))
    bad = [list(v) for v in good["eras"]]
    bad[2][5] = "NaN"
    with pytest.raises(L.LearnedWeightsError, match="era 2 must hold"):
        L.load_weights(write(tmp_path, dict(good, eras=bad)))
    L.load_weights(write(tmp_path, good))  # the same document, undamaged, loads


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_learned_estimate_is_finite_and_exact_at_the_end(players):
    positions, final = random_positions(players)
    assert positions
    for s in positions:
        values = L.estimate_scores_learned(s)
        assert len(values) == players and all(math.isfinite(v) for v in values)
        assert L.estimate_scores_learned(s.view(s.current_player)) == values  # public information only
    assert L.estimate_scores_learned(final) == final.scores()


def test_with_zero_weights_it_is_the_v2_estimate(monkeypatch):
    """The features carry v2's parts: with no correction the estimate is v2's."""
    zero = L.LearnedWeights(tuple((0.0,) * len(L.FEATURES) for _ in range(L.ERAS)), {})
    monkeypatch.setattr(L, "_LOADED", {L.WEIGHTS_FILE: zero})
    for players in (2, 4):
        for s in random_positions(players)[0]:
            assert L.estimate_scores_learned(s) == pytest.approx(H.estimate_scores_v2(s))


def test_eval_learned_names_the_learned_estimate():
    s = random_positions(2)[0][2]
    view, legal = s.view(s.current_player), s.legal_actions()
    named = make_agent("heuristic:eval=learned", 3).action_values(view, legal)
    given = HeuristicAgent(3, estimate=L.estimate_scores_learned).action_values(view, legal)
    assert named == pytest.approx(given)


@pytest.mark.parametrize("spec", ["heuristic:sensible=1,eval=learned", "mcts:60i,eval=learned",
                                  "heuristic:sensible=1,eval=learned3", "heuristic:sensible=1,eval=learned4",
                                  "medium"])
def test_a_bot_on_the_learned_estimate_decides_deterministically(spec):
    for s in random_positions(2, count=3, seed=5)[0]:
        view, legal = s.view(s.current_player), s.legal_actions()
        first = make_agent(spec, 7).act(view, legal)
        assert first in legal
        assert make_agent(spec, 7).act(view, legal) == first


# --- the fast path (what searches call) against the definition --------------------------------

def every_position(players: int, seed: int) -> list:
    """Every position of a seeded random game, the final one included."""
    s, rng, out = new_game("tzolkin", players, seed=seed), Rng(seed), []
    while not s.is_terminal:
        out.append(s.clone())
        legal = s.legal_actions()
        s.apply(legal[rng.randbelow(len(legal))])
    return out + [s]


def with_monuments(s, seat: int, monuments: list[int]):
    """``s`` with ``seat`` holding ``monuments`` (rare in random play, so placed by hand)."""
    edited = s.clone()
    edited.monuments[seat] = list(monuments)
    return edited


def assert_fast_equals_reference(positions) -> None:
    for s in positions:
        for state in (s, s.view(s.current_player)):
            assert L.estimate_scores_learned(state) == pytest.approx(
                L.estimate_scores_reference(state), rel=1e-9, abs=1e-9)


def reference_by_hand(s, learned: L.LearnedWeights | None = None) -> list[float]:
    """The definition written out: v2 plus the era's weights (of ``learned``, else the
    shipped fit's) dotted with the features."""
    w = (learned or L.weights()).eras[L.era(s)]
    rows, base = L.features_of(s)
    return [v2 + math.fsum(a * b for a, b in zip(w, x)) for x, v2 in zip(rows, base)]


# seeds whose random games have a seat holding a skull with a worker on Chichen Itza
SKULL_SEEDS = {2: (1, 6), 3: (1, 7), 4: (3, 7)}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_fast_path_gives_the_reference_numbers_on_every_position(players):
    """The folded weights (``estimate_scores_learned``) give v2 plus the weights dotted with
    ``seat_features`` (``estimate_scores_reference``) on every position of seeded games: a
    worker just picked up (from each gear), after each Food Day, the last round, the end."""
    games = [every_position(players, seed) for seed in SKULL_SEEDS[players]]
    seen = {"picked": set(), "food_done": set(), "last round": False, "skull and Chichen": False}
    for s in (s for positions in games for s in positions[:-1]):
        moving = H.picked_worker(s, s.cur)
        if moving is not None:
            seen["picked"].add(moving[0])
        seen["food_done"].add(s.food_done)
        seen["last round"] |= H.rounds_left(s) == 0
        seen["skull and Chichen"] |= any(P[H.SKULL] and s.gears[H.CHICHEN].count(seat)
                                         for seat, P in enumerate(s.p))
    assert seen == {"picked": {0, 1, 2, 3, 4}, "food_done": {0, 1, 2, 3}, "last round": True,
                    "skull and Chichen": True}
    for positions in games:
        final = positions[-1]
        assert final.is_terminal and L.estimate_scores_learned(final) == final.scores()
        assert_fast_equals_reference(positions)
        for s in positions[:-1:40]:
            assert L.estimate_scores_learned(s) == pytest.approx(reference_by_hand(s), rel=1e-9, abs=1e-9)


def test_the_fast_path_counts_monuments_like_the_reference():
    positions = every_position(3, seed=4)[100:-1:50]
    assert positions
    edited = [with_monuments(s, seat, ms) for s in positions
              for seat, ms in ((0, [0, 1]), (1, [4, 6, 7]), (2, [8, 10, 11, 12]))]
    assert_fast_equals_reference(edited)
    # the monuments change the estimate (their VP and their count are read)
    assert L.estimate_scores_learned(edited[0]) != L.estimate_scores_learned(positions[0])


def test_the_fast_path_folds_every_weight_and_v2s_settings(monkeypatch):
    """Every feature's weight reaches the fast path as it reaches the reference (weights of
    every size and sign, v2's linear settings, zero when shipped, not zero)."""
    rng = Rng(99)
    eras = tuple(tuple((rng.randbelow(2001) - 1000) / 500.0 for _ in L.FEATURES) for _ in range(L.ERAS))
    monkeypatch.setattr(L, "_LOADED", {L.WEIGHTS_FILE: L.LearnedWeights(eras, {})})
    for name, value in (("worker_round", 0.3), ("temple_step", 0.25), ("tech_level", 0.5), ("building", 0.75)):
        monkeypatch.setitem(H.V2, name, value)
    positions = [p for players in (2, 3, 4) for p in every_position(players, seed=20 + players)[::7]]
    assert_fast_equals_reference(positions + [with_monuments(positions[30], 1, [3, 5])])
    # each weight matters: changing one changes the estimate of a mid-game position
    s = positions[30]
    before = L.estimate_scores_learned(s)
    for i in range(len(L.FEATURES)):
        bumped = tuple(tuple(w + (1.0 if k == i else 0.0) for k, w in enumerate(v)) for v in eras)
        monkeypatch.setattr(L, "_LOADED", {L.WEIGHTS_FILE: L.LearnedWeights(bumped, {})})
        after, reference = L.estimate_scores_learned(s), L.estimate_scores_reference(s)
        assert after == pytest.approx(reference, rel=1e-9, abs=1e-9), L.FEATURES[i]


def test_a_search_decides_the_same_on_the_fast_path_and_the_reference(monkeypatch):
    """An iteration budget makes a search deterministic: with the reference estimate in place
    of the fast path it decides the same (the numbers agree to rounding)."""
    choices = [s for s in every_position(2, seed=6)[:-1] if len(s.legal_actions()) > 2]
    positions = choices[5::len(choices) // 4]
    assert len(positions) == 4
    fast = [make_agent("mcts:150i,eval=learned,rollout=0", 5).act(s.view(s.cur), s.legal_actions())
            for s in positions]
    monkeypatch.setattr(L, "estimate_scores_learned", L.estimate_scores_reference)
    slow = [make_agent("mcts:150i,eval=learned,rollout=0", 5).act(s.view(s.cur), s.legal_actions())
            for s in positions]
    assert fast == slow


def test_the_space_features_count_the_seats_workers_on_each_small_gear_space():
    """``on_GEAR_N`` (rules 3-6: the four small gears) reads the gears themselves: the seat's
    workers on that space now, none on Chichen Itza, none for a worker picked up."""
    names = [f"on_{g}_{pos}" for g in ("palenque", "yaxchilan", "tikal", "uxmal") for pos in range(8)]
    assert list(L.ON_SPACES) == names and L.FEATURES[-len(names):] == tuple(names)
    seen = 0
    for players in (2, 4):
        for s in every_position(players, seed=40 + players)[::5]:
            rows, _ = L.features_of(s)
            for seat, x in enumerate(rows):
                on = x[-len(names):]
                by_gears = [float(s.gears[g][pos] == seat) for g in range(4) for pos in range(8)]
                assert on == by_gears
                seen += sum(on)
    assert seen > 100


def test_learned1_is_the_first_fit_kept_as_a_baseline():
    """``eval=learned1`` plays the stop-29 weights (no per-space terms); ``learned`` differs."""
    first = L.load_weights(L.FIRST_FIT_FILE)
    start = L.FEATURES.index(L.ON_SPACES[0])
    assert all(v[start:] == (0.0,) * len(L.ON_SPACES) for v in first.eras)
    assert first.meta["seed"] == 2100 and first.meta["games"] == 1533
    s = every_position(2, seed=8)[60]
    assert L.estimate_scores_learned_first(s) == pytest.approx(reference_by_hand(s, first), rel=1e-9)
    assert L.estimate_scores_learned_first(s) != pytest.approx(L.estimate_scores_learned(s), rel=1e-6)
    view, legal = s.view(s.current_player), s.legal_actions()
    named = make_agent("heuristic:eval=learned1", 3).action_values(view, legal)
    given = HeuristicAgent(3, estimate=L.estimate_scores_learned_first).action_values(view, legal)
    assert named == pytest.approx(given)


def check_shipped_fit(path, name: str, seed: int, files: list[str], games: int, estimate, other,
                      spec: str) -> dict:
    """A shipped later fit: its file names the fit, the newest data's first seed and the data
    files (games adding up, no generation sharing a seed); its estimate is the fast path of
    those weights (the dot product by hand), differs from ``other``'s, and the bot ``spec``
    plays on it. Returns the file's data list."""
    fit = L.load_weights(path)
    assert fit.meta["name"] == name and fit.meta["seed"] == seed  # its newest data's
    data = fit.meta["data"]
    assert [d["file"] for d in data] == files
    assert sum(d["games"] for d in data) == fit.meta["games"] == games
    for i, a in enumerate(data):  # generations whose seeds overlap were played by other bots
        for b in data[i + 1:]:
            if a["seeds"][0] <= b["seeds"][1] and b["seeds"][0] <= a["seeds"][1]:
                assert set(a["specs"]).isdisjoint(b["specs"]), (a["file"], b["file"])
    s = every_position(2, seed=8)[60]
    assert estimate(s) == pytest.approx(reference_by_hand(s, fit), rel=1e-9)
    assert estimate(s) != pytest.approx(other(s), rel=1e-6)
    view, legal = s.view(s.current_player), s.legal_actions()
    named = make_agent(spec, 3).action_values(view, legal)
    given = HeuristicAgent(3, estimate=estimate, sensible=True).action_values(view, legal)
    assert named == pytest.approx(given)
    return data


def test_learned3_is_the_third_fit():
    """``eval=learned3`` (``medium``'s estimate in stop 32) plays the third fit: three
    generations of self-play named in its file, read back as written; it differs from ``learned``."""
    check_shipped_fit(L.THIRD_FIT_FILE, "learned3", 8100, ["gen3.jsonl", "gen2.jsonl", "games.jsonl"], 3591,
                      L.estimate_scores_learned_third, L.estimate_scores_learned,
                      "heuristic:sensible=1,eval=learned3")


def test_learned4_is_the_fourth_fit_medium_plays():
    """``eval=learned4`` (``medium``'s estimate since stop 33) plays the fourth fit: the three
    generations of ``learned3`` and a fourth in which seats played with and without the guard
    rails (so starving happens in the data), named in its file; it differs from ``learned3``."""
    data = check_shipped_fit(L.FOURTH_FIT_FILE, "learned4", 20100,
                             ["gen4.jsonl", "gen3.jsonl", "gen2.jsonl", "games.jsonl"], 5091,
                             L.estimate_scores_learned_fourth, L.estimate_scores_learned_third, "medium")
    assert {"heuristic:eval=learned3", "heuristic:sensible=1,eval=learned3"} <= set(data[0]["specs"])


def test_learned5_is_the_fifth_fit_on_the_search_games():
    """``eval=learned5`` plays the fifth fit: the first two generations (``learned``'s data) and
    a fifth played by the search itself (``mcts:700i`` on ``learned``), named in its file; it
    differs from ``learned``, and a search on it decides deterministically under a seed."""
    data = check_shipped_fit(L.FIFTH_FIT_FILE, "learned5", 30100, ["gen5.jsonl", "gen2.jsonl", "games.jsonl"],
                             2915, L.estimate_scores_learned_fifth, L.estimate_scores_learned,
                             "heuristic:sensible=1,eval=learned5")
    assert data[0]["specs"] == ["mcts:700i,eval=learned,rollout=0"]
    s = every_position(2, seed=8)[60]
    view, legal = s.view(s.current_player), s.legal_actions()
    first, again = (make_agent("mcts:300i,eval=learned5,rollout=0", 5) for _ in range(2))
    assert first.act(view, legal) == again.act(view, legal)
    assert first.last.root == again.last.root


def test_learned6_is_the_sixth_fit_on_two_generations_of_the_search():
    """``eval=learned6`` plays the sixth fit: the search's games on the second and on the fifth
    fit (their seeds overlap: other bots, so other games) and the greedy second generation,
    named in its file; it differs from ``learned5``, and a search on it is deterministic."""
    data = check_shipped_fit(L.SIXTH_FIT_FILE, "learned6", 30200, ["gen6.jsonl", "gen5.jsonl", "gen2.jsonl"],
                             1706, L.estimate_scores_learned_sixth, L.estimate_scores_learned_fifth,
                             "heuristic:sensible=1,eval=learned6")
    assert [d["specs"] for d in data[:2]] == [["mcts:700i,eval=learned5,rollout=0"],
                                              ["mcts:700i,eval=learned,rollout=0"]]
    s = every_position(2, seed=8)[60]
    view, legal = s.view(s.current_player), s.legal_actions()
    first, again = (make_agent("mcts:300i,eval=learned6,rollout=0", 5) for _ in range(2))
    assert first.act(view, legal) == again.act(view, legal)
    assert first.last.root == again.last.root


def test_learned7_is_the_seventh_fit_with_seats_that_gain_workers():
    """``eval=learned7`` plays the seventh fit: four generations of the search's games (the
    newest with seats that gain workers, ``+grow=K``) and the greedy second generation, named
    in its file. The two newest share a bot and seeds, so the games they share are fitted once
    (the file's total counts each once); the search on it decides the same twice under a seed."""
    fit = L.load_weights(L.SEVENTH_FIT_FILE)
    assert fit.meta["name"] == "learned7" and fit.meta["seed"] == 30400
    data = fit.meta["data"]
    assert [d["file"] for d in data] == ["gen8.jsonl", "gen7.jsonl", "gen6.jsonl", "gen5.jsonl", "gen2.jsonl"]
    assert any(spec.endswith("+grow=4") for spec in data[0]["specs"])
    assert data[1]["specs"] == ["mcts:700i,eval=learned6,rollout=0"]
    assert fit.meta["games"] < sum(d["games"] for d in data)  # repeats fitted once
    s = every_position(2, seed=8)[60]
    assert L.estimate_scores_learned_seventh(s) == pytest.approx(reference_by_hand(s, fit), rel=1e-9)
    assert L.estimate_scores_learned_seventh(s) != pytest.approx(L.estimate_scores_learned_sixth(s), rel=1e-6)
    view, legal = s.view(s.current_player), s.legal_actions()
    first, again = (make_agent("mcts:300i,eval=learned7,rollout=0", 5) for _ in range(2))
    assert first.act(view, legal) == again.act(view, legal)
    assert first.last.root == again.last.root


def test_the_review_calibration_loads_and_names_known_estimates():
    """``data/review_calibration.json``: per estimate, number of players and Food Days held, the
    sharpness of the game review's win chances; every name is an estimate of the game, and an
    estimate or a number of players not named is shown as searched (4 players: not fitted)."""
    from mayagames.core.registry import get_game

    shipped = L.load_review_calibration()
    known = get_game("tzolkin").plugin.estimate_variants
    assert shipped and {name for name, _, _ in shipped} <= set(known)
    assert all(players in (2, 3, 4) and 0 <= stage < L.ERAS and 0 < k <= 10
               for (_, players, stage), k in shipped.items())
    for (name, players, stage), k in shipped.items():
        assert L.review_sharpness(name, players, stage) == k
    assert {stage for name, players, stage in shipped if (name, players) == ("learned6", 2)} == set(range(L.ERAS))
    assert L.review_sharpness("learned6", 4, 2) == 1.0
    assert L.review_sharpness(None, 2, 0) == 1.0 and L.review_sharpness("v1", 2, 1) == shipped.get(("v1", 2, 1), 1.0)


def test_a_damaged_review_calibration_is_refused_with_a_clear_error(tmp_path):
    path = tmp_path / "calibration.json"
    for doc, refused in (('{"sharpness": {', "cannot read"), ("[]", "must hold an object with 'sharpness'"),
                         ('{"sharpness": 1.5}', "must hold an object"),
                         ('{"sharpness": {"learned6": 1.5}}', "'learned6' must map numbers of players"),
                         ('{"sharpness": {"learned6": {"5": 1.5}}}', "'5' is no number of players"),
                         ('{"sharpness": {"learned6": {"2": 0}}}', "'learned6' at 2 players must be a number above 0"),
                         ('{"sharpness": {"learned6": {"2": true}}}', "'learned6' at 2 players must be a number"),
                         ('{"sharpness": {"learned6": {"2": "1.5"}}}', "must be a number"),
                         ('{"sharpness": {"learned6": {"2": 11}}}', "at most 10"),
                         ('{"sharpness": {"learned6": {"2": [1, 2, 3]}}}', "or a list of 4"),
                         ('{"sharpness": {"learned6": {"2": [1, 2, 3, -1]}}}', "or a list of 4")):
        path.write_text(doc)
        with pytest.raises(L.LearnedWeightsError, match=refused):
            L.load_review_calibration(path)
    path.write_text('{"sharpness": {"learned6": {"2": [0.9, 1.5, 2, 2.5], "4": 0.9}}}')
    loaded = L.load_review_calibration(path)
    assert [loaded[("learned6", 2, s)] for s in range(4)] == [0.9, 1.5, 2.0, 2.5]
    assert [loaded[("learned6", 4, s)] for s in range(4)] == [0.9] * 4  # one number: every era

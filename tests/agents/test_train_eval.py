"""benchmarks/train_eval.py's seats and its resumable data file (the fit itself is not run here)."""

import json

import pytest


@pytest.fixture(scope="module")
def train_eval(load_script):
    return load_script("benchmarks/train_eval.py")


def test_a_search_plays_every_seat_without_epsilon(train_eval):
    search = "mcts:700i,eval=learned,rollout=0"
    seats = [seat for i in range(50) for seat in train_eval.seats_of(i, 30100 + i, search)]
    assert seats and set(seats) == {search}


def test_the_greedy_seats_keep_their_epsilon_share(train_eval):
    greedy = "heuristic:sensible=1,eval=learned3"
    seats = [seat for i in range(100) for seat in train_eval.seats_of(i, 20100 + i, greedy)]
    noisy = [s for s in seats if s.endswith(f",epsilon={train_eval.EPSILON}")]
    assert set(seats) == {greedy, f"{greedy},epsilon={train_eval.EPSILON}"}
    assert 0.15 < len(noisy) / len(seats) < 0.45  # NOISY = 0.3 of the seats


def test_a_mixed_table_draws_the_noise_of_the_greedy_seats_as_before(train_eval):
    """With a search among the specs, a greedy seat is noisy exactly where it was in a table of
    greedy seats only (the same draws), and a search seat never is."""
    greedy, search = "heuristic:eval=learned3", "mcts:700i,eval=learned,rollout=0"
    for i in range(60):
        alone = train_eval.seats_of(i, 500 + i, (greedy, "heuristic:sensible=1,eval=learned3"))
        mixed = train_eval.seats_of(i, 500 + i, (greedy, search))
        for a, m in zip(alone, mixed):
            if m.startswith("mcts"):
                assert m == search
            else:
                assert m.endswith("epsilon=0.1") == a.endswith("epsilon=0.1")
    assert train_eval.bots_of([greedy + ",epsilon=0.1", search]) == sorted([greedy, search])


def test_a_rerun_drops_the_line_a_stopped_run_left_cut(train_eval, tmp_path):
    data = tmp_path / "games.jsonl"
    data.write_text('{"index": 0, "seed": 1}\n{"index": 1, "se')
    train_eval.drop_cut_line(data)
    assert data.read_text() == '{"index": 0, "seed": 1}\n'
    train_eval.drop_cut_line(data)  # a whole file stays as it is
    assert [g["index"] for g in train_eval.read_games(data)] == [0]
    train_eval.drop_cut_line(tmp_path / "none.jsonl")  # no file yet: nothing to do


def test_games_of_one_seed_played_differently_are_both_kept(train_eval):
    """Two generations whose seeds overlap hold two games of the same deal: both are fitted;
    the same game in two files (a bot shared by two generations on the same seed) is fitted
    once, and a file given twice is refused."""
    first = {"index": 0, "seed": 30200, "moves": [1, 0, 2]}
    other = {"index": 100, "seed": 30200, "moves": [0, 0, 2]}
    third = {"index": 1, "seed": 30201, "moves": [1]}
    assert train_eval.once_each([first, other, third]) == ([first, other, third], 0)
    assert train_eval.once_each([first, other, {**first, "index": 5}, third]) == ([first, other, third], 1)


def test_a_data_file_given_twice_is_refused(train_eval, tmp_path):
    data = tmp_path / "g.jsonl"
    data.write_text(json.dumps({"index": 0, "seed": 1, "seats": ["random"] * 2, "moves": [], "scores": [0, 0]}) + "\n")
    with pytest.raises(SystemExit, match="given twice"):
        train_eval.main(["--fit-only", "--data", str(data), str(tmp_path / "." / "g.jsonl"),
                         "--out", str(tmp_path / "w.json")])


def test_each_game_is_centred_on_its_own_table(train_eval):
    """The table's mean is taken over the seats of one position of one game, also when two
    games share a seed (their positions are not mixed)."""
    import numpy as np

    d = {"step": np.array([0, 0, 0, 0]), "table": np.array([0, 0, 1, 1])}  # two games of one deal
    assert train_eval.centred(np.array([10.0, 20.0, 30.0, 50.0]), d).tolist() == [-5.0, 5.0, -10.0, 10.0]


def test_the_summary_replays_a_game_and_counts_what_its_seats_did(train_eval, tmp_path):
    """--summary's figures come from replaying the recorded moves: the scores the record
    holds, one entry of unfed workers per Food Day (four in a whole game), and a record
    whose scores the replay does not reach is refused."""
    game = train_eval.play_game((0, 4242, "random"))  # two random seats starve workers
    figures = train_eval.game_figures(game)
    assert figures["players"] == 2 and figures["scores"] == game["scores"]
    assert figures["winner"] == max(game["scores"])
    assert len(figures["unfed"]) == 4 and all(len(day) == 2 for day in figures["unfed"])
    assert all(w >= 3 for w in figures["workers"])  # the 3 starting workers are never lost
    data = tmp_path / "games.jsonl"
    data.write_text(json.dumps(game) + "\n")
    text = train_eval.summary([str(data)])
    unfed = sum(map(sum, figures["unfed"])) / 2
    assert "1 games, random" in text and f"unfed a seat and game {unfed:.2f}" in text
    data.write_text(json.dumps({**game, "scores": [s + 1 for s in game["scores"]]}) + "\n")
    with pytest.raises(SystemExit, match="does not reach the recorded scores"):
        train_eval.summary([str(data)])


def test_a_growing_seat_gains_workers_before_the_second_food_day(train_eval):
    """SPEC+grow=K: the seat places on Uxmal, picks up there at space 3 or above and takes
    Uxmal 3 (gain a worker) until it holds K workers; without the suffix the same bot does not."""
    grown = [train_eval.game_figures(train_eval.play_game((0, seed, "random+grow=5")))["workers"]
             for seed in (7, 8)]
    plain = [train_eval.game_figures(train_eval.play_game((0, seed, "random")))["workers"]
             for seed in (7, 8)]
    assert min(w for seats in grown for w in seats) >= 4
    assert sum(map(sum, grown)) > sum(map(sum, plain))


def test_grow_takes_a_number_of_workers_the_rules_allow(train_eval):
    assert isinstance(train_eval.seat_agent("random+grow=4", 1), train_eval.Grow)
    for bad in ("random+grow=7", "random+grow=3", "random+grow=x"):
        with pytest.raises(SystemExit, match="4 to 6"):
            train_eval.seat_agent(bad, 1)
    seats = train_eval.seats_of(0, 20100, "heuristic:eval=learned3+grow=4")
    assert all(s.endswith("+grow=4") and s.startswith("heuristic:eval=learned3") for s in seats)
    noisy = [s for i in range(40) for s in train_eval.seats_of(i, 20100 + i, "heuristic:eval=learned3+grow=4")
             if "epsilon" in s]
    assert noisy and all(s == "heuristic:eval=learned3,epsilon=0.1+grow=4" for s in noisy)


def test_a_handicap_seat_starts_with_its_workers_and_its_game_replays(train_eval, tmp_path):
    """SPEC+start=K: that seat has K workers in play from the first day (the others 3), the
    bot itself plays it, and every replay of the record (positions, summary) starts the same."""
    from mayagames.tzolkin.model import READY, WORKERS
    seats = ["random", "random+start=5"]
    s = train_eval.start_state(seats, 41)
    assert [s.p[q][WORKERS] for q in range(2)] == [3, 5]
    assert [s.p[q][READY] for q in range(2)] == [3, 5]
    assert train_eval.seat_agent("random+start=5", 1).name == "random"
    game = next(g for i in range(10) if (g := train_eval.play_game((i, 700 + i, ("random", "random+start=5"))))
                and any(spec.endswith("+start=5") for spec in g["seats"]))
    figures = train_eval.game_figures(game)          # replays to the recorded scores
    rich = [q for q, spec in enumerate(game["seats"]) if spec.endswith("+start=5")]
    assert all(figures["workers"][q] >= 5 for q in rich)
    X, y, eras, keys = train_eval.positions(game, 1)
    at = train_eval.L.FEATURES.index("workers")
    assert all(X[k][at] >= 5 for k, (step, seat) in enumerate(keys) if seat in rich)
    data = tmp_path / "start.jsonl"
    data.write_text(json.dumps(game) + "\n")
    assert "+start=5" in train_eval.summary([str(data)])


def test_start_takes_a_number_of_workers_the_rules_allow(train_eval):
    for bad in ("random+start=7", "random+start=3", "random+start=x"):
        with pytest.raises(SystemExit, match="4 to 6"):
            train_eval.start_state(["random", bad], 1)
    seats = [s for i in range(40) for s in train_eval.seats_of(i, 20100 + i, "heuristic:eval=learned3+start=4")]
    noisy = [s for s in seats if "epsilon" in s]
    assert all(s.endswith("+start=4") for s in seats)
    assert noisy and all(s == "heuristic:eval=learned3,epsilon=0.1+start=4" for s in noisy)


def test_the_summary_gives_each_bot_of_a_mixed_generation_its_own_figures(train_eval, tmp_path):
    games = [train_eval.play_game((i, 900 + i, ("random", "random+grow=5"))) for i in range(3)]
    data = tmp_path / "mixed.jsonl"
    data.write_text("".join(json.dumps(g) + "\n" for g in games))
    text = train_eval.summary([str(data)])
    seats = {bot: sum(s == bot for g in games for s in g["seats"]) for bot in ("random", "random+grow=5")}
    assert all(seats.values())  # both bots drawn in these deals
    for bot, count in seats.items():
        line = next(line for line in text.splitlines() if line.strip().startswith(f"{bot}: "))
        assert f"{count} seats" in line
    grown = next(line for line in text.splitlines() if line.strip().startswith("random+grow=5: "))
    plain = next(line for line in text.splitlines() if line.strip().startswith("random: "))
    workers = [float(line.split("workers at the end ")[1].split(",")[0]) for line in (grown, plain)]
    assert workers[0] > workers[1]


def test_moved_lists_the_largest_weight_changes_between_two_fits(train_eval, tmp_path, capsys):
    """--moved OLD NEW: the weights that differ most, largest first, with era, feature, both
    weights and the change; a file of other features is refused as the estimate refuses it."""
    from mayagames.tzolkin import learned as L

    old = json.loads(L.SIXTH_FIT_FILE.read_text())
    new = json.loads(json.dumps(old))
    at = L.FEATURES.index("on_uxmal_1")
    new["eras"][0][at] -= 7.5  # the largest change
    new["eras"][2][L.FEATURES.index("farm_discount")] += 2.25
    new["name"] = "changed"
    (tmp_path / "old.json").write_text(json.dumps(old))
    (tmp_path / "new.json").write_text(json.dumps(new))
    train_eval.main(["--moved", str(tmp_path / "old.json"), str(tmp_path / "new.json"), "--top", "3"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "the 3 weights that moved most, learned6 -> changed:"
    first, second, third = (line.split() for line in lines[2:5])
    assert first[:2] == ["1", "on_uxmal_1"] and float(first[4]) == -7.5
    assert float(first[2]) == pytest.approx(old["eras"][0][at], abs=1e-3)
    assert second[:2] == ["3", "farm_discount"] and float(second[4]) == 2.25
    assert float(third[4]) == 0.0  # nothing else moved
    new["features"] = new["features"][:-1]
    (tmp_path / "bad.json").write_text(json.dumps(new))
    with pytest.raises(L.LearnedWeightsError):
        train_eval.moved(str(tmp_path / "old.json"), str(tmp_path / "bad.json"))


def test_hunger_accounts_for_every_unfed_worker_of_a_game(train_eval, tmp_path):
    """--hunger's events are the Food Days' unfed workers, seat by seat (the summary's count),
    each with the seat's own moves since the Food Day before that spent the corn it needed;
    a record whose scores the replay does not reach is refused."""
    games = [train_eval.play_game((i, 4242 + i, "random")) for i in range(3)]  # random seats starve
    for game in games:
        events = train_eval.game_hunger(game)
        unfed = train_eval.game_figures(game)["unfed"]
        assert sum(e["unfed"] for e in events) == sum(map(sum, unfed)) > 0
        for e in events:
            assert unfed[e["food_day"] - 1][e["seat"]] == e["unfed"]
            assert all(m["days"] is not None and m["days"] >= -1 for m in e["spends"])
    spends = [m for g in games for e in train_eval.game_hunger(g) for m in e["spends"]]
    assert spends and all(m["move"] for m in spends)
    data = tmp_path / "games.jsonl"
    data.write_text("".join(json.dumps(g) + "\n" for g in games))
    text = train_eval.hunger([str(data)])
    total = sum(sum(map(sum, train_eval.game_figures(g)["unfed"])) for g in games)
    assert f"{total} workers" in text and "Food Day 4:" in text
    data.write_text(json.dumps({**games[0], "scores": [s + 1 for s in games[0]["scores"]]}) + "\n")
    with pytest.raises(SystemExit, match="does not reach the recorded scores"):
        train_eval.hunger([str(data)])

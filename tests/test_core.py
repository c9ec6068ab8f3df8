"""Tests of the game-agnostic core on the small test game."""

import json

import pytest

from mayagames.core import (GameRecord, IllegalAction, NotationError, OptionError, RecordError,
                            Rng, derive_seed, get_game, new_game, replay, verify)
from mayagames.core import conformance


def test_rng_is_deterministic_and_copyable():
    a, b = Rng(7), Rng(7)
    assert [a.randbelow(1000) for _ in range(20)] == [b.randbelow(1000) for _ in range(20)]
    c = a.copy()
    assert a.next64() == c.next64()
    xs = list(range(10))
    Rng(3).shuffle(xs)
    assert sorted(xs) == list(range(10)) and xs != list(range(10))


def test_rng_randbelow_is_roughly_uniform():
    r = Rng(1)
    counts = [0] * 6
    for _ in range(6000):
        counts[r.randbelow(6)] += 1
    assert all(850 < c < 1150 for c in counts)


def test_derive_seed_is_stable():
    assert derive_seed("run", 1) == derive_seed("run", 1) != derive_seed("run", 2)


def test_unknown_game_and_options_are_clear_errors():
    with pytest.raises(OptionError, match="unknown game"):
        get_game("chess")
    with pytest.raises(OptionError, match="unknown option"):
        new_game("toy", 2, options={"speed": 1})
    with pytest.raises(OptionError, match="2-4 players"):
        new_game("toy", 5)


def test_illegal_action_names_rule_and_changes_nothing():
    state = new_game("toy", 2, seed=1)
    before = conformance.fingerprint(state)
    missing = next(c for c in range(1, 9) if c not in state.hands[0])
    with pytest.raises(IllegalAction) as err:
        state.apply(state.parse_action(f"play {missing}"))
    assert err.value.rule == "toy: hand"
    assert conformance.fingerprint(state) == before


def test_bad_notation_raises_notation_error():
    with pytest.raises(NotationError):
        get_game("toy").parse_action("dance")


def test_record_roundtrip_and_verify():
    state, record = conformance.play_random_game("toy", 3, seed=5)
    again = GameRecord.from_json(record.to_json())
    assert conformance.fingerprint(verify(again)) == conformance.fingerprint(state)


def test_corrupt_records_are_rejected():
    _, record = conformance.play_random_game("toy", 2, seed=2)
    with pytest.raises(RecordError):
        GameRecord.from_json("{not json")
    with pytest.raises(RecordError):
        GameRecord.from_json(json.dumps({"format": "other"}))
    data = record.to_dict()
    data["moves"][3] = "play 9"
    with pytest.raises(RecordError, match="move 4"):
        replay(GameRecord.from_dict(data))
    data = record.to_dict()
    data["result"]["scores"][0] += 1
    with pytest.raises(RecordError, match="differs"):
        verify(GameRecord.from_dict(data))


def test_a_record_ended_early_verifies_by_its_reason():
    """A resigned 2-player game: the moves stop early, the winners are the ending's."""
    _, record = conformance.play_random_game("toy", 2, seed=2)
    data = record.to_dict()
    data["moves"] = data["moves"][:4]
    state = replay(GameRecord.from_dict(data))
    assert not state.is_terminal
    data["result"] = {"scores": state.scores(), "winners": [1], "reason": "Ana resigned"}
    assert verify(GameRecord.from_dict(data)) is not None
    for bad, match in ((dict(data["result"], scores=[99, 99]), "scores"),
                       (dict(data["result"], winners=[2]), "not seats"),
                       (dict(data["result"], winners=[]), "not seats")):
        with pytest.raises(RecordError, match=match):
            verify(GameRecord.from_dict(dict(data, result=bad)))
    finished = record.to_dict()
    finished["result"]["reason"] = "Ana resigned"
    with pytest.raises(RecordError, match="moves finish it"):
        verify(GameRecord.from_dict(finished))
    del data["result"]["reason"]  # without one, a result needs the rules' end
    with pytest.raises(RecordError, match="do not finish"):
        verify(GameRecord.from_dict(data))


def test_view_hides_hands_and_deck():
    state = new_game("toy", 3, seed=9)
    view = state.view(1)
    assert view.hands[1] == sorted(state.hands[1])
    assert all(c == 0 for c in view.hands[0] + view.hands[2] + view.deck)
    assert view.rng.state != state.rng.state


def test_terminal_game_with_human_and_random(tmp_path):
    import io
    from rich.console import Console
    from mayagames.terminal import TerminalGame, new_record

    record = new_record("toy", ["human", "random"], seed=4)
    out = io.StringIO()
    answers = iter(["help", "bogus", "99", "1"] + ["1"] * 50)
    game = TerminalGame(record, console=Console(file=out, width=100),
                        ask=lambda prompt: next(answers), save_path=tmp_path / "g.json")
    state = game.play()
    assert state.is_terminal
    text = out.getvalue()
    assert "not a toy action" in text and "choose a number from 1 to" in text
    saved = GameRecord.load(tmp_path / "g.json")
    assert saved.result is not None and verify(saved).is_terminal


def test_terminal_quit_saves_and_resumes(tmp_path):
    import io
    from rich.console import Console
    from mayagames.terminal import TerminalGame, new_record

    path = tmp_path / "g.json"
    record = new_record("toy", ["human", "human"], seed=4)
    answers = iter(["1", "1", "quit"])
    TerminalGame(record, console=Console(file=io.StringIO()), ask=lambda p: next(answers),
                 save_path=path).play()
    saved = GameRecord.load(path)
    assert len(saved.moves) == 2 and saved.result is None
    answers = iter(["1"] * 50)
    state = TerminalGame(saved, console=Console(file=io.StringIO()), ask=lambda p: next(answers)).play()
    assert state.is_terminal and saved.moves[:2] == record.moves[:2]


def test_toy_swaps_are_limited_so_games_end():
    state = new_game("toy", 2, seed=3)
    for _ in range(2):
        card = state.hands[0][0]
        state.apply(state.parse_action(f"swap {card}"))
        state.apply(state.parse_action("end"))
        state.apply(state.legal_actions()[0])  # the other seat plays or swaps
        while state.current_player != 0:
            state.apply(state.legal_actions()[0])
    assert state.swaps_left[0] == 0
    assert not any(str(a).startswith("swap") for a in state.legal_actions())
    with pytest.raises(IllegalAction) as err:
        state.apply(state.parse_action(f"swap {state.hands[0][0]}"))
    assert err.value.rule == "toy: swaps"

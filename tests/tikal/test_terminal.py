"""Terminal play of Tikal: a human and a bot, bad input, save/load, replay, the board picture."""

import io
import re

from rich.console import Console
from typer.testing import CliRunner

from mayagames.cli import app
from mayagames.core import GameRecord, verify
from mayagames.terminal import TerminalGame, new_record
from mayagames.tikal.render import render
from mayagames.tikal.testing import fresh, lay_tile, put, random_moves


def plain(text):
    return re.sub(r"\[/?[a-z ]*\]", "", text)


def test_full_game_human_and_random_with_bad_input(tmp_path):
    record = new_record("tikal", ["human", "random"], seed=21)
    answers = iter(["help", "fly away", "move explorer a1 a2", "999", "board"] + ["1"] * 5000)
    out = io.StringIO()
    game = TerminalGame(record, console=Console(file=out, width=120), ask=lambda p: next(answers),
                        save_path=tmp_path / "g.json")
    state = game.play()
    assert state.is_terminal
    text = out.getvalue()
    assert "not a Tikal action: 'fly away'" in text
    assert "Tikal 4: Round Management" in text  # a move typed at the wrong time names the rule
    assert "choose a number from 1 to" in text
    assert "Round Management: take one item" in text
    saved = GameRecord.load(tmp_path / "g.json")
    assert saved.result is not None and verify(saved).is_terminal


def test_quit_save_and_resume(tmp_path):
    path = tmp_path / "g.json"
    record = new_record("tikal", ["human", "human", "random"], seed=5)
    answers = iter(["1"] * 12 + ["quit"])
    TerminalGame(record, console=Console(file=io.StringIO()), ask=lambda p: next(answers), save_path=path).play()
    saved = GameRecord.load(path)
    assert saved.result is None and len(saved.moves) >= 12
    first = list(saved.moves)
    answers = iter(["1"] * 10 + ["quit"])
    TerminalGame(saved, console=Console(file=io.StringIO()), ask=lambda p: next(answers), save_path=path).play()
    again = GameRecord.load(path)
    assert again.moves[:len(first)] == first and len(again.moves) >= len(first) + 10
    assert not verify(again).is_terminal


def test_cli_play_and_replay(tmp_path):
    path = tmp_path / "bots.json"
    runner = CliRunner()
    result = runner.invoke(app, ["play", "tikal", "--players", "random,random,random", "--seed", "3",
                                 "--save", str(path)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["replay", str(path), "--seat", "1"])
    assert result.exit_code == 0, result.output
    assert "(verified)" in result.output and "Tikal Legend" in result.output
    result = runner.invoke(app, ["games"])
    assert "tikal" in result.output and "guardian_removal" in result.output


def test_board_picture_shows_tiles_ems_camps_stones_and_campsites():
    s = fresh(3, seed=2)
    lay_tile(s, "c4", "B3")
    put(s, 1, "c4", explorers=2, leaders=1)
    put(s, 0, "e5", explorers=3)
    text = plain(render(s.view(0), 0))
    assert "c4 R4:4" in text and "B2" in text and "r3" in text and "common" in text
    assert "e3 T1" in text and "c2 V" in text and "g2 L" in text
    assert "turn order:" in text and "museum:" in text and "cards on display:" in text
    assert "director" in text and "AP tokens on offer" in text


def test_render_shows_the_open_question_and_rotations():
    s = random_moves(fresh(2, seed=4), 0)
    from mayagames.tikal.testing import action_phase, give_tile, play
    action_phase(s, 0)
    give_tile(s, 0, "A1")
    play(s, "place a1", "at c4")
    text = plain(render(s.view(0), 0))
    assert "choose the rotation of the tile" in text and "rotate 0: ne" in text

"""Terminal play: ``mayagames play tzolkin`` with human and random seats, render, records."""

import io

from rich.console import Console
from typer.testing import CliRunner

from mayagames.core import GameRecord, new_game, verify
from mayagames.terminal import TerminalGame, new_record
from mayagames.tzolkin.render import render


def test_render_shows_the_board_and_hides_other_hands():
    s = new_game("tzolkin", 3, seed=5)
    text = render(s.view(1), 1)
    for word in ("Palenque", "Chichen Itza", "Chaac", "Buildings on offer", "Monuments on offer",
                 "Your starting tiles", "Now"):
        assert word in text
    mine = [f"w{t + 1:02d}" for t in s.dealt[1]]
    theirs = [f"w{t + 1:02d}" for t in s.dealt[0] if t not in s.dealt[1]]
    assert all(t in text for t in mine) and not any(f"  {t}:" in text for t in theirs)
    plain = Console(file=io.StringIO(), width=140)
    plain.print(text)                     # valid Rich markup


def test_human_and_random_seats_play_a_game_with_save_and_resume(tmp_path):
    path = tmp_path / "tz.json"
    record = new_record("tzolkin", ["human", "random"], seed=12)
    out = io.StringIO()
    answers = iter(["help", "board", "fly away", "99", "keep w99 w98", "1", "1", "1", "quit"])
    game = TerminalGame(record, console=Console(file=out, width=140), ask=lambda p: next(answers),
                        save_path=path)
    game.play()
    text = out.getvalue()
    assert "not a Tzolk'in action" in text and "choose a number from 1 to" in text
    assert "Tzolk'in" in text and "keep (hidden)" not in text.split("seat 1")[0]
    saved = GameRecord.load(path)
    assert saved.result is None and len(saved.moves) >= 3
    answers = iter(["1"] * 5000)
    state = TerminalGame(saved, console=Console(file=io.StringIO(), width=140),
                         ask=lambda p: next(answers), save_path=path).play()
    assert state.is_terminal
    assert verify(GameRecord.load(path)).is_terminal


def test_random_seat_draft_pick_is_hidden_from_the_human():
    record = new_record("tzolkin", ["random", "human"], seed=3)
    out = io.StringIO()
    answers = iter(["quit"])
    TerminalGame(record, console=Console(file=out, width=140), ask=lambda p: next(answers)).play()
    assert "keep (hidden)" in out.getvalue()


def test_cli_plays_and_replays(tmp_path):
    from mayagames.cli import app
    runner = CliRunner()
    path = tmp_path / "g.json"
    result = runner.invoke(app, ["play", "tzolkin", "--players", "random,random,random", "--seed", "4",
                                 "--save", str(path)])
    assert result.exit_code == 0, result.output
    assert "winner" in result.output
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0 and "verified" in result.output
    result = runner.invoke(app, ["play", "tzolkin", "--players", "random,random", "-o", "corn_vp=round"])
    assert result.exit_code == 2 and "corn_vp" in result.output

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
    assert "Tzolk'in" in text and "player0 keeps starting tiles w" in text
    assert "random1 keeps two starting tiles." in text and "random1 keeps starting tiles" not in text
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
    assert "random0 keeps two starting tiles." in out.getvalue()
    assert "random0 keeps starting tiles" not in out.getvalue()


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


# --- what a human sees when deciding ------------------------------------------------------------
def plain(text):
    out = io.StringIO()
    Console(file=out, width=400, color_system=None).print(text)
    return out.getvalue()


def test_action_summaries_include_technologies_and_the_board():
    from mayagames.tzolkin.components import CHICHEN, PALENQUE, UXMAL, YAXCHILAN
    from mayagames.tzolkin.positions import blank, place_skull, set_goods, set_tech
    from mayagames.tzolkin.summary import action_summary
    s = blank(2)
    set_tech(s, 0, "agriculture", 3)
    set_tech(s, 0, "theology", 3)
    assert action_summary(s, 0, PALENQUE, 1) == "fishing: 4 corn (incl. +1 Agriculture)"
    assert action_summary(s, 0, PALENQUE, 2) == "7 corn (incl. +3 Agriculture) + a Corn Harvest Tile"
    assert action_summary(s, 0, PALENQUE, 5) == (
        "corn: 12 corn (incl. +3 Agriculture), no tile (none visible: Agriculture 2) | "
        "wood: 4 wood + a Wood Harvest Tile | burn: 12 corn (incl. +3 Agriculture) + a Corn Harvest "
        "Tile, then 1 temple down")
    assert action_summary(s, 1, PALENQUE, 5).startswith("wood: 4 wood")     # seat 1: no irrigation
    assert action_summary(s, 0, YAXCHILAN, 4) == "2 crystal skull (incl. +1 Theology)"
    set_goods(s, 1, skulls=12)
    assert action_summary(s, 0, YAXCHILAN, 4) == "1 crystal skull"
    assert action_summary(s, 0, UXMAL, 2) == "market: wood 2 corn, stone 3 corn, gold 4 corn"
    assert action_summary(s, 0, CHICHEN, 9) == "leave a skull: 13 VP + 1 quetzalcoatl + a block of your choice"
    place_skull(s, 1, 9)
    assert action_summary(s, 0, CHICHEN, 9) == "skull slot filled"
    assert action_summary(s, 0, CHICHEN, 10) == "free choice: any action of this gear"
    assert action_summary(s, 0, CHICHEN, 0) == "no action"


def test_render_shows_placement_costs_and_own_workers_actions():
    from mayagames.tzolkin.positions import blank, put_dummy, put_worker, set_goods
    s = blank(2)
    set_goods(s, 0, corn=9)
    put_worker(s, 0, "yaxchilan", 3)
    put_dummy(s, "tikal", 0)
    s.sps_corn = 2
    s.corn_out += 2
    text = plain(render(s.view(0), 0))
    assert "Next worker (space number + tariff 0, in corn): palenque 0 → 0; yaxchilan 0 → 0; tikal 1 → 1;" in text
    assert "Starting Player Space 0, 2 corn waiting there" in text
    assert "Yaxchilan 3: 1 gold + 2 corn" in text
    other = plain(render(s.view(1), 1))
    assert "Next worker" not in other and "Your workers" not in other
    from mayagames.tzolkin.positions import play
    play(s, "place tikal")
    assert "tikal 2 → 3" in plain(render(s.view(0), 0))     # space 2 + tariff 1


def test_render_lists_what_each_choice_gives():
    from mayagames.tzolkin.positions import blank, play, put_worker, set_goods, set_row
    s = blank(2)
    set_goods(s, 0, corn=2)
    put_worker(s, 0, "palenque", 3)
    play(s, "pick palenque 3")
    text = plain(render(s.view(0), 0))
    assert "do palenque 1 (pay 2 corn): fishing: 3 corn" in text
    assert "do palenque 3: wood: 2 wood + a Wood Harvest Tile | burn: 5 corn" in text
    play(s, "do palenque 3")
    text = plain(render(s.view(0), 0))
    assert "harvest wood: 2 wood + a Wood Harvest Tile" in text and "  burn: 5 corn" in text
    s = blank(2)
    set_goods(s, 0, corn=6)
    set_row(s, ["a1-t1", "a1-f1", "a1-b1", "a1-f2", "a1-g1", "a1-g2"])
    put_worker(s, 0, "uxmal", 4)
    play(s, "pick uxmal 4", "do uxmal 4")
    text = plain(render(s.view(0), 0))
    assert "build a1-t1: 6 corn" in text and "build a1-f1: 2 corn" in text


def test_render_scores_m05_for_the_player_count_and_temple_vp():
    from mayagames.tzolkin.positions import blank, set_monument_row, set_temple
    for players, vp in ((2, 6), (3, 5), (4, 4)):
        s = blank(players)
        set_monument_row(s, ["m05"])
        assert f"m05 brown cost 2 wood + 2 stone + 2 gold: {vp} VP per monument built by anyone" in plain(
            render(s.view(0), 0))
    set_temple(s, 2, "kukulcan", -1)
    assert "P2 -1 (-3 VP)" in plain(render(s.view(0), 0))


def test_render_after_placing_every_worker():
    from mayagames.tzolkin.positions import blank, play, set_goods, set_workers
    s = blank(2)
    set_workers(s, 0, 6)
    set_goods(s, 0, corn=100)
    for gear in ("palenque", "yaxchilan", "tikal", "uxmal", "chichen"):
        play(s, f"place {gear}")
    assert "tikal 1 → 6" in plain(render(s.view(0), 0))     # sixth worker: space 1 + tariff 5
    play(s, "place tikal")
    text = plain(render(s.view(0), 0))
    assert "Next worker" not in text and "place more workers or end" in text


def test_render_never_fails_at_any_decision():
    """Every decision of random games renders for the deciding seat and a spectator."""
    from mayagames.core import Rng
    for players, seed in ((2, 31), (4, 32)):
        s = new_game("tzolkin", players, seed=seed)
        rng = Rng(seed)
        while not s.is_terminal:
            text = render(s.view(s.cur), s.cur)
            assert "Now" in text
            legal = s.legal_actions()
            s.apply(legal[rng.randbelow(len(legal))])
        assert "Final scores" in render(s.view(None), None)


def test_mid_turn_steps_show_what_the_decision_offers():
    """Between the steps of one turn the board is not redrawn, but the pending decision's
    details are (the terminal's `details` hook)."""
    import io

    from rich.console import Console

    from mayagames.terminal import TerminalGame, new_record

    record = new_record("tzolkin", ["human", "random"], seed=3)
    out = io.StringIO()
    answers = iter(["1", "1", "quit"])  # keep two tiles; place a first worker; stop mid-turn
    TerminalGame(record, console=Console(file=out, width=120),
                 ask=lambda prompt: next(answers)).play()
    text = out.getvalue()
    assert text.count("Tzolk'in day") == 2  # full board at the draft and at the placement turn
    assert "place more workers or end" in text  # the details of the step after the first placement
    assert "Next worker" in text.split("place more workers or end")[0].rsplit("Tzolk'in day", 1)[1]

"""Readable playthroughs: a whole game as text, beside a golden record's hash.

A golden record proves that a game replays identically (its final state's hash);
a playthrough shows *what* happened, so a change of behaviour reads as a diff
(OpenSpiel's playthroughs are the model). The text holds the spectator's picture of
the first position, every decision (number, seat, notation, and the running scores
whenever they change) and the spectator's picture of the final position.

Regenerate after an intended change of the rules or of rendering::

    .venv/bin/python -m mayagames.core.playthrough tests/*/golden/*.json

>>> from mayagames.core.conformance import play_random_game
>>> _, record = play_random_game("toy", 2, seed=1)
>>> print(playthrough(record).splitlines()[0])
# toy, 2 players, seed 1, options {'swaps': 2}
"""

from __future__ import annotations

import sys
from pathlib import Path

from .record import GameRecord, iter_replay


def _plain(markup: str) -> str:
    """A render without its Rich colour markup (games render for the terminal)."""
    from rich.text import Text

    return "\n".join(line.rstrip() for line in Text.from_markup(markup).plain.rstrip().splitlines())


def _scores(values: list[float]) -> str:
    return " ".join(f"{v:g}" for v in values)


def playthrough(record: GameRecord) -> str:
    """The transcript of ``record`` (replayed move by move)."""
    state = record.new_state()
    lines = [f"# {record.game}, {record.num_players} players, seed {record.seed}, "
             f"options {dict(sorted(record.options.items()))}",
             "", "## first position", _plain(state.render(None)), "", "## decisions"]
    scores = state.scores()
    seat = state.current_player
    for n, text, after in iter_replay(record):
        line = f"{n + 1:4d}. P{seat} {text}"
        now = after.scores()
        if now != scores:
            line += f"    scores {_scores(now)}"
            scores = now
        lines.append(line)
        seat = after.current_player
        state = after
    lines += ["", "## final position",
              f"scores {_scores(state.scores())}; winners {state.winners()}",
              _plain(state.render(None)), ""]
    return "\n".join(lines)


def transcript_path(record_path: Path) -> Path:
    """Where the playthrough of a golden record lies: beside it, ``.txt``."""
    return record_path.with_suffix(".txt")


def main(argv: list[str] | None = None) -> None:
    """Write the playthrough beside each golden record named on the command line."""
    for name in argv if argv is not None else sys.argv[1:]:
        path = Path(name)
        transcript_path(path).write_text(playthrough(GameRecord.load(path)))
        print(f"wrote {transcript_path(path)}")


if __name__ == "__main__":
    main()

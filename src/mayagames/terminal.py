"""Play any registered game in the terminal, with any mix of humans and bots.

Humans see the board as their seat's view, a numbered list of legal moves, and
may type a number or a move's notation. Other commands: ``help``, ``board``,
``save [FILE]``, ``quit``. A record of the game is kept and can be saved and
resumed (``mayagames play --load FILE``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .agents import Agent, make_agent
from .core.errors import IllegalAction, NotationError
from .core.game import Action, GameEvent, Narration, State
from .core.record import GameRecord, Seat, replay
from .core.rng import derive_seed

HELP = """Type the number of a move, or its notation (as shown).
Commands: board (redraw), moves (list moves), save [FILE], quit, help."""


def event_table(event: GameEvent) -> Table | None:
    """A game event's breakdown (e.g. a scoring per player and category) as a Rich table."""
    if not event.table:
        return None
    table = Table(title=escape(event.table["title"]), title_justify="left", box=None,
                  pad_edge=False, show_edge=False)
    for i, column in enumerate(event.table["columns"]):
        table.add_column(escape(str(column)), justify="left" if i == 0 else "right")
    for row in event.table["rows"]:
        table.add_row(*(escape(str(cell)) for cell in row))
    return table


def show_narration(console: Console, told: Narration, prefix: str = "") -> None:
    """Print a move's sentence, then the game events it triggered (with their tables)."""
    style = "dim" if told.minor else ""
    text = f"{prefix}{escape(told.text)}"
    console.print(f"[{style}]{text}[/{style}]" if style else text)
    for event in told.events:
        console.print(f"  [bold]{escape(event.text)}[/bold]")
        table = event_table(event)
        if table is not None:
            console.print(table)


class Quit(Exception):
    """The human asked to stop the game."""


def format_moves(legal: Sequence[Action], width: int = 100) -> str:
    """Numbered moves in columns."""
    cells = [f"{i + 1:>3}. {a}" for i, a in enumerate(legal)]
    col = max(len(c) for c in cells) + 2 if cells else 10
    per_row = max(1, width // col)
    rows = []
    for start in range(0, len(cells), per_row):
        rows.append("".join(c.ljust(col) for c in cells[start:start + per_row]).rstrip())
    return "\n".join(rows)


def choose_from_input(text: str, legal: Sequence[Action], state: State) -> Action:
    """A legal move from a typed number or notation; raises ValueError/IllegalAction."""
    text = text.strip()
    if text.isdigit():
        index = int(text) - 1
        if not 0 <= index < len(legal):
            raise ValueError(f"choose a number from 1 to {len(legal)}")
        return legal[index]
    action = state.parse_action(text)
    if action not in legal:
        raise state.explain_illegal(action)
    return action


class TerminalGame:
    """One game in the terminal: record, seats and the loop."""

    def __init__(self, record: GameRecord, console: Console | None = None,
                 ask: Callable[[str], str] | None = None, save_path: Path | None = None) -> None:
        self.record = record
        self.console = console or Console(highlight=False)
        self.ask = ask or (lambda prompt: self.console.input(prompt))
        self.save_path = save_path
        self.state = replay(record)
        self.agents: dict[int, Agent] = {}
        for seat, info in enumerate(record.seats):
            if info.agent != "human":
                self.agents[seat] = make_agent(info.agent, derive_seed(record.seed, "agent", seat))

    def say(self, text: str) -> None:
        self.console.print(text)

    def seat_label(self, seat: int) -> str:
        info = self.record.seats[seat]
        return f"seat {seat} ({escape(info.name)}, {info.agent})"

    def play(self) -> State:
        """Run until the game ends or a human quits; returns the state."""
        last_human: int | None = None
        last_actor: int | None = None
        try:
            while not self.state.is_terminal:
                seat = self.state.current_player
                assert seat is not None
                if seat in self.agents:
                    legal = self.state.legal_actions()
                    action = self.agents[seat].act(self.state.view(seat), legal)
                else:
                    if last_actor != seat:  # a new turn for this human: show the board
                        self.say(self.state.render(seat))
                    else:  # a later step of the same turn: what this decision offers
                        self.show_details(seat)
                    last_human = seat
                    action = self.human_turn(seat)
                last_actor = seat
                before = self.state.clone()
                self.state.apply(action)
                self.record.moves.append(str(action))
                self.tell(before, action, last_human)
        except (Quit, EOFError, KeyboardInterrupt):
            self.say("Game stopped.")
            self.autosave()
            return self.state
        self.record.finish(self.state)
        self.say(self.state.render(None))
        self.show_result()
        self.autosave()
        return self.state

    @property
    def names(self) -> list[str]:
        return [info.name for info in self.record.seats]

    def tell(self, before: State, action: Action, viewer: int | None) -> None:
        """The move just played, as a sentence for the last human to move (and its events)."""
        told = before.info.narrate(before, action, self.state, viewer).with_names(self.names)
        show_narration(self.console, told, "[dim]>[/dim] ")

    def show_details(self, seat: int) -> None:
        """The game's optional details of the pending decision (Rich markup)."""
        details = self.state.info.plugin.part("details")  # (view, seat) -> str
        if details:
            text = details(self.state.view(seat), seat)
            if text:
                self.say(text)

    def human_turn(self, seat: int) -> Action:
        legal = self.state.legal_actions()
        question = self.state.info.plugin.part("prompt")  # optional: (state) -> what is asked now
        asked = f": {escape(question(self.state))}" if question else ""
        self.say(f"\n[bold]{self.seat_label(seat)} to move[/bold]{asked}")
        self.say(escape(format_moves(legal)))
        while True:
            text = self.ask("> ").strip()
            if not text:
                continue
            command, _, rest = text.partition(" ")
            if command == "quit":
                raise Quit
            if command == "help":
                self.say(HELP)
            elif command == "board":
                self.say(self.state.render(seat))
            elif command == "moves":
                self.say(escape(format_moves(legal)))
            elif command == "save":
                self.save(Path(rest.strip()) if rest.strip() else self.save_path)
            else:
                try:
                    return choose_from_input(text, legal, self.state)
                except (ValueError, NotationError, IllegalAction) as exc:
                    self.say(f"[red]{escape(str(exc))}[/red]")

    def save(self, path: Path | None) -> None:
        if path is None:
            self.say("[red]give a file name: save FILE[/red]")
            return
        self.record.save(path)
        self.save_path = path
        self.say(f"saved to {path}")

    def autosave(self) -> None:
        if self.save_path is not None:
            self.record.save(self.save_path)
            self.say(f"record saved to {self.save_path}")

    def show_result(self) -> None:
        scores = self.state.scores()
        winners = self.state.winners()
        for seat, score in enumerate(scores):
            mark = "  [bold green]winner[/bold green]" if seat in winners else ""
            self.say(f"{self.seat_label(seat)}: {score:g}{mark}")


def new_record(game: str, players: Sequence[str], seed: int,
               options: dict | None = None, names: Sequence[str] | None = None) -> GameRecord:
    """A fresh record for seats given as agent specs ('human', 'random', ...)."""
    seats = [Seat(name=(names[i] if names else f"{spec}{i}" if spec != "human" else f"player{i}"),
                  agent=spec) for i, spec in enumerate(players)]
    for spec in players:
        if spec != "human":
            make_agent(spec)  # fail early on an unknown agent
    return GameRecord.start(game, len(players), seed, options, seats)

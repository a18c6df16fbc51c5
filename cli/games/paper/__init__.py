"""Paper Dungeons' client plug-in: its rules in short, its steps in words, and its table: your
dungeon sheet with its grid, tracks and dice, and every other seat in a line
(cli/games/paper/render.py).  Over the network its powers and objectives are dealt privately
from shared decks (protocol.md §7.13)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from cli.games.paper import render, screen
from cli.games.paper.help import RULES
from cli.inputs import InputModel
from cli.plugin import LINE_HELP, Frame, GameUI
from cli.text import StyledLine, named_seats, plain, seat_letter, wrap_text
from engine.core import Entry, GameState, Outcome
from engine.paper.narrate import narrate
from engine.paper.state import PaperState

_STEP = re.compile(r"R([0-9]+)\.")


class PaperUI(GameUI):
    """The sheet as text in line mode; full screen, a compact sheet with a plan builder that
    plays each part on the sheet as it is chosen (cli/games/paper/screen.py)."""

    networked = ""  # (its deals come from shared decks: protocol.md §7.13)
    replay_unit = "round"
    full_screen = True
    keys = screen.KEYS
    keys_help = screen.KEYS_HELP
    select_hint = "Build the plan first: a die (1-6), its use (Space, Tab), three times."
    styles: ClassVar[Mapping[str, str]] = {"pd.cursor": "reverse", "pd.pick": "bold underline"}

    def title(self, view: Any, width: int) -> list[StyledLine]:
        head = f" Paper Dungeons: round {max(1, view.round)} of 8"
        if view.dungeon:
            head += f", card {view.dungeon}"
        me = view.seats[view.seat] if view.seat is not None else None
        if me is not None and me.sheet.power:
            head += f", power {me.sheet.power}"
        if view.objective:
            head += f", objective {view.objective}"
        return [plain(wrap_text(head, width=width - 1)[0], "class:title")]

    def board(self, view: Any, frame: Frame) -> list[StyledLine]:
        return screen.board_lines(view, self.labels, frame.inputs, frame.width, frame.height)

    def select_words(self, view: Any) -> str:
        if getattr(view, "phase", "") == "plan":
            return self.select_hint
        return "Choose with Up/Down first, then Enter."

    def move_note(self, view: Any) -> str:
        if getattr(view, "phase", "") == "plan":
            return ": your plan, a die at a time"
        return ": Up/Down through the choices"

    def inputs(self, state: GameState[Any], seat: int) -> InputModel:
        return screen.inputs(state, seat, self.choices(state, seat))

    def rules(self) -> str:
        return RULES + "\n\nThe sheet\n" + "\n".join(
            "  " + line for line in wrap_text(render.LEGEND, width=76))

    line_help = LINE_HELP + "\n  sheet B            another seat's sheet (B: its letter or name)"

    def table(self, view: Any) -> list[str]:
        return render.render_table(view, self.labels)

    def command(self, view: Any, text: str) -> list[str] | None:
        words = text.split()
        if not words or words[0].lower() != "sheet":
            return None
        wanted = " ".join(words[1:]).lower()
        for seat_view in view.seats:
            s = seat_view.seat
            if wanted in (seat_letter(s).lower(), self.labels[s].lower()):
                return render.seat_sheet(view, seat_view, self.labels[s])
        letters = ", ".join(f"{seat_letter(s.seat)} {self.labels[s.seat]}" for s in view.seats)
        return [f"sheet of whom? Give a seat's letter or name ({letters})."]

    def narrate(self, before: GameState[Any], entry: Entry | None,
                after: GameState[Any]) -> list[str]:
        assert isinstance(before, PaperState) and isinstance(after, PaperState)
        return [row for line in narrate(before, entry, after, self.labels)
                for row in wrap_text(named_seats(line, self.labels),
                                     indent="    " if line.startswith("  ") else "  ")]

    def pause_after(self, before: GameState[Any], after: GameState[Any]) -> bool:
        assert isinstance(before, PaperState) and isinstance(after, PaperState)
        return after.round != before.round or after.is_over

    def scoreboard(self, view: Any, outcome: Outcome,
                   bots: Mapping[int, Sequence[tuple[str, str]]]) -> list[str]:
        return [*super().scoreboard(view, outcome, bots),
                *wrap_text("(Score letters: A-C the three villain fights, D the lowest hero's "
                           "level, E items, F gems, G minions, H damage, I resurrection, J the "
                           "objective and the power, K missions, L the total.)", indent="  ")]

    def step_words(self, step: str) -> str:
        found = _STEP.match(step)
        return f"round {found.group(1)}" if found else "the set-up"


UI = PaperUI

__all__ = ["UI"]

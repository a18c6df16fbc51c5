"""Paper Dungeons' client plug-in: its rules in short, its steps in words, and its table: your
dungeon sheet with its grid, tracks and dice, and every other seat in a line
(cli/games/paper/render.py).  Over the network its powers and objectives are dealt privately
from shared decks (protocol.md §7.13)."""

from __future__ import annotations

import re
from typing import Any

from cli.games.paper import render
from cli.games.paper.help import RULES
from cli.plugin import LINE_HELP, GameUI
from cli.text import seat_letter, wrap_text

_STEP = re.compile(r"R([0-9]+)\.")


class PaperUI(GameUI):
    """Line mode with the sheet as text (no full screen yet)."""

    networked = ""  # (its deals come from shared decks: protocol.md §7.13)
    replay_unit = "round"

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

    def step_words(self, step: str) -> str:
        found = _STEP.match(step)
        return f"round {found.group(1)}" if found else "the set-up"


UI = PaperUI

__all__ = ["UI"]

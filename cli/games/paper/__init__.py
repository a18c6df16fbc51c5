"""Paper Dungeons' client plug-in: its rules in short, its steps in words, and its table: your
dungeon sheet with its grid, tracks and dice, and every other seat in a line
(cli/games/paper/render.py).  Over the network its powers and objectives are dealt privately
from shared decks (protocol.md §7.13)."""

from __future__ import annotations

import re
from typing import Any

from cli.games.paper import render
from cli.games.paper.help import RULES
from cli.plugin import GameUI
from cli.text import wrap_text

_STEP = re.compile(r"R([0-9]+)\.")


class PaperUI(GameUI):
    """Line mode with the sheet as text (no full screen yet)."""

    networked = ""  # (its deals come from shared decks: protocol.md §7.13)
    replay_unit = "round"

    def rules(self) -> str:
        return RULES + "\n\nThe sheet\n" + "\n".join(
            "  " + line for line in wrap_text(render.LEGEND, width=76))

    def table(self, view: Any) -> list[str]:
        return render.render_table(view, self.labels)

    def step_words(self, step: str) -> str:
        found = _STEP.match(step)
        return f"round {found.group(1)}" if found else "the set-up"


UI = PaperUI

__all__ = ["UI"]

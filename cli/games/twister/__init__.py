"""Dungeon Twister's client plug-in: its rules in short, its steps in words, and its table: the
board with walls, portcullises and tokens, each side's cards, the viewer's own face-down tokens
(cli/games/twister/render.py)."""

from __future__ import annotations

import re
from typing import Any

from cli.games.twister import render
from cli.games.twister.help import RULES
from cli.plugin import GameUI
from cli.text import wrap_text

_STEP = re.compile(r"T([0-9]+)\.")


class TwisterUI(GameUI):
    """Line mode with the board as text (the full screen shows the same table)."""

    networked = ""  # (its tokens and teams travel as sealed values: protocol.md §7.11)
    replay_unit = "turn"

    def rules(self) -> str:
        return RULES + "\n\nThe board\n" + "\n".join(
            "  " + line for line in wrap_text(render.LEGEND, width=76))

    def table(self, view: Any) -> list[str]:
        return render.render_table(view, self.labels)

    def step_words(self, step: str) -> str:
        found = _STEP.match(step)
        return f"turn {found.group(1)}" if found else "the set-up"


UI = TwisterUI

__all__ = ["UI"]

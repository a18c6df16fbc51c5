"""Dungeons of Kards' client plug-in: its rules in short, its steps in words, and its table: the
arena map with every figure, each character's panel, the monsters, decks, lair and events
(cli/games/kards/render.py)."""

from __future__ import annotations

import re
from typing import Any

from cli.games.kards import render
from cli.games.kards.help import RULES
from cli.plugin import GameUI
from cli.text import wrap_text

_STEP = re.compile(r"T([0-9]+)\.")


class KardsUI(GameUI):
    """Line mode with the arena map as text (no full screen yet)."""

    replay_unit = "turn"

    def rules(self) -> str:
        return RULES + "\n\nThe map\n" + "\n".join(
            "  " + line for line in wrap_text(render.LEGEND, width=76))

    def table(self, view: Any) -> list[str]:
        return render.render_table(view, self.labels)

    def step_words(self, step: str) -> str:
        found = _STEP.match(step)
        return f"turn {found.group(1)}" if found else "the set-up"


UI = KardsUI

__all__ = ["UI"]

"""Dungeons of Kards' client plug-in: its rules in short and its steps in words; the table is
the generic one (the engine's view as text, moves in the game's notation) until the arena map of
issue 30."""

from __future__ import annotations

import re

from cli.games.kards.help import RULES
from cli.plugin import GameUI

_STEP = re.compile(r"T([0-9]+)\.")


class KardsUI(GameUI):
    """Line mode over the generic table; the full screen waits for the arena map."""

    replay_unit = "turn"

    def rules(self) -> str:
        return RULES

    def step_words(self, step: str) -> str:
        found = _STEP.match(step)
        return f"turn {found.group(1)}" if found else "the set-up"


UI = KardsUI

__all__ = ["UI"]

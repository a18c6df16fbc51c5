"""Dungeon Twister's client plug-in: its rules in short and its steps in words.  Its network
play waits for protocol v2 (sealed values and moves longer than v1 carries, issue 27); offline
practice (``--deal-seed``) plays it on the generic table."""

from __future__ import annotations

import re

from cli.games.twister.help import RULES
from cli.plugin import GameUI

_STEP = re.compile(r"T([0-9]+)\.")


class TwisterUI(GameUI):
    """Offline line mode over the generic table, until the board of issue 31."""

    networked = ""  # (its tokens and teams travel as sealed values: protocol.md §7.11)
    replay_unit = "turn"

    def rules(self) -> str:
        return RULES

    def step_words(self, step: str) -> str:
        found = _STEP.match(step)
        return f"turn {found.group(1)}" if found else "the set-up"


UI = TwisterUI

__all__ = ["UI"]

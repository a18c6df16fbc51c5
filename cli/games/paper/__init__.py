"""Paper Dungeons' client plug-in: its rules in short and its steps in words.  Over the network
its powers and objectives are dealt privately from shared decks (protocol.md §7.13); offline
practice (``--deal-seed``, solo included) plays it on the generic table."""

from __future__ import annotations

import re

from cli.games.paper.help import RULES
from cli.plugin import GameUI

_STEP = re.compile(r"R([0-9]+)\.")


class PaperUI(GameUI):
    """Line mode over the generic table, until the sheet of issue 32."""

    networked = ""  # (its deals come from shared decks: protocol.md §7.13)
    replay_unit = "round"

    def rules(self) -> str:
        return RULES

    def step_words(self, step: str) -> str:
        found = _STEP.match(step)
        return f"round {found.group(1)}" if found else "the set-up"


UI = PaperUI

__all__ = ["UI"]

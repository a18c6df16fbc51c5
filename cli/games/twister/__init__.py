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
from engine.core import GameState

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

    def choices_lines(self, state: GameState[Any], seat: int, view: Any) -> list[str]:
        """The set-up's two steps have thousands of moves: how to write one, not a list."""
        phase = getattr(view, "phase", "")
        moves = self.choices(state, seat)
        if phase == "team" and moves:
            kinds = sorted({word for move in moves for word in move.split()[1:]})
            x = 0 if seat == 0 else 21
            text = (f"Choose your starting team: team A B C D, four different characters of "
                    f"{', '.join(kinds)}, for your starting squares {x},1 {x},3 {x},6 {x},8 in "
                    f"that order (e.g. {moves[0]}). Only you will know them until every token "
                    "is placed.")
            return [*wrap_text(text, indent="  "), "  (? for help, q to quit)"]
        if phase == "place" and moves:
            slots: dict[str, set[str]] = {}
            for move in moves:
                _, slot, *kind = move.split()
                slots.setdefault(slot, set()).update(kind)
            kinds = sorted(set().union(*slots.values()))
            text = (f"Place a face-down token: place SLOT TOKEN, with SLOT one of "
                    f"{' '.join(sorted(slots))} and TOKEN one of yours not placed yet: "
                    f"{', '.join(kinds)} (e.g. {moves[0]}). Only you know which it is.")
            return [*wrap_text(text, indent="  "), "  (? for help, q to quit)"]
        return super().choices_lines(state, seat, view)

    def step_words(self, step: str) -> str:
        found = _STEP.match(step)
        return f"turn {found.group(1)}" if found else "the set-up"


UI = TwisterUI

__all__ = ["UI"]

"""Dungeons of Kards' client plug-in: its rules in short, its steps in words, and its table: the
arena map with every figure, each character's panel, the monsters, decks, lair and events
(cli/games/kards/render.py)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from cli.games.kards import render, screen
from cli.games.kards.help import RULES
from cli.inputs import BoardCursor, InputModel
from cli.plugin import Frame, GameUI
from cli.text import StyledLine, plain, seat_letter, wrap_text
from engine.core import Entry, GameState, Standing
from engine.kards.narrate import narrate
from engine.kards.state import KardsState

_STEP = re.compile(r"T([0-9]+)\.")


class KardsUI(GameUI):
    """The arena map as text in line mode; full screen, a compact map with a cursor that
    builds each move (cli/games/kards/screen.py)."""

    replay_unit = "turn"
    full_screen = True
    keys = screen.KEYS
    keys_help = screen.KEYS_HELP
    select_hint = "Build a move first (Space picks a cell, Tab cycles the moves), then Enter."
    styles: ClassVar[Mapping[str, str]] = {"kd.cursor": "reverse", "kd.pick": "bold underline"}

    def title(self, view: Any, width: int) -> list[StyledLine]:
        text = " Dungeons of Kards: " + render.headline(view, self.labels)
        return [plain(wrap_text(text, width=width - 1)[0], "class:title")]

    def board(self, view: Any, frame: Frame) -> list[StyledLine]:
        cursor = frame.inputs if isinstance(frame.inputs, BoardCursor) else None
        if screen.tall_enough(view, frame.width, frame.height):
            return screen.full_map(view, self.labels, cursor, frame.width)  # (every wall)
        return screen.board_lines(view, self.labels, cursor, frame.width)

    def choices_lines(self, state: GameState[Any], seat: int, view: Any) -> list[str]:
        """The characters to pick, each with its numbers and ability; else the moves."""
        lines = super().choices_lines(state, seat, view)
        if getattr(view, "phase", "") == "pick":
            picks = [render.character_card(a.args[0]) for a in view.legal if a.verb == "pick"]
            detail = [row for text in picks for row in wrap_text(f"  {text}", indent="      ")]
            lines = [*lines[:-1], *detail, lines[-1]]
        return lines

    def move_note(self, view: Any) -> str:
        return ": Space picks a cell, Tab cycles your moves"

    def inputs(self, state: GameState[Any], seat: int) -> InputModel:
        return screen.inputs(state.view(seat), self.choices(state, seat))

    def rules(self) -> str:
        return RULES + "\n\nThe map\n" + "\n".join(
            "  " + line for line in wrap_text(render.LEGEND, width=76))

    def table(self, view: Any) -> list[str]:
        return render.render_table(view, self.labels)

    def narrate(self, before: GameState[Any], entry: Entry | None,
                after: GameState[Any]) -> list[str]:
        assert isinstance(before, KardsState) and isinstance(after, KardsState)
        names = [f"{label} ({seat_letter(s)})" for s, label in enumerate(self.labels)]
        return [row for line in narrate(before, entry, after, names)
                for row in wrap_text(line, indent="  ")]

    def pause_after(self, before: GameState[Any], after: GameState[Any]) -> bool:
        assert isinstance(before, KardsState) and isinstance(after, KardsState)
        return after.turn != before.turn or after.is_over

    def departed_detail(self, standing: Standing) -> str:
        """A seat out before the end: its characters left the map, none was defeated."""
        return standing.detail.replace(" defeated", " off the map (out of the game)")

    def step_words(self, step: str) -> str:
        found = _STEP.match(step)
        return f"turn {found.group(1)}" if found else "the set-up"


UI = KardsUI

__all__ = ["UI"]

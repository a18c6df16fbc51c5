"""Dungeon Twister's client plug-in: its rules in short, its steps in words, and its table: the
board with walls, portcullises and tokens, each side's cards, the viewer's own face-down tokens
(cli/games/twister/render.py)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from cli.games.twister import render, screen
from cli.games.twister.help import RULES
from cli.inputs import BoardCursor, InputModel
from cli.plugin import Frame, GameUI
from cli.text import StyledLine, plain, wrap_text
from engine.core import Entry, GameState
from engine.twister.data import SIDE_NAME
from engine.twister.narrate import kind_words, narrate
from engine.twister.state import TwisterState

_STEP = re.compile(r"T([0-9]+)\.")


class TwisterUI(GameUI):
    """The board as text in line mode; full screen, a map with the room under the cursor drawn
    large, and a cursor that builds each move (cli/games/twister/screen.py)."""

    networked = ""  # (its tokens and teams travel as sealed values: protocol.md §7.11)
    replay_unit = "turn"
    full_screen = True
    keys = screen.KEYS
    keys_help = screen.KEYS_HELP
    select_hint = "Build a move first (Space picks, Tab cycles), then Enter."
    styles: ClassVar[Mapping[str, str]] = {"tw.cursor": "reverse", "tw.pick": "bold underline"}
    asked: tuple[GameState[Any], int] | None = None  # (the decision the keys answer)

    def title(self, view: Any, width: int) -> list[StyledLine]:
        side = f"you are {SIDE_NAME[view.seat]}" if view.seat >= 0 else "watching"
        text = f" Dungeon Twister, {side} (West CAPITALS, east small): {view.waiting}"
        return [plain(wrap_text(text, width=width - 1)[0], "class:title")]

    def board(self, view: Any, frame: Frame) -> list[StyledLine]:
        cursor = frame.inputs if isinstance(frame.inputs, BoardCursor) else None
        after = None
        if cursor is not None and self.asked is not None:
            after = screen.preview(*self.asked, cursor.draft())
        if frame.width >= screen.TALL[0] and frame.height >= screen.TALL[1]:
            return screen.full_board(view, cursor, after)  # (room for every wall)
        return screen.board_lines(view, self.labels, cursor, after)

    def move_note(self, view: Any) -> str:
        phase = getattr(view, "phase", "")
        note = screen.NOTES.get(phase, "")
        if phase in ("card", "combat"):
            playable = sorted({a.n for a in view.legal if a.kind == phase})
            note += f" ({', '.join(map(str, playable))} playable)"
        return note

    def inputs(self, state: GameState[Any], seat: int) -> InputModel:
        self.asked = (state, seat)
        return screen.inputs(state, seat, self.choices(state, seat))

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

    def narrate(self, before: GameState[Any], entry: Entry | None,
                after: GameState[Any]) -> list[str]:
        assert isinstance(before, TwisterState) and isinstance(after, TwisterState)
        return [row for line in narrate(before, entry, after, self.labels)
                for row in wrap_text(line, indent="  ")]

    def pause_after(self, before: GameState[Any], after: GameState[Any]) -> bool:
        assert isinstance(before, TwisterState) and isinstance(after, TwisterState)
        return after.turn != before.turn or after.is_over

    def own_move(self, text: str) -> list[str]:
        words = text.split()
        if words[:1] == ["place"] and len(words) == 3:
            return [f"(Only you know it: your {kind_words(words[2])} lies face down on slot "
                    f"{words[1]}.)"]
        if words[:1] == ["team"] and len(words) == 5:
            x = 0 if self.me in (0, None) else 21
            team = ", ".join(f"{kind_words(k)} on {x},{y}"
                             for k, y in zip(words[1:], (1, 3, 6, 8), strict=True))
            return wrap_text(f"(Only you know it until every token is placed: your team is "
                             f"{team}.)", indent="  ")
        return []

    def step_words(self, step: str) -> str:
        found = _STEP.match(step)
        return f"turn {found.group(1)}" if found else "the set-up"


UI = TwisterUI

__all__ = ["UI"]

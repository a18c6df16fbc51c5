"""Toy Grid's client plug-in, registered at run time: a cursor on the grid whose two picked
cells are the plan (select, then lock; Backspace takes a pick back), its grid drawn for the full
screen and said in words for line mode."""

from __future__ import annotations

from typing import Any, ClassVar

from cli.games import register
from cli.inputs import GridCursor, InputModel
from cli.plugin import Frame, GameUI
from cli.text import StyledLine, plain, plural, seat_letter, seat_name
from engine.core import GameState
from tests.cli.toygame.engine import BLOCKED, CELLS, COLUMNS, FREE, GAME, GridView, cell_name


def _view(view: Any) -> GridView:
    assert isinstance(view, GridView)
    return view


class GridUI(GameUI):
    full_screen = True
    keys: ClassVar[tuple[str, ...]] = GridCursor.keys
    keys_help = ("Keys (full screen)\n  arrows      move the cursor\n  Space       pick the cell "
                 "under it (two cells make a plan)\n  Backspace   take the last pick back\n"
                 "  Enter       lock the plan in      Esc  drop it")
    select_hint = "Pick two cells first (arrows, Space), then Enter."
    replay_unit = "round"

    def rules(self) -> str:
        return ("Every round each seat claims two free cells at once; a cell claimed by one "
                "seat alone\nbecomes its own. Most cells wins.")

    def _mark(self, owner: int) -> str:
        return "." if owner == FREE else "#" if owner == BLOCKED else seat_letter(owner)

    def table(self, view: Any) -> list[str]:
        v = _view(view)
        lines = [f"Round {v.round} of {v.rounds}."]
        for row in range(3):
            words = []
            for column in range(3):
                owner = v.owner[CELLS.index(cell_name(row, column))]
                what = ("free" if owner == FREE else "blocked" if owner == BLOCKED
                        else f"{self.labels[owner]}'s")
                words.append(f"{cell_name(row, column)} {what}")
            lines.append(f"  row {row + 1}: " + ", ".join(words))
        return lines

    def prompt(self, view: Any) -> str:
        return "your plan> "

    def title(self, view: Any, width: int) -> list[StyledLine]:
        v = _view(view)
        return [plain(f" Toy Grid: round {v.round} of {v.rounds}", "class:title")]

    def board(self, view: Any, frame: Frame) -> list[StyledLine]:
        v = _view(view)
        cursor = frame.inputs if isinstance(frame.inputs, GridCursor) else None
        lines = [plain("      " + "     ".join(COLUMNS))]
        for row in range(3):
            cells = []
            for column in range(3):
                name = cell_name(row, column)
                mark = self._mark(v.owner[CELLS.index(name)])
                if cursor is not None and name in cursor.parts:
                    mark = "*"
                at = cursor is not None and cursor.at == (row, column)
                cells.append(f"[ {mark} ]" if at else f"  {mark}  ")
            lines.append(plain(f"  {row + 1} " + " ".join(cells)))
        lines.append(plain(" " + "; ".join(
            f"{seat_name(s, self.labels, self.seating.name)}: "
            f"{plural(v.owner.count(s), 'cell')}, "
            f"{frame.live.status(s) or 'waiting'}" for s in range(v.players))))
        return lines

    def inputs(self, state: GameState[Any], seat: int) -> InputModel:
        return GridCursor(3, 3, cell_name, picks=2,
                          join=lambda parts: "claim " + " ".join(sorted(parts)))


register(GAME, GridUI)

"""Helpers for the games' full-screen tests: a frame with no live status, and driving a
:class:`~cli.inputs.BoardCursor` to a move the way a person does (arrows, Space, Tab)."""

from __future__ import annotations

from collections.abc import Callable

from cli.inputs import BoardCursor


class NoLive:
    """Every seat choosing, nobody away, no bot (a frame's live status in unit tests)."""

    def locked(self, seat: int) -> bool:
        return False

    def overdue(self, seat: int) -> bool:
        return False

    def bot(self, seat: int) -> bool:
        return False

    def status(self, seat: int) -> str:
        return ""


def walk_to(model: BoardCursor, row: int, column: int) -> None:
    """The arrows, one press at a time, until the cursor is on (row, column)."""
    for _ in range(model.rows + model.columns):
        r, c = model.at
        if (r, c) == (row, column):
            return
        key = ("down" if row > r else "up") if row != r else ("right" if column > c else "left")
        assert model.press(key) == ""
    assert model.at == (row, column)


def reach(model: BoardCursor, move: str, cell: Callable[[str], tuple[int, int]]) -> bool:
    """Pick each cell ``move`` touches with the cursor (``cell(name)`` -> (row, column)), then
    Tab until ``move`` is the draft; False if Tab never comes to it."""
    for cells in model.moves[move]:
        walk_to(model, *cell(sorted(cells)[0]))
        assert model.press("space") == "", (move, cells)
    for _ in range(len(model.moves) + 1):
        if model.draft() == move:
            return True
        model.press("tab")
    return False


def xy_cell(name: str) -> tuple[int, int]:
    """``x,y`` -> (row, column)."""
    x, y = (int(v) for v in name.split(","))
    return y, x


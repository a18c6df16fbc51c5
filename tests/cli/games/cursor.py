"""Helpers for the games' full-screen tests: a frame with no live status, driving a
:class:`~cli.inputs.BoardCursor` to a move the way a person does (arrows, Space, Tab), reading
whether a move is selected, and verifying the match file a test played."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from cli.inputs import BoardCursor
from tests.cli.test_command import ROOT


class NoLive:
    """Every seat choosing, nobody away, no bot (a frame's live status in unit tests)."""

    def locked(self, seat: int) -> bool:
        return False

    def overdue(self, seat: int) -> bool:
        return False

    def bot(self, seat: int) -> bool:
        return False

    def thinking(self, seat: int) -> bool:
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



def selected(text: str) -> bool:
    """The screen shows a whole move selected (the pick line, or the status line, which may
    wrap)."""
    text = " ".join(text.split())
    return "Selected: " in text or "selected, Enter locks" in text


def assert_verifies(path: Path) -> None:
    """``cryptcrawl verify PATH`` says VALID."""
    check = subprocess.run([sys.executable, "-m", "cli", "verify", str(path)], cwd=ROOT,
                           capture_output=True, text=True, timeout=120, check=False)
    assert check.returncode == 0 and "VALID" in check.stdout, check.stdout + check.stderr

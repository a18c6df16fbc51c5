"""A second game plugs into the client without touching a file of the program: Toy Grid
(tests/cli/toygame: an engine and a client plug-in registered at run time) played through
``cryptcrawl play`` — full screen on a pseudo-terminal with a cursor on the grid and a plan of
two picks (select, then lock; Backspace takes a pick back; the engine refuses a blocked cell),
and in line mode from standard input — each match file then verified."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from tests.cli.terminal import Terminal, terminal
from tests.cli.test_command import ROOT

__all__ = ["terminal"]

TOY = "tests.cli.toygame"


def toy(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``cryptcrawl ARGS`` with Toy Grid registered."""
    return subprocess.run([sys.executable, "-m", TOY, *args], input=stdin, text=True,
                          capture_output=True, cwd=ROOT, timeout=timeout, check=False)


def grid_rows(screen: str) -> list[str]:
    """The three rows of the grid as drawn ("  1 ...")."""
    return [row for row in screen.splitlines() if re.match(r"^  [123] ", row)]


def cells_marked(screen: str, mark: str) -> list[tuple[int, int]]:
    """(row, column) of every cell drawn with ``mark`` ("#" blocked, "." free)."""
    found = []
    for r, row in enumerate(grid_rows(screen)):
        for c in range(3):
            if mark in row[4 + 6 * c:4 + 6 * c + 5]:
                found.append((r, c))
    return found


def go_to(term: Terminal, at: tuple[int, int], where: tuple[int, int]) -> None:
    row, column = at
    keys = (b"\x1b[B" * (where[0] - row) if where[0] > row else b"\x1b[A" * (row - where[0]))
    keys += (b"\x1b[C" * (where[1] - column) if where[1] > column
             else b"\x1b[D" * (column - where[1]))
    for key in [keys[i:i + 3] for i in range(0, len(keys), 3)]:
        term.send(key)


def test_toy_grid_full_screen_select_undo_refuse_lock(terminal: Callable[..., Terminal],
                                                      tmp_path: Path) -> None:
    term = terminal(["play", "--game", "toy-grid", "--players", "2", "--data-dir",
                     str(tmp_path), "--timeouts", "60,60,60,40"], 80, 24, module=TOY)
    for round_ in (1, 2):
        screen = term.steady(lambda s, r=round_: f"round {r} of 2" in s and "YOUR MOVE" in s)
        assert screen.splitlines()[0].startswith(" Toy Grid: round")
        assert "arrows move" in screen and "Space pick" in screen and "q leave" in screen
        [blocked] = cells_marked(screen, "#")
        free = cells_marked(screen, ".")
        # Select a first cell, pick it twice (refused), take it back.
        start = free[0]
        go_to(term, (0, 0), start)
        term.send(b" ")
        term.steady("(and 1 more to choose)")
        term.send(b" ")
        term.steady("is picked already")
        term.send(b"\x7f")  # Backspace
        term.steady(lambda s: "more to choose" not in s and "Selected" not in s)
        term.send(b" ")
        term.steady("(and 1 more to choose)")
        # The blocked cell as the second pick: the engine refuses it, the pick is undone.
        if round_ == 1:
            go_to(term, start, blocked)
            term.send(b" ")
            screen = term.steady("is blocked")
            assert "(and 1 more to choose)" in screen, screen
            at = blocked
        else:
            at = start
        # A free cell instead: the plan is whole and selected; Enter locks it in.
        go_to(term, at, free[1])
        term.send(b" ")
        screen = term.steady("Selected: claim ")
        plan = re.search(r"Selected: (claim [a-c][1-3] [a-c][1-3])", screen)
        assert plan, screen
        term.send(b"\r")
        term.steady(lambda s: "Locked in:" in s or "round 2 of 2" in s or "is over" in s)
    screen = term.steady("The match is over")
    assert "Final standings" in screen and "The match file:" in screen
    term.send(b"q")
    assert term.finished() == 0, term.text()
    raw = term.raw.decode(errors="replace")
    files = re.findall(r"The match file: (\S+\.crawl)", raw)
    assert files, raw[-2000:]
    check = toy("verify", files[-1])
    assert check.returncode == 0 and "VALID" in check.stdout, check.stdout + check.stderr


def test_toy_grid_in_line_mode_from_standard_input(tmp_path: Path) -> None:
    """Every plan of two cells in turn: the illegal ones get a one-line reason and the next
    line is tried; ``rules`` and ``look`` answer in the game's words."""
    cells = [f"{c}{r}" for r in "123" for c in "abc"]
    plans = [f"claim {a} {b}" for i, a in enumerate(cells) for b in cells[i + 1:]]  # (all 36)
    lines = ["rules", "look", "claim a1", *plans * 2]
    result = toy("play", "--game", "toy-grid", "--players", "2", "--data-dir", str(tmp_path),
                 "--timeouts", "60,60,60,40", "--plain", stdin="".join(f"{x}\n" for x in lines))
    assert result.returncode == 0, result.stderr[-2000:]
    out = result.stdout
    assert out.startswith("Toy Grid, 2 players. Match ")
    assert "  row 1: a1 " in out and "your plan> rules" in out
    assert "Most cells wins." in out
    assert "unknown action 'claim a1' (write: claim a1 b2)" in out
    assert re.search(r"Round 1: .*\.", out) and "Final standings" in out
    found = re.search(r"The match file: (\S+\.crawl)", out)
    assert found
    check = toy("verify", found.group(1))
    assert check.returncode == 0, check.stdout


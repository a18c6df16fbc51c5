"""Input models: how the keys of one decision build a move, before it is locked in.

Every model builds text in the game's notation and nothing else: the full screen
(:mod:`cli.tui`) checks each whole draft with the engine (``parse_action`` and ``check``), shows
it as selected, and locks it in on Enter — select, then lock.  Until then the selection can
change, Backspace takes back the last part (:meth:`InputModel.undo`) and Esc drops it all.

* :class:`KeyChoice` — one key per move (a card in the hand);
* :class:`ListChoice` — a cursor on the list of legal moves (any game, from its notation);
* :class:`PlanBuilder` — a plan of several parts, each chosen from its own keys;
* :class:`GridCursor` — a cursor on a grid whose picked cells are the parts of a plan;
* :class:`BoardCursor` — a cursor on a board that narrows the legal moves by the squares each
  one touches (a piece, then its path or target), Tab cycling through those left;
* :class:`Typed` — a move typed in the game's notation (for decisions too large to list).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

MOVES = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


class InputModel:
    """One decision's keys (see the module).  :meth:`press` returns None for a key the model
    does not take, "" for a key taken, and a sentence for a key refused."""

    keys: tuple[str, ...] = ()
    hints: tuple[str, ...] = ()

    def press(self, key: str) -> str | None:
        return None

    def ready(self) -> bool:
        """The draft is a whole move (Enter may lock it in)."""
        return bool(self.draft())

    def draft(self) -> str:
        """The move built so far, in the game's notation, once it is whole ("" before)."""
        return ""

    def shown(self) -> str:
        """The selection in words, whole or not ("" for none)."""
        return self.draft()

    def undo(self) -> bool:
        """Take back the last part chosen; False if there was none."""
        return False

    def clear(self) -> None:
        """Drop the whole selection."""

    def snapshot(self) -> Any:
        """Everything the model holds, for :meth:`restore` (a refused key leaves no trace)."""
        return None

    def restore(self, saved: Any) -> None: ...


class KeyChoice(InputModel):
    """One key per move: ``choices`` maps a key to the move's text."""

    def __init__(self, choices: Mapping[str, str]) -> None:
        self.choices = dict(choices)
        self.keys = tuple(choices)
        self.choice = ""

    def press(self, key: str) -> str | None:
        if key not in self.choices:
            return None
        self.choice = self.choices[key]
        return ""

    def draft(self) -> str:
        return self.choice

    def undo(self) -> bool:
        had, self.choice = bool(self.choice), ""
        return had

    def clear(self) -> None:
        self.choice = ""

    def snapshot(self) -> Any:
        return self.choice

    def restore(self, saved: Any) -> None:
        self.choice = str(saved)


class ListChoice(InputModel):
    """Up and Down move a cursor over ``moves`` (each in the game's notation)."""

    keys = ("up", "down")
    hints = ("Up/Down choose",)

    def __init__(self, moves: Sequence[str]) -> None:
        self.moves = list(moves)
        self.index = -1  # nothing chosen yet

    def press(self, key: str) -> str | None:
        if key not in self.keys:
            return None
        if not self.moves:
            return "There is no move to choose from the list: type it in line mode (--plain)."
        step = 1 if key == "down" else -1
        self.index = (self.index + step) % len(self.moves) if self.index >= 0 else (
            0 if step > 0 else len(self.moves) - 1)
        return ""

    def draft(self) -> str:
        return self.moves[self.index] if self.index >= 0 else ""

    def undo(self) -> bool:
        had, self.index = self.index >= 0, -1
        return had

    def clear(self) -> None:
        self.index = -1

    def snapshot(self) -> Any:
        return self.index

    def restore(self, saved: Any) -> None:
        self.index = int(saved)


class _Parts(InputModel):
    """A plan of ``needed`` parts, joined into a move by ``join`` once all are chosen."""

    undo_hint = "Bksp undo"

    def __init__(self, needed: int, join: Callable[[Sequence[str]], str]) -> None:
        if needed < 1:
            raise ValueError("a plan has at least one part")
        self.needed = needed
        self.join = join
        self.parts: list[str] = []

    def ready(self) -> bool:
        return len(self.parts) == self.needed

    def draft(self) -> str:
        return self.join(self.parts) if self.ready() else ""

    def shown(self) -> str:
        if not self.parts or self.ready():
            return self.draft()
        left = self.needed - len(self.parts)
        return f"{', '.join(self.parts)} (and {left} more to choose)"

    def add(self, part: str) -> str:
        if self.ready():
            return "The plan is whole: Enter locks it in, Backspace takes a part back."
        self.parts.append(part)
        return ""

    def undo(self) -> bool:
        if not self.parts:
            return False
        self.parts.pop()
        return True

    def clear(self) -> None:
        self.parts.clear()


class PlanBuilder(_Parts):
    """A plan chosen part by part: the part at position ``i`` from the keys of ``steps[i]``
    (key -> part text)."""

    def __init__(self, steps: Sequence[Mapping[str, str]],
                 join: Callable[[Sequence[str]], str]) -> None:
        super().__init__(len(steps), join)
        self.steps = [dict(step) for step in steps]
        self.keys = tuple(dict.fromkeys(k for step in self.steps for k in step))
        self.hints = (self.undo_hint,)

    def press(self, key: str) -> str | None:
        if key not in self.keys:
            return None
        if self.ready():
            return self.add("")
        step = self.steps[len(self.parts)]
        if key not in step:
            return f"Not a choice for part {len(self.parts) + 1} of the plan."
        return self.add(step[key])

    def snapshot(self) -> Any:
        return tuple(self.parts)

    def restore(self, saved: Any) -> None:
        self.parts = list(saved)


class GridCursor(_Parts):
    """A cursor on a ``rows`` x ``columns`` grid: the arrows move it, Space picks the cell under
    it (named by ``cell(row, column)``) as the next of ``picks`` parts; a cell is picked once."""

    keys = ("up", "down", "left", "right", "space")
    hints = ("arrows move", "Space pick", _Parts.undo_hint)

    def __init__(self, rows: int, columns: int, cell: Callable[[int, int], str], *,
                 picks: int = 1, join: Callable[[Sequence[str]], str] = " ".join,
                 start: tuple[int, int] = (0, 0)) -> None:
        super().__init__(picks, join)
        self.rows, self.columns = rows, columns
        self.cell = cell
        self.at = start

    def press(self, key: str) -> str | None:
        if key in MOVES:
            dr, dc = MOVES[key]
            row, column = self.at
            self.at = (min(self.rows - 1, max(0, row + dr)),
                       min(self.columns - 1, max(0, column + dc)))
            return ""
        if key != "space":
            return None
        name = self.cell(*self.at)
        if name in self.parts:
            return f"{name} is picked already (Backspace takes the last pick back)."
        return self.add(name)

    def snapshot(self) -> Any:
        return tuple(self.parts), self.at

    def restore(self, saved: Any) -> None:
        parts, self.at = saved
        self.parts = list(parts)


Touches = tuple[frozenset[str], ...]
"""The squares a move touches, in order: at each position, the cells a pick there may be (a
path's square is one cell; an area is several)."""


class BoardCursor(InputModel):
    """A cursor on a ``rows`` x ``columns`` board over the legal ``moves``: the arrows move it,
    Space picks the cell under it (named by ``cell(row, column)``; None: off the board), and the
    moves left are those whose ``touches`` begin with the picks — a piece first, then its path
    square by square, or its target.  Tab (Shift-Tab back) cycles through the moves left, which
    are previewed one at a time; the draft is the one cycled to, or the only move whose touches
    the picks complete.  A pick no move makes is refused; Backspace takes the last part back
    (the cycled move, then the picks one by one)."""

    keys = ("up", "down", "left", "right", "space", "tab", "s-tab")
    hints = ("arrows move", "Space pick", "Tab next move", "Bksp undo")

    def __init__(self, rows: int, columns: int, cell: Callable[[int, int], str | None],
                 moves: Mapping[str, Touches], *, start: tuple[int, int] = (0, 0)) -> None:
        self.rows, self.columns = rows, columns
        self.cell = cell
        self.moves = dict(moves)
        self.at = start
        self.picks: list[str] = []
        self.index = -1  # the move cycled to among those left (-1: none)

    def left(self) -> list[str]:
        """The moves the picks allow: those the picks complete first, then the longer ones."""
        n = len(self.picks)
        fits = [m for m, touches in self.moves.items() if len(touches) >= n and all(
            pick in touches[i] for i, pick in enumerate(self.picks))]
        return sorted(fits, key=lambda m: len(self.moves[m]) != n)

    def press(self, key: str) -> str | None:
        if key in MOVES:
            dr, dc = MOVES[key]
            row, column = self.at
            self.at = (min(self.rows - 1, max(0, row + dr)),
                       min(self.columns - 1, max(0, column + dc)))
            return ""
        if key in ("tab", "s-tab"):
            left = self.left()
            if not left:
                return "No move is left with these picks: Backspace takes one back."
            step = 1 if key == "tab" else -1
            self.index = (self.index + step) % len(left) if self.index >= 0 else (
                0 if step > 0 else len(left) - 1)
            return ""
        if key != "space":
            return None
        name = self.cell(*self.at)
        if name is None:
            return "Not a square of the board."
        n = len(self.picks)
        if not any(len(t) > n and name in t[n] and all(
                p in t[i] for i, p in enumerate(self.picks)) for t in self.moves.values()):
            what = "starts there" if not self.picks else "goes on there"
            return f"No move of yours {what} ({name}); Tab shows the moves left."
        self.picks.append(name)
        self.index = -1
        return ""

    def marked(self) -> set[str]:
        """The cells to show as chosen: the picks, and every square of the draft's path."""
        cells = set(self.picks)
        draft = self.draft()
        if draft:
            cells |= {name for at in self.moves[draft] if len(at) == 1 for name in at}
        return cells

    def draft(self) -> str:
        left = self.left()
        if 0 <= self.index < len(left):
            return left[self.index]
        whole = [m for m in left if len(self.moves[m]) == len(self.picks)]
        return whole[0] if len(whole) == 1 and self.picks else ""

    def shown(self) -> str:
        if self.draft() or not self.picks:
            return self.draft()
        return (f"{' '.join(self.picks)} (and more: Space picks on, Tab shows the "
                f"{len(self.left())} moves left)")

    def undo(self) -> bool:
        if self.index >= 0:
            self.index = -1
            return True
        if not self.picks:
            return False
        self.picks.pop()
        return True

    def clear(self) -> None:
        self.picks.clear()
        self.index = -1

    def snapshot(self) -> Any:
        return tuple(self.picks), self.index, self.at

    def restore(self, saved: Any) -> None:
        picks, self.index, self.at = saved
        self.picks = list(picks)


class Typed(InputModel):
    """A move typed in the game's notation: every printable key adds to it, Backspace takes
    the last character back; the whole text is the draft (the engine checks it on Enter)."""

    hints = ("type the move", "Bksp erase")
    takes_text = True
    """The full screen hands this model every printable key (q, ? and the rest included)."""

    def __init__(self, start: str = "") -> None:
        self.text = start

    def press(self, key: str) -> str | None:
        if len(key) != 1 and key != "space":
            return None
        self.text += " " if key == "space" else key
        return ""

    def ready(self) -> bool:
        return bool(self.text.strip())

    def draft(self) -> str:
        return " ".join(self.text.split())

    def shown(self) -> str:
        return self.text + "_"

    def undo(self) -> bool:
        had, self.text = bool(self.text), self.text[:-1]
        return had

    def clear(self) -> None:
        self.text = ""

    def snapshot(self) -> Any:
        return self.text

    def restore(self, saved: Any) -> None:
        self.text = str(saved)

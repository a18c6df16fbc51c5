"""Dungeons of Kards told in words (the log, ``replay``, ``spectate`` and ``export`` of the
client): one public change of the state at a time.

The engine keeps a public log of its own (``state.log``, the last 40 lines, part of the public
state); a change's lines are exactly those the change adds.  They are found by playing the
change's history entry again on the state before with its log emptied — so a long match is
told whole, never cut where the log's window ends — then put in the words of the table: a seat
by its player's name, no internal notes (a reconstructed row of the events table, a recovery
of 0 life).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from engine.core import Acted, EngineError, Entry, apply_entry
from engine.kards.cards import display
from engine.kards.state import KardsState

_SEAT: Final = re.compile(r"\bseat (\d+)\b")
_DROPPED: Final = re.compile(r" recovers 0 life ")
_NOTES: Final = (" (a reconstructed row)",)
_RESIGNS: Final = re.compile(r"seat \d+ resigns$")
_ROUTINE: Final = ("end", "equip done")  # (made at once all the time: no news)


def added_lines(before: KardsState, entry: Entry | None, after: KardsState) -> list[str]:
    """The lines of the engine's log the change adds."""
    return _added(before, entry, after)[0]


def _added(before: KardsState, entry: Entry | None, after: KardsState
           ) -> tuple[list[str], tuple[tuple[int, str], ...]]:
    """The lines of the engine's log the change adds, and the decisions it made at once
    (each the only legal one: ``KardsState.auto``)."""
    if entry is not None:
        empty = before._copy()
        empty.log = ()
        try:
            again = apply_entry(empty, entry)
        except EngineError:
            again = None
        if isinstance(again, KardsState):
            return list(again.log), again.auto
    old, new = before.log, after.log
    for cut in range(len(old) + 1):
        kept = old[cut:]
        if new[:len(kept)] == kept:
            return list(new[len(kept):]), after.auto
    return list(new), after.auto


def in_words(line: str, names: Sequence[str]) -> str:
    """A line of the engine's log in the table's words."""
    for note in _NOTES:
        line = line.replace(note, "")

    def name(found: re.Match[str]) -> str:
        seat = int(found.group(1))
        return names[seat] if 0 <= seat < len(names) else found.group(0)

    line = _SEAT.sub(name, line)
    return line[:1].upper() + line[1:]


def narrate(before: KardsState, entry: Entry | None, after: KardsState,
            names: Sequence[str] = ()) -> list[str]:
    """One change, in words (see the module); a decision the engine's log does not tell is
    told as the decision itself."""
    lines = []
    leaving = False  # (after a resignation, its characters leave the map: none is defeated)
    added, auto = _added(before, entry, after)
    for line in added:
        if _DROPPED.search(line):
            continue
        if _RESIGNS.match(line):  # (a resignation, a forfeit, a seat that left: all alike)
            leaving = True
            line = line.replace(" resigns", " is out of the game")
        elif leaving and " is defeated" in line and " is defeated by " not in line:
            line = line.replace(" is defeated", " leaves the map with its seat", 1)
        else:
            leaving = False
        lines.append(in_words(line, names) + ("" if line.endswith((".", ":", "!")) else "."))
    auto = tuple((seat, text) for seat, text in auto if text not in _ROUTINE)
    if auto:
        made = "; ".join(f"{in_words(f'seat {seat}', names)} {text}" for seat, text in auto)
        lines.append(f"(Made at once, as the only move there was: {made}.)")
    if not lines and isinstance(entry, Acted):
        who = before.spectator_view().deciding
        lines.append(f"{display(who) if who else in_words(f'seat {entry.seat}', names)} "
                     f"chooses: {entry.action}.")
    return lines


__all__ = ["added_lines", "in_words", "narrate"]

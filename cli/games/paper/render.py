"""Paper Dungeons' table as text: your dungeon sheet — the 6 × 7 grid with its walls, water, side
passages, lairs, minions, gems and pickups, where your party is and the rooms it explored — then
your heroes, HP, potions, gems, minions and items, the round, the dice, the villains and
missions, your dealt cards, and every other seat in one line.

Every character is ASCII and nothing depends on colour (NO_COLOR, screen readers): white dice
are W1–W3 and black dice B4–B6.  A spectator's table has no sheet of its own: every seat's line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from cli.text import wrap_text
from engine.paper.data import (
    COLUMNS,
    GRID,
    HEROES,
    ITEMS,
    LETTERS,
    MISSIONS,
    OBJECTIVES,
    POTIONS_MAX,
    POWERS,
    ROOM_NAMES,
    ROWS,
    VILLAINS,
)
from engine.paper.sheet import BOARDS, WALL, WATER_EDGE, Board, Sheet, edge_kind

MINION_CODE: Final = {"ghost": "Gh", "goblin": "Go", "orc": "Or", "zombie": "Zo"}
CELL: Final = 9  # characters per room: party/explored mark, lair digit, then what the room holds
SEASONS: Final = ("I", "II", "III")
PASSAGE_ROWS: Final = (2, 4)  # rows whose A and F rooms are joined by a side passage
LEGEND: Final = (
    "The sheet: rows 7 (top) to 1, columns A-F; a room is named by both (C4).  In a room: @ your "
    "party, * explored; 1-3 a lair of that season; Gh ghost, Go goblin, Or orc, Zo zombie with "
    "its level (x once defeated); a gem letter (+ yours, - crossed out); t trap, p1/p2 "
    "one or two potions to collect, i item, e evolution.  A potion holds two hearts; a heart "
    "used absorbs 1 damage.  Between rooms: | and --- walls, ~ water, : and blanks open; "
    "= a side passage (A2-F2, A4-F4).  Dice: W1-W3 white, B4-B6 black."
)
HINT: Final = "@ your party, * explored, 1-3 lairs; ? explains every sign."


def _mask(mask: int, names: Sequence[str]) -> list[str]:
    return [name for i, name in enumerate(names) if mask >> i & 1]


def cell_text(sheet: Sheet | None, board: Board | None, i: int) -> str:
    room = GRID[i]
    mark = " "
    if sheet is not None:
        if sheet.room == i:
            mark = "@"
        elif sheet.explored >> i & 1:
            mark = "*"
    lair = str(board.lairs.index(i) + 1) if board is not None and i in board.lairs else " "
    parts = []
    if room.minion:
        beaten = sheet is not None and sheet.minions >> i & 1
        parts.append(MINION_CODE[room.minion] + ("x" if beaten else str(room.level)))
    if room.gem:
        bit = 1 << LETTERS.index(room.gem)
        mine = sheet is not None and sheet.letters & bit
        crossed = sheet is not None and sheet.crossed & bit
        parts.append(room.gem + ("+" if mine else "-" if crossed else ""))
    if room.trap:
        parts.append("t")
    if room.potions:
        parts.append(f"p{room.potions}")
    if room.item:
        parts.append("i")
    if room.evo:
        parts.append("e")
    return (mark + lair + " " + " ".join(parts))[:CELL].ljust(CELL)


def _index(column: int, row: int) -> int:
    return column + 6 * (row - 1)


def render_grid(sheet: Sheet | None, board: Board | None) -> list[str]:
    """The sheet's grid, row 7 at the top (``sheet`` None: the printed sheet alone)."""

    def edge(a: int, b: int, wall: str, water: str, open_: str) -> str:
        if board is None:
            return open_
        kind = edge_kind(board, a, b)
        return wall if kind == WALL else water if kind == WATER_EDGE else open_

    lines = ["   " + "".join(f"{c:^{CELL + 1}}" for c in COLUMNS).rstrip()]
    top = "   +" + "+".join("-" * CELL for _ in COLUMNS) + "+"
    lines.append(top)
    for row in range(ROWS, 0, -1):
        side = "=" if row in PASSAGE_ROWS else "|"
        text = f"{row:>2} {side}"
        for c in range(6):
            text += cell_text(sheet, board, _index(c, row))
            if c < 5:
                text += edge(_index(c, row), _index(c + 1, row), "|", "~", ":")
        lines.append(text + side)
        if row > 1:
            below = [edge(_index(c, row), _index(c, row - 1), "-" * CELL, "~" * CELL, " " * CELL)
                     for c in range(6)]
            lines.append("   +" + "+".join(below) + "+")
    lines.append(top)
    return lines


def card_text(card: str) -> str:
    """A dealt card in words: a power is its name; an objective its id, what it counts, its
    tiers and the training styles it sets (``O9 rooms explored 20/25/30, styles B/W/B/W``)."""
    objective = OBJECTIVES.get(card)
    if objective is None:
        power = POWERS.get(card)
        return f"{card} ({power.text})" if power is not None else card
    tiers = "/".join(map(str, objective.tiers))
    return f"{card} ({objective.text} {tiers}; styles {'/'.join(objective.styles)})"


def dice_text(roll: Sequence[str]) -> str:
    """``W1 skull, W2 warrior, ... B6 boots``."""
    return ", ".join(f"{'W' if d <= 3 else 'B'}{d} {face}" for d, face in enumerate(roll, 1))


def heroes_text(sheet: Sheet) -> str:
    styles = sheet.styles or "????"
    return "Heroes: " + ", ".join(
        f"{hero} {level}" + (f" ({'black' if style == 'B' else 'white'} dice)"
                             if style in "BW" else "")
        for hero, level, style in zip(HEROES, sheet.levels, styles, strict=True))


def sheet_lines(seat_view: Any) -> list[str]:
    """One seat's numbers: HP, potions, gems, minions, items, villains fought, missions."""
    sheet: Sheet = seat_view.sheet
    lines = wrap_text(heroes_text(sheet) + ".")
    letters = " ".join(_mask(sheet.letters, LETTERS))
    lines += wrap_text(
        f"HP {seat_view.hp} (damage {sheet.damage}{', resurrected' if sheet.resurrected else ''})"
        f"; potions {sheet.potions} of {POTIONS_MAX}, hearts used {sheet.hearts}; gems "
        f"{seat_view.gem_track}" + (f" ({letters})" if letters else "")
        + f"; minions {seat_view.minion_track}; rooms explored {seat_view.explored}; traps "
        f"{sheet.traps}.")
    items = [f"{name.replace('_', ' ')} {boxes}/2"
             for name, boxes in zip(ITEMS, sheet.items, strict=True) if boxes]
    if items:
        lines += wrap_text("Items: " + ", ".join(items) + ".")
    fought = [f"{SEASONS[k]} {glory:+d}" for k, glory in enumerate(sheet.villains)
              if glory is not None]
    if fought:
        lines.append("Villains fought: " + ", ".join(fought) + " glory.")
    if sheet.missions:
        lines.append("Missions scored: " + ", ".join(f"{m} {g:+d}" for m, g in sheet.missions)
                     + ".")
    return lines


def seat_sheet(view: Any, seat_view: Any, label: str) -> list[str]:
    """Another seat's sheet in full (line mode's ``sheet B``): its grid, then its numbers."""
    board = BOARDS[view.dungeon] if view.dungeon else None
    lines = wrap_text(seat_line(seat_view, label))
    lines += render_grid(seat_view.sheet, board)
    return lines + sheet_lines(seat_view)


def seat_line(seat_view: Any, label: str) -> str:
    """Another seat in one line."""
    sheet: Sheet = seat_view.sheet
    where = f"in {ROOM_NAMES[sheet.room]}" if sheet.room >= 0 else "not in the dungeon yet"
    lairs = sum(seat_view.lairs)
    text = (f"{label}: {seat_view.status}; HP {seat_view.hp}, gems {seat_view.gem_track}, "
            f"minions {seat_view.minion_track}, explored {seat_view.explored}, {where}, "
            f"lairs {lairs}/3, glory now {seat_view.score.total}")
    if sheet.power:
        text += f"; power {sheet.power}"
    if seat_view.objective:
        text += f"; objective {seat_view.objective}"
    if seat_view.plan:
        text += f"; last plan: {seat_view.plan}"
    return text + "."


def render_table(view: Any, labels: Sequence[str]) -> list[str]:
    """Everything the viewer needs to decide (line mode)."""
    board = BOARDS[view.dungeon] if view.dungeon else None
    lines = []
    head = f"Round {max(1, view.round)} of 8, season {SEASONS[max(1, view.season) - 1]}"
    if view.dungeon:
        villains = ", ".join(f"{SEASONS[k]} {VILLAINS[v].name}"
                             for k, v in enumerate(view.villains))
        head += (f"; dungeon card {view.dungeon}, lairs "
                 + ", ".join(f"{room} ({SEASONS[k]})" for k, room in enumerate(view.lairs))
                 + f"; villains {villains}")
    lines += wrap_text(head + ".")
    if view.roll:
        lines += wrap_text("Dice: " + dice_text(view.roll) + ".")
    me = view.seats[view.seat] if view.seat is not None else None
    if me is not None:
        lines += render_grid(me.sheet, board)
        lines.append(HINT)
        lines += sheet_lines(me)
        if me.sheet.power:
            lines.append(f"Your power: {me.sheet.power}.")
        dealt = [c for c in (*view.powers, *view.objectives) if c]
        kept = {me.sheet.power, view.objective} - {""}
        if dealt and len(kept) < 2:
            lines += wrap_text("Dealt to you (only you see them until they are shown): "
                               + ", ".join(map(card_text, dealt)) + ".")
            lines += wrap_text("Styles: which dice train each hero, warrior/wizard/cleric/rogue "
                               "in that order, B black or W white (an objective's styles score "
                               "it best).")
        elif dealt:
            lines += wrap_text("You discarded (shown to all at the end): "
                               + ", ".join(c for c in dealt if c not in kept) + ".")
        if view.objective:
            lines += wrap_text(f"Your objective: {card_text(view.objective)}; only you know it "
                               "until the end.")
    if view.open_missions:
        lines += wrap_text("Missions open: " + "; ".join(
            f"{m} {MISSIONS[m].text}" for m in view.open_missions) + ".")
    others = [s for s in view.seats if me is None or s.seat != me.seat]
    if others:
        lines.append("Other seats (sheet B shows B's sheet in full):" if me is not None else
                     "Seats (sheet B shows B's sheet in full):")
    for seat_view in others:
        lines += wrap_text(seat_line(seat_view, labels[seat_view.seat]), indent="  ")
    if view.result:
        lines += wrap_text(view.result[:1].upper() + view.result[1:] + ".")
    return lines

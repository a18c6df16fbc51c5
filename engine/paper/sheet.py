"""One player's sheet (rules reference §2.3), and the dungeon it is drawn on.

A :class:`Sheet` is immutable and public: everything on it follows from public events (the
rolls, the revealed plans, the revealed setup choices).  Derived numbers (HP, the gem track,
the minion track, the lairs reached) are computed from it, never stored twice: the gem track
is the lettered gems collected plus extra gem #1 (the rogue at level 4 or more) and extra gem
#2 (the 12th potion).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from engine.paper.data import (
    CORNERS,
    DUNGEONS,
    EDGE_ROOMS,
    GRID,
    HEROES,
    MINION_ROOMS,
    POTIONS_MAX,
    PRINTED_WALLS,
    ROGUE,
    ROOM_COUNT,
    ROWS,
    WATER,
    neighbours,
)

OPEN: Final = 0
WALL: Final = 1
WATER_EDGE: Final = 2


class Board(NamedTuple):
    """The dungeon of one dungeon card: per room, its steps ``(room, edge kind)``, and the
    rooms of its three lairs."""

    letter: str
    steps: tuple[tuple[tuple[int, int], ...], ...]
    lairs: tuple[int, int, int]
    lair_mask: int


def _board(letter: str) -> Board:
    card = DUNGEONS[letter]
    walls = PRINTED_WALLS | card.walls
    steps = []
    for i in range(ROOM_COUNT):
        out = []
        for j in neighbours(i):
            edge = (min(i, j), max(i, j))
            kind = WALL if edge in walls else WATER_EDGE if edge in WATER else OPEN
            out.append((j, kind))
        steps.append(tuple(out))
    mask = 0
    for r in card.lairs:
        mask |= 1 << r
    return Board(letter, tuple(steps), card.lairs, mask)


BOARDS: Final = {letter: _board(letter) for letter in DUNGEONS}


def edge_kind(board: Board, a: int, b: int) -> int:
    """The kind of the edge a step from room ``a`` to room ``b`` crosses; -1 if none."""
    for j, kind in board.steps[a]:
        if j == b:
            return kind
    return -1


class Sheet(NamedTuple):
    """A player's sheet.  Bit masks are over rooms (``1 << room``) or gem letters
    (``1 << index in "ABCDEFGH"``)."""

    levels: tuple[int, int, int, int]  # warrior, wizard, cleric, rogue: 1..6
    styles: str  # "BWWB" (B = trains with black dice); "" before setup
    power: str  # the kept power ("" before setup)
    damage: int  # direct damage (the damage column)
    resurrected: bool
    potions: int  # potion circles filled, 0..12
    hearts: int  # hearts used, 0..2 * potions
    letters: int  # lettered gems collected
    crossed: int  # lettered gems crossed out on this sheet
    minions: int  # rooms whose minion is defeated
    items: tuple[int, ...]  # boxes filled per item, 0..2
    room: int  # where the party is; -1 before its first move
    explored: int  # rooms entered at least once
    traps: int  # trap triggers (re-entries count)
    crossings: int  # steps across a wall or water
    villains: tuple[int | None, int | None, int | None]  # glory of each season's fight
    missions: tuple[tuple[str, int], ...]  # missions scored: (id, glory)
    rounds: tuple[str, ...]  # the round counter: the dice used each round, sorted ("245")
    resigned: bool


NEW_SHEET: Final = Sheet((1, 1, 1, 1), "", "", 0, False, 0, 0, 0, 0, 0, (0,) * 8, -1, 0, 0, 0,
                         (None, None, None), (), (), False)


def hp(s: Sheet) -> int:
    lv = s.levels
    return lv[0] + lv[1] + lv[2] + lv[3]


def gems(s: Sheet) -> int:
    """The filled circles of the gem track."""
    return s.letters.bit_count() + (s.levels[ROGUE] >= 4) + (s.potions >= POTIONS_MAX)


def track(s: Sheet) -> int:
    """The filled boxes of the minions-defeated track."""
    return s.minions.bit_count()


def lairs_reached(s: Sheet, board: Board) -> tuple[bool, bool, bool]:
    e = s.explored
    a, b, c = board.lairs
    return (bool(e >> a & 1), bool(e >> b & 1), bool(e >> c & 1))


def explored_count(s: Sheet) -> int:
    return s.explored.bit_count()


def items_done(s: Sheet) -> int:
    return sum(1 for b in s.items if b == 2)


def free_hearts(s: Sheet) -> int:
    return 2 * s.potions - s.hearts


def rooms_of(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(ROOM_COUNT) if mask >> i & 1)


def minions_of_level(s: Sheet, level: int) -> int:
    return sum(1 for r in MINION_ROOMS if s.minions >> r & 1 and GRID[r].level == level)


def full_rows(s: Sheet) -> int:
    row = 0b111111
    return sum(1 for k in range(ROWS) if s.explored >> (6 * k) & row == row)


def _column_counts(s: Sheet) -> list[int]:
    counts = [0] * 6
    for i in range(ROOM_COUNT):
        if s.explored >> i & 1:
            counts[i % 6] += 1
    return counts


def full_columns(s: Sheet) -> int:
    return sum(1 for c in _column_counts(s) if c == ROWS)


def columns_with(s: Sheet, at_least: int) -> int:
    return sum(1 for c in _column_counts(s) if c >= at_least)


def corners(s: Sheet) -> int:
    return sum(1 for r in CORNERS if s.explored >> r & 1)


def edges(s: Sheet) -> int:
    return sum(1 for r in EDGE_ROOMS if s.explored >> r & 1)


def heroes_at(s: Sheet, level: int) -> int:
    return sum(1 for v in s.levels if v >= level)


def describe_levels(s: Sheet) -> str:
    return ", ".join(f"{h} {v}" for h, v in zip(HEROES, s.levels, strict=True))

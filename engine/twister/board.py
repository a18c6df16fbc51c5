"""The board's geometry for one arrangement of rooms and portcullis states.

A :class:`Board` is derived from the face-up rooms (room and orientation per slot) and the
portcullis states; it is memoised, because most states share their arrangement with the one
before.  It answers, per square and direction: the connected neighbour (§0 "connected", R33: a
boundary blocks if either side has a wall or a closed portcullis; face-down slots and the edge of
the grid block everything), the square beyond a wall (the Wall-Walker, A21), and the side code
(for direct access, §5.1, and the portcullis abilities).  Line of sight (§6.6) stops exactly where
connection does, so it uses the same table.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from engine.twister.data import HEIGHT, SQUARES, WIDTH, local_of, slot_of
from engine.twister.rooms import DX, DY, OPEN, PLACED, WALL

CLOSED: Final = 0
RAISED: Final = 1  # an open portcullis
BROKEN: Final = 2
GATE_STATES: Final = ("closed", "open", "broken")

FACE_DOWN: Final = -1  # the kind of a square in a face-down slot
LINE: Final = 3  # the kind of a starting-line square (it behaves as floor)

Rooms = tuple[tuple[str, int] | None, ...]  # per slot: (room id, orientation), None face down
Gates = tuple[tuple[int, ...], ...]  # per slot: the state of each portcullis of its room


class Board(NamedTuple):
    kinds: tuple[int, ...]  # per square: FLOOR / PIT / GEAR / LINE, or FACE_DOWN
    links: tuple[int, ...]  # per square * 4 + direction: the connected neighbour, or -1
    walls: tuple[int, ...]  # per square * 4 + direction: the square beyond a wall, or -1
    sides: tuple[int, ...]  # per square * 4 + direction: the side code (OPEN, WALL, gate index)


def _neighbour(sq: int, d: int) -> int:
    x, y = sq % WIDTH + DX[d], sq // WIDTH + DY[d]
    if 0 <= x < WIDTH and 0 <= y < HEIGHT:
        return y * WIDTH + x
    return -1


NEIGHBOURS: Final = tuple(_neighbour(sq, d) for sq in range(SQUARES) for d in range(4))
_SLOT: Final = tuple(slot_of(sq) for sq in range(SQUARES))
_LOCAL: Final = tuple(local_of(sq) if slot_of(sq) >= 0 else -1 for sq in range(SQUARES))


def _build(rooms: Rooms, gates: Gates) -> Board:
    kinds = [0] * SQUARES
    sides = [OPEN] * (SQUARES * 4)
    for sq in range(SQUARES):
        slot = _SLOT[sq]
        if slot < 0:
            kinds[sq] = LINE
            continue
        placed = rooms[slot]
        if placed is None:
            kinds[sq] = FACE_DOWN
            continue
        table = PLACED[placed]
        local = _LOCAL[sq]
        kinds[sq] = table.kinds[local]
        s = table.sides[local]
        base = sq * 4
        sides[base], sides[base + 1], sides[base + 2], sides[base + 3] = s
    links = [-1] * (SQUARES * 4)
    walls = [-1] * (SQUARES * 4)
    for sq in range(SQUARES):
        if kinds[sq] == FACE_DOWN:
            continue
        for d in range(4):
            other = NEIGHBOURS[sq * 4 + d]
            if other < 0 or kinds[other] == FACE_DOWN:
                continue
            mine = sides[sq * 4 + d]
            theirs = sides[other * 4 + (d + 2) % 4]
            if mine >= 0 or theirs >= 0:  # a portcullis (always inside one room)
                code = mine if mine >= 0 else theirs
                if gates[_SLOT[sq] if mine >= 0 else _SLOT[other]][code] != CLOSED:
                    links[sq * 4 + d] = other
                continue
            if mine == WALL or theirs == WALL:
                walls[sq * 4 + d] = other
                continue
            links[sq * 4 + d] = other
    return Board(tuple(kinds), tuple(links), tuple(walls), tuple(sides))


_CACHE: dict[tuple[Rooms, Gates], Board] = {}


def board_for(rooms: Rooms, gates: Gates) -> Board:
    """The (memoised) board of an arrangement."""
    key = (rooms, gates)
    board = _CACHE.get(key)
    if board is None:
        if len(_CACHE) > 2048:
            _CACHE.clear()
        board = _CACHE[key] = _build(rooms, gates)
    return board

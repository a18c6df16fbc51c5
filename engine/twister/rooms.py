"""The content pack: the eight original rooms of rules/dungeon-twister.md §10.4, as data.

A room is printed in orientation 0: rows r = 1..5 from the north, columns c = 1..5 from the west.
Each square code is a type letter (``F`` floor, ``P`` pit, ``G`` gear) followed by its closed
sides in the order n, e, s, w: a lowercase letter is a wall, an uppercase one a portcullis
(closed at the start).  Interior walls and portcullises are listed on both squares they separate;
a border wall only on its own room's square.

Orientation o is the number of clockwise quarter turns from the printed room.  One clockwise
quarter turn sends (r, c) to (c, 6 - r) and turns sides n -> e -> s -> w -> n; a counter-clockwise
one sends (r, c) to (6 - c, r).  :data:`PLACED` holds, per (room, orientation), every square's type
and its sides in board directions, so the rules never rotate anything at run time.
"""

from __future__ import annotations

import json
from typing import Final, NamedTuple

ROOMS_JSON: Final = """
{"format": "cryptcrawl-dt-rooms/1",
 "rooms": [
  {"id": "1A", "name": "Crossways", "pair": 1, "colour": "amber", "turns": "cw",
   "rows": ["Fnw Fe Fnw Fs Fne",
            "Fe Psw F Gne Fsw",
            "Fs Fn F Fs FnS",
            "Fnw FeS Fw Pne FNew",
            "Fsw FN Fe Few Fsw"],
   "check": {"pits": 2, "portcullises": 2, "interior_walls": 12, "border_walls": 10,
             "gear": [2, 4]}},
  {"id": "1B", "name": "Ring", "pair": 1, "colour": "amber", "turns": "ccw",
   "rows": ["F Fns Fe Fnsw F",
            "Fe Fnw Fs Fne Pw",
            "FEw FW Gn Fe Few",
            "Pe Fsw Fs FEs FW",
            "Fs Fne Fnw Fn F"],
   "check": {"pits": 2, "portcullises": 2, "interior_walls": 12, "border_walls": 5,
             "gear": [3, 3]}},
  {"id": "2A", "name": "Stairs", "pair": 2, "colour": "violet", "turns": "cw",
   "rows": ["Fnw Fne Fsw F Fs",
            "Fes Fw Fne Psw Fne",
            "Fn Fes Fw FnE FW",
            "Fe Pnw Fes Gw Fes",
            "Fw F Fns FE FnW"],
   "check": {"pits": 2, "portcullises": 2, "interior_walls": 13, "border_walls": 7,
             "gear": [4, 4]}},
  {"id": "2B", "name": "Comb", "pair": 2, "colour": "violet", "turns": "ccw",
   "rows": ["Fe Fnw Fe Fnw F",
            "Fe Few Pew Few Fw",
            "Fw Fes FEw FeW Gew",
            "FE FnW FEs FeW Fsw",
            "Fs Fe Fnw Ps Fn"],
   "check": {"pits": 2, "portcullises": 3, "interior_walls": 13, "border_walls": 6,
             "gear": [3, 5]}},
  {"id": "3A", "name": "Chasm", "pair": 3, "colour": "jade", "turns": "cw",
   "rows": ["Fs Fns Fe Fw Fne",
            "Fne Fnw Fs Fes Fw",
            "P Fe Pnw Gn P",
            "Fe FSw Fe Few Fsw",
            "Fw FNs FE FW Fn"],
   "check": {"pits": 3, "portcullises": 2, "interior_walls": 12, "border_walls": 5,
             "gear": [3, 4]}},
  {"id": "3B", "name": "Four Cells", "pair": 3, "colour": "jade", "turns": "ccw",
   "rows": ["Fnw Fe Fnw Fn F",
            "Fs GEs FeW Fsw Fes",
            "Fns Pns F Pns Fns",
            "Fnw Fn FE FnW Fn",
            "Fs Fe Few Fw Fes"],
   "check": {"pits": 2, "portcullises": 2, "interior_walls": 12, "border_walls": 9,
             "gear": [2, 2]}},
  {"id": "4A", "name": "Switchback", "pair": 4, "colour": "silver", "turns": "cw",
   "rows": ["Fnw Fe Fnw F Fne",
            "Fe Fsw Fe Pew Fw",
            "Fe Pnw Fs FEs FW",
            "Fw Ge Fnw Fns Fs",
            "Fs F Fe Fnw Fne"],
   "check": {"pits": 2, "portcullises": 1, "interior_walls": 12, "border_walls": 8,
             "gear": [4, 2]}},
  {"id": "4B", "name": "Split", "pair": 4, "colour": "silver", "turns": "ccw",
   "rows": ["Fes Fnew Gw FE FnW",
            "Fnw Fe Fsw P Fe",
            "F FEs FnW Fes Fw",
            "Fw Fne Fw Fns Fes",
            "Fs F Fes Fnw Fn"],
   "check": {"pits": 1, "portcullises": 2, "interior_walls": 12, "border_walls": 8,
             "gear": [1, 3]}}
 ]}
"""

DIRS: Final = "nesw"  # direction index: 0 north, 1 east, 2 south, 3 west
DX: Final = (0, 1, 0, -1)
DY: Final = (-1, 0, 1, 0)

FLOOR: Final = 0
PIT: Final = 1
GEAR: Final = 2
_TYPES: Final = {"F": FLOOR, "P": PIT, "G": GEAR}

OPEN: Final = -1  # a side code: open
WALL: Final = -2  # a side code: wall; a code >= 0 is the room's portcullis of that index


class Room(NamedTuple):
    """A printed room.  Squares are indexed (r - 1) * 5 + (c - 1); ``sides[i][d]`` is the side
    code of square i in printed direction d.  ``turns`` is +1 (clockwise arrow) or -1."""

    id: str
    name: str
    pair: int
    colour: str
    turns: int
    kinds: tuple[int, ...]
    sides: tuple[tuple[int, int, int, int], ...]
    gates: tuple[tuple[int, int], ...]  # each portcullis: (printed square, side e or s)
    check: dict[str, object]

    @property
    def gear(self) -> int:
        return self.kinds.index(GEAR)


class Placed(NamedTuple):
    """A room as it lies on the board at one orientation: per local square (R - 1) * 5 + (C - 1)
    of the slot, its type and its side codes in board directions."""

    kinds: tuple[int, ...]
    sides: tuple[tuple[int, int, int, int], ...]


def parse_code(code: str) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
    """A square code: (type, wall sides, portcullis sides); ValueError for a bad code."""
    if not code or code[0] not in _TYPES:
        raise ValueError(f"bad square code {code!r}")
    walls: list[str] = []
    gates: list[str] = []
    for ch in code[1:]:
        if ch.lower() not in DIRS:
            raise ValueError(f"bad side {ch!r} in square code {code!r}")
        (walls if ch.islower() else gates).append(ch.lower())
    return _TYPES[code[0]], tuple(walls), tuple(gates)


def cw(r: int, c: int) -> tuple[int, int]:
    """One clockwise quarter turn of a local square (1-based)."""
    return c, 6 - r


def ccw(r: int, c: int) -> tuple[int, int]:
    """One counter-clockwise quarter turn of a local square (1-based)."""
    return 6 - c, r


def _build(data: dict[str, object]) -> Room:
    rows = data["rows"]
    assert isinstance(rows, list) and len(rows) == 5
    kinds: list[int] = []
    walls: list[tuple[str, ...]] = []
    gate_sides: list[tuple[str, ...]] = []
    for row in rows:
        codes = str(row).split()
        assert len(codes) == 5, row
        for code in codes:
            kind, w, g = parse_code(code)
            kinds.append(kind)
            walls.append(w)
            gate_sides.append(g)
    # Number the portcullises by their canonical edge: (square, "e") or (square, "s").
    edges: list[tuple[int, int]] = []
    for i, g in enumerate(gate_sides):
        r, c = divmod(i, 5)
        for side in g:
            if side == "e" or side == "s":
                edges.append((i, DIRS.index(side)))
            elif side == "w" and c > 0:
                edges.append((i - 1, 1))
            elif side == "n" and r > 0:
                edges.append((i - 5, 2))
            else:
                edges.append((i, DIRS.index(side)))  # a border portcullis (the pack has none)
    gates = tuple(sorted(set(edges)))
    sides: list[tuple[int, int, int, int]] = []
    for i in range(25):
        r, c = divmod(i, 5)
        out = [OPEN, OPEN, OPEN, OPEN]
        for side in walls[i]:
            out[DIRS.index(side)] = WALL
        for side in gate_sides[i]:
            d = DIRS.index(side)
            if d == 1 and c < 4:
                edge = (i, 1)
            elif d == 2 and r < 4:
                edge = (i, 2)
            elif d == 3 and c > 0:
                edge = (i - 1, 1)
            elif d == 0 and r > 0:
                edge = (i - 5, 2)
            else:
                edge = (i, d)
            out[d] = gates.index(edge)
        sides.append((out[0], out[1], out[2], out[3]))
    turns = str(data["turns"])
    check = data["check"]
    assert isinstance(check, dict)
    return Room(str(data["id"]), str(data["name"]), int(str(data["pair"])), str(data["colour"]),
                1 if turns == "cw" else -1, tuple(kinds), tuple(sides), gates, check)


def _place(room: Room, o: int) -> Placed:
    kinds = [0] * 25
    sides: list[tuple[int, int, int, int]] = [(OPEN, OPEN, OPEN, OPEN)] * 25
    for i in range(25):
        r, c = i // 5 + 1, i % 5 + 1
        for _ in range(o):
            r, c = cw(r, c)
        j = (r - 1) * 5 + (c - 1)
        kinds[j] = room.kinds[i]
        printed = room.sides[i]
        turned = [OPEN] * 4
        for d in range(4):
            turned[(d + o) % 4] = printed[d]
        sides[j] = (turned[0], turned[1], turned[2], turned[3])
    return Placed(tuple(kinds), tuple(sides))


ROOM_DATA: Final = json.loads(ROOMS_JSON)
ROOMS: Final[dict[str, Room]] = {str(r["id"]): _build(r) for r in ROOM_DATA["rooms"]}
ROOM_IDS: Final[tuple[str, ...]] = tuple(ROOMS)  # the order of every reveal's outcomes
PLACED: Final[dict[tuple[str, int], Placed]] = {
    (rid, o): _place(room, o) for rid, room in ROOMS.items() for o in range(4)}
TWIN: Final[dict[str, str]] = {
    a.id: b.id for a in ROOMS.values() for b in ROOMS.values() if a.pair == b.pair and a != b}

"""The content pack's authoring constraints (rules/dungeon-twister.md §10.5, with A30 and A31)
as unit tests over the room data (engine/twister/rooms.py), and the ASCII drawings of §10.3
against the JSON of §10.4.  (The originality check of §10.5 compared the rooms with the
publisher's, which this project does not hold; it was done once, when the pack was authored.)"""

from __future__ import annotations

import pytest

from engine.twister.rooms import (
    DIRS,
    GEAR,
    OPEN,
    PIT,
    PLACED,
    ROOMS,
    WALL,
    Room,
    ccw,
    cw,
    parse_code,
)

# The drawings of rules §10.3, one room each (row r1 north, column c1 west, orientation 0).
ASCII = {
    "1A": (
        "   +---+   +---+   +---+\n"
        "r1 | .   . | .   .   . |\n"
        "   +   +   +   +---+   +\n"
        "r2   . | O   .   G | .\n"
        "   +   +---+   +   +---+\n"
        "r3   .   .   .   .   .\n"
        "   +---+   +   +---+-p-+\n"
        "r4 | .   . | .   O | . |\n"
        "   +   +-p-+   +   +   +\n"
        "r5 | .   .   . | . | .\n"
        "   +---+   +   +   +---+\n"
    ),
    "1B": (
        "   +   +---+   +---+   +\n"
        "r1   .   .   . | .   .\n"
        "   +   +---+   +---+   +\n"
        "r2   . | .   .   . | O\n"
        "   +   +   +---+   +   +\n"
        "r3 | . p .   G   . | . |\n"
        "   +   +   +   +   +   +\n"
        "r4   O | .   .   . p .\n"
        "   +   +---+---+---+   +\n"
        "r5   .   . | .   .   .\n"
        "   +---+   +   +   +   +\n"
    ),
    "2A": (
        "   +---+---+   +   +   +\n"
        "r1 | .   . | .   .   .\n"
        "   +   +   +---+   +---+\n"
        "r2   . | .   . | O   . |\n"
        "   +---+   +   +---+   +\n"
        "r3   .   . | .   . p .\n"
        "   +   +---+   +   +   +\n"
        "r4   . | O   . | G   . |\n"
        "   +   +   +---+   +---+\n"
        "r5 | .   .   .   . p .\n"
        "   +   +   +---+   +   +\n"
    ),
    "2B": (
        "   +   +---+   +---+   +\n"
        "r1   . | .   . | .   .\n"
        "   +   +   +   +   +   +\n"
        "r2   . | . | O | . | .\n"
        "   +   +   +   +   +   +\n"
        "r3 | .   . | . p . | G |\n"
        "   +   +---+   +   +   +\n"
        "r4   . p .   . p . | .\n"
        "   +   +   +---+   +---+\n"
        "r5   .   . | .   O   .\n"
        "   +---+   +   +---+   +\n"
    ),
    "3A": (
        "   +   +---+   +   +---+\n"
        "r1   .   .   . | .   . |\n"
        "   +---+---+   +   +   +\n"
        "r2   . | .   .   . | .\n"
        "   +   +   +---+---+   +\n"
        "r3   O   . | O   G   O\n"
        "   +   +   +   +   +   +\n"
        "r4   . | .   . | . | .\n"
        "   +   +-p-+   +   +---+\n"
        "r5 | .   .   . p .   .\n"
        "   +   +---+   +   +   +\n"
    ),
    "3B": (
        "   +---+   +---+---+   +\n"
        "r1 | .   . | .   .   .\n"
        "   +   +   +   +   +   +\n"
        "r2   .   G p . | .   . |\n"
        "   +---+---+   +---+---+\n"
        "r3   .   O   .   O   .\n"
        "   +---+---+   +---+---+\n"
        "r4 | .   .   . p .   .\n"
        "   +   +   +   +   +   +\n"
        "r5   .   . | . | .   . |\n"
        "   +---+   +   +   +---+\n"
    ),
    "4A": (
        "   +---+   +---+   +---+\n"
        "r1 | .   . | .   .   . |\n"
        "   +   +   +   +   +   +\n"
        "r2   . | .   . | O | .\n"
        "   +   +---+   +   +   +\n"
        "r3   . | O   .   . p .\n"
        "   +   +   +---+---+   +\n"
        "r4 | .   G | .   .   .\n"
        "   +   +   +   +---+---+\n"
        "r5   .   .   . | .   . |\n"
        "   +---+   +   +   +   +\n"
    ),
    "4B": (
        "   +   +---+   +   +---+\n"
        "r1   . | . | G   . p .\n"
        "   +---+   +   +   +   +\n"
        "r2 | .   . | .   O   . |\n"
        "   +   +   +---+   +   +\n"
        "r3   .   . p .   . | .\n"
        "   +   +---+   +---+   +\n"
        "r4 | .   . | .   .   . |\n"
        "   +   +   +   +---+---+\n"
        "r5   .   .   . | .   .\n"
        "   +---+   +---+   +   +\n"
    ),
}

IDS = sorted(ROOMS)


def squares(room: Room) -> list[tuple[int, int, int]]:
    """(index, r, c) of every square, 1-based."""
    return [(i, i // 5 + 1, i % 5 + 1) for i in range(25)]


def neighbour(i: int, d: int) -> int:
    r, c = divmod(i, 5)
    r, c = r + (-1, 0, 1, 0)[d], c + (0, 1, 0, -1)[d]
    return r * 5 + c if 0 <= r < 5 and 0 <= c < 5 else -1


def interior_edges(room: Room) -> list[tuple[int, int, int]]:
    """(square, side, code) of every interior edge, once (east and south sides)."""
    return [(i, d, room.sides[i][d]) for i in range(25) for d in (1, 2) if neighbour(i, d) >= 0]


def border_edges(room: Room) -> list[tuple[int, int, int]]:
    return [(i, d, room.sides[i][d]) for i in range(25) for d in range(4) if neighbour(i, d) < 0]


# ---------------------------------------------------------------------- the drawings


def parse_ascii(text: str) -> tuple[list[str], dict[tuple[int, int], str]]:
    """Square types (. O G) and every side as 'open', 'wall' or 'gate', keyed (square, d)."""
    rows = [line.ljust(24) for line in text.splitlines()]
    types: list[str] = []
    sides: dict[tuple[int, int], str] = {}
    for r in range(5):
        above, row, below = rows[2 * r], rows[2 * r + 1], rows[2 * r + 2]
        assert row.startswith(f"r{r + 1} ")
        for c in range(5):
            i = r * 5 + c
            types.append(row[5 + 4 * c])
            for d, text in ((0, above[4 + 4 * c: 7 + 4 * c]), (2, below[4 + 4 * c: 7 + 4 * c])):
                sides[(i, d)] = {"   ": "open", "---": "wall", "-p-": "gate"}[text]
            for d, ch in ((3, row[3 + 4 * c]), (1, row[7 + 4 * c])):
                sides[(i, d)] = {" ": "open", "|": "wall", "p": "gate"}[ch]
    return types, sides


def code_word(code: int) -> str:
    return "open" if code == OPEN else "wall" if code == WALL else "gate"


@pytest.mark.parametrize("rid", IDS)
def test_ascii_and_json_encode_the_same_room(rid: str) -> None:
    room = ROOMS[rid]
    types, sides = parse_ascii(ASCII[rid])
    assert types == [".OG"[k] for k in room.kinds]
    for i in range(25):
        for d in range(4):
            assert code_word(room.sides[i][d]) == sides[(i, d)], (rid, i, DIRS[d])


@pytest.mark.parametrize("rid", IDS)
def test_interior_sides_agree_on_both_squares(rid: str) -> None:
    room = ROOMS[rid]
    for i, d, code in interior_edges(room):
        other = room.sides[neighbour(i, d)][(d + 2) % 4]
        assert code == other, (rid, i, DIRS[d])


@pytest.mark.parametrize("rid", IDS)
def test_the_derived_counts(rid: str) -> None:
    room = ROOMS[rid]
    check = room.check
    assert room.kinds.count(PIT) == check["pits"]
    assert len(room.gates) == check["portcullises"]
    assert sum(code == WALL for _, _, code in interior_edges(room)) == check["interior_walls"]
    assert sum(code == WALL for _, _, code in border_edges(room)) == check["border_walls"]
    gear = room.gear
    assert [gear // 5 + 1, gear % 5 + 1] == check["gear"]


# ---------------------------------------------------------------------- §10.5


@pytest.mark.parametrize("rid", IDS)
def test_shape_gear_pits_and_portcullises(rid: str) -> None:
    room = ROOMS[rid]
    assert len(room.kinds) == 25 and len(room.sides) == 25
    assert room.kinds.count(GEAR) == 1
    assert 1 <= room.kinds.count(PIT) <= 3
    assert 1 <= len(room.gates) <= 3
    for i, d in room.gates:
        j = neighbour(i, d)
        assert j >= 0, f"{rid}: a portcullis on the border (A31)"
        assert room.kinds[i] != PIT and room.kinds[j] != PIT


def test_pairs_colours_and_arrows() -> None:
    pairs: dict[int, list[Room]] = {}
    for room in ROOMS.values():
        pairs.setdefault(room.pair, []).append(room)
    assert sorted(pairs) == [1, 2, 3, 4]
    colours = set()
    for rooms in pairs.values():
        assert len(rooms) == 2
        assert {r.colour for r in rooms} == {rooms[0].colour}
        colours.add(rooms[0].colour)
        assert sorted(r.turns for r in rooms) == [-1, 1]
    assert len(colours) == 4


@pytest.mark.parametrize("rid", IDS)
def test_wall_counts(rid: str) -> None:
    room = ROOMS[rid]
    assert 12 <= sum(code == WALL for _, _, code in interior_edges(room)) <= 13
    assert 5 <= sum(code == WALL for _, _, code in border_edges(room)) <= 10


def reachable(room: Room, *, gates_open: bool) -> set[int]:
    """Squares reachable without crossing a pit from an open border side of a non-pit square."""
    start = [i for i, d, code in border_edges(room) if code == OPEN and room.kinds[i] != PIT]
    seen = set(start)
    todo = list(start)
    while todo:
        i = todo.pop()
        for d in range(4):
            j = neighbour(i, d)
            code = room.sides[i][d]
            if j < 0 or j in seen or room.kinds[j] == PIT:
                continue
            if code == WALL or (code >= 0 and not gates_open):
                continue
            seen.add(j)
            todo.append(j)
    return seen


@pytest.mark.parametrize("rid", IDS)
@pytest.mark.parametrize("gates_open", [True, False])
def test_every_floor_and_gear_square_is_reachable(rid: str, gates_open: bool) -> None:
    room = ROOMS[rid]
    floor = {i for i in range(25) if room.kinds[i] != PIT}
    assert reachable(room, gates_open=gates_open) == floor


@pytest.mark.parametrize("rid", IDS)
def test_each_side_has_two_open_border_squares(rid: str) -> None:
    room = ROOMS[rid]
    for d in range(4):
        open_squares = [i for i, side, code in border_edges(room)
                        if side == d and code == OPEN and room.kinds[i] != PIT]
        assert len(open_squares) >= 2, (rid, DIRS[d])


@pytest.mark.parametrize("rid", IDS)
def test_pits_and_enclosed_squares(rid: str) -> None:
    room = ROOMS[rid]
    for i in range(25):
        walls = sum(code == WALL for code in room.sides[i])
        assert walls < 4
        if room.kinds[i] == PIT:
            assert 4 - walls >= 2
            for d in range(4):
                j = neighbour(i, d)
                assert j < 0 or room.kinds[j] != PIT, f"{rid}: two pits share a side"


def test_a30_connectivity_depends_on_rotation() -> None:
    """A30: after Example 2 (1A turned once clockwise, 1B once counter-clockwise), 1A and 1B
    in slots 1 and 2 have no open crossing."""
    east_of_1a = PLACED[("1A", 1)].sides
    west_of_1b = PLACED[("1B", 3)].sides
    crossings = [r for r in range(5) if east_of_1a[r * 5 + 4][1] == OPEN
                 and west_of_1b[r * 5][3] == OPEN]
    assert crossings == []


# ---------------------------------------------------------------------- the data itself


def test_quarter_turns_are_inverse() -> None:
    for r in range(1, 6):
        for c in range(1, 6):
            assert ccw(*cw(r, c)) == (r, c)
            a = (r, c)
            for _ in range(4):
                a = cw(*a)
            assert a == (r, c)


@pytest.mark.parametrize("rid", IDS)
def test_placed_tables_turn_with_the_room(rid: str) -> None:
    room = ROOMS[rid]
    for o in range(4):
        placed = PLACED[(rid, o)]
        assert sorted(placed.kinds) == sorted(room.kinds)
        for i in range(25):
            r, c = i // 5 + 1, i % 5 + 1
            for _ in range(o):
                r, c = cw(r, c)
            j = (r - 1) * 5 + c - 1
            assert placed.kinds[j] == room.kinds[i]
            for d in range(4):
                assert placed.sides[j][(d + o) % 4] == room.sides[i][d]


def test_bad_square_codes_are_refused() -> None:
    for code in ("", "X", "Fq", "F1"):
        with pytest.raises(ValueError):
            parse_code(code)

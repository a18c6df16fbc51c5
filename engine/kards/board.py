"""The map: a size × size grid of cells, each holding a dungeon card id or ``""``.

Cell ``c`` is ``(x, y) = (c % size, c // size)``; x grows eastward, y southward.  Directions are
indexes into ``SIDES`` (0 N, 1 E, 2 S, 3 W).  Every function is pure and reads only the grid,
so the engine and the bots share them.
"""

from __future__ import annotations

from collections.abc import Collection

from engine.kards.cards import DUNGEON_BY_KIND, OPEN, OPPOSITE, SIDES, STEP, WALL, kind_of

Board = tuple[str, ...]
Path = tuple[int, ...]

_SIDES_CACHE: dict[str, str] = {}


def sides(card: str) -> str:
    """The four side codes (N, E, S, W) of a dungeon card id."""
    got = _SIDES_CACHE.get(card)
    if got is None:
        got = _SIDES_CACHE[card] = DUNGEON_BY_KIND[kind_of(card)].sides
    return got


_PORTAL_CACHE: dict[str, str] = {}


def portal(card: str) -> str:
    """``"Y"``, ``"B"`` or ``""``."""
    got = _PORTAL_CACHE.get(card)
    if got is None:
        got = _PORTAL_CACHE[card] = DUNGEON_BY_KIND[kind_of(card)].portal
    return got


def xy(cell: int, size: int) -> tuple[int, int]:
    return cell % size, cell // size


def at(x: int, y: int, size: int) -> int:
    return y * size + x


def _neighbours(size: int) -> tuple[tuple[int, int, int, int], ...]:
    out = []
    for cell in range(size * size):
        row = []
        for dx, dy in STEP:
            x, y = cell % size + dx, cell // size + dy
            row.append(y * size + x if 0 <= x < size and 0 <= y < size else -1)
        out.append((row[0], row[1], row[2], row[3]))
    return tuple(out)


_NEIGHBOURS: dict[int, tuple[tuple[int, int, int, int], ...]] = {
    size: _neighbours(size) for size in (7, 9)}


def neighbour(cell: int, d: int, size: int) -> int:
    """The cell next to ``cell`` in direction ``d``, or -1 off the map."""
    table = _NEIGHBOURS.get(size)
    if table is None:
        table = _NEIGHBOURS[size] = _neighbours(size)
    return table[cell][d]


def is_exit(code: str) -> bool:
    return code != WALL


def available_exits(board: Board, size: int, cell: int) -> tuple[int, ...]:
    """The exits of the card on ``cell`` whose neighbouring cell is on the map and empty."""
    card = board[cell]
    if not card:
        return ()
    s = sides(card)
    out = []
    for d in range(4):
        if s[d] != WALL:
            n = neighbour(cell, d, size)
            if n >= 0 and not board[n]:
                out.append(d)
    return tuple(out)


def connected(board: Board, size: int, cell: int, d: int) -> int:
    """The neighbour in direction ``d`` if the two cards connect (both facing sides are exits),
    else -1."""
    n = neighbour(cell, d, size)
    if n < 0 or not board[n] or not board[cell]:
        return -1
    if sides(board[cell])[d] == WALL or sides(board[n])[OPPOSITE[d]] == WALL:
        return -1
    return n


def explore_placements(board: Board, size: int, cell: int, card: str) -> tuple[int, ...]:
    """Directions from ``cell`` where ``card`` may be placed by an exploration (ruling 10): an
    available exit of the card on ``cell`` that ``card`` answers with an exit (never rotated)."""
    s = sides(card)
    return tuple(d for d in available_exits(board, size, cell) if s[OPPOSITE[d]] != WALL)


def event_cells(board: Board, size: int, card: str) -> tuple[int, ...]:
    """Cells where an event may place ``card`` (ruling 33, A-24): next to an available exit of
    any placed card, with ``card`` showing an exit back.  Counted by cell, ascending."""
    s = sides(card)
    found: set[int] = set()
    for cell, placed in enumerate(board):
        if placed:
            for d in available_exits(board, size, cell):
                if s[OPPOSITE[d]] != WALL:
                    found.add(neighbour(cell, d, size))
    return tuple(sorted(found))


def any_available_exit(board: Board, size: int, cells: Collection[int] | None = None) -> bool:
    """Whether any placed card (of ``cells``, or of the whole map) has an available exit."""
    pool = range(len(board)) if cells is None else cells
    return any(board[c] and available_exits(board, size, c) for c in pool)


def component(board: Board, size: int, start: int) -> set[int]:
    """Every card reachable from ``start`` by walking (through connections, any distance)."""
    seen = {start}
    todo = [start]
    while todo:
        c = todo.pop()
        for d in range(4):
            n = connected(board, size, c, d)
            if n >= 0 and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


_DISTANCES: dict[tuple[Board, int, int], dict[int, int]] = {}


def distances(board: Board, size: int, start: int) -> dict[int, int]:
    """Walking distance (in steps) from ``start`` to every card reachable from it.  Memoised
    (the bots ask it many times of one map): the dict returned is shared, never change it."""
    key = (board, size, start)
    found = _DISTANCES.get(key)
    if found is not None:
        return found
    if len(_DISTANCES) >= 4096:
        _DISTANCES.clear()
    found = _DISTANCES[key] = _distances(board, size, start)
    return found


def _distances(board: Board, size: int, start: int) -> dict[int, int]:
    dist = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for c in frontier:
            for d in range(4):
                n = connected(board, size, c, d)
                if n >= 0 and n not in dist:
                    dist[n] = dist[c] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


def move_destinations(board: Board, size: int, start: int, steps: int,
                      stops: Collection[int]) -> dict[int, Path]:
    """Every card a Walk of 1..``steps`` steps from ``start`` can end on, with its canonical
    path: the shortest, then the first in N, E, S, W order.  A path may revisit cards and cross
    cards that hold only allies, but it ends at the first card in ``stops`` (one holding an
    enemy, ruling 8).  It may not end where it started (A-20)."""
    found: dict[int, Path] = {}
    frontier: list[tuple[int, Path]] = [(start, ())]
    for _ in range(steps):
        nxt: list[tuple[int, Path]] = []
        for cell, path in frontier:
            for d in range(4):
                n = connected(board, size, cell, d)
                if n < 0:
                    continue
                p = (*path, d)
                if n != start and n not in found:
                    found[n] = p
                if n not in stops:
                    nxt.append((n, p))
        # Paths that reach the same card with the same length continue the same way.
        seen: set[int] = set()
        frontier = []
        for cell, path in nxt:
            if cell not in seen:
                seen.add(cell)
                frontier.append((cell, path))
    return found


def follow(board: Board, size: int, start: int, path: Path,
           stops: Collection[int]) -> int:
    """Where ``path`` from ``start`` ends, or -1 if it is no legal Walk (a step through a wall
    or off the map, or a step after a card that holds an enemy)."""
    cell = start
    for i, d in enumerate(path):
        if i and cell in stops:
            return -1
        n = connected(board, size, cell, d)
        if n < 0:
            return -1
        cell = n
    return cell


def line_of_sight(board: Board, size: int, a: int, b: int) -> bool:
    """LOS range 0–3 (ruling 30, A-34): the same card, or the same row or column at most 3
    boundaries away, with a card on every cell between and both facing sides open (``O``) at
    every boundary crossed.  Walls, doors and gaps block."""
    if a == b:
        return True
    ax, ay = a % size, a // size
    bx, by = b % size, b // size
    if ax == bx:
        d = 2 if by > ay else 0
        span = abs(by - ay)
    elif ay == by:
        d = 1 if bx > ax else 3
        span = abs(bx - ax)
    else:
        return False
    if span > 3:
        return False
    cell = a
    for _ in range(span):
        n = neighbour(cell, d, size)
        if n < 0 or not board[n] or not board[cell]:
            return False
        if sides(board[cell])[d] != OPEN or sides(board[n])[OPPOSITE[d]] != OPEN:
            return False
        cell = n
    return True


def direction(name: str) -> int:
    """The index of a direction letter (``N``…``W``), or -1."""
    return SIDES.index(name) if name in SIDES else -1

"""Dungeons of Kards' full-screen table and its keys.

The line-mode map takes three rows a cell row; the screen draws a **compact map** instead, one
row a cell row: each cell its figures (a character by its seat's letter, a monster by two
letters, the Boss in capitals) or, with none, its card; ``|`` a wall and ``=`` a door between
cells side by side.  What a row cannot show — the walls above and below a cell, its portal, the
full panel of a figure — the line under the map says for **the cell under the cursor**, in
words.  A column beside the map gives every character's life, AP and gold (``>`` marks the one
acting); under the map come the monsters, the decks, the lair and the events track.  Nothing
depends on colour: the cursor is reversed and between ``[ ]``.  A window tall enough for the
line-mode map (every wall, three rows a row of cells) shows that instead.

The keys build a move in the notation (:class:`~cli.inputs.BoardCursor`): the cursor starts on
the character that decides; **Space** picks the cells of a move — a walk's cells one step at a
time, a monster or character to attack or help, the card of a gate, hop or portal stone, the side
an explored card is placed on — and **Tab** cycles through the moves the picks leave (with no
pick, all of them: a choice of character or item, ``explore``, ``search``, ``end``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from cli.games.kards import render
from cli.inputs import BoardCursor, InputModel, Touches
from cli.text import StyledLine, plain, seat_letter, wrap_text
from engine.kards.cards import kind_of

STEP: Final = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
SIDES: Final = ("north", "east", "south", "west")
KEYS: Final = ("up", "down", "left", "right", "space", "tab", "s-tab")
KEYS_HELP: Final = """\
Keys (full screen)
  arrows        move the cursor over the map (the line under it says
                what the cell holds: its card, walls, doors, every figure)
  Space         pick the cell under the cursor: a walk's cells one step at
                a time, the monster or character to attack or help, the
                card of a gate, hop or portal stone, the side to place an
                explored card on
  Tab/Shift-Tab cycle through the moves your picks leave (with none picked,
                every move: a character, an item, explore, search, end)
  Backspace     take back the last part;  Esc  drop the whole move
  :             type any move in the notation instead (Enter locks it in)
  Enter         lock the move in"""


def _cell_name(x: int, y: int) -> str:
    return f"{x},{y}"


def places(view: Any) -> dict[str, set[str]]:
    """Every name a move may give (a character, a monster's kind, a card) -> its cells."""
    out: dict[str, set[str]] = {}
    for c in view.characters:
        if c.at is not None:
            out.setdefault(c.card.split("#")[0], set()).add(_cell_name(*c.at))
    for m in view.monsters:
        out.setdefault(kind_of(m.card), set()).add(_cell_name(*m.at))
    for cell in view.cells:
        out.setdefault(cell.card, set()).add(_cell_name(cell.x, cell.y))
    return out


def deciding_at(view: Any) -> tuple[int, int] | None:
    who = view.deciding or view.active
    return next((tuple(c.at) for c in view.characters if c.card == who and c.at is not None),
                None)


def touches(text: str, view: Any, named: dict[str, set[str]]) -> Touches:
    """The cells a move touches, in order (see the module)."""
    words = text.split()
    start = deciding_at(view)
    if words[0] in ("move", "place") and start is not None:
        x, y = start
        out = [frozenset({_cell_name(x, y)})]
        for d in words[1:]:
            if d not in STEP:
                return ()
            x, y = x + STEP[d][0], y + STEP[d][1]
            out.append(frozenset({_cell_name(x, y)}))
        return tuple(out)
    cells = [frozenset(named[w]) for w in words[1:] if w in named]
    return tuple(cells[-1:])  # (the target: the last name that is on the map)


def inputs(view: Any, moves: Sequence[str]) -> InputModel:
    named = places(view)
    table = {m: touches(m, view, named) for m in moves}
    x, y = deciding_at(view) or (view.size // 2, view.size // 2)
    return BoardCursor(view.size, view.size, lambda r, c: _cell_name(c, r), table,
                       start=(y, x))


def _figures(view: Any) -> dict[tuple[int, int], list[str]]:
    figures: dict[tuple[int, int], list[str]] = {}
    for c in view.characters:
        if c.at is not None:
            figures.setdefault(tuple(c.at), []).append(seat_letter(c.seat))
    for m in view.monsters:
        figures.setdefault(tuple(m.at), []).append(render.monster_code(m.card))
    return figures


def board_lines(view: Any, labels: Sequence[str], cursor: BoardCursor | None,
                window: int = 80) -> list[StyledLine]:
    """The compact map with the characters' column, the cell under the cursor in words, the
    monsters, decks and events (see the module); every line within the window's width, none
    cut."""
    n = view.size
    wide = max(79, window - 1)
    width = 8 if n <= 7 else 7  # (a cell and its left boundary)
    cards = {(c.x, c.y): c for c in view.cells}
    figures = _figures(view)
    cy, cx = cursor.at if cursor is not None else (-1, -1)
    picked = cursor.marked() if cursor is not None else set()
    column = _column(view, wide + 1 - (3 + n * width + 1) - 1)
    rows: list[StyledLine] = [plain("   " + "".join(f"{x:^{width}}" for x in range(n)))]
    for y in range(n):
        line: StyledLine = [("", f"{y:>2} ")]
        for x in range(n):
            line.append(("", _boundary(cards.get((x - 1, y)), cards.get((x, y)), x == 0)))
            here = figures.get((x, y), [])
            if here:
                text = " ".join(here)
                if len(text) > width - 3:
                    text = f"{here[0]}+{len(here) - 1}"
            else:  # (the card, without a second copy's prefix)
                text = cards[(x, y)].card.split("-")[-1].lower() if (x, y) in cards else ""
            text = text[:width - 3]
            if (y, x) == (cy, cx):
                line.append(("class:kd.cursor", f"[{text:<{width - 3}}]"))
            else:
                mark = "*" if _cell_name(x, y) in picked else " "
                line.append(("class:kd.pick" if mark == "*" else "", f"{mark}{text:<{width - 3}}"
                             f"{mark}"))
        line.append(("", _boundary(cards.get((n - 1, y)), None, True)))
        line.append(("", " " + (column[y] if y < len(column) else "")))
        rows.append(line)
    for extra in column[n:]:
        rows.append(plain(" " * (3 + n * width + 2) + extra))
    if view.phase == "pick":  # (the characters to pick in place of the cell under the cursor:
        # the map is empty yet; the column says what "rd" is)
        rows += [plain(t) for move in view.legal if move.verb == "pick"
                 for t in wrap_text(render.character_card(move.args[0], short=True),
                                    width=wide, indent="    ")]
    elif cursor is not None:
        rows += [plain(text) for text in _under_cursor(view, labels, (cx, cy), wide)]
    if view.monsters:
        rows += [plain(t) for t in wrap_text("Monsters: " + "; ".join(
            f"{render.monster_code(m.card)} {m.name} {m.life}/{m.max_life} at {m.at[0]},"
            f"{m.at[1]}" for m in view.monsters) + ".", width=wide)]
    if view.peeked:
        rows += [plain(t) for t in wrap_text("Your guardian showed you (only you): " + ", ".join(
            f"{card} ({event})" for event, card in view.peeked) + ".", width=wide)]
    return rows


def tall_enough(view: Any, width: int, height: int) -> bool:
    """Whether the window has room for the line-mode map, every wall drawn (3 rows a row of
    cells; beside it the characters' column)."""
    return width >= 100 and height >= 3 * view.size + 18


def full_map(view: Any, labels: Sequence[str], cursor: BoardCursor | None,
             window: int = 100) -> list[StyledLine]:
    """The line-mode map with the cell under the cursor reversed and the picked cells and the
    move's path underlined, the characters' column beside it, then the cell under the cursor
    in words and the monsters — for a window :func:`tall_enough`."""
    lines = render.render_map(view)
    cell_w = render.CELL + 1
    cy, cx = cursor.at if cursor is not None else (-1, -1)
    marked = cursor.marked() if cursor is not None else set()
    column = _column(view, 30)
    out: list[StyledLine] = []
    for i, text in enumerate(lines):
        text = text.ljust(3 + view.size * cell_w + 1)
        y = (i - 2) // 3 if i >= 2 and (i - 2) % 3 in (0, 1) else -1  # (the cells' two lines)
        line: StyledLine = []
        at = 0
        for x in range(view.size if y >= 0 else 0):
            name = _cell_name(x, y)
            style = ("class:kd.cursor" if (y, x) == (cy, cx) else
                     "class:kd.pick" if name in marked else "")
            if style:
                start = 3 + x * cell_w + 1
                line += [("", text[at:start]), (style, text[start:start + render.CELL])]
                at = start + render.CELL
        line.append(("", text[at:]))
        row = i - 1
        line.append(("", "  " + (column[row] if 0 <= row < len(column) else "")))
        out.append(line)
    wide = max(79, window - 1)
    if view.phase == "pick":
        out += [plain(t) for move in view.legal if move.verb == "pick"
                for t in wrap_text(render.character_card(move.args[0]), width=wide,
                                   indent="    ")]
    if cursor is not None:
        out += [plain(t) for t in _under_cursor(view, labels, (cx, cy), wide)]
    if view.monsters:
        out += [plain(t) for t in wrap_text("Monsters: " + " ".join(
            render.monster_line(m) for m in view.monsters), width=wide)]
    return out


def _boundary(west: Any, east: Any, edge: bool) -> str:
    a = west.sides[1] if west is not None else None
    b = east.sides[3] if east is not None else None
    kind = render.edge_kind(a, b)
    if edge and not kind:
        kind = "wall"
    return {"wall": "|", "door": "=", "": " "}[kind]


def _column(view: Any, width: int) -> list[str]:
    """A row per character: letter, class, life and AP (``>`` the one acting); then the decks,
    the lair and the events track."""
    rows = []
    for c in view.characters:
        mark = ">" if c.card and c.card == view.active else " "
        if not c.card:
            text = f"{seat_letter(c.seat)} -"
        elif c.out or c.at is None:
            text = f"{seat_letter(c.seat)} {c.name} {'out' if c.out else 'off map'}"
        else:
            text = f"{seat_letter(c.seat)} {c.name} {c.life}/{c.max_life} AP{c.ap}"
            if len(text) >= width:  # (a narrow column: no class)
                text = f"{seat_letter(c.seat)}{c.life}/{c.max_life} AP{c.ap}"
        rows.append(mark + text)
    rows += ["", f" grey {view.grey_left} orange {view.orange_top + view.orange_bottom}",
             f" yellow {view.yellow_left} lair {len(view.lair)}"]
    if view.next_event:
        rows.append(f" event at {view.next_event} ({view.revealed})")
    if view.phase == "pick":
        rows.append(" (rd: rounds)")
    return [row[:max(0, width)] for row in rows]


def _under_cursor(view: Any, labels: Sequence[str], at: tuple[int, int],
                  width: int = 79) -> list[str]:
    """The cell under the cursor in words: card and portal, its sides, then each figure's
    panel, every line within ``width`` (none cut)."""
    x, y = at
    cell = next((c for c in view.cells if (c.x, c.y) == at), None)
    if cell is None:
        return [f"Cursor {x},{y}: no card here yet."]
    sides = ", ".join(f"{SIDES[d]} {'wall' if s == '#' else 'door' if s == 'D' else 'open'}"
                      for d, s in enumerate(cell.sides))
    portal = {"Y": ", a yellow portal", "B": ", a blue portal"}.get(cell.portal, "")
    lines = wrap_text(f"Cursor {x},{y}: {cell.card}{portal}; {sides}.", width=width)
    for c in view.characters:
        if c.at is not None and tuple(c.at) == at:
            lines += wrap_text(render.character_line(c, labels), width=width, indent="  ")
    for m in view.monsters:
        if tuple(m.at) == at:
            lines += wrap_text(render.monster_line(m), width=width, indent="  ")
    return lines

"""Dungeon Twister's full-screen table and its keys.

The 22 × 10 board does not fit 80 × 24 with its walls, so the screen shows it twice: the whole
board as a **map**, one square per two characters (tokens and floor, no walls), and beside it the
**room under the cursor** drawn large with every wall, portcullis, pit and gear (the line-mode
board, cropped).  A side column says whose turn it is, its AP, and each side's VP, action cards
(a), combat cards (c) and jumps (``*``: yours); below comes the square under the cursor in words.
Nothing depends on colour: the cursor is reversed on the map, ``< >`` in the room and named in
words below; an empty square picked or on the move's path is ``*``.  A window of at least
100 × 40 has room for the whole board with its walls: it shows that instead of map and room.

The keys build a move in the notation (:mod:`cli.inputs`):

* a turn's action: a :class:`~cli.inputs.BoardCursor` over the legal actions — pick a token,
  then walk its path square by square (or pick its target, or a square of the room to reveal or
  turn), Tab cycling through the actions those picks leave (pick-ups, drops, rotations), each
  **previewed** on the map as the board after it;
* the set-up: the team by the characters' numbers 1–8 (four of them), a token's slot by a square
  of its room and the token with Tab;
* an action card (2–5) and the secret combat card (0–6) by their digits; a lifted token's square
  by the cursor.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

from cli.games.twister import render
from cli.inputs import BoardCursor, InputModel, KeyChoice, ListChoice, PlanBuilder, Touches
from cli.text import StyledLine, plain, wrap_text
from engine.core import GameState, IllegalActionError, InvalidActionError
from engine.twister.board import FACE_DOWN, LINE
from engine.twister.data import (
    CHARACTERS,
    HEIGHT,
    SIDE,
    SLOT_SQUARES,
    TOKENS,
    WIDTH,
    slot_of,
    square,
    square_name,
    token_id,
    xy,
)
from engine.twister.records import ELIMINATED, ESCAPED, REMOVED
from engine.twister.rooms import GEAR, PIT

MAP_W: Final = 2 * WIDTH + 3  # "y " + two characters a square + a space
ZOOM_W: Final = 19  # six squares of three characters and the last wall
SIDE_W: Final = 11
DIRS: Final = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}
_SQUARE = re.compile(r"^[0-9]+,[0-9]+$")
TEAM_KEYS: Final = {str(i + 1): kind for i, kind in enumerate(CHARACTERS)}
KEYS: Final = ("up", "down", "left", "right", "space", "tab", "s-tab", *"012345678")
NOTES: Final = {
    "team": ": your team, four characters by number 1-8 (? names them)",
    "place": ": a face-down token, Space on its room then Tab for the token",
    "card": ": your action card by its digit",
    "action": ": Space picks a token then its path or target, Tab cycles",
    "put": ": where the lifted token goes, Space on a square then Tab",
    "combat": ": your secret combat card by its digit",
}
KEYS_HELP: Final = """\
Keys (full screen)
  arrows        move the cursor (the room under it is drawn large)
  Space         pick the square under the cursor: first a token of yours,
                then its path square by square, or its target, or a square
                of the room to reveal or turn
  Tab/Shift-Tab cycle through the moves your picks leave (pick-ups, drops,
                rotations); the map shows the board after the move
  Backspace     take back the last part;  Esc  drop the whole move
  1-8           the set-up: your team, four characters by number
                (1 cleric 2 goblin 3 mekanork 4 thief 5 troll 6 wall-walker
                7 warrior 8 wizard), in the order of your starting squares
  2-5 / 0-6     an action card / your secret combat card
  :             type any move in the notation instead (Enter locks it in)
  Enter         lock the move in"""


def _room_window(x: int, y: int) -> tuple[int, int, int, int]:
    """The squares drawn large around (x, y): its room (and a starting line beside it)."""
    y0 = 0 if y < 5 else 5
    if x == 0:
        return 0, y0, 6, 5
    if x == WIDTH - 1:
        return WIDTH - 6, y0, 6, 5
    return 1 + 5 * ((x - 1) // 5), y0, 5, 5


def token_squares(state: Any) -> dict[str, int]:
    """``W-troll`` -> its square, for every token on the board."""
    return {token_id(t): state.tokens[t].at for t in range(TOKENS)
            if 0 <= state.tokens[t].at < WIDTH * HEIGHT}


def touches(text: str, at: dict[str, int]) -> Touches:
    """The squares an action touches, in order: its token, then each square of its path, or
    its target (a token, a neighbour by direction, a room by its slot)."""
    words = text.split()
    out: list[frozenset[str]] = []
    mover = -1
    skip = False
    for i, word in enumerate(words[1:], 1):
        if skip:
            skip = False
            continue
        if word == "take":
            skip = True  # (a token picked up where the mover stands)
        elif word in at:
            if mover < 0:
                mover = at[word]
            out.append(frozenset({square_name(at[word])}))
        elif _SQUARE.match(word):
            out.append(frozenset({word}))
        elif word.isdigit() and words[0] in ("reveal", "rotate", "place") and i <= 2:
            out.append(frozenset(square_name(sq) for sq in SLOT_SQUARES[int(word)]))
        elif word in DIRS and mover >= 0 and words[0] != "rotate":
            x, y = xy(mover)
            dx, dy = DIRS[word]
            if 0 <= x + dx < WIDTH and 0 <= y + dy < HEIGHT:
                out.append(frozenset({square_name(square(x + dx, y + dy))}))
    return tuple(out)


def inputs(state: GameState[Any], seat: int, moves: Sequence[str]) -> InputModel:
    """The keys of one decision (see the module)."""
    phase = getattr(state, "phase", "")
    if phase == "team":
        return PlanBuilder([TEAM_KEYS] * 4, join=lambda parts: "team " + " ".join(parts))
    if phase in ("card", "combat"):
        # (Every card's digit: one that cannot be played now is refused with the reason.)
        cards = range(2, 6) if phase == "card" else range(7)
        return KeyChoice({str(n): f"{phase} {n}" for n in cards})
    if phase in ("action", "put", "place"):
        at = token_squares(state)
        table = {m: touches(m, at) for m in moves}
        start = next((xy(at[m.split()[1]]) for m in moves if len(m.split()) > 1
                      and m.split()[1] in at), (WIDTH // 2, HEIGHT // 2))
        return BoardCursor(HEIGHT, WIDTH, lambda r, c: square_name(square(c, r)), table,
                           start=(start[1], start[0]))
    return ListChoice(moves)


def preview(state: GameState[Any], seat: int, draft: str) -> Any:
    """The board after ``draft`` (a turn's action), or None if it cannot be shown."""
    if not draft or getattr(state, "phase", "") != "action":
        return None
    try:
        return state.apply(seat, state.parse_action(seat, draft)).view(seat).state
    except (InvalidActionError, IllegalActionError):
        return None


def _map_cell(state: Any, sq: int, occ: dict[int, list[int]], hidden: dict[int, str]) -> str:
    kind = state.board.kinds[sq]
    if kind == FACE_DOWN:
        x, y = xy(sq)
        return f"{slot_of(sq)} " if (x - 1) % 5 == 2 and y % 5 == 2 else "~ "
    if sq in hidden and sq not in occ:
        return hidden[sq]
    if sq in occ:
        return render.cell_text(state, sq, occ[sq], kind)
    return {LINE: ": ", PIT: "()", GEAR: "@ "}.get(kind, ". ")


def board_lines(view: Any, labels: Sequence[str], cursor: BoardCursor | None,
                after: Any = None) -> list[StyledLine]:
    """The map, the room under the cursor and the side column, then the square under the
    cursor in words (see the module).  ``after``: the board to show instead, a move's
    preview."""
    state = after if after is not None else view.state
    hidden = render.hidden_starts(state, view.seat, view.mine)
    occ = state.occupancy()
    cy, cx = cursor.at if cursor is not None else (-1, -1)
    marked = cursor.marked() if cursor is not None else set()
    rows: list[StyledLine] = []
    for y in range(HEIGHT):
        line: StyledLine = [("", f"{y} ")]
        for x in range(WIDTH):
            sq = square(x, y)
            text = _map_cell(state, sq, occ, hidden)
            if (y, x) == (cy, cx):
                line.append(("class:tw.cursor", text))
            elif square_name(sq) in marked:
                line.append(("class:tw.pick", text if text.strip(".: ") else "* "))
            else:
                line.append(("", text))
        rows.append([*line, ("", " ")])
    rows.append(plain("  " + "".join(f"{x % 10} " for x in range(WIDTH)) + " "))
    # The room under the cursor, cropped from the line-mode board.
    x0, y0, w, h = _room_window(cx, cy) if cursor is not None else (1, 0, 5, 5)
    big = render.render_board(state, hidden)
    zoom = [(big[1 + r] + " " * 80)[3 + 3 * x0: 3 + 3 * (x0 + w) + 1]
            for r in range(2 * y0, 2 * (y0 + h) + 1)]
    side = _side_column(state, view.seat, after is not None)
    out: list[StyledLine] = []
    for r, line in enumerate(rows):
        z = zoom[r] if r < len(zoom) else ""
        zline: StyledLine = [("", " " + z.ljust(ZOOM_W))]
        if cursor is not None and r == 1 + 2 * (cy - y0) and x0 <= cx < x0 + w:
            at = 1 + 3 * (cx - x0)  # the square's two characters in the cropped row
            zline = [("", " " + z[:at - 1]), ("class:tw.cursor", "<" + z[at:at + 2] + ">"),
                     ("", z[at + 3:].ljust(ZOOM_W - at - 3))]
        out.append([*line, *zline, ("", " " + (side[r] if r < len(side) else ""))])
    if cursor is not None:
        out.append(plain(_under_cursor(view.state, cursor)))
    gone = _out_of_play(state)
    if gone:
        out.append(plain(gone))
    return out


TALL: Final = (100, 40)
"""A window at least this wide and tall gets the whole board with its walls (``full_board``)."""


def full_board(view: Any, cursor: BoardCursor | None, after: Any = None) -> list[StyledLine]:
    """The whole board with every wall (the line-mode board), the cursor's square reversed and
    the picked squares and the move's path underlined, the side column beside it, then the
    square under the cursor in words — for a window of at least :data:`TALL`."""
    state = after if after is not None else view.state
    lines = render.render_board(state, render.hidden_starts(state, view.seat, view.mine))
    cy, cx = cursor.at if cursor is not None else (-1, -1)
    marked = cursor.marked() if cursor is not None else set()
    side = _side_column(state, view.seat, after is not None)
    out: list[StyledLine] = []
    for i, text in enumerate(lines):
        text = text.ljust(3 + 3 * WIDTH + 1)
        line: StyledLine = []
        y = (i - 2) // 2 if i >= 2 and i % 2 == 0 else -1  # (a row of squares)
        at = 0
        for x in range(WIDTH):
            name = square_name(square(x, y)) if y >= 0 else ""
            style = ("class:tw.cursor" if (y, x) == (cy, cx) else
                     "class:tw.pick" if name in marked else "")
            if style:
                start = 3 + 3 * x + 1
                line += [("", text[at:start]), (style, text[start:start + 2])]
                at = start + 2
        line.append(("", text[at:]))
        line.append(("", "  " + (side[i] if i < len(side) else "")))
        out.append(line)
    if cursor is not None:
        out.append(plain(_under_cursor(view.state, cursor)))
    gone = _out_of_play(state)
    if gone:
        out.append(plain(gone))
    return out


def _side_column(state: Any, seat: int, previewing: bool) -> list[str]:
    """Turn, AP, and each side's VP, action cards, combat cards and jumps, 11 columns."""
    cap = f"/{state.turn_cap}" if state.turn_cap else ""
    rows = [f"turn {state.turn}{cap}"]
    if state.turn and state.active >= 0:
        rows.append(f"{SIDE[state.active]}: {state.ap} AP")
    for s, player in enumerate(state.players):
        you = "*" if s == seat else ""
        rows += [f"{SIDE[s]}{you} {player.vp} VP", "a " + "".join(map(str, player.hand)),
                 "c " + "".join(map(str, player.combat)), f"jumps {player.jumps}"]
    if previewing:
        rows.append("(after)")
    return [r[:SIDE_W] for r in rows]


def _out_of_play(state: Any) -> str:
    words = []
    for t in range(TOKENS):
        at = state.tokens[t].at
        word = {ESCAPED: "escaped", ELIMINATED: "eliminated", REMOVED: "removed"}.get(at)
        if word:
            words.append(f"{token_id(t)} {word}")
    return wrap_text("Out of play: " + ", ".join(words) + ".", width=79)[0] if words else ""


def _under_cursor(state: Any, cursor: BoardCursor) -> str:
    row, column = cursor.at
    sq = square(column, row)
    occ = state.occupancy().get(sq, [])
    what = [render.token_text(t) + (" (wounded)" if state.tokens[t].wounded else "")
            + (" carried" if state.tokens[t].carrier >= 0 else "") for t in occ]
    kind = state.board.kinds[sq]
    place = {FACE_DOWN: "a face-down room", LINE: "a starting line", PIT: "a pit",
             GEAR: "a gear"}.get(kind, "floor")
    slot = slot_of(sq)
    if slot >= 0:
        room = state.rooms[slot]
        place += f", slot {slot}" + (f" room {room[0]}" if room is not None else "")
    text = f"Cursor {square_name(sq)} ({place}): " + (", ".join(what) or "nothing on it")
    return wrap_text(text + ".", width=79)[0]

"""Dungeon Twister's table as text: the 22 × 10 board with its walls, portcullises, pits, gears
and tokens, then each side's cards and tokens off the board, the viewer's own face-down tokens,
what the last action did and what the table waits for.

Every character is ASCII, and nothing depends on colour (NO_COLOR, screen readers).  A square
is two characters between separators: a character's letter (West in CAPITALS, East in small
letters), then what it carries or ``*`` if wounded; an object alone is its sign.  Squares are
named ``x,y`` (the column, then the row), as the moves are written.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from cli.text import wrap_text
from engine.twister.board import BROKEN, CLOSED, FACE_DOWN, LINE
from engine.twister.data import (
    CAPACITY,
    HEIGHT,
    KINDS,
    LINE_X,
    N_CHARACTERS,
    SIDE_NAME,
    START_YS,
    WIDTH,
    kind_of,
    seat_of,
    slot_of,
    start_slot,
)
from engine.twister.records import ELIMINATED, ESCAPED, REMOVED
from engine.twister.rooms import GEAR, OPEN, PIT, WALL

LETTER: Final = {"cleric": "c", "goblin": "g", "mekanork": "m", "thief": "t", "troll": "r",
                 "wall_walker": "l", "warrior": "w", "wizard": "z"}
SIGN: Final = {"treasure": "$", "armour": "]", "sword": "/", "fireball_wand": "!",
               "rope": "&", "speed_potion": "%"}
LEGEND: Final = (
    "Characters (West CAPITALS, east small): c cleric, g goblin, m mekanork, t thief, "
    "r troll, l wall-walker, w warrior, z wizard; after the letter: what it carries, "
    "* wounded, ^ carries a wounded character.  Objects: $ treasure, ] armour, / sword, "
    "! fireball wand, & rope, % speed potion.  ?? a face-down starting token (yours: its "
    "letter, then ?).  Squares: . floor, () pit, @ gear, : starting line; | and -- walls, "
    "# closed portcullis, ' open portcullis.  A face-down room: its slot, the face-down tokens "
    "of each side on it (W2 E1) and, during the set-up, how many of the tokens it takes are "
    "placed (1 of 3).  Squares are named x,y (column, row)."
)
HINT: Final = "West in CAPITALS, East in small letters; ? explains every sign."
_CELL_FLOOR: Final = {FACE_DOWN: "  ", LINE: ": ", PIT: "()", GEAR: "@ "}
ROOM_W: Final = 5


def token_text(token: int) -> str:
    """``West troll``, ``East rope``."""
    return f"{SIDE_NAME[seat_of(token)]} {KINDS[kind_of(token)].replace('_', '-')}"


def _letter(token: int) -> str:
    kind = KINDS[kind_of(token)]
    if kind in LETTER:
        return LETTER[kind].upper() if seat_of(token) == 0 else LETTER[kind]
    return SIGN[kind]


def cell_text(state: Any, sq: int, occupants: Sequence[int], kind: int) -> str:
    tokens = state.tokens
    standing = [t for t in occupants if tokens[t].carrier < 0]
    people = [t for t in standing if kind_of(t) < N_CHARACTERS]
    if not standing:
        return _CELL_FLOOR.get(kind, ". ")
    if not people:
        return _letter(standing[0]) + ("+" if len(standing) > 1 else " ")
    who = people[0]
    tok = tokens[who]
    if tok.load >= 0:
        mark = "^" if kind_of(tok.load) < N_CHARACTERS else _letter(tok.load)
    elif tok.wounded:
        mark = "*"
    elif len(standing) > 1:
        mark = "+"
    else:
        mark = " "
    return _letter(who) + mark


def _side(state: Any, sq: int, d: int) -> int:
    return int(state.board.sides[sq * 4 + d])


def _boundary(state: Any, a: int, d: int, b: int) -> str:
    """What lies between square ``a`` and its neighbour ``b`` in direction ``d``: "" open,
    "wall", "closed" or "raised" (a portcullis)."""
    kinds = state.board.kinds
    if a < 0 or b < 0:
        return "wall"
    if kinds[a] == FACE_DOWN or kinds[b] == FACE_DOWN:
        return "wall" if slot_of(a) != slot_of(b) else ""
    mine, theirs = _side(state, a, d), _side(state, b, (d + 2) % 4)
    for code, sq in ((mine, a), (theirs, b)):
        if code >= 0:
            gate = state.gates[slot_of(sq)][code]
            return "closed" if gate == CLOSED else ("" if gate == BROKEN else "raised")
    if WALL in (mine, theirs):
        return "wall"
    assert mine == OPEN and theirs == OPEN
    return ""


_V: Final = {"": " ", "wall": "|", "closed": "#", "raised": "'"}
_H: Final = {"": "  ", "wall": "--", "closed": "##", "raised": "''"}


def _square(x: int, y: int) -> int:
    return y * WIDTH + x if 0 <= x < WIDTH and 0 <= y < HEIGHT else -1


def hidden_starts(state: Any, seat: int, mine: dict[str, str]) -> dict[int, str]:
    """The starting squares whose token is still face down: ``??``, or for the viewer's own
    its letter then ``?``."""
    out: dict[int, str] = {}
    if not state.teamed:
        return out
    for side in (0, 1):
        opened = state.opened(side)
        for y in START_YS:
            slot = start_slot(side, y)
            if slot in opened:
                continue
            kind = mine.get(slot) if side == seat else None
            letter = LETTER.get(kind or "", "?")
            out[_square(LINE_X[side], y)] = (letter.upper() if side == 0 else letter) + "?"
    return out


def render_board(state: Any, hidden: dict[int, str] | None = None) -> list[str]:
    """The board, one text row per square row and one per boundary between rows
    (``hidden``: squares whose face-down token is shown as given)."""
    occupancy = state.occupancy()
    kinds = state.board.kinds
    lines = ["   " + "".join(f"{x:>3}" for x in range(WIDTH))]
    for y in range(HEIGHT + 1):
        # The boundary above row y (below the last row: the edge).
        segments = [_boundary(state, _square(x, y - 1), 2, _square(x, y)) for x in range(WIDTH)]
        above = [_boundary(state, _square(x - 1, y - 1), 1, _square(x, y - 1))
                 if y > 0 else "" for x in range(WIDTH + 1)]
        below = [_boundary(state, _square(x - 1, y), 1, _square(x, y))
                 if y < HEIGHT else "" for x in range(WIDTH + 1)]
        row = "   "
        for x in range(WIDTH + 1):
            near = (segments[x - 1] if x > 0 else "", segments[x] if x < WIDTH else "",
                    above[x], below[x])
            row += "+" if any(near) else " "
            if x < WIDTH:
                row += _H[segments[x]]
        lines.append(row.rstrip())
        if y == HEIGHT:
            break
        row = f"{y:>2} "
        x = 0
        while x <= WIDTH:
            row += _V[_boundary(state, _square(x - 1, y), 1, _square(x, y))]
            if x == WIDTH:
                break
            sq = _square(x, y)
            if kinds[sq] == FACE_DOWN:  # a face-down room: its label across its five squares
                slot = slot_of(sq)
                label = _facedown_label(state, slot, y % ROOM_W)
                row += label.center(3 * ROOM_W - 1)
                x += ROOM_W
                continue
            if hidden and sq in hidden and sq not in occupancy:
                row += hidden[sq]
            else:
                row += cell_text(state, sq, occupancy.get(sq, ()), kinds[sq])
            x += 1
        lines.append(row.rstrip())
    return lines


def _facedown_label(state: Any, slot: int, r: int) -> str:
    if r == 1:
        return f"slot {slot}"
    if r == 2:
        return "face down"
    if r == 3:
        counts = [sum(1 for s, _n in state.facedown[slot] if s == seat) for seat in (0, 1)]
        return f"W{counts[0]} E{counts[1]}" if any(counts) else ""
    if r == 4 and not state.turn:  # (the set-up: how many of the tokens it takes are placed)
        return f"{len(state.facedown[slot])} of {CAPACITY[slot]} placed"
    return ""


def render_rooms(state: Any) -> list[str]:
    """Which room lies in each slot, and its orientation."""
    parts = []
    for slot, placed in enumerate(state.rooms):
        if placed is None:
            parts.append(f"{slot} face down")
        else:
            room, orientation = placed
            parts.append(f"{slot} room {room}" + (f" turned {orientation * 90}"
                                                  if orientation else ""))
    return wrap_text("Slots (0-3 north, 4-7 south, west to east): " + "; ".join(parts) + ".")


def render_sides(state: Any, labels: Sequence[str]) -> list[str]:
    """Each side: victory points, cards, tokens out of play."""
    lines = []
    for seat, player in enumerate(state.players):
        gone: dict[str, list[str]] = {"escaped": [], "eliminated": [], "removed": []}
        for t in range(seat * len(KINDS), (seat + 1) * len(KINDS)):
            at = state.tokens[t].at
            word = {ESCAPED: "escaped", ELIMINATED: "eliminated", REMOVED: "removed"}.get(at)
            if word:
                gone[word].append(KINDS[kind_of(t)].replace("_", "-"))
        text = (f"{labels[seat]} ({SIDE_NAME[seat]}): {player.vp} VP; action cards "
                f"{' '.join(map(str, player.hand)) or 'none'}; combat cards "
                f"{' '.join(map(str, player.combat)) or 'none'}; jumps {player.jumps}")
        for word, kinds in gone.items():
            if kinds:
                text += f"; {word}: {', '.join(kinds)}"
        lines += wrap_text(text + ".")
    return lines


def render_mine(state: Any, seat: int, mine: dict[str, str]) -> list[str]:
    """The viewer's own sealed tokens: only it knows them."""
    if seat < 0 or not mine:
        return []
    where: dict[str, str] = {}
    for slot, tokens in enumerate(state.facedown):
        for s, n in tokens:
            if s == seat:
                where[f"tok.{s}.{n}"] = f"slot {slot}"
    parts = []
    for slot_id, kind in sorted(mine.items()):
        if slot_id.startswith("start."):
            parts.append(f"{kind.replace('_', '-')} (starting square 0,{slot_id.split('.')[2]}"
                         if seat == 0 else
                         f"{kind.replace('_', '-')} (starting square {WIDTH - 1},"
                         f"{slot_id.split('.')[2]}")
            parts[-1] += ")"
        else:
            parts.append(f"{kind.replace('_', '-')} ({where.get(slot_id, 'placed')})")
    return wrap_text(f"Your face-down tokens (only you know them): {', '.join(parts)}.")


def render_turn(state: Any, labels: Sequence[str], waiting: str) -> str:
    cap = f" of {state.turn_cap}" if state.turn_cap else ""
    if state.turn and state.active >= 0:
        head = f"Turn {state.turn}{cap}: {labels[state.active]} ({SIDE_NAME[state.active]})"
        if state.ap:
            head += f", {state.ap} AP left"
        return f"{head}; {waiting}."
    return f"Set-up: {waiting}."


def render_table(view: Any, labels: Sequence[str]) -> list[str]:
    """Everything the viewer needs to decide (line mode)."""
    state = view.state
    lines = wrap_text(render_turn(state, labels, view.waiting))
    lines += render_board(state, hidden_starts(state, view.seat, view.mine))
    lines += [HINT, *render_rooms(state)]
    lines += render_sides(state, labels)
    lines += render_mine(state, view.seat, view.mine)
    if state.last:
        lines += wrap_text("Last: " + " ".join(state.last))
    return lines

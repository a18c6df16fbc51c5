"""Paper Dungeons' full-screen table and its plan builder.

The sheet is drawn **compact**, one text row a row of rooms (row 7 at the top): each room its
marks (``@`` your party, ``*`` explored, a lair's season), its minion, gem and pickups as in line
mode; between rooms side by side ``|`` a wall, ``~`` water and ``:`` open.  The walls above and
below a room, and what it holds in words, the line under the sheet says for **the room under the
cursor**.  A column beside the sheet gives the round, the season and the six dice (``W1``–``W3``
white, ``B4``–``B6`` black: letters, never colour alone), each die in the plan marked with ``>``.
Below: the heroes (B/W: their training dice), damage, potions, traps and items **of the sheet as
the plan leaves it** — the builder plays every part on the engine's own resolver as you choose
it — and every other seat in a few words (line mode's ``sheet B`` shows one in full).

The plan builder (:class:`PlanDraft`) takes the plan a part at a time:

1. **a die**, by its digit 1–6 (not a skull, not one already in the plan);
2. **its use**: the die's every legal use is known (the engine's generator); Space picks rooms on
   the sheet with the cursor — a move's rooms one step at a time — and Tab cycles through the uses
   the picks leave (with none picked: every use — evolve a hero, an item, potions, the moves);
   a use's triggered answers (``{evolve cleric}``) are its variants, cycled the same way;
3. the next die's digit takes the use as chosen and goes on; after the third, Enter locks the
   whole plan in.

Backspace takes back the last part — the cycled use, a picked room, the die, then the uses
already taken — and Esc drops the plan.  ``:`` types a plan in the notation instead; ``o``
shows another seat's whole sheet in place of yours, seat after seat, then yours again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from cli.games.paper import render
from cli.inputs import BoardCursor, InputModel, ListChoice, Touches
from cli.text import StyledLine, plain, wrap_text
from engine.core import GameState
from engine.paper.actions import MOVE, Use, format_use
from engine.paper.data import (
    COLUMNS,
    GRID,
    HEROES,
    ITEMS,
    MISSIONS,
    POWERS,
    ROOM_NAMES,
    ROWS,
    SKULL,
    VILLAINS,
)
from engine.paper.plans import die_uses
from engine.paper.resolve import Work
from engine.paper.sheet import BOARDS, WALL, WATER_EDGE, Board, Sheet, edge_kind

CELL: Final = 9
KEYS: Final = ("up", "down", "left", "right", "space", "tab", "s-tab", "o", *"123456")
KEYS_HELP: Final = """\
Keys (full screen): the plan builder
  1-6           a die by its number (W1-W3 white, B4-B6 black); the next
                die's number takes the use shown for this one and goes on
  arrows        move the cursor over the sheet (the line under it says
                what the room holds and its walls)
  Space         pick the room under the cursor: a move's rooms one step
                at a time
  Tab/Shift-Tab cycle through this die's uses your picks leave (evolve,
                item, potions, moves; each way of answering what it
                triggers is a variant); the heroes and tracks below show
                the sheet after the plan so far
  o             another seat's sheet in place of yours, seat after seat,
                then yours again (your plan stays as it is)
  Backspace     take back the last part;  Esc  drop the whole plan
  :             type the plan in the notation instead
  Enter         lock the plan in (once three dice have their uses)
Other decisions (your setup choice, a reward): Up/Down through the list."""


def room_cell(row: int, column: int) -> str:
    """The room at a screen row (0: row 7) and column: ``C4``."""
    return ROOM_NAMES[column + 6 * (ROWS - 1 - row)]


def die_name(die: int) -> str:
    return f"{'W' if die <= 3 else 'B'}{die}"


def _touches(use: Use) -> Touches:
    if use.kind != MOVE:
        return ()
    return tuple(frozenset({ROOM_NAMES[r]}) for r in use.path)


class PlanDraft(InputModel):
    """A plan built a die at a time on the seat's sheet (see the module)."""

    keys = KEYS
    hints = ("1-6 die", "arrows move", "Space pick", "Tab next use", "o other sheets",
             "Bksp undo")

    def __init__(self, sheet: Sheet, board: Board, roll: Sequence[str],
                 others: Sequence[int] = ()) -> None:
        self.sheet, self.board, self.roll = sheet, board, tuple(roll)
        self.others = tuple(others)
        self.showing: int | None = None  # another seat whose sheet is shown (o), or yours
        self.taken: list[tuple[int, str, Work]] = []  # (die, use, the work after it)
        self.die = 0  # the die whose use is being chosen (0: none)
        self.options: dict[str, Work] = {}
        self.cursor: BoardCursor | None = None
        room = sheet.room  # (the cursor starts on the party, or on row 1 while outside)
        self.at = (ROWS - 1 - room // 6, room % 6) if room >= 0 else (ROWS - 1, 2)

    # ------------------------------------------------------------------ the parts

    def work(self) -> Work:
        return self.taken[-1][2] if self.taken else Work(self.sheet, self.board)

    def after(self) -> Sheet:
        """The sheet after the uses chosen so far (the one shown for this die included)."""
        use = self.use()
        work = self.options[use] if use else self.work()
        return work.freeze(self.sheet.rounds)

    def use(self) -> str:
        """This die's use as the picks and Tab make it ("" while undecided)."""
        return self.cursor.draft() if self.cursor is not None else ""

    def _choose_die(self, die: int) -> str:
        if self.roll[die - 1] == SKULL:
            return f"{die_name(die)} shows a skull: it cannot be used."
        if any(d == die for d, _, _ in self.taken):
            return f"{die_name(die)} is in the plan already (Backspace takes a use back)."
        if len(self.taken) == 3:
            return "The plan has its three dice: Enter locks it in, Backspace takes one back."
        options = die_uses(self.work(), die, self.roll[die - 1])
        if not options:
            return f"{die_name(die)} has no legal use now."
        self.die = die
        self.options = {format_use(u): w for u, w in options}
        at = self.cursor.at if self.cursor is not None else self.at
        self.cursor = BoardCursor(ROWS, 6, room_cell,
                                  {format_use(u): _touches(u) for u, _ in options}, start=at)
        return ""

    def press(self, key: str) -> str | None:
        if key == "o":  # (another seat's sheet in place of yours, in turn; then yours again)
            if not self.others:
                return "There is no other seat."
            at = self.others.index(self.showing) + 1 if self.showing in self.others else 0
            self.showing = self.others[at] if at < len(self.others) else None
            return ""
        if key.isdigit() and len(key) == 1:
            die = int(key)
            if not 1 <= die <= len(self.roll):
                return None
            if self.die == die:
                return ""
            if self.die:
                use = self.use()
                if not use:
                    if self.cursor is not None and (self.cursor.picks or self.cursor.index >= 0):
                        return (f"Finish {die_name(self.die)}'s use first (Tab shows the uses "
                                "left), or Backspace.")
                    self._drop_die()
                else:
                    self.taken.append((self.die, use, self.options[use]))
                    self._drop_die()
            return self._choose_die(die)
        if key not in KEYS:
            return None
        if self.cursor is None:
            if key in ("up", "down", "left", "right"):
                self.at = _moved(self.at, key)
                return ""
            if len(self.taken) == 3:
                return "The plan has its three dice: Enter locks it in."
            return "Choose a die first: its number, 1-6."
        return self.cursor.press(key)

    def _drop_die(self) -> None:
        if self.cursor is not None:
            self.at = self.cursor.at
        self.die, self.options, self.cursor = 0, {}, None

    def parts(self) -> list[str]:
        out = [use for _, use, _ in self.taken]
        if self.use():
            out.append(self.use())
        return out

    def ready(self) -> bool:
        return len(self.parts()) == 3

    def draft(self) -> str:
        return "; ".join(self.parts()) if self.ready() else ""

    def shown(self) -> str:
        parts = self.parts()
        if self.die and not self.use():
            picks = " ".join(self.cursor.picks) if self.cursor is not None else ""
            parts.append(f"{die_name(self.die)} {picks or '?'}".rstrip())
        if not parts:
            return ""
        left = 3 - len(self.parts())
        return "; ".join(parts) + (f" (and {left} more {'die' if left == 1 else 'dice'})"
                                   if left else "")

    def used(self) -> set[int]:
        return {d for d, _, _ in self.taken} | ({self.die} if self.die else set())

    # ------------------------------------------------------------------ undo

    def undo(self) -> bool:
        if self.cursor is not None and self.cursor.undo():
            return True
        if self.die:
            self._drop_die()
            return True
        if self.taken:
            die, _, _ = self.taken.pop()
            self._choose_die(die)
            return True
        return False

    def clear(self) -> None:
        self.taken.clear()
        self._drop_die()

    def snapshot(self) -> Any:
        return (list(self.taken), self.die, dict(self.options), self.cursor,
                self.cursor.snapshot() if self.cursor is not None else None, self.at)

    def restore(self, saved: Any) -> None:
        taken, self.die, options, self.cursor, inner, self.at = saved
        self.taken, self.options = list(taken), dict(options)
        if self.cursor is not None:
            self.cursor.restore(inner)

    @property
    def cursor_at(self) -> tuple[int, int]:
        return self.cursor.at if self.cursor is not None else self.at


def _moved(at: tuple[int, int], key: str) -> tuple[int, int]:
    dr, dc = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}[key]
    return min(ROWS - 1, max(0, at[0] + dr)), min(5, max(0, at[1] + dc))


def inputs(state: GameState[Any], seat: int, moves: Sequence[str]) -> InputModel:
    view = state.view(seat)
    if view.phase != "plan" or not view.roll or not view.dungeon:
        return ListChoice(moves)
    others = [s.seat for s in view.seats if s.seat != seat]
    return PlanDraft(view.sheet, BOARDS[view.dungeon], view.roll, others)


# --------------------------------------------------------------------------- drawing


def board_lines(view: Any, labels: Sequence[str], model: InputModel | None,
                width: int = 80, height: int = 24) -> list[StyledLine]:
    """The compact sheet with the round and dice beside it, the room under the cursor, the
    sheet's numbers (as the plan leaves them), the villains with their lairs, the open
    missions and the other seats (see the module): at 80x24 the first lines of each, in a
    larger window every line, each seat on its own."""
    me = view.seats[view.seat] if view.seat is not None else None
    board = BOARDS[view.dungeon] if view.dungeon else None
    draft = model if isinstance(model, PlanDraft) else None
    sheet = draft.after() if draft is not None else (me.sheet if me is not None else None)
    if draft is not None and draft.showing is not None:
        return _other_sheet(view, labels, view.seats[draft.showing], board)
    at = draft.cursor_at if draft is not None else None
    marked = draft.cursor.marked() if draft is not None and draft.cursor is not None else set()
    side = _side(view, draft)
    rows: list[StyledLine] = [plain("   " + "".join(f"{c:^{CELL + 1}}" for c in COLUMNS)
                                    + "  " + side[0])]
    for r in range(ROWS):
        row = ROWS - r
        line: StyledLine = [("", f"{row:>2} " + ("=" if row in render.PASSAGE_ROWS else "|"))]
        for c in range(6):
            i = c + 6 * (row - 1)
            text = render.cell_text(sheet, board, i)
            name = ROOM_NAMES[i]
            if at == (r, c):
                line.append(("class:pd.cursor", "[" + text[:CELL - 2] + "]"))
            elif name in marked:
                line.append(("class:pd.pick", text[:CELL - 1] + "<"))
            else:
                line.append(("", text))
            if c < 5:
                line.append(("", _edge(board, i, i + 1, "|", "~", ":")))
        line.append(("", ("=" if row in render.PASSAGE_ROWS else "|") + " "
                     + (side[r + 1] if r + 1 < len(side) else "")))
        rows.append(line)
    roomy = height >= 30
    wide = max(79, width - 1)

    def lines(text: str, most: int = 99) -> list[StyledLine]:
        return [plain(t) for t in wrap_text(text, width=wide, indent="  ")[:most]]

    if at is not None and board is not None:
        rows += lines(_under_cursor(board, sheet, at), 99 if roomy else 1)
    if sheet is not None and me is not None:
        rows += lines(_numbers(sheet), 99 if roomy else 2)
    if view.phase == "choose":  # (what the setup choice chooses among, and what it means,
        # first: at 80x24 the sheet's last rows give way to it)
        rows = [row for text in _dealt(view) for row in lines(text)] + rows
    if view.dungeon:
        rows += lines(_villains(view, short=not roomy))
    if view.open_missions:
        rows += lines("Missions open: " + "; ".join(
            f"{m} {MISSIONS[m].text if roomy else SHORT_MISSIONS.get(m, MISSIONS[m].text)}"
            for m in view.open_missions) + ".")
    others = [s for s in view.seats if me is None or s.seat != me.seat]
    if others and roomy:
        rows += [row for s in others for row in lines(render.seat_line(s, labels[s.seat]))]
    elif others:
        text = "Others: " + "; ".join(_short(s, labels[s.seat]) for s in others) + "."
        rows.append(plain(text if len(text) <= wide else text[:wide - 3] + "..."))
    return rows


def _dealt(view: Any) -> list[str]:
    """The setup choice's cards in words: each dealt power with what it does, each objective
    with what it counts and its styles, and what the styles mean."""
    out = []
    powers = [c for c in view.powers if c]
    if powers:
        out.append("Your powers (keep one): " + "; ".join(
            f"{i} {POWERS[c].name}: {POWERS[c].text}" if c in POWERS else f"{i} {c}"
            for i, c in enumerate(view.powers) if c) + ".")
    objectives = [c for c in view.objectives if c]
    if objectives:
        out.append("Your objectives (keep one, secret until the end): " + "; ".join(
            f"{i} {render.card_text(c)}" for i, c in enumerate(view.objectives) if c) + ".")
        out.append("Styles: which dice train each hero, warrior/wizard/cleric/rogue in that "
                   "order, B black or W white (an objective's styles score it best).")
    return out


def _villains(view: Any, *, short: bool = False) -> str:
    """The three villains with their lairs and the heroes they are weak to."""
    parts = []
    for k, (letter, lair) in enumerate(zip(view.villains, view.lairs, strict=False)):
        villain = VILLAINS[letter]
        weak = HEROES[villain.weakness]
        parts.append(f"{render.SEASONS[k]} {villain.name} {lair}/{weak}" if short else
                     f"{render.SEASONS[k]} {villain.name} (lair {lair}, weak: {weak})")
    head = "Villains (lair/weak to): " if short else "Villains: "
    return head + ", ".join(parts) + "."


#: The open missions in a few words (a window of 80 columns); a larger one says them in full.
SHORT_MISSIONS: Final = {
    "M1": "minions of levels 3, 4, 5", "M2": "a hero at 6", "M3": "a full row",
    "M4": "all heroes at 3+", "M5": "a full column", "M6": "8 potions",
    "M7": "three heroes at 4+", "M8": "6 minions", "M9": "4 gems", "M10": "2 corners",
    "M11": "5 traps", "M12": "15 rooms", "M13": "4 items done", "M14": "HP 12",
    "M15": "all three lairs", "M16": "two heroes at 5+",
}


def _other_sheet(view: Any, labels: Sequence[str], seat_view: Any, board: Board | None
                 ) -> list[StyledLine]:
    """Another seat's sheet in place of yours (``o``): its grid, its numbers, its line."""
    sheet = seat_view.sheet
    label = labels[seat_view.seat]
    rows: list[StyledLine] = [plain(f"{label}'s sheet (o: the next seat's, then yours again)",
                                    "class:title")]
    for r in range(ROWS):
        row = ROWS - r
        side = "=" if row in render.PASSAGE_ROWS else "|"
        text = f"{row:>2} {side}"
        for c in range(6):
            i = c + 6 * (row - 1)
            text += render.cell_text(sheet, board, i)
            if c < 5:
                text += _edge(board, i, i + 1, "|", "~", ":")
        rows.append(plain(text + side))
    rows += [plain(t) for t in wrap_text(_numbers(sheet), width=79)[:2]]
    rows.append(plain(_short(seat_view, label)[:79]))
    return rows


def _edge(board: Board | None, a: int, b: int, wall: str, water: str, open_: str) -> str:
    if board is None:
        return open_
    kind = edge_kind(board, a, b)
    return wall if kind == WALL else water if kind == WATER_EDGE else open_


def _side(view: Any, draft: PlanDraft | None) -> list[str]:
    seasons = render.SEASONS
    rows = [f"round {max(1, view.round)}/8 {seasons[max(1, view.season) - 1]}"]
    used = draft.used() if draft is not None else set()
    for d, face in enumerate(view.roll, 1):
        mark = ">" if d in used else " "
        rows.append(f"{mark}{die_name(d)} {face}")
    return rows


def _numbers(sheet: Sheet) -> str:
    """The heroes and tracks in two lines at most (line mode's sheet has them in full)."""
    styles = sheet.styles or "????"
    heroes = ", ".join(f"{hero} {level}" + (f" ({style})" if style in "BW" else "")
                       for hero, level, style in zip(HEROES, sheet.levels, styles, strict=True))
    items = ", ".join(f"{name.replace('_', ' ')} {boxes}/2" for name, boxes in
                      zip(ITEMS, sheet.items, strict=True) if boxes)
    return (f"{heroes}; damage {sheet.damage}, potions {sheet.potions} (hearts used "
            f"{sheet.hearts}), traps triggered {sheet.traps}" + (f"; {items}" if items else "")
            + ".")


def _short(seat_view: Any, label: str) -> str:
    sheet = seat_view.sheet
    where = f"in {ROOM_NAMES[sheet.room]}" if sheet.room >= 0 else "outside"
    return f"{label} {seat_view.status}, {where}, glory {seat_view.score.total}"


def _under_cursor(board: Board, sheet: Sheet | None, at: tuple[int, int]) -> str:
    r, c = at
    name = room_cell(r, c)
    i = ROOM_NAMES.index(name)
    room = GRID[i]
    sides = []
    for word, other in (("north", i + 6 if r > 0 else -1), ("south", i - 6 if r < ROWS - 1
                                                             else -1),
                        ("west", i - 1 if c > 0 else -1), ("east", i + 1 if c < 5 else -1)):
        if other >= 0:
            sides.append(f"{word} " + _edge(board, i, other, "wall", "water", "open"))
    held = [w for w in (room.minion and f"{room.minion} {room.level}", room.gem and
                        f"gem {room.gem}", room.trap and "a trap",
                        room.potions and f"{room.potions} potion(s)", room.item and "an item",
                        room.evo and "an evolution") if w]
    mine = ""
    if sheet is not None:
        mine = (" your party is here;" if sheet.room == i else
                " explored;" if sheet.explored >> i & 1 else "")
    text = (f"Cursor {name}:{mine} {', '.join(held) or 'nothing'}; " + ", ".join(sides) + ".")
    return wrap_text(text, width=79)[0]

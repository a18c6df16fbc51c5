"""The small edits every rule makes to the fresh state a transition is building: the public
log, the frame stack, the figures, and the cards placed on the map.  Each changes only the
state it is given."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from engine.kards.board import neighbour
from engine.kards.cards import CHARACTER_BY_KIND, display, kind_of
from engine.kards.records import Char, Monster, ap_of, max_life

if TYPE_CHECKING:
    from engine.kards.state import Frame, KardsState

LOG_LINES: Final = 40


def say(s: KardsState, line: str) -> None:
    """Add a line to the public log (the last LOG_LINES are kept)."""
    log = (*s.log, line)
    s.log = log[-LOG_LINES:]


def pop(s: KardsState) -> None:
    s.stack = s.stack[:-1]


def push(s: KardsState, *frames: Frame) -> None:
    """Push frames; the last one given runs first."""
    s.stack = (*s.stack, *frames)


def replace(s: KardsState, *frames: Frame) -> None:
    s.stack = (*s.stack[:-1], *frames)


def set_char(s: KardsState, i: int, c: Char) -> None:
    chars = list(s.chars)
    chars[i] = c
    s.chars = tuple(chars)


def set_monster(s: KardsState, i: int, m: Monster | None) -> None:
    monsters = list(s.monsters)
    if m is None:
        del monsters[i]
    else:
        monsters[i] = m
    s.monsters = tuple(monsters)


def place_card(s: KardsState, card: str, cell: int) -> None:
    board = list(s.board)
    board[cell] = card
    s.board = tuple(board)
    s.revealed += 1


def explore_to(s: KardsState, card: str, d: int) -> None:
    """The exploration's placement (decided): place, move onto the card, draw (§4.4)."""
    c = s.chars[s.active]
    cell = neighbour(c.cell, d, s.size)
    place_card(s, card, cell)
    set_char(s, s.active, c.replace(cell=cell))
    say(s, f"{card} placed at {cell % s.size},{cell // s.size}; {display(c.card)} moves there "
        f"(revealed: {s.revealed})")
    replace(s, ("threshold",), ("draw", "explore"))


def appear(s: KardsState, card: str, cell: int) -> None:
    """A monster appears at full life, with no effects (§4.7 step 4)."""
    first = card not in s.appeared
    if first:
        s.appeared = (*s.appeared, card)
    s.monsters = (*s.monsters, Monster(card, cell, max_life(card), first, (), ap_of(card)))
    say(s, f"{display(card)} appears at {cell % s.size},{cell // s.size}"
        + (" (its first appearance)" if first else ""))


def join(s: KardsState, card: str, cell: int) -> None:
    """A solo helper joins as an ally: full life, charged, no items; it resurrects on the
    Black Gate (ruling 39)."""
    data = CHARACTER_BY_KIND[kind_of(card)]
    d05 = s.cell_of_card(s.pack.dungeon[4])
    s.chars = (*s.chars, Char(card, 0, 0, data.life, cell, d05 if d05 >= 0 else cell, 0, True,
                              None, None, (), (), (), False, data.ap, False))
    say(s, f"{display(card)} joins as an ally")

"""The small immutable records a Dungeons of Kards state is made of, and figure arithmetic
(life bands, attributes, effects) that reads only them and the card tables."""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from engine.kards.cards import (
    CHARACTER_BY_KIND,
    ITEM_BY_KIND,
    MONSTER_BY_KIND,
    Band,
    band,
    kind_of,
)


class Item(NamedTuple):
    """A weapon or pet a character holds: its card, uses left, and the turn it was acquired
    (it can be equipped from the next turn on, ruling 9)."""

    card: str
    uses: int
    since: int


class Effect(NamedTuple):
    """An ability's effect on a figure: ``stun``, ``weaken`` or ``empower`` of ``x``, with its
    timer, and the turn it was applied in (that turn does not tick it, ruling 29)."""

    kind: str
    x: int
    timer: int
    turn: int


class Char(NamedTuple):
    """A character: controlled by ``seat``; on the map at ``cell`` (-1: defeated, or not
    placed yet).  ``start`` is its starting point (its gate, or the Black Gate).  ``out``: its
    seat resigned, so it never comes back."""

    card: str
    seat: int
    team: int
    life: int
    cell: int
    start: int
    gold: int
    charged: bool
    weapon: Item | None
    pet: Item | None
    carried: tuple[Item, ...]
    stones: tuple[str, ...]
    effects: tuple[Effect, ...]
    mist: bool
    budget: int
    out: bool

    def replace(self, **changes: Any) -> Char:
        return self._replace(**changes)

    @property
    def in_play(self) -> bool:
        return self.cell >= 0


class Monster(NamedTuple):
    """A monster on the map (the Boss too).  ``first``: this is the card's first appearance."""

    card: str
    cell: int
    life: int
    first: bool
    effects: tuple[Effect, ...]
    budget: int

    def replace(self, **changes: Any) -> Monster:
        return self._replace(**changes)


class Knowledge(NamedTuple):
    """One seat's private knowledge: hidden orange draws it is owed a look at, and what it saw
    (event id → card) for draws still to come."""

    owed: tuple[str, ...] = ()
    seen: tuple[tuple[str, str], ...] = ()


NO_KNOWLEDGE: Final = Knowledge()

Figure = Char | Monster


def max_life(card: str) -> int:
    kind = kind_of(card)
    c = CHARACTER_BY_KIND.get(kind)
    if c is not None:
        return c.life
    return MONSTER_BY_KIND[kind].life


def ap_of(card: str) -> int:
    kind = kind_of(card)
    c = CHARACTER_BY_KIND.get(kind)
    if c is not None:
        return c.ap
    return MONSTER_BY_KIND[kind].ap


def row_of(card: str, life: int) -> Band:
    """The life-table band for ``life``."""
    kind = kind_of(card)
    c = CHARACTER_BY_KIND.get(kind)
    return band(c.bands if c is not None else MONSTER_BY_KIND[kind].bands, life)


def stunned(fig: Figure) -> bool:
    return any(e.kind == "stun" for e in fig.effects)


def equipped(fig: Figure) -> tuple[Item, ...]:
    if isinstance(fig, Char):
        return tuple(i for i in (fig.weapon, fig.pet) if i is not None)
    return ()


def attributes(fig: Figure) -> tuple[int, int, int]:
    """(ATK, DEF, DMG) now (§4.8): the row for the current life, equipped items' bonuses, and
    empower minus weaken on DMG (a hit still deals at least 1)."""
    b = row_of(fig.card, fig.life)
    atk, dfn, dmg = b.attack, b.defence, b.damage
    for item in equipped(fig):
        data = ITEM_BY_KIND[kind_of(item.card)]
        atk += data.attack
        dfn += data.defence
        dmg += data.damage
    for e in fig.effects:
        if e.kind == "empower":
            dmg += e.x
        elif e.kind == "weaken":
            dmg -= e.x
    return atk, dfn, dmg


def with_effect(effects: tuple[Effect, ...], new: Effect) -> tuple[Effect, ...]:
    """A same-kind effect replaces the old one (ruling 29)."""
    return (*(e for e in effects if e.kind != new.kind), new)


DICE2: Final = tuple(f"{a}+{b}" for a in range(1, 7) for b in range(1, 7))
DIE: Final = tuple(str(f) for f in range(1, 7))

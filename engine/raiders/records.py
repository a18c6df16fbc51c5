"""The immutable pieces a Dungeon Raiders state is made of (named tuples: cheap, compared by
value), the names of its fields, and the fast constructors the compiled build uses on its hot
path."""

from __future__ import annotations

from enum import Enum
from typing import Any, Final, NamedTuple

from engine.core import Chance, ChanceEvent, Simultaneous, Visibility
from engine.raiders.cards import PLAYER_COUNTS
from engine.raiders.resolve import NO_CARD

VARIANTS: Final = ("basic", "tactical")


class Phase(Enum):
    SETUP = "setup"
    LEVEL = "level"
    DEAL = "deal"
    ENTER = "enter"
    PLAY = "play"
    FOLLOWUP = "followup"
    OVER = "over"


# Module-level constants (Final): the compiled build reads them without a lookup.
_SETUP: Final = Phase.SETUP
_LEVEL: Final = Phase.LEVEL
_DEAL: Final = Phase.DEAL
_ENTER: Final = Phase.ENTER
_PLAY: Final = Phase.PLAY
_FOLLOWUP: Final = Phase.FOLLOWUP
_OVER: Final = Phase.OVER
_PUBLIC: Final = Visibility.PUBLIC
# Field indexes of the hot named tuples (index access skips the attribute lookup on the type).
_CHAR: Final = 0
_COINS: Final = 1
_WOUNDS: Final = 2
_ITEMS: Final = 3
_USED: Final = 4
_ELIM: Final = 5
_PENDING: Final = 0
_HIDDEN: Final = Visibility.HIDDEN


class Player(NamedTuple):
    """One seat's public state.  ``used`` is a bitmask of the power cards played this level
    (bit n-1 for card n); they lie face up, so everyone sees them."""

    character: str
    coins: int
    wounds: int
    items: tuple[int, int, int, int]
    used: int = 0
    eliminated: bool = False

    def replace(self, **changes: Any) -> Player:
        return self._replace(**changes)

    def hand(self) -> tuple[str, ...]:
        """The cards in hand: unplayed power cards, then items (one entry per card)."""
        power = tuple(str(v) for v in range(1, 6) if not self.used >> (v - 1) & 1)
        items: list[str] = []
        for i, name in enumerate(("torch", "crystal", "key", "sword")):
            items.extend([name] * self.items[i])
        return power + tuple(items)

    @property
    def hand_size(self) -> int:
        return 5 - self.used.bit_count() + sum(self.items)


class Knowledge(NamedTuple):
    """One seat's private knowledge: its committed but unrevealed card, the hidden events its
    torch is owed, and what its torch showed (event id -> room card) for rooms still face down."""

    pending: str = NO_CARD
    owed: tuple[str, ...] = ()
    seen: tuple[tuple[str, str], ...] = ()


NO_KNOWLEDGE = Knowledge()


def _new_player(fields: tuple[str, int, int, tuple[int, int, int, int], int, bool]) -> Player:
    """``Player(*fields)`` through tuple.__new__: a named tuple's own __new__ is interpreted
    Python even in the compiled build, and this is the hot path."""
    return tuple.__new__(Player, fields)


def _event(event_id: str, outcomes: tuple[str, ...], visibility: Visibility) -> ChanceEvent:
    """A public or hidden ChanceEvent for the hot path (valid by construction: the pools a
    draw is made from are never empty), without the interpreted validating __new__."""
    return tuple.__new__(ChanceEvent, (event_id, outcomes, visibility, None, None))


def _new_simultaneous(fields: tuple[str, frozenset[int], frozenset[int]]) -> Simultaneous:
    return tuple.__new__(Simultaneous, fields)


def _new_chance(fields: tuple[ChanceEvent]) -> Chance:
    return tuple.__new__(Chance, fields)


_FIELDS: Final = (
    "n", "tactical", "phase", "players", "supply", "level", "level_cards", "layout", "row",
    "room", "rooms", "plays", "followups", "map", "turn", "peeks", "last", "outcome",
    "knowledge", "forfeited",
)

_POWER_BIT: Final = {str(v): 1 << (v - 1) for v in range(1, 6)}
_EMPTY_PLAYS: Final = {n: (NO_CARD,) * n for n in PLAYER_COUNTS}

Hands = tuple[list[int], list[tuple[int, int, int, int]]]  # power cards used, items; per seat


def _add(items: tuple[int, int, int, int], i: int, delta: int) -> tuple[int, int, int, int]:
    lst = list(items)
    lst[i] += delta
    return _tuple4(lst)


def _tuple4(values: list[int]) -> tuple[int, int, int, int]:
    return (values[0], values[1], values[2], values[3])

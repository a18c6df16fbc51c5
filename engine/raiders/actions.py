"""Dungeon Raiders actions and their text notation.

Canonical notation (what :func:`format_action` writes):

========================  ==============================================================
``play 1`` … ``play 5``    play a power card as the room card (or as the follow-up)
``play key``               play a key (treasure rooms and the Mega-Dragon only)
``play sword``             play a sword (monster rooms and bosses)
``play torch``             play a torch as the card (value 0; peeks if a face-down room remains)
``play crystal``           play a crystal ball as the room card (a follow-up comes after)
``torch``                  use a torch to peek at the row's face-down rooms (a free action)
========================  ==============================================================

:func:`parse_action` also accepts short forms: a bare number (``4``), ``key``, ``sword``,
``crystal``, ``ball``, ``crystal ball``, ``peek``.  Case and extra spaces do not matter.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from engine.core import InvalidActionError

CARDS_IN_HAND: tuple[str, ...] = ("1", "2", "3", "4", "5", "torch", "crystal", "key", "sword")


class _ActionFields(NamedTuple):
    kind: str
    card: str


class Action(_ActionFields):
    """``kind`` is ``"play"`` (with a ``card``) or ``"peek"`` (a torch used to look).

    Validated on construction; immutable and compared by value (a named tuple)."""

    __slots__ = ()

    def __new__(cls, kind: str, card: str = "") -> Action:
        if kind == "play":
            if card not in CARDS_IN_HAND:
                raise InvalidActionError(f"there is no card {card!r} to play")
        elif kind == "peek":
            if card:
                raise InvalidActionError("a peek names no card")
        else:
            raise InvalidActionError(f"unknown action kind {kind!r}")
        return super().__new__(cls, kind, card)

    def __str__(self) -> str:
        return format_action(self)

    def __repr__(self) -> str:
        return f"Action({self.kind!r}, {self.card!r})" if self.card else "Action('peek')"


PLAY: dict[str, Action] = {card: Action("play", card) for card in CARDS_IN_HAND}
PEEK = Action("peek")

_ALIASES: dict[str, Action] = {}
for _card in CARDS_IN_HAND:
    _ALIASES[f"play {_card}"] = PLAY[_card]
for _n in "12345":
    _ALIASES[_n] = PLAY[_n]
_ALIASES.update({
    "key": PLAY["key"],
    "sword": PLAY["sword"],
    "crystal": PLAY["crystal"],
    "ball": PLAY["crystal"],
    "crystal ball": PLAY["crystal"],
    "play ball": PLAY["crystal"],
    "play crystal ball": PLAY["crystal"],
    "torch": PEEK,
    "peek": PEEK,
    "use torch": PEEK,
})

HELP = "play 1-5, play key/sword/torch/crystal, or torch to peek"


def format_action(action: Action) -> str:
    return f"play {action.card}" if action.kind == "play" else "torch"


def parse_action(text: object) -> Action:
    """Parse notation; raises :class:`InvalidActionError` for text that is no action."""
    if not isinstance(text, str):
        raise InvalidActionError(f"an action is text, not {type(text).__name__}")
    key = " ".join(text.lower().split())
    try:
        return _ALIASES[key]
    except KeyError:
        shown = text if len(text) <= 20 else text[:17] + "..."
        raise InvalidActionError(f"unknown action {shown!r}; try {HELP}") from None


def is_free(state: object, seat: int, action: Any) -> bool:
    """A torch used to look (``peek``) is the game's one free action: taken on its own, it
    leaves the seat's decision open."""
    return isinstance(action, Action) and action.kind == "peek"

"""Dungeon Twister actions and their text notation (docs/rules/twister.md §7).

Tokens are written ``W-troll`` / ``E-rope`` (seat 0 West, seat 1 East), squares ``x,y`` (x = 0..21
west to east, y = 0..9 north to south), directions ``n e s w``, slots ``0``..``7``.  Canonical
notation (what :func:`format_action` writes):

==========================================  ==================================================
``team cleric goblin thief troll``          the starting team on y = 1, 3, 6, 8 (private; its
                                            public part is ``team``)
``place 3 rope``                            a face-down token onto slot 3 (private; public
                                            ``place 3``)
``card 3``                                  play the action card 3
``move W-troll 4,6 drop 4,7``               a move: steps, with free ``drop`` / ``take E-rope``
``jump W-wall_walker 2,7 2,8``              a jump: the pit, then the landing (handling after)
``reveal W-goblin 3``                       reveal slot 3
``rotate W-goblin 1 cw 2``                  turn slot 1 two quarter turns clockwise
``attack W-warrior E-troll``                start a combat
``heal W-cleric W-warrior``                 ``regenerate W-troll``  ``drink W-goblin``
``open W-thief e`` ``close W-thief e``      ``break W-warrior s``  ``pass W-wall_walker n``
``fireball W-wizard e E-warrior``           the direction, and the character hit
``put E-troll 12,3``                        place a lifted token at a reveal
``combat 4``                                the secret combat card
``end``                                     end the turn
==========================================  ==================================================

:func:`parse_action` also accepts upper case, extra spaces, ``(x, y)`` squares and a few aliases
(``wall-walker``, ``armor``, ``wand``, ``potion``); :func:`format_action` writes the canonical
form, and ``format_action(parse_action(s)) == s`` for every canonical ``s``.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from engine.core import InvalidActionError
from engine.twister.data import (
    CHARACTERS,
    HEIGHT,
    KIND_ALIASES,
    KINDS,
    PER_SEAT,
    SLOTS,
    TOKENS,
    WIDTH,
    square_name,
    token_id,
)
from engine.twister.rooms import DIRS

DROP: Final = -1  # a path item: drop the carried token (a take of token t is -(2 + t))

KINDS_OF_ACTION: Final = (
    "team", "place", "card", "end", "move", "jump", "reveal", "rotate", "attack", "heal",
    "regenerate", "drink", "open", "close", "break", "pass", "fireball", "put", "combat")
_ACTOR_ONLY: Final = ("regenerate", "drink")
_DIRECTED: Final = ("open", "close", "break", "pass")


class Action(NamedTuple):
    """One action.  ``who`` is the acting (or placed) token, ``n`` and ``m`` the numbers the kind
    needs (a slot, a card, a square, a direction, a target token, signed quarter turns) and
    ``path`` a move's steps and handling, or a team's character kinds.  A private action (a team
    with its characters, a placement with its token kind) differs from its public part only in
    ``path`` / ``m``; see :func:`public_part`."""

    kind: str
    who: int = -1
    n: int = -1
    m: int = -1
    path: tuple[int, ...] = ()

    def __str__(self) -> str:
        return format_action(self)


END: Final = Action("end")
TEAM: Final = Action("team")


def take(token: int) -> int:
    """The path item for picking up ``token``."""
    return -2 - token


def taken(item: int) -> int:
    """The token a path item picks up (the item is a take)."""
    return -2 - item


def is_private(action: Action) -> bool:
    """Whether the action names a face-down token's identity (a team, a placement's kind)."""
    return (action.kind == "team" and bool(action.path)) or (action.kind == "place"
                                                             and action.m >= 0)


def public_part(action: Action) -> Action:
    """The action with every identity removed: what every peer applies."""
    if action.kind == "team":
        return TEAM
    if action.kind == "place":
        return Action("place", n=action.n)
    return action


def _token(text: str) -> int:
    t = text.lower()
    if len(t) < 3 or t[1] != "-" or t[0] not in "we":
        raise InvalidActionError(f"{text!r} is not a token (write W-troll or E-rope)")
    kind = KIND_ALIASES.get(t[2:], t[2:])
    if kind not in KINDS:
        raise InvalidActionError(f"{text!r} is not a token (no kind {t[2:]!r})")
    return "we".index(t[0]) * PER_SEAT + KINDS.index(kind)


def _kind(text: str) -> int:
    t = text.lower()
    kind = KIND_ALIASES.get(t, t)
    if kind not in KINDS:
        raise InvalidActionError(f"{text!r} is not a character or object")
    return KINDS.index(kind)


_SQUARE = re.compile(r"^(\d{1,2}),(\d{1,2})$")


def _is_square(text: str) -> bool:
    return _SQUARE.match(text) is not None


def _square(text: str) -> int:
    found = _SQUARE.match(text)
    if found is None:
        raise InvalidActionError(f"{text!r} is not a square (write x,y such as 4,7)")
    x, y = int(found.group(1)), int(found.group(2))
    if not (0 <= x < WIDTH and 0 <= y < HEIGHT):
        raise InvalidActionError(f"square {text} is off the board (x 0-21, y 0-9)")
    return y * WIDTH + x


def _number(text: str, low: int, high: int, what: str) -> int:
    if not text.isdigit() or not low <= int(text) <= high:
        raise InvalidActionError(f"{what} is {low} to {high}, not {text!r}")
    return int(text)


def _direction(text: str) -> int:
    d = {"north": "n", "east": "e", "south": "s", "west": "w"}.get(text, text)
    if d not in DIRS or len(d) != 1:
        raise InvalidActionError(f"{text!r} is not a direction (n, e, s or w)")
    return DIRS.index(d)


def _path(words: list[str]) -> tuple[int, ...]:
    out: list[int] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w == "drop":
            out.append(DROP)
        elif w == "take":
            if i + 1 >= len(words):
                raise InvalidActionError("'take' names the token picked up: take E-rope")
            out.append(take(_token(words[i + 1])))
            i += 1
        else:
            out.append(_square(w))
        i += 1
    if len(out) > 64:
        raise InvalidActionError("that move is far too long")
    return tuple(out)


HELP: Final = ("card N, move W-x x,y ... [drop|take E-y], jump, reveal W-x SLOT, "
               "rotate W-x SLOT cw|ccw N, attack W-x E-y, heal, regenerate, open/close/break/"
               "pass W-x DIR, fireball W-x DIR E-y, drink W-x, put W-x x,y, combat N, end")


def _need(words: list[str], count: int, usage: str) -> None:
    if len(words) != count:
        raise InvalidActionError(f"write {usage}")


def parse_action(text: object) -> Action:
    """Parse notation (only: :meth:`TwisterState.parse_action` also checks it); raises
    :class:`InvalidActionError` for text that is no action."""
    if not isinstance(text, str):
        raise InvalidActionError(f"an action is text, not {type(text).__name__}")
    if len(text) > 600:
        raise InvalidActionError("that action is far too long")
    clean = re.sub(r"\(\s*(\d+)\s*,\s*(\d+)\s*\)", r"\1,\2", text.lower())
    clean = re.sub(r"(\d)\s*,\s*(\d)", r"\1,\2", clean)
    words = clean.split()
    if not words:
        raise InvalidActionError(f"an empty action; try {HELP}")
    verb, args = words[0], words[1:]
    if verb == "end":
        _need(args, 0, "end")
        return END
    if verb == "team":
        if not args:
            return TEAM
        _need(args, 4, "team and four characters, for y = 1, 3, 6 and 8")
        kinds = tuple(_kind(a) for a in args)
        for k in kinds:
            if k >= len(CHARACTERS):
                raise InvalidActionError(f"a starting team holds characters, not {KINDS[k]}")
        return Action("team", path=kinds)
    if verb == "place":
        if len(args) not in (1, 2):
            raise InvalidActionError("write place SLOT (and your token's kind: place 3 rope)")
        slot = _number(args[0], 0, SLOTS - 1, "a slot")
        return Action("place", n=slot, m=_kind(args[1]) if len(args) == 2 else -1)
    if verb in ("card", "combat"):
        _need(args, 1, f"{verb} N")
        high = 5 if verb == "card" else 6
        return Action(verb, n=_number(args[0], 2 if verb == "card" else 0, high, f"a {verb} "
                                      "card"))
    if verb in ("move", "jump"):
        if not args:
            raise InvalidActionError(f"write {verb} W-x and its squares")
        return Action(verb, who=_token(args[0]), path=_path(args[1:]))
    if verb == "reveal":
        _need(args, 2, "reveal W-x SLOT")
        return Action("reveal", who=_token(args[0]), n=_number(args[1], 0, SLOTS - 1, "a slot"))
    if verb == "rotate":
        if len(args) not in (3, 4):
            raise InvalidActionError("write rotate W-x SLOT cw|ccw [1-3]")
        sense = {"cw": 1, "ccw": -1}.get(args[2])
        if sense is None:
            raise InvalidActionError(f"a rotation is cw or ccw, not {args[2]!r}")
        quarters = _number(args[3], 1, 3, "a rotation") if len(args) == 4 else 1
        return Action("rotate", who=_token(args[0]), n=_number(args[1], 0, SLOTS - 1, "a slot"),
                      m=sense * quarters)
    if verb in ("attack", "heal"):
        _need(args, 2, f"{verb} W-x E-y")
        return Action(verb, who=_token(args[0]), m=_token(args[1]))
    if verb in _ACTOR_ONLY:
        _need(args, 1, f"{verb} W-x")
        return Action(verb, who=_token(args[0]))
    if verb in _DIRECTED:
        _need(args, 2, f"{verb} W-x DIRECTION")
        return Action(verb, who=_token(args[0]), n=_direction(args[1]))
    if verb == "fireball":
        _need(args, 3, "fireball W-wizard DIRECTION E-target")
        return Action("fireball", who=_token(args[0]), n=_direction(args[1]), m=_token(args[2]))
    if verb == "put":
        _need(args, 2, "put W-x x,y")
        return Action("put", who=_token(args[0]), n=_square(args[1]))
    shown = text if len(text) <= 24 else text[:21] + "..."
    raise InvalidActionError(f"unknown action {shown!r}; try {HELP}")


def _item(item: int) -> str:
    if item == DROP:
        return "drop"
    if item < 0:
        return f"take {token_id(taken(item))}"
    return square_name(item)


def format_action(action: Action) -> str:
    """The canonical notation of ``action``."""
    kind = action.kind
    if kind == "end":
        return "end"
    if kind == "team":
        return " ".join(("team", *(KINDS[k] for k in action.path)))
    if kind == "place":
        return f"place {action.n}" + (f" {KINDS[action.m]}" if action.m >= 0 else "")
    if kind in ("card", "combat"):
        return f"{kind} {action.n}"
    who = token_id(action.who) if 0 <= action.who < TOKENS else "?"
    if kind in ("move", "jump"):
        return " ".join((kind, who, *(_item(i) for i in action.path)))
    if kind == "reveal":
        return f"reveal {who} {action.n}"
    if kind == "rotate":
        sense = "cw" if action.m > 0 else "ccw"
        return f"rotate {who} {action.n} {sense} {abs(action.m)}"
    if kind in ("attack", "heal"):
        return f"{kind} {who} {token_id(action.m)}"
    if kind in _ACTOR_ONLY:
        return f"{kind} {who}"
    if kind in _DIRECTED:
        return f"{kind} {who} {DIRS[action.n]}"
    if kind == "fireball":
        return f"fireball {who} {DIRS[action.n]} {token_id(action.m)}"
    if kind == "put":
        return f"put {who} {square_name(action.n)}"
    return f"{kind}?"

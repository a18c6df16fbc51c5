"""A table's speed: the timeouts its opener chooses, which go into the signed header (every seat
signs them) and into the table's advert, so a player sees them before sitting down.

A header's ``timeouts`` are ``(quick, normal, long, silence)`` whole seconds: how long a
decision of each time class may take before its seat is overdue, and how long after that before
it is voted absent (protocol.md §6.6).  A table picks them by name (``--speed``, like Board Game
Arena's table speeds) or exactly (``--timeouts Q,N,L,S``).  Pure: no I/O.
"""

from __future__ import annotations

from typing import Final

from protocol.wire.header import DEFAULT_TIMEOUTS, MAX_TIMEOUT, check_timeouts

from protocol.errors import BadMessage

TableTimeouts = tuple[int, int, int, int]
"""(quick, normal, long, silence) whole seconds, as a header carries them."""

SPEEDS: Final[dict[str, TableTimeouts]] = {
    "fast": (15, 45, 150, 30),
    "normal": DEFAULT_TIMEOUTS,
    "slow": (60, 180, 600, 120),
}
"""The named speeds, fastest first; ``normal`` is the header's default."""

MIN_CHOSEN: Final = 5
"""The least a person may choose for any timeout (``--timeouts``): shorter, the peers of one
busy machine (you and your bots) time each other out.  (A header allows 1 s; tests override
the timeouts a peer applies instead, see ``p2p.peer.PeerConfig``.)"""

_NAMES: Final = ("quick", "normal", "long", "silence")


def speed_timeouts(speed: str) -> TableTimeouts:
    """The timeouts of a named speed; ValueError (one line) naming the speeds there are."""
    try:
        return SPEEDS[speed]
    except KeyError:
        raise ValueError(f"no speed {speed!r} (choose {', '.join(SPEEDS)})") from None


def parse_timeouts(text: str, *, minimum: int = MIN_CHOSEN) -> TableTimeouts:
    """``Q,N,L,S`` (whole seconds) as a person types it; ValueError (one line) saying what
    is wrong: not four whole numbers, one below ``minimum`` or above a day, or quick, normal
    and long not growing."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 4 or not all(part.isascii() and part.isdigit() for part in parts):
        raise ValueError(f"{text!r} is not four whole numbers of seconds QUICK,NORMAL,LONG,"
                         "SILENCE (for example 30,90,300,60)")
    values = tuple(int(part) for part in parts)
    for name, value in zip(_NAMES, values, strict=True):
        if not minimum <= value <= MAX_TIMEOUT:
            raise ValueError(f"the {name} timeout must be {minimum} to {MAX_TIMEOUT} seconds, "
                             f"not {value}")
    return checked(values)


def checked(timeouts: object) -> TableTimeouts:
    """``timeouts`` if a header may carry them; ValueError (one line) otherwise."""
    try:
        return check_timeouts(timeouts)
    except BadMessage as exc:
        raise ValueError(str(exc)) from None


def speed_name(timeouts: tuple[int, ...]) -> str:
    """``fast``, ``normal`` or ``slow`` for a named speed's timeouts, else ``custom``."""
    for name, values in SPEEDS.items():
        if tuple(timeouts) == values:
            return name
    return "custom"


def describe(timeouts: tuple[int, ...]) -> str:
    """One line for a person: ``normal (a move 90 s, quick 30 s, long 300 s; then 60 s of
    silence)``."""
    quick, normal, long, silence = timeouts
    return (f"{speed_name(timeouts)} (a move {normal} s, quick {quick} s, long {long} s; then "
            f"{silence} s of silence)")


def to_txt(timeouts: tuple[int, ...]) -> str:
    """The advert's ``to`` value: ``30,90,300,60``."""
    return ",".join(str(t) for t in checked(tuple(timeouts)))


def from_txt(text: str) -> TableTimeouts:
    """An advert's ``to`` value; ValueError if it is not one a header may carry."""
    return parse_timeouts(text, minimum=1)

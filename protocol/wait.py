"""What a match waits for, and for how long (F6): one wait clock per core.

The wait restarts whenever the match moves (a message consumed, a seat replaced, a vote read).
Past the wait's turn timeout the seats it waits for are reported overdue (``SeatsOverdue``: the
driver asks every peer for their messages); past the silence timeout too, they are timed out
(``SeatTimedOut``: the local seat votes them absent).  A wait's turn timeout is the longest of
the turn timeouts its seats are owed under (``MatchCore.turn_timeout``: a decision under its
step's time class, anything else under the quick timeout; protocol.md §6.6).  A live peer holds
a dead end of crossed votes a (normal) turn timeout before it breaks it
(``MatchConfig.wait_at_dead_ends``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from engine.core import TimeClass
from protocol.match.events import Event, SeatsOverdue, SeatTimedOut
from protocol.wire.messages import Kind

DECISIONS: Final = frozenset({Kind.COMMIT, Kind.ACT})
"""What a seat owes when it owes a decision (the rows of protocol.md §6.2 marked as waiting for
one): these are timed under the step's time class."""


@dataclass(frozen=True)
class MatchConfig:
    """The settings of a match core (a rebuilt core receives them whole)."""

    turn_timeout: float = 90.0
    """Seconds the match waits for a seat's decision of the normal time class before it
    reports the seat overdue (and how long a live peer holds a dead end)."""
    silence_timeout: float = 60.0
    """Seconds after that before the seat is timed out (the local seat votes it absent)."""
    wait_at_dead_ends: bool = False
    """Hold a dead end of crossed votes a turn timeout before breaking it (a live peer: messages
    on their way may change it); a replay of a file, which holds them all, breaks it at once."""
    quick_timeout: float | None = None
    """The turn timeout of a quick decision and of every message that is no decision (None:
    ``turn_timeout``)."""
    long_timeout: float | None = None
    """The turn timeout of a long decision (None: ``turn_timeout``)."""

    @classmethod
    def from_timeouts(cls, timeouts: Sequence[float], *,
                      wait_at_dead_ends: bool = False) -> MatchConfig:
        """The settings for a header's ``timeouts`` ``(quick, normal, long, silence)``."""
        quick, normal, long, silence = timeouts
        return cls(turn_timeout=normal, silence_timeout=silence, quick_timeout=quick,
                   long_timeout=long, wait_at_dead_ends=wait_at_dead_ends)

    @property
    def quick(self) -> float:
        """The quick turn timeout in force."""
        return self.turn_timeout if self.quick_timeout is None else self.quick_timeout

    @property
    def shortest(self) -> float:
        """The shortest turn timeout: no wait that starts later can end sooner than this."""
        long = self.turn_timeout if self.long_timeout is None else self.long_timeout
        return min(self.quick, self.turn_timeout, long)

    def owed_under(self, decision: TimeClass | None) -> float:
        """The turn timeout of a seat that owes a decision of time class ``decision``, or (None)
        a message that is no decision: the quick one (protocol.md §6.6).  A decision is the
        COMMIT of a simultaneous step or the ACT of a turn (:data:`DECISIONS`) that the seat
        has not sent yet; everything else a seat may owe — a REVEAL, chance commitments,
        reveals and digests, a SEAL_KEY, DELIVERY or KEY_RELEASE, a WELCOME, END, a vote, or
        a message in hand that cannot be taken — its program sends without a person."""
        if decision is None or decision is TimeClass.QUICK:
            return self.quick
        if decision is TimeClass.LONG and self.long_timeout is not None:
            return self.long_timeout
        return self.turn_timeout


class WaitClock:
    """The current wait: since when, for whom, and what the clock found."""

    def __init__(self, config: MatchConfig,
                 turn_of: Callable[[tuple[int, ...]], float] | None = None) -> None:
        self.config = config
        # The turn timeout of a wait for these seats (None: the config's turn timeout).
        self._turn_of = turn_of
        self._turn: tuple[tuple[int, ...], float] | None = None  # (seats, their turn timeout)
        self.now = 0.0
        self.key: tuple[object, ...] = ()  # names the match's point (see Waiting.state_key)
        self.since = 0.0
        self.owing: tuple[int, ...] | None = None  # who it waits for (cached per wait)
        self.overdue_reported: tuple[object, ...] = ()
        self.timed_out_reported: tuple[object, ...] = ()
        self.dead_end_seen: tuple[object, ...] = ()
        self.dead_end_due: tuple[object, ...] = ()
        self.overdue: dict[int, int] = {}  # seat -> count the local clock found it overdue at
        self.timed_out: dict[int, int] = {}  # seat -> count the local clock timed it out at

    def note(self, key: tuple[object, ...]) -> None:
        """The match is at ``key``: a new wait begins if it moved."""
        if key != self.key:
            self.key = key
            self.since = self.now
            self.owing = None

    def dead_end_waits(self) -> bool:
        """A dead end of crossed votes is held back here, in this wait, until the turn
        timeout."""
        key = self.key
        return bool(key) and self.dead_end_seen == key and self.dead_end_due != key

    def turn(self, seats: tuple[int, ...]) -> float:
        """The turn timeout of the current wait for ``seats`` (asked once per set of seats)."""
        if self._turn_of is None or not seats:
            return self.config.turn_timeout
        cached = self._turn
        if cached is None or cached[0] is not seats:
            cached = self._turn = (seats, self._turn_of(seats))
        return cached[1]

    def timer(self, owing: Callable[[], tuple[int, ...]]) -> float | None:
        """When the next timeout falls (None: the match waits for nobody)."""
        seats = owing()
        if not seats:
            return self.since + self.config.turn_timeout if self.dead_end_waits() else None
        turn = self.turn(seats)
        if self.overdue_reported != self.key:
            return self.since + turn
        if self.timed_out_reported != self.key:
            return self.since + turn + self.config.silence_timeout
        return None

    def hold_dead_end(self, key: tuple[object, ...]) -> bool:
        """A live peer holds a dead end of crossed votes at the match's point ``key`` until it
        has lasted a turn timeout: True while it holds it."""
        if self.config.wait_at_dead_ends and self.dead_end_due != key:
            self.dead_end_seen = key
            # (Who is owed was cached for this wait, maybe before the last message came in: at
            # a dead end nobody is, and the held-back timer must be the one that runs.)
            self.owing = None
            return True
        return False

    def dead_end_lasted(self, now: float) -> bool:
        """A held-back dead end has lasted a turn timeout: it is due now."""
        if self.dead_end_waits() and now >= self.since + self.config.turn_timeout:
            self.dead_end_due = self.key
            return True
        return False

    def fire(self, now: float, seats: tuple[int, ...], where: str,
             cursor: Sequence[int]) -> list[Event]:
        """Report ``seats`` overdue, then timed out, as the timeouts pass (once per wait)."""
        key = self.key
        events: list[Event] = []
        turn = self.turn(seats)
        if now >= self.since + turn and self.overdue_reported != key:
            self.overdue_reported = key
            for seat in seats:
                self.overdue[seat] = cursor[seat]
            events.append(SeatsOverdue(tuple(seats), where, self.since))
        if (now >= self.since + turn + self.config.silence_timeout
                and self.timed_out_reported != key):
            self.timed_out_reported = key
            for seat in seats:
                self.timed_out[seat] = cursor[seat]
                events.append(SeatTimedOut(seat, cursor[seat], where))
        return events

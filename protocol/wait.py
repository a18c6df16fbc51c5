"""What a match waits for, and for how long (F6): one wait clock per core.

The wait restarts whenever the match moves (a message consumed, a seat replaced, a vote read).
Past the turn timeout the seats it waits for are reported overdue (``SeatsOverdue``: the driver
asks every peer for their messages); past the silence timeout too, they are timed out
(``SeatTimedOut``: the local seat votes them absent).  A live peer holds a dead end of crossed
votes a turn timeout before it breaks it (``MatchConfig.wait_at_dead_ends``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from protocol.events import Event, SeatsOverdue, SeatTimedOut


@dataclass(frozen=True)
class MatchConfig:
    """The settings of a match core (a rebuilt core receives them whole)."""

    turn_timeout: float = 90.0
    """Seconds the match waits for a seat's message before it reports the seat overdue."""
    silence_timeout: float = 60.0
    """Seconds after that before the seat is timed out (the local seat votes it absent)."""
    wait_at_dead_ends: bool = False
    """Hold a dead end of crossed votes a turn timeout before breaking it (a live peer: messages
    on their way may change it); a replay of a file, which holds them all, breaks it at once."""


class WaitClock:
    """The current wait: since when, for whom, and what the clock found."""

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        self.now = 0.0
        self.key: tuple[object, ...] = ()  # names the match's point (see MatchCore._wait_state)
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

    def timer(self, owing: Callable[[], tuple[int, ...]]) -> float | None:
        """When the next timeout falls (None: the match waits for nobody)."""
        turn = self.config.turn_timeout
        if not owing():
            return self.since + turn if self.dead_end_waits() else None
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
        turn = self.config.turn_timeout
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

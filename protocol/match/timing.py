"""Timing (F6, protocol.md §6.6, §7.6): who the match waits for, and for how long.

:class:`WaitClock` is the wait clock, one per core.  The wait restarts whenever the match moves
(a message consumed, a seat replaced, a vote read).  Past the wait's turn timeout the seats it
waits for are reported overdue (``SeatsOverdue``: the driver asks every peer for their
messages); past the silence timeout too, they are timed out (``SeatTimedOut``: the local seat
votes them absent).  A wait's turn timeout is the longest of the turn timeouts its seats are
owed under (``MatchCore.turn_timeout``: a decision under its step's time class, anything else
under the quick timeout).  A live peer holds a dead end of crossed votes a (normal) turn timeout
before it breaks it (``MatchConfig.wait_at_dead_ends``).

:class:`Waiting` answers, for a :class:`~protocol.match.core.MatchCore`, which seats owe a
message now (lacking it, owing a vote, or stuck on one that cannot be taken), the timeout each
is owed under, and turns the clock's deadlines into :class:`~protocol.match.events.SeatsOverdue`
and :class:`~protocol.match.events.SeatTimedOut`.  It reads the core and changes nothing but its
own "unfit" marks and the core's clock.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from engine.core import Chance as Pending
from engine.core import TimeClass
from protocol.match.events import Event, SeatsOverdue, SeatTimedOut
from protocol.wire.messages import Kind

if TYPE_CHECKING:
    from protocol.match.core import MatchCore

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
    grace_timeout: float | None = None
    """(Version 3) The grace window: how much longer than the silence timeout a wait for a seat
    at a withholding point runs before the seat is timed out (protocol.md §6.6; None:
    ``silence_timeout``, the silence timeout again)."""

    @property
    def grace(self) -> float:
        """The grace window in force."""
        return self.silence_timeout if self.grace_timeout is None else self.grace_timeout

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
                 turn_of: Callable[[tuple[int, ...]], float] | None = None,
                 grace_of: Callable[[tuple[int, ...]], float] | None = None) -> None:
        self.config = config
        # The turn timeout of a wait for these seats (None: the config's turn timeout).
        self._turn_of = turn_of
        # The grace a wait for these seats adds to the silence timeout (None: none).
        self._grace_of = grace_of
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
            return self.since + turn + self.silence(seats)
        return None

    def silence(self, seats: tuple[int, ...]) -> float:
        """The silence timeout of the current wait for ``seats``: with the grace window added
        where one of them is at a withholding point (version 3)."""
        grace = 0.0 if self._grace_of is None else self._grace_of(seats)
        return self.config.silence_timeout + grace

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
        if (now >= self.since + turn + self.silence(seats)
                and self.timed_out_reported != key):
            self.timed_out_reported = key
            for seat in seats:
                self.timed_out[seat] = cursor[seat]
                events.append(SeatTimedOut(seat, cursor[seat], where))
        return events


class Waiting:
    """The seats a :class:`~protocol.match.core.MatchCore` waits for, and its timers."""

    def __init__(self, core: MatchCore) -> None:
        self.core = core
        # seat -> (cursor, taken, seats replaced) when its next message last failed to fit for
        # a reason the kind does not show (see unfit).
        self._unfit_at: dict[int, tuple[int, int, int]] = {}

    def owing(self) -> tuple[int, ...]:
        """The seats the match waits for now: their next message is due and not in hand, or
        they owe a vote that is not in hand (its next message may be, held up by a vote on
        it — then the vote it owes is what can decide); and, when no seat lacks a message it
        owes, the seats :meth:`stuck` on a message in hand that cannot be taken."""
        if self.core.agreements.paused:
            return ()  # (an agreed pause: no timer runs, §7.7)
        lacking = self.lacking()
        owing = set(lacking)
        if self.core.votes.ballots:
            owing.update(s for s in self.core.live_seats() if self.core.votes.owes_vote(s))
        if not self.lacking_unvoted(lacking):
            owing.update(s for s in self.core.live_seats() if self._stuck(s))
        return tuple(sorted(owing))

    def lacking(self) -> list[int]:
        """Live seats blocked, or owing a message that is not in hand — votes aside: a vote
        owed on a stuck seat must not make it look unstuck to the very seats that owe it."""
        core = self.core
        blocked = core.seats.blocked
        held = core.agreements.holds
        return [s for s in core.live_seats() if s in blocked
                or (core.expects(s, votes=False) is not None and core.next_message(s) is None
                    and not held(s))]

    def lacking_unvoted(self, lacking: list[int]) -> bool:
        """Does a seat of ``lacking`` lack a message it owes with no vote on it yet?  A seat
        already voted absent there is the vote's case (protocol.md §7.6)."""
        seats, votes = self.core.seats, self.core.votes
        return any(s in seats.blocked or votes.presence(s) not in ("pending", "absent")
                   for s in lacking)

    def unfit(self, seat: int) -> bool:
        """Live ``seat``'s next message is in hand but cannot be taken where it stands, votes
        aside: of a kind it may not send now, or — at this very state, none taken since — a
        reveal whose commitment set matches none held.  An honest message is unfit only while
        this peer lacks something its sender had seen."""
        core = self.core
        message = core.next_message(seat)
        if message is None or seat in core.seats.reclaims or seat in core.seats.absent or (
                message.kind is Kind.ABSENT):
            return False
        if not core.accepts(seat, message.kind):
            # (A stale message, skipped where it stands, is no reason to vote its seat out.)
            return not core.knowledge.stale(seat, message.content)
        return self._unfit_at.get(seat) == self._unfit_key(seat)

    def _unfit_key(self, seat: int) -> tuple[int, int, int]:
        """The state an unfit verdict on ``seat``'s next message holds for (see unfit)."""
        return self.core.cursor[seat], self.core.taken, len(self.core.seats.absent)

    def mark_unfit(self, seat: int) -> None:
        """``seat``'s next message failed to fit where the match stands now."""
        self._unfit_at[seat] = self._unfit_key(seat)

    def stuck(self, seat: int) -> bool:
        """The match needs ``seat``'s message and its next one is :meth:`unfit`, while no seat
        lacks a message it owes but those voted absent there: a stuck seat is owed (timed)."""
        return self._stuck(seat) and not self.lacking_unvoted(self.lacking())

    def _stuck(self, seat: int) -> bool:
        return self.needed(seat) and self.unfit(seat)

    def needed(self, seat: int) -> bool:
        """The match needs ``seat``'s next message now (votes aside)."""
        return seat in self.core.seats.blocked or self.core.expects(seat, votes=False) is not None

    def note(self) -> None:
        """The match moved: a new wait begins."""
        self.core.clock.note(self.state_key())  # (a new wait whenever the match moves)

    def state_key(self) -> tuple[object, ...]:
        """What identifies the present wait: any change to it starts a new one."""
        core = self.core
        return (id(core.state), core.taken, len(core.seats.absent), len(core.votes.ballots))

    def owing_now(self) -> tuple[int, ...]:
        if self.core.clock.owing is None:
            self.core.clock.owing = self.owing()
        return self.core.clock.owing

    def turn_timeout(self, seat: int) -> float:
        """The turn timeout ``seat`` is owed under now (protocol.md §6.6): a decision it has not
        sent under its step's time class, anything else under the quick timeout."""
        core = self.core
        deciding = (seat not in core.seats.blocked and core.next_message(seat) is None
                    and core.expects(seat, votes=False) in DECISIONS)
        return core.config.owed_under(core.state.time_class(seat) if deciding else None)

    def grace(self, seats: tuple[int, ...]) -> float:
        """The grace window a wait for ``seats`` adds to the silence timeout (protocol.md §6.6,
        version 3): the whole window if one of them owes the reveal of a chance event whose
        every other secret is held — replaced now, it would withhold it (§7.7) — else none.  A
        seat whose link failed there has until both timeouts and the window have passed to
        come back and reveal: its secret counts, the event stands, and nobody forfeits."""
        core = self.core
        if core.version < 3 or not isinstance(core.state.waiting, Pending):
            return 0.0
        chance = core.chance
        event = chance.pending_id()
        committed = chance.commitments.get(event, {})
        held = chance.secrets.get(event, {})
        for seat in seats:
            if (chance.owes_reveal(seat) and len(committed) > 1
                    and all(s in held for s in committed if s != seat)):
                return core.config.grace
        return 0.0

    def get_timer(self) -> float | None:
        """When the next timeout falls (None: the match waits for nobody)."""
        if self.core.ending.signed or not self.core.clock.key:
            return None
        return self.core.clock.timer(self.owing_now)

    def handle_timer(self, now: float) -> list[Event]:
        """Report overdue seats once per wait (:class:`SeatsOverdue`: ask every peer for the
        message), then, after the silence timeout, time them out (:class:`SeatTimedOut`: the
        local seat votes them absent); or break a dead end of crossed votes held back for a
        turn timeout (``wait_at_dead_ends``)."""
        core, clock = self.core, self.core.clock
        clock.now = now
        start = len(core.events)
        seats = self.owing_now() if clock.key else ()
        if not seats and not core.ending.signed and clock.dead_end_lasted(now):
            core.advance()  # it lasted: settle it (the crossed votes are broken)
            return core.events[start:]
        if core.ending.signed or not seats:
            return []
        core.events.extend(clock.fire(now, seats, str(core.where()), core.cursor))
        return core.events[start:]

    def silent_dead_end(self) -> tuple[int, int] | None:
        """The point the local seat signs silent (ABSENT ``[seat, count, 2]``), once this wait
        has run both timeouts (protocol.md §7.6 item 8); None if there is none."""
        core, clock = self.core, self.core.clock
        if core.ending.signed or not core.votes.ballots or core.votes.void() or not clock.key:
            return None
        lasted = clock.key in (clock.timed_out_reported, clock.dead_end_due)
        return core.settlement.dead_end(lasted=lasted,
                                        timed_out=clock.timed_out_reported == clock.key)

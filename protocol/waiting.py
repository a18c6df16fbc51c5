"""Who the match waits for, and its timers (protocol.md §6.6, §7.6).

:class:`Waiting` answers, for a :class:`~protocol.match.core.MatchCore`, which seats owe a message now
(lacking it, owing a vote, or stuck on one that cannot be taken), the timeout each is owed
under, and turns the clock's deadlines into :class:`~protocol.match.events.SeatsOverdue` and
:class:`~protocol.match.events.SeatTimedOut`.  It reads the core and changes nothing but its own
"unfit" marks and the core's clock.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from protocol.match.events import Event
from protocol.match.timing import DECISIONS
from protocol.wire.messages import Kind

if TYPE_CHECKING:
    from protocol.match.core import MatchCore


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

"""Absent seats and rejoining (protocol.md §7.6): which seats are live, which are replaced by their
zombie (and why), which are blocked for misbehaviour, and how a replaced seat reclaims its seat.

:class:`Seats` owns these dictionaries; every other mechanism reads them through its methods.
A replaced seat's feed is read on: its stale messages are skipped, its RECLAIM is taken; every
live seat then owes a WELCOME, and the seat plays again from the first decision step at which
every live decider had welcomed it before its own first message of that step (or, in a turn, from
the first action of a decider that had welcomed it) — a point fixed by the feeds alone."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal, Protocol

from protocol.match.events import Event, PeerMisbehaved, SeatReclaimed
from protocol.wire.messages import ReclaimBody, WelcomeBody


@dataclass(frozen=True)
class Absence:
    count: int  # the seat's messages consumed when it was replaced
    reason: str
    final: bool  # replaced for misbehaviour, or it left: no reclaim
    left: bool = False  # it left the match (a LEAVE), or a claim ended it: final, no fault


class StepFirsts(Protocol):
    """Per decision step: for each live seat's first message of the step, the reclaiming seats
    it had welcomed; and whether the step's rejoins are settled."""

    first: dict[int, frozenset[int]]
    settled_rejoins: bool


class Seats:
    """Live, replaced, blocked and reclaiming seats."""

    def __init__(self, n: int, emit: Callable[[Event], None], *,
                 withholding_forfeits: bool = False) -> None:
        self.n = n
        self._emit = emit
        # Version 2 (protocol.md §7.7, "Withholding forfeits"): a replaced seat that withheld an
        # opening whose result it could know -> what it withheld; it forfeits at its first
        # decision from then on.
        self._withholding_forfeits = withholding_forfeits
        self.to_forfeit: dict[int, str] = {}
        self.withholders: set[int] = set()  # every seat ever found withholding
        self.absent: dict[int, Absence] = {}
        self.blocked: dict[int, PeerMisbehaved] = {}
        self.reclaims: dict[int, int] = {}  # replaced seat -> since, its RECLAIM consumed
        self.welcomed: dict[int, set[int]] = {}  # reclaiming seat -> seats that welcomed it
        self.replaced_at: dict[int, int] = {}  # seat -> the count it was last replaced at
        # Version 2: live seat -> the count after its LEAVE, where it is replaced once a
        # message of its is due there.
        self.leaving: dict[int, int] = {}
        self.resigning: set[int] = set()  # of those, the seats that resigned (a RESIGN)
        # Replaced after a RESIGN: the game's resignation waits for the seat's next decision.
        self.to_resign: set[int] = set()

    def live(self, seat: int) -> bool:
        return seat not in self.absent

    def live_seats(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.n) if s not in self.absent)

    def replace(self, seat: int, count: int, reason: str, *, final: bool,
                left: bool = False) -> None:
        """``seat`` is replaced at its message ``count``: its reclaim, and its welcomes of
        others, end."""
        self.absent[seat] = Absence(count, reason, final or left, left)
        self.leaving.pop(seat, None)
        self.resigning.discard(seat)
        self.replaced_at[seat] = max(count, self.replaced_at.get(seat, -1))
        self.reclaims.pop(seat, None)
        self.welcomed.pop(seat, None)
        for welcomers in self.welcomed.values():
            welcomers.discard(seat)

    def forfeited(self, seat: int) -> None:
        """Replaced ``seat`` forfeited in the game, which took it out: its replacement is for
        good — there is no seat left to reclaim."""
        absence = self.absent.get(seat)
        if absence is None:
            return  # (live: it forfeited at a decision after it rejoined; it plays no more)
        self.absent[seat] = dataclasses.replace(absence, final=True)
        self.reclaims.pop(seat, None)
        self.welcomed.pop(seat, None)

    def withheld(self, seat: int, what: str) -> None:
        """Replaced ``seat`` withheld ``what`` (an opening whose result it could know: a REVEAL
        after committing, or a chance secret every other contributor had revealed or a round
        had shown it): in version 2 it forfeits at its first decision from here — live again
        by then or not (:meth:`protocol.mechanisms.steps.Steps.resign`)."""
        if not self._withholding_forfeits or seat in self.withholders:
            return
        self.withholders.add(seat)
        self.to_forfeit[seat] = what

    # ------------------------------------------------------------------ leaving

    def on_leave(self, seat: int, count: int, *, resign: bool = False) -> None:
        """``seat``'s LEAVE (or RESIGN) was taken, ``count`` its messages taken with it: live,
        it is replaced where its next message is due (:meth:`leaver_due`); replaced already, it
        never reclaims (its reclaim, if any, ends)."""
        absence = self.absent.get(seat)
        if absence is None:
            self.leaving[seat] = count
            if resign:
                self.resigning.add(seat)
            return
        self.absent[seat] = dataclasses.replace(absence, final=True, left=True)
        self.reclaims.pop(seat, None)
        self.welcomed.pop(seat, None)

    def leaver_due(self, cursor: Callable[[int], int],
                   expects: Callable[[int], object]) -> int | None:
        """The lowest live seat that left, with a message of its due right after its LEAVE."""
        return next((s for s, count in sorted(self.leaving.items())
                     if cursor(s) == count and expects(s) is not None), None)

    # ------------------------------------------------------------------ what is owed

    def owes_welcome(self, seat: int) -> bool:
        """A replaced seat reclaimed and ``seat`` has not welcomed it."""
        return bool(self.reclaims) and any(seat not in self.welcomed.get(x, set())
                                           for x in self.reclaims)

    # ------------------------------------------------------------------ handlers

    def on_replaced_seat_message(self, seat: int,
                                 body: object) -> Literal["reclaim", "stale", "wait"]:
        """A replaced seat's next message: its RECLAIM (taken), a stale message (skipped), or,
        after its reclaim, anything (it waits until the seat rejoins)."""
        absence = self.absent[seat]
        if (isinstance(body, ReclaimBody) and body.since == absence.count
                and not absence.final and seat not in self.reclaims):
            self.reclaims[seat] = body.since
            self.welcomed[seat] = set()
            return "reclaim"
        if seat in self.reclaims:
            return "wait"
        return "stale"

    def on_welcome(self, seat: int, body: WelcomeBody,
                   cursor: Callable[[int], int]) -> Literal["welcome", "stale", "wait"]:
        absence = self.absent.get(body.seat)
        if body.seat not in self.reclaims and 0 <= body.seat < self.n and (
                (absence is not None and absence.count == body.since and not absence.final)
                or (absence is None and cursor(body.seat) <= body.since)):
            # The RECLAIM it answers is not taken here yet — its seat's feed is behind, or
            # the votes that replace the seat at ``since`` are: it waits for them.  Taken now,
            # it would be stale here and count on a peer that took the RECLAIM first (it is
            # taken at all only because another seat reclaims too).  Once the seat is past
            # ``since`` here, or was replaced elsewhere, it is stale.
            return "wait"
        if body.seat in self.reclaims and self.reclaims[body.seat] == body.since:
            self.welcomed[body.seat].add(seat)
            return "welcome"
        return "stale"

    # ------------------------------------------------------------------ rejoining

    def first_of_step(self, step: StepFirsts, seat: int, *, welcoming: bool = True) -> None:
        """Record, at a live seat's first message of a step, whom it had welcomed (nobody,
        without ``welcoming``: a direct reveal)."""
        if seat not in step.first:
            step.first[seat] = frozenset(x for x, w in self.welcomed.items()
                                         if welcoming and seat in w)

    def settle_rejoins(self, step: StepFirsts, name: str, seats: Iterable[int],
                       deciders: frozenset[int]) -> None:
        """Once every live decider's first message of the step is in: a reclaiming seat that
        every one of them had welcomed plays again from this step."""
        if step.settled_rejoins:
            return
        if not all(s in step.first for s in deciders):
            return
        step.settled_rejoins = True
        in_step = frozenset(seats)
        for x in sorted(self.reclaims):
            if x in in_step and deciders and all(x in step.first[s] for s in deciders):
                self._rejoin(x, name)

    def rejoin_at_turn(self, seat: int, step: str) -> None:
        """A turn has one decider: a reclaiming seat it had welcomed before its action plays
        again from this turn on (the feeds fix the point: the welcome precedes the action)."""
        for x in sorted(self.reclaims):
            if seat in self.welcomed.get(x, set()):
                self._rejoin(x, step)

    def _rejoin(self, seat: int, step: str) -> None:
        del self.reclaims[seat]
        del self.welcomed[seat]
        del self.absent[seat]
        self._emit(SeatReclaimed(seat, step))

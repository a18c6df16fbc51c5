"""Settlements (protocol.md §7.6 item 8): the live seats agree that one seat is silent at a dead
end that votes alone cannot break — a seat that crashed while the links between the others
stalled, so that they voted each other absent and the votes it owes never come.

Each live seat signs ABSENT ``[seat, count, 2]``; once every other live seat (at least two)
signed it, and nothing else can be taken, the seat is replaced ("settled"); meanwhile its own
"present" answers count for nothing.  :class:`Settlement` reads the signatures from
:class:`~protocol.mechanisms.votes.Votes`."""

from __future__ import annotations

from collections.abc import Sequence

from protocol.mechanisms.absence import Seats
from protocol.mechanisms.votes import Progress, Votes


class Settlement:
    """The settlement rules over the votes' signatures."""

    def __init__(self, *, seats: Seats, votes: Votes, cursor: Sequence[int],
                 progress: Progress) -> None:
        self._seats = seats
        self._votes = votes
        self._cursor = cursor
        self._progress = progress

    def all_voted_absent(self, seat: int) -> bool:
        """Every other live seat's first vote on live ``seat`` at its cursor is absent (first
        votes never change: once true, it stays true while the cursors stay)."""
        ballot = self._votes.ballots.get((seat, self._cursor[seat]))
        return ballot is not None and self._seats.live(seat) and all(
            ballot.get(v) == 1 for v in self._seats.live_seats() if v != seat)

    def held_up(self, seat: int) -> bool:
        return self._votes.presence(seat) == "pending" and (
            self._progress.next_message(seat) is not None or self._progress.needed(seat))

    def silent_candidate(self, seat: int) -> bool:
        """Voted absent by every other live seat, and held up by it — its message needed or in
        hand, or a vote it owes (a seat that owes only a vote is voted absent for it)."""
        return self.all_voted_absent(seat) and (
            self.held_up(seat)
            or (self._votes.presence(seat) == "pending" and self._votes.owes_vote(seat)))

    def dead_end(self, *, lasted: bool, timed_out: bool) -> tuple[int, int] | None:
        """The point to settle, once this wait has run both timeouts (``timed_out``; ``lasted``:
        both timeouts, or a dead end of crossed votes held a turn timeout): nothing more can be
        taken, exactly one live seat — ``seat`` at ``count`` — is held up and voted absent by
        every other live seat, every other live seat is held up by the votes of all the rest
        but ``seat`` (or not voted on at all; at least one is held up), nobody else owes a
        message this peer lacks, and no dead end of crossed votes is there to break.  Or: a
        point another seat already signed, still the match's, once this wait has lasted (a
        peer joins a settlement)."""
        pending = self.pending()
        if pending is not None:
            return pending if lasted else None
        if not timed_out:
            return None
        live = self._seats.live_seats()
        silent = [t for t in live if self.silent_candidate(t)]
        if len(silent) != 1:
            return None
        seat = silent[0]
        # Every other live seat is either held up, voted absent by every live seat but itself
        # and ``seat`` — a dead end of crossed votes but for the votes ``seat`` owes — or not
        # voted on at all (it waits on the held-up ones); at least one is held up.  (Two seats
        # cut off from a third that still reaches them each see the other silent, and sign;
        # neither settlement completes without the third seat, and a pending settlement makes
        # a later dead end of crossed votes wait for it.)
        held = 0
        ballots = self._votes.ballots
        for other in live:
            if other == seat:
                continue
            ballot = ballots.get((other, self._cursor[other]), {})
            if not self.held_up(other):
                if any(v != other for v in ballot):
                    return None  # (voted on, yet not held up: it may still move)
                continue
            held += 1
            if any(ballot.get(v) != 1 for v in live if v not in (seat, other)):
                return None
        if not held:
            return None
        if any(s != seat for s in self._progress.owing()) or self._votes.crossed() is not None:
            return None
        return seat, self._cursor[seat]

    def pending(self) -> tuple[int, int] | None:
        """The lowest point some live seat signed silent that is still the match's: its seat
        live at that count and voted absent there by every other live seat (first votes)."""
        for (seat, count), signers in sorted(self._votes.settles.items()):
            if (self._seats.live(seat) and self._cursor[seat] == count
                    and any(v != seat and self._seats.live(v) for v in signers)
                    and self.all_voted_absent(seat)):
                return seat, count
        return None

    def silenced(self, seat: int) -> bool:
        """Live ``seat`` is at a point every other live seat (at least two) signed silent, and
        every one of them voted it absent there: it is replaced once nothing else can be taken
        (:meth:`to_replace`), and meanwhile its own "present" answers count for nothing — the
        signers settled without them, and a replay that holds them must reach the same point."""
        count = self._cursor[seat]
        signers = self._votes.settles.get((seat, count))
        if not signers or not self._seats.live(seat):
            return False
        others = [v for v in self._seats.live_seats() if v != seat]
        return len(others) >= 2 and all(v in signers for v in others) and (
            self.all_voted_absent(seat))

    def to_replace(self) -> int | None:
        """The lowest seat :meth:`silenced` whose point is held up, where nobody else owes a
        message this core lacks (as where it was signed); looked at only once nothing more can
        be taken, as a dead end of crossed votes is."""
        for seat in self._seats.live_seats():
            # (silenced asks for three live seats or more: votes are not void.)
            if self.silenced(seat) and self.silent_candidate(seat) and all(
                    s == seat for s in self._progress.owing()):
                return seat
        return None

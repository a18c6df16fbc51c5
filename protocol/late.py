"""What follows a seat's END (protocol.md §7.6): a seat that signed the result took every
message the match needed before it, so an absent vote it signs later on a point before the end
holds nothing — a note, acted on never (a vote read ahead of the cursors would otherwise stall
a finished match at that point, on every copy that stores it).  Only at the END round, where a
seat silent there must be voted out for the others to finish, does such a vote count."""

from __future__ import annotations

from collections.abc import Sequence

from protocol.mechanisms.absence import Seats
from protocol.mechanisms.ending import Ending
from protocol.mechanisms.votes import Votes
from protocol.wire.feed import Feed
from protocol.wire.messages import Kind


class Late:
    """Which votes came after their voter's END."""

    def __init__(self, *, feeds: Sequence[Feed], cursor: Sequence[int], votes: Votes,
                 ending: Ending, seats: Seats) -> None:
        self._feeds = feeds
        self._cursor = cursor
        self._votes = votes
        self._ending = ending
        self._seats = seats
        self._end_seq: dict[int, int] = {}  # seat -> the sequence number of its END

    def holds_nothing(self, seat: int) -> bool:
        """Before the engine's end, every absent vote on ``seat``'s next message was signed
        after its voter's END."""
        if self._ending.ended:
            return False
        count = self._cursor[seat]
        ballot = self._votes.ballots.get((seat, count), {})
        voters = [v for v, verdict in ballot.items() if verdict == 1]
        return bool(voters) and all(
            self._votes.ballot_at[(seat, count, v)] > self.end_of(v) for v in voters)

    def votes_pending(self) -> bool:
        """Some live seat is voted absent where the match needs its message, by votes that do
        not all hold nothing (a message that does not fit then waits instead of being
        blamed)."""
        return self._votes.pending() and not all(
            self.holds_nothing(t) for (t, c) in self._votes.ballots
            if self._seats.live(t) and self._cursor[t] == c)

    def end_of(self, seat: int) -> int | float:
        """The sequence number of ``seat``'s END in its feed (infinity: none yet)."""
        found = self._end_seq.get(seat)
        if found is None:
            found = next((m.seq for m in self._feeds[seat].chain if m.kind is Kind.END), None)
            if found is None:
                return float("inf")
            self._end_seq[seat] = found
        return found

"""Forks (F5): a seat that signed two versions of one slot of its feed.

The proof (both signed versions) comes from the feed (:class:`~protocol.wire.feed.Equivocation`).
A forked seat's messages from the fork on never count, and it is replaced where its forked
message is due — the one point every peer agrees on, whichever version it took and whenever the
proof reached it; a core that consumed past the fork is rebuilt from the feeds."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from protocol.wire.feed import Equivocation


class Forks:
    """The proved forks, by seat."""

    def __init__(self) -> None:
        self.equivocations: list[Equivocation] = []
        # seat -> the sequence number of its first proven fork.
        self.forked: dict[int, int] = {}

    def mark(self, seat: int, seq: int) -> None:
        self.forked[seat] = min(seq, self.forked.get(seat, seq))

    def stops(self, seat: int, cursor: int) -> bool:
        """``seat``'s feed is read no further at ``cursor`` (it is at or past its fork)."""
        return seat in self.forked and cursor >= self.forked[seat]

    def behind(self, cursor: Sequence[int]) -> bool:
        """A seat's message was consumed at or past its fork (the seat may have been replaced
        since, at a later message: the feeds replace it at the fork)."""
        return any(cursor[s] > k for s, k in self.forked.items())

    def due(self, live: Callable[[int], bool], cursor: Sequence[int],
            expects: Callable[[int], object]) -> int | None:
        """The forked seat to replace now: live, at its fork, with a message due there."""
        if not self.forked:
            return None
        return next((s for s, k in sorted(self.forked.items())
                     if live(s) and cursor[s] == k and expects(s) is not None), None)

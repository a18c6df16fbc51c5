"""Votes on absent seats (F6, protocol.md §7.6): ABSENT ``[seat, count, absent]`` messages.

A seat the local clock timed out is voted absent at the number of its messages consumed
(``absent`` 1); a seat that holds the message answers "present" (0); a settlement signature (2)
is :mod:`protocol.mechanisms.settlements`'s.  Votes are read ahead of the cursors as soon as they
are in a
feed (a voter's first vote on a point is the one that counts), and an absent vote is *cast* once
consumed in its feed's order, so a seat is replaced after every voter's messages before its vote
and before any after it.  When every other live seat voted a seat absent where the match needs
its message, it is replaced; a dead end of crossed votes is broken by keeping one seat.

:class:`Votes` owns the ballots; it asks the match loop what it needs through :class:`Progress`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from protocol.mechanisms.absence import Seats
from protocol.wire.feed import Feed
from protocol.wire.messages import AbsentBody, Message, ReclaimBody


class Progress(Protocol):
    """What the votes may ask the match loop."""

    def next_message(self, seat: int) -> Message | None:
        """The seat's next message to take, if in hand (None: none, or its feed is stopped)."""

    def needed(self, seat: int) -> bool:
        """The match needs the seat's next message now (votes aside)."""

    def owing(self) -> tuple[int, ...]:
        """The seats the match waits for now."""


class Votes:
    """Every vote read from the feeds, and the points decided by them."""

    def __init__(self, *, seats: Seats, feeds: Sequence[Feed], cursor: Sequence[int],
                 progress: Progress, shortfalls: list[str], match_id: bytes = b"") -> None:
        self._match_id = match_id
        self._seats = seats
        self._n = seats.n
        self._feeds = feeds
        self._cursor = cursor
        self._progress = progress
        self._shortfalls = shortfalls
        # Votes, read ahead of the cursor as soon as they are in a feed: (seat, count) -> voter
        # -> 1 absent / 0 present (a voter's first vote on a point is the one that counts).
        self.ballots: dict[tuple[int, int], dict[int, int]] = {}
        self.cast: dict[tuple[int, int], set[int]] = {}  # absent votes consumed in order
        # (seat, count, voter) -> the sequence number of the voter's first vote on that point.
        self.ballot_at: dict[tuple[int, int, int], int] = {}
        # Points kept "present" to break a dead end of crossed votes (see crossed).
        self.acquitted: set[tuple[int, int]] = set()
        # (seat, count) -> the seats that signed it silent there at a dead end (settlements).
        self.settles: dict[tuple[int, int], set[int]] = {}
        self._behind_seen: set[tuple[int, int, int]] = set()  # see replaced_behind
        # (seat, voter) -> the latest point a vote of that voter made this peer rebuild for.
        self.behind_top: dict[tuple[int, int], int] = {}
        # Points whose message was taken while votes were void (see on_take): votes on them
        # are spent.
        self.spent: set[tuple[int, int]] = set()
        self._scanned = [0] * self._n
        # Absent votes and settlement signatures on a point their signer had passed when it
        # signed them (see _passed): no vote, read or cast.
        self.past: set[bytes] = set()
        # Is this voter's "present" void (it is itself settled silent)?  Set by the settlement.
        self.silenced: Callable[[int], bool] = lambda seat: False

    def void(self) -> bool:
        """Only two seats are live (or fewer): no vote can pass (it needs two voters, and a
        match is between at least two seats), so votes hold nothing up.  Two seats left that
        time each other out at once would otherwise each wait for the vote on the other for
        good: each seat's message for the vote on it, each voter's for its own vote."""
        return len(self._seats.absent) + 2 >= self._n

    # ------------------------------------------------------------------ reading the feeds

    def index(self) -> bool:
        """Read every vote ahead of the cursors — but not past a RECLAIM not yet taken: what a
        seat votes after its RECLAIM, it votes as a replaced seat, and it counts only once
        that RECLAIM is taken here.  True if a vote was read."""
        scanned = self._scanned
        read = False
        for seat, feed in enumerate(self._feeds):
            messages = feed.chain
            if len(messages) == scanned[seat]:
                continue
            index = scanned[seat]
            while index < len(messages):
                message = messages[index]
                body = message.content
                if isinstance(body, AbsentBody) and body.seat != seat and body.seat < self._n:
                    if body.absent and self._passed(seat, messages, index, body.seat,
                                                    body.count):
                        self.past.add(message.hash)
                        index += 1
                        continue
                    ballot = self.ballots.setdefault((body.seat, body.count), {})
                    if body.absent == 2:
                        self.settles.setdefault((body.seat, body.count), set()).add(seat)
                    elif seat not in ballot:
                        ballot[seat] = body.absent
                        self.ballot_at[(body.seat, body.count, seat)] = message.seq
                    read = True
                elif isinstance(body, ReclaimBody) and index >= self._cursor[seat]:
                    break
                index += 1
            scanned[seat] = index
        return read

    def _passed(self, voter: int, messages: Sequence[Message], index: int, target: int,
                count: int) -> bool:
        """Had ``voter`` passed ``target``'s message ``count`` when it signed
        ``messages[index]``?  Yes when its last message before it that carries heads names,
        as ``target``'s entry, a message of ``target``'s feed numbered ``count`` or more, or
        ``target``'s replacement mark at a later count (protocol.md §7.6 item 3): a vote
        dated so by its signer's own feed is on a point behind it, the same on every peer and
        in the verifier, which reads votes ahead of the cursors.  Version 3: when any of its
        messages before it that carry heads names so — a chance reveal's heads name the
        commitments it opens, which may be long past, so the last one alone does not date the
        vote."""
        feed = self._feeds[target]
        if messages[index].version >= 3:
            entries = {m.heads[target] for m in messages[:index] if len(m.heads) == self._n}
            held = {m.hash: m.seq for m in feed.chain}
            if any(held.get(h, -1) >= count for h in entries):
                return True
            return any(self._seats.marked_at(target, h, range(count + 1, len(feed.chain) + 1))
                       is not None for h in entries - held.keys() - {self._match_id})
        last = next((m for m in reversed(messages[:index]) if m.heads), None)
        if last is None or len(last.heads) != self._n:
            return False
        named = last.heads[target]
        place = next((m.seq for m in feed.chain if m.hash == named), None)
        if place is not None:
            return place >= count
        return self._seats.marked_at(target, named,
                                     range(count + 1, len(feed.chain) + 1)) is not None

    def unread(self) -> bool:
        """A RECLAIM was taken since the feeds were read: votes after it wait to be read."""
        return any(k < self._cursor[s] and k < len(self._feeds[s].chain)
                   for s, k in enumerate(self._scanned))

    # ------------------------------------------------------------------ consuming

    def on_vote(self, seat: int, message: Message) -> bool:
        """A vote taken in its feed's order: an absent vote is cast (unless it is on a point
        its voter had passed: :attr:`past`)."""
        body = message.content
        assert isinstance(body, AbsentBody)
        if message.hash in self.past:
            return True
        target = body.seat
        seats = self._seats
        # A vote on a point this peer has not reached yet (the target's earlier messages still
        # to come) is cast all the same: it counts when the target gets there.
        # (A vote on a message this peer already consumed is cast too: this peer may be the
        # voted seat's own, which consumed it at once — see replaced_behind.)
        if (body.absent == 1 and target != seat and 0 <= target < self._n
                and seats.live(target) and body.count > seats.replaced_at.get(target, -1)
                and not (self._cursor[target] > body.count and self.void())):
            # (Not on a message taken while votes are void — two seats left, see on_take: the
            # vote is spent, even if a replaced seat reclaims and three seats are live again.)
            self.cast.setdefault((target, body.count), set()).add(seat)
        return True

    def on_take(self, seat: int) -> None:
        """``seat``'s next message is taken."""
        if self.ballots and self.void():
            # Taken while votes are void (two seats left): a vote on this point is spent — it
            # no longer holds its voter's later messages, even if a replaced seat reclaims and
            # three seats are live again (nobody would answer "present" for a message the
            # match took without a vote).
            self.cast.pop((seat, self._cursor[seat]), None)
            self.spent.add((seat, self._cursor[seat]))

    def on_replaced(self, seat: int, count: int) -> None:
        """The votes that replaced ``seat`` are spent (later ones on those points are stale)."""
        for key in [k for k in self.cast if k[0] == seat and k[1] <= count]:
            del self.cast[key]

    # ------------------------------------------------------------------ what votes say

    def owes_vote(self, seat: int) -> bool:
        """Another live seat was voted absent where the match needs its message, and ``seat``
        has not voted on it (a silent voter would stall the vote: so it is owed, and timed)."""
        if self.void():
            return False
        for (target, count), ballot in self.ballots.items():
            if (target != seat and seat not in ballot and self._seats.live(target)
                    and self._cursor[target] == count and 1 in ballot.values()
                    and self._progress.needed(target)):
                return True
        return False

    def after_vote(self, seat: int) -> bool:
        """``seat`` cast an absent vote still undecided: its later messages wait for it."""
        if self.void():
            return False
        for (target, count), voters in self.cast.items():
            # (A vote on a seat the match no longer needs there is dormant: it completes if
            # the match comes to need that seat again at the same point.)
            if seat not in voters or not self._seats.live(target):
                continue
            cursor = self._cursor[target]
            if cursor < count:
                return True
            if cursor == count and self._progress.needed(target) and (
                    self.presence(target) != "present"):
                return True
            if cursor > count and not self.answered_present(target, count):
                # This peer consumed the message the vote says is missing: until a seat that
                # holds it says so (present), the voter's later messages wait — they may
                # follow a replacement this peer has not seen.
                return True
        return False

    def under_vote(self, seat: int) -> bool:
        voters = self.cast.get((seat, self._cursor[seat]), set())
        return any(voter != seat and self._seats.live(voter) for voter in voters)

    def answered_present(self, seat: int, count: int) -> bool:
        """A live seat other than ``seat`` voted "present" on its message ``count`` (it holds
        it), or the point was kept to break crossed votes (see :meth:`crossed`)."""
        if (seat, count) in self.acquitted:
            return True
        ballot = self.ballots.get((seat, count))
        return ballot is not None and any(
            verdict == 0 and voter != seat and self._seats.live(voter)
            and not (self.settles and self.silenced(voter))
            for voter, verdict in ballot.items())

    def presence(self, seat: int) -> str:
        """The vote on live ``seat`` at its next message: ``none`` (no vote), ``pending`` (some
        seat voted it absent; its message, even if held, waits for the others), ``present``
        (some live seat holds the message: it is consumed as usual) or ``absent`` (every other
        live seat voted it absent: it is replaced).  A function of the feeds alone."""
        ballot = self.ballots.get((seat, self._cursor[seat]))
        if not ballot or self.void():
            return "none"
        if self.answered_present(seat, self._cursor[seat]):
            return "present"
        live = {v: verdict for v, verdict in ballot.items()
                if v != seat and self._seats.live(v)}
        # Seats themselves voted absent need not vote (two seats may go silent at once) — but
        # at least two seats must vote: a seat cut off from everyone times every other seat
        # out and votes them all absent, and its vote alone must not replace anyone.
        needed = {s for s in self._seats.live_seats() if s != seat and not self.under_vote(s)}
        cast = self.cast.get((seat, self._cursor[seat]), set())
        if len(needed) >= 2 and needed <= cast:
            return "absent"
        return "pending" if live else "none"

    def pending(self) -> bool:
        """Some seat is being voted absent: a message that does not fit may come from a seat
        that already saw the outcome, so it waits instead of being blamed."""
        return any(self._seats.live(t) and self._cursor[t] == c and self.presence(t) in (
            "pending", "absent") for (t, c) in self.ballots)

    def pending_on(self, targets: tuple[int, ...]) -> bool:
        """:meth:`pending`, for votes on ``targets`` only."""
        return any(t in targets and self._seats.live(t) and self._cursor[t] == c
                   and self.presence(t) in ("pending", "absent") for (t, c) in self.ballots)

    def complete(self) -> tuple[int, int] | None:
        """The first point decided absent where the match needs its message."""
        for target, count in sorted(self.ballots):
            # Only once the match needs its message: the point the honest voters saw (votes
            # can be read ahead of time, from a file, say).
            # (Never with two seats left: presence() is then "none", see void.)
            if (self._seats.live(target) and self._cursor[target] == count
                    and self._progress.needed(target) and self.presence(target) == "absent"):
                return target, count
        return None

    # ------------------------------------------------------------------ taken too early

    def replaced_behind(self, seat: int) -> bool:
        """A live other seat voted ``seat`` absent at a message this peer had already consumed
        (``seat``'s own, say, signed here before the vote arrived), and no live seat answered
        "present": the feeds may put ``seat``'s message after a replacement, or after another
        vote's outcome, where this peer took it at once.  A peer playing ``seat`` then rebuilds
        its core from the feeds.  Each vote answers True once."""
        if not self.ballots or not self._seats.live(seat):
            return False  # (no vote at all: the common case)
        found = False
        for (target, count), ballot in self.ballots.items():
            if target != seat or not self._taken_unanswered(seat, count):
                continue
            for voter in self._absent_voters(seat, ballot):
                if (seat, count, voter) not in self._behind_seen:
                    self._behind_seen.add((seat, count, voter))
                    # A voter votes on a seat's points in the order it reaches them: a vote on
                    # a point before one of its votes that already made this peer rebuild is
                    # no news (a cheat signing one vote per message taken, last first, would
                    # otherwise make the peer replay the match once per vote).
                    if count > self.behind_top.get((seat, voter), -1):
                        self.behind_top[(seat, voter)] = count
                        found = True
        return found

    def taken_under_vote(self) -> bool:
        """This core took a live seat's message that a live other seat voted absent, with no
        live seat answering "present" (and not while votes were void): the feeds may put that
        message after the vote's outcome, so this state may be ahead of what they give; a dead
        end seen from here is not broken until the peer has answered or rebuilt."""
        return any(self._seats.live(target) and (target, count) not in self.spent
                   and self._taken_unanswered(target, count)
                   and bool(self._absent_voters(target, ballot))
                   for (target, count), ballot in self.ballots.items())

    def _taken_unanswered(self, seat: int, count: int) -> bool:
        """``seat``'s message ``count`` is taken here, after its last replacement (one already
        applied, then reclaimed, spends the votes before it), and no live seat answered
        "present" for it."""
        return self._seats.replaced_at.get(seat, -1) < count < self._cursor[seat] and (
            not self.answered_present(seat, count))

    def _absent_voters(self, seat: int, ballot: dict[int, int]) -> list[int]:
        """The live seats other than ``seat`` whose first vote in ``ballot`` is absent."""
        return [voter for voter, verdict in ballot.items()
                if verdict == 1 and voter != seat and self._seats.live(voter)]

    def know_votes_behind(self) -> None:
        """Take every vote held as seen by :meth:`replaced_behind` (the core's state is the
        feeds' own: it was just built from them)."""
        for (target, count), ballot in self.ballots.items():
            for voter in ballot:
                self._behind_seen.add((target, count, voter))

    # ------------------------------------------------------------------ dead ends

    def crossed(self) -> tuple[int, int, tuple[int, ...]] | None:
        """A dead end of crossed votes (protocol.md §7.6 item 7): the seat to keep, its point,
        and every seat held up; or None.  Looked at only once nothing more can be taken."""
        if self.void():
            return None
        seats, cursor, progress = self._seats, self._cursor, self._progress
        points = [(t, c) for (t, c) in self.ballots if cursor[t] == c and seats.live(t)]
        if len(points) < 2:
            return None  # (the common case: every vote is about a point passed)
        held = {t: c for t, c in points if self.presence(t) == "pending"
                and (progress.next_message(t) is not None or progress.needed(t))}
        if len(held) < 2 or progress.owing():
            return None
        live = seats.live_seats()
        for target, count in held.items():
            ballot = self.ballots[(target, count)]
            if any(ballot.get(v) != 1 for v in live if v != target):
                return None
        for seat in sorted(held):
            if any(self.ballot_at[(t, c, seat)] > held[seat]
                   for t, c in held.items() if t != seat):
                return seat, held[seat], tuple(sorted(held))
        return None

    def break_crossed(self, hold: Callable[[], bool],
                      settlement_pending: Callable[[], bool]) -> bool:
        """Keep the seat :meth:`crossed` names: its message is taken as if a seat had answered
        "present"; its own votes then count, and the old rules go on.  ``hold``: the dead end
        is held back here for now (a live peer waits a turn timeout); ``settlement_pending``:
        a seat signed a settlement here, which this dead end waits for."""
        found = self.crossed()
        if found is None:
            return False
        if hold():
            return False
        if self.settles and settlement_pending():
            # A seat signed a settlement here (§7.6 item 8): a peer holding every signature
            # replaces its seat before it looks for crossed votes, so this dead end waits for
            # the settlement — a peer short of a signature would otherwise keep a seat where
            # the others replace one.  The local seat joins it.
            return False
        seat, count, held = found
        self.acquitted.add((seat, count))
        self._shortfalls.append(
            f"seat {seat} kept at its message {count}: seats "
            + ", ".join(map(str, held)) + " voted each other absent at once (crossed votes)")
        return True

"""Votes on absent seats on their own (protocol/mechanisms/votes.py, protocol.md §7.6 items 1–7): a
:class:`Votes` over real feeds of signed ABSENT messages, a cursor per seat and a fake
:class:`Progress` — the mesh scenarios of crossed votes are in test_votes.py."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from protocol.match.events import Event
from protocol.mechanisms.absence import Seats
from protocol.mechanisms.votes import Votes
from protocol.wire.messages import AbsentBody, ActBody, Message, ReclaimBody, WelcomeBody

from tests.protocol.kit import FakeProgress, append, feeds


@dataclass
class Rig:
    n: int = 3
    events: list[Event] = field(default_factory=list)
    shortfalls: list[str] = field(default_factory=list)
    progress: FakeProgress = field(default_factory=FakeProgress)

    def __post_init__(self) -> None:
        self.cursor = [0] * self.n
        self.seats = Seats(self.n, self.events.append)
        self.feeds = feeds(self.n)
        self.votes = Votes(seats=self.seats, feeds=self.feeds, cursor=self.cursor,
                           progress=self.progress, shortfalls=self.shortfalls)

    def send(self, seat: int, k: int = 1) -> None:
        """``seat`` sends ``k`` messages (any kind but a vote)."""
        for _ in range(k):
            append(self.feeds[seat], ActBody("s", "play 1"))

    def vote(self, voter: int, target: int, count: int, absent: int = 1) -> Message:
        """``voter`` signs a vote; it is read (index), not consumed."""
        message = append(self.feeds[voter], AbsentBody(target, count, absent))
        self.votes.index()
        return message

    def cast(self, voter: int, target: int, count: int, absent: int = 1) -> None:
        """``voter``'s vote, signed and consumed in its feed's order."""
        self.vote(voter, target, count, absent)
        assert self.votes.on_vote(voter, AbsentBody(target, count, absent))

    def take(self, seat: int) -> None:
        self.votes.on_take(seat)
        self.cursor[seat] += 1


def rig(n: int = 3, *, need: tuple[int, ...] = ()) -> Rig:
    r = Rig(n)
    r.progress.need.update(need)
    return r


# --------------------------------------------------------------------------- reading votes


def test_votes_are_read_ahead_of_the_cursors() -> None:
    r = rig()
    assert not r.votes.index()
    r.send(0, 2)
    message = r.vote(0, 2, 4)
    assert r.votes.ballots == {(2, 4): {0: 1}}
    assert r.votes.ballot_at == {(2, 4, 0): message.seq}
    assert r.votes.cast == {}  # read, not consumed
    assert not r.votes.index()  # nothing new


def test_a_voters_first_vote_on_a_point_counts() -> None:
    r = rig()
    r.vote(0, 2, 4, absent=1)
    r.vote(0, 2, 4, absent=0)
    r.vote(1, 2, 4, absent=0)
    assert r.votes.ballots == {(2, 4): {0: 1, 1: 0}}


def test_votes_on_itself_or_past_the_table_are_not_read() -> None:
    r = rig()
    r.vote(1, 1, 0)
    r.vote(1, 5, 0)
    assert r.votes.ballots == {}


def test_a_settlement_signature_is_read_apart() -> None:
    r = rig()
    r.vote(0, 2, 4, absent=2)
    assert r.votes.settles == {(2, 4): {0}}
    assert not r.votes.ballots.get((2, 4))


def test_votes_after_a_reclaim_are_read_once_it_is_taken() -> None:
    r = rig()
    r.seats.replace(1, 0, "absent", final=False)
    append(r.feeds[1], ReclaimBody(0))
    r.vote(1, 2, 0)
    assert r.votes.ballots == {}  # a replaced seat's vote counts only once it rejoins
    assert not r.votes.unread()
    r.take(1)  # its RECLAIM taken
    assert r.votes.unread()
    assert r.votes.index()
    assert r.votes.ballots == {(2, 0): {1: 1}}
    assert not r.votes.unread()


# --------------------------------------------------------------------------- presence


def test_the_presence_of_a_seat_at_its_next_message() -> None:
    r = rig(need=(2,))
    assert r.votes.presence(2) == "none"
    r.cast(0, 2, 0)
    assert r.votes.presence(2) == "pending"
    assert r.votes.pending()
    r.cast(1, 2, 0)
    assert r.votes.presence(2) == "absent"
    assert r.votes.complete() == (2, 0)


def test_a_live_seat_holding_the_message_answers_present() -> None:
    r = rig(need=(2,))
    r.cast(0, 2, 0)
    r.vote(1, 2, 0, absent=0)
    assert r.votes.presence(2) == "present"
    assert r.votes.answered_present(2, 0)
    assert not r.votes.pending() and r.votes.complete() is None


def test_a_vote_is_about_the_seats_next_message() -> None:
    r = rig(need=(2,))
    r.cast(0, 2, 1)
    r.cast(1, 2, 1)
    assert r.votes.presence(2) == "none" and r.votes.complete() is None  # not there yet
    r.take(2)
    assert r.votes.presence(2) == "absent" and r.votes.complete() == (2, 1)


def test_a_vote_completes_only_where_the_match_needs_the_message() -> None:
    r = rig()
    r.cast(0, 2, 0)
    r.cast(1, 2, 0)
    assert r.votes.presence(2) == "absent"
    assert r.votes.complete() is None
    r.progress.need.add(2)
    assert r.votes.complete() == (2, 0)


def test_a_seat_under_a_vote_need_not_vote() -> None:
    r = rig(4, need=(2, 3))
    for voter in (0, 1, 2):
        r.cast(voter, 3, 0)
    assert r.votes.presence(3) == "absent"
    r.cast(0, 2, 0)
    r.cast(1, 2, 0)
    assert r.votes.under_vote(3)
    assert r.votes.presence(2) == "absent"  # (two seats may go silent at once)


def test_a_seat_that_votes_everyone_out_alone_replaces_nobody() -> None:
    # Cut off from everyone, seat 0 times every other seat out: its votes put the others
    # under a vote, so each vote has one voter that counts — and it needs two.
    r = rig(4, need=(1, 2, 3))
    for target in (1, 2, 3):
        r.cast(0, target, 0)
    assert [r.votes.presence(t) for t in (1, 2, 3)] == ["pending"] * 3
    assert r.votes.complete() is None


def test_with_two_seats_left_votes_are_void() -> None:
    r = rig(need=(2,))
    r.cast(0, 2, 0)
    r.seats.replace(1, 0, "absent", final=False)
    assert r.votes.void()
    assert r.votes.presence(2) == "none" and not r.votes.pending()
    assert not r.votes.owes_vote(0) and not r.votes.after_vote(0)
    assert r.votes.crossed() is None


# --------------------------------------------------------------------------- what a vote owes


def test_every_other_live_seat_owes_a_vote_where_the_match_needs_the_message() -> None:
    r = rig(need=(2,))
    r.vote(0, 2, 0)
    assert [s for s in range(3) if r.votes.owes_vote(s)] == [1]
    r.vote(1, 2, 0, absent=0)  # an answer either way
    assert not any(r.votes.owes_vote(s) for s in range(3))


def test_no_vote_is_owed_where_the_match_does_not_need_the_message() -> None:
    r = rig()
    r.vote(0, 2, 0)
    assert not r.votes.owes_vote(1)
    r.progress.need.add(2)
    r.take(2)  # past that point
    assert not r.votes.owes_vote(1)


def test_no_vote_is_owed_on_a_replaced_seat_or_on_a_present_answer_alone() -> None:
    r = rig(4, need=(3,))
    r.vote(0, 3, 0, absent=0)
    assert not r.votes.owes_vote(1)
    r.vote(1, 3, 0)
    assert r.votes.owes_vote(2)
    r.seats.replace(3, 0, "absent", final=False)
    assert not r.votes.owes_vote(2)


def test_a_voters_later_messages_wait_for_its_vote() -> None:
    r = rig(need=(2,))
    r.cast(0, 2, 1)
    assert r.votes.after_vote(0) and not r.votes.after_vote(1)  # ahead of the target
    r.take(2)
    assert r.votes.after_vote(0)  # at the point: undecided
    r.vote(1, 2, 1, absent=0)
    assert not r.votes.after_vote(0)  # answered present: the old rules go on


def test_a_vote_on_a_message_taken_here_holds_until_answered() -> None:
    r = rig(need=(2,))
    r.cursor[2] = 3
    r.cast(0, 2, 1)
    assert r.votes.after_vote(0)
    r.vote(1, 2, 1, absent=0)
    assert not r.votes.after_vote(0)


def test_a_present_answer_is_not_cast() -> None:
    r = rig(need=(2,))
    r.cast(0, 2, 0, absent=0)
    r.cast(1, 2, 0, absent=2)
    assert r.votes.cast == {}


# --------------------------------------------------------------------------- a replaced seat


def test_the_votes_that_replaced_a_seat_are_spent() -> None:
    r = rig(need=(2,))
    r.cast(0, 2, 0)
    r.cast(1, 2, 0)
    r.cast(0, 2, 3)
    r.seats.replace(2, 0, "absent", final=False)
    r.votes.on_replaced(2, 0)
    assert r.votes.cast == {(2, 3): {0}}


def test_a_vote_at_or_before_the_replacement_is_not_cast() -> None:
    r = rig()
    r.seats.replace(2, 4, "absent", final=False)
    r.seats.on_replaced_seat_message(2, ReclaimBody(4))
    r.seats.on_welcome(0, WelcomeBody(2, 4), r.cursor.__getitem__)
    r.seats.rejoin_at_turn(0, "t")
    assert r.seats.live(2)
    r.cast(0, 2, 4)
    r.cast(0, 2, 5)
    assert r.votes.cast == {(2, 5): {0}}


def test_a_message_taken_while_votes_are_void_spends_the_votes_on_it() -> None:
    r = rig()
    r.cast(0, 2, 0)
    r.seats.replace(1, 0, "absent", final=False)
    r.take(2)
    assert r.votes.spent == {(2, 0)} and r.votes.cast == {}


# --------------------------------------------------------------------------- taken too early


def test_a_vote_on_a_message_this_peer_took_says_it_may_be_ahead() -> None:
    r = rig()
    r.cursor[2] = 4  # seat 2's messages 0..3 taken here
    r.vote(0, 2, 3)
    assert r.votes.taken_under_vote()
    assert r.votes.replaced_behind(2)
    assert not r.votes.replaced_behind(2)  # each vote answers once
    assert r.votes.behind_top == {(2, 0): 3}
    r.vote(0, 2, 1)  # an older point of the same voter: no news
    assert not r.votes.replaced_behind(2)
    r.vote(1, 2, 3)  # another voter
    assert r.votes.replaced_behind(2)


def test_a_present_answer_says_this_peer_is_not_ahead() -> None:
    r = rig()
    r.cursor[2] = 4
    r.vote(0, 2, 3)
    r.vote(1, 2, 3, absent=0)
    assert not r.votes.taken_under_vote()
    assert not r.votes.replaced_behind(2)


def test_votes_read_with_the_feeds_are_no_news() -> None:
    r = rig()
    r.cursor[2] = 4
    r.vote(0, 2, 3)
    r.votes.know_votes_behind()
    assert not r.votes.replaced_behind(2)


# --------------------------------------------------------------------------- crossed votes


def crossed_votes() -> Rig:
    """Seat 0 voted seats 1 and 2 absent; seats 1 and 2 voted each other absent, each at the
    message the other holds up (seat 1's own vote comes after its message 1, seat 2's after
    its message 0)."""
    r = rig(need=(1, 2))
    r.send(1, 2)
    r.send(2, 1)
    r.cursor[1], r.cursor[2] = 1, 1
    for target in (1, 2):
        r.vote(0, target, 1)
    r.vote(1, 2, 1)
    r.vote(2, 1, 1)
    return r


def test_a_dead_end_of_crossed_votes_keeps_the_seat_whose_vote_follows_its_message() -> None:
    r = crossed_votes()
    assert r.votes.presence(1) == r.votes.presence(2) == "pending"
    assert r.votes.crossed() == (1, 1, (1, 2))


def test_a_vote_that_is_the_message_held_does_not_keep_its_seat() -> None:
    # Seat 1's message 1 is its vote itself: it shows no message of seat 1 sent before it;
    # seat 2's vote follows its message 1, so seat 2 is the one kept.
    r = rig(need=(1, 2))
    r.send(1, 1)
    r.send(2, 2)
    r.cursor[1], r.cursor[2] = 1, 1
    for target in (1, 2):
        r.vote(0, target, 1)
    r.vote(1, 2, 1)
    r.vote(2, 1, 1)
    assert r.votes.ballot_at[(2, 1, 1)] == 1 and r.votes.ballot_at[(1, 1, 2)] == 2
    assert r.votes.crossed() == (2, 1, (1, 2))


@pytest.mark.parametrize("why", ["owing", "one point", "not needed", "a voter short"])
def test_no_dead_end(why: str) -> None:
    r = crossed_votes()
    if why == "owing":
        r.progress.waits_for = (0,)
    if why == "one point":
        r.take(2)
    if why == "not needed":
        r.progress.need.discard(2)
    if why == "a voter short":
        r = rig(need=(1, 2))
        r.cursor[1], r.cursor[2] = 1, 1
        r.vote(0, 1, 1)
        r.vote(1, 2, 1)
        r.vote(2, 1, 1)
    assert r.votes.crossed() is None


def test_breaking_a_dead_end_keeps_one_seat() -> None:
    r = crossed_votes()
    assert not r.votes.break_crossed(lambda: True, lambda: False)  # held back for now
    assert r.votes.acquitted == set()
    assert r.votes.break_crossed(lambda: False, lambda: False)
    assert r.votes.acquitted == {(1, 1)}
    assert r.shortfalls == ["seat 1 kept at its message 1: seats 1, 2 voted each other absent "
                            "at once (crossed votes)"]
    assert r.votes.presence(1) == "present"
    assert r.votes.crossed() is None


def test_a_dead_end_waits_for_a_pending_settlement() -> None:
    r = crossed_votes()
    r.vote(0, 2, 1, absent=2)
    assert not r.votes.break_crossed(lambda: False, lambda: True)
    assert r.votes.break_crossed(lambda: False, lambda: False)


def test_a_silenced_voters_present_answer_counts_for_nothing() -> None:
    r = rig(4, need=(3,))
    r.vote(0, 3, 0)
    r.vote(1, 3, 0, absent=0)
    assert r.votes.presence(3) == "present"
    r.vote(0, 1, 0, absent=2)  # a settlement is signed somewhere
    r.votes.silenced = lambda seat: seat == 1  # (the settlement's rule, as the core wires it)
    assert r.votes.presence(3) == "pending"

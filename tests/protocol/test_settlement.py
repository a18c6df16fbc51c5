"""Settlements on their own (protocol/mechanisms/settlements.py, protocol.md §7.6 item 8): a
:class:`Settlement` over a :class:`Votes` read from real feeds, with a fake :class:`Progress`.

The dead end: four seats; seat 3 crashed at its message 2 and every other seat voted it absent,
while seat 2's message 1 is held up by the votes of seats 0 and 1 (the links stalled), so no
vote can complete and the votes seat 3 owes never come."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from protocol.match.events import Event
from protocol.mechanisms.absence import Seats
from protocol.mechanisms.settlements import Settlement
from protocol.mechanisms.votes import Votes
from protocol.wire.messages import AbsentBody, ActBody

from tests.protocol.kit import FakeProgress, append, feeds, signed


@dataclass
class Rig:
    n: int = 4
    events: list[Event] = field(default_factory=list)
    shortfalls: list[str] = field(default_factory=list)
    progress: FakeProgress = field(default_factory=FakeProgress)

    def __post_init__(self) -> None:
        self.cursor = [0] * self.n
        self.seats = Seats(self.n, self.events.append)
        self.feeds = feeds(self.n)
        self.votes = Votes(seats=self.seats, feeds=self.feeds, cursor=self.cursor,
                           progress=self.progress, shortfalls=self.shortfalls)
        self.settlement = Settlement(seats=self.seats, votes=self.votes, cursor=self.cursor,
                                     progress=self.progress)
        self.votes.silenced = self.settlement.silenced  # (as the match core wires them)

    def vote(self, voter: int, target: int, count: int, absent: int = 1) -> None:
        append(self.feeds[voter], AbsentBody(target, count, absent))
        self.votes.index()


def dead_end() -> Rig:
    r = Rig()
    r.cursor[2], r.cursor[3] = 1, 2
    r.progress.need.update({2, 3})
    for voter in (0, 1, 2):
        r.vote(voter, 3, 2)
    for voter in (0, 1):
        r.vote(voter, 2, 1)
    return r


def signed_silent(r: Rig, *signers: int) -> None:
    for s in signers:
        r.vote(s, 3, 2, absent=2)


# --------------------------------------------------------------------------- the dead end


def test_the_one_seat_every_other_voted_absent_and_held_up_is_the_silent_one() -> None:
    r = dead_end()
    assert r.votes.presence(3) == r.votes.presence(2) == "pending"
    assert r.votes.complete() is None and r.votes.crossed() is None  # votes alone are stuck
    assert r.settlement.all_voted_absent(3) and not r.settlement.all_voted_absent(2)
    assert r.settlement.held_up(3) and r.settlement.held_up(2)
    assert [s for s in range(4) if r.settlement.silent_candidate(s)] == [3]
    assert r.settlement.dead_end(lasted=False, timed_out=True) == (3, 2)


def test_a_dead_end_is_looked_for_once_both_timeouts_ran() -> None:
    assert dead_end().settlement.dead_end(lasted=False, timed_out=False) is None


def test_a_seat_with_its_message_in_hand_is_held_up() -> None:
    r = dead_end()
    r.progress.need.discard(2)
    assert not r.settlement.held_up(2)
    r.progress.in_hand[2] = signed(2, ActBody("s", "play 1"), seq=1)
    assert r.settlement.held_up(2)


def test_a_seat_that_owes_only_a_vote_can_be_the_silent_one() -> None:
    r = dead_end()
    r.progress.need.discard(3)
    assert not r.settlement.held_up(3)
    assert r.votes.owes_vote(3)  # on seat 2
    assert r.settlement.silent_candidate(3)


@pytest.mark.parametrize("why", ["another seat owes", "nobody else held up",
                                 "nobody else voted on", "another voted on and free",
                                 "two silent"])
def test_no_dead_end_to_settle(why: str) -> None:
    r = dead_end()
    if why == "nobody else voted on":  # (then the vote on it completes, or times out anew)
        r = Rig()
        r.cursor[3] = 2
        r.progress.need.add(3)
        for voter in (0, 1, 2):
            r.vote(voter, 3, 2)
        assert r.settlement.silent_candidate(3)
    if why == "another seat owes":
        r.progress.waits_for = (0, 3)
    if why == "nobody else held up":
        r.progress.need.discard(2)
    if why == "another voted on and free":
        r.vote(2, 1, 0)  # seat 1 is voted on, yet the match does not need its message
    if why == "two silent":
        r.vote(3, 2, 1)  # (then seat 2 is voted absent by all as well)
    assert r.settlement.dead_end(lasted=True, timed_out=True) is None


def test_a_seat_that_owes_nothing_but_the_silent_one_still_settles() -> None:
    r = dead_end()
    r.progress.waits_for = (3,)
    assert r.settlement.dead_end(lasted=False, timed_out=True) == (3, 2)


# --------------------------------------------------------------------------- signatures


def test_a_point_another_seat_signed_is_joined_once_this_wait_lasted() -> None:
    r = dead_end()
    assert r.settlement.pending() is None
    signed_silent(r, 1)
    assert r.settlement.pending() == (3, 2)
    assert r.settlement.dead_end(lasted=False, timed_out=True) is None
    assert r.settlement.dead_end(lasted=True, timed_out=False) == (3, 2)


def test_a_signature_of_a_point_passed_is_not_pending() -> None:
    r = dead_end()
    signed_silent(r, 1)
    r.cursor[3] = 3  # (its message 2 was taken after all)
    assert r.settlement.pending() is None
    assert not r.settlement.silenced(3)


def test_the_seat_is_replaced_once_every_other_live_seat_signed() -> None:
    r = dead_end()
    signed_silent(r, 0, 1)
    assert not r.settlement.silenced(3) and r.settlement.to_replace() is None
    signed_silent(r, 2)
    assert r.settlement.silenced(3)
    assert r.settlement.to_replace() == 3


def test_no_replacement_while_another_seat_owes_a_message() -> None:
    r = dead_end()
    signed_silent(r, 0, 1, 2)
    r.progress.waits_for = (1,)
    assert r.settlement.to_replace() is None


def test_a_silenced_seats_present_answers_count_for_nothing() -> None:
    r = dead_end()
    r.vote(3, 2, 1, absent=0)  # it says it holds seat 2's message
    assert r.votes.presence(2) == "present"
    signed_silent(r, 0, 1, 2)
    assert r.votes.presence(2) == "pending"


# --------------------------------------------------------------------------- a replaced seat


def test_a_replaced_seat_is_neither_pending_nor_silenced() -> None:
    r = dead_end()
    signed_silent(r, 0, 1, 2)
    r.seats.replace(3, 2, "absent", final=False)
    assert r.settlement.pending() is None
    assert not r.settlement.silenced(3) and not r.settlement.all_voted_absent(3)
    assert r.settlement.to_replace() is None


def test_signatures_need_at_least_two_other_live_seats() -> None:
    r = dead_end()
    signed_silent(r, 0, 1, 2)
    r.seats.replace(2, 1, "absent", final=False)
    r.seats.replace(1, 0, "absent", final=False)
    assert not r.settlement.silenced(3)

"""The absent seats and rejoining on their own (protocol/mechanisms/absence.py, protocol.md §7.7): a
:class:`Seats` built without a match core, driven by hand; and, last, what the core does with a
welcome (the toy match of tests/protocol/toy.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from protocol.match.events import Event, SeatReclaimed
from protocol.mechanisms import chance as chance_writers
from protocol.mechanisms.absence import Absence, Seats
from protocol.mechanisms.steps import Step
from protocol.wire.messages import AbsentBody, ActBody, Kind, ReclaimBody, WelcomeBody

from tests.protocol.toy import Match


def seats(n: int = 4) -> tuple[Seats, list[Event]]:
    events: list[Event] = []
    return Seats(n, events.append), events


def reclaiming(s: Seats, seat: int, count: int = 5) -> None:
    """``seat`` replaced at ``count``, its RECLAIM taken."""
    s.replace(seat, count, "absent: silent", final=False)
    assert s.on_replaced_seat_message(seat, ReclaimBody(count)) == "reclaim"


def at(cursor: dict[int, int]) -> Callable[[int], int]:
    return cursor.__getitem__


# --------------------------------------------------------------------------- who is live


def test_every_seat_is_live_until_replaced() -> None:
    s, events = seats(3)
    assert s.live_seats() == (0, 1, 2)
    assert all(s.live(x) for x in range(3))
    s.replace(1, 7, "absent: silent at its message 7", final=False)
    assert not s.live(1) and s.live(0) and s.live(2)
    assert s.live_seats() == (0, 2)
    assert s.absent == {1: Absence(7, "absent: silent at its message 7", False)}
    assert s.replaced_at == {1: 7}
    assert events == []  # (the core reports SeatReplaced, not the seats)


def test_replaced_at_keeps_the_latest_count() -> None:
    s, _ = seats(3)
    reclaiming(s, 1, 9)
    s.replace(1, 4, "again", final=False)
    assert s.absent[1].count == 4
    assert s.replaced_at[1] == 9


def test_a_replacement_for_misbehaviour_is_final() -> None:
    s, _ = seats(3)
    s.replace(2, 3, "equivocation", final=True)
    assert s.absent[2].final
    # No reclaim from a final replacement: its RECLAIM is a stale message, skipped.
    assert s.on_replaced_seat_message(2, ReclaimBody(3)) == "stale"
    assert not s.reclaims and not s.owes_welcome(0)


# --------------------------------------------------------------------------- a replaced seat's feed


def test_a_replaced_seats_messages_are_stale_until_its_reclaim() -> None:
    s, _ = seats(3)
    s.replace(1, 5, "absent", final=False)
    assert s.on_replaced_seat_message(1, ActBody("L1.R1.play", "play 1")) == "stale"
    assert s.on_replaced_seat_message(1, ReclaimBody(4)) == "stale"  # not its absence
    assert s.on_replaced_seat_message(1, ReclaimBody(6)) == "stale"
    assert not s.reclaims
    assert s.on_replaced_seat_message(1, ReclaimBody(5)) == "reclaim"
    assert s.reclaims == {1: 5}
    assert s.welcomed == {1: set()}


def test_after_its_reclaim_a_seats_messages_wait() -> None:
    s, _ = seats(3)
    reclaiming(s, 1)
    assert s.on_replaced_seat_message(1, ActBody("L1.R1.play", "play 1")) == "wait"
    assert s.on_replaced_seat_message(1, ReclaimBody(5)) == "wait"  # a second one too
    assert s.reclaims == {1: 5}


# --------------------------------------------------------------------------- welcomes


def test_every_live_seat_owes_a_reclaiming_seat_a_welcome() -> None:
    s, _ = seats(4)
    assert not any(s.owes_welcome(x) for x in range(4))
    reclaiming(s, 3)
    assert [x for x in range(3) if s.owes_welcome(x)] == [0, 1, 2]
    assert s.on_welcome(1, WelcomeBody(3, 5), at({})) == "welcome"
    assert s.welcomed == {3: {1}}
    assert [x for x in range(3) if s.owes_welcome(x)] == [0, 2]


def test_a_welcome_is_owed_to_each_reclaiming_seat() -> None:
    s, _ = seats(4)
    reclaiming(s, 2, 4)
    reclaiming(s, 3, 6)
    assert s.on_welcome(0, WelcomeBody(2, 4), at({})) == "welcome"
    assert s.owes_welcome(0)  # seat 3 still waits for it
    assert s.on_welcome(0, WelcomeBody(3, 6), at({})) == "welcome"
    assert not s.owes_welcome(0)


def test_a_welcome_of_another_absence_is_stale() -> None:
    s, _ = seats(4)
    reclaiming(s, 3, 5)
    assert s.on_welcome(0, WelcomeBody(3, 2), at({})) == "stale"
    assert s.welcomed == {3: set()}


@pytest.mark.parametrize(("absent", "final", "cursor", "verdict"), [
    # Replaced at ``since`` here, but its RECLAIM not taken yet: the welcome waits for it.
    (True, False, 0, "wait"),
    # Replaced for misbehaviour: there is nothing to welcome.
    (True, True, 0, "stale"),
    # Live here and not past ``since``: this peer has not seen the replacement yet.
    (False, False, 5, "wait"),
    # Live here and past ``since``: it was never replaced there (on the feeds' order).
    (False, False, 6, "stale"),
])
def test_a_welcome_before_the_reclaim_it_answers(absent: bool, final: bool, cursor: int,
                                                 verdict: str) -> None:
    s, _ = seats(4)
    if absent:
        s.replace(3, 5, "absent", final=final)
    assert s.on_welcome(0, WelcomeBody(3, 5), at({3: cursor})) == verdict
    assert not s.welcomed


def test_a_welcome_of_a_seat_past_the_table_is_stale() -> None:
    s, _ = seats(3)
    assert s.on_welcome(0, WelcomeBody(5, 0), at({})) == "stale"


# --------------------------------------------------------------------------- rejoining


def test_a_seat_rejoins_at_the_first_step_every_decider_welcomed_it_before() -> None:
    s, events = seats(4)
    reclaiming(s, 3)
    step = Step("L1.R2.play", frozenset({0, 1, 2, 3}))
    for x in (0, 1, 2):
        assert s.on_welcome(x, WelcomeBody(3, 5), at({})) == "welcome"
    for x in (0, 1):
        s.first_of_step(step, x)
    s.settle_rejoins(step, step.name, step.seats, frozenset({0, 1, 2}))
    assert not step.settled_rejoins and s.reclaims  # seat 2's first message is not in
    s.first_of_step(step, 2)
    s.settle_rejoins(step, step.name, step.seats, frozenset({0, 1, 2}))
    assert step.settled_rejoins
    assert events == [SeatReclaimed(3, "L1.R2.play")]
    assert s.live(3) and not s.reclaims and not s.welcomed and not s.absent
    assert not any(s.owes_welcome(x) for x in range(4))


def test_a_decider_that_welcomed_after_its_first_message_puts_the_rejoin_off() -> None:
    s, events = seats(4)
    reclaiming(s, 3)
    step = Step("L1.R2.play", frozenset({0, 1, 2, 3}))
    s.on_welcome(0, WelcomeBody(3, 5), at({}))
    s.on_welcome(1, WelcomeBody(3, 5), at({}))
    for x in (0, 1, 2):
        s.first_of_step(step, x)  # seat 2 had not welcomed it yet
    s.on_welcome(2, WelcomeBody(3, 5), at({}))
    s.first_of_step(step, 2)  # (a later message of the step changes nothing)
    assert step.first[2] == frozenset()
    s.settle_rejoins(step, step.name, step.seats, frozenset({0, 1, 2}))
    assert step.settled_rejoins and events == [] and s.reclaims == {3: 5}
    # The next step: every decider welcomed it before its first message.
    after = Step("L1.R3.play", frozenset({0, 1, 2, 3}))
    for x in (0, 1, 2):
        s.first_of_step(after, x)
    s.settle_rejoins(after, after.name, after.seats, frozenset({0, 1, 2}))
    assert events == [SeatReclaimed(3, "L1.R3.play")]


def test_a_direct_reveal_welcomes_nobody() -> None:
    s, events = seats(3)
    reclaiming(s, 2)
    s.on_welcome(0, WelcomeBody(2, 5), at({}))
    s.on_welcome(1, WelcomeBody(2, 5), at({}))
    step = Step("s", frozenset({0, 1, 2}))
    s.first_of_step(step, 0)
    s.first_of_step(step, 1, welcoming=False)
    assert step.first == {0: frozenset({2}), 1: frozenset()}
    s.settle_rejoins(step, step.name, step.seats, frozenset({0, 1}))
    assert events == [] and s.reclaims == {2: 5}


def test_a_seat_not_in_the_step_does_not_rejoin_there() -> None:
    s, events = seats(4)
    reclaiming(s, 3)
    for x in (0, 1, 2):
        s.on_welcome(x, WelcomeBody(3, 5), at({}))
    step = Step("s", frozenset({0, 1, 2}))
    for x in (0, 1, 2):
        s.first_of_step(step, x)
    s.settle_rejoins(step, step.name, step.seats, frozenset({0, 1, 2}))
    assert step.settled_rejoins and events == [] and s.reclaims == {3: 5}


def test_rejoins_are_settled_once_per_step() -> None:
    s, events = seats(3)
    step = Step("s", frozenset({0, 1, 2}))
    s.first_of_step(step, 0)
    s.first_of_step(step, 1)
    s.settle_rejoins(step, step.name, step.seats, frozenset({0, 1}))
    assert step.settled_rejoins
    reclaiming(s, 2)  # too late for this step
    s.on_welcome(0, WelcomeBody(2, 5), at({}))
    s.on_welcome(1, WelcomeBody(2, 5), at({}))
    s.settle_rejoins(step, step.name, step.seats, frozenset({0, 1}))
    assert events == []


def test_a_seat_replaced_again_does_not_rejoin_the_step_it_rejoined() -> None:
    s, events = seats(4)
    reclaiming(s, 3, 5)
    for x in (0, 1, 2):
        s.on_welcome(x, WelcomeBody(3, 5), at({}))
    step = Step("s", frozenset({0, 1, 2, 3}))
    for x in (0, 1, 2):
        s.first_of_step(step, x)
    s.settle_rejoins(step, step.name, step.seats, frozenset({0, 1, 2}))
    assert events == [SeatReclaimed(3, "s")]
    reclaiming(s, 3, 8)  # replaced again within the step, and reclaiming again
    for x in (0, 1, 2):
        s.on_welcome(x, WelcomeBody(3, 8), at({}))
    s.settle_rejoins(step, step.name, step.seats, frozenset({0, 1, 2}))
    assert events == [SeatReclaimed(3, "s")] and s.reclaims == {3: 8}


def test_in_a_turn_a_seat_rejoins_once_the_decider_welcomed_it() -> None:
    s, events = seats(3)
    reclaiming(s, 2)
    s.rejoin_at_turn(0, "L1.R1.play.0")
    assert events == []
    s.on_welcome(1, WelcomeBody(2, 5), at({}))
    s.rejoin_at_turn(0, "L1.R1.play.0")  # seat 0 has not welcomed it
    assert events == []
    s.rejoin_at_turn(1, "L1.R1.play.1")
    assert events == [SeatReclaimed(2, "L1.R1.play.1")]
    assert s.live_seats() == (0, 1, 2)


# --------------------------------------------------------------------------- a replacement


def test_replacing_a_reclaiming_seat_ends_its_reclaim() -> None:
    s, _ = seats(4)
    reclaiming(s, 3)
    s.on_welcome(0, WelcomeBody(3, 5), at({}))
    s.replace(3, 8, "absent again", final=False)
    assert not s.reclaims and not s.welcomed
    assert not any(s.owes_welcome(x) for x in range(3))
    # Its new absence is reclaimed with the new count.
    assert s.on_replaced_seat_message(3, ReclaimBody(5)) == "stale"
    assert s.on_replaced_seat_message(3, ReclaimBody(8)) == "reclaim"


def test_replacing_a_welcomer_withdraws_its_welcome() -> None:
    s, events = seats(4)
    reclaiming(s, 3)
    for x in (0, 1, 2):
        s.on_welcome(x, WelcomeBody(3, 5), at({}))
    s.replace(2, 4, "absent", final=False)
    assert s.welcomed == {3: {0, 1}}
    step = Step("s", frozenset({0, 1, 2, 3}))
    s.first_of_step(step, 0)
    s.first_of_step(step, 1)
    s.settle_rejoins(step, step.name, step.seats, frozenset({0, 1}))
    assert events == [SeatReclaimed(3, "s")]  # the live deciders were enough


# --------------------------------------------------------------------------- in the core


def reclaimed() -> Match:
    """The toy match: seats 0 and 1 vote seat 2 out at its first message; it reclaims."""
    m = Match(owed=False)
    m.send(0, AbsentBody(2, 0, 1))
    m.send(1, AbsentBody(2, 0, 1))
    assert sorted(m.core.absent) == [2]
    m.send(2, ReclaimBody(0))
    assert m.core.seats.reclaims == {2: 0}
    assert m.expects() == [Kind.WELCOME, Kind.WELCOME, None]
    return m


def test_the_core_takes_the_welcomes_of_a_reclaim() -> None:
    m = reclaimed()
    m.send(0, WelcomeBody(2, 0))
    m.send(1, WelcomeBody(2, 0))
    assert m.core.seats.welcomed == {2: {0, 1}}
    assert m.expects() == [Kind.CHANCE_COMMIT, Kind.CHANCE_COMMIT, None]


def test_a_welcome_of_a_live_seat_ahead_of_it_does_not_stall_the_match() -> None:
    m = reclaimed()
    m.send(0, WelcomeBody(2, 0))
    m.send(1, WelcomeBody(0, 1000), waits=True)  # seat 0 is live, at its message 3
    m.send(0, chance_writers.commit_body(m.core.chance, m.secrets[0], m.core.keys[0],
                                         m.core.match_id, 0))
    # The match needs seat 1's commitment, which waits behind a message that cannot be taken
    # now (and, seat 0 being live and far from 1000, may never be): seat 1 must be owed — timed,
    # and then voted out — as a seat stuck on any other message is.
    assert m.core.owing() == (1,)
    assert m.core.get_timer() is not None

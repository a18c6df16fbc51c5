"""Which turn timeout a seat is owed under (protocol.md §6.6): a decision it has not sent —
the COMMIT of a simultaneous step, the ACT of its turn — under the header's timeout for the
time class the engine gives its step; everything else under the quick timeout; a wait under
the longest of those of the seats it waits for.  A match core of the timed toy (``s1`` long,
``s2`` normal, ``t1`` quick), driven by hand: time is a number, nothing sleeps."""

from __future__ import annotations

from protocol.match.core import MatchConfig
from protocol.match.events import SeatsOverdue, SeatTimedOut
from protocol.wire.messages import ActBody, Kind

from tests.protocol.timed_toy import TimedMatch
from tests.protocol.toy import digested

QUICK, NORMAL, LONG, SILENCE = 10.0, 20.0, 100.0, 5.0
CONFIG = MatchConfig.from_timeouts((QUICK, NORMAL, LONG, SILENCE))


def at_s1() -> TimedMatch:
    """Dealt and digested: every seat owes its COMMIT of ``s1`` (a long step), since t = 3."""
    m = TimedMatch(CONFIG)
    core = m.core
    core.now = 1.0
    m.chance_commits()  # ... every seat owes a chance reveal: no decision
    assert m.expects() == [Kind.CHANCE_REVEAL] * 3
    assert [core.turn_timeout(s) for s in range(3)] == [QUICK] * 3
    assert core.get_timer() == 1.0 + QUICK
    core.now = 2.0
    for s in range(3):
        m.chance_reveal(s)
    assert m.expects() == [Kind.CHANCE_DIGEST] * 3 and core.get_timer() == 2.0 + QUICK
    core.now = 3.0
    digested(m)
    assert core.where() == "s1" and m.expects() == [Kind.COMMIT] * 3
    return m


def test_a_long_decision_is_not_timed_out_at_the_normal_timeouts() -> None:
    m = at_s1()
    core = m.core
    assert [core.turn_timeout(s) for s in range(3)] == [LONG] * 3
    assert core.get_timer() == 3.0 + LONG
    # Past the normal turn and silence timeouts together: nobody is even overdue.
    assert core.handle_timer(3.0 + NORMAL + SILENCE + 1) == []
    assert core.handle_timer(3.0 + LONG - 0.5) == []
    overdue = core.handle_timer(3.0 + LONG)
    assert overdue == [SeatsOverdue((0, 1, 2), "s1", 3.0)]
    assert core.get_timer() == 3.0 + LONG + SILENCE  # the silence timeout is the same for all
    assert core.handle_timer(3.0 + LONG + SILENCE) == [SeatTimedOut(s, 3, "s1") for s in range(3)]


def test_messages_that_are_no_decision_are_owed_under_the_quick_timeout() -> None:
    m = at_s1()
    core = m.core
    core.now = 10.0
    m.decide()
    assert m.expects() == [Kind.REVEAL] * 3  # they decided: the reveals are their programs'
    assert [core.turn_timeout(s) for s in range(3)] == [QUICK] * 3
    assert core.get_timer() == 10.0 + QUICK
    assert core.handle_timer(10.0 + QUICK) == [SeatsOverdue((0, 1, 2), "s1", 10.0)]
    core.now = 30.0
    m.reveal()
    assert m.expects() == [Kind.CHANCE_REVEAL] * 3  # the hidden event
    assert core.get_timer() == 30.0 + QUICK
    core.now = 31.0
    for s in range(3):
        m.chance_reveal(s)
    # A normal step: a normal turn timeout.
    assert core.where() == "s2" and m.expects() == [Kind.COMMIT] * 3
    assert [core.turn_timeout(s) for s in range(3)] == [NORMAL] * 3
    assert core.get_timer() == 31.0 + NORMAL
    core.now = 32.0
    m.decide(step="s2")
    m.reveal(step="s2")
    # Seat 0's turn, a quick decision; nobody else owes anything.
    assert core.where() == "t1" and m.expects() == [Kind.ACT, None, None]
    assert core.turn_timeout(0) == QUICK and core.owing() == (0,)
    assert core.get_timer() == 32.0 + QUICK


def test_a_wait_runs_as_long_as_its_longest_owed_timeout() -> None:
    """Seat 0 looks (a free action): it owes its round's key (no decision: quick) while seats 1
    and 2 still owe their long decisions — the wait for all three falls at the long timeout,
    so no seat is chased sooner than what it owes allows."""
    m = at_s1()
    core = m.core
    core.now = 5.0
    m.send(0, ActBody("s1", "look"))
    assert m.expects() == [Kind.SEAL_KEY, Kind.COMMIT, Kind.COMMIT]
    assert [core.turn_timeout(s) for s in range(3)] == [QUICK, LONG, LONG]
    assert core.owing() == (0, 1, 2) and core.get_timer() == 5.0 + LONG
    m.decide((1, 2))
    m.key()
    # Seat 0 waits for its deliveries: the others owe them (quick), and it owes nothing.
    assert m.expects() == [None, Kind.DELIVERY, Kind.DELIVERY]
    assert core.owing() == (1, 2) and core.get_timer() == 5.0 + QUICK
    m.deliver(1)
    m.deliver(2)
    # Its round complete, seat 0's own decision is owed: long again.
    assert m.expects() == [Kind.COMMIT, None, None] and core.turn_timeout(0) == LONG


def test_a_decision_in_hand_that_cannot_be_taken_is_owed_under_the_quick_timeout() -> None:
    """Seat 0's REVEAL in place of its COMMIT, before the others committed: held, not taken.
    It has decided; what it owes now is no person's time."""
    m = at_s1()
    core = m.core
    m.send(0, m.play(0, "s1")[1], waits=True)
    assert core.expects(0, votes=False) is Kind.COMMIT and core.next_message(0) is not None
    assert core.turn_timeout(0) == QUICK and core.turn_timeout(1) == LONG


def test_without_time_classes_every_timeout_is_the_turn_timeout() -> None:
    """A core given only a turn timeout (the in-memory tests, a replay) times every wait as
    before: the quick and long timeouts default to it."""
    plain = MatchConfig(turn_timeout=7.0, silence_timeout=3.0)
    m = TimedMatch(plain)
    m.chance_commits()
    assert m.core.turn_timeout(0) == 7.0
    assert plain.quick == plain.shortest == 7.0
    for s in range(3):
        m.chance_reveal(s)
    digested(m)
    assert m.core.where() == "s1" and m.core.turn_timeout(0) == 7.0  # a long step

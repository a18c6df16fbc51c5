"""The wait clock on its own (protocol/match/timing.py, protocol.md §6.6): a :class:`WaitClock` driven by
hand — time comes in as a number, nothing sleeps."""

from __future__ import annotations

import dataclasses

import pytest
from protocol.match.events import SeatsOverdue, SeatTimedOut
from protocol.match.timing import DECISIONS, MatchConfig, WaitClock
from protocol.wire.messages import Kind

from engine.core import TimeClass

CONFIG = MatchConfig(turn_timeout=10.0, silence_timeout=5.0)


def clock(config: MatchConfig = CONFIG, *, at: float = 100.0,
          key: tuple[object, ...] = ("a",)) -> WaitClock:
    c = WaitClock(config)
    c.now = at
    c.note(key)
    return c


def test_the_default_settings() -> None:
    config = MatchConfig()
    assert (config.turn_timeout, config.silence_timeout, config.wait_at_dead_ends) == (
        90.0, 60.0, False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.turn_timeout = 1.0  # type: ignore[misc]


def test_a_wait_begins_when_the_match_moves() -> None:
    c = clock(at=100.0)
    assert c.since == 100.0
    c.now = 104.0
    c.owing = (1,)
    c.note(("a",))  # the same point: the same wait
    assert c.since == 100.0 and c.owing == (1,)
    c.note(("b",))
    assert c.since == 104.0 and c.key == ("b",)
    assert c.owing is None  # who it waits for is worked out again


def test_the_timer_falls_at_each_timeout_in_turn() -> None:
    c = clock(at=100.0)
    def owing() -> tuple[int, ...]:
        return (2,)
    assert c.timer(owing) == 110.0
    c.fire(110.0, (2,), "L1.R1.play", [0, 0, 4])
    assert c.timer(owing) == 115.0
    c.fire(115.0, (2,), "L1.R1.play", [0, 0, 4])
    assert c.timer(owing) is None  # both reported in this wait


def test_no_timer_while_the_match_waits_for_nobody() -> None:
    c = clock()
    assert c.timer(lambda: ()) is None


def test_firing_reports_overdue_then_timed_out_once_per_wait() -> None:
    c = clock(at=100.0)
    cursor = [3, 0, 7]
    assert c.fire(109.9, (2,), "L1.R1.play", cursor) == []
    assert c.fire(110.0, (2,), "L1.R1.play", cursor) == [SeatsOverdue((2,), "L1.R1.play", 100.0)]
    assert c.overdue == {2: 7}
    assert c.fire(112.0, (2,), "L1.R1.play", cursor) == []  # once per wait
    assert c.fire(115.0, (0, 2), "L1.R1.play", cursor) == [
        SeatTimedOut(0, 3, "L1.R1.play"), SeatTimedOut(2, 7, "L1.R1.play")]
    assert c.timed_out == {0: 3, 2: 7}
    assert c.fire(200.0, (0, 2), "L1.R1.play", cursor) == []


def test_a_late_timer_reports_both_at_once() -> None:
    c = clock(at=0.0)
    assert c.fire(1000.0, (1,), "e", [0, 2, 0]) == [SeatsOverdue((1,), "e", 0.0),
                                                    SeatTimedOut(1, 2, "e")]


def test_a_new_wait_rearms_the_timeouts() -> None:
    c = clock(at=100.0)
    c.fire(120.0, (1,), "e", [0, 1, 0])
    c.now = 130.0
    c.note(("b",))
    assert c.timer(lambda: (1,)) == 140.0
    assert c.fire(140.0, (1,), "f", [0, 2, 0]) == [SeatsOverdue((1,), "f", 130.0)]
    assert c.overdue == {1: 2}  # the latest count it was found overdue at


# --------------------------------------------------------------------------- time classes


def test_a_headers_timeouts_as_settings() -> None:
    config = MatchConfig.from_timeouts((30, 90, 300, 60), wait_at_dead_ends=True)
    assert (config.quick, config.turn_timeout, config.long_timeout, config.silence_timeout,
            config.wait_at_dead_ends) == (30, 90, 300, 60, True)
    assert config.shortest == 30
    assert [config.owed_under(c) for c in (TimeClass.QUICK, TimeClass.NORMAL, TimeClass.LONG,
                                           None)] == [30, 90, 300, 30]
    # Without the quick and long timeouts (the defaults), every one is the turn timeout.
    assert [CONFIG.owed_under(c) for c in (*TimeClass, None)] == [10.0] * 4
    assert CONFIG.shortest == 10.0
    assert {Kind.COMMIT, Kind.ACT} == DECISIONS


def test_a_wait_runs_its_seats_turn_timeout() -> None:
    """The clock asks the core for the turn timeout of the seats a wait is for (once per set
    of seats it is given), and times both the overdue report and the silence after it from
    there; a dead end is held a plain turn timeout."""
    asked: list[tuple[int, ...]] = []

    def turn_of(seats: tuple[int, ...]) -> float:
        asked.append(seats)
        return 40.0 if 2 in seats else 4.0

    c = WaitClock(CONFIG, turn_of)
    c.now = 100.0
    c.note(("a",))
    owing = (1, 2)
    assert c.timer(lambda: owing) == 140.0
    assert c.timer(lambda: owing) == 140.0 and asked == [(1, 2)]  # (asked once)
    assert c.fire(139.0, owing, "s", [0, 0, 0]) == []
    assert c.fire(140.0, owing, "s", [0, 0, 0]) == [SeatsOverdue((1, 2), "s", 100.0)]
    assert c.timer(lambda: owing) == 145.0  # + the silence timeout
    c.now = 150.0
    c.note(("b",))
    quick = (1,)
    assert c.timer(lambda: quick) == 154.0 and asked == [(1, 2), (1,)]
    assert c.fire(159.0, quick, "t", [0, 0, 0]) == [SeatsOverdue((1,), "t", 150.0),
                                                     SeatTimedOut(1, 0, "t")]


# --------------------------------------------------------------------------- dead ends


def test_a_replay_does_not_hold_a_dead_end() -> None:
    c = clock()  # wait_at_dead_ends is off: a file holds every message there is
    assert not c.hold_dead_end(("a",))
    assert not c.dead_end_waits()
    assert c.timer(lambda: ()) is None
    assert not c.dead_end_lasted(1e9)


def test_a_live_peer_holds_a_dead_end_a_turn_timeout() -> None:
    c = clock(dataclasses.replace(CONFIG, wait_at_dead_ends=True), at=100.0)
    c.owing = (1,)
    assert c.hold_dead_end(("a",))
    assert c.owing is None
    assert c.dead_end_waits()
    assert c.timer(lambda: ()) == 110.0  # the held-back timer runs though nobody is owed
    assert not c.dead_end_lasted(109.0)
    assert c.hold_dead_end(("a",))  # still held
    assert c.dead_end_lasted(110.0)
    assert not c.dead_end_waits()
    assert not c.hold_dead_end(("a",))  # due: broken now
    assert c.timer(lambda: ()) is None


def test_a_dead_end_held_at_another_point_is_not_this_waits() -> None:
    c = clock(dataclasses.replace(CONFIG, wait_at_dead_ends=True), at=100.0)
    c.hold_dead_end(("a",))
    c.now = 105.0
    c.note(("b",))
    assert not c.dead_end_waits()
    assert not c.dead_end_lasted(1e9)
    assert c.hold_dead_end(("b",))
    assert c.timer(lambda: ()) == 115.0


def test_no_dead_end_before_any_wait() -> None:
    c = WaitClock(dataclasses.replace(CONFIG, wait_at_dead_ends=True))
    assert not c.dead_end_waits()

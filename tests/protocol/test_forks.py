"""Forks on their own (protocol/mechanisms/forks.py, protocol.md §7.9): where a forked seat's feed stops,
when it is replaced, and when a core took a message past a fork."""

from __future__ import annotations

from collections.abc import Callable

from protocol.mechanisms.forks import Forks


def live_but(*absent: int) -> Callable[[int], bool]:
    return lambda seat: seat not in absent


def expecting(*seats: int) -> Callable[[int], object]:
    return lambda seat: "something" if seat in seats else None


def test_no_fork_stops_nothing() -> None:
    forks = Forks()
    assert forks.equivocations == [] and forks.forked == {}
    assert not forks.stops(0, 100)
    assert not forks.behind([9, 9, 9])
    assert forks.due(live_but(), [0, 0, 0], expecting(0, 1, 2)) is None


def test_a_seats_feed_stops_at_its_first_proven_fork() -> None:
    forks = Forks()
    forks.mark(1, 6)
    forks.mark(1, 4)
    forks.mark(1, 9)  # (a later proof does not move it)
    assert forks.forked == {1: 4}
    assert not forks.stops(1, 3)
    assert forks.stops(1, 4) and forks.stops(1, 5)
    assert not forks.stops(0, 4)


def test_a_forked_seat_is_replaced_where_its_forked_message_is_due() -> None:
    forks = Forks()
    forks.mark(2, 3)
    assert forks.due(live_but(), [0, 0, 2], expecting(2)) is None  # not there yet
    assert forks.due(live_but(), [0, 0, 3], expecting(0)) is None  # there, nothing due of it
    assert forks.due(live_but(), [0, 0, 3], expecting(2)) == 2
    assert forks.due(live_but(2), [0, 0, 3], expecting(2)) is None  # replaced already


def test_the_lowest_forked_seat_is_replaced_first() -> None:
    forks = Forks()
    forks.mark(2, 1)
    forks.mark(0, 1)
    assert forks.due(live_but(), [1, 0, 1], expecting(0, 2)) == 0


def test_a_core_that_took_a_seats_message_past_its_fork_is_behind() -> None:
    """Whether the seat is still live or not: one replaced after its fork (for a message
    that misbehaved on the branch this peer held, say) is replaced at the fork by the feeds."""
    forks = Forks()
    forks.mark(1, 4)
    assert not forks.behind([0, 4, 0])  # at the fork: nothing taken past it
    assert forks.behind([0, 5, 0])

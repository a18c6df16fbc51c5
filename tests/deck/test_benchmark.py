"""The deck benchmark's own checks run (not its timings: those are measured, not tested)."""

from __future__ import annotations

import pytest

from benchmarks import deck
from benchmarks.__main__ import BENCHMARKS
from benchmarks.deck_scenario import DeckTable, cards_named


def test_the_benchmark_is_registered_and_its_four_seat_run_checks_out() -> None:
    assert BENCHMARKS["deck"] == "benchmarks.deck"
    cpu, wall = deck.four_seats(b"bench-test")
    assert cpu > 0 and wall > 0


def test_the_benchmark_refuses_a_peer_that_skipped_a_check() -> None:
    table = DeckTable(3, {"a": cards_named("c", 4)}, tag=b"skip")
    table.setup()
    table.deal("a", [0, 1, 2])
    table.shares()
    deck._check(table, 3, ("a",))
    # a peer that never saw seat 2's shares (so never checked them) is caught
    lazy = DeckTable(3, {"a": cards_named("c", 4)}, tag=b"skip")
    lazy.setup()
    lazy.deal("a", [0, 1, 2])
    lazy.shares(withhold=frozenset({2}))
    with pytest.raises(SystemExit, match="checked"):
        deck._check(lazy, 3, ("a",))

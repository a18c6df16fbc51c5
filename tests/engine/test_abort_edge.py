"""The abort-edge benchmark's model (benchmarks/abort_edge.py): paired games that differ only by
the cheater's withholding, a protocol-level crash that costs nothing, and the report's keys."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

from benchmarks import abort_edge, paired
from engine.stream import derive_key

SEED = derive_key(b"test", b"abort-edge")


def test_a_cheater_that_never_withholds_is_its_honest_twin() -> None:
    honest = abort_edge.play(SEED, 4, "honest")
    assert honest[1] == 0
    for mode in abort_edge.MODES:
        assert abort_edge.play(SEED, 4, mode, tau=1e9) == honest


def test_a_cheater_that_always_withholds_leaves_once_or_stays_silent_often() -> None:
    share, withholds = abort_edge.play(SEED, 4, "leave", tau=-1e9)
    assert withholds == 1 and 0.0 <= share <= 1.0  # (then its zombie plays the rest)
    _, silent = abort_edge.play(SEED, 4, "silence", tau=-1e9)
    assert silent > 5  # (every room it decides last in)


def test_under_the_rule_a_withholder_forfeits_its_game() -> None:
    share, withholds = abort_edge.play(SEED, 4, "silence", tau=-1e9, rule="after")
    assert withholds == 1 and share == 0.0  # (forfeited at once: its zombie plays the rest)
    assert abort_edge.play(SEED, 4, "leave", tau=-1e9, rule="after") == (0.0, 1)


def test_under_the_rule_the_best_response_never_withholds() -> None:
    honest = abort_edge.play(SEED, 4, "honest")
    for mode in abort_edge.MODES:
        assert abort_edge.play(SEED, 4, mode, tau=paired.NEVER, rule="after") == honest


def test_a_crash_past_the_timeouts_at_a_withholding_point_forfeits_only_under_the_rule() -> None:
    # Crash 1 of seed "abort-edge" comes before an opening the others made first.
    _, forfeited = abort_edge.protocol_late_crash_cost((4, "abort-edge", 1, "after"))
    assert forfeited
    _, forfeited_before = abort_edge.protocol_late_crash_cost((4, "abort-edge", 1, "before"))
    assert not forfeited_before


def test_an_outage_at_a_chance_point_back_within_the_window_forfeits_only_in_version_2(
        ) -> None:
    """Issue 47: outage 0 of seed "abort-edge" falls as seat 3 sends the last secret of an
    event; it is back after both timeouts.  Version 2 had voted it out (it forfeited);
    version 3's grace window still waits, its secret counts, and it costs it nothing."""
    after = abort_edge.protocol_outage((4, "abort-edge", 0, 3))
    assert after is not None and after == (0.0, False, True)
    before = abort_edge.protocol_outage((4, "abort-edge", 0, 2))
    assert before is not None and before[1:] == (True, True)


def test_a_crash_restarted_within_the_silence_timeout_costs_nothing() -> None:
    assert abort_edge.protocol_crash_cost((4, "test", 0)) == 0.0


def test_the_bootstrap_interval_holds_the_mean_and_is_reproducible() -> None:
    diffs = [0.0, 1.0, -0.5, 0.25, 0.0, 1.0, 0.0, -1.0]
    low, high = paired.bootstrap(diffs, "t")
    assert low <= sum(diffs) / len(diffs) <= high
    assert paired.bootstrap(diffs, "t") == (low, high)


def test_the_report_carries_every_figure() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert abort_edge.main(["--games", "2", "--taus", "0", "--crash-games", "1",
                                "--workers", "1"]) == 0
    last = json.loads(out.getvalue().splitlines()[-1])
    for key in ("edge_before", "edge_after", "ci95_before", "ci95_after", "honest_crash_cost",
                "honest_crash_cost_before", "honest_crash_cost_after", "seconds", "best_mode",
                "best_tau", "honest_outage_cost_before", "honest_outage_cost_after",
                "honest_outage_ci95_after", "outage_forfeits_after", "outage_forfeit_rate_after",
                "long_outage_cost_after"):
        assert key in last, key
    assert len(last["ci95_before"]) == 2 and last["honest_crash_cost"] == 0.0
    assert last["best_tau_after"] == "never" and last["edge_after"] == 0.0
    assert last["ci95_after"] == [0.0, 0.0]

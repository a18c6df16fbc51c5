"""The abort-edge benchmark's model (benchmarks/abort_edge.py): paired games that differ only by
the cheater's withholding, a protocol-level crash that costs nothing, and the report's keys."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

from benchmarks import abort_edge
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


def test_a_crash_restarted_within_the_silence_timeout_costs_nothing() -> None:
    assert abort_edge.protocol_crash_cost((4, "test", 0)) == 0.0


def test_the_bootstrap_interval_holds_the_mean_and_is_reproducible() -> None:
    diffs = [0.0, 1.0, -0.5, 0.25, 0.0, 1.0, 0.0, -1.0]
    low, high = abort_edge.bootstrap(diffs, "t")
    assert low <= sum(diffs) / len(diffs) <= high
    assert abort_edge.bootstrap(diffs, "t") == (low, high)


def test_the_report_carries_every_figure() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert abort_edge.main(["--games", "2", "--taus", "0", "--crash-games", "1",
                                "--workers", "1"]) == 0
    last = json.loads(out.getvalue().splitlines()[-1])
    for key in ("edge_before", "edge_after", "ci95_before", "ci95_after", "honest_crash_cost",
                "seconds", "best_mode", "best_tau"):
        assert key in last, key
    assert len(last["ci95_before"]) == 2 and last["honest_crash_cost"] == 0.0

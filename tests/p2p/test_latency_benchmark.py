"""The latency benchmark runs from a clean checkout and reports what docs/network.md §16 reads.

A smoke test of its shape, not of its figures (speed targets live in benchmarks/, never in
timed tests): three peer processes on loopback, a handful of rooms and raw rounds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from p2p.peer import BOT_THINK

ROOT = Path(__file__).resolve().parents[2]


def test_latency_benchmark_reports_every_figure() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "latency", "--players", "3", "--rooms", "5",
         "--raw-rounds", "5", "--runs", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [json.loads(line) for line in done.stdout.strip().splitlines()]
    assert [line.get("run") for line in lines] == [1, 2, None]  # each run, then the medians
    *each, result = lines
    assert result["runs"] == 2
    assert result["ratio_p50_runs"] == [run["ratio_p50"] for run in each]
    assert result["ratio_p50"] == round(sum(result["ratio_p50_runs"]) / 2, 3)  # (two: the mean)
    for run in each:
        _check_figures(run)
        # Within a run the figures agree with each other (the medians over runs need not).
        assert run["rooms_without_chance"] + run["rooms_with_chance"] == run["rooms"]
        assert abs(run["ratio_p50"] - run["p50_ms"] / run["raw_p50_ms"]) < 0.01
        # The raw blocks: one before each match and one after the last (at least two).
        assert run["raw_rounds"] >= 2 * 5 and run["raw_rounds"] % 5 == 0
        assert abs(run["ratio_p50_first_block"]
                   - run["p50_ms"] / run["raw_p50_ms_first_block"]) < 0.01
    _check_figures(result)


@pytest.mark.parametrize(("option", "error"), [
    (["--runs", "0"], "--runs must be at least 1"),
    (["--bot-think", "-1"], "--bot-think must be a number of seconds from 0"),
    (["--bot-think", "inf"], "--bot-think must be a number of seconds from 0"),
    (["--bot-think", "nan"], "--bot-think must be a number of seconds from 0"),
])
def test_latency_benchmark_refuses_bad_options(option: list[str], error: str) -> None:
    done = subprocess.run([sys.executable, "-m", "benchmarks", "latency", *option],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].endswith(error)
    assert "Traceback" not in done.stderr


def _check_figures(result: dict[str, Any]) -> None:
    assert result["benchmark"] == "latency" and result["players"] == 3
    assert result["bot_think_s"] == BOT_THINK  # the peers' own bots, by default
    assert result["rooms"] >= 5
    assert 0 < result["p50_ms"] <= result["p99_ms"]
    assert 0 < result["raw_p50_ms"] <= result["raw_p99_ms"]
    assert result["ratio_p50"] > 0
    assert result["target_ratio_p50"] == 2.0
    # Each process's CPU per message received: some Ed25519 verification at least, both sides.
    assert result["cpu_us_per_received_message"] > 0
    assert result["raw_cpu_us_per_received_message"] > 0

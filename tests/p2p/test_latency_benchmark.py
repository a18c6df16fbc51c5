"""The latency benchmark runs from a clean checkout and reports what docs/network.md §16 reads.

A smoke test of its shape, not of its figures (speed targets live in benchmarks/, never in
timed tests): three peer processes on loopback, a handful of rooms and raw rounds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_latency_benchmark_reports_every_figure() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "latency", "--players", "3", "--rooms", "5",
         "--raw-rounds", "5"],
        cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["benchmark"] == "latency" and result["players"] == 3
    assert result["rooms"] >= 5
    assert result["rooms_without_chance"] + result["rooms_with_chance"] == result["rooms"]
    assert 0 < result["p50_ms"] <= result["p99_ms"]
    assert 0 < result["raw_p50_ms"] <= result["raw_p99_ms"]
    assert abs(result["ratio_p50"] - result["p50_ms"] / result["raw_p50_ms"]) < 0.01
    assert result["target_ratio_p50"] == 2.0
    # Each process's CPU per message received: some Ed25519 verification at least, both sides.
    assert result["cpu_us_per_received_message"] > 0
    assert result["raw_cpu_us_per_received_message"] > 0

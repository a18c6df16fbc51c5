"""Soak: 100 consecutive all-bot matches in one process, every seat a real peer on loopback.

Open file descriptors, asyncio tasks and resident memory are measured after the first match
(warm) and after the last; they must not grow with the number of matches.  Every match must be
valid and its three copies agree.  Slow (about two to three minutes): ``-m slow``.
"""

from __future__ import annotations

import asyncio
import gc
import os
import time
from pathlib import Path

import pytest

from p2p.peer import PeerConfig
from tests.adversary.conftest import in_process_match, verdict_of

MATCHES = 100
CONFIG = PeerConfig(timeouts=(5.0, 5.0, 5.0, 5.0), linger=0.05)


def fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def rss() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def measure() -> dict[str, int]:
    gc.collect()
    return {"fds": fds(), "tasks": len(asyncio.all_tasks()), "rss": rss(),
            "objects": len(gc.get_objects())}


@pytest.mark.slow
@pytest.mark.asyncio
async def test_100_consecutive_matches_leak_nothing(tmp_path: Path) -> None:
    start = time.monotonic()
    marks: list[dict[str, int]] = []
    for i in range(MATCHES):
        match = await in_process_match(tmp_path / f"m{i:03d}", 3, CONFIG)
        try:
            results = await match.results(60)
        finally:
            await match.cancel()
        paths = [r.path for r in results]
        assert len({p.stat().st_size for p in paths}) == 1, f"match {i}: copies differ"
        v = verdict_of(paths[0])
        assert v.verdict == "valid", (i, v.verdict, v.reason)
        assert not any("replaced" in n for n in v.notes), (i, v.notes)
        await asyncio.sleep(0.05)  # let closed transports go
        if i == 0 or i == MATCHES - 1:
            marks.append(measure())
    first, last = marks
    took = time.monotonic() - start
    print(f"soak: {MATCHES} matches in {took:.0f} s; after match 1: {first}; "
          f"after match {MATCHES}: {last}")
    assert last["fds"] <= first["fds"] + 3, (first, last)
    assert last["tasks"] <= first["tasks"] + 1, (first, last)
    assert last["rss"] - first["rss"] < 48 * 2**20, (first, last)
    assert last["objects"] - first["objects"] < 200_000, (first, last)

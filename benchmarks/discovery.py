"""How long a player waits to see a table: from starting a browser to its TableFound.

    python -m benchmarks discovery --runs 15

Announces one table on loopback only (``interfaces=["127.0.0.1"]``, default mDNS timings — the
announcement itself is not timed), then ``--runs`` times starts a fresh browser (a new mDNS
stack with an empty cache, as ``cryptcrawl tables`` does) and times it until it reports that
table.  ``p50_ms`` is the median; the target is at most 300 ms.  Nothing is sent outside
loopback.

The browser asks with a multicast (QM) question, and a responder multicasts a record at most
once a second (RFC 6762 §6): a browser started within a second of the table's last multicast
answer waits for that second to pass.  A player starting ``cryptcrawl tables`` meets a table
announced earlier, so runs are ``--gap`` (1.2 s) apart and the first starts that long after
the announcement; ``--gap 0.2`` shows the rate-limited case (about 1.1 s).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time

from p2p.discovery import Advertiser, TableBrowser, TableFound

LOOPBACK = ["127.0.0.1"]


async def _run(runs: int, gap: float, timeout: float) -> tuple[list[float], float]:
    table_id = os.urandom(8).hex()
    ad = Advertiser(name=f"bench {table_id}", port=40999, fingerprint="0000-0000-0000-0000-0000",
                    game="raiders",
                    table_id=table_id, seats_total=3, interfaces=LOOPBACK)
    start = time.perf_counter()
    await ad.start()
    announce = time.perf_counter() - start
    await asyncio.sleep(gap)  # the announcement's own multicasts are a second's rate limit
    times: list[float] = []
    try:
        for _ in range(runs):
            start = time.perf_counter()
            async with TableBrowser(LOOPBACK) as browser:
                while True:
                    event = await browser.next_event(timeout)
                    if isinstance(event, TableFound) and event.table.id == table_id:
                        break
                times.append(time.perf_counter() - start)
            await asyncio.sleep(gap)
    finally:
        await ad.close()
    return times, announce


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks discovery",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--gap", type=float, default=1.2, help="seconds between runs")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds per run, at most")
    args = parser.parse_args(argv)
    try:
        times, announce = asyncio.run(_run(max(1, args.runs), args.gap, args.timeout))
    except TimeoutError:
        print(f"error: no TableFound within {args.timeout} s")
        return 1
    ms = sorted(t * 1000 for t in times)
    print(json.dumps({
        "benchmark": "discovery", "runs": len(ms), "interfaces": LOOPBACK,
        "announce_ms": round(announce * 1000, 1),
        "min_ms": round(ms[0], 1), "max_ms": round(ms[-1], 1),
        "p50_ms": round(statistics.median(ms), 1), "target_ms": 300,
    }))
    return 0

"""How long ``cryptcrawl matches`` takes to list a data directory, cold and with its cache.

    python -m benchmarks matches --files 100

Plays one match between in-memory peers, writes it under ``--files`` names in a temporary data
directory, then times the listing twice: the first run verifies every file in full and fills
the verdict cache; the second finds every verdict in the cache (same size, mtime_ns, inode and
verifier version) and verifies nothing.  ``seconds`` is the second run's time; the target is
under 1 s for 100 files.  The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import io
import json
import tempfile
import time
from pathlib import Path

from protocol.wire.transcript import file_start, frame

from benchmarks.scenario import raiders_network
from cli import matches


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks matches",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    args = parser.parse_args(argv)
    net = raiders_network(args.players, tag=b"bench-matches")
    net.pump()
    data = file_start(net.header) + b"".join(frame(m.encode()) for m in net.log)
    with tempfile.TemporaryDirectory(prefix="cryptcrawl-bench-") as tmp:
        folder = Path(tmp) / "matches"
        folder.mkdir()
        for i in range(args.files):
            (folder / f"{i:016x}.crawl").write_bytes(data)
        times = []
        verified = []
        for _ in range(2):
            out = io.StringIO()
            calls = [0]
            real = matches.read_and_verify

            def counting(raw: bytes, real: object = real, calls: list[int] = calls) -> object:
                calls[0] += 1
                return real(raw)  # type: ignore[operator]

            matches.read_and_verify = counting  # type: ignore[assignment]
            try:
                start = time.perf_counter()
                matches.list_matches(Path(tmp), out)
                times.append(time.perf_counter() - start)
            finally:
                matches.read_and_verify = real
            verified.append(calls[0])
            lines = out.getvalue().splitlines()
            if len(lines) != args.files or not all("won by" in line for line in lines):
                print(f"error: the listing is not one 'won by' line per file: {lines[:2]}")
                return 1
    print(json.dumps({
        "benchmark": "matches", "files": args.files, "players": args.players,
        "first_seconds": round(times[0], 4), "seconds": round(times[1], 4),
        "verified_first": verified[0], "verified_second": verified[1], "target_seconds": 1.0,
    }))
    return 0

"""What spectators cost the table: the 5-seat latency benchmark with and without spectators,
interleaved in the same minutes.

    python -m benchmarks spectators [--spectators 4] [--pairs 3] [--rooms 40]

Each pair is two runs of ``python -m benchmarks latency`` (benchmarks/latency.py: one process
per seat over loopback, a raw all-to-all exchange measured in the same run as its baseline):
one with no spectator, one with ``--spectators`` watching every match — one more process, each
spectator connected to a seat (the seats other than the host in turn), relayed one step late
and checking every message itself (p2p/watchers.py).  The order within a pair alternates, so the
machine's drift falls on both sides.  ``slowdown`` = the median of the with-spectators runs'
``ratio_p50`` ÷ the median of the without runs' (each ratio against its own run's raw
exchange); target ≤ 1.15.  Every spectator must have watched its match to the end.

The spectators stand for other machines: their process runs under SCHED_IDLE (else nice 19),
and ``spectators_cpu_s`` says what their checking cost.  ``--relay-only`` (a diagnostic, never
the figure) has them read the relay without checking it: what the table itself pays.
"""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

from benchmarks.latency import _measure

TARGET = 1.15


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks spectators",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=4)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--rooms", type=int, default=40)
    parser.add_argument("--raw-rounds", type=int, default=50)
    parser.add_argument("--players", type=int, default=5, choices=(3, 4, 5))
    parser.add_argument("--relay-only", action="store_true",
                        help="diagnostic: spectators that read the relay and check nothing")
    args = parser.parse_args(argv)
    if args.pairs < 1 or not 1 <= args.spectators <= 16:
        parser.error("--pairs is at least 1 and --spectators 1 to 16")
    from p2p.peer import BOT_THINK

    runs: dict[int, list[dict[str, Any]]] = {0: [], args.spectators: []}
    for pair in range(args.pairs):
        order = (0, args.spectators) if pair % 2 == 0 else (args.spectators, 0)
        for watching in order:
            one = _measure(argparse.Namespace(
                players=args.players, rooms=args.rooms, raw_rounds=args.raw_rounds,
                bot_think=BOT_THINK, spectators=watching, relay_only=args.relay_only))
            if "error" in one:
                print(json.dumps(one))
                return 1
            print(json.dumps({"pair": pair + 1, **one}), flush=True)
            runs[watching].append(one)
    watched = runs[args.spectators]
    missing = [r for r in watched if r.get("spectators_refused") or not r.get("matches_watched")
               or r.get("spectators_finished") != args.spectators * r["matches_watched"]]
    without = statistics.median(r["ratio_p50"] for r in runs[0])
    with_ = statistics.median(r["ratio_p50"] for r in watched)
    slowdown = round(with_ / without, 3)
    print(json.dumps({
        "benchmark": "spectators", "players": args.players, "spectators": args.spectators,
        "spectators_check": "nothing (--relay-only: a diagnostic)" if args.relay_only
        else "every message",
        "pairs": args.pairs, "ratio_p50_without": round(without, 3),
        "ratio_p50_with": round(with_, 3),
        "ratio_p50_without_runs": [r["ratio_p50"] for r in runs[0]],
        "ratio_p50_with_runs": [r["ratio_p50"] for r in watched],
        "p50_ms_without": statistics.median(r["p50_ms"] for r in runs[0]),
        "p50_ms_with": statistics.median(r["p50_ms"] for r in watched),
        "every_spectator_watched_to_the_end": not missing,
        "slowdown": slowdown, "target": TARGET,
        "meets_target": slowdown <= TARGET and not missing and not args.relay_only,
    }))
    return 0

"""Run a benchmark by name: ``python -m benchmarks NAME [options]``."""

from __future__ import annotations

import argparse
import importlib
import sys

BENCHMARKS = {
    "engine": "benchmarks.engine_games",
    "bots": "benchmarks.bot_strength",
    "verify": "benchmarks.verify_match",
    "match": "benchmarks.match",
    "latency": "benchmarks.latency",
    "discovery": "benchmarks.discovery",
    "partitions": "benchmarks.partitions",
    "matches": "benchmarks.matches_listing",
    "kards-balance": "benchmarks.kards_balance",
    "deck": "benchmarks.deck",
    "abort-edge": "benchmarks.abort_edge",
    "zombie": "benchmarks.zombie",
    "dice": "benchmarks.dice",
    "spectators": "benchmarks.spectators",
    "tamper": "benchmarks.tamper",
}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print("usage: python -m benchmarks NAME [options]\n\nbenchmarks: "
              + ", ".join(sorted(BENCHMARKS)))
        return 0 if args else 2
    name, rest = args[0], args[1:]
    if name not in BENCHMARKS:
        print(f"unknown benchmark {name!r} (known: {', '.join(sorted(BENCHMARKS))})",
              file=sys.stderr)
        return 2
    module = importlib.import_module(BENCHMARKS[name])
    try:
        return int(module.main(rest))
    except argparse.ArgumentError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

"""Whole games per second: random bots, every chance event answered by the offline dealer.

    python -m benchmarks engine --game raiders --players 5 --games 2000

Runs ``--repeats`` timed batches of ``--games`` games each (different seeds), after a short
warm-up, and reports the median batch rate: ``games_per_s``.  Each game goes through the checked
API (``apply_joint`` / ``apply`` / ``apply_chance``), as a peer does.  The machine's noise shows in
``games_per_s_runs``; ``baseline_loops_per_s`` is a fixed pure-Python loop timed in the same
process, so the ratio ``games_per_s / baseline_loops_per_s`` compares runs across machines.
``native`` says whether the engine's hot modules are the mypyc build (``CRYPTCRAWL_NATIVE=1``).
``--option KEY=VALUE`` (repeatable) sets a game option; ``--variant`` applies to games that have
variants.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import statistics
import sys
import time
from pathlib import Path

from benchmarks.bot_strength import game_options
from engine.games import get_game
from engine.sim import Dealer, play_out
from engine.stream import derive_key


def _baseline(seconds: float = 0.2) -> float:
    """A fixed pure-Python workload (loops per second) to calibrate the machine."""
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        total = 0
        for i in range(1000):
            total += i * i % 7
        count += 1
    return count / (time.perf_counter() - start)


NATIVE_MODULES = ("engine.stream", "engine.sim", "engine.raiders.resolve",
                  "engine.raiders.records", "engine.raiders.flow", "engine.raiders.state",
                  "engine.raiders.bots")
GAME_MODULES = {"raiders": NATIVE_MODULES}  # a game not listed: its state module


def native_status(game: str = "raiders") -> tuple[bool, list[str]]:
    """Whether the game's hot modules are the compiled (mypyc) build, and which compiled
    modules are older than their source (a stale in-place build)."""
    compiled, stale = [], []
    modules = GAME_MODULES.get(game, ("engine.stream", "engine.sim", f"engine.{game}.state"))
    for name in modules:
        path = Path(importlib.import_module(name).__file__ or "")
        if path.suffix in (".so", ".pyd"):
            compiled.append(name)
            source = path.with_name(path.name.split(".")[0] + ".py")
            if source.exists() and source.stat().st_mtime > path.stat().st_mtime:
                stale.append(name)
    return len(compiled) == len(modules), stale


def run_batch(game: str, players: int, variant: str | None, games: int, first_seed: int,
              options: list[str] | None = None) -> float:
    spec = get_game(game)
    bot_factory = spec.bots["random"]
    bots = [bot_factory() for _ in range(players)]
    new_options = game_options(spec, players, variant, options or [])
    start = time.perf_counter()
    for g in range(first_seed, first_seed + games):
        seed = derive_key("bench", str(g))
        run = play_out(spec.new(**new_options), bots, Dealer(seed), record=False)
        assert run.state.is_over
    return games / (time.perf_counter() - start)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks engine",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="raiders")
    parser.add_argument("--players", type=int, default=None,
                        help="default: the game's largest table")
    parser.add_argument("--variant", default=None, help="default: the game's first variant")
    parser.add_argument("--games", type=int, default=1000, help="games per timed batch")
    parser.add_argument("--repeats", type=int, default=5, help="timed batches (median)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option (repeatable)")
    args = parser.parse_args(argv)
    spec = get_game(args.game)
    if args.players is None:
        args.players = max(spec.players)
    if args.variant is None and spec.variants:
        args.variant = spec.variants[0]
    if args.players not in spec.players:
        parser.error(f"{spec.title} is for {min(spec.players)}-{max(spec.players)} players")
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats must be at least 1")
    try:
        spec.new(**game_options(spec, args.players, args.variant, args.option))
    except ValueError as exc:
        parser.error(str(exc))
    native, stale = native_status(args.game)
    if stale:
        print(f"error: stale native build of {', '.join(stale)}: rebuild with "
              "CRYPTCRAWL_NATIVE=1 pip install -e . or delete the .so files", file=sys.stderr)
        return 1
    run_batch(args.game, args.players, args.variant, min(50, args.games), 10**9,
              args.option)  # warm-up
    baseline = _baseline()
    rates = []
    for r in range(args.repeats):
        rate = run_batch(args.game, args.players, args.variant, args.games, r * args.games,
                         args.option)
        rates.append(rate)
        print(f"batch {r + 1}/{args.repeats}: {rate:.0f} games/s")
    baseline = statistics.median([baseline, _baseline()])
    median = statistics.median(rates)
    report: dict[str, object] = {"benchmark": "engine", "game": args.game,
                                 "players": args.players}
    if spec.variants:
        report["variant"] = args.variant
    report.update(kv.partition("=")[::2] for kv in args.option)
    print(json.dumps({
        **report,
        "games": args.games * args.repeats,
        "games_per_s": round(median, 1),
        "games_per_s_runs": [round(r, 1) for r in rates],
        "baseline_loops_per_s": round(baseline, 1),
        "ratio_to_baseline": round(median / baseline, 4),
        "native": native,
        "python": platform.python_version(),
    }))
    return 0

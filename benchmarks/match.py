"""A whole match between in-memory peers: wall time, messages and bytes on the wire.

    python -m benchmarks match --players 5

Plays ``--repeats`` matches of ``--players`` seats (random bots, every message through the full
protocol: signed feeds, commit-reveal, chance, torch rounds, END) on ``protocol.local.Network``,
each under its own tag (so each is a different, reproducible match), and reports per match:
wall time (setting up the peers plus ``pump`` until the network settles; median, min, max),
messages sent and bytes on the wire (sum of ``len(m.encode())``; medians), torch rounds (TORCH
messages; median), face-down cards turned and how many of them were early turns (their
secrets sent with the step before, protocol.md §7.4; totals over the runs), and ``by_kind``:
messages of each kind, the mean per match over the runs.
``agreed`` is true when, in every run, every peer holds the same public digest and every
core has the result signed by every live seat; if any run does not agree, the benchmark says
which and exits with status 1.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from dataclasses import dataclass

from benchmarks.scenario import raiders_network
from engine.core import Chance, Visibility
from protocol.local import Network
from protocol.match import MatchCore
from protocol.messages import Kind


@dataclass(frozen=True)
class Run:
    seconds: float
    messages: int
    bytes: int
    kinds: Counter[str]
    problem: str  # empty when every peer agreed
    hidden_turns: int = 0  # face-down cards turned (the boss included)
    early_turns: int = 0  # of which turned early

    @property
    def torch_rounds(self) -> int:
        return self.kinds[Kind.SEAL_KEY.name]


def play(players: int, variant: str, tag: bytes) -> Run:
    """One match: its figures, and why the peers did not agree (if they did not)."""
    start = time.perf_counter()
    net = raiders_network(players, variant, tag=tag)
    try:
        net.pump()
        problem = ""
    except AssertionError as exc:  # the network did not settle
        problem = str(exc)
    seconds = time.perf_counter() - start
    if not problem:
        digests = {core.public_digest() for core in net.cores}
        unsigned = [i for i, core in enumerate(net.cores) if not core.signed]
        if len(digests) != 1:
            problem = f"the peers hold {len(digests)} different public digests"
        elif unsigned:
            problem = f"the result is not signed on peer(s) {unsigned}"
    late, early = _turns(net)
    return Run(seconds=seconds, messages=len(net.log),
               bytes=sum(len(m.encode()) for m in net.log),
               kinds=Counter(Kind(m.kind).name for m in net.log), problem=problem,
               hidden_turns=late + early, early_turns=early)


def _turns(net: Network) -> tuple[int, int]:
    """Face-down cards turned in a chance phase of their own, and turned early: replayed
    message by message through a fresh core (not timed)."""
    core = MatchCore(net.header)
    late: set[str] = set()
    for message in net.log:
        w = core.state.waiting
        if isinstance(w, Chance) and w.event.visibility is Visibility.HIDDEN:
            late.add(core.chance.alias.get(w.event.id, w.event.id))
        core.receive(message)
    # (An early turn's reveals consumed after its step resolved still leave it early.)
    return len(late - set(core.chance.early_state)), len(core.chance.early_state)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks match",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=5, choices=(3, 4, 5))
    parser.add_argument("--variant", default="basic", choices=("basic", "tactical"))
    parser.add_argument("--repeats", type=int, default=5, help="matches played (median)")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    runs: list[Run] = []
    for r in range(args.repeats):
        tag = b"bench-match-%d-%s-%d" % (args.players, args.variant.encode(), r)
        run = play(args.players, args.variant, tag)
        runs.append(run)
        status = f"NOT AGREED: {run.problem}" if run.problem else "agreed"
        print(f"match {r + 1}/{args.repeats}: {run.seconds:.3f} s, {run.messages} messages, "
              f"{run.bytes} bytes, {run.torch_rounds} torch rounds, {status}", flush=True)
    seconds = [run.seconds for run in runs]
    total: Counter[str] = Counter()
    for run in runs:
        total.update(run.kinds)
    order = {kind.name: int(kind) for kind in Kind}
    failed = [r + 1 for r, run in enumerate(runs) if run.problem]
    if failed:
        print(f"error: the peers did not agree in match(es) {failed} of {args.repeats}")
    print(json.dumps({
        "benchmark": "match", "players": args.players, "variant": args.variant,
        "repeats": args.repeats,
        "seconds_median": round(statistics.median(seconds), 4),
        "seconds_min": round(min(seconds), 4),
        "seconds_max": round(max(seconds), 4),
        "messages_median": statistics.median(run.messages for run in runs),
        "bytes_median": statistics.median(run.bytes for run in runs),
        "torch_rounds_median": statistics.median(run.torch_rounds for run in runs),
        "face_down_turns": sum(run.hidden_turns for run in runs),
        "early_turns": sum(run.early_turns for run in runs),
        "by_kind": {name: round(total[name] / len(runs), 1)
                    for name in sorted(total, key=order.__getitem__)},
        "by_kind_is": "mean messages per match",
        "agreed": not failed,
    }))
    return 1 if failed else 0

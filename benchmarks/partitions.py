"""Partitions that heal: how often honest peers still finish alike.

    python -m benchmarks partitions --patterns 200
    python -m benchmarks partitions --patterns 200 --mode split

Plays ``--patterns`` matches on ``protocol.mesh.Network`` (peers that rebuild as network peers
do), each drawn by ``protocol.mesh.draw_partition`` from its number: 3–5 seats; after a random
number of deliveries some links stall for longer than both timeouts, one to three times over,
then deliver everything in a scrambled order.  ``--mode``: ``cut-off`` (the default: whole
seats cut off, a random proper subset — their messages reach nobody, they still get everyone's),
``split`` (each link down both ways with probability one half: the network splits),
``one-way`` (each link stalled one way with probability one half), ``one-way-closed`` (the
same draws as network peers see them: the peer that hears nothing on a link closes it, so a
link stalled one way is down both ways — network.md §4) or ``crash`` (one seat's
peer stops for good and, at the same moment, each link between two others goes down both ways
with probability one half); a message is held back only where no path of working links leads,
since peers relay each other's messages (a crashed peer relays nothing).  No link ever loses a
message: every pattern can finish (in ``crash`` mode, with the crashed seat replaced).  Each
is classed as (in ``crash`` mode, "every peer" is every peer that did not crash)

- ``finished_alike``: every peer signed the same result, nobody blamed anyone, every peer's file
  verifies, and the messages of the first peer's file, taken one by one in three random orders
  (rebuilding as a peer would), reach the same state as the file taken whole;
- ``stalled``: nobody could move, even with every clock run past both timeouts again and again;
- ``parted``: peers signed different results, or a peer blamed another (all are honest);
- ``not_valid``: a file does not verify as valid;
- ``order_dependent``: a re-take in some order reaches another state.

``honest_blamed`` counts the patterns (of any class) in which some peer blamed a seat — live, or
its file reading ``invalid`` with a seat at fault; ``honest_disputed`` those in which some peer's
file reads ``disputed``.  Every seat is honest, so both should be 0.  ``stalls_unnamed`` counts
the stalls in which some live peer's file does not read ``incomplete`` naming the seats it waits
for (it must be 0).

Robustness figures, not timings: the counts are exact and repeatable (everything is derived
from the pattern numbers).  ``--show`` prints every pattern that did not finish alike.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter

from protocol.match.core import MatchCore, PeerMisbehaved
from protocol.mesh import (
    MODES,
    Network,
    Stalled,
    draw_partition,
    play_partition,
    shuffled,
    take_in_order,
)
from protocol.verify.verdicts import DISPUTED, INCOMPLETE
from protocol.verify.verifier import INVALID, VALID, verify

from benchmarks.scenario import RAIDERS
from engine.stream import HashStream

OUTCOMES = ("finished_alike", "stalled", "parted", "not_valid", "order_dependent")


def blamed(net: Network) -> list[int]:
    """The seats some running peer blamed (every seat is honest), live or in its file."""
    seats = {e.seat for i, _ in net.running() for e in net.events[i]
             if isinstance(e, PeerMisbehaved)}
    for i, _ in net.running():
        verdict = verify(net.match_file(i))
        if verdict.verdict == INVALID:
            seats.update(verdict.blamed)
    return sorted(seats)


def disputed(net: Network) -> bool:
    """Does some running peer's file read ``disputed`` (two honest seats named together)?"""
    return any(verify(net.match_file(i)).verdict == DISPUTED for i, _ in net.running())


def unnamed_stall(net: Network) -> bool:
    """A stall where some live peer's file does not read ``incomplete`` naming the seats it
    waits for (every stall must: protocol.md §9.2)."""
    for i, _ in net.running():
        verdict = verify(net.match_file(i))
        if verdict.verdict != INCOMPLETE or not verdict.waiting_for:
            return True
    return False


def outcome(seed: bytes, mode: str) -> str:
    """The pattern's class."""
    return judged(seed, mode)[0]


def judged(seed: bytes, mode: str) -> tuple[str, list[int], bool, bool]:
    """The pattern's class, the (honest) seats blamed anywhere, whether a file reads
    ``disputed``, and (a stall) whether some live peer's file fails to name whom it waits for."""
    try:
        net = play_partition(draw_partition(seed, RAIDERS, mode))
    except Stalled as stalled:
        net = stalled.args[1]
        return "stalled", blamed(net), disputed(net), unnamed_stall(net)
    return classify(net, seed), blamed(net), disputed(net), False


def classify(net: Network, seed: bytes) -> str:
    peers = [i for i, _ in net.running()]  # (a crashed peer's file stops where it did)
    if len({net.cores[i].public_digest() for i in peers}) != 1 or any(
            isinstance(e, PeerMisbehaved) for i in peers for e in net.events[i]):
        return "parted"
    if any(verify(net.match_file(i)).verdict != VALID for i in peers):
        return "not_valid"
    first = net.cores[peers[0]]
    whole = MatchCore(net.header)
    whole.adopt(dict(enumerate(first.feeds)))
    messages = [m for feed in first.feeds for m in feed.messages]
    for k in range(3):
        core = take_in_order(net.header, shuffled(messages, HashStream(seed + bytes([k]))))
        if (core.public_digest(), sorted(core.absent), core.signed) != (
                whole.public_digest(), sorted(whole.absent), whole.signed):
            return "order_dependent"
    return "finished_alike"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks partitions",
                                     exit_on_error=False)
    parser.add_argument("--patterns", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="number of the first pattern")
    parser.add_argument("--mode", choices=MODES, default="cut-off",
                        help="what stalls: whole seats, links both ways, links one way (as the "
                             "core sees them, or as peers that close a link silent one way do), "
                             "or links both ways while a seat crashes")
    parser.add_argument("--show", action="store_true",
                        help="print each pattern that did not finish alike")
    args = parser.parse_args(argv)
    if args.patterns < 1:
        raise argparse.ArgumentError(None, "--patterns must be at least 1")
    start = time.perf_counter()
    counts: Counter[str] = Counter()
    honest_blamed = honest_disputed = stalls_unnamed = 0
    for number in range(args.first, args.first + args.patterns):
        seed = b"%d" % number
        result, seats, dispute, unnamed = judged(seed, args.mode)
        counts[result] += 1
        honest_blamed += bool(seats)
        honest_disputed += dispute
        stalls_unnamed += unnamed
        if args.show and (result != "finished_alike" or seats or dispute):
            partition = draw_partition(seed, RAIDERS, args.mode)
            print(f"pattern {number}: {result}{f' blamed {seats}' if seats else ''}"
                  f"{' disputed' if dispute else ''}{' unnamed' if unnamed else ''}: "
                  f"{partition.describe()}", flush=True)
    report = {"benchmark": "partitions", "mode": args.mode,
              "patterns": args.patterns, "first": args.first,
              **{name: counts[name] for name in OUTCOMES},
              "honest_blamed": honest_blamed, "honest_disputed": honest_disputed,
              "stalls_unnamed": stalls_unnamed,
              "seconds": round(time.perf_counter() - start, 1)}
    print(json.dumps(report))
    return 0

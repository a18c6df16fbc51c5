"""How long verifying a whole match file takes, against raw Ed25519 verification alone.

    python -m benchmarks verify --players 5

Plays one match between in-memory peers (random bots), writes its match file, then times
``protocol.verify.verifier.verify`` on it — reading, every signature and chain, commitments, chance
outcomes, every action replayed through the engine — against verifying just the Ed25519
signatures of the same messages, in the same run (median of ``--repeats``).  The yardstick,
``raw_sig_verify_s``, is a standard Ed25519 verifier (``cryptography``'s, the one the target was
set with); ``ratio`` = verify_s / raw_sig_verify_s, target at most 2.  ``verify`` itself checks
signatures with libsodium's strict verifier (protocol.md §1.2), about twice as fast here:
``raw_strict_verify_s`` times that alone, and ``ratio_vs_strict`` is the overhead against it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from protocol.verify.verifier import verify
from protocol.wire.transcript import file_start, frame

from benchmarks.scenario import raiders_network
from protocol.crypto import ed25519_valid


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks verify",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=5, choices=(3, 4, 5))
    parser.add_argument("--variant", default="basic", choices=("basic", "tactical"))
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    net = raiders_network(args.players, args.variant, tag=b"bench")
    net.pump()
    data = file_start(net.header) + b"".join(frame(m.encode()) for m in net.log)
    keys = [s.key for s in net.header.header.seats]
    signed = [(keys[m.seat], m.sig, m.signed_bytes()) for m in net.log]
    objects = [Ed25519PublicKey.from_public_bytes(k) for k in keys]
    standard = [(objects[m.seat], m.sig, m.signed_bytes()) for m in net.log]
    verify_times, raw_times, strict_times = [], [], []
    for _ in range(args.repeats):
        start = time.perf_counter()
        verdict = verify(data)
        verify_times.append(time.perf_counter() - start)
        if not verdict.valid:
            print(f"error: the benchmark match does not verify: {verdict.reason}")
            return 1
        start = time.perf_counter()
        for key, sig, payload in signed:
            assert ed25519_valid(key, sig, payload)
        strict_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        for obj, sig, payload in standard:
            obj.verify(sig, payload)
        raw_times.append(time.perf_counter() - start)
    verify_s = statistics.median(verify_times)
    raw_s = statistics.median(raw_times)
    strict_s = statistics.median(strict_times)
    print(json.dumps({
        "benchmark": "verify", "players": args.players, "variant": args.variant,
        "messages": len(net.log), "file_bytes": len(data),
        "verify_s": round(verify_s, 4), "raw_sig_verify_s": round(raw_s, 4),
        "raw_strict_verify_s": round(strict_s, 4),
        "ratio": round(verify_s / raw_s, 2), "target_ratio": 2,
        "ratio_vs_strict": round(verify_s / strict_s, 2),
    }))
    return 0

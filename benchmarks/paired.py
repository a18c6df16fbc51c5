"""Paired games, shared by the abort-edge benchmarks: a cheater's policies swept against the
same seeds played honestly, its best response picked and played over every seed, and the
paired bootstrap's interval of its edge."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from engine.stream import HashStream, derive_key

BOOTSTRAP = 2000  # resamples of the paired bootstrap
NEVER = float("inf")  # τ past every value: the cheater never withholds

# (policy, τ, seeds, rule) -> per seed: the cheater's share, and how often it withheld
Shares = Callable[[str, float, Sequence[bytes], str], list[tuple[float, int]]]


def bootstrap(diffs: Sequence[float], label: str) -> tuple[float, float]:
    """The paired bootstrap's 95% interval of the mean of ``diffs``."""
    n = len(diffs)
    stream = HashStream(derive_key(b"abort-edge/bootstrap", label.encode()))
    means = sorted(sum(diffs[stream.below(n)] for _ in range(n)) / n
                   for _ in range(BOOTSTRAP))
    return means[int(0.025 * BOOTSTRAP)], means[int(0.975 * BOOTSTRAP) - 1]


def best_response(shares: Shares, honest: Sequence[float], seeds: Sequence[bytes],
                  sweep: Sequence[bytes], policies: Sequence[str], taus: Sequence[float],
                  rule: str, *, name: str) -> dict[str, Any]:
    """Sweep every policy and τ over ``sweep`` (after the rule τ also takes "never": a best
    response knows that withholding forfeits), then play the best over ``seeds``: the sweep's
    rows (each printed as it ends, ``name`` naming the policy), the best policy and τ, and its
    edge over ``honest`` with the interval."""
    runs: list[dict[str, Any]] = []
    for policy in policies:
        for tau in [*taus, *([NEVER] if rule == "after" else [])]:
            got = shares(policy, tau, sweep, rule)
            diffs = [c - h for (c, _), h in zip(got, honest, strict=False)]
            runs.append({"rule": rule, name: policy, "tau": "never" if tau == NEVER else tau,
                         "games": len(got), "edge": sum(diffs) / len(diffs),
                         "withholds_per_game": sum(w for _, w in got) / len(got)})
            print(json.dumps(runs[-1]), flush=True)
    # (A tie goes to "never": a τ whose sweep games happened to cost nothing is no better a
    # response than not withholding.)
    best = max(runs, key=lambda r: (r["edge"], r["tau"] == "never"))
    tau = NEVER if best["tau"] == "never" else float(best["tau"])
    got = shares(best[name], tau, seeds, rule)
    diffs = [c - h for (c, _), h in zip(got, honest, strict=True)]
    return {"sweep": runs, "best": best[name], "tau": best["tau"],
            "withholds_per_game": sum(w for _, w in got) / len(got),
            "edge": sum(diffs) / len(diffs), "ci95": list(bootstrap(diffs, rule))}

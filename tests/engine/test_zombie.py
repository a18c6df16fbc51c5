"""The zombie — the decision every peer computes for a replaced seat — is the same on every
peer: no set or dict order, no clock, no float-order effect may reach it.  Run under three hash
seeds in fresh interpreters, every game's zombie decides alike (issue 27); and it is cheap
(``python -m benchmarks zombie``: each decision ≤ 50 ms)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from benchmarks import zombie

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ("import json; from engine.games import GAMES; from benchmarks.zombie import "
          "zombie_trace; print(json.dumps({g: zombie_trace(g) for g in sorted(GAMES)}))")


def _trace(hash_seed: str) -> dict[str, list[str]]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True, timeout=300)
    data = json.loads(out.stdout.splitlines()[-1])
    assert isinstance(data, dict)
    return data


def test_every_games_zombie_decides_alike_under_any_hash_seed() -> None:
    traces = [_trace(seed) for seed in ("0", "1", "4242")]
    assert traces[0] == traces[1] == traces[2]
    for game, decisions in traces[0].items():
        assert sum(d != "-" for d in decisions) >= 20, (game, decisions[:5])


def test_the_benchmark_finds_each_games_decision_points() -> None:
    points = zombie.decision_points("raiders", 1, 5)
    assert len(points) == 5
    assert zombie.players_of("paper") >= 2 and zombie.BUDGET_MS == 50.0

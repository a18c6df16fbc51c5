"""The Dungeon Twister bots: legal, deterministic under any PYTHONHASHSEED (every peer must
compute the same choice from the same view and key), and the heuristic plays to score."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from engine.sim import Dealer, play_out
from engine.stream import derive_key
from engine.twister import new_game
from engine.twister.bots import BOTS, HeuristicBot, RandomBot, make_bot

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = """
import hashlib
from engine.core import entry_to_json
from engine.sim import Dealer, play_out
from engine.twister import new_game
from engine.twister.bots import HeuristicBot, RandomBot
digest = hashlib.sha256()
for g, bots in enumerate(([HeuristicBot(), RandomBot()], [HeuristicBot(), HeuristicBot()])):
    run = play_out(new_game(turn_cap=24), bots, Dealer(b"hashseed/%d" % g))
    for entry in run.history:
        digest.update(repr(entry_to_json(entry)).encode())
print(digest.hexdigest())
"""


def test_bots_are_deterministic_under_any_hash_seed() -> None:
    out = set()
    for seed in ("0", "1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=300, check=True)
        out.add(result.stdout.strip())
    assert len(out) == 1, out


def test_the_heuristic_plays_to_score() -> None:
    """Against random play, in both seat orders, it escapes characters and wins."""
    wins = 0
    for g in range(6):
        seat = g % 2
        bots: list[RandomBot | HeuristicBot] = [RandomBot(), RandomBot()]
        bots[seat] = HeuristicBot()
        run = play_out(new_game(), bots, Dealer(derive_key("bots-test", str(g))), record=False)
        outcome = run.state.waiting.outcome  # type: ignore[union-attr]
        wins += outcome.share(seat) == 1.0
        assert run.state.players[seat].vp > run.state.players[seat ^ 1].vp
    assert wins == 6


def test_make_bot() -> None:
    assert set(BOTS) == {"random", "heuristic"}
    assert isinstance(make_bot("heuristic"), HeuristicBot)
    try:
        make_bot("oracle")
    except ValueError as exc:
        assert "known: random, heuristic" in str(exc)
    else:
        raise AssertionError("make_bot accepted an unknown bot")

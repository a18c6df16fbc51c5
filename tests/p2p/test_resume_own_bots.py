"""``cryptcrawl resume`` of a match played against this machine's own bots takes the bots up
too (p2p/run.py ``resume``, ``own_bot_matches``): before, only the person's seat came back and
waited for good for bots that were gone with the process — alone, a seat cannot finish."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from protocol.verify.verifier import VALID, verify

from p2p.peer import PeerConfig, bot_decider
from p2p.run import host, own_bot_matches, resume
from p2p.store import unfinished_matches

CONFIG = PeerConfig(timeouts=(20, 20, 20, 15), linger=0.2, bot_think=0)


@pytest.mark.asyncio
async def test_resume_brings_the_machines_own_bots_back(tmp_path: Path) -> None:
    moves = 0

    def decide(state: object, seat: int) -> str:
        nonlocal moves
        moves += 1
        return bot_decider("random", b"me")(state, seat)  # type: ignore[arg-type]

    # A match against two bots of this machine, stopped in the middle (as by a kill: every
    # peer's file holds what it sent, flushed per message).
    task = asyncio.ensure_future(host(tmp_path, game="raiders",
                                      name="me", players=3, bots=2, bot="random",
                                      decide=decide, config=CONFIG))
    for _ in range(600):
        await asyncio.sleep(0.05)
        if moves >= 6:
            break
    assert moves >= 6 and not task.done()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await asyncio.sleep(0.2)  # (the sockets close)

    [mine] = unfinished_matches(tmp_path)
    bots = own_bot_matches(tmp_path, mine)
    assert len(bots) == 2  # both bots' copies of this match, unfinished
    result = await asyncio.wait_for(
        resume(tmp_path, store=mine, decide=bot_decider("random", b"me again"), config=CONFIG),
        timeout=120)
    assert result.core.signed, result.core.where()
    verdict = verify(result.path.read_bytes())
    assert verdict.verdict == VALID, verdict.reason
    assert not verdict_absent(verdict), "nobody was voted out: every seat came back"
    for bot in bots:
        assert verify(bot.path.read_bytes()).verdict == VALID


def verdict_absent(verdict: object) -> list[str]:
    return [n for n in getattr(verdict, "notes", []) if "replaced by its zombie" in str(n)]

"""CLAIM over real loopback peers (protocol.md §7.7): in a two-seat match one peer stops; the
other, once both timeouts passed, claims the match and signs the end — before this, the match
stalled for good and the file named nobody."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from protocol.match.core import MatchClaimed
from protocol.verify.verdicts import CLAIMED
from protocol.verify.verifier import verify

from p2p.peer import PeerConfig
from tests.p2p.conftest import start_match
from tests.protocol import duel

QUICK = PeerConfig(timeouts=(1.0, 1.0, 1.0, 1.0), linger=0.2)


@pytest.mark.asyncio
async def test_a_silent_seat_in_a_two_seat_match_is_claimed(tmp_path: Path) -> None:
    match = await start_match(tmp_path, 2, QUICK, game=duel.GAME)
    try:
        await match.wait_peers(2)
        deadline = asyncio.get_running_loop().time() + 20
        while len(match.peers[1].local.sent) < 2:
            assert asyncio.get_running_loop().time() < deadline
            await asyncio.sleep(0.01)
        match.task_of(match.peers[1]).cancel()  # seat 1 stops answering
        result = await asyncio.wait_for(match.task_of(match.peers[0]), 60)
    finally:
        await match.cancel()
    assert result.core.signed
    [claim] = [e for e in result.core.events if isinstance(e, MatchClaimed)]
    assert (claim.claimant, claim.seat, claim.contested) == (0, 1, False)
    v = verify(result.path.read_bytes())
    assert (v.verdict, v.reason_code, v.blamed, v.exit_code) == (CLAIMED, "claimed", (), 5), v


@pytest.mark.asyncio
async def test_three_seats_one_leaves_a_second_goes_silent_the_third_claims(
        tmp_path: Path) -> None:
    match = await start_match(tmp_path, 3, QUICK)
    try:
        await match.wait_peers(3)
        leaver = match.peers[2]
        deadline = asyncio.get_running_loop().time() + 20
        while len(leaver.local.sent) < 10:
            assert asyncio.get_running_loop().time() < deadline
            await asyncio.sleep(0.01)
        assert await leaver.leave()
        match.task_of(leaver).cancel()
        while 2 not in match.peers[1].core.absent:
            assert asyncio.get_running_loop().time() < deadline
            await asyncio.sleep(0.01)
        match.task_of(match.peers[1]).cancel()  # then seat 1 stops answering
        result = await asyncio.wait_for(match.task_of(match.peers[0]), 60)
    finally:
        await match.cancel()
    assert result.core.signed and result.core.absent[2].left
    v = verify(result.path.read_bytes())
    assert (v.verdict, v.blamed) == (CLAIMED, ()), v
    assert any(n.startswith("seat 2 left the match for good") for n in v.notes), v.notes

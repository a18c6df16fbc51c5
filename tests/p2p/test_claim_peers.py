"""CLAIM over real loopback peers (protocol.md §7.7): in a two-seat match one peer stops; the
other, once both timeouts passed, claims the match and signs the end — before this, the match
stalled for good and the file named nobody."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from p2p.peer import PeerConfig
from protocol.match.core import MatchClaimed
from protocol.verify.verdicts import CLAIMED
from protocol.verify.verifier import verify
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


@pytest.mark.slow  # (a claim past both timeouts, then a resume that waits them out: ~6 s)
@pytest.mark.asyncio
async def test_a_claimed_seat_that_resumes_makes_no_move_and_is_told_nobody_answers(
        tmp_path: Path) -> None:
    """Issue 48: the silent seat comes back (``resume``) after the other claimed the match and
    left.  It first tries to learn where the match stands; nobody answers, so it is told so,
    and it signs nothing new — no move, no vote — that could cross the claim: its copy and the
    claimant's still agree (claimed, not disputed)."""
    from p2p.peer import MatchPeer
    from p2p.run import resume
    from protocol.verify.copies import verify_copies
    from protocol.wire.transcript import read_transcript

    match = await start_match(tmp_path, 2, QUICK, game=duel.GAME)
    try:
        await match.wait_peers(2)
        silent = match.peers[1]
        deadline = asyncio.get_running_loop().time() + 20
        while len(silent.local.sent) < 2:
            assert asyncio.get_running_loop().time() < deadline
            await asyncio.sleep(0.01)
        task = match.task_of(silent)
        task.cancel()  # seat 1 stops answering
        await asyncio.gather(task, return_exceptions=True)
        claimed = await asyncio.wait_for(match.task_of(match.peers[0]), 60)
    finally:
        await match.cancel()
    sent_before = len(read_transcript(_file(match.dirs[1])).feeds[1].messages)
    asked: list[object] = []
    told: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def never(state: object, seat: int) -> str:
        asked.append(state)
        raise AssertionError("the resumed seat was asked a move in a match that is over")

    def attached(peer: MatchPeer) -> None:
        peer.on_notice = lambda text: told.done() or told.set_result(text)

    config = PeerConfig(timeouts=(1.0, 1.0, 1.0, 1.0), linger=0.2, catch_up_notice=0.5)
    back = asyncio.ensure_future(resume(match.dirs[1], choose=never, config=config,
                                        on_peer=attached))
    try:
        notice = await asyncio.wait_for(told, 20)
        await asyncio.sleep(3.5)  # (past both timeouts: nothing is voted, nothing moved)
    finally:
        back.cancel()
        await asyncio.gather(back, return_exceptions=True)
    assert "Nobody of this match answers yet" in notice and not asked
    mine = _file(match.dirs[1])
    assert len(read_transcript(mine).feeds[1].messages) == sent_before, "it signed more"
    together = verify_copies([claimed.path.read_bytes(), mine])
    assert together.verdict == CLAIMED, together


def _file(folder: Path) -> bytes:
    [path] = (folder / "matches").glob("*.crawl")
    return path.read_bytes()

"""LEAVE over real loopback peers (protocol.md §7.7): a seat that leaves for good is replaced at
once — the others never wait out a timeout for it — and its zombie plays on; in a two-seat match
the match ends at the floor, and the file names the seat that left (blaming nobody)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from protocol.match.core import SeatLeft
from protocol.verify.verdicts import ABANDONED, VALID
from protocol.verify.verifier import verify

from p2p.peer import PeerConfig
from p2p.store import unfinished_matches
from tests.p2p.conftest import Match, start_match
from tests.protocol import duel

# Timeouts far longer than the test's bound: a finish proves nobody waited one out.
SLOW = PeerConfig(timeouts=(60.0, 60.0, 60.0, 60.0), linger=0.2)


async def leave_after(messages: int, match: Match, seat: int, *, resign: bool = False) -> None:
    """Once ``seat`` sent ``messages`` messages, it leaves for good (``resign``: it resigns)
    and its peer stops."""
    peer = match.peers[seat]
    deadline = time.monotonic() + 30
    while len(peer.local.sent) < messages and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    assert await peer.leave(resign=resign), "the LEAVE was not sent"
    match.task_of(peer).cancel()  # the process that left stops


@pytest.mark.asyncio
async def test_a_seat_that_leaves_a_raiders_match_is_replaced_without_a_timeout(
        tmp_path: Path) -> None:
    match = await start_match(tmp_path, 3, SLOW)
    try:
        await match.wait_peers(3)
        started = time.monotonic()
        await leave_after(12, match, 2)
        results = await asyncio.wait_for(asyncio.gather(
            match.task_of(match.peers[0]), match.task_of(match.peers[1])), 50)
    finally:
        await match.cancel()
    assert time.monotonic() - started < 50
    assert unfinished_matches(match.dirs[2]) == [], "resume must not offer a match left"
    for result in results:
        core = result.core
        assert core.signed and core.absent[2].left
        assert any(isinstance(e, SeatLeft) and e.seat == 2 for e in core.events)
        v = verify(result.path.read_bytes())
        assert (v.verdict, v.blamed) == (VALID, ()), v
        assert any(n.startswith("seat 2 left the match for good") for n in v.notes), v.notes


@pytest.mark.asyncio
async def test_a_leave_in_a_two_seat_match_ends_it_at_the_floor(tmp_path: Path) -> None:
    assert duel.GAME  # (registered by the import)
    match = await start_match(tmp_path, 2, SLOW, game=duel.GAME)
    try:
        await match.wait_peers(2)
        await leave_after(2, match, 1)
        result = await asyncio.wait_for(match.task_of(match.peers[0]), 30)
    finally:
        await match.cancel()
    assert result.core.signed and result.core.ending.abandoned
    v = verify(result.path.read_bytes())
    assert (v.verdict, v.blamed, v.exit_code) == (ABANDONED, (), 7), v
    assert any("left the match" in n for n in v.notes), v.notes


@pytest.mark.asyncio
async def test_a_resign_in_a_two_seat_match_loses_it(tmp_path: Path) -> None:
    """RESIGN (protocol.md §7.7): the toy duel's resignation rule — the seat is out, the last
    seat in wins — applies; the file reads valid, the other seat the winner."""
    match = await start_match(tmp_path, 2, SLOW, game=duel.GAME, options={"forfeit": True})
    try:
        await match.wait_peers(2)
        await leave_after(2, match, 1, resign=True)
        result = await asyncio.wait_for(match.task_of(match.peers[0]), 30)
    finally:
        await match.cancel()
    assert result.core.signed and not result.core.ending.abandoned
    assert any(isinstance(e, SeatLeft) and e.resigned for e in result.core.events)
    v = verify(result.path.read_bytes())
    assert (v.verdict, v.blamed, v.winners) == (VALID, (), (0,)), v
    assert any(n.startswith("seat 1 resigned and left") for n in v.notes), v.notes

"""The floor over real loopback peers (protocol.md §7.7): in a three-seat Dungeon Raiders match
seat 2 goes silent and is voted out, then seat 1 — a modified client — signs a reveal that does
not open its commitment.  One live seat would be left, and Dungeon Raiders has no forfeit: the
match ends there, the host signs the end, and its file reads abandoned, blaming seat 1."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from protocol.match.core import FloorReached
from protocol.verify.verdicts import ABANDONED
from protocol.verify.verifier import verify
from protocol.wire.messages import Kind, RevealBody

from p2p.peer import MatchPeer, PeerConfig
from tests.p2p.conftest import start_match
from tests.p2p.test_two_seat_endings import rewrite_first

CONFIG = PeerConfig(timeouts=(1.0, 1.0, 1.0, 1.0), linger=0.2)


def cheat_once_seat_2_is_gone(peer: MatchPeer) -> None:
    """``peer``'s first REVEAL after seat 2 was replaced carries a salt that opens nothing."""
    rewrite_first(peer, lambda m: isinstance(m.content, RevealBody) and 2 in peer.core.absent,
                  lambda m: (Kind.REVEAL, RevealBody(
                      m.content.step, m.content.action, bytes(b ^ 0xFF for b in m.content.salt),
                      m.content.commit_set, m.content.chance, m.content.chance_set)))


@pytest.mark.asyncio
async def test_a_cheat_after_a_silent_seat_abandons_a_loopback_match(tmp_path: Path) -> None:
    match = await start_match(tmp_path, 3, CONFIG)
    try:
        await match.wait_peers(3)
        match.task_of(match.peers[2]).cancel()  # seat 2 stops answering
        cheat_once_seat_2_is_gone(match.peers[1])
        result = await asyncio.wait_for(match.task_of(match.peers[0]), 90)
    finally:
        await match.cancel()
    assert result.core.signed and result.core.ending.abandoned
    floor = result.core.ending.floor
    assert floor is not None and isinstance(floor, FloorReached)
    assert (floor.seat, floor.blamed, floor.live) == (1, (1,), (0,))
    v = verify(result.path.read_bytes())
    assert (v.verdict, v.reason_code, v.blamed, v.exit_code) == (ABANDONED, "abandoned", (1,), 7)
    assert any("seat 2 was replaced" in n for n in v.notes), v.notes

"""Draws and pauses by agreement over real loopback peers (protocol.md §7.7): an agreed draw ends
the match with the game's drawn result, and its file verifies valid; an agreed pause stops every
timer — a seat silent through it is not voted out — until a seat resumes."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from p2p.peer import PeerConfig
from protocol.match.events import OfferSettled
from protocol.verify.verdicts import VALID
from protocol.verify.verifier import verify
from tests.p2p.conftest import Match, start_match
from tests.protocol import duel

SLOW = PeerConfig(timeouts=(60.0, 60.0, 60.0, 60.0), linger=0.2)
QUICK = PeerConfig(timeouts=(1.0, 1.0, 1.0, 1.0), linger=0.2)


async def sent_at_least(match: Match, seat: int, messages: int) -> None:
    deadline = time.monotonic() + 30
    while len(match.peers[seat].local.sent) < messages and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    assert len(match.peers[seat].local.sent) >= messages


@pytest.mark.asyncio
async def test_an_agreed_draw_ends_a_two_seat_match_drawn(tmp_path: Path) -> None:
    match = await start_match(tmp_path, 2, SLOW, game=duel.GAME, options={"forfeit": True})
    try:
        await match.wait_peers(2)
        for peer in match.peers.values():
            peer.local.answering = lambda offerer, what: True
        await sent_at_least(match, 1, 2)
        match.peers[1].offer("draw")
        results = await asyncio.wait_for(asyncio.gather(
            *(match.task_of(match.peers[s]) for s in (0, 1))), 30)
    finally:
        await match.cancel()
    for result in results:
        core = result.core
        assert core.signed and isinstance(core.state, duel.Duel) and core.state.drawn
        assert [e.agreed for e in core.events if isinstance(e, OfferSettled)] == [True]
        v = verify(result.path.read_bytes())
        # (A draw is no win: no winners, both seats drew — issue 48.)
        assert (v.verdict, v.blamed, v.winners, v.drawn) == (VALID, (), (), (0, 1)), v
        assert any("offered a draw" in n and "agreed" in n for n in v.notes), v.notes


@pytest.mark.asyncio
@pytest.mark.parametrize(("players", "game", "after"), [(3, "raiders", 6), (2, duel.GAME, 2)])
async def test_an_agreed_pause_stops_the_timers_until_a_seat_resumes(
        tmp_path: Path, players: int, game: str, after: int) -> None:
    """Timeouts of 1 s: a seat silent 4 s in a pause (twice both timeouts) is neither voted
    out nor claimed."""
    options = {"forfeit": True} if game == duel.GAME else None
    match = await start_match(tmp_path, players, QUICK, game=game, options=options)
    try:
        await match.wait_peers(players)
        for peer in match.peers.values():
            peer.local.answering = lambda offerer, what: what == "pause"
        await sent_at_least(match, 0, after)
        match.peers[0].offer("pause")
        deadline = time.monotonic() + 20
        while not all(p.core.agreements.paused for p in match.peers.values()):
            assert time.monotonic() < deadline, "the pause was never agreed"
            await asyncio.sleep(0.02)
        for peer in match.peers.values():
            assert peer.core.waiting.owing() == ()
        silent = match.peers[1].local
        speak = silent.messages_to_send
        silent.messages_to_send = list  # type: ignore[assignment,method-assign]
        await asyncio.sleep(4.0)  # (silent far past every timeout: nobody is voted out)
        assert all(not p.core.absent for p in match.peers.values())
        assert not any(p.core.signed for p in match.peers.values())
        silent.messages_to_send = speak  # type: ignore[method-assign]
        match.peers[players - 1].resume()
        results = await asyncio.wait_for(asyncio.gather(
            *(match.task_of(match.peers[s]) for s in range(players))), 60)
    finally:
        await match.cancel()
    for result in results:
        assert result.core.signed and not result.core.agreements.paused
        v = verify(result.path.read_bytes())
        assert v.verdict == VALID, v
        assert any("resumed the match" in n for n in v.notes), v.notes

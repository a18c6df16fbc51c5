"""A person who lets the timeouts run out at the prompt is away: their bot plays the seat
until they answer, then they take it back (p2p/peer.py ``_note``/``_ask``,
``LocalSeat.hold_reclaim``).  Before, the seat was taken back at once and timed out again in
every room, so the others waited both timeouts per room — an hour for a match."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from protocol.match.core import Event, PlayRevealed, SeatReclaimed, SeatReplaced
from protocol.verify.verifier import VALID, verify

from p2p.peer import MatchPeer, PeerConfig, bot_decider
from p2p.run import host

TURN, SILENCE = 1.5, 1.0  # (every timeout of the match: PeerConfig.timeouts)
CONFIG = PeerConfig(timeouts=(TURN, TURN, TURN, SILENCE), linger=0.2)


@pytest.mark.asyncio
async def test_an_away_person_is_played_by_the_bot_until_they_answer(tmp_path: Path) -> None:
    away = True
    events: list[Event] = []
    peers: list[MatchPeer] = []
    bot = bot_decider("random", b"person")

    async def choose(state: Any, seat: int) -> str:
        while away:
            await asyncio.sleep(0.02)
        return bot(state, seat)

    task = asyncio.ensure_future(host(
        tmp_path, game="raiders", name="person", players=3, bots=2, bot="random", choose=choose,
        config=CONFIG, on_event=events.append, on_peer=peers.append))
    try:
        async def until(found: Any, seconds: float) -> None:
            for _ in range(int(seconds / 0.05)):
                if found():
                    return
                await asyncio.sleep(0.05)
            raise AssertionError(f"not within {seconds} s: {events[-10:]}")

        await until(lambda: any(isinstance(e, SeatReplaced) and e.seat == 0
                                for e in events), 30)
        start = len(events)
        await asyncio.sleep(4 * (TURN + SILENCE))
        meanwhile = events[start:]
        # Away: not taken back, not timed out again, and the bot played on at its own pace
        # (four rounds of both timeouts would be at most four rooms the old way).
        assert not [e for e in meanwhile if isinstance(e, SeatReclaimed | SeatReplaced)
                    and e.seat == 0], meanwhile
        rooms = {e.step for e in meanwhile if isinstance(e, PlayRevealed)}
        assert len(rooms) >= 8 or task.done(), rooms
        assert (peers and peers[0].local.hold_reclaim) or task.done()
        if not task.done():
            away = False  # back: the answer takes the seat back
            await until(lambda: any(isinstance(e, SeatReclaimed) and e.seat == 0
                                    for e in events), 30)
        result = await asyncio.wait_for(task, 120)
    finally:
        if not task.done():
            task.cancel()
    assert result.core.signed
    assert verify(result.path.read_bytes()).verdict == VALID

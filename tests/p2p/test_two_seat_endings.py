"""The two-seat endings of protocol.md §7.7 over real loopback peers, each file verified: a cheat
forfeits; a claim made while the claimant owed a message is its claimant's fault; and two seats
cut off from each other claim each other's match — each copy reads claimed, the two together
abandoned (the claims crossed)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from protocol.verify.copies import verify_copies
from protocol.verify.verdicts import ABANDONED, CLAIMED, INVALID, VALID
from protocol.verify.verifier import verify
from protocol.wire.messages import ClaimBody, Kind, Message, RevealBody

from p2p.peer import MatchPeer, PeerConfig
from tests.p2p.conftest import Match, start_match
from tests.protocol import duel

QUICK = PeerConfig(timeouts=(0.5, 0.5, 0.5, 0.5), linger=0.2)
SLOW = PeerConfig(timeouts=(60.0, 60.0, 60.0, 60.0), linger=0.2)


def rewrite_first(peer: MatchPeer, when: Any, make: Any) -> None:
    """``peer`` (a modified client) signs ``make(message)`` in place of the first message it
    would send for which ``when`` holds."""
    local = peer.local
    original = local.messages_to_send
    done: list[bool] = []

    def send() -> list[Message]:
        out = []
        for message in original():
            if not done and when(message):
                done.append(True)
                local.sent.pop()
                message = local.sign_next(*make(message))
            out.append(message)
        return out
    local.messages_to_send = send  # type: ignore[method-assign]
    peer.rewritten = done  # type: ignore[attr-defined]  (the test checks it happened)


async def both(match: Match) -> list[Any]:
    return list(await asyncio.wait_for(asyncio.gather(
        match.task_of(match.peers[0]), match.task_of(match.peers[1])), 60))


@pytest.mark.asyncio
async def test_a_cheat_in_a_two_seat_match_forfeits(tmp_path: Path) -> None:
    match = await start_match(tmp_path, 2, SLOW, game=duel.GAME, options={"forfeit": True},
                              think=0.05)
    try:
        await match.wait_peers(2)
        rewrite_first(match.peers[1], lambda m: m.kind is Kind.REVEAL, lambda m: (
            Kind.REVEAL, RevealBody(m.content.step, m.content.action,
                                    bytes(b ^ 0xFF for b in m.content.salt),
                                    m.content.commit_set)))
        result = await asyncio.wait_for(match.task_of(match.peers[0]), 30)
    finally:
        await match.cancel()
    assert match.peers[1].rewritten  # type: ignore[attr-defined]
    assert result.core.signed and not result.core.ending.abandoned
    v = verify(result.path.read_bytes())
    assert (v.verdict, v.winners, v.blamed) == (VALID, (0,), (1,)), v
    assert any("forfeit" in n and "seat 1" in n for n in v.notes), v.notes


@pytest.mark.asyncio
async def test_a_claim_made_while_the_claimant_owed_a_message_is_its_fault(
        tmp_path: Path) -> None:
    match = await start_match(tmp_path, 2, SLOW, game=duel.GAME, think=0.05)
    try:
        await match.wait_peers(2)
        liar = match.peers[0]
        # In place of its play of step s2, seat 0 claims seat 1's match (it owes that play).
        rewrite_first(liar, lambda m: m.kind in (Kind.COMMIT, Kind.REVEAL)
                      and m.content.step == "s2",
                      lambda m: (Kind.CLAIM, ClaimBody(1, liar.core.cursor[1])))
        result = await asyncio.wait_for(match.task_of(match.peers[1]), 30)
    finally:
        await match.cancel()
    assert match.peers[0].rewritten  # type: ignore[attr-defined]
    assert result.core.signed
    v = verify(result.path.read_bytes())
    assert (v.verdict, v.reason_code, v.blamed) == (INVALID, "false_claim", (0,)), v


@pytest.mark.asyncio
async def test_two_seats_cut_off_from_each_other_claim_and_the_claims_cross(
        tmp_path: Path) -> None:
    match = await start_match(tmp_path, 2, QUICK, game=duel.GAME, options={"forfeit": True})
    try:
        await match.wait_peers(2)
        deadline = asyncio.get_running_loop().time() + 20
        while not all(len(p.local.sent) >= 4 for p in match.peers.values()):
            assert asyncio.get_running_loop().time() < deadline
            await asyncio.sleep(0.005)
        for peer in match.peers.values():  # the link between them goes dead both ways
            peer._on_message = lambda link, data: None  # type: ignore[method-assign]
        results = await both(match)
    finally:
        await match.cancel()
    files = [r.path.read_bytes() for r in results]
    for peer, data in enumerate(files):
        v = verify(data)
        assert (v.verdict, v.blamed, v.winners) == (CLAIMED, (), (peer,)), v
    together = verify_copies(files)
    assert (together.verdict, together.blamed) == (ABANDONED, ()), together
    assert "the claims crossed" in together.reason

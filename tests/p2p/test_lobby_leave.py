"""A joiner who leaves while the opener is asked about it frees only that seat: the question
is withdrawn, the table and the joiners already seated go on, and the seat is taken by the
next joiner (before: the opener's yes seated a closed connection, and the table ended when it
filled, "left the table before signing the match header")."""

from __future__ import annotations

import asyncio

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2p.lobby import Joiner, LobbyError, join_table
from tests.p2p.test_loopback import LOOPBACK, close_table, lobby_port, open_table, sit


@pytest.mark.asyncio
async def test_a_joiner_leaving_while_awaiting_approval_frees_only_its_seat() -> None:
    asked: list[str] = []
    answers: dict[str, asyncio.Future[bool]] = {}
    left: list[str] = []

    async def approve(joiner: Joiner) -> bool:
        asked.append(joiner.name)
        answers[joiner.name] = asyncio.get_running_loop().create_future()
        return await answers[joiner.name]

    table = await open_table(3, approve=approve, on_left=lambda j: left.append(j.name))
    gather = asyncio.ensure_future(table.gather(timeout=30))
    first = await sit(table, "Ann")
    while "Ann" not in answers:
        await asyncio.sleep(0.01)
    answers["Ann"].set_result(True)
    # Bob asks to sit down, then leaves before the opener answers.
    leaving = asyncio.ensure_future(join_table(Ed25519PrivateKey.generate(), "Bob", LOOPBACK,
                                               lobby_port(table), 2, timeout=20))
    while "Bob" not in answers:
        await asyncio.sleep(0.01)
    leaving.cancel()  # (the joiner's connection closes)
    with pytest.raises((asyncio.CancelledError, LobbyError)):
        await leaving
    async with asyncio.timeout(10):
        while left != ["Bob"]:
            await asyncio.sleep(0.01)
    assert answers["Bob"].cancelled()  # the question was withdrawn
    assert [j.name for j, _, _ in table.seated] == ["Ann"]
    # The seat is free: Cal takes it, and the table starts with Ann and Cal.
    last = await sit(table, "Cal")
    while "Cal" not in answers:
        await asyncio.sleep(0.01)
    answers["Cal"].set_result(True)
    try:
        async with asyncio.timeout(30):
            opener, ann, cal = await asyncio.gather(gather, first, last)
        assert [s.name for s in opener.header.header.seats] == ["Opener", "Ann", "Cal"]
        assert ann.header.match_id == cal.header.match_id == opener.header.match_id
    finally:
        await close_table(table, first, last)

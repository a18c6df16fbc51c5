"""A bot decides after its think time, once the frames already on their way are taken
(p2p/peer.py BOT_THINK and DECIDE_TURNS, network.md §6): when the other seats' commitments
arrive meanwhile, it holds them all when it decides and reveals at once instead of committing
(protocol.md §7.1); when they come later, it commits first, as before."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path
from typing import Any, cast

import pytest
from protocol.mesh import random_decider
from protocol.wire.messages import CommitBody, Kind, Message

from benchmarks.scenario import raiders_network
from p2p.peer import DECIDE_TURNS, Link, MatchPeer, PeerConfig
from p2p.store import MatchStore
from p2p.wire import Frame, FrameKind
from tests.p2p.conftest import FakeWriter

SEAT = 1
STEP = "L1.R1.play"


def setup(tmp_path: Path, think: float = 0.0, config: PeerConfig | None = None
          ) -> tuple[MatchPeer, FakeWriter, list[Message], list[Message]]:
    """Seat 1's peer (the same bot as in the in-memory match, thinking ``think`` seconds),
    every other seat's messages before its commitment of the first room, and those
    commitments."""
    net = raiders_network(3, "basic", tag=b"decide-later")
    net.pump()
    store = MatchStore(tmp_path, net.header.match_id)
    seed = hashlib.sha256(b"decide-later" + b"seed%d" % SEAT).digest()
    store.create(net.header, seed, {})
    peer = MatchPeer(net.header, SEAT, net.keys[SEAT], seed, store, [("127.0.0.1", 1)] * 3,
                     decide=random_decider(b"bot%d" % SEAT),
                     config=config or PeerConfig(bot_think=think))
    writer = FakeWriter()  # seat 0's connection (seat 2's gets the same)
    peer.links = {0: Link(0, cast(Any, None), cast(Any, writer)),
                  2: Link(2, cast(Any, None), cast(Any, FakeWriter()))}
    commits = [m for m in net.log if m.seat != SEAT and isinstance(m.content, CommitBody)
               and m.content.step == STEP]
    first = min(net.log.index(m) for m in commits)
    before = [m for m in net.log[:first] if m.seat != SEAT]
    return peer, writer, before, commits


def deliver(peer: MatchPeer, message: Message) -> None:
    peer._on_frame(peer.links[2 if message.seat == 2 else 0],
                   Frame(FrameKind.MSG, (message.encode(),)))


def sent_for_step(writer: FakeWriter) -> list[Kind]:
    out = []
    for frame in writer.frames():
        if frame.kind is FrameKind.MSG:
            message = Message.decode(frame.fields[0])
            if getattr(message.content, "step", None) == STEP:
                out.append(message.kind)
    return out


async def turns(count: int) -> None:
    for _ in range(count):
        await asyncio.sleep(0)


@pytest.mark.asyncio
async def test_commitments_arriving_meanwhile_make_a_direct_reveal(tmp_path: Path) -> None:
    peer, writer, before, commits = setup(tmp_path)
    for message in before:
        deliver(peer, message)
    assert peer.core.step is not None and peer.core.step.name == STEP  # the room is on
    assert sent_for_step(writer) == []  # put off: nothing sent yet
    loop = asyncio.get_running_loop()
    for message in commits:  # on their way: taken in the next turn
        loop.call_soon(deliver, peer, message)
    await turns(DECIDE_TURNS + 1)
    assert sent_for_step(writer) == [Kind.REVEAL]  # no COMMIT: it held the others' already
    peer.store.close()


@pytest.mark.asyncio
async def test_commitments_arriving_later_find_it_committed(tmp_path: Path) -> None:
    peer, writer, before, commits = setup(tmp_path)
    for message in before:
        deliver(peer, message)
    await turns(DECIDE_TURNS + 1)
    assert sent_for_step(writer) == [Kind.COMMIT]
    for message in commits:
        deliver(peer, message)
    assert sent_for_step(writer) == [Kind.COMMIT, Kind.REVEAL]
    peer.store.close()


@pytest.mark.asyncio
async def test_a_bot_thinks_before_it_decides(tmp_path: Path) -> None:
    peer, writer, before, commits = setup(tmp_path, 0.05)
    try:
        think = peer._think(STEP)  # (drawn from 25 to 75 ms)
        loop = asyncio.get_running_loop()
        opened = loop.time()  # (no later than the step opens)
        for message in before:
            deliver(peer, message)
        await turns(DECIDE_TURNS + 1)
        assert sent_for_step(writer) == []  # still thinking
        for message in commits:  # they come while it thinks
            loop.call_later(think / 5, deliver, peer, message)
        for _ in range(2000):  # (bounded: 2 s)
            if sent_for_step(writer):
                break
            await asyncio.sleep(0.001)
        assert loop.time() - opened >= think
        assert sent_for_step(writer) == [Kind.REVEAL]
    finally:
        peer.store.close()


def test_the_think_time_is_drawn_per_seat_and_step(tmp_path: Path) -> None:
    peer, _, _, _ = setup(tmp_path, think=0.02)
    try:
        steps = [f"L{level}.R{room}.play" for level in range(1, 4) for room in range(1, 6)]
        times = {}
        for seat in (0, 1, 2):  # (the draw as each seat's peer makes it)
            peer.seat = seat
            times[seat] = [peer._think(step) for step in steps]
            assert times[seat] == [peer._think(step) for step in steps]  # a hash, not random
        drawn = [t for seat_times in times.values() for t in seat_times]
        assert all(0.01 <= t < 0.03 for t in drawn)  # half to one and a half times 20 ms
        assert len(set(drawn)) == len(drawn)  # spread: the bots do not all decide together
        short, _, _, _ = setup(tmp_path / "short", config=PeerConfig(
            timeouts=(0.03, 0.09, 0.3, 60), bot_think=0.02))
        try:  # at most a third of the shortest turn timeout (the quick one)
            assert max(short._think(step) for step in steps) <= 0.01
        finally:
            short.store.close()
        peer.config = PeerConfig(bot_think=0)
        assert peer._think(steps[0]) == 0
    finally:
        peer.store.close()


@pytest.mark.parametrize("think", [-0.01, float("inf"), float("nan")])
def test_a_think_time_must_be_a_number_of_seconds(think: float) -> None:
    with pytest.raises(ValueError, match="think time"):
        PeerConfig(bot_think=think)


def test_a_decision_put_off_for_an_earlier_step_does_nothing(tmp_path: Path) -> None:
    """The think time of a step can end after a later step's decision was put off (a step
    resolved while this bot was still thinking about it): that late timer must neither decide
    nor unblock the later step's decision."""
    peer, writer, before, _ = setup(tmp_path, think=0.02)
    try:
        for message in before:
            deliver(peer, message)  # (no event loop: the bot decides at once)
        sent = len(writer.sent)
        peer._putting_off = "L1.R2.play"  # a later step's decision is put off now
        peer._decide_later(STEP, 1)
        assert peer._read_before is None
        assert len(writer.sent) == sent
    finally:
        peer.store.close()

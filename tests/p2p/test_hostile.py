"""Hostile input against live peers on loopback: nothing crashes a peer, bad frames count
against the connection they came in on (never against a seat a forged message names), and the
match still ends with every file valid.

A match is held at the host's first decision (an async decider waiting on a gate) while the
attacks run, then released; the turn timeout is long enough that the hold costs no seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from protocol.match.core import PeerMisbehaved
from protocol.wire.messages import AbsentBody, Kind, Message, sign_message

from p2p.lobby import Table, join_table
from p2p.peer import (
    BAD_FRAME_LIMIT,
    Link,
    LinkClosed,
    MatchPeer,
    PeerConfig,
    bot_decider,
    read_frame,
)
from p2p.store import MatchStore
from p2p.wire import LINK_VERSION, MAX_FRAME, Frame, FrameKind, handshake_payload
from protocol.crypto import public_key_bytes
from tests.p2p.conftest import (
    LOOPBACK,
    FakeWriter,
    Match,
    assert_agreed,
    read_until_closed,
    start_match,
)

HOLD = PeerConfig(timeouts=(10, 10, 10, 10), linger=0.3)


class Gate:
    """The host's decider: the first decision waits until the test opens the gate."""

    def __init__(self) -> None:
        self.asked = asyncio.Event()
        self.open = asyncio.Event()
        self.bot = bot_decider("random", b"g" * 32)

    async def choose(self, state: Any, seat: int) -> str:
        self.asked.set()
        await self.open.wait()
        return self.bot(state, seat)


@contextlib.asynccontextmanager
async def held_match(root: Path) -> AsyncIterator[tuple[Match, Gate]]:
    """A 3-seat match, every link up, held at the host's first decision."""
    gate = Gate()
    match = await start_match(root, 3, HOLD, choose=gate.choose)
    try:
        await match.wait_peers(3)
        await asyncio.wait_for(gate.asked.wait(), 15)

        async def meshed() -> None:
            while any(set(p.links) != {0, 1, 2} - {p.seat} for p in match.peers.values()):
                await asyncio.sleep(0.01)
        await asyncio.wait_for(meshed(), 10)
        yield match, gate
    finally:
        # The test body awaited the results on success; on failure this stops every seat.
        gate.open.set()
        await match.cancel()


def misbehaviour(peer: MatchPeer, start: int = 0) -> list[PeerMisbehaved]:
    return [e for e in peer.core.events[start:] if isinstance(e, PeerMisbehaved)]


async def finish(match: Match, gate: Gate) -> None:
    """Release the match; every seat's file valid, agreed, no seat replaced or blamed."""
    gate.open.set()
    results = await match.results(60)
    verdicts = assert_agreed([r.path for r in results], 3)
    for v in verdicts:
        assert not any("replaced" in note for note in v.notes), v.notes
    for r in results:
        assert r.core.signed and not r.core.absent and not r.core.blocked


# --------------------------------------------------------------------------- raw connections


async def hello(reader: asyncio.StreamReader) -> Frame:
    frame = await asyncio.wait_for(read_frame(reader), 5)
    assert frame.kind is FrameKind.HELLO
    return frame


@pytest.mark.asyncio
async def test_hostile_connections_are_dropped_and_the_match_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("p2p.peer.HANDSHAKE_TIMEOUT", 1.0)  # for the stalled connections
    async with held_match(tmp_path) as (match, gate):
        target = match.peers[2]  # the highest seat: any other seat may dial it
        port = target.sock.getsockname()[1] if target.sock else 0
        links = dict(target.links)
        match_id = target.core.match_id
        keys = target.core.keys
        stranger = public_key_bytes(Ed25519PrivateKey.generate())

        async def attack(payload: bytes) -> list[Frame]:
            """Send ``payload`` on a fresh connection; what came back before it was closed."""
            reader, writer = await asyncio.open_connection(LOOPBACK, port)
            try:
                writer.write(payload)
                with contextlib.suppress(ConnectionError):
                    await writer.drain()
                return await read_until_closed(reader, 5)
            except (LinkClosed, ConnectionError):
                return []
            finally:
                writer.close()

        def hello_frame(match: bytes, seat: int, key: bytes, version: int = LINK_VERSION) -> bytes:
            return Frame(FrameKind.HELLO, (version, match, seat, key, os.urandom(32))).encode()

        # Garbage, before any handshake: not msgpack, a bad length, a frame too big.
        for junk in (b"\x00\x00\x00\x08" + b"\xc1" * 8, b"\xde\xad\xbe\xef" * 256,
                     (MAX_FRAME + 1).to_bytes(4, "big") + b"\x00" * 64, b"\xff" * 4,
                     b"\x00\x00\x00\x02\x91\x03",  # a frame of unknown shape
                     Frame(FrameKind.MSG, (b"\x00" * 40,)).encode(),  # MSG before HELLO
                     bytes(range(256)) * 4,  # the start of a 66 kB frame, never finished
                     b""):  # nothing at all
            frames = await attack(junk)
            assert all(f.kind is FrameKind.HELLO for f in frames), frames
        # Well-formed HELLOs that must not be accepted: no PROOF ever comes back.
        for bad in (hello_frame(os.urandom(32), 0, keys[0]),  # another match
                    hello_frame(match_id, 1, stranger),  # seat 1, the wrong key
                    hello_frame(match_id, 2, keys[2]),  # the target's own seat
                    hello_frame(match_id, 7, stranger),  # no such seat
                    hello_frame(match_id, 0, keys[0], version=LINK_VERSION + 1)):
            frames = await attack(bad)
            assert [f.kind for f in frames] == [FrameKind.HELLO], frames
        # Seat 1's real key, but no way to sign its challenge: the target proves itself,
        # then drops us when our proof fails; the real seat 1 keeps its connection.
        frames = await attack(hello_frame(match_id, 1, keys[1])
                              + Frame(FrameKind.PROOF, (b"\x01" * 64,)).encode())
        assert [f.kind for f in frames] == [FrameKind.HELLO, FrameKind.PROOF]
        # A proof that is someone else's (signed by a stranger) fails the same way.
        reader, writer = await asyncio.open_connection(LOOPBACK, port)
        try:
            ours = os.urandom(32)
            writer.write(Frame(FrameKind.HELLO, (LINK_VERSION, match_id, 1, keys[1], ours))
                         .encode())
            theirs = (await hello(reader)).fields[4]
            forged = Ed25519PrivateKey.generate().sign(
                handshake_payload(match_id, theirs, keys[1], keys[2]))
            writer.write(Frame(FrameKind.PROOF, (forged,)).encode())
            rest = await read_until_closed(reader, 5)
            assert [f.kind for f in rest] == [FrameKind.PROOF]
        finally:
            writer.close()

        assert target.links == links  # the same authenticated connections, untouched
        assert all(target.links[s] is links[s] for s in links)
        assert not misbehaviour(target) and not target.core.absent
        await finish(match, gate)


# --------------------------------------------------------------------------- the frame handler


def fake_link(seat: int) -> tuple[Link, FakeWriter]:
    writer = FakeWriter()
    return Link(seat, asyncio.StreamReader(), cast(Any, writer)), writer


def msg(data: bytes) -> Frame:
    return Frame(FrameKind.MSG, (data,))


@pytest.mark.asyncio
async def test_bad_frames_count_against_the_link_not_the_seat(tmp_path: Path) -> None:
    async with held_match(tmp_path) as (match, gate):
        peer = match.peers[1]
        core = peer.core
        start = len(core.events)
        size = peer.store.path.stat().st_size
        feeds = [len(f.messages) for f in core.feeds]
        ballots = dict(core.ballots)
        bad_before = peer.bad_frames
        real = core.feeds[0].messages[0]
        stranger = Ed25519PrivateKey.generate()
        # A vote that would evict seat 0, "from seat 2" but signed by a stranger.
        forged_vote = sign_message(stranger, match_id=core.match_id, seat=2,
                                   seq=len(core.feeds[2].messages), prev=core.feeds[2].head,
                                   kind=Kind.ABSENT, state=bytes(32),
                                   body=AbsentBody(0, core.cursor[0], 1))
        # Seat 0's own key, another match: a replay across matches.
        elsewhere = os.urandom(32)
        other_match = sign_message(match.peers[0].key, match_id=elsewhere, seat=0, seq=0,
                                   prev=elsewhere, kind=Kind.ABSENT, state=bytes(32),
                                   body=AbsentBody(1, 0, 1))
        bad_frames = [
            msg(b"\xc1"),  # not msgpack
            msg(b""),
            msg(b"\x93\x01\x02\x03"),  # an array, not a message
            msg(dataclasses.replace(real, sig=bytes(64)).encode()),  # seat 0's, sig zeroed
            msg(dataclasses.replace(real, seq=real.seq + 1000).encode()),  # altered after signing
            msg(forged_vote.encode()),
            msg(other_match.encode()),
            msg(sign_message(stranger, match_id=core.match_id, seat=5, seq=0,
                             prev=core.match_id, kind=Kind.ABSENT, state=bytes(32),
                             body=AbsentBody(0, 0, 1)).encode()),  # no such seat
            Frame(FrameKind.WANT, (9, 0)),  # no such seat
            Frame(FrameKind.JOIN, (1, "x", b"k" * 32, b"n" * 32, 1, b"")),  # lobby, mid-match
            Frame(FrameKind.HELLO, (LINK_VERSION, core.match_id, 2, core.keys[2], b"c" * 32)),
            Frame(FrameKind.PROOF, (b"p" * 64,)),
            Frame(FrameKind.START, (b"", ())),
        ]
        link, writer = fake_link(2)
        for frame in bad_frames:
            peer._on_frame(link, frame)
        assert link.bad == len(bad_frames)
        assert peer.bad_frames - bad_before == len(bad_frames)
        assert link.reasons  # each reason logged (once)
        assert any("bad signature" in r for r in link.reasons)
        assert any("another match" in r for r in link.reasons)

        # Harmless: a duplicate of a message held, this seat's own message echoed back, a
        # WANT past the end of a feed, a goodbye.
        for frame in (msg(real.encode()), msg(real.encode()),
                      msg(core.feeds[1].messages[0].encode()),
                      Frame(FrameKind.WANT, (0, 10**6)), Frame(FrameKind.BYE, ("bye",))):
            peer._on_frame(link, frame)
        assert link.bad == len(bad_frames)
        assert not writer.sent  # nothing was answered to any of that

        # Nothing reached the match: no seat blamed, no vote counted, nothing stored.
        assert not misbehaviour(peer, start)
        assert not core.blocked and not core.absent
        assert core.ballots == ballots
        assert [len(f.messages) for f in core.feeds] == feeds
        assert peer.store.path.stat().st_size == size

        # A WANT from the start of a feed is answered from what the peer holds (relay).
        peer._on_frame(link, Frame(FrameKind.WANT, (0, 0)))
        relayed = writer.frames()
        assert [Message.decode(f.fields[0]) for f in relayed] == list(core.feeds[0].messages)
        assert link.bad == len(bad_frames) and not writer.closed
        await finish(match, gate)


# --------------------------------------------------------------------------- the limit


async def lobby_header(players: int) -> tuple[list[Ed25519PrivateKey], Any]:
    """Keys and a signed header for a match that is never played (the lobby only)."""
    keys = [Ed25519PrivateKey.generate() for _ in range(players)]
    table = Table(keys[0], "Opener", players, mesh_port=1, game="raiders")
    await table.open(LOOPBACK, 0)
    assert table.server is not None
    port = table.server.sockets[0].getsockname()[1]
    joins = [asyncio.ensure_future(join_table(k, f"J{i}", LOOPBACK, port, 2 + i, timeout=10))
             for i, k in enumerate(keys[1:])]
    try:
        opener = await asyncio.wait_for(table.gather(timeout=10), 15)
        seats = await asyncio.wait_for(asyncio.gather(*joins), 10)
    finally:
        for task in joins:
            task.cancel()
        await asyncio.gather(*joins, return_exceptions=True)
    by_seat = {opener.seat: keys[0]}
    for i, seated in enumerate(seats):
        by_seat[seated.seat] = keys[i + 1]
    return [by_seat[s] for s in range(players)], opener.header


@pytest.mark.asyncio
async def test_connection_closed_after_bad_frame_limit_seat_not_blamed(tmp_path: Path) -> None:
    """An authenticated connection (seat 1's real key) relaying forged and malformed frames
    is closed once it is over :data:`BAD_FRAME_LIMIT`; neither seat 1 nor the seat the
    forged messages name is blamed, and nothing reaches the match file."""
    keys, header = await lobby_header(3)
    store = MatchStore(tmp_path, header.match_id)
    store.create(header, os.urandom(32), {"seat": 2, "addresses": []})
    size = store.path.stat().st_size
    peer = MatchPeer(header, 2, keys[2], os.urandom(32), store, [(LOOPBACK, 1)] * 3,
                     decide=bot_decider("random", b"l" * 32), config=HOLD)
    server = await asyncio.start_server(peer._accept, LOOPBACK, 0)
    port = server.sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection(LOOPBACK, port)
    try:
        mine, theirs = public_key_bytes(keys[1]), peer.core.keys[2]
        challenge = os.urandom(32)
        writer.write(Frame(FrameKind.HELLO, (LINK_VERSION, header.match_id, 1, mine,
                                             challenge)).encode())
        their_hello = await hello(reader)
        proof = keys[1].sign(handshake_payload(header.match_id, their_hello.fields[4], mine,
                                               theirs))
        writer.write(Frame(FrameKind.PROOF, (proof,)).encode())
        answer = await asyncio.wait_for(read_frame(reader), 5)
        assert answer.kind is FrameKind.PROOF

        async def linked() -> None:
            while 1 not in peer.links:
                await asyncio.sleep(0.01)
        await asyncio.wait_for(linked(), 5)

        forged = sign_message(Ed25519PrivateKey.generate(), match_id=header.match_id, seat=0,
                              seq=0, prev=header.match_id, kind=Kind.ABSENT, state=bytes(32),
                              body=AbsentBody(2, 0, 1))
        kinds = [msg(forged.encode()),  # names seat 0, signed by nobody it knows
                 Frame(FrameKind.WANT, (3, 0)),
                 Frame(FrameKind.SEATED, (1, 3, "t", "f", (30, 90, 300, 60)))]
        burst = b"".join(kinds[i % len(kinds)].encode() for i in range(BAD_FRAME_LIMIT - 1))
        burst += b"\x00\x00\x00\x01\xc1"  # a payload that is not msgpack at all
        writer.write(burst)

        async def counted() -> None:
            while peer.bad_frames < BAD_FRAME_LIMIT:
                await asyncio.sleep(0.01)
        await asyncio.wait_for(counted(), 5)
        await asyncio.sleep(0.05)
        link = peer.links.get(1)
        assert link is not None and link.bad == BAD_FRAME_LIMIT  # at the limit: still open
        assert not link.writer.is_closing()

        writer.write(msg(forged.encode()).encode())  # one more
        rest = await read_until_closed(reader, 5)
        assert all(f.kind is FrameKind.WANT for f in rest)  # the catch-up asks, nothing else
        assert 1 not in peer.links
        assert peer.bad_frames == BAD_FRAME_LIMIT + 1
        assert not misbehaviour(peer) and not peer.core.blocked and not peer.core.absent
        assert not peer.core.ballots
        assert store.path.stat().st_size == size
    finally:
        writer.close()
        server.close()
        await peer.close()

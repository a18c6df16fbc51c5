"""Spectators (p2p/watchers.py, network.md §13): a seat relays its match one decision step late;
the spectator checks every message itself; a table may refuse spectators; a forged message is
refused, never shown.

The leak test is the knowledge test's, for a spectator: with every byte it was sent, it must never
know the state the table is deciding on now (it is one step behind, so it cannot coach) — and it
fails against a planted leak (a seat relaying live, without the delay)."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

import pytest
from protocol.match.core import MatchCore
from protocol.match.events import Event, PeerMisbehaved
from protocol.mesh import MeshGame, Network
from protocol.wire.messages import Message

from p2p.peer import MatchPeer, PeerConfig
from p2p.watchers import Watchers, WatchRefused, watch
from p2p.wire import LINK_VERSION, Frame, FrameKind
from tests.p2p.conftest import LOOPBACK, start_match
from tests.protocol import deal_toy

FAST = PeerConfig(timeouts=(5, 5, 5, 5), linger=0.5)


class FakeWriter:
    """What a Watchers relays to one spectator, as messages."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []
        self.transport = None
        self.closed = False

    def write(self, data: bytes) -> None:
        self.frames.append(data)

    def close(self) -> None:
        self.closed = True

    def messages(self, version: int) -> list[Message]:
        from p2p.wire import FrameSplitter, parse_frame

        out = []
        for payload in FrameSplitter().feed(b"".join(self.frames)):
            frame = parse_frame(payload)
            if frame.kind is FrameKind.MSG:
                out.append(Message.decode(frame.fields[0], version))
        return out


def coached(delay: int) -> list[str]:
    """Play a Raiders match on the in-memory mesh with a spectator of seat 0 relayed with
    ``delay``, the spectator's own core taking every byte it is sent; each time the table is at
    a decision, what the spectator knows of it (the knowledge test: it must not know that
    state)."""
    net = Network(3, MeshGame("raiders"), b"watchers-leak")
    core = net.cores[0]
    relay = Watchers(net.header, limit=4, delay=delay)
    writer = FakeWriter()
    relay.watchers.append(relay_watcher(writer, 3))
    spectator = MatchCore(net.header)
    seen = 0
    leaks: list[str] = []
    for _ in range(200_000):
        if not net.pump(limit=1, partial=True) or core.signed:
            break
        relay.update(core)
        sent = writer.messages(core.version)
        for message in sent[seen:]:
            spectator.receive(message)
        seen = len(sent)
        if core.phase() in ("turn", "simultaneous") and (
                spectator.public_digest() == core.public_digest()):
            leaks.append(f"{core.where()}: the spectator holds the state being decided")
    assert core.signed
    return leaks


def relay_watcher(writer: FakeWriter, n: int) -> Any:
    from p2p.watchers import _Watcher

    return _Watcher(writer, [0] * n)  # type: ignore[arg-type]


def test_a_spectator_never_holds_a_play_of_the_step_being_decided() -> None:
    assert coached(delay=1) == []


def test_the_leak_test_fails_against_a_relay_without_the_delay() -> None:
    assert coached(delay=0), "the planted leak went unnoticed"


def test_everything_is_relayed_once_the_result_is_signed() -> None:
    net = Network(3, MeshGame("raiders"), b"watchers-all")
    relay = Watchers(net.header, limit=4)
    writer = FakeWriter()
    relay.watchers.append(relay_watcher(writer, 3))
    net.pump()
    relay.update(net.cores[0])
    sent = writer.messages(2)
    assert len(sent) == sum(len(f.messages) for f in net.cores[0].feeds)
    spectator = MatchCore(net.header)
    for message in sent:
        spectator.receive(message)
    assert spectator.signed and spectator.public_digest() == net.cores[0].public_digest()


async def watching(match: Any, seat: int, changes: list[tuple[bool, int]] | None = None,
                   **kw: Any) -> tuple[MatchCore, list[Event], list[str]]:
    await match.wait_peers(len(match.tasks))
    peer: MatchPeer = match.peers[seat]
    if changes is not None:  # (what its player is told: a spectator came, or went)
        peer.watchers.on_change = lambda address, started, count: changes.append(
            (started, count))
    host, port = peer.addresses[seat]
    events: list[Event] = []
    problems: list[str] = []
    core = await asyncio.wait_for(watch(host, port, on_start=lambda c: None,
                                        on_events=events.extend,
                                        on_problem=problems.append, **kw), 60)
    return core, events, problems


@pytest.mark.asyncio
async def test_a_spectator_watches_a_whole_match_over_loopback(tmp_path: Path) -> None:
    match = await start_match(tmp_path, 3, FAST, game=deal_toy.GAME)
    changes: list[tuple[bool, int]] = []
    try:
        core, events, problems = await watching(match, 1, changes)
        results = await match.results(60)
    finally:
        await match.cancel()
    assert core.signed and not problems
    assert changes[:1] == [(True, 1)]
    assert not any(isinstance(e, PeerMisbehaved) for e in events)
    assert {core.public_digest()} == {r.core.public_digest() for r in results}
    assert core.decks.learnt == {}  # (no seat: it learnt no card before it was shown)


@pytest.mark.asyncio
async def test_a_table_without_spectators_refuses_them(tmp_path: Path) -> None:
    config = dataclasses.replace(FAST, spectators=0)
    match = await start_match(tmp_path, 3, config, game=deal_toy.GAME)
    try:
        with pytest.raises(WatchRefused, match="takes no spectators"):
            await watching(match, 0)
        await match.results(60)
    finally:
        await match.cancel()


async def fake_seat(header_bytes: bytes, match_id: bytes, messages: list[bytes]
                    ) -> tuple[asyncio.Server, int]:
    """A 'seat' that relays ``messages`` (bytes as given) to whoever watches."""
    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(Frame(FrameKind.HELLO, (LINK_VERSION, match_id, 0, bytes(32),
                                             bytes(32))).encode())
        await reader.read(64)  # (its WATCH)
        writer.write(Frame(FrameKind.WATCHING, (header_bytes,)).encode())
        for data in messages:
            writer.write(Frame(FrameKind.MSG, (data,)).encode())
        writer.write(Frame(FrameKind.BYE, ("done",)).encode())
        await writer.drain()
        writer.close()
    server = await asyncio.start_server(serve, LOOPBACK, 0)
    return server, int(server.sockets[0].getsockname()[1])


@pytest.mark.asyncio
async def test_a_forged_message_is_refused_and_never_applied() -> None:
    net = Network(3, MeshGame("raiders"), b"watchers-forged")
    net.pump()
    messages = [m.encode() for m in net.log]
    first = net.log[0]
    forged = bytearray(messages[0])
    forged[-1] ^= 1  # its signature's last byte
    server, port = await fake_seat(net.header.encode(), first.match_id,
                                   [bytes(forged), *messages[1:5]])
    try:
        events: list[Event] = []
        core = await asyncio.wait_for(watch(LOOPBACK, port, on_start=lambda c: None,
                                            on_events=events.extend,
                                            on_problem=lambda t: None), 10)
    finally:
        server.close()
    refused = [e for e in events if isinstance(e, PeerMisbehaved)]
    assert refused and refused[0].seat == first.seat and "signature" in refused[0].reason
    assert len(core.feeds[first.seat].messages) == 0  # nothing of its feed was taken


@pytest.mark.asyncio
async def test_every_seat_follows_the_tables_no_spectators(tmp_path: Path) -> None:
    """The host says no spectators (``host --no-spectators``); its SEATED tells each joiner,
    whose own setting would allow them: every seat refuses, and so would a resumed one."""
    from p2p.peer import bot_decider
    from p2p.run import host, join

    peers: dict[int, MatchPeer] = {}
    port: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    tasks = [asyncio.ensure_future(host(
        tmp_path / "host", game=deal_toy.GAME, name="Host", players=3,
        config=dataclasses.replace(FAST, spectators=0), on_port=port.set_result,
        decide=bot_decider("random", b"\0" * 32),
        on_peer=lambda p: peers.__setitem__(p.seat, p)))]
    try:
        lobby = await asyncio.wait_for(port, 10)
        for i in (1, 2):
            tasks.append(asyncio.ensure_future(join(
                tmp_path / f"j{i}", LOOPBACK, lobby, name=f"J{i}", config=FAST, bind=LOOPBACK,
                decide=bot_decider("random", bytes([i]) * 32),
                on_peer=lambda p: peers.__setitem__(p.seat, p))))
        for _ in range(2000):
            if len(peers) == 3:
                break
            await asyncio.sleep(0.005)
        assert {p.watchers.limit for p in peers.values()} == {0}
        for seat in (1, 2):
            h, p = peers[seat].addresses[seat]
            with pytest.raises(WatchRefused, match="takes no spectators"):
                await watch(h or LOOPBACK, p, on_start=lambda c: None,
                            on_events=lambda e: None, on_problem=lambda t: None)
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


@pytest.mark.asyncio
async def test_a_spectator_relays_to_another(tmp_path: Path) -> None:
    """Spectators relay to each other: the second watches the first, checks everything again,
    and ends on the same result."""
    from cli.spectate import Spectator, _watch

    match = await start_match(tmp_path, 3, FAST, game=deal_toy.GAME)
    try:
        await match.wait_peers(3)
        host, port = match.peers[2].addresses[2]
        import io

        first = Spectator(io.StringIO(), relay_port=0)
        relaying = asyncio.ensure_future(_watch(first, host or LOOPBACK, port))
        for _ in range(2000):
            if first.relay is not None and first.relay.server is not None:
                break
            await asyncio.sleep(0.005)
        assert first.relay is not None and first.relay.server is not None
        relay_port = first.relay.server.sockets[0].getsockname()[1]
        second = await asyncio.wait_for(watch(LOOPBACK, relay_port, on_start=lambda c: None,
                                              on_events=lambda e: None,
                                              on_problem=lambda t: None), 60)
        core = await asyncio.wait_for(relaying, 60)
        await match.results(60)
    finally:
        await match.cancel()
    assert core.signed and second.signed
    assert second.public_digest() == core.public_digest()

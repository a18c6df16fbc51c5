"""Fuzzing a live peer's input over real connections (seeded, bounded, reproducible).

A three-seat match runs in this process on loopback, every seat a real :class:`MatchPeer`;
one joiner's listener sits behind a :class:`Relay` in whole-frame mode.  The match is held at
the host's first decision while the fuzzer writes mutated frames into the authenticated
connections that pass through the relay — after a real handshake, between real frames — until
the peer behind it has read and refused at least 10,000 of them (it hangs up after 32 bad
frames on one connection; the dialler dials again at once, through the relay, and the fuzzing
goes on on the new connection).  Before that, hundreds of fresh connections get a mutated
first frame.  Then the match is released: it must finish, every copy valid and agreed, nobody
blamed, and the fuzzed peer must have let nothing into its feeds or its match file, kept its
per-connection state small and its memory bounded.

The mutator starts from real frames of the match (its messages, WANT, BYE, HELLO, PROOF) and
flips bits, sets bytes to msgpack's edge values, truncates, inserts, splices, rewrites one
decoded field with a hostile value (and re-encodes, canonically or not), or writes junk; a few
frames lie about their length (the stream desynchronises) or declare one over the cap.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import time
from pathlib import Path
from typing import Any

import msgpack
import pytest
from protocol.match.core import PeerMisbehaved

from p2p.peer import MatchPeer, PeerConfig, bot_decider
from p2p.wire import LINK_VERSION, MAX_FRAME, Frame, FrameKind
from tests.adversary.conftest import LOOPBACK, InProcess, Relay, in_process_match, verdict_of

HOLD = PeerConfig(timeouts=(120, 120, 120, 120), linger=0.3)
FRAMES = 10_000  # bad frames the live peer must read and refuse
PRE_HANDSHAKE = 300  # fresh connections with a mutated first frame
SEED = 7


class Gate:
    """The host's decider: the first decision waits until the test opens the gate."""

    def __init__(self) -> None:
        self.asked = asyncio.Event()
        self.open = asyncio.Event()
        self.bot = bot_decider("random", b"f" * 32)

    async def choose(self, state: Any, seat: int) -> str:
        self.asked.set()
        await self.open.wait()
        return self.bot(state, seat)


EDGE = (0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xC0, 0xC1, 0xC2, 0xC4, 0xCC, 0xCF, 0xD3,
        0xD9, 0xDC, 0xDD, 0xDE, 0xDF, 0xE0, 0xFF)


class Mutator:
    """Seeded mutations of real frame payloads; :meth:`frame` returns length-prefixed bytes."""

    def __init__(self, seed: int, corpus: list[bytes]) -> None:
        self.rng = random.Random(seed)
        self.corpus = corpus

    def hostile(self, value: Any, depth: int = 0) -> Any:
        r = self.rng
        if isinstance(value, bool) or value is None:
            return r.choice([0, 1, -1, "x", b"", None, True])
        if isinstance(value, int):
            return r.choice([-1, 0, 2**32, 2**63, 2**64 - 1, -(2**63), value + 1, True, "1"])
        if isinstance(value, bytes):
            return r.choice([b"", r.randbytes(r.randrange(0, 80)), value[:-1], value + b"\x00",
                             value[::-1], 7])
        if isinstance(value, str):
            return r.choice(["", "\x00", "é" * 70, "\ud800".encode("utf-8", "surrogatepass")
                             .decode("latin-1"), value * 3, 5, b"s"])
        if isinstance(value, list):
            if not value or depth > 6:
                return [value] * r.randrange(1, 4)
            out = list(value)
            op = r.randrange(4)
            if op == 0:
                i = r.randrange(len(out))
                out[i] = self.hostile(out[i], depth + 1)
            elif op == 1:
                out.append(self.hostile(out[-1], depth + 1))
            elif op == 2:
                out.pop(r.randrange(len(out)))
            else:
                out = [out]  # one level deeper
            return out
        return None

    def structured(self, payload: bytes) -> bytes:
        try:
            value = msgpack.unpackb(payload, raw=False, strict_map_key=False)
        except Exception:
            return self.rng.randbytes(len(payload))
        mutated = self.hostile(value)
        try:
            if self.rng.random() < 0.2 and isinstance(mutated, list):
                # Not the shortest form: an array16 header for a short array.
                body = b"".join(msgpack.packb(x, use_bin_type=True) for x in mutated)
                return b"\xdc" + len(mutated).to_bytes(2, "big") + body
            return bytes(msgpack.packb(mutated, use_bin_type=True))
        except Exception:
            return self.rng.randbytes(16)

    def payload(self) -> bytes:
        r = self.rng
        base = r.choice(self.corpus)
        op = r.randrange(11)
        data = bytearray(base)
        if op == 0 and data:  # flip bits
            for _ in range(r.randrange(1, 9)):
                i = r.randrange(len(data))
                data[i] ^= 1 << r.randrange(8)
        elif op == 1 and data:  # msgpack's edge bytes
            for _ in range(r.randrange(1, 4)):
                data[r.randrange(len(data))] = r.choice(EDGE)
        elif op == 2:  # truncate
            data = data[:r.randrange(len(data) + 1)]
        elif op == 3:  # insert
            i = r.randrange(len(data) + 1)
            data[i:i] = r.randbytes(r.randrange(1, 40))
        elif op == 4 and data:  # splice a slice in twice
            i = r.randrange(len(data))
            data[i:i] = data[i:i + r.randrange(1, 60)]
        elif op in (5, 6):  # one decoded field made hostile, re-encoded
            data = bytearray(self.structured(bytes(data)))
        elif op == 7:  # a MSG frame whose message is mutated (it reaches Message.decode)
            inner = self.rng.choice(self.corpus)
            try:
                kind, message = msgpack.unpackb(inner, raw=False)
                assert kind == int(FrameKind.MSG)
                flipped = bytearray(message)
                flipped[r.randrange(len(flipped))] ^= 1 << r.randrange(8)
                data = bytearray(msgpack.packb([kind, bytes(flipped)], use_bin_type=True))
            except Exception:
                data = bytearray(r.randbytes(50))
        elif op == 8:  # junk
            data = bytearray(r.randbytes(r.randrange(0, 300)))
        elif op == 9:  # deep nesting
            depth = r.randrange(5, 40)
            data = bytearray(b"\x91" * depth + b"\x01")
        # op 10: the real frame, unchanged (a duplicate)
        return bytes(data)

    def frame(self) -> bytes:
        payload = self.payload()
        roll = self.rng.random()
        if roll < 0.005:  # a length over the cap: the other side must hang up
            return (MAX_FRAME + 1 + self.rng.randrange(1000)).to_bytes(4, "big") + payload
        if roll < 0.02 and payload:  # a length that lies (the stream desynchronises)
            return max(0, len(payload) - self.rng.randrange(1, 8)).to_bytes(4, "big") + payload
        return len(payload).to_bytes(4, "big") + payload


def rss() -> int:
    """This process's resident memory, in bytes (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def corpus_of(peer: MatchPeer) -> list[bytes]:
    core = peer.core
    frames = [Frame(FrameKind.MSG, (m.encode(),)).encode()[4:]
              for f in core.feeds for m in f.messages[:12]]
    frames += [Frame(FrameKind.WANT, (s, 0)).encode()[4:] for s in range(core.n)]
    frames.append(Frame(FrameKind.BYE, ("bye",)).encode()[4:])
    frames.append(Frame(FrameKind.HELLO, (LINK_VERSION, core.match_id, 0, core.keys[0],
                                          os.urandom(32))).encode()[4:])
    frames.append(Frame(FrameKind.PROOF, (os.urandom(64),)).encode()[4:])
    return frames


async def pre_handshake(port: int, mutator: Mutator, count: int) -> int:
    """``count`` fresh connections, each a mutated first frame; how many the peer hung up."""
    closed = 0
    for _ in range(count):
        reader, writer = await asyncio.open_connection(LOOPBACK, port)
        try:
            writer.write(mutator.frame())
            await writer.drain()
            await asyncio.wait_for(reader.read(4096), 5)  # its HELLO (or nothing)
            rest = await asyncio.wait_for(reader.read(4096), 5)
            closed += rest == b""
        except (ConnectionError, TimeoutError):
            closed += 1
        finally:
            writer.close()
    return closed


@pytest.mark.asyncio
async def test_fuzzed_frames_never_crash_a_live_peer_and_the_match_finishes(
        tmp_path: Path) -> None:
    loop = asyncio.get_running_loop()
    errors: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _loop, context: errors.append(context))
    gate = Gate()
    relays: list[Relay] = []

    def front(index: int, port: int) -> Relay | None:
        if index != 2:
            return None
        relays.append(Relay(port, framed=True))
        return relays[-1]

    match: InProcess = await in_process_match(tmp_path, 3, HOLD, relay=front,
                                              choose=gate.choose)
    try:
        await asyncio.wait_for(gate.asked.wait(), 20)
        (relay,) = relays
        target = next(p for p in match.peers.values()
                      if p.sock is not None and p.sock.getsockname()[1] == relay.target)
        core = target.core
        mutator = Mutator(SEED, corpus_of(target))
        memory = rss()
        start = time.monotonic()

        hung_up = await pre_handshake(relay.target, mutator, PRE_HANDSHAKE)
        assert hung_up >= PRE_HANDSHAKE * 0.95

        bad_before = target.bad_frames
        written = 0
        connections = relay.connections
        deadline = time.monotonic() + 90
        while target.bad_frames - bad_before < FRAMES:
            assert time.monotonic() < deadline, (
                f"only {target.bad_frames - bad_before} bad frames read in 90 s")
            live = relay.authenticated()
            if not live:
                await asyncio.sleep(0.002)
                continue
            conn = live[0]
            conn.server.write(b"".join(mutator.frame() for _ in range(8)))
            written += 8
            with contextlib.suppress(ConnectionError):
                await conn.server.drain()
            await asyncio.sleep(0)
        elapsed = time.monotonic() - start
        refused = target.bad_frames - bad_before
        grown = rss() - memory
        print(f"fuzz: {written} frames written, {refused} read and refused by the peer, "
              f"{relay.connections - connections} reconnections, {PRE_HANDSHAKE} pre-handshake "
              f"connections, {elapsed:.1f} s, memory {grown / 2**20:+.1f} MiB")

        # Nothing reached the match: every message it holds is one its sender sent (the match
        # was held, but the other seats may still have sent a message or two), no seat blamed.
        for seat, feed in enumerate(core.feeds):
            own = [m.hash for m in match.peers[seat].core.feeds[seat].messages]
            assert [m.hash for m in feed.messages] == own[:len(feed.messages)]
        assert not [e for e in core.events if isinstance(e, PeerMisbehaved)]
        assert not core.absent and not core.blocked
        # Bounded state: at most one link per other seat, a few tasks, a bounded memory.
        assert len(target.links) <= core.n - 1
        assert all(len(link.reasons) <= 16 for link in target.links.values())
        assert len(target._tasks) <= 4 * core.n
        assert grown < 64 * 2**20, f"memory grew by {grown / 2**20:.0f} MiB"

        for r in relays:  # fresh connections for the rest (a desynchronised one may hang)
            r._drop_all()
        gate.open.set()
        results = await match.results(90)
    finally:
        gate.open.set()
        await match.cancel()
    verdicts = [verdict_of(r.path) for r in results]
    assert all(v.verdict == "valid" for v in verdicts), [(v.verdict, v.reason) for v in verdicts]
    assert len({v.final_digest for v in verdicts}) == 1
    # The same messages in every copy, so the same size: no junk, no duplicate was stored.
    assert len({r.path.stat().st_size for r in results}) == 1
    assert all(not any("replaced" in n for n in v.notes) for v in verdicts)
    assert not errors, errors[:3]

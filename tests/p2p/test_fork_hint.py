"""A fork shown only by its successor: a seat signs two versions of one message, this peer
holds one of them, and the next message it gets from that seat chains on the other.  The peer
asks every peer for their version, and with it holds the proof (protocol.md §7.9).

Without the question the peer could be stuck behind the fork for good — seen in
tests/adversary (equivocate-commit): the torch user of the forked step held the forged COMMIT,
the forker's DELIVERY chained on the real one, so the torch user never revealed, the commitment
sets never disagreed, and nobody ever held both versions.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, cast

from protocol.match.core import PeerMisbehaved
from protocol.mesh import Network, random_decider
from protocol.wire.messages import CommitBody, Kind, Message, sign_message
from protocol.wire.transcript import read_transcript

from benchmarks.scenario import raiders_network
from p2p.peer import FORK_ASK_LIMIT, WANT_REPEAT, Link, MatchPeer, PeerConfig
from p2p.store import MatchStore
from p2p.wire import Frame, FrameKind
from tests.p2p.conftest import FakeWriter

SEAT = 1  # the peer under test
FORKER = 2


def drained(writer: FakeWriter) -> list[Frame]:
    """The frames sent on ``writer`` since the last call."""
    frames = writer.frames()
    writer.sent.clear()
    return frames


def forked_commit(tag: bytes) -> tuple[Network, list[Message], int, Message]:
    """A played match, FORKER's feed in it, the index ``k`` of its first COMMIT, and a second
    version of that COMMIT (another commitment, same slot and predecessor)."""
    net = raiders_network(3, "basic", tag=tag)
    net.pump()
    forker_feed = [m for m in net.log if m.seat == FORKER]
    k = next(i for i, m in enumerate(forker_feed) if m.kind is Kind.COMMIT)
    real = forker_feed[k]
    body = real.content
    assert isinstance(body, CommitBody)
    forged = sign_message(net.keys[FORKER], match_id=real.match_id, seat=FORKER, seq=real.seq,
                          prev=real.prev, kind=Kind.COMMIT, state=real.state,
                          body=CommitBody(body.step, os.urandom(32)), heads=real.heads)
    return net, forker_feed, k, forged


def peer_of(tmp_path: Path, net: Network, tag: bytes, links: tuple[int, ...]
            ) -> tuple[MatchPeer, dict[int, FakeWriter]]:
    """Seat SEAT's peer for ``net``'s match, with fake connections to ``links``."""
    store = MatchStore(tmp_path, net.header.match_id)
    seed = hashlib.sha256(tag + b"seed%d" % SEAT).digest()
    store.create(net.header, seed, {})
    peer = MatchPeer(net.header, SEAT, net.keys[SEAT], seed, store, [("127.0.0.1", 1)] * 3,
                     decide=random_decider(b"bot%d" % SEAT), config=PeerConfig())
    writers = {s: FakeWriter() for s in links}
    peer.links = {s: Link(s, cast(Any, None), cast(Any, w)) for s, w in writers.items()}
    return peer, writers


def test_a_fork_shown_by_its_successor_is_asked_for_and_proved(tmp_path: Path) -> None:
    net, forker_feed, k, forged = forked_commit(b"fork-hint")
    real = forker_feed[k]

    peer, writers = peer_of(tmp_path, net, b"fork-hint", (0, FORKER))

    def deliver(message: Message, via: int = FORKER) -> None:
        peer._on_frame(peer.links[via], Frame(FrameKind.MSG, (message.encode(),)))

    for message in forker_feed[:k]:
        deliver(message)
    deliver(forged)  # this peer's version of message k: the forged one
    for w in writers.values():
        drained(w)
    deliver(forker_feed[k + 1])  # chains on the real message k

    # Every peer is asked for its version of message k (not only the forker's link), once.
    for w in writers.values():
        assert [(f.kind, f.fields) for f in drained(w)] == [(FrameKind.WANT, (FORKER, real.seq))]
    deliver(forker_feed[k + 1])
    assert not any(drained(w) for w in writers.values())
    assert not peer.core.equivocations

    # Seat 0 answers with the real version: that is the proof, sent on to every peer and kept.
    deliver(real, via=0)
    (proof,) = peer.core.equivocations
    assert proof.seat == FORKER and proof.seq == real.seq
    assert {proof.first.hash, proof.second.hash} == {real.hash, forged.hash}
    for w in writers.values():
        sent = [Message.decode(f.fields[0]) for f in w.frames() if f.kind is FrameKind.MSG]
        assert {m.hash for m in sent} >= {real.hash, forged.hash}
    blamed = [e for e in peer.core.events if isinstance(e, PeerMisbehaved)]
    assert blamed and {e.seat for e in blamed} == {FORKER}  # nobody else
    peer.store.close()
    stored = read_transcript(peer.store.path.read_bytes())
    assert stored.feeds[FORKER].equivocations


def test_a_message_chained_on_the_version_held_asks_nothing(tmp_path: Path) -> None:
    net = raiders_network(3, "basic", tag=b"no-fork")
    net.pump()
    peer, writers = peer_of(tmp_path, net, b"no-fork", (0,))
    writer = writers[0]
    for message in net.log[:60]:
        if message.seat != SEAT:
            # Each twice: the duplicate of a message held is harmless too.
            for _ in range(2):
                peer._on_frame(peer.links[0], Frame(FrameKind.MSG, (message.encode(),)))
    assert not any(f.kind is FrameKind.WANT for f in writer.frames())
    assert not peer._fork_asked and FORK_ASK_LIMIT > 0
    peer.store.close()


def wants(writer: FakeWriter) -> list[tuple[Any, ...]]:
    return [f.fields for f in drained(writer) if f.kind is FrameKind.WANT]


def test_nothing_is_asked_for_past_a_proved_fork(tmp_path: Path) -> None:
    """After the fork is proved, the other branch's later messages (which a peer holding it
    sends, in answer to a WANT or as relays) never chain here.  Asking for the gap they show
    was answered with that branch again, which asked again: a storm of WANTs and answers that
    starved both peers' event loops (tests/adversary equivocation, a 90 s stall)."""
    net, forker_feed, k, forged = forked_commit(b"fork-storm")
    real = forker_feed[k]
    peer, writers = peer_of(tmp_path, net, b"fork-storm", (0, FORKER))

    def deliver(message: Message, via: int) -> None:
        peer._on_frame(peer.links[via], Frame(FrameKind.MSG, (message.encode(),)))

    for message in forker_feed[:k]:
        deliver(message, FORKER)
    deliver(forged, FORKER)
    deliver(real, 0)
    assert peer.core.equivocations
    for w in writers.values():
        drained(w)
    for _ in range(3):  # the real branch, again and again
        for message in forker_feed[k + 1:k + 6]:
            deliver(message, 0)
    assert all(not wants(w) for w in writers.values())
    peer.store.close()


def test_a_gap_is_asked_for_once_not_per_message(tmp_path: Path) -> None:
    """Messages held aside behind a gap ask the connection they came on for it — once, not
    once per message (the answer is on its way); again only after WANT_REPEAT seconds."""
    net = raiders_network(3, "basic", tag=b"gap-once")
    net.pump()
    peer, writers = peer_of(tmp_path, net, b"gap-once", (0,))
    feed = [m for m in net.log if m.seat == 0]
    for message in feed[:3]:
        peer._on_frame(peer.links[0], Frame(FrameKind.MSG, (message.encode(),)))
    assert not wants(writers[0])
    for message in feed[4:12]:  # message 3 lost
        peer._on_frame(peer.links[0], Frame(FrameKind.MSG, (message.encode(),)))
    assert wants(writers[0]) == [(0, 3)]
    peer.links[0].asked[0] = (3, peer.links[0].asked[0][1] - WANT_REPEAT)  # time passes
    peer._on_frame(peer.links[0], Frame(FrameKind.MSG, (feed[12].encode(),)))
    assert wants(writers[0]) == [(0, 3)]
    peer._on_frame(peer.links[0], Frame(FrameKind.MSG, (feed[3].encode(),)))
    assert peer.core.feeds[0].next_seq == 13 and not wants(writers[0])
    peer.store.close()

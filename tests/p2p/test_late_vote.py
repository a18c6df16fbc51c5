"""A network peer that receives, after the match is signed, a vote on a long-past point (signed
after its voter's END) stores it and stays signed: its file still verifies valid
(protocol/mechanisms/late.py, issue 24 item 2).  The peer holds the finished match (its file,
reloaded); the vote names a message of the peer's own seat that it took long ago.  Under
version 2 the peer rebuilt its core from the feeds (p2p/peer.py ``_rebuild``); under version 3
a vote dated after its voter's END is ignored (protocol.md §7.6), so nothing is rebuilt and the
file still reads valid, the vote kept as a note."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, cast

from benchmarks.scenario import raiders_network
from p2p.peer import Link, MatchPeer, PeerConfig
from p2p.store import MatchStore
from p2p.wire import Frame, FrameKind
from protocol.mesh import random_decider
from protocol.verify.verifier import VALID, verify
from protocol.wire.messages import AbsentBody, Kind, sign_message
from tests.p2p.conftest import FakeWriter

SEAT = 2


def test_a_late_vote_after_the_end_leaves_the_peer_signed(tmp_path: Path) -> None:
    tag = b"late-vote-peer"
    net = raiders_network(3, "basic", tag=tag)
    net.pump()
    store = MatchStore(tmp_path, net.header.match_id)
    seed = hashlib.sha256(tag + b"seed%d" % SEAT).digest()
    store.create(net.header, seed, {})
    for feed in net.cores[SEAT].feeds:  # its file, as it wrote it during the match
        for message in feed.messages:
            store.append(message)
    peer = MatchPeer(net.header, SEAT, net.keys[SEAT], seed, store, [("127.0.0.1", 1)] * 3,
                     decide=random_decider(b"bot%d" % SEAT),
                     config=PeerConfig(timeouts=(30, 30, 30, 30), bot_think=0))
    peer.links = {0: Link(0, cast(Any, None), cast(Any, FakeWriter())),
                  1: Link(1, cast(Any, None), cast(Any, FakeWriter()))}
    peer.restore()
    assert peer.core.signed
    end = net.cores[1].feeds[1].messages[-1]
    assert end.kind is Kind.END
    late = sign_message(net.keys[1], match_id=end.match_id, seat=1, seq=end.seq + 1,
                        prev=end.hash, kind=Kind.ABSENT, state=end.state,
                        body=AbsentBody(SEAT, 3, 1))
    old = peer.core
    peer._on_frame(peer.links[1], Frame(FrameKind.MSG, (late.encode(),)))
    # A version-3 vote dated after its voter's END names a point already passed: the core
    # ignores it (protocol.md §7.6), so the peer has no reason to rebuild.
    assert peer.core is old
    assert peer.core.signed
    assert peer.core.feeds[1].messages[-1] == late  # stored, as a note
    peer.store.close()
    verdict = verify(store.read())
    assert verdict.verdict == VALID, verdict.reason
    assert any("vote(s) or welcome(s) after the result" in n for n in verdict.notes)

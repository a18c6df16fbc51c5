"""When its clock reports seats timed out, a network peer builds its core afresh from the feeds
and plays on with it if it is somewhere else (p2p/peer.py ``_on_timer``, LocalSeat.lagging,
network.md §5).  The in-memory network shows why (tests/protocol/mechanisms/test_votes.py, one-way
pattern 84); here, that the peer does it, and only then."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any, cast

from protocol.match.core import LocalSeat, SeatTimedOut
from protocol.mesh import Network, random_decider

from benchmarks.scenario import raiders_network
from p2p.peer import Link, MatchPeer, PeerConfig
from p2p.store import MatchStore
from p2p.wire import Frame, FrameKind
from tests.p2p.conftest import FakeWriter

SEAT = 1


def silent_seat_peer(tmp_path: Path) -> tuple[MatchPeer, Network]:
    """Seat 1's peer, with short timeouts, holding every message of seats 0 and 2 up to the
    moment seat 2 goes silent (the match then waits for it)."""
    net = raiders_network(3, "basic", tag=b"lagging-peer")
    net.pump(limit=40, partial=True)
    net.land_in_flight()
    store = MatchStore(tmp_path, net.header.match_id)
    seed = hashlib.sha256(b"lagging-peer" + b"seed%d" % SEAT).digest()
    store.create(net.header, seed, {})
    peer = MatchPeer(net.header, SEAT, net.keys[SEAT], seed, store, [("127.0.0.1", 1)] * 3,
                     decide=random_decider(b"bot%d" % SEAT),
                     config=PeerConfig(timeouts=(0.01, 0.01, 0.01, 0.01), bot_think=0))
    peer.links = {0: Link(0, cast(Any, None), cast(Any, FakeWriter())),
                  2: Link(2, cast(Any, None), cast(Any, FakeWriter()))}
    for message in net.log:
        if message.seat != SEAT:
            peer._on_frame(peer.links[2 if message.seat == 2 else 0],
                           Frame(FrameKind.MSG, (message.encode(),)))
    return peer, net


def run_timers(peer: MatchPeer) -> list[Any]:
    """Let the clock run until it reports seats timed out (both timeouts passed); the events
    the timer reported, from the core it ran on."""
    for _ in range(50):
        time.sleep(0.02)
        core, start = peer.core, len(peer.core.events)
        peer._check = None
        peer._on_timer()
        events = core.events[start:]
        if any(isinstance(e, SeatTimedOut) for e in events):
            return events
    return []


def test_a_peer_takes_the_rebuilt_core_when_its_own_lags(tmp_path: Path,
                                                         monkeypatch: Any) -> None:
    peer, _ = silent_seat_peer(tmp_path)
    old = peer.core
    calls: list[LocalSeat] = []

    def lagging(self: LocalSeat) -> LocalSeat:
        calls.append(self)
        return self.rebuilt()  # as if the feeds taken whole gave another state

    monkeypatch.setattr(LocalSeat, "lagging", lagging)
    events = run_timers(peer)
    assert any(isinstance(e, SeatTimedOut) for e in events), events
    assert calls and peer.core is not old and peer.local.core is peer.core
    assert peer.core.feeds[0].messages == old.feeds[0].messages
    peer.store.close()


def test_a_peer_keeps_its_core_when_the_feeds_agree(tmp_path: Path) -> None:
    peer, _ = silent_seat_peer(tmp_path)
    old = peer.core
    events = run_timers(peer)
    assert any(isinstance(e, SeatTimedOut) for e in events), events
    assert peer.core is old
    peer.store.close()

"""The in-memory mesh with ``own_bytes`` (issue 47): every peer is handed its own message decoded
from the bytes, as over a real link — no decoded body or checked signature is shared between
peers — and the match plays out the same."""

from __future__ import annotations

from benchmarks.scenario import raiders
from benchmarks.tampering.sealing import SealingNetwork


def test_each_peer_gets_its_own_message_and_the_match_is_the_same() -> None:
    # (Deliveries sealed under keys derived from the tag: the same bytes both times.)
    shared = SealingNetwork(3, raiders(), b"own-bytes")
    shared.pump()
    own = SealingNetwork(3, raiders(), b"own-bytes", own_bytes=True)
    own.pump()
    assert all(core.signed for core in own.cores)
    assert [m.encode() for m in own.log] == [m.encode() for m in shared.log]
    assert own.cores[0].public_digest() == shared.cores[0].public_digest()
    first = own.cores[0].feeds[1].messages[0]
    assert first is not own.cores[2].feeds[1].messages[0]
    assert first.encode() == own.cores[2].feeds[1].messages[0].encode()
    assert shared.cores[0].feeds[1].messages[0] is shared.cores[2].feeds[1].messages[0]

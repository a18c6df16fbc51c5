"""Several copies of one match verified together (protocol/verify/copies.py, protocol.md §9.4): the
fullest consistent transcript gets one verdict, each copy is said to be whole, short, damaged or
edited, a split (two signed results) is named with its sides, and copies of two matches are a
usage error.  (The framing attack, an edited copy beside an honest one, is test_framing.py.)"""

from __future__ import annotations

import pytest
from protocol.mesh import Network
from protocol.verify.copies import DifferentMatches, verify_copies
from protocol.verify.verdicts import INCOMPLETE, INVALID, SPLIT, UNREADABLE, VALID
from protocol.verify.verifier import verify
from protocol.wire.transcript import file_start, frame, split_records

from benchmarks.scenario import raiders_network
from protocol.errors import LocalProtocolError


@pytest.fixture(scope="module")
def finished() -> Network:
    net = raiders_network(3, tag=b"copies")
    net.pump()
    return net


def records(data: bytes) -> list[bytes]:
    return [data[o:o + 4 + len(p)] for o, p, _ in split_records(data) if p is not None]


def without(net: Network, peer: int, drop: set[tuple[int, int]]) -> bytes:
    core = net.cores[peer]
    return file_start(core.header) + b"".join(
        frame(m.encode()) for f in core.feeds for m in f.messages if (m.seat, m.seq) not in drop)


def test_every_peers_copy_together_is_valid_and_whole(finished: Network) -> None:
    v = verify_copies([finished.match_file(i) for i in range(3)], ["a", "b", "c"])
    assert (v.verdict, v.reason_code, v.blamed, v.record) == (VALID, "result_signed", (), None)
    assert v.final_digest == finished.cores[0].public_digest()
    assert [(c.label, c.state, c.lacking) for c in v.copies] == [
        ("a", "whole", ()), ("b", "whole", ()), ("c", "whole", ())]
    assert all(c.verdict.verdict == VALID for c in v.copies)


def test_short_copies_complete_each_other(finished: Network) -> None:
    log = finished.log  # (in the order sent: a crash cuts it at a record boundary)
    half = file_start(finished.header) + b"".join(frame(m.encode()) for m in log[:len(log) // 2])
    holed = without(finished, 1, {(2, 5), (2, 6)})
    assert verify(half).verdict == INCOMPLETE and verify(holed).verdict == INCOMPLETE
    v = verify_copies([half, holed])
    assert v.verdict == VALID, v.reason
    assert [c.state for c in v.copies] == ["short", "short"]
    assert v.copies[1].lacking == ((2, 2),)
    assert sum(k for _, k in v.copies[0].lacking) > 100
    alone = verify_copies([holed])
    assert alone.verdict == INCOMPLETE and alone.reason_code == "missing_messages"
    assert "seat 2 messages 5..6" in alone.reason


def test_a_damaged_copy_is_named_and_the_others_carry_the_match(finished: Network) -> None:
    whole = finished.match_file(0)
    flipped = bytearray(whole)
    flipped[len(whole) // 2] ^= 0x10
    torn = whole[:-7]
    v = verify_copies([bytes(flipped), torn, finished.match_file(1)])
    assert v.verdict == VALID, v.reason
    states = [c.conditions for c in v.copies]
    assert states[0][0] == "damaged" and states[1] == ("short",) and states[2] == ()
    assert v.copies[0].verdict.verdict == INVALID and v.copies[1].verdict.verdict == INCOMPLETE
    assert v.copies[1].verdict.reason_code == "torn_tail" and v.copies[1].torn
    assert v.copies[0].problems and v.copies[1].problems


def test_copies_of_two_matches_are_a_usage_error(finished: Network) -> None:
    other = raiders_network(3, tag=b"copies-other")
    other.pump(limit=50, partial=True)
    with pytest.raises(DifferentMatches) as caught:
        verify_copies([finished.match_file(0), b"junk", other.match_file(0)])
    assert caught.value.copies == (0, 2)
    assert caught.value.match_ids == (finished.header.match_id, other.header.match_id)
    assert finished.header.match_id.hex()[:16] in str(caught.value)
    with pytest.raises(LocalProtocolError):
        verify_copies([])


def test_unreadable_copies_alone_give_the_first_ones_verdict() -> None:
    v = verify_copies([b"", b"not a match file"])
    assert (v.verdict, v.reason_code) == (UNREADABLE, "not_a_match_file")
    assert [c.state for c in v.copies] == ["unreadable", "unreadable"]


def test_a_copy_whose_header_signature_fails_is_damaged(finished: Network) -> None:
    whole = finished.match_file(0)
    parts = records(whole)
    header = bytearray(parts[1])
    header[-10] ^= 0x01  # inside the last seat's header signature
    bad = parts[0] + bytes(header) + b"".join(parts[2:])
    alone = verify(bad)
    assert (alone.verdict, alone.reason_code, alone.blamed, alone.record) == (
        INVALID, "header_signature", (), 1)
    v = verify_copies([bad, finished.match_file(2)])
    assert v.verdict == VALID and v.copies[0].conditions == ("damaged",)  # (none read)


@pytest.fixture(scope="module")
def split() -> Network:
    """Four seats; the network splits into {0, 1} and {2, 3} for good: each side votes the
    other absent, and each finishes its own match."""
    net = raiders_network(4, tag=b"copies-split")
    net.pump(limit=60, partial=True)
    net.land_in_flight()
    apart = {(a, b) for a in (0, 1) for b in (2, 3)}
    net.stall(apart | {(b, a) for a, b in apart}, rounds=2)
    assert all(core.signed for core in net.cores)
    return net


def test_two_signed_results_are_a_split(split: Network) -> None:
    copies = [split.match_file(0), split.match_file(2), split.match_file(1)]
    assert all(verify(c).verdict == VALID for c in copies)  # each side alone is valid
    v = verify_copies(copies)
    assert (v.verdict, v.reason_code, v.blamed) == (SPLIT, "split", ())
    assert v.exit_code == 8
    assert [(s.copies, s.seats) for s in v.sides] == [((0, 2), (0, 1)), ((1,), (2, 3))]
    for side in v.sides:
        assert side.parting is not None and side.parting_at is not None
        assert side.parting.seat in side.seats  # a message of its own side the other lacks
        assert side.parting_at.copy == side.copies[0]
    assert v.sides[0].final_digest != v.sides[1].final_digest
    assert (v.copy, v.record) == (v.sides[0].parting_at.copy, v.sides[0].parting_at.record)
    assert "seats 0, 1 signed a result" in v.reason and "seats 2, 3 signed" in v.reason

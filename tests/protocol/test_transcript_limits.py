"""The reader's limits: junk after a match is read only up to a bound (MAX_DAMAGED damaged
records, then one summary problem), a file over MAX_FILE is not read, and malformed frames are
described in words, never by Python exception names."""

from __future__ import annotations

import hashlib
import re

import pytest
from protocol.mesh import Network
from protocol.verify.verifier import INVALID, VALID, record_numbers, verify, verify_transcript
from protocol.wire.messages import sign_message
from protocol.wire.transcript import MAX_DAMAGED, MAX_FILE, file_start, frame, read_transcript

from benchmarks.scenario import raiders_network


@pytest.fixture(scope="module")
def net() -> Network:
    network = raiders_network(3, tag=b"transcript-limits")
    network.pump()
    return network


@pytest.fixture(scope="module")
def match(net: Network) -> bytes:
    return file_start(net.header) + b"".join(frame(m.encode()) for m in net.log)


def test_zeros_after_a_match_stop_the_reader_after_a_bounded_number_of_records(
        match: bytes) -> None:
    junk = bytes(1_000_000)  # 250,000 empty frames
    t = read_transcript(match + junk)
    assert len(t.problems) == MAX_DAMAGED + 1
    assert all(p.reason == "empty frame" for p in t.problems[:-1])
    last = t.problems[-1]
    assert "reading stopped after 16 damaged records" in last.reason
    assert f"{len(junk) - 4 * MAX_DAMAGED:,} more bytes not read" in last.reason
    assert t.records == last.record  # (the records read: those before it)
    whole = read_transcript(match)
    assert t.messages == whole.messages  # nothing of the match itself is lost
    verdict = verify(match + junk)
    assert verdict.verdict == INVALID and verdict.reason == "empty frame"
    assert verdict.record == whole.records  # the first junk record, as before
    assert len(verdict.notes) == MAX_DAMAGED + 1


def test_record_numbers_stop_where_the_reader_stopped(match: bytes) -> None:
    data = match + bytes(400_000)
    t = read_transcript(data)
    numbers = record_numbers(data, t.records)
    assert max(numbers.values()) == t.records - 1  # (the empty frames share one hash)
    assert set(numbers) - set(record_numbers(match)) == {hashlib.sha256(b"").digest()}
    assert len(record_numbers(data, 5)) == 3  # records 2, 3 and 4


def test_a_few_bad_records_are_each_listed_and_the_verdict_is_unchanged(match: bytes) -> None:
    junk = frame(b"\x91\x01\x02") + frame(b"\xa2\xff\xfe") + frame(b"\xc1")
    t = read_transcript(match + junk)
    assert [p.reason for p in t.problems] == [
        "malformed frame: trailing bytes after the message",
        "malformed frame: text that is not UTF-8",
        "malformed frame: a byte that starts no value"]
    verdict = verify(match + junk)
    assert verdict.verdict == INVALID
    assert verdict.reason == "malformed frame: trailing bytes after the message"


def test_exactly_the_bound_of_damaged_records_reads_on(net: Network, match: bytes) -> None:
    """Up to MAX_DAMAGED - 1 damaged records, what follows them is still read."""
    start = file_start(net.header)
    damage = frame(b"\xc1") * (MAX_DAMAGED - 1)
    data = start + damage + match[len(start):]
    t = read_transcript(data)
    assert len(t.problems) == MAX_DAMAGED - 1
    assert t.messages == read_transcript(match).messages


def test_messages_their_feed_refuses_count_as_damage(net: Network, match: bytes) -> None:
    """Copies of a message re-signed with another seat's key (bad signatures) are damage too:
    each costs a signature check, so they are bounded the same way."""
    m = net.log[5]
    other = (m.seat + 1) % 3
    forged = [sign_message(net.keys[other], match_id=m.match_id, seat=m.seat, seq=m.seq + i,
                           prev=m.prev, kind=m.kind, state=m.state, body=m.body,
                           heads=m.heads)
              for i in range(1, 41)]
    t = read_transcript(match + b"".join(frame(f.encode()) for f in forged))
    assert len(t.problems) == MAX_DAMAGED + 1
    assert all("signature" in p.reason for p in t.problems[:-1])
    assert "reading stopped" in t.problems[-1].reason


def test_a_file_over_the_cap_is_not_read() -> None:
    t = read_transcript(bytes(MAX_FILE + 1))
    assert t.header is None and t.records == 0
    assert [p.reason for p in t.problems] == ["larger than 64 MiB: not a match file"]
    assert record_numbers(bytes(MAX_FILE + 1)) == {}


def test_a_real_match_is_far_below_the_cap(match: bytes) -> None:
    five = raiders_network(5, tag=b"transcript-limits-5")
    five.pump()
    data = file_start(five.header) + b"".join(frame(m.encode()) for m in five.log)
    assert len(data) < 1_000_000 < MAX_FILE
    assert verify_transcript(read_transcript(data)).verdict == VALID


@pytest.mark.parametrize("payload", [
    b"\x91\x01\x02", b"\xa2\xff\xfe", b"\xc1", b"\x92\x01", b"\x81\x01\x02", b"\xc7\x01\x05a",
    b"\x91" * 3000, b"\xd9\x05ab", b"\xdc\xff\xff",
])
def test_malformed_frames_are_described_in_words(match: bytes, payload: bytes) -> None:
    t = read_transcript(match + frame(payload))
    reason = t.problems[0].reason
    assert reason.startswith("malformed frame: ")
    assert not re.search(r"[A-Z][a-z]+[A-Z]|Error|Exception", reason), reason

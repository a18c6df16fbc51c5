"""The match file: framing, the lenient reader, and tampering (flip a byte, drop, reorder,
truncate) — each reported with the record and, where it can be known, the seat."""

from __future__ import annotations

import hashlib

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st
from protocol.wire.encoding import encode
from protocol.wire.header import PROTOCOL_VERSION, Header, Seat, SignedHeader, sign_header
from protocol.wire.messages import Kind, Message, sign_message
from protocol.wire.transcript import MAX_RECORD, file_start, frame, read_transcript

from protocol.crypto import public_key_bytes
from protocol.errors import BadMessage

STATE = bytes(32)
HEADS = (bytes(32),) * 3  # (no message here drives an engine: any heads do)


class Match:
    """Three seats writing a match file: header, then interleaved feeds."""

    def __init__(self, seats: int = 3) -> None:
        self.keys = [Ed25519PrivateKey.generate() for _ in range(seats)]
        header = Header(
            game="raiders", options=(("players", seats), ("variant", "basic")),
            protocol=PROTOCOL_VERSION, engine="raiders/1", sampler="sha256-ctr/v1",
            seats=tuple(Seat(f"P{i}", public_key_bytes(k)) for i, k in enumerate(self.keys)),
            nonces=tuple(hashlib.sha256(b"nonce%d" % i).digest() for i in range(seats)))
        self.signed = SignedHeader(header, tuple(sign_header(k, header) for k in self.keys))
        self.match_id = self.signed.match_id
        self.feeds: list[list[Message]] = [[] for _ in range(seats)]
        self.order: list[Message] = []

    def send(self, seat: int, action: str) -> Message:
        feed = self.feeds[seat]
        prev = feed[-1].hash if feed else self.match_id
        msg = sign_message(self.keys[seat], match_id=self.match_id, seat=seat, seq=len(feed),
                           prev=prev, kind=Kind.ACT, state=STATE,
                           body=(f"L1.R{len(feed) + 1}.play", action), heads=HEADS)
        feed.append(msg)
        self.order.append(msg)
        return msg

    def play(self, rounds: int = 4) -> Match:
        for r in range(rounds):
            for seat in range(len(self.keys)):
                self.send(seat, f"play {r + 1}")
        return self

    def file(self, messages: list[Message] | None = None) -> bytes:
        msgs = self.order if messages is None else messages
        return file_start(self.signed) + b"".join(frame(m.encode()) for m in msgs)


def test_round_trip() -> None:
    m = Match().play()
    t = read_transcript(m.file())
    assert t.problems == [] and not t.torn
    assert t.header == m.signed
    assert t.messages == 12
    for seat, feed in t.feeds.items():
        assert feed.messages == tuple(m.feeds[seat])


def test_any_interleaving_of_feeds_reads_the_same() -> None:
    m = Match().play()
    reordered = sorted(m.order, key=lambda msg: (-msg.seat, msg.seq))
    t = read_transcript(m.file(reordered))
    assert t.problems == []
    assert {s: f.messages for s, f in t.feeds.items()} == {
        s: tuple(f) for s, f in enumerate(m.feeds)}


def test_out_of_sequence_within_a_feed_is_put_back_in_order() -> None:
    m = Match().play()
    swapped = list(m.order)
    swapped[0], swapped[3] = swapped[3], swapped[0]  # seat 0: seq 1 before seq 0
    t = read_transcript(m.file(swapped))
    assert t.problems == [] and t.feeds[0].messages == tuple(m.feeds[0])


def test_torn_last_record_is_reported_not_fatal() -> None:
    m = Match().play()
    data = m.file()
    t = read_transcript(data[:-5])
    assert t.torn
    assert len(t.problems) == 1 and "torn record" in t.problems[0].reason
    assert t.messages == 11  # everything before the torn record is kept


def test_truncated_inside_the_length_prefix() -> None:
    m = Match().play()
    data = m.file()
    last = frame(m.order[-1].encode())
    t = read_transcript(data[:len(data) - len(last) + 2])
    assert t.torn and t.messages == 11


def test_dropped_message_shows_as_a_gap() -> None:
    m = Match().play()
    dropped = [msg for msg in m.order if not (msg.seat == 1 and msg.seq == 1)]
    t = read_transcript(m.file(dropped))
    assert t.missing() == {1: range(1, 2)}
    assert len(t.feeds[1].messages) == 1  # seq 2 and 3 wait for seq 1


def test_flipped_byte_in_a_message_is_reported_with_its_record() -> None:
    m = Match().play()
    data = bytearray(m.file())
    head = len(file_start(m.signed))
    first = frame(m.order[0].encode())
    for i in range(4, len(first)):  # every byte of the first message's payload
        tampered = bytearray(data)
        tampered[head + i] ^= 0x01
        t = read_transcript(bytes(tampered))
        assert t.problems, i
        assert t.problems[0].record == 2
        assert len(t.feeds[0].messages) == 0  # nothing of seat 0 chains any more


def test_flipped_byte_in_the_header_stops_the_reader() -> None:
    m = Match().play()
    data = bytearray(m.file())
    data[len(frame(encode(("cryptcrawl-match", 1)))) + 10] ^= 0x40
    t = read_transcript(bytes(data))
    assert t.header is None
    assert t.problems and t.problems[0].record == 1


def test_not_a_match_file() -> None:
    t = read_transcript(frame(encode(("something", 1))))
    assert t.problems[0].reason.startswith("not a cryptcrawl match file")
    assert read_transcript(b"").problems[0].reason == "empty file"


def test_message_from_another_match_is_refused() -> None:
    m = Match().play(1)
    other = Match().play(1)
    t = read_transcript(m.file([*m.order, other.order[0]]))
    assert any("another match" in p.reason for p in t.problems)
    assert t.messages == 3


def test_equivocation_is_kept_as_evidence() -> None:
    m = Match().play(1)
    forked = sign_message(m.keys[2], match_id=m.match_id, seat=2, seq=0, prev=m.match_id,
                          kind=Kind.ACT, state=STATE, body=("L1.R1.play", "play 5"),
                          heads=HEADS)
    t = read_transcript(m.file([*m.order, forked]))
    assert len(t.equivocations) == 1
    proof = t.equivocations[0]
    assert proof.seat == 2 and proof.seq == 0
    proof.verify(public_key_bytes(m.keys[2]))
    assert any(p.seat == 2 and "equivocation" in p.reason for p in t.problems)


def test_forged_signature_names_the_seat() -> None:
    m = Match().play(1)
    impostor = Ed25519PrivateKey.generate()
    forged = sign_message(impostor, match_id=m.match_id, seat=1, seq=1,
                          prev=m.feeds[1][0].hash, kind=Kind.ACT, state=STATE,
                          body=("L1.R2.play", "play 2"), heads=HEADS)
    t = read_transcript(m.file([*m.order, forged]))
    assert [(p.seat, "signature" in p.reason) for p in t.problems] == [(1, True)]


def test_record_cap() -> None:
    with pytest.raises(BadMessage):
        frame(bytes(MAX_RECORD + 1))
    m = Match()
    big = (MAX_RECORD + 1).to_bytes(4, "big")
    t = read_transcript(m.file() + big + b"x")
    assert t.problems and "cap" in t.problems[-1].reason


@settings(max_examples=1500, deadline=None)
@given(st.binary(max_size=300))
def test_fuzz_reader_never_raises(data: bytes) -> None:
    read_transcript(data)


_SAMPLE = Match().play(2)
_SAMPLE_FILE = _SAMPLE.file()


@settings(max_examples=1500, deadline=None)
@given(st.integers(0, len(_SAMPLE_FILE) - 1), st.integers(1, 255), st.integers(0, 40))
def test_fuzz_mutated_file_never_raises_and_never_gains_messages(
        position: int, xor: int, cut: int) -> None:
    data = bytearray(_SAMPLE_FILE)
    data[position] ^= xor
    t = read_transcript(bytes(data[:len(data) - cut]))
    assert t.messages <= 6
    assert t.problems  # a changed byte never goes unnoticed

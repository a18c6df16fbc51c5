"""Feeds: the chain, replays from another match, wrong senders, gaps filled later, reordered
delivery, equivocation with transferable proof, harmless duplicates, the buffer cap."""

from __future__ import annotations

import contextlib
import hashlib

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from hypothesis import given, settings
from hypothesis import strategies as st
from protocol.wire.feed import BUFFER_CAP, RIVALS_CAP, AddStatus, Equivocation, Feed
from protocol.wire.messages import Kind, Message, sign_message

from protocol.errors import BadMessage, LocalProtocolError

MATCH = hashlib.sha256(b"feed match").digest()
OTHER_MATCH = hashlib.sha256(b"another match").digest()
STATE = bytes(32)


def raw(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


class Sender:
    """A seat writing its own feed: each message chains onto its previous one."""

    def __init__(self, seat: int = 1, match_id: bytes = MATCH,
                 key: Ed25519PrivateKey | None = None) -> None:
        self.seat = seat
        self.match_id = match_id
        self.key = key or Ed25519PrivateKey.generate()
        self.public = raw(self.key)
        self.sent: list[Message] = []

    def message(self, action: str = "play 1", *, seq: int | None = None,
                prev: bytes | None = None) -> Message:
        """The next message (not recorded; see :meth:`send`), or one at a chosen slot."""
        if seq is None:
            seq = len(self.sent)
        if prev is None:
            prev = self.sent[seq - 1].hash if seq else self.match_id
        return sign_message(self.key, match_id=self.match_id, seat=self.seat, seq=seq,
                            prev=prev, kind=Kind.ACT, state=STATE,
                            body=(f"step{seq}", action), heads=(self.match_id,))

    def send(self, action: str = "play 1") -> Message:
        message = self.message(action)
        self.sent.append(message)
        return message

    def feed(self) -> Feed:
        return Feed(self.seat, self.public, self.match_id)


def test_an_empty_feed_starts_at_the_match_id() -> None:
    feed = Sender().feed()
    assert feed.messages == ()
    assert feed.head == MATCH
    assert feed.next_seq == 0
    assert feed.missing() == range(0, 0)


def test_messages_in_order_append() -> None:
    sender = Sender()
    feed = sender.feed()
    for _ in range(3):
        message = sender.send()
        result = feed.add(message)
        assert result.status is AddStatus.APPENDED
        assert result.appended == (message,)
        assert feed.head == message.hash
    assert feed.messages == tuple(sender.sent)
    assert feed.next_seq == 3
    assert len(feed.missing()) == 0


def test_decoded_messages_chain_the_same() -> None:
    sender = Sender()
    feed = sender.feed()
    for _ in range(3):
        feed.add(Message.decode(sender.send().encode()))
    assert feed.head == sender.sent[-1].hash


def test_first_message_must_chain_from_the_match_id() -> None:
    sender = Sender()
    with pytest.raises(BadMessage, match="broken chain"):
        sender.feed().add(sender.message(prev=bytes(32)))


def test_a_message_that_skips_its_predecessor_is_a_broken_chain() -> None:
    sender = Sender()
    feed = sender.feed()
    feed.add(sender.send())
    with pytest.raises(BadMessage, match="broken chain"):
        feed.add(sender.message(prev=MATCH))
    assert feed.next_seq == 1


def test_replay_from_another_match_is_refused() -> None:
    key = Ed25519PrivateKey.generate()
    elsewhere = Sender(match_id=OTHER_MATCH, key=key)
    here = Sender(key=key)
    feed = here.feed()
    old = elsewhere.send()
    with pytest.raises(BadMessage, match="from another match"):
        feed.add(old)
    assert feed.messages == ()


def test_a_message_from_another_seat_is_refused() -> None:
    sender, other = Sender(seat=1), Sender(seat=2)
    with pytest.raises(BadMessage, match="wrong sender"):
        sender.feed().add(other.send())


def test_a_message_signed_by_another_key_is_refused() -> None:
    sender = Sender(seat=1)
    impostor = Sender(seat=1)
    feed = sender.feed()
    with pytest.raises(BadMessage, match="bad signature"):
        feed.add(impostor.send())
    with pytest.raises(BadMessage, match="bad signature"):  # not even kept aside
        feed.add(impostor.message(seq=3, prev=bytes(32)))
    assert feed.messages == ()
    assert len(feed.missing()) == 0


def test_the_checks_run_in_order() -> None:
    """match id first, then seat, then signature."""
    stranger = Sender(seat=2, match_id=OTHER_MATCH)
    feed = Sender(seat=1).feed()
    with pytest.raises(BadMessage, match="another match"):
        feed.add(stranger.send())
    with pytest.raises(BadMessage, match="wrong sender"):
        feed.add(Sender(seat=2).send())


def test_a_gap_is_reported_and_filled_later() -> None:
    sender = Sender()
    m0, m1, m2, m3 = (sender.send() for _ in range(4))
    feed = sender.feed()
    feed.add(m0)
    result = feed.add(m2)
    assert result.status is AddStatus.GAP
    assert result.buffered
    assert feed.missing() == range(1, 2)
    assert list(feed.messages) == [m0]
    assert feed.head == m0.hash
    assert feed.add(m3).status is AddStatus.GAP
    assert feed.missing() == range(1, 2)
    filled = feed.add(m1)
    assert filled.status is AddStatus.APPENDED
    assert filled.appended == (m1, m2, m3)
    assert feed.messages == (m0, m1, m2, m3)
    assert feed.missing() == range(4, 4)


def test_a_reordered_delivery_ends_in_the_same_feed() -> None:
    sender = Sender()
    m0, m1, m2 = (sender.send() for _ in range(3))
    in_order, reordered = sender.feed(), sender.feed()
    for message in (m0, m1, m2):
        in_order.add(message)
    for message in (m0, m2, m1):
        reordered.add(message)
    assert reordered.messages == in_order.messages
    assert reordered.head == in_order.head


SHUFFLED = Sender()
for _ in range(8):
    SHUFFLED.send()


@settings(max_examples=200, deadline=None)
@given(st.permutations(range(8)), st.lists(st.integers(0, 7), max_size=4))
def test_any_delivery_order_with_resends_ends_in_the_same_feed(
        order: list[int], resends: list[int]) -> None:
    feed = SHUFFLED.feed()
    for seq in [*order, *resends]:
        result = feed.add(SHUFFLED.sent[seq])
        assert result.status is not AddStatus.EQUIVOCATION
    assert feed.messages == tuple(SHUFFLED.sent)
    assert len(feed.missing()) == 0


def test_a_duplicate_resend_is_harmless() -> None:
    sender = Sender()
    m0, m1, m2 = (sender.send() for _ in range(3))
    feed = sender.feed()
    feed.add(m0)
    feed.add(m1)
    assert feed.add(Message.decode(m0.encode())).status is AddStatus.DUPLICATE
    assert feed.add(m2).status is AddStatus.APPENDED
    feed_before = feed.messages
    assert feed.add(m1).status is AddStatus.DUPLICATE
    assert feed.messages == feed_before
    assert feed.equivocations == ()


def test_a_duplicate_of_a_buffered_message_is_harmless() -> None:
    sender = Sender()
    _m0, _m1, m2 = (sender.send() for _ in range(3))
    feed = sender.feed()
    assert feed.add(m2).status is AddStatus.GAP
    assert feed.add(m2).status is AddStatus.DUPLICATE
    assert feed.missing() == range(0, 2)


def independently_verify(proof: Equivocation, public_key: bytes) -> None:
    """What a third party does with the proof: only the two encodings and the seat's key."""
    first = Message.decode(proof.first.encode())
    second = Message.decode(proof.second.encode())
    first.verify(public_key)
    second.verify(public_key)
    assert (first.match_id, first.seat, first.seq) == (second.match_id, second.seat, second.seq)
    assert first.encode() != second.encode()
    assert first.signed_bytes() != second.signed_bytes()


def test_equivocation_is_caught_with_a_transferable_proof() -> None:
    sender = Sender()
    feed = sender.feed()
    feed.add(sender.send())
    told_us = sender.send("play 1")
    told_them = sender.message("play 5", seq=1)
    assert feed.add(told_us).status is AddStatus.APPENDED
    result = feed.add(told_them)
    assert result.status is AddStatus.EQUIVOCATION
    proof = result.equivocation
    assert proof is not None
    assert (proof.seat, proof.seq) == (1, 1)
    assert (proof.first, proof.second) == (told_us, told_them)
    proof.verify(sender.public)
    independently_verify(proof, sender.public)
    assert feed.equivocations == (proof,)
    assert feed.messages[1] == told_us  # the feed keeps what it had
    with pytest.raises(BadMessage, match="bad signature"):
        proof.verify(Sender().public)


def test_one_proof_per_slot() -> None:
    """Peers pass a proof on to each other: the second version arriving again, or a third
    version of the same slot, proves nothing new — a duplicate, not another proof (before: each
    copy was a new proof, sent on again, and the proof went round the peers and into their
    files a thousand times).  Another slot forked is another proof."""
    sender = Sender()
    feed = sender.feed()
    feed.add(sender.send())
    feed.add(sender.send("play 1"))
    second = sender.message("play 5", seq=1)
    assert feed.add(second).status is AddStatus.EQUIVOCATION
    for again in (Message.decode(second.encode()), sender.message("play 4", seq=1)):
        result = feed.add(again)
        assert result.status is AddStatus.DUPLICATE and result.equivocation is None
    assert len(feed.equivocations) == 1
    feed.add(sender.send("play 2"))
    assert feed.add(sender.message("play 3", seq=2)).status is AddStatus.EQUIVOCATION
    assert [p.seq for p in feed.equivocations] == [1, 2]


def test_equivocation_on_a_buffered_slot() -> None:
    sender = Sender()
    for _ in range(3):
        sender.send()
    feed = sender.feed()
    feed.add(sender.sent[2])
    other = sender.message("play 9", seq=2)
    result = feed.add(other)
    assert result.status is AddStatus.EQUIVOCATION
    assert result.equivocation is not None
    independently_verify(result.equivocation, sender.public)


def test_equivocation_evidence_is_validated() -> None:
    sender = Sender()
    a, b = sender.send(), sender.send()
    with pytest.raises(BadMessage, match="same message twice"):
        Equivocation(1, 0, a, Message.decode(a.encode()))
    with pytest.raises(BadMessage, match="seq 1"):
        Equivocation(1, 0, a, b)
    elsewhere = Sender(seat=1, match_id=OTHER_MATCH, key=sender.key).send()
    with pytest.raises(BadMessage, match="two matches"):
        Equivocation(1, 0, a, elsewhere)
    stray = sender.message("play 2", seq=0, prev=bytes(32))
    with pytest.raises(BadMessage, match="different predecessors"):
        Equivocation(1, 0, a, stray)


def test_a_version_of_a_held_slot_that_does_not_chain_is_a_broken_chain_not_a_fork() -> None:
    sender = Sender()
    feed = sender.feed()
    feed.add(sender.send())
    feed.add(sender.send())
    with pytest.raises(BadMessage, match="broken chain"):
        feed.add(sender.message("play 7", seq=1, prev=bytes(32)))
    assert feed.equivocations == ()
    assert feed.messages == tuple(sender.sent)


def spam_and_real() -> tuple[Sender, list[Message]]:
    """A sender's real feed of four, then chain spam at slot 2 and at slot 3."""
    sender = Sender()
    for _ in range(4):
        sender.send()
    spam = [sender.message(f"play {i}", seq=2 + i % 2, prev=hashlib.sha256(b"%d" % i).digest())
            for i in range(6)]
    return sender, spam


@settings(max_examples=300, deadline=None)
@given(st.permutations(range(10)))
def test_chain_spam_never_proves_a_fork_whatever_the_arrival_order(order: list[int]) -> None:
    """Whether a peer meets the spam before or after the real message of its slot, buffered
    or not, it ends with the real feed and no equivocation (peers that met them in different
    orders do not part)."""
    sender, spam = spam_and_real()
    everything = [*sender.sent, *spam]
    feed = sender.feed()
    for index in order:
        try:
            result = feed.add(everything[index])
        except BadMessage as exc:
            assert "broken chain" in str(exc)
            continue
        assert result.status is not AddStatus.EQUIVOCATION
    for message in sender.sent:  # a real message crowded out of the buffer is asked again
        with contextlib.suppress(BadMessage):
            feed.add(message)
    assert feed.messages == tuple(sender.sent)
    assert feed.equivocations == ()


def test_a_real_fork_is_proved_in_any_arrival_order() -> None:
    """Two versions of slot 2 naming the same predecessor: proved whether the first one was
    held, buffered alone or buffered among spam."""
    sender, spam = spam_and_real()
    m0, m1, m2 = sender.sent[:3]
    fork = sender.message("play 9", seq=2)
    for order in ([m0, m1, m2, fork], [fork, m2, m0, m1], [m2, *spam, fork, m0, m1]):
        feed = sender.feed()
        proofs = []
        for message in order:
            with contextlib.suppress(BadMessage):
                result = feed.add(message)
                if result.equivocation is not None:
                    proofs.append(result.equivocation)
        first, second = sorted((m2, fork), key=order.index)
        assert [(p.seq, p.first, p.second) for p in proofs] == [(2, first, second)]
        assert feed.messages[:2] == (m0, m1)


def test_rivals_for_one_slot_ahead_are_capped() -> None:
    sender, _spam = spam_and_real()
    feed = sender.feed()
    kept = [feed.add(sender.message(f"play {i}", seq=2, prev=bytes([i]) * 32)).buffered
            for i in range(RIVALS_CAP + 2)]
    assert kept == [True] * RIVALS_CAP + [False, False]
    result = feed.add(sender.sent[2])  # crowded out: not kept, not a fork
    assert result.status is AddStatus.GAP and not result.buffered
    feed.add(sender.sent[0])
    result = feed.add(sender.sent[1])
    assert result.appended == (sender.sent[1],)
    assert len(result.unchained) == RIVALS_CAP
    assert feed.next_seq == 2 and feed.missing() == range(2, 2)  # asked for when overdue
    assert feed.add(sender.sent[2]).status is AddStatus.APPENDED


def test_a_forged_proof_does_not_verify() -> None:
    sender, impostor = Sender(seat=1), Sender(seat=1)
    proof = Equivocation(1, 0, sender.send("play 1"), impostor.send("play 2"))
    with pytest.raises(BadMessage, match="bad signature"):
        proof.verify(sender.public)


def test_the_buffer_keeps_at_most_the_cap_ahead() -> None:
    sender = Sender()
    feed = sender.feed()
    feed.add(sender.message(seq=0))
    far = sender.message(seq=1 + BUFFER_CAP + 1, prev=bytes(32))
    result = feed.add(far)
    assert result.status is AddStatus.GAP
    assert not result.buffered
    assert feed.missing() == range(1, BUFFER_CAP + 3)
    edge = sender.message(seq=1 + BUFFER_CAP, prev=bytes(32))
    result = feed.add(edge)
    assert result.status is AddStatus.GAP
    assert result.buffered
    assert feed.missing() == range(1, BUFFER_CAP + 1)


def test_a_buffered_message_that_does_not_chain_is_dropped_and_reported() -> None:
    sender = Sender()
    m0, m1 = sender.send(), sender.send()
    forked = sender.message(seq=2, prev=bytes(32))
    feed = sender.feed()
    feed.add(m0)
    assert feed.add(forked).status is AddStatus.GAP
    result = feed.add(m1)
    assert result.status is AddStatus.APPENDED
    assert result.appended == (m1,)
    assert result.unchained == (forked,)
    assert feed.messages == (m0, m1)
    assert len(feed.missing()) == 0
    assert feed.add(sender.send()).status is AddStatus.APPENDED


@pytest.mark.parametrize(("seat", "key", "match_id"), [
    (8, bytes(32), MATCH),
    (-1, bytes(32), MATCH),
    (True, bytes(32), MATCH),
    (0, bytes(31), MATCH),
    (0, bytes(32), MATCH[:16]),
])
def test_a_feed_needs_a_seat_a_key_and_a_match(seat: int, key: bytes, match_id: bytes) -> None:
    with pytest.raises(LocalProtocolError):
        Feed(seat, key, match_id)


def test_a_feed_takes_messages_of_its_match_version_only() -> None:
    sender = Sender()
    v1 = sign_message(sender.key, match_id=MATCH, seat=sender.seat, seq=0, prev=MATCH,
                      kind=Kind.ACT, state=STATE, body=("step0", "play 1"), version=1)
    with pytest.raises(BadMessage, match="of protocol version 1, in a version 2 match"):
        sender.feed().add(v1)
    assert Feed(sender.seat, sender.public, MATCH, 1).add(v1).appended == (v1,)

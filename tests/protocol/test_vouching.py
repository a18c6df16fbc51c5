"""Vouching (version 2, protocol.md §7.10): the heads every message that drives the engine
carries, and the SEAL_KEY message a DELIVERY names.  A message naming, for another seat, a
message that seat's feed holds elsewhere is its signer's fault; one naming a message this copy
does not hold is a dispute between the two seats — nobody is blamed, the message waits, and the
held version is reported (the driver relays it, so two versions of one slot can meet)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from protocol.match.core import MatchCore
from protocol.match.events import HeadsDisputed, PeerMisbehaved
from protocol.mesh import Network
from protocol.verify.verifier import verify
from protocol.wire.messages import CORE_KINDS, DeliveryBody, Kind, Message, sign_message
from protocol.wire.transcript import file_start, frame, read_transcript

from benchmarks.scenario import raiders_network
from protocol.crypto import replaced_head


@pytest.fixture(scope="module")
def net() -> Network:
    for attempt in range(20):
        net = raiders_network(3, tag=b"vouching/%d" % attempt)
        net.pump()
        if any(m.kind is Kind.DELIVERY for m in net.log):
            return net
    raise AssertionError("no match with a delivery")


def rewritten(net: Network, message: Message, **changes: Any) -> bytes:
    """Seat 0's copy of the match with ``message`` signed again with ``changes`` (its body or
    heads) and its seat's later messages chained on it."""
    seat = message.seat
    feed = list(net.cores[0].feeds[seat].messages)
    new: list[Message] = feed[:message.seq]
    prev = message.prev
    for m in feed[message.seq:]:
        fields = {"body": m.content, "heads": m.heads}
        if m.seq == message.seq:
            fields.update(changes)
        again = sign_message(net.keys[seat], match_id=m.match_id, seat=seat, seq=m.seq,
                             prev=prev, kind=m.kind, state=m.state, version=m.version,
                             **fields)
        new.append(again)
        prev = again.hash
    data = bytearray(file_start(net.header))
    for s, f in enumerate(net.cores[0].feeds):
        for m in new if s == seat else f.messages:
            data += frame(m.encode())
    return bytes(data)


def replayed(data: bytes) -> MatchCore:
    t = read_transcript(data)
    assert t.header is not None and not t.problems
    core = MatchCore(t.header)
    core.adopt(t.feeds)
    return core


def first(net: Network, kind: Kind, seat: int) -> Message:
    return next(m for m in net.cores[0].feeds[seat].messages if m.kind is kind)


def test_every_honest_message_carries_the_heads_the_rules_give(net: Network) -> None:
    assert verify(net.match_file(0)).valid
    core = replayed(net.match_file(0))
    assert core.disputes == []
    assert all(len(m.heads) == (3 if m.kind in CORE_KINDS else 0) for m in net.log)
    assert any(m.kind not in CORE_KINDS for m in net.log)


def test_heads_naming_a_held_message_out_of_place_are_the_signers_fault(net: Network) -> None:
    commit = first(net, Kind.COMMIT, 1)
    earlier = net.cores[0].feeds[2].messages[0]  # seat 2's first message: never its head here
    heads = tuple(earlier.hash if s == 2 else h for s, h in enumerate(commit.heads))
    assert heads != commit.heads
    verdict = verify(rewritten(net, commit, heads=heads))
    assert verdict.verdict == "invalid" and verdict.blamed == (1,)
    assert "out of place" in verdict.reason


def test_heads_naming_a_message_this_copy_lacks_are_a_dispute(net: Network) -> None:
    commit = first(net, Kind.COMMIT, 1)
    heads = tuple(bytes(31) + b"\x07" if s == 2 else h for s, h in enumerate(commit.heads))
    core = replayed(rewritten(net, commit, heads=heads))
    (dispute,) = core.disputes
    assert (dispute.seat, dispute.other) == (1, 2)
    assert dispute.message.seq == commit.seq
    assert dispute.held and dispute.held[0].hash == commit.heads[2]  # what this copy holds
    assert not any(isinstance(e, PeerMisbehaved) for e in core.events)
    assert not core.signed  # the match waits behind it


def test_heads_that_carry_a_replacement_wait_whatever_else_they_name(net: Network) -> None:
    """A message whose heads carry a replacement this copy did not make comes from a peer that
    parted (a split): with a seat replaced, its steps begin elsewhere, so its other entries may
    name a held message at another place — that waits, it is not out of place (before, the
    one-way-closed partition 73 blamed two honest seats for it)."""
    commit = first(net, Kind.COMMIT, 1)
    earlier = net.cores[0].feeds[2].messages[0]  # out of place, as in the test above
    mark = replaced_head(net.cores[0].match_id, 0, 3)  # seat 0 replaced at its message 3
    heads = (mark, commit.heads[1], earlier.hash)
    core = replayed(rewritten(net, commit, heads=heads))
    assert not any(isinstance(e, PeerMisbehaved) for e in core.events)
    assert core.disputes == []  # (a replacement difference reports no dispute of two seats)
    assert not core.signed  # the match waits behind it
    verdict = verify(rewritten(net, commit, heads=heads))
    assert verdict.verdict == "incomplete" and verdict.blamed == ()


def test_heads_of_the_wrong_length_are_the_signers_fault(net: Network) -> None:
    commit = first(net, Kind.COMMIT, 1)
    verdict = verify(rewritten(net, commit, heads=commit.heads[:2]))
    assert verdict.verdict == "invalid" and verdict.blamed == (1,)
    assert "2 heads, not 3" in verdict.reason


def test_a_delivery_names_the_key_message_it_is_sealed_to(net: Network) -> None:
    delivery = next(m for m in net.log if m.kind is Kind.DELIVERY)
    body = delivery.content
    assert isinstance(body, DeliveryBody)
    core = replayed(net.match_file(0))
    r = core.rounds[body.round]
    assert r.key_message is not None and body.key_message == r.key_message.hash


def test_a_delivery_naming_another_key_message_is_a_dispute(net: Network) -> None:
    delivery = next(m for m in net.log if m.kind is Kind.DELIVERY)
    body = delivery.content
    assert isinstance(body, DeliveryBody)
    core = replayed(rewritten(net, delivery, body=dataclasses.replace(
        body, key_message=bytes(32))))
    disputes = [e for e in core.events if isinstance(e, HeadsDisputed)]
    assert [(d.seat, d.message.seq) for d in disputes] == [(delivery.seat, delivery.seq)]
    owner = core.rounds[body.round].seat
    assert disputes[0].other == owner
    assert [m.kind for m in disputes[0].held] == [Kind.SEAL_KEY]
    assert not any(isinstance(e, PeerMisbehaved) for e in core.events)


def test_a_delivery_naming_a_held_message_of_the_owner_out_of_place_is_a_fault(
        net: Network) -> None:
    delivery = next(m for m in net.log if m.kind is Kind.DELIVERY)
    body = delivery.content
    assert isinstance(body, DeliveryBody)
    owner = replayed(net.match_file(0)).rounds[body.round].seat
    other = net.cores[0].feeds[owner].messages[0]
    verdict = verify(rewritten(net, delivery, body=dataclasses.replace(
        body, key_message=other.hash)))
    assert verdict.verdict == "invalid" and verdict.blamed == (delivery.seat,)
    assert "out of place" in verdict.reason

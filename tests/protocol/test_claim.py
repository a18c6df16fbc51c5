"""CLAIM (version 2, protocol.md §7.7): with two seats live, votes are void, so a seat silent
past both timeouts used to stall the match for good.  Now the other claims the match: the
claimed seat is replaced where its message is owed and the match ends there (the floor) —
``claimed`` (exit 5), naming the claimed seat and the last of its messages the claimant held.
Claims that cross give ``abandoned``; a claim made where the claimant owed a message itself is
its fault (``invalid``, ``false_claim``)."""

from __future__ import annotations

import pytest
from protocol.match.core import MatchClaimed, MatchCore, PeerMisbehaved
from protocol.mesh import Network, shuffled, take_in_order
from protocol.verify.copies import verify_copies
from protocol.verify.verdicts import ABANDONED, CLAIMED, DISPUTED, EXIT_CODES, INVALID
from protocol.verify.verifier import verify
from protocol.wire.messages import ClaimBody, Kind, Message, check_body

from benchmarks.scenario import raiders_network
from engine.stream import HashStream
from protocol.errors import BadMessage
from tests.protocol.mechanisms.test_floor import duel_network
from tests.protocol.mechanisms.test_leave import pump_until


def claims(net: Network, peer: int) -> list[MatchClaimed]:
    return [e for e in net.events[peer] if isinstance(e, MatchClaimed)]


@pytest.mark.parametrize(("forfeit", "after"), [(False, 2), (False, 5), (True, 3)])
def test_a_seat_silent_past_the_timeouts_is_claimed(forfeit: bool, after: int) -> None:
    net = duel_network(b"claim", forfeit=forfeit)
    pump_until(net, lambda: len(net.seats[1].sent) >= after)
    net.crash(1)
    net.run_with_timeouts()
    core = net.cores[0]
    assert core.signed
    [claim] = claims(net, 0)
    assert (claim.claimant, claim.seat, claim.contested) == (0, 1, False)
    assert claim.count == core.cursor[1] == len(core.feeds[1].messages)
    v = verify(net.match_file(0))
    assert (v.verdict, v.reason_code, v.blamed) == (CLAIMED, "claimed", ()), v
    assert EXIT_CODES[v.verdict] == 5
    assert f"its message {claim.count} was owed" in v.reason, v.reason
    assert v.winners == ((0,) if forfeit else ()), v


def test_messages_of_the_claimed_seat_after_the_claim_are_not_taken() -> None:
    """The claim rests on the claimed seat's silence: what it sends later (it was only slow)
    is not added to the claimant's feeds, so its file still reads claimed."""
    net = duel_network(b"claim-late", forfeit=False)
    pump_until(net, lambda: len(net.seats[1].sent) >= 3)
    late: list = []  # type: ignore[type-arg]
    local = net.seats[1]
    original = local.messages_to_send

    def hold() -> list:  # type: ignore[type-arg]
        late.extend(original())
        return []
    local.messages_to_send = hold  # type: ignore[method-assign]
    net.run_with_timeouts()
    assert net.cores[0].signed and late
    before = len(net.cores[0].feeds[1].messages)
    for message in late:
        assert net.cores[0].receive(message) == []
    assert len(net.cores[0].feeds[1].messages) == before
    assert verify(net.match_file(0)).verdict == CLAIMED


def cut_off(net: Network, after: int) -> list[Message]:
    """Seat 1 sends ``after`` messages; then the link between the two seats goes down both
    ways: each plays on alone until it waits for the other.  What was cut off."""
    pump_until(net, lambda: len(net.seats[1].sent) >= after)
    cut = list(net.queue)
    net.queue.clear()
    for m in cut:
        net.deliver(m.seat, m)  # (each its own, at once)
    for _ in range(20):
        out = [m for s in (0, 1) for m in net.seats[s].messages_to_send()]
        for m in out:
            net.deliver(m.seat, m)
        cut += out
    return cut


def time_out(net: Network, seat: int) -> list[Message]:
    """``seat``'s clock runs past both timeouts; what it sends then (its claim)."""
    net.run_clock(seat)
    net.run_clock(seat)
    out = net.seats[seat].messages_to_send()
    for m in out:
        net.deliver(seat, m)
    return out


def test_claims_that_cross_abandon_the_match_read_together() -> None:
    """Each seat timed the other out and claimed: each copy reads ``claimed`` (its claimant
    took its own claim first, and the other's later messages are not taken); read together,
    in either order, the claims cross: ``abandoned``, nobody blamed."""
    net = duel_network(b"claim-cross", forfeit=True)
    cut = cut_off(net, 3)
    made = time_out(net, 0) + time_out(net, 1)
    assert sorted(m.kind for m in made) == [Kind.CLAIM, Kind.CLAIM]
    for m in cut + made:
        net.deliver(1 - m.seat, m)
    net.pump()
    files = [net.match_file(0), net.match_file(1)]
    for peer in (0, 1):
        assert net.cores[peer].signed
        v = verify(files[peer])
        assert (v.verdict, v.blamed, v.winners) == (CLAIMED, (), (peer,)), v
    for order in (files, files[::-1]):
        v = verify_copies(order)
        assert (v.verdict, v.blamed) == (ABANDONED, ()), v
        assert "the claims crossed" in v.reason


def test_a_claim_that_crosses_a_message_of_the_claimed_seat_abandons_the_match() -> None:
    """Seat 1 was only slow: its message reached its own file before seat 0's claim came in.
    Seat 1's copy: the claim crossed its message, the match is abandoned, nobody blamed; seat
    0's copy: claimed; read together: disputed between the two."""
    net = duel_network(b"claim-crossed", forfeit=True)
    cut = cut_off(net, 3)
    claim = time_out(net, 0)
    assert [m.kind for m in claim] == [Kind.CLAIM]
    late = net.seats[1].core.feeds[1].messages[claim[0].content.count]
    for m in cut + claim:
        net.deliver(1 - m.seat, m)
    net.pump()
    assert net.cores[1].signed
    [seen] = claims(net, 1)
    assert seen.contested and seen.count == late.seq
    v = verify(net.match_file(1))
    assert (v.verdict, v.blamed) == (ABANDONED, ()), v
    assert verify(net.match_file(0)).verdict == CLAIMED
    both = verify_copies([net.match_file(0), net.match_file(1)])
    assert (both.verdict, both.reason_code, both.blamed) == (
        DISPUTED, "claim_disputed", (0, 1)), both


def test_a_claim_made_while_the_claimant_owed_a_message_is_its_fault() -> None:
    net = duel_network(b"claim-false", forfeit=False)
    pump_until(net, lambda: net.cores[0].expects(0) is Kind.COMMIT
               and net.cores[1].expects(0) is Kind.COMMIT)
    liar = net.seats[0]
    count = net.cores[1].cursor[1]
    claim = liar.sign_next(Kind.CLAIM, ClaimBody(1, count))
    events = net.cores[1].receive(claim)
    assert any(isinstance(e, PeerMisbehaved) and e.seat == 0 for e in events), events
    net.crash(0)
    net.run_with_timeouts()
    v = verify(net.match_file(1))
    assert (v.verdict, v.reason_code, v.blamed) == (INVALID, "false_claim", (0,)), v


def test_three_seats_one_leaves_then_one_goes_silent_the_last_claims() -> None:
    net = raiders_network(3, tag=b"claim-three")
    pump_until(net, lambda: len(net.seats[2].sent) >= 12)
    net.seats[2].leave()
    pump_until(net, lambda: all(2 in net.cores[p].absent for p in (0, 1)))
    net.crash(1)
    net.run_with_timeouts()
    assert net.cores[0].signed
    v = verify(net.match_file(0))
    assert (v.verdict, v.blamed) == (CLAIMED, ()), v
    assert any("seat 2 left the match for good" in n for n in v.notes), v.notes


@pytest.mark.parametrize("case", ["claimed", "crossed", "false"])
def test_a_claimed_file_reads_alike_in_any_arrival_order(case: str) -> None:
    """The file a peer writes, its messages taken in shuffled orders, ends where the feeds
    taken whole end (the claim's outcome is a function of the feeds)."""
    net = duel_network(b"claim-order-" + case.encode(), forfeit=True)
    peer = 0
    if case == "claimed":
        pump_until(net, lambda: len(net.seats[1].sent) >= 3)
        net.crash(1)
        net.run_with_timeouts()
    elif case == "crossed":
        cut = cut_off(net, 3)
        for m in cut + time_out(net, 0):
            net.deliver(1 - m.seat, m)
        net.pump()
        peer = 1
    else:
        pump_until(net, lambda: net.cores[0].expects(0) is Kind.COMMIT
                   and net.cores[1].expects(0) is Kind.COMMIT)
        net.cores[1].receive(net.seats[0].sign_next(Kind.CLAIM, ClaimBody(
            1, net.cores[1].cursor[1])))
        net.crash(0)
        net.run_with_timeouts()
        peer = 1
    feeds = net.cores[peer].feeds
    whole = MatchCore(net.header)
    whole.adopt(dict(enumerate(feeds)))
    assert whole.signed
    messages = [m for feed in feeds for m in feed.messages]
    for k in range(6):
        core = take_in_order(net.header, shuffled(messages, HashStream(b"claim%d" % k)))
        assert (core.public_digest(), sorted(core.absent), bool(core.signed)) == (
            whole.public_digest(), sorted(whole.absent), True), (case, k)


def test_a_claim_round_trips_in_version_2_only() -> None:
    net = duel_network(b"claim-wire", forfeit=False)
    message = net.seats[0].sign_next(Kind.CLAIM, ClaimBody(1, 7))
    again = Message.decode(message.encode(), 2)
    assert again == message and again.content == ClaimBody(1, 7) and not again.heads
    with pytest.raises(BadMessage, match="CLAIM body has 1 fields, not 2"):
        ClaimBody.from_body((1,))
    with pytest.raises(BadMessage, match="not one of version 1"):
        check_body(Kind.CLAIM, (1, 7), 1)

"""LEAVE (version 2, protocol.md §7.7): a seat leaves the match for good.  It first opens what it
owes, then signs LEAVE; every peer replaces it where its next message is due, with no timeout,
and its zombie plays on — or, below two live seats, the match ends at the floor.  It never
reclaims, and what its feed holds after the LEAVE is stale."""

from __future__ import annotations

import pytest
from protocol.match.core import MatchCore, SeatLeft
from protocol.mesh import Network
from protocol.verify.verdicts import ABANDONED, VALID
from protocol.verify.verifier import verify
from protocol.wire.messages import Kind, LeaveBody, Message, ReclaimBody, sign_message

from benchmarks.scenario import RAIDERS, raiders_network
from protocol.errors import BadMessage, LocalProtocolError
from tests.protocol.mechanisms.test_floor import duel_network, floors

LEAVER = 2


def pump_until(net: Network, done: object, limit: int = 5000) -> None:
    assert callable(done)
    for _ in range(limit):
        if done():
            return
        net.pump(limit=1, partial=True)
    raise AssertionError("never got there")


def whole(net: Network, peer: int) -> MatchCore:
    core = MatchCore(net.header)
    core.adopt(dict(enumerate(net.cores[peer].feeds)))
    return core


@pytest.mark.parametrize("after", [3, 14, 40])
def test_a_seat_that_leaves_is_played_by_its_zombie_without_a_timeout(after: int) -> None:
    net = raiders_network(3, tag=b"leave")
    pump_until(net, lambda: len(net.seats[LEAVER].sent) >= after)
    net.seats[LEAVER].leave()
    net.pump()  # (no clock runs: nobody waits for a timeout)
    leave = [m for m in net.seats[LEAVER].sent if m.kind is Kind.LEAVE]
    assert len(leave) == 1 and net.seats[LEAVER].sent[-1] is leave[0]
    for peer in (0, 1):
        core = net.cores[peer]
        assert core.signed, peer
        absence = core.absent[LEAVER]
        assert absence.left and absence.final and absence.count > leave[0].seq
        assert [e.seat for e in net.events[peer] if isinstance(e, SeatLeft)] == [LEAVER]
        v = verify(net.match_file(peer))
        assert (v.verdict, v.blamed) == (VALID, ()), v
        assert any(n.startswith(f"seat {LEAVER} left the match for good") for n in v.notes)
    assert net.cores[0].public_digest() == net.cores[1].public_digest()
    w = whole(net, 0)
    assert w.signed and w.absent == net.cores[0].absent


def test_a_leaving_seat_first_opens_the_play_it_committed_to() -> None:
    net = raiders_network(3, tag=b"leave-reveal")
    local = net.seats[LEAVER]
    pump_until(net, lambda: local.core.expects(LEAVER) is Kind.REVEAL
               and local.core.feeds[LEAVER].next_seq == len(local.sent))
    local.leave()
    kinds = [m.kind for m in local.messages_to_send()]
    assert kinds == [Kind.REVEAL]
    net.queue.extend(local.sent[-1:])
    net.pump()
    sent = [m.kind for m in local.sent]
    assert sent[-2:] == [Kind.REVEAL, Kind.LEAVE]
    assert net.cores[0].signed and net.cores[0].absent[LEAVER].left


@pytest.mark.parametrize("order", range(4))
def test_every_peer_replaces_the_leaver_at_the_same_point_in_any_arrival_order(
        order: int) -> None:
    net = raiders_network(3, tag=b"leave-order")
    pump_until(net, lambda: len(net.seats[LEAVER].sent) >= 10 + order)
    net.seats[LEAVER].leave()
    net.land_in_flight()  # (what is in flight first: a scrambled pump has inboxes of its own)
    net.pump(scramble=b"leave%d" % order)
    counts = {net.cores[p].absent[LEAVER].count for p in (0, 1)}
    assert len(counts) == 1 and counts == {whole(net, 0).absent[LEAVER].count}
    assert len({net.cores[p].public_digest() for p in (0, 1)}) == 1


@pytest.mark.parametrize(("forfeit", "verdict"), [(False, ABANDONED), (True, VALID)])
def test_a_leave_that_leaves_one_live_seat_ends_the_match_at_the_floor(
        forfeit: bool, verdict: str) -> None:
    net = duel_network(b"leave-duel", forfeit=forfeit)
    pump_until(net, lambda: len(net.seats[1].sent) >= 2)
    net.seats[1].leave()
    net.pump()
    assert net.cores[0].signed
    floor = floors(net, 0)
    assert floor and floor[0].seat == 1 and floor[0].blamed == ()
    v = verify(net.match_file(0))
    assert (v.verdict, v.blamed) == (verdict, ()), v
    if forfeit:
        assert v.winners == (0,)
    assert any("left the match" in n for n in v.notes), v.notes


def test_a_leave_is_final_and_what_follows_it_is_stale() -> None:
    """A modified client that signs a RECLAIM after its LEAVE does not get its seat back."""
    net = raiders_network(3, tag=b"leave-final")
    local = net.seats[LEAVER]
    pump_until(net, lambda: len(local.sent) >= 12)
    local.leave()
    pump_until(net, lambda: all(LEAVER in net.cores[p].absent for p in (0, 1)))
    count = net.cores[0].absent[LEAVER].count
    last = local.sent[-1]
    reclaim = sign_message(local.key, match_id=last.match_id, seat=LEAVER, seq=last.seq + 1,
                           prev=last.hash, kind=Kind.RECLAIM, state=last.state,
                           body=ReclaimBody(count))
    net.queue.append(reclaim)
    net.pump()
    for peer in (0, 1):
        core = net.cores[peer]
        assert core.signed and LEAVER in core.absent and not core.seats.reclaims
        assert reclaim in core.stale
        assert verify(net.match_file(peer)).verdict == VALID


def test_a_replaced_seat_that_leaves_never_reclaims() -> None:
    net = raiders_network(3, tag=b"leave-replaced")
    core = net.cores[0]
    core.seats.replace(LEAVER, core.cursor[LEAVER], "absent: test", final=False)
    core.seats.on_leave(LEAVER, core.cursor[LEAVER])
    absence = core.absent[LEAVER]
    assert absence.final and absence.left


def test_version_1_has_no_leave() -> None:
    v1 = Network(3, RAIDERS, b"leave-v1", version=1)
    with pytest.raises(LocalProtocolError):
        v1.seats[0].leave()
    with pytest.raises(LocalProtocolError, match="not one of version 1"):
        sign_message(v1.seats[0].key, match_id=v1.cores[0].match_id, seat=0, seq=0,
                     prev=v1.cores[0].match_id, kind=Kind.LEAVE, state=bytes(32),
                     body=LeaveBody(), version=1)
    match_id = v1.cores[0].match_id
    with pytest.raises(BadMessage, match="not one of version 1"):  # (as read off the wire)
        Message(version=1, match_id=match_id, seat=0, seq=0, prev=match_id, kind=Kind.LEAVE,
                state=bytes(32), body=(), sig=bytes(64))


def test_a_leave_round_trips_and_its_body_is_empty() -> None:
    net = raiders_network(3, tag=b"leave-wire")
    local = net.seats[0]
    message = local.sign_next(Kind.LEAVE, LeaveBody())
    again = Message.decode(message.encode(), 2)
    assert again == message and again.kind is Kind.LEAVE and again.body == ()
    assert isinstance(again.content, LeaveBody) and not again.heads
    with pytest.raises(BadMessage, match="LEAVE body has 1 fields, not 0"):
        LeaveBody.from_body((1,))

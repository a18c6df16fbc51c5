"""RESIGN (version 2, protocol.md §7.7): a seat resigns.  It is consumed in its feed's order like
a LEAVE; where the seat's next message is due, the game's resignation rule applies (in a
two-sided game the seat loses; in a free-for-all it is out and the others play on), and the seat
leaves for good there.  In a game without a resignation rule it is a LEAVE.  After the game is
over it is a stale note."""

from __future__ import annotations

import pytest
from protocol.match.core import SeatLeft
from protocol.mesh import Network
from protocol.verify.verdicts import ABANDONED, VALID
from protocol.verify.verifier import verify
from protocol.wire.messages import Kind, Message, ResignBody

from benchmarks.scenario import RAIDERS, raiders_network
from engine.core import Over
from protocol.errors import BadMessage, LocalProtocolError
from tests.protocol.duel import Duel
from tests.protocol.mechanisms.test_floor import duel_network, floors
from tests.protocol.mechanisms.test_leave import pump_until, whole


def resign_after(net: Network, seat: int, messages: int) -> None:
    pump_until(net, lambda: len(net.seats[seat].sent) >= messages)
    net.seats[seat].leave(resign=True)


@pytest.mark.parametrize("after", [1, 4, 8])
def test_a_resign_in_a_two_seat_game_loses_it(after: int) -> None:
    net = duel_network(b"resign-duel", forfeit=True)
    resign_after(net, 1, after)
    net.pump()  # (no clock runs: nobody waits out a timeout)
    assert [m.kind for m in net.seats[1].sent][-1] is Kind.RESIGN
    core = net.cores[0]
    assert core.signed and isinstance(core.state.waiting, Over)
    assert core.state.waiting.outcome.winners == frozenset({0})
    assert isinstance(core.state, Duel) and core.state.out == frozenset({1})
    assert [e.resigned for e in net.events[0] if isinstance(e, SeatLeft)] == [True]
    assert floors(net, 0)[0].seat == 1 and floors(net, 0)[0].blamed == ()
    v = verify(net.match_file(0))
    assert (v.verdict, v.blamed, v.winners) == (VALID, (), (0,)), v
    assert any(n.startswith("seat 1 resigned and left the match for good") for n in v.notes)
    assert any("resigned (its RESIGN is its message" in n for n in v.notes), v.notes


def test_a_resign_in_a_free_for_all_puts_the_seat_out_and_the_others_play_on() -> None:
    net = duel_network(b"resign-three", forfeit=True, players=3)
    resign_after(net, 2, 3)
    net.pump()
    for peer in (0, 1):
        core = net.cores[peer]
        assert core.signed and isinstance(core.state, Duel)
        assert core.state.out == frozenset({2}) and core.state.stage == 5, core.state
        assert not floors(net, peer)
        v = verify(net.match_file(peer))
        assert (v.verdict, v.blamed) == (VALID, ()), v
    assert net.cores[0].public_digest() == net.cores[1].public_digest()
    assert whole(net, 0).public_digest() == net.cores[0].public_digest()


@pytest.mark.parametrize("order", range(4))
def test_every_peer_applies_the_resignation_at_the_same_point_in_any_arrival_order(
        order: int) -> None:
    net = duel_network(b"resign-order", forfeit=True, players=3)
    resign_after(net, 1, 2 + order)
    net.land_in_flight()  # (what is in flight first: a scrambled pump has inboxes of its own)
    net.pump(scramble=b"resign%d" % order)
    assert len({net.cores[p].public_digest() for p in (0, 2)}) == 1
    assert net.cores[0].absent[1].count == net.cores[2].absent[1].count
    assert whole(net, 0).public_digest() == net.cores[0].public_digest()


def test_a_resign_that_leaves_one_live_seat_ends_the_match_at_the_floor() -> None:
    """Without a forfeit result the match is abandoned (nobody blamed), as after a LEAVE."""
    net = duel_network(b"resign-none", forfeit=False)
    resign_after(net, 1, 2)
    net.pump()
    assert net.cores[0].signed and net.cores[0].ending.abandoned
    v = verify(net.match_file(0))
    assert (v.verdict, v.blamed) == (ABANDONED, ()), v
    assert any(n.startswith("seat 1 resigned and left") for n in v.notes), v.notes


def test_without_a_resignation_rule_a_resign_is_a_leave() -> None:
    """Dungeon Raiders has no resignation: the seat's zombie plays it, and the file says so."""
    net = raiders_network(3, tag=b"resign-raiders")
    resign_after(net, 2, 10)
    net.pump()
    for peer in (0, 1):
        assert net.cores[peer].signed and net.cores[peer].absent[2].left
        v = verify(net.match_file(peer))
        assert (v.verdict, v.blamed) == (VALID, ()), v
        assert any(n.startswith("seat 2 was not resigned (resigning is not part of raiders)")
                   for n in v.notes), v.notes
    assert net.cores[0].public_digest() == net.cores[1].public_digest()


def test_a_resign_after_the_game_is_over_is_a_stale_note() -> None:
    net = duel_network(b"resign-late", forfeit=True)
    pump_until(net, lambda: net.cores[1].ending.ended)
    local = net.seats[1]
    assert all(m.kind is not Kind.END for m in local.sent)
    late = local.sign_next(Kind.RESIGN, ResignBody())  # (a modified client: the game is over)
    net.queue.append(late)
    net.pump()
    assert local.sent[-1].kind is Kind.END and local.sent[-2] is late
    for core in net.cores:
        assert core.signed and late in core.stale and 1 not in core.absent
        assert core.state.waiting.outcome.winners == frozenset({0})  # type: ignore[union-attr]
    assert verify(net.match_file(0)).verdict == VALID


def test_a_resign_round_trips_in_version_2_only() -> None:
    net = raiders_network(3, tag=b"resign-wire")
    message = net.seats[0].sign_next(Kind.RESIGN, ResignBody())
    again = Message.decode(message.encode(), 2)
    assert again == message and isinstance(again.content, ResignBody) and again.body == ()
    with pytest.raises(BadMessage, match="RESIGN body has 1 fields, not 0"):
        ResignBody.from_body((1,))
    v1 = Network(3, RAIDERS, b"resign-v1", version=1)
    with pytest.raises(LocalProtocolError):
        v1.seats[0].leave(resign=True)
    match_id = v1.cores[0].match_id
    with pytest.raises(BadMessage, match="not one of version 1"):
        Message(version=1, match_id=match_id, seat=0, seq=0, prev=match_id, kind=Kind.RESIGN,
                state=bytes(32), body=(), sig=bytes(64))

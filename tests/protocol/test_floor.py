"""The floor (protocol.md §7.7): a match plays on only while two seats are live.  A replacement
that leaves fewer ends the match where it happens — with the game's forfeit result where it has
one, otherwise abandoned — and the seat left signs the END round, so the file reads ``valid``
(the forfeit) or ``abandoned`` (exit 7), naming the seat replaced and, for misbehaviour, blaming
it.  Version 1 files keep their old verdicts."""

from __future__ import annotations

from typing import Any

import pytest
from protocol.match.core import FloorReached, PeerMisbehaved, ResultSigned
from protocol.mesh import MeshGame, Network
from protocol.verify.copies import verify_copies
from protocol.verify.verdicts import ABANDONED, EXIT_CODES, INVALID, VALID
from protocol.verify.verifier import verify
from protocol.wire.header import PROTOCOL_VERSION
from protocol.wire.messages import ActBody, CommitBody, EndBody, Kind, Message, RevealBody

from benchmarks.scenario import raiders_network
from engine.core import Over
from tests.protocol import duel, toy
from tests.protocol.match.test_match import rewrite_once


def duel_network(tag: bytes, *, forfeit: bool, players: int = 2,
                 version: int = PROTOCOL_VERSION) -> Network:
    return Network(players, MeshGame(duel.GAME, (("forfeit", forfeit),)), tag, version=version)


def bad_reveal(net: Network, seat: int, step: str = "s1") -> None:
    """``seat`` signs a REVEAL of ``step`` whose salt opens nothing it committed to (a direct
    reveal: its commitment set then names another commitment than its own)."""
    def make(message: Message) -> tuple[Kind, Any]:
        body = message.content
        assert isinstance(body, RevealBody)
        salt = bytes(b ^ 0xFF for b in body.salt)
        return Kind.REVEAL, RevealBody(body.step, body.action, salt, body.commit_set,
                                       body.chance, body.chance_set)
    rewrite_once(net, seat, lambda m: isinstance(m.content, RevealBody)
                 and m.content.step == step, make)


def illegal_act(net: Network, seat: int) -> None:
    """``seat`` takes an action the rules refuse at its turn."""
    rewrite_once(net, seat, lambda m: m.kind is Kind.ACT,
                 lambda m: (Kind.ACT, ActBody(m.content.step, "y")))


def floors(net: Network, peer: int) -> list[FloorReached]:
    return [e for e in net.events[peer] if isinstance(e, FloorReached)]


def signed(net: Network, peer: int) -> list[ResultSigned]:
    return [e for e in net.events[peer] if isinstance(e, ResultSigned)]


@pytest.mark.parametrize("cheat", ["reveal", "act"])
def test_a_cheat_in_a_two_seat_match_without_a_forfeit_abandons_it(cheat: str) -> None:
    """Today the honest seat played on alone against the cheat's zombie, knowing every draw;
    now the match ends where the cheat is caught, the honest seat signs the state it stopped
    in, and the file reads abandoned, blaming the cheat."""
    net = duel_network(b"floor-" + cheat.encode(), forfeit=False)
    culprit, honest = (1, 0) if cheat == "reveal" else (0, 1)
    if cheat == "reveal":
        bad_reveal(net, culprit)
    else:
        illegal_act(net, culprit)
    net.pump()
    core = net.cores[honest]
    (floor,) = floors(net, honest)
    assert (floor.seat, floor.blamed, floor.live) == (culprit, (culprit,), (honest,))
    (result,) = signed(net, honest)
    assert result.abandoned and result.winners == ()
    assert core.signed and set(core.end_signatures) == {honest}
    assert not isinstance(core.state.waiting, Over)  # stopped where the cheat was caught
    assert [e.seat for e in net.events[honest] if isinstance(e, PeerMisbehaved)] == [culprit]
    v = verify(net.match_file(honest))
    assert (v.verdict, v.reason_code, v.blamed) == (ABANDONED, "abandoned", (culprit,))
    assert v.exit_code == EXIT_CODES[ABANDONED] == 7
    assert v.record is not None and v.record >= 2  # the cheat's message
    assert any(f"seat {culprit} was replaced" in n for n in v.notes), v.notes
    assert f"seat {culprit}" in v.reason and "abandoned" in v.reason


def test_a_cheat_in_a_two_seat_match_forfeits_where_the_game_has_a_forfeit() -> None:
    net = duel_network(b"floor-forfeit", forfeit=True)
    bad_reveal(net, 1)
    net.pump()
    core = net.cores[0]
    (floor,) = floors(net, 0)
    assert (floor.seat, floor.blamed) == (1, (1,))
    assert isinstance(core.state.waiting, Over)
    assert core.state.waiting.outcome.winners == frozenset({0})
    (result,) = signed(net, 0)
    assert not result.abandoned and result.winners == (0,)
    v = verify(net.match_file(0))
    assert (v.verdict, v.reason_code, v.winners, v.blamed) == (VALID, "result_signed", (0,), (1,))
    assert v.exit_code == 0
    assert any("forfeit" in n and "seat 1" in n for n in v.notes), v.notes


def test_two_seats_replaced_in_a_three_seat_raiders_match_abandon_it() -> None:
    """Seat 2 goes silent from the start and is voted out (two seats stay live: play goes on,
    its zombie playing); then seat 1 cheats: one live seat would be left, and Dungeon Raiders
    has no forfeit, so the match ends abandoned — the file names both seats replaced."""
    net = raiders_network(3, tag=b"floor-raiders")
    net.crash(2)
    bad_reveal(net, 1, "L1.R1.play")
    net.run_with_timeouts()
    core = net.cores[0]
    (floor,) = floors(net, 0)
    assert (floor.seat, floor.blamed, floor.live) == (1, (1,), (0,))
    assert set(core.absent) == {1, 2} and not core.absent[2].final
    assert core.signed and set(core.end_signatures) == {0}
    v = verify(net.match_file(0))
    assert (v.verdict, v.reason_code, v.blamed) == (ABANDONED, "abandoned", (1,))
    assert any("seat 2 was replaced" in n and "absent" in n for n in v.notes), v.notes
    assert any("seat 1 was replaced" in n for n in v.notes), v.notes


def test_version_1_keeps_the_old_rule() -> None:
    """A version 1 match plays on with one live seat, and its file reads as it always did:
    invalid, blaming the cheat."""
    net = duel_network(b"floor-v1", forfeit=True, version=1)
    bad_reveal(net, 1)
    net.pump()
    assert not floors(net, 0)
    assert isinstance(net.cores[0].state.waiting, Over)
    assert net.cores[0].state.waiting.outcome.winners == frozenset({0})  # played to the end
    v = verify(net.match_file(0))
    assert (v.verdict, v.blamed) == (INVALID, (1,))


def test_a_three_seat_match_with_one_seat_replaced_plays_on() -> None:
    """Two live seats are enough: one cheat in a three-seat duel is replaced, and the other two
    play on to the end.  Its reveal did not open the play it had committed to, so it withheld
    that play: it forfeits where the step settles (protocol.md §7.7), and the toy duel's
    forfeit names the result."""
    net = duel_network(b"floor-three", forfeit=True, players=3)
    bad_reveal(net, 2)
    net.pump()
    assert not floors(net, 0)
    core = net.cores[0]
    assert isinstance(core.state.waiting, Over) and set(core.end_signatures) == {0, 1}
    assert 2 in core.seats.withholders
    assert core.state.waiting.outcome.reason == "forfeit"


@pytest.mark.parametrize(("cheat", "culprit"), [("reveal", 0), ("reveal", 1), ("act", 0)])
@pytest.mark.parametrize("seed", range(8))
def test_the_end_at_the_floor_does_not_depend_on_arrival_order(cheat: str, culprit: int,
                                                               seed: int) -> None:
    """Whether the honest seat's own messages came in before or after the cheat's (its reveal,
    or its END before the cheat's message was taken), its peer signs the end the verifier
    computes from the file, and the honest seat is never blamed."""
    net = duel_network(b"floor-order", forfeit=seed % 2 == 1)
    if cheat == "reveal":
        bad_reveal(net, culprit, "s1" if seed < 4 else "s2")
    else:
        illegal_act(net, culprit)  # (seat 0 alone has a turn)
    net.pump(scramble=b"order%d" % seed)
    honest = 1 - culprit
    assert net.cores[honest].signed
    v = verify(net.match_file(honest))
    assert v.blamed == (culprit,), v
    assert v.verdict == (VALID if seed % 2 else ABANDONED), v


@pytest.mark.parametrize("seed", range(3))
def test_raiders_floor_in_any_arrival_order(seed: int) -> None:
    net = raiders_network(3, tag=b"floor-raiders-order")
    net.crash(2)
    bad_reveal(net, seed % 2, "L1.R2.play")
    net.run_with_timeouts(scramble=b"r%d" % seed)
    honest = 1 - seed % 2
    assert net.cores[honest].signed
    v = verify(net.match_file(honest))
    assert (v.verdict, v.blamed) == (ABANDONED, (seed % 2,)), v


def test_at_the_floor_the_live_seat_publishes_its_round_key_before_its_end() -> None:
    """Every open round becomes due at the floor, as at any end: the seat left publishes its
    private-knowledge key (so its deliveries can be checked), then signs the END."""
    m = toy.dealt(owed=True)
    m.key()
    toy.digested(m)
    m.deliver(1)
    m.send(1, CommitBody("zz", bytes(32)), fault=True)  # replaced: two seats stay live
    assert m.core.ending.floor is None
    m.send(2, CommitBody("zz", bytes(32)), fault=True)  # replaced before delivering
    assert m.core.ending.floor is not None and m.core.ending.abandoned
    assert m.expects() == [Kind.KEY_RELEASE, None, None]
    m.release()
    assert m.expects() == [Kind.END, None, None]
    final = m.core.final
    assert final is not None and final.winners == ()
    m.send(0, EndBody(final.digest, m.core.ending.end_transcript()))
    assert m.core.signed and isinstance(m.events[-1], ResultSigned) and m.events[-1].abandoned


def test_at_the_floor_a_round_not_keyed_yet_is_owed_nothing_more() -> None:
    """Seat 0 looked (a free action: its private-knowledge round opens, its SEAL_KEY owed) when
    the other two are replaced: it owes its END alone — a SEAL_KEY now would be stale, and it
    would be owed again and again."""
    m = toy.dealt(owed=False)
    toy.digested(m)
    m.send(0, ActBody("s1", "look"))
    assert m.expects() == [Kind.SEAL_KEY, Kind.COMMIT, Kind.COMMIT]
    m.send(1, CommitBody("zz", bytes(32)), fault=True)
    m.send(2, CommitBody("zz", bytes(32)), fault=True)
    assert m.core.ending.floor is not None and m.core.ending.abandoned
    assert m.expects() == [Kind.END, None, None]
    final = m.core.final
    assert final is not None
    m.send(0, EndBody(final.digest, m.core.ending.end_transcript()))
    assert m.core.signed


@pytest.mark.parametrize("forfeit", [False, True])
def test_both_copies_of_a_match_ended_at_the_floor_agree(forfeit: bool) -> None:
    net = duel_network(b"floor-copies", forfeit=forfeit)
    bad_reveal(net, 1)
    net.pump()
    v = verify_copies([net.match_file(0), net.match_file(1)])
    assert (v.verdict, v.blamed) == ((VALID if forfeit else ABANDONED), (1,))
    assert [c.verdict.verdict for c in v.copies] == [v.verdict] * 2

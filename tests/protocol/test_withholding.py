"""Withholding forfeits (version 2, protocol.md §7.7; issue 26): a seat replaced while it
withholds an opening whose result it could know — its REVEAL after it committed (every other
decider then reveals to it), or its secret of a chance event that was due or that a
private-knowledge round showed it — forfeits at its first decision from there (Raiders keeps the
seat in play: it may reclaim, and cannot win).  A seat replaced before it committed saw
nothing: it does not forfeit."""

from __future__ import annotations

from typing import Any

import pytest
from protocol.match.events import SeatForfeited, SeatReclaimed
from protocol.mechanisms.absence import Seats
from protocol.mesh import Network, random_decider
from protocol.verify.verdicts import VALID
from protocol.verify.verifier import verify
from protocol.wire.messages import Kind, Message, ReclaimBody

from benchmarks.scenario import raiders_network
from engine.core import Over
from engine.raiders import PEEK
from tests.protocol.mechanisms.test_leave import whole
from tests.protocol.mechanisms.test_votes import crossed
from tests.vectors.making import silence


def _first_play(m: Message) -> bool:
    return m.kind is Kind.REVEAL and ".play" in m.content.step  # type: ignore[union-attr]


def _outcome(net: Network, peer: int) -> Any:
    w = net.cores[peer].state.waiting
    assert isinstance(w, Over), w
    return w.outcome


def _forfeit_notes(notes: tuple[str, ...] | list[str], seat: int) -> list[str]:
    return [n for n in notes if n.startswith(f"seat {seat} forfeited")]


@pytest.mark.parametrize("scramble", [None, b"w1", b"w2"])
def test_a_seat_that_withholds_its_reveal_after_committing_forfeits(
        scramble: bytes | None) -> None:
    net = raiders_network(4, tag=b"withhold-reveal")
    withheld = silence(net, 3, _first_play)
    net.run_with_timeouts(scramble=scramble)
    assert withheld and withheld[0].kind is Kind.REVEAL
    step = withheld[0].content.step  # type: ignore[union-attr]
    for peer in range(3):
        core = net.cores[peer]
        assert core.signed
        assert 3 in core.absent and 3 in core.seats.withholders
        outcome = _outcome(net, peer)
        assert 3 not in outcome.winners and outcome.winners
        assert outcome.standings[3].status == "forfeited"
        v = verify(net.match_file(peer))
        assert (v.verdict, v.blamed) == (VALID, ()), v
        assert _forfeit_notes(v.notes, 3) == [
            f"seat 3 forfeited where it was to decide: it withheld its REVEAL of {step}"]
    assert len({net.cores[p].public_digest() for p in range(3)}) == 1
    assert whole(net, 0).public_digest() == net.cores[0].public_digest()
    forfeits = [e for e in net.events[0] if isinstance(e, SeatForfeited)]
    assert forfeits == [SeatForfeited(3, f"its REVEAL of {step}")]


def test_a_seat_silent_before_it_commits_is_replaced_but_does_not_forfeit() -> None:
    net = raiders_network(4, tag=b"withhold-none")
    silence(net, 3, lambda m: m.kind is Kind.COMMIT)
    net.run_with_timeouts()
    core = net.cores[0]
    assert core.signed and 3 in core.absent and 3 not in core.seats.withholders
    outcome = _outcome(net, 0)
    assert outcome.standings[3].status != "forfeited"
    v = verify(net.match_file(0))
    assert v.verdict == VALID and not _forfeit_notes(v.notes, 3), v.notes


@pytest.mark.parametrize(("variant", "scramble"), [
    ("basic", None), ("basic", b"c1"), ("basic", b"c2"), ("basic", b"c3"),
    ("tactical", None), ("tactical", b"c4")])
def test_a_seat_that_withholds_a_due_chance_secret_forfeits(variant: str,
                                                            scramble: bytes | None) -> None:
    """Judged from the feeds when the re-draw's commitments close, so every peer finds it
    alike in any arrival order (the engine state at the replacement would not be); in the
    tactical variant the seat forfeits at its next turn."""
    net = raiders_network(4, variant, tag=b"withhold-chance")
    withheld = silence(net, 3, lambda m: m.kind is Kind.CHANCE_REVEAL)
    net.run_with_timeouts(scramble=scramble)
    assert withheld
    event = withheld[0].content.secrets[0][0]  # type: ignore[union-attr]
    for peer in range(3):
        core = net.cores[peer]
        assert core.signed and 3 in core.seats.withholders
        assert _outcome(net, peer).standings[3].status == "forfeited"
        v = verify(net.match_file(peer))
        assert v.verdict == VALID, v
        assert _forfeit_notes(v.notes, 3) == [
            f"seat 3 forfeited where it was to decide: it withheld its secret of {event} "
            "(every other secret of it was revealed first)"]
        assert any(n.startswith(f"{event} drawn again as {event}~1") for n in v.notes)
    assert len({net.cores[p].public_digest() for p in range(3)}) == 1
    assert whole(net, 0).public_digest() == net.cores[0].public_digest()


@pytest.mark.parametrize("variant", ["basic", "tactical"])
def test_a_withholder_whose_link_comes_back_reclaims_and_plays_on_but_cannot_win(
        variant: str) -> None:
    """Raiders keeps a forfeited seat in play.  In tests/protocol/mechanisms/test_votes.py's crossed votes,
    seat 2's messages stall while the others' get through: the others reveal a face-up room's
    secrets, seat 2's reveal is held, and seat 2 is replaced — it withheld.  When its links
    come back it reclaims, forfeits at its first decision since, and plays its own cards to
    the end, unable to win (tactical: at its first turn, live again)."""
    net = crossed(variant=variant)
    for i in range(3):
        net.run_clock(i)
    net.run_with_timeouts(limit=8)
    for peer in range(3):
        core = net.cores[peer]
        assert core.signed and 2 in core.seats.withholders and 2 not in core.absent
        assert any(isinstance(e, SeatReclaimed) and e.seat == 2 for e in net.events[peer])
        assert _outcome(net, peer).standings[2].status == "forfeited"
    v = verify(net.match_file(0))
    assert v.verdict == VALID, v
    (note,) = _forfeit_notes(v.notes, 2)
    assert note.startswith("seat 2 forfeited where it was to decide: it withheld its secret of "
                           "L1.R") and note.endswith("(every other secret of it was revealed "
                                                     "first)"), note
    assert any(n.startswith("seat 2 reclaimed") for n in v.notes), v.notes


def test_a_withholder_may_reclaim_and_forfeits_once() -> None:
    seats = Seats(3, lambda e: None, withholding_forfeits=True)
    seats.replace(2, 7, "silent", final=False)
    seats.withheld(2, "its REVEAL of L1.R1.play")
    seats.withheld(2, "its secret of L1.R2 (every other secret of it was revealed first)")
    assert seats.to_forfeit == {2: "its REVEAL of L1.R1.play"}
    assert not seats.absent[2].final
    assert seats.on_replaced_seat_message(2, ReclaimBody(7)) == "reclaim"


def test_version_1_has_no_withholding_forfeit() -> None:
    seats = Seats(3, lambda e: None)
    seats.replace(2, 7, "silent", final=False)
    seats.withheld(2, "its REVEAL of L1.R1.play")
    assert not seats.absent[2].final and not seats.to_forfeit


@pytest.mark.parametrize("scramble", [None, b"t1", b"t2"])
def test_a_seat_that_looked_with_its_torch_and_walks_away_forfeits(
        scramble: bytes | None) -> None:
    """A torch user learns a face-down room before anyone (its private-knowledge round
    complete), then goes silent: the room is drawn again without its secret, and — every
    deliverer having sent its delivery before it committed to the re-draw — the seat withheld
    a room shown to it."""
    random = random_decider(b"torch")

    def peeker(state: Any, seat: int) -> str:
        if seat == 3 and PEEK in state.legal_actions(seat):
            return str(state.format_action(PEEK))
        return random(state, seat)
    net = raiders_network(4, tag=b"withhold-torch10", deciders=[peeker] * 4)  # (3 has a torch)
    local = net.seats[3]

    def after_look(m: Message) -> bool:  # (its round's room not turned yet: no key released)
        kinds = [s.kind for s in local.sent]
        return m.kind in (Kind.COMMIT, Kind.REVEAL) and Kind.SEAL_KEY in kinds and (
            Kind.KEY_RELEASE not in kinds[kinds.index(Kind.SEAL_KEY):])
    withheld = silence(net, 3, after_look)
    net.run_with_timeouts(scramble=scramble)
    assert withheld, "seat 3 never looked"
    for peer in range(3):
        v = verify(net.match_file(peer))
        assert v.verdict == VALID, v
        notes = _forfeit_notes(v.notes, 3)
        assert len(notes) == 1 and notes[0].endswith(
            "(shown to it in a private-knowledge round)"), notes
        assert _outcome(net, peer).standings[3].status == "forfeited"
    assert len({net.cores[p].public_digest() for p in range(3)}) == 1

"""Issue 46: one copy never names an honest seat alone where a seat's departure (its LEAVE or
RESIGN) was taken before another seat's message that was signed without seeing it.

The three files of the tamper benchmark (``python -m benchmarks tamper``) that named only honest
seats, built again from their bases (benchmarks/tampering: each base and each tampered copy is
the same bytes on every run):

* ``edit/LEAVE`` on ``kards-023-leave``: seat 0 turns its LEAVE into a RESIGN and signs the rest
  again.  The resignation moves the anchor (a new turn), so seat 1's pool commitment, signed
  before it saw the departure, names seat 3's message 11 where the anchor now names its message
  12 — that read as seat 1's fault (``heads_out_of_place``).  It is a dispute with the seat that
  left (protocol.md §7.10 item 5).
* ``heads/own-other`` on the same base: seat 1 names its own message 1 in place of its message
  11 — a proof, passed over because the match ended at the floor; then an honest seat's message
  signed before the departure read ``state_disputed`` without seat 1.  The first proof gives
  the verdict (§9.2 item 4).
* ``insert/LEAVE`` on ``kards-039-resign``: seat 0 inserts a LEAVE; its departure burns pool slots,
  so the pool batch is owed at once, and seat 1's CHANCE_COMMIT of the die's event, signed
  before it saw the departure, lacks the pool slots — that read as seat 1's fault
  (``unexpected_message``).  The state it is refused in rests on the departure it does not
  name: ``state_disputed`` (§9.2 item 4b)."""

from __future__ import annotations

from functools import cache

import pytest

from benchmarks.tampering.bases import Base, base
from benchmarks.tampering.mutators import Mutant, mutants
from protocol.match.core import HeadsDisputed, MatchCore, PeerMisbehaved
from protocol.verify.verdicts import Verdict
from protocol.verify.verifier import verify
from protocol.wire.transcript import read_transcript


@cache
def base_of(game: str, index: int) -> Base:
    return base(game, index)


def tampered(game: str, index: int, cls: str) -> Mutant:
    (mutant,) = mutants(base_of(game, index), [cls])
    return mutant


def named(v: Verdict) -> set[int]:
    return set(v.blamed) | ({v.dispute.seat, *v.dispute.others} if v.dispute else set())


CASES = [
    # (game, base, class, liar, verdict, reason code, blamed)
    ("kards", 23, "edit/LEAVE", 0, "disputed", "heads_disputed", (0, 1)),
    ("kards", 23, "heads/own-other", 1, "invalid", "heads_out_of_place", (1,)),
    ("kards", 39, "insert/LEAVE", 0, "disputed", "state_disputed", (0, 1)),
]


@pytest.mark.parametrize(("game", "index", "cls", "liar", "verdict", "code", "blamed"), CASES,
                         ids=[f"{g}-{i:03d}-{c}" for g, i, c, *_ in CASES])
def test_a_departure_another_seat_did_not_see_names_the_liar(
        game: str, index: int, cls: str, liar: int, verdict: str, code: str,
        blamed: tuple[int, ...]) -> None:
    mutant = tampered(game, index, cls)
    assert mutant.liar == liar, mutant.detail
    v = verify(mutant.data)
    assert (v.verdict, v.reason_code, v.blamed) == (verdict, code, blamed), (mutant.detail, v)
    assert liar in named(v)


def test_a_message_signed_before_a_departure_that_moved_the_anchor_waits_on_a_live_peer() -> None:
    """The rule is the peers' (the verifier replays the feeds through the same core): a peer
    holding the edited feeds does not replace seat 1 for its heads — it reports a dispute with
    the seat that left, naming the departure it holds there, and seat 1's message waits."""
    mutant = tampered("kards", 23, "edit/LEAVE")
    t = read_transcript(mutant.data)
    assert t.header is not None
    core = MatchCore(t.header)
    events = core.adopt(t.feeds)
    assert not any(isinstance(e, PeerMisbehaved) and e.seat == 1 for e in events)
    dispute = next(e for e in events if isinstance(e, HeadsDisputed) and e.seat == 1)
    assert dispute.other == 0 and not dispute.replaced
    assert [m.kind.name for m in dispute.held] == ["RESIGN"]
    assert core.cursor[1] == dispute.message.seq  # (it waits)


def test_a_message_naming_its_own_feed_out_of_place_is_still_a_fault_after_a_departure(
        ) -> None:
    """Where the departure did not move the anchor, nothing excuses an entry out of place: seat
    1, naming its own message 1 for itself, misbehaves on every peer."""
    mutant = tampered("kards", 23, "heads/own-other")
    t = read_transcript(mutant.data)
    assert t.header is not None
    events = MatchCore(t.header).adopt(t.feeds)
    first = next(e for e in events if isinstance(e, PeerMisbehaved | HeadsDisputed))
    assert isinstance(first, PeerMisbehaved) and first.seat == 1, first

"""The transition table (protocol/match/table.py): every row's predicate belongs to the mechanism the
row names, the ``gated`` and ``decision`` columns hold where the table says and are what the
match core enforces, and docs/protocol.md shows the table :func:`describe_transitions` makes.

The core's enforcement is seen through its public ``expects`` and ``accepts``, on the toy game
of tests/protocol/toy.py driven with signed messages — no mesh, no local seat."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pytest
from protocol.match.events import ResultSigned
from protocol.match.table import (
    ANY,
    OVERLAY,
    PHASE_ROWS,
    PHASES,
    ROWS_IN,
    ROWS_OWING_IN,
    SIMULTANEOUS,
    TRANSITIONS,
    TURN,
    describe_transitions,
)
from protocol.mechanisms.absence import Seats
from protocol.mechanisms.agreements import Agreements
from protocol.mechanisms.chance import Chance as ChanceMechanism
from protocol.mechanisms.deals import Decks
from protocol.mechanisms.ending import Ending
from protocol.mechanisms.knowledge import KnowledgeRounds, round_private
from protocol.mechanisms.sealed import Sealed
from protocol.mechanisms.steps import Steps
from protocol.mechanisms.votes import Votes
from protocol.wire.messages import CORE_KINDS, ActBody, CommitBody, EndBody, KeyReleaseBody, Kind

from tests.protocol.toy import dealt, digested

DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
MECHANISMS = {Seats, ChanceMechanism, KnowledgeRounds, Steps, Votes, Ending, Agreements, Sealed,
              Decks}


# --------------------------------------------------------------------------- the table as data


@pytest.mark.parametrize("row", TRANSITIONS,
                         ids=[f"{t.phase}-{t.expect.name}" for t in TRANSITIONS])
def test_every_row_asks_a_predicate_of_the_mechanism_it_names(row: Any) -> None:
    assert row.owner in MECHANISMS
    assert getattr(row.owner, row.when.__name__) is row.when
    assert row.when.__qualname__ == f"{row.owner.__name__}.{row.when.__name__}"
    assert list(inspect.signature(row.when).parameters) == ["self", "seat"]


def test_the_overlay_is_owed_in_any_phase_and_the_rest_in_their_own() -> None:
    for row in TRANSITIONS:
        assert (row.phase == ANY) == (row.expect in OVERLAY), row
        assert row.phase in (ANY, *PHASES)
    assert set(Kind) == CORE_KINDS | OVERLAY
    assert not CORE_KINDS & OVERLAY
    # Every kind a live seat can owe has a row (a RECLAIM is a replaced seat's own asking; a
    # LEAVE, a RESIGN, a CLAIM, an OFFER or a RESUME a seat's own act, never owed).
    assert {row.expect for row in TRANSITIONS} == set(Kind) - {
        Kind.RECLAIM, Kind.LEAVE, Kind.CLAIM, Kind.RESIGN, Kind.OFFER, Kind.RESUME}
    assert all(PHASE_ROWS[phase] for phase in PHASES)


def test_the_phase_rows_are_gated_and_the_decisions_wait_for_completion() -> None:
    for row in TRANSITIONS:
        assert row.gated == (row.phase != ANY), row
        assert row.decision == (row.expect in (Kind.COMMIT, Kind.ACT)), row
        assert row.gated or not row.decision


def test_the_rows_of_each_phase_keep_the_tables_order() -> None:
    for phase in PHASES:
        rows = ROWS_IN[phase]
        assert rows == tuple(t for t in TRANSITIONS if t.phase in (phase, ANY))
        assert PHASE_ROWS[phase] == tuple(t for t in rows if t.phase == phase)
        for kind in Kind:
            assert ROWS_OWING_IN[phase][kind] == tuple(t for t in rows if t.expect is kind)
    # The private-knowledge round comes first; votes last.
    assert [t.expect for t in TRANSITIONS[:2]] == [Kind.SEAL_KEY, Kind.KEY_RELEASE]
    assert TRANSITIONS[-1].expect is Kind.ABSENT


def test_the_docs_show_the_table() -> None:
    described = describe_transitions()
    lines = described.splitlines()
    assert len(lines) == len(TRANSITIONS) + 2
    for row, line in zip(TRANSITIONS, lines[2:], strict=True):
        waits = {(True, True): "key and release, and completion",
                 (True, False): "key and release", (False, False): ""}[(row.gated, row.decision)]
        assert line == (f"| {row.phase} | {row.condition} | {row.expect.name} | {waits} "
                        f"| {row.then} |")
    assert described in DOCS.read_text(encoding="utf-8"), (
        "docs/protocol.md must show the table describe_transitions() generates")


# --------------------------------------------------------------------------- the columns, enforced


def test_a_seat_that_owes_its_round_a_key_owes_nothing_gated_before() -> None:
    m = dealt(owed=True)
    assert m.core.knowledge.owes_key(0)
    assert m.expects() == [Kind.SEAL_KEY, Kind.CHANCE_DIGEST, Kind.CHANCE_DIGEST]
    assert m.core.chance.owes_digest(0)  # the digest row's own predicate holds ...
    assert not m.core.accepts(0, Kind.CHANCE_DIGEST)  # ... the gated column stops it
    assert m.core.accepts(1, Kind.CHANCE_DIGEST)
    assert not m.core.accepts(1, Kind.DELIVERY)  # (no key to seal to yet)


def test_an_incomplete_round_holds_its_seats_decisions_only() -> None:
    m = dealt(owed=True)
    m.key()
    # Gated, not a decision: the digest row applies though the deliveries are not in.
    assert m.expects() == [Kind.CHANCE_DIGEST, Kind.DELIVERY, Kind.DELIVERY]
    assert m.core.accepts(1, Kind.CHANCE_DIGEST)  # (a seat's own order is its business)
    digested(m)
    assert m.core.steps.owes_commit(0)  # the COMMIT row's predicate holds ...
    assert m.expects() == [None, Kind.DELIVERY, Kind.DELIVERY]  # ... the decision column waits
    for kind in (Kind.COMMIT, Kind.ACT, Kind.REVEAL):
        assert not m.core.accepts(0, kind)
    assert m.core.accepts(1, Kind.COMMIT) and m.core.accepts(1, Kind.ACT)
    m.decide((1, 2))  # its deliverers may decide before they deliver
    assert not m.core.accepts(0, Kind.REVEAL)  # not even in place of its COMMIT
    assert not m.core.may_reveal_directly(0)
    m.deliver(1)
    assert m.expects()[0] is None
    m.deliver(2)
    assert m.expects() == [Kind.COMMIT, None, None]
    assert m.core.may_reveal_directly(0) and m.core.accepts(0, Kind.REVEAL)


def test_a_round_opened_by_a_free_action_gates_the_commitment() -> None:
    m = dealt(owed=False)
    digested(m)
    assert m.expects() == [Kind.COMMIT] * 3
    assert m.core.accepts(0, Kind.ACT)  # a free action before its commitment
    m.send(0, ActBody("s1", "look"))
    assert m.expects() == [Kind.SEAL_KEY, Kind.COMMIT, Kind.COMMIT]
    for kind in (Kind.COMMIT, Kind.ACT):
        assert not m.core.accepts(0, kind)
    m.decide((1, 2))
    assert m.core.steps.others_committed(0)
    assert not m.core.accepts(0, Kind.REVEAL)  # a direct reveal goes through the gate too
    m.key()
    assert m.expects() == [None, Kind.DELIVERY, Kind.DELIVERY]
    m.deliver(1)
    m.deliver(2)
    assert m.expects() == [Kind.COMMIT, None, None]


def test_a_key_owed_at_last_is_released_before_anything_gated() -> None:
    m = dealt(owed=True)
    m.key()
    digested(m)
    m.deliver(1)
    m.deliver(2)
    m.decide()
    assert m.expects() == [Kind.REVEAL] * 3
    m.reveal()
    # The hidden event: its reveals are gated, but seat 0 owes no key yet (not turned).
    assert m.expects() == [Kind.CHANCE_REVEAL] * 3
    for s in range(3):
        m.chance_reveal(s)
    assert m.core.phase() == SIMULTANEOUS
    assert m.core.knowledge.owes_release(0) and m.core.steps.owes_commit(0)
    assert not m.core.knowledge.waits(0)  # (its round is complete: only the gate holds it)
    assert m.expects() == [Kind.KEY_RELEASE, Kind.COMMIT, Kind.COMMIT]
    m.decide((1, 2), step="s2")
    assert m.core.steps.others_committed(0)
    for kind in (Kind.COMMIT, Kind.ACT, Kind.REVEAL):
        assert not m.core.accepts(0, kind)
    assert not m.core.may_reveal_directly(0)
    m.release()
    assert m.expects() == [Kind.COMMIT, None, None]
    assert m.core.may_reveal_directly(0)
    m.decide((0,), step="s2")
    m.reveal(step="s2")
    assert m.core.phase() == TURN
    assert m.expects() == [Kind.ACT, None, None]
    m.send(0, ActBody("t1", "x"))
    assert m.expects() == [Kind.END] * 3
    final = m.core.final
    assert final is not None
    for s in range(3):
        m.send(s, EndBody(final.digest, final.transcript))
    assert m.core.signed and isinstance(m.events[-1], ResultSigned)
    assert m.expects() == [None] * 3


def test_a_seat_whose_round_was_released_early_decides_once_its_deliverers_left() -> None:
    m = dealt(owed=True)
    m.key()
    digested(m)
    m.deliver(1)
    m.send(1, CommitBody("zz", bytes(32)), fault=True)  # replaced (for a wrong step)
    (r,) = m.core.knowledge.live()
    assert r.publish
    # (as a LocalSeat does)
    m.send(0, KeyReleaseBody(r.id, round_private(m.secrets[0], r.id, m.core.naming)))
    m.send(2, CommitBody("zz", bytes(32)), fault=True)  # replaced before delivering
    # Seat 0 alone is live: the match ends at the floor (protocol.md §7.7).  Its round, released
    # early, waits for no delivery of the seats that left, so its END is all it owes.
    assert m.core.ending.floor is not None and m.core.ending.abandoned
    assert m.expects() == [Kind.END, None, None]

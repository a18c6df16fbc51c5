"""Issue 46 item 2: an absent vote a seat writes into its own feed on a point long past never
leaves a copy ``incomplete``, waiting for honest seats.

The tamper benchmark's ``insert/ABSENT-past`` on ``kards-012-claim``: seat 1 inserts ABSENT
``[2, 1, 1]`` before its message 9 and signs the rest again.  Its last message before the vote
is a pool slot's CHANCE_REVEAL, whose heads name the commitments it opens (seat 2's message 0),
so dating the vote by that message alone read it as a vote on a live point: the replay stopped
at the start, waiting for seat 0's vote.  In version 3 a vote is on a point its voter had passed
when any of its earlier messages that carry heads names the point's message or a later one
(protocol.md §7.6 item 3): here its ACTs name seat 2's messages 2 and 6."""

from __future__ import annotations

from benchmarks.tampering.bases import base
from benchmarks.tampering.mutators import mutants
from protocol.verify.verifier import verify


def test_a_vote_on_a_point_long_past_waits_on_no_honest_seat() -> None:
    (mutant,) = mutants(base("kards", 12), ["insert/ABSENT-past"])
    assert mutant.liar == 1 and "ABSENT (2, 1, 1)" in mutant.detail, mutant.detail
    v = verify(mutant.data)
    assert v.verdict != "incomplete", v
    named = set(v.blamed) | ({v.dispute.seat, *v.dispute.others} if v.dispute else set())
    assert 1 in named, v
    assert (v.verdict, v.reason_code, v.blamed) == ("disputed", "heads_disputed", (1, 2)), v

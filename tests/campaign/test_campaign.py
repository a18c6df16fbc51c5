"""The liar campaign (tests/campaign/liars.py): a seat edits its own copy of a finished match —
every seat as the liar, every message kind it sends, at its first, middle and last message of
that kind, kept or cut after the edit, 3 to 5 seats — and

* no verdict of its copy alone names an honest seat alone (the verdict's fields: an ``invalid``
  verdict blames the liar, a ``disputed`` one names it among its two seats);
* ``verify LIAR_COPY HONEST_COPY`` names the liar — ``invalid``, ``blamed == [liar]``, reason
  code ``fork`` — with both signed versions of the slot it forked, one from each copy, and says
  the liar's copy is edited.

The default run plays a sample (3 seats, the first message of each kind); the whole campaign
(over 300 files) is ``slow``."""

from __future__ import annotations

from collections import Counter

import pytest
from protocol.verify.copies import verify_copies
from protocol.verify.verdicts import DISPUTED, INVALID, VALID
from protocol.verify.verifier import verify
from protocol.wire.messages import Kind

from tests.campaign.liars import KINDS, Case, cases


def judge(case: Case) -> str:
    """How the liar's copy reads alone: ``liar`` (invalid, blaming the liar alone), ``dispute``
    (disputed, the liar one of its two seats), ``quiet`` (nobody blamed: the match stops short),
    or ``FRAMED`` (an honest seat blamed alone, or a dispute between honest seats)."""
    verdict = verify(case.edited)
    assert verdict.verdict != VALID, f"{case.name}: an edited copy reads valid"
    if verdict.verdict == INVALID and verdict.blamed:
        return "liar" if verdict.blamed == (case.liar,) else "FRAMED"
    if verdict.verdict == DISPUTED:
        return "dispute" if case.liar in verdict.blamed else "FRAMED"
    assert not verdict.blamed, (case.name, verdict)
    return "quiet"


def together(case: Case) -> str | None:
    """What is wrong with ``verify LIAR_COPY HONEST_COPY`` (None: it names the liar, with a
    fork of its feed whose two versions come one from each copy)."""
    v = verify_copies([case.edited, case.honest], ["liar", "honest"])
    if (v.verdict, v.blamed, v.reason_code) != (INVALID, (case.liar,), "fork"):
        return f"{v.verdict} {v.blamed} {v.reason_code}: {v.reason}"
    if not any({w.copy for w in f.where} == {0, 1} and f.seat == case.liar
               and f.versions[0].seq == f.versions[1].seq
               and f.versions[0].hash != f.versions[1].hash for f in v.forks):
        return f"no fork with a version from each copy: {v.forks}"
    # The liar's copy is edited (the honest seats' messages name the other version), or — where
    # no message names the slot (an END, say) — both copies hold one version of a fork.
    if [c.state for c in v.copies] not in (["edited", "whole"], ["forked", "forked"]):
        return f"copies read {[c.state for c in v.copies]}"
    return None


def run(selected: list[Case]) -> Counter[tuple[str, str]]:
    outcome: Counter[tuple[str, str]] = Counter()
    framed, missed = [], []
    for case in selected:
        how = judge(case)
        outcome[(case.kind.name, how)] += 1
        if how == "FRAMED":
            framed.append(case.name)
        wrong = together(case)
        if wrong is None:
            outcome[("together", "liar named")] += 1
        else:
            missed.append(f"{case.name}: {wrong}")
    assert not framed, f"an honest seat named alone in {len(framed)} file(s): {framed}"
    assert not missed, f"the two copies do not name the liar in {len(missed)} case(s): {missed}"
    return outcome


def test_a_sample_of_the_campaign_frames_nobody() -> None:
    selected = list(cases(seats=(3,), places=("first",), strategies=("rechain",),
                          variants=("basic",)))
    outcome = run(selected)
    # Every kind is in the sample, and the careful forgeries (a commitment changed with its
    # secret) show as disputes, which name the liar.
    assert {kind for kind, _ in outcome} == {kind.name for kind in KINDS} | {"together"}
    assert outcome[("CHANCE_COMMIT", "dispute")] == 3
    assert outcome[("COMMIT", "dispute")] == 3
    assert outcome[("together", "liar named")] == len(selected)


def test_a_sample_of_the_tactical_game_frames_nobody() -> None:
    """Turns: each ACT begins the next turn, whose heads name it (before, they named the seat's
    message before it, and a liar's edited ACT made an honest seat's next turn look wrong)."""
    selected = list(cases(seats=(3,), kinds=(Kind.ACT, Kind.CHANCE_REVEAL), places=("middle",),
                          variants=("tactical",)))
    outcome = run(selected)
    assert outcome[("together", "liar named")] == len(selected) >= 12


@pytest.mark.slow
def test_the_whole_campaign_frames_nobody() -> None:
    selected = list(cases())
    assert len(selected) >= 300
    outcome = run(selected)
    print(f"{len(selected)} cases; "
          + str({f"{kind}/{how}": count for (kind, how), count in sorted(outcome.items())}))
    assert {kind for kind, _ in outcome} == {kind.name for kind in KINDS} | {"together"}
    assert {seats for seats in (c.seats for c in selected)} == {3, 4, 5}
    assert outcome[("together", "liar named")] == len(selected)

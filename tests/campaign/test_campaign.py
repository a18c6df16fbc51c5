"""The liar campaign (tests/campaign/liars.py): a seat edits its own copy of a finished match —
every seat as the liar, every message kind it sends, at its first, middle and last message of
that kind, kept or cut after the edit, 3 to 5 seats — and no verdict of its copy names an honest
seat alone.

The default run plays a sample (3 seats, the first message of each kind); the whole campaign
(over 300 files) is ``slow``."""

from __future__ import annotations

from collections import Counter

import pytest

from protocol.match import MatchCore
from protocol.transcript import read_transcript
from protocol.verify import INVALID, verify
from tests.campaign.liars import KINDS, Case, cases


def judge(case: Case) -> str:
    """How the liar's copy reads: ``liar`` (invalid, naming the liar), ``dispute`` (every
    dispute it shows names the liar), ``quiet`` (nobody named: the match stops short), or
    ``FRAMED`` (an honest seat named alone)."""
    verdict = verify(case.edited)
    if verdict.status == INVALID:
        return "liar" if verdict.seat == case.liar else "FRAMED"
    t = read_transcript(case.edited)
    assert t.header is not None
    core = MatchCore(t.header)
    core.adopt(t.feeds)
    pairs = {(d.seat, d.other) for d in core.disputes}
    if pairs:
        return "dispute" if all(case.liar in pair for pair in pairs) else "FRAMED"
    assert not verdict.valid, f"{case.name}: an edited copy reads valid"
    return "quiet"


def run(selected: list[Case]) -> Counter[tuple[str, str]]:
    outcome: Counter[tuple[str, str]] = Counter()
    framed = []
    for case in selected:
        how = judge(case)
        outcome[(case.kind.name, how)] += 1
        if how == "FRAMED":
            framed.append(case.name)
    assert not framed, f"an honest seat named alone in {len(framed)} file(s): {framed}"
    return outcome


def test_a_sample_of_the_campaign_frames_nobody() -> None:
    selected = list(cases(seats=(3,), places=("first",), strategies=("rechain",)))
    outcome = run(selected)
    # Every kind is in the sample, and the careful forgeries (a commitment changed with its
    # secret) show as disputes, which name the liar.
    assert {kind for kind, _ in outcome} == {kind.name for kind in KINDS}
    assert outcome[("CHANCE_COMMIT", "dispute")] == 3
    assert outcome[("COMMIT", "dispute")] == 3


@pytest.mark.slow
def test_the_whole_campaign_frames_nobody() -> None:
    selected = list(cases())
    assert len(selected) >= 300
    outcome = run(selected)
    print({f"{kind}/{how}": count for (kind, how), count in sorted(outcome.items())})
    assert {kind for kind, _ in outcome} == {kind.name for kind in KINDS}
    assert {seats for seats in (c.seats for c in selected)} == {3, 4, 5}

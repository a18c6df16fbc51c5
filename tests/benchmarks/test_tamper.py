"""``python -m benchmarks tamper`` (issue 46): its JSON line, how a verdict is judged, and the
tampering machinery on one base match.  The whole run (every class on a base of each game) is
``slow``."""

from __future__ import annotations

import json

import pytest

from benchmarks import tamper
from benchmarks.tampering.bases import base
from benchmarks.tampering.classify import judge, named, outcome
from benchmarks.tampering.mutators import CLASSES, DAMAGE_CLASSES, LIAR_CLASSES, mutants
from protocol.verify.verdicts import Dispute, Verdict
from protocol.wire.transcript import split_records

KEYS = {"files", "games", "classes", "accepted", "honest_blamed_alone", "errors", "seconds",
        "by_class", "failures_by_class", "waits_on_honest", "accepted_same_result"}


def test_a_verdict_is_judged_by_the_seats_it_names() -> None:
    blamed = Verdict("invalid", "commit_set_mismatch", "…", blamed=(2,))
    assert judge(blamed, liar=3) == "honest_blamed_alone"
    assert judge(blamed, liar=2) == "ok"
    assert judge(blamed, liar=None) == "honest_blamed_alone"  # (damage names nobody)
    dispute = Verdict("disputed", "heads_disputed", "…", blamed=(1, 3),
                      dispute=Dispute(1, 7, (3,), "heads"))
    assert named(dispute) == (1, 3)
    assert judge(dispute, liar=3) == "ok"
    assert judge(dispute, liar=0) == "honest_blamed_alone"
    waiting = Verdict("incomplete", "unfinished", "…", waiting_for=(0,))
    assert judge(waiting, liar=0) == "ok"
    assert judge(waiting, liar=1) == "waits_on_honest"  # (noted, not a failure)
    assert judge(waiting, liar=None) == "ok"
    assert judge(Verdict("invalid", "malformed_record", "…"), liar=None) == "ok"
    assert judge(Verdict("valid", "result_signed", "…"), liar=1) == "accepted"


def test_every_class_is_named_once() -> None:
    assert set(CLASSES) == set(LIAR_CLASSES) | set(DAMAGE_CLASSES)
    assert not set(LIAR_CLASSES) & set(DAMAGE_CLASSES)
    assert {"insert/LEAVE", "insert/ABSENT-past", "truncate-then/LEAVE", "heads/other-held",
            "heads/unknown", "consistent/COMMIT", "deck/low-order", "bitflip/message",
            "truncate/bytes", "header/field"} <= set(CLASSES)


def test_the_json_line_of_a_small_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert tamper.main(["--files", "1", "--games", "kards", "--workers", "1",
                        "--classes", "truncate/records,bitflip/header"]) == 0
    line = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(line) >= KEYS
    assert line["files"] == 2 and line["games"] == 1 and line["classes"] == 2
    assert line["by_class"] == {"truncate/records": {"incomplete": 1},
                                "bitflip/header": {"invalid": 1}}
    assert line["accepted"] == line["honest_blamed_alone"] == line["errors"] == 0


def test_a_forged_feed_is_signed_by_the_liar_and_read_as_tampered() -> None:
    b = base("kards", 0)
    made = mutants(b, ("reorder", "own-tail"))
    assert [m.cls for m in made] == ["reorder", "own-tail"]
    reorder = made[0]
    assert reorder.liar is not None and reorder.liar == reorder.holder
    honest = b.file(reorder.liar)
    assert reorder.data != honest
    # Only the liar's records changed: the others' are the honest copy's, byte for byte.
    ours = {p for _, p, _ in split_records(reorder.data)}
    theirs = {p for _, p, _ in split_records(honest)}
    assert len(ours - theirs) >= 2 and len(theirs - ours) >= 2
    for mutant in made:
        assert outcome(mutant.data, mutant.liar).verdict != "valid"


@pytest.mark.slow
def test_every_class_on_one_base_of_each_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert tamper.main(["--files", "1", "--workers", "2"]) == 0
    line = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert line["games"] == 4 and line["files"] >= 100
    assert line["accepted"] == 0

"""The conformance vectors of protocol v1 (tests/vectors/v1, README.md there).

Two checks that together pin every verdict of protocol v1 while the program moves on:

* every stored match file still gets, from the real ``cryptcrawl verify --json`` code path,
  the stored verdict — its ``verdict``, the seats ``blamed``, its ``reason_code``, the
  ``record`` and the exit status (the verdict's fields, never its prose) — except the files
  ``v1_changes.json`` lists, each with the finding that changed it and its new verdict.  The
  stored v1 verdicts have a status and a seat at fault but no reason code: each file's code is
  pinned in ``v1_reason_codes.json``;
* the generator still builds every stored match file byte for byte — and it refuses a vector
  whose verdict does not show its attack.

A failure of the first means a verdict changed.  A failure of the second alone means the
in-memory peers now play or write a version 1 match differently (protocol/mesh.py, the bots,
the match core's choice of what to send): the stored vectors still pin the verdicts; look at why
before touching anything.  These vectors are frozen — never regenerate v1 to follow a change
of the protocol (that is v2's, tests/vectors/v2).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from protocol.verify.verdicts import EXIT_CODES, REASON_CODES

from tests.vectors.generate_v1 import V1, build, differences, stored, verdict_json

MANIFEST = json.loads((V1 / "manifest.json").read_text(encoding="utf-8"))
ENTRIES: list[dict[str, Any]] = MANIFEST["vectors"]
CHANGES: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "v1_changes.json").read_text(encoding="utf-8"))["changes"]
CODES: dict[str, str] = json.loads(
    (Path(__file__).parent / "v1_reason_codes.json").read_text(encoding="utf-8"))["codes"]
FIELDS = ("verdict", "blamed", "reason_code", "record")
HOW = "see tests/vectors/test_v1.py: v1 is frozen, a verdict must not change"


def fields(verdict: dict[str, Any], code: str | None = None) -> dict[str, Any]:
    """A verdict's fields: today's ``verdict``, ``blamed`` and ``reason_code``, or v1's
    ``status`` and ``seat_at_fault`` with the pinned ``code``."""
    status = verdict.get("verdict", verdict.get("status"))
    if "blamed" in verdict:
        blamed = list(verdict["blamed"])
    else:
        seat = verdict.get("seat_at_fault")
        blamed = [] if seat is None else [seat]
    return {"verdict": status, "blamed": blamed,
            "reason_code": verdict.get("reason_code", code), "record": verdict.get("record")}


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_the_verdict_of_every_stored_file_is_unchanged(entry: dict[str, Any]) -> None:
    data = (V1 / entry["file"]).read_bytes()
    assert hashlib.sha256(data).hexdigest() == entry["sha256"], f"{entry['file']} was changed"
    code, out = verdict_json(V1, entry["file"])
    now = fields(json.loads(out))
    change = CHANGES.get(entry["file"])
    if change is not None:
        want = {k: change[k] for k in FIELDS}
        assert now == want, f"{entry['file']}: not the changed verdict ({change['why']})"
        assert code == change["exit"], f"{entry['file']}: exit {code}, not {change['exit']}"
        return
    was = fields(json.loads((V1 / entry["expected"]).read_text(encoding="utf-8")),
                 CODES[entry["file"]])
    assert now == was, f"{entry['file']}: the verdict changed; {HOW}"
    assert code == entry["exit"], f"{entry['file']}: exit {code}, not {entry['exit']}; {HOW}"


def test_every_change_is_of_a_stored_file_and_says_why() -> None:
    files = {e["file"] for e in ENTRIES}
    for name, change in CHANGES.items():
        assert name in files, name
        assert change["why"] and set(change) == {*FIELDS, "exit", "why"}
        assert EXIT_CODES[change["verdict"]] == change["exit"]


def test_every_file_has_one_pinned_reason_code_of_its_verdict() -> None:
    """Every stored file has a code here or a change there (not both), and the code is one
    of its verdict's (protocol/verify/verdicts.py); a rule_broken would say nothing."""
    assert set(CODES) | set(CHANGES) == {e["file"] for e in ENTRIES}
    assert not set(CODES) & set(CHANGES)
    for entry in ENTRIES:
        change = CHANGES.get(entry["file"])
        verdict = change["verdict"] if change else entry["status"]
        code = change["reason_code"] if change else CODES[entry["file"]]
        assert REASON_CODES[code][0] == verdict and code != "rule_broken", (entry["file"], code)


def test_the_manifest_lists_every_file_and_every_category() -> None:
    held = stored()
    listed = {e["file"] for e in ENTRIES} | {e["expected"] for e in ENTRIES}
    assert set(held) == listed | {"manifest.json", "README.md"}
    counts = {c: sum(e["category"] == c for e in ENTRIES)
              for c in ("honest", "adversarial", "faults", "tampered")}
    assert sum(counts.values()) == len(ENTRIES)
    assert counts["honest"] == 6 and counts["adversarial"] >= 8 and counts["tampered"] >= 40
    # Every verdict there is, and no attack that verifies as if nothing happened.
    assert {e["status"] for e in ENTRIES} == {"valid", "invalid", "incomplete", "unreadable"}
    assert all(e["status"] == "valid" for e in ENTRIES if e["category"] == "honest")


def test_the_vectors_stay_small() -> None:
    assert sum(len(b) for b in stored().values()) <= 8_000_000


def test_the_generator_rebuilds_every_file_byte_for_byte() -> None:
    wrong = differences(build(), stored())
    assert not wrong, ("the generator no longer builds tests/vectors/v1 byte for byte: "
                       + "; ".join(wrong[:10]) + f" ({len(wrong)} in all); " + HOW)

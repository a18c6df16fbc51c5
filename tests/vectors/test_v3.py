"""The conformance vectors of protocol v3 (tests/vectors/v3, README.md there).

* every vector — one file, several copies of one match, or the arguments of a usage error —
  gets from the real ``cryptcrawl verify --json`` code path, in process, the fields its manifest
  entry expects and its exit status; a few also through the command line;
* the manifest lists every file with its hash and the directory stays under 8 MB;
* every reason code of protocol.md §9.3 has a vector in one of tests/vectors/v3's manifests
  (this generator's and the other folders', such as the forfeits'), but the codes
  :data:`tests.vectors.generate_v3.EXEMPT` lists with why — and the one listed there,
  ``rule_broken``, is given by no fault the protocol raises;
* every check the README's table names has a vector, here or in tests/vectors/v2;
* the generator plays the honest matches again byte for byte, and (``slow``: 15 s) writes the
  whole directory again byte for byte (as ``--check``).

A failure of the first means a verdict changed: if the change is meant, regenerate
(``python -m tests.vectors.generate_v3``) and say so.  A failure of the last alone means the
in-memory peers now play or write a match differently.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from protocol.verify.verdicts import EXIT_CODES, REASON_CODES, reason_code
from protocol.wire.naming import naming
from tests.vectors.generate_v2 import V2, run
from tests.vectors.generate_v3 import (
    CHECKS,
    EXEMPT,
    V2_COVERS,
    V3,
    Vectors,
    build,
    differences,
    held,
    honest,
    manifests,
    matches,
    run_usage,
    uncovered,
)
from tests.vectors.making import stored

ROOT = Path(__file__).resolve().parents[2]
MANIFEST: dict[str, Any] = json.loads((V3 / "manifest.json").read_text(encoding="utf-8"))
ENTRIES: list[dict[str, Any]] = MANIFEST["vectors"]
BY_NAME = {e["name"]: e for e in ENTRIES}


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["name"] for e in ENTRIES])
def test_every_vector_gets_its_expected_fields(entry: dict[str, Any]) -> None:
    if entry["command"] == "usage":
        code, got, err = run_usage(entry["arguments"], V3)
        assert err.endswith("\n") and err.count("\n") == 1, err
    else:
        code, got = run(V3, tuple(entry["files"]))
    assert got == entry["expected"], entry["name"]
    assert code == entry["exit"] == EXIT_CODES[got["verdict"]], entry["name"]
    assert REASON_CODES[got["reason_code"]][0] == got["verdict"], entry["name"]


@pytest.mark.parametrize("name", ["honest/paper-2", "codes/split", "usage/no-file"])
def test_a_few_through_the_command_line(name: str) -> None:
    entry = BY_NAME[name]
    arguments = entry.get("arguments") or ["--json", *entry["files"]]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "cli", "verify", *arguments],
                          capture_output=True, text=True, cwd=V3, env=env, timeout=120,
                          check=False)
    assert done.returncode == entry["exit"], done.stderr
    from tests.vectors.generate_v2 import fields
    assert fields(json.loads(done.stdout)) == entry["expected"]
    usage = entry["expected"]["verdict"] == "usage"
    assert done.stderr.count("\n") == (1 if usage else 0), done.stderr
    assert "Traceback" not in done.stderr


def test_the_manifest_lists_every_file_with_its_hash() -> None:
    files = held()
    assert set(files) == set(MANIFEST["files"]) | {"manifest.json", "README.md"}
    for path, about in MANIFEST["files"].items():
        data = files[path]
        assert (len(data), hashlib.sha256(data).hexdigest()) == (about["size"], about["sha256"])
    assert {p for e in ENTRIES for p in e["files"]} == set(MANIFEST["files"])
    for e in ENTRIES:
        several = e["command"] == "copies" and e["expected"]["verdict"] != "usage"
        assert ("copies" in e["expected"]) == several, e["name"]
        assert (e["command"] == "usage") == ("arguments" in e), e["name"]


def test_the_vectors_stay_small() -> None:
    assert sum(len(b) for b in stored(V3).values()) <= 8_000_000


def test_every_reason_code_has_a_vector() -> None:
    """In every manifest of tests/vectors/v3 (the forfeits' too, once written), each reason
    code has a vector, but those :data:`EXEMPT` lists — and those have none."""
    found = manifests()
    assert found[0]["prefix"] == "v3"
    assert not uncovered(found), f"reason codes with no version 3 vector: {uncovered(found)}"
    assert set(EXEMPT) <= set(REASON_CODES)
    given = {e["expected"]["reason_code"] for m in found for e in m["vectors"]}
    assert not set(EXEMPT) & given, "a code EXEMPT lists has a vector: drop it from EXEMPT"
    for m in found:
        for e in m["vectors"]:
            x = e["expected"]
            assert REASON_CODES[x["reason_code"]][0] == x["verdict"], (m["prefix"], e["name"])


@pytest.mark.parametrize("code", ["claim_disputed", "bad_delivery", "usage"])
def test_a_reason_code_without_a_vector_fails_the_coverage(code: str) -> None:
    """The check above bites: drop the vectors of one code and it names that code."""
    without = [{**m, "vectors": [e for e in m["vectors"]
                                 if e["expected"]["reason_code"] != code]}
               for m in manifests()]
    assert uncovered(without) == [code]


# The calls whose first string (the fault's words) becomes a reason code through
# protocol.verify.verdicts.reason_code: a mechanism's Fault or Mismatch, the core's
# _misbehave / PeerMisbehaved (words second), and a feed's refusals (BadMessage in
# protocol/wire/feed.py, which the core turns into misbehaviour with its words).
_FAULTS = {"Fault": 0, "Mismatch": 0, "_misbehave": 1, "PeerMisbehaved": 1}


def _words(node: ast.expr) -> str | None:
    """The words of a reason written in the source, each ``{…}`` rendered as a value of its
    likely shape (a list for a list, a sorted(…) or a list(…); else a word); None if the
    reason is not written there (a variable)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        out = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                out.append(str(part.value))
                continue
            assert isinstance(part, ast.FormattedValue)
            value = part.value
            listed = isinstance(value, ast.ListComp | ast.List) or (
                isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                and value.func.id in ("sorted", "list"))
            out.append("['x']" if listed else "x")
        return "".join(out)
    return None


def _written_reasons() -> list[tuple[str, int, str]]:
    reasons = []
    for path in sorted((ROOT / "protocol").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        feed = path.name == "feed.py"
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(
                f, ast.Attribute) else ""
            at = _FAULTS.get(name, 0 if feed and name == "BadMessage" else None)
            if at is None or len(node.args) <= at:
                continue
            words = _words(node.args[at])
            if words is not None:
                reasons.append((str(path.relative_to(ROOT)), node.lineno, words))
    return reasons


def test_no_fault_reason_falls_to_rule_broken() -> None:
    """``rule_broken`` (EXEMPT) is for a reason no pattern names: every fault's words written
    in protocol/ — and the words of version 1, 2 and 3's round-key faults — have a code of
    their own (protocol.md §9.3: no check of this version gives it)."""
    reasons = _written_reasons()
    assert len(reasons) > 60  # (the scan finds the faults)
    for v in (1, 2, 3):
        n = naming(v)
        reasons += [(f"naming({v})", 0, words) for words in (
            n.key_for_wrong_round("round.0.x"), n.key_names_wrong_events(["x"], ["y"]),
            n.lying_delivery(0, "round.0.x"), n.released_wrong_key(),
            n.revealed_before_delivering(0))]
    broken = [r for r in reasons if reason_code(r[2]) == "rule_broken"]
    assert not broken, broken
    assert set(EXEMPT) == {"rule_broken"}


def test_every_check_has_a_vector() -> None:
    shown = {c for e in ENTRIES for c in e["checks"]}
    known = {c for c, _, _ in CHECKS}
    assert shown <= known
    v2 = {e["name"] for e in json.loads((V2 / "manifest.json").read_text(encoding="utf-8"))[
        "vectors"]}
    for check, names in V2_COVERS.items():
        assert check in known and set(names) <= v2, check
    assert known <= shown | set(V2_COVERS), sorted(known - shown - set(V2_COVERS))
    for group in ("sealed", "pools", "decks", "copies"):
        assert any(e["group"] == group and e["expected"]["verdict"] != "valid"
                   for e in ENTRIES), group


def test_the_honest_files_regenerate_byte_for_byte() -> None:
    """The matches every vector starts from are played the same (a few seconds; the whole
    directory, a quarter of a minute: below)."""
    out = Vectors()
    honest(out, matches())
    files = held()
    assert out.files and all(files[p] == d for p, d in out.files.items()), sorted(
        p for p, d in out.files.items() if files.get(p) != d)


@pytest.mark.slow
def test_the_whole_directory_regenerates_byte_for_byte() -> None:
    wrong = differences(build(), held())
    assert not wrong, "; ".join(wrong[:10]) + f" ({len(wrong)} in all)"

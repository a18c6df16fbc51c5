"""The conformance vectors of protocol v2 (tests/vectors/v2, README.md there).

* every vector — one file, or several copies of one match — gets from the real ``cryptcrawl
  verify --json`` code path, in process, the fields its manifest entry expects (``verdict``,
  ``blamed``, ``record``, ``reason_code``, ``waiting_for``, and for several copies each copy's
  report, with the forks and sides) and its exit status; a few also through the command line;
* the manifest lists every file with its hash, the directory stays under 8 MB, and the vectors
  cover every verdict and reason code the verifier gives (the README says why the others
  cannot be reached);
* the generator builds the honest and tampered files again byte for byte (the whole directory,
  manifest and README included: ``slow``).

A failure of the first means a verdict changed: if the change is meant, regenerate
(``python -m tests.vectors.generate_v2``) and say so.  A failure of the last alone means the
in-memory peers now play or write a match differently.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from protocol.verify.verdicts import EXIT_CODES, REASON_CODES, VERDICTS

from tests.campaign.liars import KINDS
from tests.vectors.generate_v2 import (
    LATER,
    UNREACHED,
    V2,
    build,
    build_files,
    differences,
    fields,
    run,
)
from tests.vectors.making import stored

ROOT = Path(__file__).resolve().parents[2]
MANIFEST: dict[str, Any] = json.loads((V2 / "manifest.json").read_text(encoding="utf-8"))
ENTRIES: list[dict[str, Any]] = MANIFEST["vectors"]
BY_NAME = {e["name"]: e for e in ENTRIES}


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["name"] for e in ENTRIES])
def test_every_vector_gets_its_expected_fields(entry: dict[str, Any]) -> None:
    code, got = run(V2, tuple(entry["files"]))
    assert got == entry["expected"], entry["name"]
    assert code == entry["exit"] == EXIT_CODES[got["verdict"]], entry["name"]


@pytest.mark.parametrize("name", [
    "honest/5-tactical", "tampered/header-flip-signature", "tampered/empty",
    "tampered/chance-reveal-state-digest",
    "campaign/3seats-liar2-commit-first-rechain.with-honest0", "copies/different-matches",
    "copies/split",
])
def test_a_few_through_the_command_line(name: str) -> None:
    entry = BY_NAME[name]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "cli", "verify", "--json", *entry["files"]],
                          capture_output=True, text=True, cwd=V2, env=env, timeout=120,
                          check=False)
    assert done.returncode == entry["exit"], done.stderr
    assert fields(json.loads(done.stdout)) == entry["expected"]
    assert bool(done.stderr) == (entry["expected"]["verdict"] == "usage"), done.stderr


def test_the_manifest_lists_every_file_with_its_hash() -> None:
    held = stored(V2)
    assert set(held) == set(MANIFEST["files"]) | {"manifest.json", "README.md"}
    for path, about in MANIFEST["files"].items():
        data = held[path]
        assert (len(data), hashlib.sha256(data).hexdigest()) == (about["size"], about["sha256"])
    assert {p for e in ENTRIES for p in e["files"]} == set(MANIFEST["files"])
    for e in ENTRIES:
        assert e["command"] == ("single" if len(e["files"]) == 1 else "copies")
        assert ("copies" in e["expected"]) == (e["command"] == "copies"
                                               and e["expected"]["verdict"] != "usage")


def test_the_vectors_stay_small() -> None:
    assert sum(len(b) for b in stored(V2).values()) <= 8_000_000


def test_every_verdict_and_reason_code_is_covered() -> None:
    verdicts = {e["expected"]["verdict"] for e in ENTRIES}
    assert verdicts == set(VERDICTS) - set(LATER)
    codes = {e["expected"]["reason_code"] for e in ENTRIES}
    assert codes == set(REASON_CODES) - set(UNREACHED)
    for e in ENTRIES:
        x = e["expected"]
        assert REASON_CODES[x["reason_code"]][0] == x["verdict"], e["name"]


def test_every_group_is_there() -> None:
    names = set(BY_NAME)
    assert {f"honest/{n}-{v}" for n in (3, 4, 5) for v in ("basic", "tactical")} <= names
    assert sum(e["group"] == "adversarial" for e in ENTRIES) == 35
    assert sum(e["group"] == "tampered" for e in ENTRIES) >= 70
    assert {n for n in names if n.startswith("sealed/")} == {
        "sealed/twister-honest", "sealed/token-twice-forfeit", "sealed/token-twice",
        "sealed/forged-opening", "sealed/missing-commitment"}
    assert {n for n in names if n.startswith("pools/")} == {
        "pools/kards-honest", "pools/act-secret-wrong", "pools/act-secret-not-due"}
    assert {n for n in names if n.startswith("deals/")} == {
        "deals/paper-honest", "deals/wrong-share", "deals/shuffle-changed",
        "deals/open-another-card", "deals/seat-lost-restart", "deals/rewritten-shuffle"}
    for kind in KINDS:
        for strategy in ("rechain", "truncate"):
            alone = [n for n in names if n.startswith("campaign/") and n.endswith(
                f"-{kind.name.lower()}-first-{strategy}")]
            assert len(alone) == 1 and f"{alone[0]}.with-honest" in " ".join(names), kind
    # An honest seat is never blamed alone by a liar's copy, and two copies name the liar.
    for e in ENTRIES:
        if e["group"] != "campaign":
            continue
        liar = int(e["name"].split("-liar")[1][0])
        x = e["expected"]
        if e["command"] == "copies":
            assert (x["verdict"], x["blamed"], x["reason_code"]) == ("invalid", [liar], "fork")
        else:
            assert x["verdict"] != "valid" and (liar in x["blamed"] or not x["blamed"])


def test_the_honest_and_tampered_files_regenerate_byte_for_byte() -> None:
    groups = ("honest", "tampered")
    held = {p: d for p, d in stored(V2).items() if p.split("/")[0] in groups}
    assert not differences(build_files(groups), held)


@pytest.mark.slow
def test_the_whole_directory_regenerates_byte_for_byte() -> None:
    wrong = differences(build(), stored(V2))
    assert not wrong, "; ".join(wrong[:10]) + f" ({len(wrong)} in all)"

"""The conformance vectors of issue 47's forfeits (tests/vectors/v3/forfeits,
tests/vectors/forfeits_v3.py): each file gets, from the real ``cryptcrawl verify --json`` code
path run in the folder, the fields and the forfeit notes its manifest pins, and its exit
status; the manifest lists exactly the files there; the generator builds every file again byte
for byte (``--check``).  A failure of the first means a verdict changed: if the change is meant,
regenerate (``python -m tests.vectors.forfeits_v3``) and say so."""

from __future__ import annotations

import json
from typing import Any

import pytest

from protocol.verify.verdicts import EXIT_CODES
from tests.vectors.forfeits_v3 import FOLDER, expected, main

MANIFEST: dict[str, Any] = json.loads((FOLDER / "manifest.json").read_text(encoding="utf-8"))
ENTRIES: list[dict[str, Any]] = MANIFEST["vectors"]


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["name"] for e in ENTRIES])
def test_every_forfeit_vector_gets_its_expected_fields(entry: dict[str, Any]) -> None:
    got = expected(FOLDER, entry["file"])
    assert got == {"exit": entry["exit"], "expected": entry["expected"]}, entry["name"]
    assert entry["exit"] == EXIT_CODES[entry["expected"]["verdict"]]


def test_the_vectors_cover_what_issue_47_asks() -> None:
    by_name = {e["name"]: e["expected"] for e in ENTRIES}
    assert set(by_name) == {"coalition-both", "coalition-partner", "deal-withholder",
                            "late-secret-inside", "late-secret-outside"}
    assert MANIFEST["protocol"] == 3
    assert all(e["verdict"] == "valid" for e in by_name.values())

    def forfeited(name: str) -> list[int]:
        return sorted(int(n.split()[1]) for n in by_name[name]["notes"]
                      if " forfeited where it was to decide: it withheld " in n)
    assert forfeited("coalition-both") == [2, 3]
    assert forfeited("coalition-partner") == [3]
    assert forfeited("deal-withholder") == [2]
    assert "its shares of deck" in by_name["deal-withholder"]["notes"][0]
    assert forfeited("late-secret-inside") == [] and not by_name["late-secret-inside"]["notes"]
    assert forfeited("late-secret-outside") == [3]


def test_the_manifest_lists_every_file() -> None:
    files = {p.name for p in FOLDER.iterdir() if p.is_file()}
    assert files == {e["file"] for e in ENTRIES} | {"manifest.json"}


def test_the_generator_builds_the_same_bytes() -> None:
    assert main(["--check"]) == 0

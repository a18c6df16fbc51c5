"""``cryptcrawl verify`` on the verdict's fields (issue 24 items 3-5): ``--json`` carries
``verdict``, ``blamed`` (a list), ``record``, ``reason_code`` and the header's ``seats``; an
incomplete verdict names the seats it waits for; a header whose signature fails is invalid
(exit 1) naming no seat; several copies of one match give one verdict (a seat that signed two
versions of a slot named, with both), and copies of two matches are a one-line usage error."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from protocol.mesh import Network
from protocol.wire.transcript import split_records

from benchmarks.scenario import raiders_network
from cli.main import main
from tests.protocol.framing import chance_edit, framed


@pytest.fixture(scope="module")
def net() -> Network:
    net = raiders_network(3, tag=b"cli-verify-copies")
    net.pump()
    return net


def run(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    code = main(argv)
    return code, out.getvalue(), err.getvalue()


def written(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def as_json(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, dict[str, Any]]:
    code, out, err = run(["verify", "--json", *argv], monkeypatch)
    assert "Traceback" not in err
    return code, json.loads(out)


def test_json_carries_the_verdicts_fields(tmp_path: Path, net: Network,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    code, j = as_json([written(tmp_path, "m.crawl", net.match_file(0))], monkeypatch)
    assert code == 0
    assert {k: j[k] for k in ("verdict", "blamed", "record", "reason_code", "waiting_for")} == {
        "verdict": "valid", "blamed": [], "record": None, "reason_code": "result_signed",
        "waiting_for": []}
    assert [s["name"] for s in j["seats"]] == ["P0", "P1", "P2"]


def test_an_incomplete_file_names_the_seats_it_waits_for(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    half = raiders_network(3, tag=b"cli-verify-half")
    half.pump(limit=100, partial=True)
    path = written(tmp_path, "half.crawl", half.match_file(0))
    code, j = as_json([path], monkeypatch)
    assert (code, j["verdict"], j["reason_code"], j["blamed"]) == (
        4, "incomplete", "unfinished", [])
    waiting = j["waiting_for"]
    assert isinstance(waiting, list) and waiting and set(waiting) <= {0, 1, 2}
    code, out, _ = run(["verify", path], monkeypatch)
    assert code == 4
    line = next(x for x in out.splitlines() if x.startswith("  waiting for: "))
    assert line == "  waiting for: " + ", ".join(f"seat {s} (P{s})" for s in waiting)


def test_a_header_whose_signature_fails_is_invalid_and_names_no_seat(
        tmp_path: Path, net: Network, monkeypatch: pytest.MonkeyPatch) -> None:
    data = net.match_file(0)
    (_, _, _), (offset, payload, _) = list(split_records(data))[:2]
    assert payload is not None
    flipped = bytearray(data)
    flipped[offset + 4 + len(payload) - 5] ^= 0x01  # inside the last header signature
    path = written(tmp_path, "header.crawl", bytes(flipped))
    code, j = as_json([path], monkeypatch)
    assert (code, j["verdict"], j["blamed"], j["record"], j["reason_code"]) == (
        1, "invalid", [], 1, "header_signature")
    assert j["seat_at_fault"] is None and len(j["seats"]) == 3
    code, out, err = run(["verify", path], monkeypatch)
    assert code == 1 and err == "" and "INVALID" in out and "AT FAULT" not in out


def test_several_copies_name_the_seat_that_signed_two_versions(
        tmp_path: Path, net: Network, monkeypatch: pytest.MonkeyPatch) -> None:
    liar = 1
    feeds = [list(f.messages) for f in net.cores[0].feeds]
    edit = chance_edit(feeds, liar, "L1.level", net.header.match_id,
                       net.header.header.seats[liar].key)
    lied = written(tmp_path, "liar.crawl", framed(net.header, feeds, liar, net.keys[liar], edit))
    honest = written(tmp_path, "honest.crawl", net.match_file(0))
    code, alone = as_json([lied], monkeypatch)
    assert (code, alone["verdict"]) == (6, "disputed") and liar in alone["blamed"]
    code, j = as_json([lied, honest], monkeypatch)
    assert (code, j["verdict"], j["blamed"], j["reason_code"]) == (1, "invalid", [liar], "fork")
    (fork,) = j["forks"]
    assert fork["seat"] == liar and {v["copy"] for v in fork["versions"]} == {0, 1}
    assert all(isinstance(v["record"], int) for v in fork["versions"])
    assert [c["state"] for c in j["copies"]] == ["edited", "whole"]
    # The match as the other seats' messages name it (the liar's edit left out) checks out.
    assert "the merged transcript, with the versions the other seats name: valid: " in j["notes"][0]
    code, out, err = run(["verify", lied, honest], monkeypatch)
    assert code == 1 and err == ""
    assert f"fork: seat {liar} signed two versions" in out
    assert "liar.crawl record" in out and "honest.crawl record" in out
    code, j = as_json([honest, written(tmp_path, "b.crawl", net.match_file(1)),
                       written(tmp_path, "c.crawl", net.match_file(2))], monkeypatch)
    assert (code, j["verdict"], j["blamed"]) == (0, "valid", [])
    assert [c["state"] for c in j["copies"]] == ["whole"] * 3


def test_copies_of_two_matches_are_a_usage_error_in_one_line(
        tmp_path: Path, net: Network, monkeypatch: pytest.MonkeyPatch) -> None:
    other = raiders_network(3, tag=b"cli-verify-other")
    other.pump(limit=40, partial=True)
    a = written(tmp_path, "a.crawl", net.match_file(0))
    b = written(tmp_path, "b.crawl", other.match_file(0))
    code, out, err = run(["verify", a, b], monkeypatch)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert net.header.match_id.hex() in err and other.header.match_id.hex() in err
    code, j = as_json([a, b], monkeypatch)
    assert (code, j["verdict"], j["reason_code"], j["blamed"]) == (
        2, "usage", "different_matches", [])
    code, _, err = run(["verify", a, str(tmp_path / "missing.crawl")], monkeypatch)
    assert code == 3 and err.count("\n") == 1 and "missing.crawl" in err

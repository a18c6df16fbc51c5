"""``cryptcrawl verify``: exit codes 0 valid, 1 invalid (the seat at fault where its own signed
message proves it; none for a damaged record), 3 unreadable, 4 incomplete, 2 usage; one-line
errors; --json."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from benchmarks.scenario import raiders_network
from cli.main import main
from protocol.wire.transcript import file_start, frame
from tests.protocol.match.test_match import rewrite_reveal_action


@pytest.fixture(scope="module")
def match_bytes() -> bytes:
    net = raiders_network(3, tag=b"cli-verify")
    net.pump()
    return file_start(net.header) + b"".join(frame(m.encode()) for m in net.log)


def run(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    code = main(argv)
    return code, out.getvalue(), err.getvalue()


def test_valid(tmp_path: Path, match_bytes: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "m.crawl"
    path.write_bytes(match_bytes)
    code, out, err = run(["verify", str(path)], monkeypatch)
    assert code == 0 and err == ""
    assert "VALID" in out and "winner" in out and "ok: chance outcomes" in out


def test_invalid_names_the_seat(tmp_path: Path, match_bytes: bytes,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    net = raiders_network(3, tag=b"cli-verify-cheat")
    rewrite_reveal_action(net, 2, "play 5")  # a reveal that does not open: seat 2's own act
    net.pump()
    path = tmp_path / "bad.crawl"
    path.write_bytes(file_start(net.header) + b"".join(frame(m.encode()) for m in net.log))
    code, out, _ = run(["verify", str(path)], monkeypatch)
    assert code == 1 and "INVALID" in out and "AT FAULT" in out
    code, out, _ = run(["verify", "--json", str(path)], monkeypatch)
    verdict = json.loads(out)
    assert code == 1 and verdict["verdict"] == verdict["status"] == "invalid"
    assert verdict["blamed"] == [2] and verdict["seat_at_fault"] == 2
    assert verdict["reason_code"] == "reveal_mismatch" and verdict["record"] is not None


def test_a_damaged_record_is_invalid_and_names_no_seat(tmp_path: Path, match_bytes: bytes,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    data = bytearray(match_bytes)
    data[-3] ^= 0x10  # inside the last message's signature
    path = tmp_path / "bad.crawl"
    path.write_bytes(bytes(data))
    code, out, _ = run(["verify", str(path)], monkeypatch)
    assert code == 1 and "INVALID" in out and "AT FAULT" not in out
    code, out, _ = run(["verify", "--json", str(path)], monkeypatch)
    verdict = json.loads(out)
    assert code == 1 and verdict["verdict"] == "invalid" and verdict["blamed"] == []
    assert verdict["reason_code"] == "bad_signature" and verdict["record"] is not None


def test_incomplete(tmp_path: Path, match_bytes: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "cut.crawl"
    path.write_bytes(match_bytes[:-9])
    code, out, _ = run(["verify", str(path)], monkeypatch)
    assert code == 4 and "INCOMPLETE" in out


def test_unreadable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = run(["verify", str(tmp_path / "missing.crawl")], monkeypatch)
    assert code == 3 and err.count("\n") == 1 and "cannot read" in err
    garbage = tmp_path / "garbage.crawl"
    garbage.write_bytes(b"not a match file at all")
    code, _, err = run(["verify", str(garbage)], monkeypatch)
    assert code == 3 and err.count("\n") == 1 and "Traceback" not in err


def test_usage(monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = run(["verify"], monkeypatch)
    assert code == 2 and "Traceback" not in err


@pytest.mark.parametrize(("argv", "files"), [
    (["verify", "--json"], []),
    (["verify", "--json", "--no-such-option", "m.crawl"], ["m.crawl"]),
    (["verify", "m.crawl", "--json", "--no-such-option"], ["m.crawl"]),
])
def test_a_usage_error_of_verify_json_is_a_json_verdict_too(
        argv: list[str], files: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """``verify --json`` given no file or a bad option: the verdict ``usage`` as JSON on
    standard output (protocol.md §9.3), the error one line on standard error, status 2."""
    code, out, err = run(argv, monkeypatch)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    verdict = json.loads(out)
    assert (verdict["verdict"], verdict["reason_code"], verdict["status"]) == (
        "usage", "usage", "usage")
    assert (verdict["files"], verdict["blamed"], verdict["waiting_for"]) == (files, [], [])


@pytest.mark.parametrize("argv", [["verify"], ["verify", "--no-such-option", "m.crawl"],
                                  ["--json", "--no-such-option"]])
def test_a_usage_error_without_verify_json_prints_no_json(
        argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(argv, monkeypatch)
    assert code == 2 and out == "" and err.count("\n") == 1

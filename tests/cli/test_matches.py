"""``cryptcrawl matches`` (cached verdicts, ``--prune``), and what ``matches``, ``replay`` and
``export`` say of a match where a bot played a seat."""

from __future__ import annotations

import functools
import io
import json
import os
import re
import time
from pathlib import Path

import pytest

from benchmarks.scenario import raiders_network
from cli import matches
from protocol.wire.messages import Kind, Message
from protocol.wire.transcript import file_start
from tests.cli.test_command import cryptcrawl
from tests.protocol.match.test_cheats_and_absences import silence


@functools.cache
def finished(tag: bytes = b"matches") -> bytes:
    net = raiders_network(3, tag=tag)
    net.pump()
    return net.match_file(0)


@functools.cache
def with_a_bot() -> bytes:
    """Seat 2 stops revealing in level 2: it is voted absent and a bot plays it out."""
    net = raiders_network(3, tag=b"bot-played")

    def from_level_2(m: Message) -> bool:
        return m.kind is Kind.REVEAL and m.content.step.startswith("L2")  # type: ignore[union-attr]

    silence(net, 2, from_level_2)
    net.run_with_timeouts()
    return net.match_file(0)


def listing(data: Path, **kw: object) -> list[str]:
    out = io.StringIO()
    assert matches.list_matches(data, out, **kw) == 0  # type: ignore[arg-type]
    return out.getvalue().splitlines()


def test_the_second_listing_verifies_nothing_and_marks_cached_verdicts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "matches"
    folder.mkdir()
    for i in range(3):
        (folder / f"m{i}.crawl").write_bytes(finished(b"m%d" % i))
    calls: list[int] = []
    real = matches.read_and_verify

    def counting(data: bytes) -> object:
        calls.append(1)
        return real(data)

    monkeypatch.setattr(matches, "read_and_verify", counting)
    first = listing(tmp_path)
    assert len(calls) == 3 and not any("[cached]" in line for line in first)
    calls.clear()
    second = listing(tmp_path)
    assert calls == [], "the second listing verified again"
    assert all("won by" in line and "[cached]" in line for line in second), second
    assert [line.replace(" [cached]", "") for line in second] == first
    # A file that changed (size, mtime, inode) is verified afresh.
    (folder / "m1.crawl").write_bytes(finished(b"m1")[:-9])
    third = listing(tmp_path)
    assert len(calls) == 1
    assert "incomplete" in next(line for line in third if "m1.crawl" in line)
    # Another verifier version (a new revision of its verdicts, say): everything afresh.
    from protocol.verify.verdicts import VERIFIER_REVISION
    assert f"verifier {VERIFIER_REVISION};" in matches.VERIFIER
    calls.clear()
    monkeypatch.setattr(matches, "VERIFIER", matches.VERIFIER + "+1")
    listing(tmp_path)
    assert len(calls) == 3


def test_a_damaged_cache_is_ignored(tmp_path: Path) -> None:
    (tmp_path / "matches").mkdir()
    (tmp_path / "matches" / "a.crawl").write_bytes(finished())
    (tmp_path / "verdicts.json").write_bytes(b"{not json")
    assert "won by" in listing(tmp_path)[0]
    assert json.loads((tmp_path / "verdicts.json").read_text())["verifier"] == matches.VERIFIER


def test_prune_clears_only_starts_that_never_got_under_way(tmp_path: Path) -> None:
    folder = tmp_path / "matches"
    bot = tmp_path / "bots" / "bot1" / "matches"
    folder.mkdir()
    bot.mkdir(parents=True)
    net = raiders_network(3, tag=b"never")
    start = file_start(net.header)
    old = time.time() - 3600
    for name, data, when in (("never", start, old), ("recent", start, time.time()),
                             ("played", with_a_bot()[:len(with_a_bot()) // 2], old)):
        for where in (folder, bot):
            (where / f"{name}.crawl").write_bytes(data)
            (where / f"{name}.seed").write_bytes(os.urandom(32))
            (where / f"{name}.json").write_text("{}")
            os.utime(where / f"{name}.crawl", (when, when))
    lines = listing(tmp_path, prune=True)
    assert any(line.startswith("pruned: ") and "never.crawl" in line for line in lines), lines
    assert not (folder / "never.crawl").exists() and not (folder / "never.seed").exists()
    assert not (bot / "never.crawl").exists() and not (bot / "never.json").exists()
    for kept in ("recent", "played"):  # changed lately (may be starting), or under way
        assert (folder / f"{kept}.seed").exists()
        assert any(f"{kept}.crawl" in line and "interrupted" in line for line in lines)


def test_a_bot_played_seat_is_named_in_matches_replay_and_export(tmp_path: Path) -> None:
    (tmp_path / "matches").mkdir()
    path = tmp_path / "matches" / "b.crawl"
    path.write_bytes(with_a_bot())
    [line] = listing(tmp_path)
    assert re.search(r"\(a bot played P2's seat from level 2, room [1-5]\)", line), line
    replay = cryptcrawl("replay", "--plain", str(path))
    assert replay.returncode == 0, replay.stderr
    assert re.search(r"A bot played P2's seat from level 2, room [1-5]\.", replay.stdout)
    notes = [line for line in replay.stdout.splitlines()
             if line.startswith(("note:", "A bot"))]
    assert notes and not any("zombie" in line.lower() for line in notes), notes
    check = cryptcrawl("verify", str(path))
    assert "by a bot" in check.stdout and "its zombie" not in check.stdout
    export = cryptcrawl("export", str(path))  # JSON without --json
    assert export.returncode == 0, export.stderr
    doc = json.loads(export.stdout)
    assert any(e.get("by_bot") for e in doc["events"] if e["type"] == "action")


def test_replay_shows_face_up_rooms_and_running_totals(tmp_path: Path) -> None:
    path = tmp_path / "m.crawl"
    path.write_bytes(finished())
    result = cryptcrawl("replay", "--plain", str(path))
    rows = [line for line in result.stdout.splitlines() if line.startswith("Level ")
            and " of 5: " in line]
    assert len(rows) == 5
    assert all("[     ]" not in row for row in rows), rows  # room 1 is always face up
    assert result.stdout.count("Totals (coins/wounds): ") == 25
    also = cryptcrawl("export", "--json", str(path))  # --json still accepted
    assert also.returncode == 0 and json.loads(also.stdout)["verdict"]["status"] == "valid"


def test_the_matches_benchmark_reports_a_second_run_that_verifies_nothing() -> None:
    result = cryptcrawl("matches", "--files", "4", module="benchmarks")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.splitlines()[-1])
    assert report["files"] == 4 and report["verified_first"] == 4
    assert report["verified_second"] == 0 and report["seconds"] >= 0

"""``cryptcrawl replay`` and ``cryptcrawl export --json`` on a match file."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.scenario import raiders_network
from protocol.transcript import file_start, frame
from tests.cli.test_command import cryptcrawl


def _match(tmp_path: Path) -> Path:
    net = raiders_network(3, tag=b"record")
    net.pump()
    path = tmp_path / "m.crawl"
    path.write_bytes(file_start(net.header) + b"".join(frame(m.encode()) for m in net.log))
    return path


def test_replay_plain_prints_every_room_and_the_scoreboard(tmp_path: Path) -> None:
    result = cryptcrawl("replay", "--plain", str(_match(tmp_path)))
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("=== Level") == 5
    assert result.stdout.count("Room ") >= 25 and "Final scores" in result.stdout


def test_export_json_holds_the_header_verdict_events_and_messages(tmp_path: Path) -> None:
    result = cryptcrawl("export", "--json", str(_match(tmp_path)))
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["format"] == "cryptcrawl-export/3"
    assert doc["verdict"]["status"] == "valid"
    assert [s["name"] for s in doc["header"]["seats"]] == ["P0", "P1", "P2"]
    chances = [e for e in doc["events"] if e["type"] == "chance"]
    assert len(chances) == 3 + 5 * 6
    # A seat looked at the face-down cards once: the generic name of its private-knowledge round.
    [key] = [e for e in doc["events"] if e["type"] == "round key"]
    assert key["seat"] in (0, 1, 2) and key["lying deliveries"] == []
    assert sum(len(f) for f in doc["feeds"]) > 200


def test_unreadable_files_are_one_line_errors(tmp_path: Path) -> None:
    junk = tmp_path / "junk.crawl"
    junk.write_bytes(b"not a match")
    for args in (("replay", str(junk)), ("export", "--json", str(junk)),
                 ("replay", str(tmp_path / "missing.crawl"))):
        result = cryptcrawl(*args)
        assert result.returncode == 3, args
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr

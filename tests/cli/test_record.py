"""``cryptcrawl replay`` and ``cryptcrawl export --json`` on a match file."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.scenario import raiders_network
from protocol.wire.transcript import file_start, frame
from tests.cli.test_command import cryptcrawl

VECTORS_V2 = Path(__file__).resolve().parents[1] / "vectors" / "v2"


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
    assert doc["format"] == "cryptcrawl-export/6"
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


def test_replay_and_export_of_a_match_abandoned_below_two_seats(tmp_path: Path) -> None:
    """Seat 2 is voted out, then seat 1 cheats: fewer than two players are left in a game with
    no forfeit, so the match is abandoned (protocol.md §7.7) — which replay says, and export
    records as a "floor" event."""
    from tests.protocol.mechanisms.test_floor import bad_reveal

    net = raiders_network(3, tag=b"floor-raiders")
    net.crash(2)
    bad_reveal(net, 1, "L1.R1.play")
    net.run_with_timeouts()
    path = tmp_path / "abandoned.crawl"
    path.write_bytes(net.match_file(0))
    result = cryptcrawl("replay", "--plain", str(path))
    assert result.returncode == 0, result.stderr
    assert "The match was abandoned: fewer than two players were left" in result.stdout
    result = cryptcrawl("export", "--json", str(path))
    doc = json.loads(result.stdout)
    assert doc["verdict"]["verdict"] == "abandoned" and doc["verdict"]["blamed"] == [1]
    [floor] = [e for e in doc["events"] if e["type"] == "floor"]
    assert (floor["seat"], floor["blamed"], floor["live"], floor["abandoned"]) == (
        1, [1], [0], True)
    result = cryptcrawl("verify", str(path))
    assert result.returncode == 7 and "ABANDONED" in result.stdout


def test_export_and_replay_of_a_claimed_match() -> None:
    """A seat that left, and a claim, appear in the export as events of their own; replay ends
    by saying who claimed the match (not that it was abandoned)."""
    path = VECTORS_V2 / "adversarial" / "claim.crawl"
    out = cryptcrawl("export", str(path))
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    [left] = [e for e in doc["events"] if e["type"] == "left"]
    [claim] = [e for e in doc["events"] if e["type"] == "claimed"]
    assert left["seat"] == 2 and (claim["claimant"], claim["seat"], claim["crossed"]) == (
        0, 1, False)
    replay = cryptcrawl("replay", str(path), stdin="")
    assert replay.returncode == 0, replay.stderr
    assert "claimed the match" in replay.stdout and "abandoned" not in replay.stdout

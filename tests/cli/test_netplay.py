"""``cryptcrawl play`` over the network: every bot a real peer on loopback, the match file
checked by ``cryptcrawl verify`` afterwards."""

from __future__ import annotations

import re
from pathlib import Path

from tests.cli.test_command import cryptcrawl


def _match_file(stdout: str) -> Path:
    found = re.search(r"The match file: (\S+\.crawl)", stdout)
    assert found, stdout[-2000:]
    return Path(found.group(1))


def test_all_bot_match_over_loopback_verifies(tmp_path: Path) -> None:
    out = tmp_path / "copy.crawl"
    result = cryptcrawl("play", "--players", "3", "--bots", "3", "--seed", "s",
                        "--data-dir", str(tmp_path / "data"), "--out", str(out), timeout=120)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "Final scores" in result.stdout
    assert "No dealer" in result.stdout and "key " in result.stdout
    assert _match_file(result.stdout) == out and out.exists()
    check = cryptcrawl("verify", str(out))
    assert check.returncode == 0, check.stdout + check.stderr
    assert "VALID" in check.stdout
    # The match was stored under the data directory (never the real one), its seed deleted.
    data = tmp_path / "data" / "matches"
    assert list(data.glob("*.crawl")) and not list(data.glob("*.seed"))


def test_a_person_plays_a_whole_match_from_standard_input(tmp_path: Path) -> None:
    """Five levels of cards typed on standard input (the highest legal card each time is not
    needed: a wrong one gets a one-line error and the next line is tried)."""
    lines = "\n".join(["play 5", "play 4", "play 3", "play 2", "play 1", "play sword",
                       "play key", "play torch", "play crystal"] * 40) + "\n"
    result = cryptcrawl("play", "--players", "3", "--seed", "t", "--name", "Ana",
                        "--data-dir", str(tmp_path / "data"), "--timeouts", "30,30,30,20",
                        stdin=lines, timeout=180)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Final scores" in result.stdout
    assert "your card> " in result.stdout
    check = cryptcrawl("verify", "--json", str(_match_file(result.stdout)))
    assert check.returncode == 0, check.stdout
    assert '"status": "valid"' in check.stdout

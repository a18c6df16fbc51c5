"""``cryptcrawl host`` and ``join`` in two processes on loopback (zeroconf bound to 127.0.0.1),
to the end of a match; ``matches`` and ``id``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.test_command import ROOT, cryptcrawl

pytestmark = pytest.mark.mdns  # multicast DNS on 127.0.0.1: one such test at a time

CARDS = "".join(f"{c}\n" for c in ["play 5", "play 4", "play 3", "play 2", "play 1",
                                    "play sword", "play key", "play torch", "play crystal"] * 40)


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)


def test_host_and_join_by_name_over_zeroconf_on_loopback(
        tmp_path: Path, processes: list[subprocess.Popen[str]]) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    name = f"T{os.getpid()}"
    host = subprocess.Popen(
        [sys.executable, "-m", "cli", "host", "--data-dir", str(tmp_path / "h"), "--players",
         "3", "--bots", "1", "--interface", "127.0.0.1", "--yes", "--table-name", name,
         "--name", "Hal", "--timeouts", "30,30,30,20"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=ROOT, env=env)
    processes.append(host)
    assert host.stdin is not None
    host.stdin.write(CARDS)  # the person's cards, ready before the match needs them
    host.stdin.flush()
    joined = cryptcrawl("join", name, "--data-dir", str(tmp_path / "j"), "--interface",
                        "127.0.0.1", "--bot", "random", "--name", "Joe", "--wait", "8",
                        timeout=150)
    out, err = host.communicate(timeout=150)
    assert joined.returncode == 0, joined.stdout[-1500:] + joined.stderr
    assert host.returncode == 0, out[-1500:] + err
    assert "Traceback" not in err + joined.stderr
    assert f"Joining '{name}'" in joined.stdout
    # Seated, then told who sits at the table (the LOBBY frame) before play starts.
    assert f"You sit at '{name}' as seat C of 3" in joined.stdout, joined.stdout[:1500]
    # The host's speed, in its advert (before joining) and when seated.
    speed = "speed custom (a move 30 s, quick 30 s, long 30 s; then 20 s of silence)"
    assert joined.stdout.count(speed) == 2, joined.stdout[:1500]
    assert speed in out
    assert re.search(r"At the table, 3 of 3: Hal \[[-0-9a-f]+\], Bot 1 \(normal\) "
                     r"\[[-0-9a-f]+\], Joe "
                     r"\[[-0-9a-f]+\]", joined.stdout), joined.stdout[:1500]
    assert "Joe" in out and "wants to sit down" in out  # the opener saw the joiner's key
    # Both lobbies say what the table plays: the host's once it opens, the joiner's from the
    # advert before sitting down.
    assert "The table plays Dungeon Raiders, 3 players, basic game." in out
    assert re.search(r"Joining .*\): Dungeon Raiders\.", joined.stdout), joined.stdout
    # The bots run on the host's machine, and the joiner is told so (not "this machine").
    assert "The bots run on this machine" in out
    assert "The bots run on this machine" not in joined.stdout
    assert "run on the host's machine" in " ".join(joined.stdout.split())
    files = [Path(m) for m in re.findall(r"The match file: (\S+)", out + joined.stdout)]
    assert len(files) == 2 and files[0].name == files[1].name  # the same match
    for path in files:
        check = cryptcrawl("verify", str(path))
        assert check.returncode == 0, check.stdout
    history = cryptcrawl("matches", "--data-dir", str(tmp_path / "j"))
    assert history.returncode == 0 and "Hal, Bot 1 (normal), Joe" in history.stdout


def test_join_names_a_missing_table_in_one_line(tmp_path: Path) -> None:
    result = cryptcrawl("join", "no-such-table", "--data-dir", str(tmp_path), "--interface",
                        "127.0.0.1", "--wait", "0.5")
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "no open table 'no-such-table'" in result.stderr
    assert "join HOST:PORT" in result.stderr


def test_id_creates_shows_exports_and_imports(tmp_path: Path) -> None:
    first = cryptcrawl("id", "--data-dir", str(tmp_path / "a"), "--export",
                       str(tmp_path / "backup.key"))
    assert first.returncode == 0 and "New identity" in first.stdout
    fp = re.search(r"identity: (\S+)", first.stdout)
    assert fp
    assert (tmp_path / "backup.key").stat().st_mode & 0o777 == 0o600
    again = cryptcrawl("id", "--data-dir", str(tmp_path / "b"), "--import",
                       str(tmp_path / "backup.key"))
    assert again.returncode == 0 and fp.group(1) in again.stdout
    assert (tmp_path / "b" / "identity.key").stat().st_mode & 0o777 == 0o600


def test_a_person_who_leaves_a_lan_match_for_good_is_not_waited_for(
        tmp_path: Path, processes: list[subprocess.Popen[str]]) -> None:
    """Line mode at a LAN table: `q`, then `l` (for good). The host's peer signs a LEAVE; the
    two joiners, each its own process, replace the seat at once and finish — well within the
    30 s turn timeout they would otherwise have waited out first — while the host's program
    takes the rest read-only (issue 48): its copy completes, and it shows the result."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    name = f"L{os.getpid()}"
    host = subprocess.Popen(
        [sys.executable, "-m", "cli", "host", "--data-dir", str(tmp_path / "h"), "--players",
         "3", "--bots", "0", "--interface", "127.0.0.1", "--yes", "--table-name", name,
         "--name", "Hal", "--timeouts", "30,30,30,30"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=ROOT, env=env)
    processes.append(host)
    assert host.stdin is not None
    host.stdin.write("play 5\nq\nl\n")  # one room, then leave for good
    host.stdin.flush()
    joiners = [subprocess.Popen(
        [sys.executable, "-m", "cli", "join", name, "--data-dir", str(tmp_path / f"j{i}"),
         "--interface", "127.0.0.1", "--bot", "random", "--name", f"Joe {i}", "--wait", "8"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
        for i in (1, 2)]
    processes.extend(joiners)
    left_at = time.monotonic()
    for joiner in joiners:
        jout, jerr = joiner.communicate(timeout=120)
        assert joiner.returncode == 0, jout[-1500:] + jerr
        assert "Traceback" not in jerr
        assert "Hal left the match for good." in jout, jout[-2000:]
        assert "A bot plays Hal's seat from now on." in jout, jout[-2000:]
        path = re.findall(r"The match file: (\S+)", jout)[-1]
        check = cryptcrawl("verify", path)
        assert check.returncode == 0 and "seat 0 left the match for good" in check.stdout, (
            check.stdout)
    assert time.monotonic() - left_at < 30, "the joiners waited out a timeout"
    out, err = host.communicate(timeout=60)
    assert host.returncode == 0, out[-1500:] + err
    assert "You left the match for good; a bot plays your seat from now on." in " ".join(
        out.split()), out[-1500:]
    assert "Final scores" in out, out[-1500:]
    [mine] = re.findall(r"The match file: (\S+)", out)
    check = cryptcrawl("verify", mine)
    assert check.returncode == 0 and "VALID" in check.stdout, check.stdout
    resume = cryptcrawl("resume", "--data-dir", str(tmp_path / "h"))
    assert resume.returncode != 0 and "no interrupted match" in resume.stdout + resume.stderr


def test_a_person_who_resigns_a_two_seat_lan_match_loses_it(
        tmp_path: Path, processes: list[subprocess.Popen[str]]) -> None:
    """Line mode at a two-seat Dungeons of Kards table: `q`, then `r` (resign). The host's peer
    signs a RESIGN and stops; the joiner's match ends at once with the game's result — the
    resigner loses — and its file says so (protocol.md §7.7)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    name = f"R{os.getpid()}"
    host = subprocess.Popen(
        [sys.executable, "-m", "cli", "host", "--game", "kards", "--data-dir",
         str(tmp_path / "h"), "--players", "2", "--bots", "0", "--interface", "127.0.0.1",
         "--yes", "--table-name", name, "--name", "Hal", "--timeouts", "30,30,30,30"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=ROOT, env=env)
    processes.append(host)
    assert host.stdin is not None
    host.stdin.write("q\nr\n")  # at the first decision: resign
    host.stdin.flush()
    joiner = subprocess.Popen(
        [sys.executable, "-m", "cli", "join", name, "--data-dir", str(tmp_path / "j"),
         "--interface", "127.0.0.1", "--bot", "random", "--name", "Joe", "--wait", "8"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    processes.append(joiner)
    out, err = host.communicate(timeout=120)
    assert host.returncode == 0, out[-1500:] + err
    assert "r: resign" in out and "You resigned; with one player left, the match ends here." in (
        " ".join(out.split())), out[-1500:]
    # The resigner's own copy completes (issue 48): the result, the file, and a valid verdict.
    assert "Joe wins." in out, out[-1500:]
    [mine] = re.findall(r"The match file: (\S+)", out)
    check = cryptcrawl("verify", mine)
    assert check.returncode == 0 and "VALID" in check.stdout, check.stdout
    record = json.loads(cryptcrawl("stats", "--json", "--data-dir", str(tmp_path / "h")).stdout)
    assert record["games"]["kards"]["games"] == 1 and record["games"]["kards"]["wins"] == 0
    jout, jerr = joiner.communicate(timeout=60)
    assert joiner.returncode == 0, jout[-1500:] + jerr
    assert "Hal resigned." in jout, jout[-2000:]
    path = re.findall(r"The match file: (\S+)", jout)[-1]
    check = cryptcrawl("verify", "--json", path)
    assert check.returncode == 0 and '"status": "valid"' in check.stdout, check.stdout
    assert "seat 0 resigned and left the match for good" in check.stdout, check.stdout
    assert '"winners": [\n    1\n  ]' in check.stdout or '"winners": [1]' in check.stdout, (
        check.stdout)

"""What the console can throw at ``cryptcrawl play`` (found by exploratory testing): a byte
that is not text, a name the terminal cannot show, an output that goes away, an ``--out`` that
would overwrite a file.  Each ends in a clear line, never a traceback or a match that waits for
good, and loses nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.cli.test_command import ROOT, cryptcrawl


def test_a_byte_that_is_not_text_is_refused_like_a_typo(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8:strict"}
    env.pop("CRYPTCRAWL_DEBUG", None)
    done = subprocess.run(
        [sys.executable, "-m", "cli", "play", "--players", "3", "--data-dir",
         str(tmp_path / "data"), "--timeouts", "30,30,30,20"],
        input=b"\xff\n", capture_output=True, cwd=ROOT, env=env, timeout=120, check=False)
    out, err = done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")
    assert "Traceback" not in err and "internal error" not in err, err
    assert "unknown action" in out, out[-1500:]
    assert done.returncode == 1 and "input ended while the game waited" in err, err


def test_a_name_the_terminal_cannot_show_is_written_as_question_marks(tmp_path: Path) -> None:
    """An ASCII-only terminal and a player named "José 🎲": the name shows as "Jose ?" (a
    letter as its base letter, what has none as ?), the game goes on.  (Before, the first
    table drawn stopped the match with a traceback.)"""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "ascii"}
    env.pop("CRYPTCRAWL_DEBUG", None)
    done = subprocess.run(
        [sys.executable, "-m", "cli", "play", "--plain", "--players", "3", "--name",
         "José 🎲", "--data-dir", str(tmp_path / "data"), "--timeouts", "30,30,30,20"],
        input=b"q\ny\n", capture_output=True, cwd=ROOT, env=env, timeout=120, check=False)
    out, err = done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")
    assert "Traceback" not in err and "internal error" not in err, err
    assert done.returncode == 0, err
    assert "you (Jose ?)" in out and "You left the game; it stops here." in out, out[-1500:]


def test_an_output_that_goes_away_stops_the_match_with_one_line(tmp_path: Path) -> None:
    """``cryptcrawl play | head -3``: the rest of the match has nobody to show it to."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("CRYPTCRAWL_DEBUG", None)
    data = tmp_path / "data"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", "play", "--players", "3", "--data-dir", str(data),
         "--timeouts", "30,30,30,20"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
        env=env)
    try:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.readline()
        proc.stdout.close()  # like head: the pipe's reader is gone
        err = proc.stderr.read().decode(errors="replace")
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    assert code == 1, err
    assert err.strip().splitlines() == [
        "cryptcrawl play: the output went away (Broken pipe); you left the game"], err
    assert list((data / "matches").glob("*.crawl")), "the match file is kept"


def test_out_never_overwrites_a_file(tmp_path: Path) -> None:
    taken = tmp_path / "taken.crawl"
    taken.write_bytes(b"another match")
    result = cryptcrawl("play", "--bots", "3", "--players", "3", "--data-dir",
                        str(tmp_path / "data"), "--out", str(taken))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "there is a file there already" in result.stderr
    assert taken.read_bytes() == b"another match"
    assert not (tmp_path / "data" / "matches").exists()  # refused before any match began


def test_out_is_checked_before_the_match(tmp_path: Path) -> None:
    for args, says in (
            (("--out", str(tmp_path / "no" / "such" / "dir.crawl")), "there is no directory"),
            (("--deal-seed", "x", "--out", str(tmp_path)), "there is a file there already"),
    ):  # (offline, --out keeps the game's record: checked before the game as well)
        result = cryptcrawl("play", "--data-dir", str(tmp_path / "data"), *args)
        assert result.returncode == 2, result.stderr
        assert result.stderr.count("\n") == 1 and says in result.stderr, result.stderr

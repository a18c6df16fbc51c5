"""The full-screen view through a pseudo-terminal: keys in, screen out, to the end."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import struct
import sys
import termios
import time
from pathlib import Path

import pytest

from tests.cli.test_command import ROOT, cryptcrawl


def _play_on_a_pty(argv: list[str], *, no_color: bool = False,
                   first: tuple[tuple[bytes, bytes], ...] = ()) -> str:
    """Run ``python -m cli ARGV`` on an 80x24 pseudo-terminal, pressing game keys (each one
    selects a card, Enter locks it in) until the match is over, then leave the end screen
    (which offers the rematch); the screen bytes."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the game, full screen on an 80x24 terminal
        os.environ.update(PYTHONPATH=str(ROOT), TERM="xterm")
        if no_color:
            os.environ["NO_COLOR"] = "1"
        os.chdir(ROOT)
        try:
            os.execv(sys.executable, [sys.executable, "-m", "cli", *argv])
        finally:
            os._exit(127)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    out = b""
    keys = [b"5", b"\r", b"4", b"\r", b"3", b"\r", b"2", b"\r", b"1", b"\r", b"s", b"\r",
            b"k", b"\r", b"c", b"\r", b"T", b"\r"]
    pending = list(first)  # (key, the text the screen must show before it is pressed)
    sent = 0
    answered = False
    deadline = time.monotonic() + 150
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            if b"The match is over" in out[-4000:]:
                if not answered:  # the end screen (with the rematch offer): leave it
                    os.write(fd, b"q")
                    answered = True
                continue
            if pending and pending[0][1] not in re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", out):
                continue
            key = pending.pop(0)[0] if pending else keys[sent % len(keys)]
            try:
                os.write(fd, key)
            except OSError:
                break
            sent += 1
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 9)
        _, _status = os.waitpid(pid, 0)
        os.close(fd)
    return out.decode(errors="replace")


def _check_screens(text: str, data: Path, *, no_color: bool = False) -> None:
    # (Raw bytes: the screen is redrawn by differences, so a title that changes by one digit
    # is one digit; tests/cli/test_screen_pty.py reads the emulated screen instead.)
    for shown in ("Level 1/5", "YOUR MOVE", "Your cards", "Game over", "Final scores",
                  "The match file", "Locked in"):
        assert shown in text, shown
    assert "Traceback" not in text
    if no_color:
        assert "\x1b[38;" not in text and "\x1b[48;" not in text  # no colour escapes
    files = list((data / "matches").glob("*.crawl"))
    assert len(files) == 1
    check = cryptcrawl("verify", str(files[0]))
    assert check.returncode == 0, check.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals")
@pytest.mark.parametrize("no_color", [False, True])
def test_full_screen_game_with_keys_to_the_end(tmp_path: Path, no_color: bool) -> None:
    text = _play_on_a_pty(["play", "--players", "3", "--data-dir", str(tmp_path),
                           "--timeouts", "30,30,30,20"], no_color=no_color)
    _check_screens(text, tmp_path, no_color=no_color)
    assert "r rematch (the same seats, a new match)" in text  # offered on the end screen
    assert "Rematch:" not in text  # (not asked again in line mode)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals")
def test_p_offers_a_pause_and_d_a_draw_on_the_full_screen(tmp_path: Path) -> None:
    """P offers the bots a pause (they agree: the status line says so, no clock runs), P again
    resumes, D offers a draw (Dungeon Raiders has none: the reason shows), and the file notes
    the pause (protocol.md §7.7)."""
    text = _play_on_a_pty(["play", "--players", "3", "--data-dir", str(tmp_path),
                           "--timeouts", "30,30,30,20"],
                          first=((b"P", b"YOUR MOVE"), (b"D", b"Paused by agreement"),
                                 (b"P", b"no draw by agreement")))
    # (Escapes out: a line may be drawn with a style change, or a cursor move, inside it.)
    plain_text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
    # (The reason is "raiders has no draw by agreement"; the screen is redrawn by differences,
    # so the cells that already held the same letters — "raiders has" over an earlier status
    # line — may not be written again: the test reads the part that is always new.)
    for shown in ("Paused by agreement", "P resume", "no draw by agreement", "You resumed"):
        assert shown in plain_text, shown
    _check_screens(text, tmp_path)
    [file] = (tmp_path / "matches").glob("*.crawl")
    check = cryptcrawl("verify", str(file))
    assert "offered a pause" in check.stdout and "resumed the match" in check.stdout, check.stdout


@pytest.mark.mdns
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals")
def test_host_on_a_terminal_plays_full_screen_once_the_match_starts(tmp_path: Path) -> None:
    """``cryptcrawl host`` with bots at the other seats (advertised on loopback only): the
    lobby in line mode, then the same full-screen match as ``play``."""
    text = _play_on_a_pty(["host", "--players", "3", "--bots", "2", "--interface",
                           "127.0.0.1", "--data-dir", str(tmp_path), "--timeouts", "30,30,30,20"])
    assert "Table " in text and "is open on port" in text  # the lobby, in line mode
    _check_screens(text, tmp_path)
